//! A line of the decision log read back, as `evoke why` explains it: pure, so that it can be tested and
//! fuzzed apart from the places on disk.
//!
//! The log holds one JSON object per line: the decision's line as printed, then `answers` (each round's
//! questions and the adapter's raw answer) and `candidates` (the input's candidate spans). Reading one back
//! never trusts it: a field of the wrong shape reads as absent, and a round whose raw answer is not a number
//! per key per question is left out, so a damaged line is explained as far as it can be, never refused
//! whole unless it is not a JSON object at all.

use crate::adapter::Raw;
use serde_json::Value;

/// Why a log gave no entry to explain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogFault {
    /// `back` counts from 1, the last decision, and the log holds `held` decisions.
    OutOfRange { back: usize, held: usize },
    /// The entry is not JSON.
    NotJson { message: String },
    /// The entry is JSON, but not an object.
    NotObject,
}

impl std::fmt::Display for LogFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LogFault::OutOfRange { held, .. } => write!(
                f,
                "the log holds {held} decision{}; `evoke why N` counts back from 1, the last",
                if *held == 1 { "" } else { "s" }
            ),
            LogFault::NotJson { message } => write!(f, "the entry is not JSON: {message}"),
            LogFault::NotObject => f.write_str("the entry is not a JSON object"),
        }
    }
}

/// One decision as the log keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct LogEntry {
    /// The whole line, for the fields only a renderer reads (`judgments`, `contenders`, `weakest`, …).
    pub line: Value,
    /// The input as typed; empty when the line lacks it.
    pub input: String,
    /// `run`, `confirm`, `ask` or `abstain`; absent for a decision that failed closed.
    pub outcome: Option<String>,
    pub error: Option<String>,
    /// Every round's raw answer, merged in order: a later round's question replaces an earlier one's.
    pub answers: Raw,
    /// The candidate spans as logged: objects with a `span` of `start`, `end` and `text`.
    pub candidates: Vec<Value>,
    /// What the body printed, when it ran.
    pub ran: Option<String>,
}

impl LogEntry {
    /// The text of the candidate whose span key (`<start>-<end>`) is `key`, as a pick's answer names it.
    pub fn candidate_text(&self, key: &str) -> Option<&str> {
        self.candidates.iter().find_map(|c| {
            let span = c.get("span")?;
            let (start, end) = (span.get("start")?, span.get("end")?);
            (format!("{start}-{end}") == key).then(|| span.get("text").and_then(Value::as_str).unwrap_or_default())
        })
    }
}

/// The `back`-th non-blank line from the end of a log's text (1 is the last).
pub fn nth_from_end(log: &str, back: usize) -> Result<&str, LogFault> {
    let lines: Vec<&str> = log.lines().filter(|l| !l.trim().is_empty()).collect();
    if back == 0 || back > lines.len() {
        return Err(LogFault::OutOfRange { back, held: lines.len() });
    }
    Ok(lines[lines.len() - back])
}

/// Reads one line of the log.
pub fn read_log_entry(line: &str) -> Result<LogEntry, LogFault> {
    let line: Value = serde_json::from_str(line).map_err(|e| LogFault::NotJson { message: e.to_string() })?;
    log_entry_of(line)
}

/// A line of the log already parsed as JSON.
pub fn log_entry_of(line: Value) -> Result<LogEntry, LogFault> {
    if !line.is_object() {
        return Err(LogFault::NotObject);
    }
    let text = |key: &str| line.get(key).and_then(Value::as_str).map(str::to_string);
    let mut answers = Raw::new();
    for round in line.get("answers").and_then(Value::as_array).into_iter().flatten() {
        if let Some(raw) = round.get("raw").and_then(raw_of) {
            answers.extend(raw);
        }
    }
    Ok(LogEntry {
        input: text("input").unwrap_or_default(),
        outcome: text("outcome"),
        error: text("error"),
        answers,
        candidates: line.get("candidates").and_then(Value::as_array).cloned().unwrap_or_default(),
        ran: line.pointer("/result/text").and_then(Value::as_str).map(str::to_string),
        line,
    })
}

/// A raw answer: an object of questions, each an object of keys, each a number. Anything else is `None`.
fn raw_of(value: &Value) -> Option<Raw> {
    let mut raw = Raw::new();
    for (question, keys) in value.as_object()? {
        let mut distribution = std::collections::BTreeMap::new();
        for (key, p) in keys.as_object()? {
            distribution.insert(key.clone(), p.as_f64()?);
        }
        raw.insert(question.clone(), distribution);
    }
    Some(raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = r#"{"input":"set a timer for 10 minutes","outcome":"run","answers":[{"questions":["route"],"raw":{"route":{"timer":0.9,"none":0.1}}},{"questions":["timer.duration"],"raw":{"timer.duration":{"16-26":0.8,"unstated":0.2}}},{"raw":{"bad":{"x":"NaN"}}}],"candidates":[{"kind":"duration","span":{"start":16,"end":26,"text":"10 minutes"},"value":{"type":"duration","value":600}}],"result":{"text":"timer set"}}"#;

    #[test]
    fn reads_what_why_explains() {
        let entry = read_log_entry(LINE).unwrap();
        assert_eq!(entry.input, "set a timer for 10 minutes");
        assert_eq!(entry.outcome.as_deref(), Some("run"));
        assert_eq!(entry.answers.keys().collect::<Vec<_>>(), ["route", "timer.duration"]);
        assert_eq!(entry.answers["timer.duration"]["16-26"], 0.8);
        assert_eq!(entry.candidate_text("16-26"), Some("10 minutes"));
        assert_eq!(entry.candidate_text("0-3"), None);
        assert_eq!(entry.ran.as_deref(), Some("timer set"));
    }

    #[test]
    fn a_damaged_line_reads_as_far_as_it_can() {
        let entry = read_log_entry(r#"{"input":7,"answers":"x","candidates":{}}"#).unwrap();
        assert_eq!(entry.input, "");
        assert!(entry.answers.is_empty() && entry.candidates.is_empty() && entry.outcome.is_none());
        assert_eq!(read_log_entry("[1]"), Err(LogFault::NotObject));
        assert!(matches!(read_log_entry("{\"input\""), Err(LogFault::NotJson { .. })));
    }

    #[test]
    fn counts_back_over_blank_lines() {
        let log = "{\"input\":\"a\"}\n\n  \n{\"input\":\"b\"}\n";
        assert_eq!(nth_from_end(log, 1), Ok("{\"input\":\"b\"}"));
        assert_eq!(nth_from_end(log, 2), Ok("{\"input\":\"a\"}"));
        assert_eq!(nth_from_end(log, 3), Err(LogFault::OutOfRange { back: 3, held: 2 }));
        assert_eq!(nth_from_end(log, 0), Err(LogFault::OutOfRange { back: 0, held: 2 }));
        assert_eq!(
            LogFault::OutOfRange { back: 2, held: 1 }.to_string().split(';').next(),
            Some("the log holds 1 decision")
        );
    }
}
