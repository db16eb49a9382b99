//! The decision log (`log.jsonl` in the state place): every decision's line, with the adapter's raw
//! answers and the input's candidates next to it, so `why` can explain it from the log alone.

use crate::decide::Round;
use evoke_core::recognize::Candidate;
use serde_json::{Map, Value};
use std::io::Write;
use std::path::Path;

/// Appends one entry: the line's fields, then `answers` and `candidates`.
pub fn append(path: &Path, line: &Value, rounds: &[Round], candidates: &[Candidate]) -> std::io::Result<()> {
    let mut entry: Map<String, Value> = line.as_object().cloned().unwrap_or_default();
    entry.insert("answers".into(), serde_json::to_value(rounds)?);
    entry.insert("candidates".into(), serde_json::to_value(candidates)?);
    let mut text = serde_json::to_string(&Value::Object(entry))?;
    text.push('\n');
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    // One write of one whole line in append mode: concurrent evokes interleave lines, never bytes of one.
    let mut file = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
    file.write_all(text.as_bytes())
}

/// The `back`-th entry from the end (1 is the last decision).
pub fn entry(path: &Path, back: usize) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|_| format!("no decision is logged yet ({} is missing)", path.display()))?;
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if back == 0 || back > lines.len() {
        return Err(format!("the log holds {} decision{}; `evoke why N` counts back from 1, the last", lines.len(), if lines.len() == 1 { "" } else { "s" }));
    }
    let line = lines[lines.len() - back];
    serde_json::from_str(line).map_err(|e| format!("{}: entry {} from the end is not JSON: {e}", path.display(), back))
}
