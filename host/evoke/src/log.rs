//! The decision log (`log.jsonl` in the state place): every decision's line, with the adapter's raw
//! answers and the input's candidates next to it, so `why` can explain it from the log alone.

use crate::decide::Round;
use evoke_core::recognize::Candidate;
use serde_json::Value;
use std::io::Write;
use std::path::Path;

/// The log, opened once for a session and appended to line by line.
pub struct Log {
    file: Option<std::fs::File>,
    path: std::path::PathBuf,
}

impl Log {
    /// Opens the log for appending, creating its place. A log that cannot be opened is reported on the
    /// first append, so a decision is never lost silently.
    pub fn open(path: &Path) -> Log {
        // 0600 in a 0700 place: the log holds every request a person made.
        let file = evoke_files::places::open_log(path).ok();
        Log { file, path: path.to_path_buf() }
    }

    /// Appends one entry: the line's fields, then `answers` and `candidates`. `line` is the line's JSON
    /// object as printed, so the log holds exactly what was shown.
    pub fn append(&mut self, line: &str, rounds: &[Round], candidates: &[Candidate]) -> std::io::Result<()> {
        let Some(file) = self.file.as_mut() else {
            return Err(std::io::Error::other(format!("cannot open {}", self.path.display())));
        };
        let body = line.trim_end().strip_suffix('}').ok_or_else(|| std::io::Error::other("a line is a JSON object"))?;
        let mut text = String::with_capacity(line.len() + 256);
        text.push_str(body);
        text.push_str(if body.ends_with('{') { "\"answers\":" } else { ",\"answers\":" });
        text.push_str(&serde_json::to_string(rounds)?);
        text.push_str(",\"candidates\":");
        text.push_str(&serde_json::to_string(candidates)?);
        text.push_str("}\n");
        // One write of one whole line in append mode: concurrent evokes interleave lines, never bytes.
        file.write_all(text.as_bytes())
    }
}

/// The `back`-th entry from the end (1 is the last decision).
pub fn entry(path: &Path, back: usize) -> Result<Value, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|_| format!("no decision is logged yet ({} is missing)", path.display()))?;
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if back == 0 || back > lines.len() {
        return Err(format!(
            "the log holds {} decision{}; `evoke why N` counts back from 1, the last",
            lines.len(),
            if lines.len() == 1 { "" } else { "s" }
        ));
    }
    let line = lines[lines.len() - back];
    serde_json::from_str(line).map_err(|e| format!("{}: entry {} from the end is not JSON: {e}", path.display(), back))
}
