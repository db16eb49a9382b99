//! The decision log (`log.jsonl` in the state place): every decision's line, with the adapter's raw
//! answers and the input's candidates next to it, so `why` can explain it from the log alone.

use crate::drive::Round;
use crate::error::CommandError;
use evoke_core::recognize::Candidate;
use evoke_core::text::escape_outside;
use serde_json::Value;
use std::io::Write;
use std::path::Path;

/// The log, opened once for a session and appended to line by line.
pub struct Log {
    /// Kept whole when the log did not open, so every append that follows says why.
    file: Result<std::fs::File, std::sync::Arc<std::io::Error>>,
    /// Entries appended while batching and not written yet; `None` when each entry is written at once.
    pending: Option<Vec<u8>>,
}

/// The most the log holds back while batching: past it, the entries are written at once.
pub const PENDING_BYTES: usize = 256 << 10;

impl Log {
    /// Opens the log for appending, creating its place. A log that cannot be opened is reported on the
    /// first append, so a decision is never lost silently.
    pub fn open(path: &Path) -> Log {
        // 0600 in a 0700 place: the log holds every request a person made.
        let file = evoke_files::places::open_log(path).map_err(std::sync::Arc::new);
        Log { file, pending: None }
    }

    /// A log that writes nothing: every append says it could not be written.
    pub fn closed() -> Log {
        let why = std::io::Error::other("no log is kept where no decision can be made");
        Log { file: Err(std::sync::Arc::new(why)), pending: None }
    }

    /// From now on, hold the entries back and write them together at [`Log::flush`] (or past
    /// [`PENDING_BYTES`], or when the log is dropped): `try`'s filter writes its log when it would wait for
    /// input, as it writes its output, not one write for every line. (`say` runs bodies, so each of its
    /// entries is written before the next decision.)
    pub fn batch(&mut self) -> &mut Log {
        self.pending.get_or_insert_with(Vec::new);
        self
    }

    /// Writes what is held back, in one write. The entries that could not be written are dropped and
    /// counted in the error, so the caller can say how many decisions went unlogged.
    pub fn flush(&mut self) -> Result<(), Unlogged> {
        let Some(pending) = self.pending.as_mut().filter(|p| !p.is_empty()) else { return Ok(()) };
        let entries = pending.iter().filter(|b| **b == b'\n').count();
        let written = match self.file.as_mut() {
            // One write of whole lines in append mode: concurrent evokes interleave lines, never bytes.
            Ok(file) => file.write_all(pending).map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        pending.clear();
        written.map_err(|message| Unlogged { entries, message })
    }

    /// Appends one entry: the line's fields, then `answers` and `candidates`. `line` is the line's JSON
    /// object as printed, so the log holds exactly what was shown, but for a result over [`RESULT_KEPT`],
    /// which is cut.
    pub fn append(&mut self, line: &str, rounds: &[Round], candidates: &[Candidate]) -> std::io::Result<()> {
        let file = self.file.as_mut().map_err(|e| std::io::Error::new(e.kind(), e.to_string()))?;
        let kept = cut(line);
        let line = kept.as_deref().unwrap_or(line);
        let body = line.trim_end().strip_suffix('}').ok_or_else(|| std::io::Error::other("a line is a JSON object"))?;
        let mut text = String::with_capacity(line.len() + 256);
        text.push_str(body);
        text.push_str(if body.ends_with('{') { "\"answers\":" } else { ",\"answers\":" });
        text.push_str(&serde_json::to_string(rounds)?);
        text.push_str(",\"candidates\":");
        text.push_str(&serde_json::to_string(candidates)?);
        text.push_str("}\n");
        match self.pending.as_mut() {
            Some(pending) => {
                pending.extend_from_slice(text.as_bytes());
                if pending.len() >= PENDING_BYTES {
                    self.flush().map_err(|e| std::io::Error::other(e.to_string()))?;
                }
                Ok(())
            }
            // One write of one whole line in append mode: concurrent evokes interleave lines, never bytes.
            None => file.write_all(text.as_bytes()),
        }
    }
}

impl Drop for Log {
    fn drop(&mut self) {
        if let Err(e) = self.flush() {
            // A drop has no command's `Ui` to hand: the process's own streams.
            crate::ui::Ui::terminal().err(&format!("warning: {e}\n"));
        }
    }
}

/// Entries held back that could not be written.
#[derive(Debug)]
pub struct Unlogged {
    pub entries: usize,
    pub message: String,
}

impl std::fmt::Display for Unlogged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = if self.entries == 1 { "" } else { "s" };
        write!(f, "{} decision{s} were not logged: {}", self.entries, escape_outside(&self.message))
    }
}

/// The most of a body's result the log keeps, in bytes of its JSON: 64 KiB. A result may be 1 MiB; the
/// log keeps every decision, so it keeps a bounded part of each.
pub const RESULT_KEPT: usize = 64 << 10;

/// The line with its `result` cut to [`RESULT_KEPT`], or `None` when it fits as it is. A cut result keeps
/// the start of its text, drops its `data`, and says what it was in `cut: { result: BYTES }`, the size of
/// the whole result's JSON, so `why` never mistakes the part for the whole.
fn cut(line: &str) -> Option<String> {
    if line.len() <= RESULT_KEPT {
        return None;
    }
    let mut value: Value = serde_json::from_str(line).ok()?;
    let object = value.as_object_mut()?;
    let whole = serde_json::to_string(object.get("result")?).ok()?.len();
    if whole <= RESULT_KEPT {
        return None;
    }
    let text = object.get("result")?.get("text").and_then(Value::as_str).unwrap_or_default();
    // The text is cut where its JSON, escapes and all, would pass what the log keeps.
    let mut room = RESULT_KEPT - r#"{"text":""}"#.len();
    let mut end = 0;
    for c in text.chars() {
        let escaped = match c {
            '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{c}' => 2,
            c if (c as u32) < 0x20 => 6,
            c => c.len_utf8(),
        };
        if escaped > room {
            break;
        }
        room -= escaped;
        end += c.len_utf8();
    }
    let part = serde_json::json!({ "text": &text[..end] });
    object.insert("result".into(), part);
    object.insert("cut".into(), serde_json::json!({ "result": whole }));
    serde_json::to_string(&value).ok()
}

/// The `back`-th entry from the end (1 is the last decision). The log is read from its end, a block at a
/// time, and only the line asked for is parsed: a long log costs what lies after that line, and a broken
/// line before it is never read.
/// Every fault is a usage error: the log is a file the command names by N.
pub fn entry(path: &Path, back: usize) -> Result<Value, CommandError> {
    use std::io::{Read, Seek, SeekFrom};
    const BLOCK: u64 = 64 << 10;
    let missing = || CommandError::usage(format!("no decision is logged yet ({} is missing)", path.display()));
    let mut file = std::fs::File::open(path).map_err(|_| missing())?;
    let mut at = file.metadata().map_err(|_| missing())?.len();
    let parse = |line: &[u8]| {
        serde_json::from_slice(line)
            .map_err(|e| CommandError::usage(format!("{}: entry {back} from the end is not JSON: {e}", path.display())))
    };
    let is_entry = |line: &[u8]| !line.trim_ascii().is_empty();
    let mut found = 0;
    // The end of the line being read backwards: the bytes between the block read last and the next line feed.
    let mut carry: Vec<u8> = Vec::new();
    let mut block = Vec::with_capacity(BLOCK as usize);
    while at > 0 {
        let start = at.saturating_sub(BLOCK);
        block.resize((at - start) as usize, 0);
        file.seek(SeekFrom::Start(start))
            .and_then(|_| file.read_exact(&mut block))
            .map_err(|e| CommandError::usage(format!("cannot read {}: {e}", path.display())))?;
        let mut rest = &block[..];
        while let Some(feed) = rest.iter().rposition(|b| *b == b'\n') {
            let mut line = rest[feed + 1..].to_vec();
            line.append(&mut carry);
            if is_entry(&line) {
                found += 1;
                if found == back {
                    return parse(&line);
                }
            }
            rest = &rest[..feed];
        }
        let mut line = rest.to_vec();
        line.append(&mut carry);
        carry = line;
        at = start;
    }
    if is_entry(&carry) {
        found += 1;
        if found == back {
            return parse(&carry);
        }
    }
    Err(CommandError::usage(held(found)))
}

fn held(count: usize) -> String {
    format!(
        "the log holds {count} decision{}; `evoke why N` counts back from 1, the last",
        if count == 1 { "" } else { "s" }
    )
}

#[cfg(test)]
mod tests {
    use super::{Log, RESULT_KEPT, cut, entry};

    fn lines(path: &std::path::Path) -> usize {
        std::fs::read_to_string(path).unwrap_or_default().lines().count()
    }

    #[test]
    fn a_batching_log_writes_at_flush_and_at_drop_and_a_plain_one_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.jsonl");
        let mut log = Log::open(&path);
        log.append(r#"{"input":"a"}"#, &[], &[]).unwrap();
        assert_eq!(lines(&path), 1, "written at once");
        log.batch();
        log.append(r#"{"input":"b"}"#, &[], &[]).unwrap();
        log.append(r#"{"input":"c"}"#, &[], &[]).unwrap();
        assert_eq!(lines(&path), 1, "held back");
        log.flush().unwrap();
        assert_eq!(lines(&path), 3);
        assert_eq!(entry(&path, 1).unwrap()["input"], "c");
        log.append(r#"{"input":"d"}"#, &[], &[]).unwrap();
        drop(log);
        assert_eq!(entry(&path, 1).unwrap()["input"], "d", "dropping the log writes what it held");
    }

    #[test]
    fn a_batch_past_its_bound_is_written_without_waiting_for_a_flush() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.jsonl");
        let mut log = Log::open(&path);
        log.batch();
        let line = format!(r#"{{"input":"{}"}}"#, "x".repeat(1000));
        let mut appended = 0;
        while lines(&path) == 0 {
            log.append(&line, &[], &[]).unwrap();
            appended += 1;
            assert!(appended * 1000 <= super::PENDING_BYTES + 2000, "never written");
        }
        assert_eq!(lines(&path), appended);
    }

    #[test]
    fn entries_that_cannot_be_written_are_counted_in_the_warning() {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let mut log = Log { file: Ok(full), pending: None };
        log.batch();
        log.append(r#"{"input":"a"}"#, &[], &[]).unwrap();
        log.append(r#"{"input":"b"}"#, &[], &[]).unwrap();
        let unlogged = log.flush().unwrap_err();
        assert_eq!(unlogged.entries, 2);
        assert!(unlogged.to_string().starts_with("2 decisions were not logged: "), "{unlogged}");
        assert!(log.flush().is_ok(), "what could not be written is dropped, not written twice");
    }

    #[test]
    fn an_entry_is_read_from_the_end_whatever_lies_before_it() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("log.jsonl");
        // A line that is not UTF-8 nor JSON, a long line across blocks, blank lines, and no final line feed.
        let mut text = b"{\"input\":\"first\"}\n\xff\xfe not json\n\n".to_vec();
        text.extend(format!("{{\"input\":\"{}\"}}\n  \n", "x".repeat(200_000)).as_bytes());
        text.extend(b"{\"input\":\"last\"}");
        std::fs::write(&log, &text).unwrap();
        assert_eq!(entry(&log, 1).unwrap()["input"], "last");
        assert_eq!(entry(&log, 2).unwrap()["input"].as_str().unwrap().len(), 200_000);
        assert!(entry(&log, 3).unwrap_err().message.contains("entry 3 from the end is not JSON"));
        assert_eq!(entry(&log, 4).unwrap()["input"], "first");
        assert!(entry(&log, 5).unwrap_err().message.starts_with("the log holds 4 decisions;"));
        assert!(entry(&log, 0).unwrap_err().message.starts_with("the log holds 4 decisions;"));
        assert!(entry(&dir.path().join("none"), 1).unwrap_err().message.starts_with("no decision is logged yet"));
    }

    #[test]
    fn a_cut_result_fits_whatever_its_escapes() {
        for unit in ["a", "\"", "\u{1}", "é", "\n"] {
            let text = unit.repeat(200_000);
            let line = serde_json::json!({ "input": "x", "result": { "text": text, "data": [1] } }).to_string();
            let kept: serde_json::Value = serde_json::from_str(&cut(&line).unwrap()).unwrap();
            let result = serde_json::to_string(&kept["result"]).unwrap();
            assert!(result.len() <= RESULT_KEPT, "{unit:?}: {} bytes", result.len());
            assert!(result.len() > RESULT_KEPT - 8, "{unit:?}: only {} bytes kept", result.len());
            assert!(kept["result"].get("data").is_none());
            assert!(text.starts_with(kept["result"]["text"].as_str().unwrap()));
            assert!(kept["cut"]["result"].as_u64().unwrap() > 200_000);
        }
        let small = r#"{"input":"x","result":{"text":"ok"}}"#;
        assert_eq!(cut(small), None);
    }
}
