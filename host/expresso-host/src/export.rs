//! `expresso export`: `serve`'s log as a file `expresso run` replays to the same effects.
//!
//! The file is JSON lines that `run` reads as an event log, in the order the host fired the events (its
//! log positions), with what 002 §8 asks to go with it as `#` lines, which a plain event-log reader skips:
//!
//! ```text
//! #expresso-export {"version":1,"events":N,"corrections":M}
//! #release {"seq":1,"partition":["acme","#support"],"watermark":1500,"late":false,"why":"watermark",...}
//! {"id":"a",...}                       the event at log position 1
//! ...
//! #correction {"id":"a","rev":1,"fate":"refused","reason":"...","at_ms":...}
//! ```
//!
//! `run` sees the header and replays the events as they stand, without the event-time sort it gives a
//! log of its own: the order was decided by the watermark schedule, which the `#release` lines record
//! (a late event stands where it fired). A refused correction never ran, so it is not an event line;
//! its `#correction` line says what became of it. The header's count lets `run` refuse a cut-off file.

use crate::error::Error;
use crate::watermark::Correction;
use expresso_runtime::Event;
use expresso_runtime::bounds::MAX_EVENTS;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::Path;

/// The first line's opening word, by which `run` knows an export.
pub const HEADER: &str = "#expresso-export";
pub const VERSION: u64 = 1;
/// Events read from the store per query.
const CHUNK: usize = 1_000;

/// What an export needs of a store.
pub trait Exported {
    /// Up to `limit` events after log position `after`, in log order, over the whole log.
    fn log_after(&mut self, after: i64, limit: usize) -> Result<Vec<(i64, Event)>, Error>;
    /// The schedule rows of the log positions after `after`, by position.
    fn schedule_from(&mut self, after: i64, limit: usize) -> Result<HashMap<i64, Value>, Error>;
    /// Every correction refused or superseded, at most `limit`.
    fn all_corrections(&mut self, limit: usize) -> Result<Vec<Correction>, Error>;
    /// Up to `limit` journal entries whose key comes after `after`, in key order, as `(key, value text)`.
    fn journal_after(&mut self, after: &str, limit: usize) -> Result<Vec<(String, String)>, Error>;
}

impl Exported for crate::store::Db {
    fn log_after(&mut self, after: i64, limit: usize) -> Result<Vec<(i64, Event)>, Error> {
        self.events_after(after, limit)
    }
    fn schedule_from(&mut self, after: i64, limit: usize) -> Result<HashMap<i64, Value>, Error> {
        self.schedule_after(after, limit)
    }
    fn all_corrections(&mut self, limit: usize) -> Result<Vec<Correction>, Error> {
        self.corrections(true, limit)
    }
    fn journal_after(&mut self, after: &str, limit: usize) -> Result<Vec<(String, String)>, Error> {
        let mut stmt =
            self.conn().prepare_cached("SELECT key, value FROM journal WHERE key > ?1 ORDER BY key LIMIT ?2")?;
        let rows = stmt.query_map(rusqlite::params![after, limit as i64], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }
}

/// Writes the store's journal J as a journal file `run --journal` reads (`{"expresso": "journal",
/// "version": 1, "entries": {…}}`), at once: `run` over the export then calls no provider for an answer
/// `serve` had. Refused past the size `run` reads (256 MiB). Returns how many entries it wrote.
pub fn write_journal(store: &mut dyn Exported, path: &Path) -> Result<usize, Error> {
    use expresso_runtime::bounds::MAX_STORE_BYTES;
    let mut entries = serde_json::Map::new();
    let (mut after, mut bytes) = (String::new(), 0u64);
    loop {
        let chunk = store.journal_after(&after, CHUNK)?;
        let Some(last) = chunk.last().map(|(k, _)| k.clone()) else { break };
        for (key, value) in chunk {
            bytes += (key.len() + value.len()) as u64;
            if bytes > MAX_STORE_BYTES {
                return Err(Error::Store(format!(
                    "the journal is larger than {MAX_STORE_BYTES} bytes, more than `expresso run` reads; export is refused"
                )));
            }
            let value: Value = serde_json::from_str(&value)
                .map_err(|e| Error::Store(format!("journal entry {key} does not read: {e}")))?;
            entries.insert(key, value);
        }
        after = last;
    }
    let n = entries.len();
    let mut text = serde_json::to_string_pretty(&json!({ "expresso": "journal", "version": 1, "entries": entries }))
        .map_err(|e| Error::Store(e.to_string()))?;
    text.push('\n');
    expresso_runtime::store::write_atomic(path, text.as_bytes())
        .map_err(|e| Error::Store(format!("cannot write {}: {e}", path.display())))?;
    Ok(n)
}

/// What an export wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    pub events: usize,
    pub corrections: usize,
}

/// The export's text. Refused when the log holds more events than `run` reads.
pub fn text(store: &mut dyn Exported) -> Result<(String, Written), Error> {
    let mut body = String::new();
    let mut events = 0usize;
    let mut at = 0i64;
    loop {
        let chunk = store.log_after(at, CHUNK)?;
        let Some(last) = chunk.last().map(|(seq, _)| *seq) else { break };
        let schedule = store.schedule_from(at, CHUNK.saturating_mul(4))?;
        for (seq, event) in &chunk {
            events += 1;
            if events > MAX_EVENTS {
                return Err(Error::Store(format!(
                    "the log holds more than {MAX_EVENTS} events, more than `expresso run` reads; export is refused"
                )));
            }
            if let Some(row) = schedule.get(seq) {
                body.push_str(&format!("#release {row}\n"));
            }
            body.push_str(&serde_json::to_string(event).map_err(|e| Error::Store(e.to_string()))?);
            body.push('\n');
        }
        at = last;
    }
    let corrections = store.all_corrections(MAX_EVENTS)?;
    for c in &corrections {
        body.push_str(&format!("#correction {}\n", json!(c)));
    }
    let header = json!({ "version": VERSION, "events": events, "corrections": corrections.len() });
    let written = Written { events, corrections: corrections.len() };
    Ok((format!("{HEADER} {header}\n{body}"), written))
}

/// Writes the export to `path` at once: a temporary file beside it, synced, then renamed over it.
pub fn write(store: &mut dyn Exported, path: &Path) -> Result<Written, Error> {
    let (text, written) = text(store)?;
    expresso_runtime::store::write_atomic(path, text.as_bytes())
        .map_err(|e| Error::Store(format!("cannot write {}: {e}", path.display())))?;
    Ok(written)
}

/// An export's header, read from the first line of a log file: `None` for a log that is not an export,
/// the number of events it says it holds, or why it cannot be read.
pub fn header(text: &str) -> Option<Result<usize, String>> {
    let first = text.lines().next()?;
    let rest = first.strip_prefix(HEADER)?;
    let value: Value = match serde_json::from_str(rest.trim()) {
        Ok(v) => v,
        Err(e) => return Some(Err(format!("the export's header does not read: {e}"))),
    };
    if value["version"].as_u64() != Some(VERSION) {
        return Some(Err(format!("the export is version {}, this expresso reads version {VERSION}", value["version"])));
    }
    Some(value["events"].as_u64().map(|n| n as usize).ok_or_else(|| "the export's header has no `events` count".into()))
}

#[cfg(test)]
mod tests {
    use super::header;

    #[test]
    fn an_export_is_known_by_its_first_line_and_a_bad_header_is_refused() {
        assert_eq!(header("{\"id\":\"a\"}\n"), None);
        assert_eq!(header("# a comment\n#expresso-export {\"version\":1,\"events\":1}\n"), None);
        assert_eq!(header("#expresso-export {\"version\":1,\"events\":2,\"corrections\":0}\n"), Some(Ok(2)));
        let refused = |text: &str| header(text).unwrap().unwrap_err();
        assert!(refused("#expresso-export {\"version\":2,\"events\":2}").contains("version 2"));
        assert!(refused("#expresso-export {\"version\":1}").contains("no `events` count"));
        assert!(refused("#expresso-export nope").contains("does not read"));
    }
}
