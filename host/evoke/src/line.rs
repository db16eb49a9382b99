//! The JSON line of a decision as printed and logged: the decision's fields in the wire's order, then
//! what the run added.

use crate::drive::{Failure, TraceEntry};
use evoke_bodies::{Contained, Output, Ran};
use evoke_core::decision::Decision;
use serde::Serialize;

#[derive(Serialize)]
pub struct Line<'a> {
    #[serde(flatten)]
    pub decision: &'a Decision,
    pub trace: &'a [TraceEntry],
    #[serde(flatten)]
    pub ran: Option<RanFields<'a>>,
    /// Why a call that was to run never started its body (a value refused at the edge, a secret unset):
    /// its line still says how it ended, so every input has its line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'a str>,
}

/// What a body's run adds to the line: the result or the error with its frames, and `contained`.
#[derive(Serialize)]
pub struct RanFields<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<&'a Output>,
    pub contained: &'a Contained,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frames: Option<&'a [String]>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cancelled: bool,
}

impl<'a> RanFields<'a> {
    pub fn of(ran: &'a Ran) -> Self {
        let (result, error, frames) = match &ran.result {
            Ok(output) => (Some(output), None, None),
            Err(failure) => (
                None,
                Some(failure.message.as_str()),
                (!failure.frames.is_empty()).then_some(failure.frames.as_slice()),
            ),
        };
        RanFields { result, contained: &ran.contained, error, frames, cancelled: ran.cancelled }
    }
}

/// The line of a decision that failed closed: the input, the message, the fault, the calls made.
#[derive(Serialize)]
pub struct RefusedLine<'a> {
    pub input: &'a str,
    pub error: String,
    pub fault: &'a Failure,
    pub trace: &'a [TraceEntry],
}

/// The line of a decision that failed closed, as printed and logged.
pub fn refused_line(input: &str, failure: &Failure, trace: &[TraceEntry]) -> String {
    // The input echoed is cut at the 2,000 characters a decision reads, so a refused line is bounded however
    // long the input was; the fault still counts every character.
    let input = match input.char_indices().nth(evoke_core::decide::MAX_INPUT_CHARS) {
        Some((end, _)) => &input[..end],
        None => input,
    };
    to_line(&RefusedLine { input, error: failure.to_string(), fault: failure, trace })
}

/// The line as one JSON text, without whitespace, safe to print at a terminal.
///
/// JSON escapes the C0 controls but lets DEL, the C1 controls (which start escape sequences on some
/// terminals) and the bidi controls through raw: legal in a string, and able to repaint the line that
/// carries them. Each is written as its `\uXXXX` escape instead, the same JSON value in safe bytes. They
/// can only stand inside a string (JSON allows nothing else there), and each is one UTF-16 unit.
pub fn to_line<T: Serialize>(line: &T) -> String {
    let text =
        serde_json::to_string(line).unwrap_or_else(|e| format!("{{\"error\":\"the line could not be written: {e}\"}}"));
    if !text.contains(evoke_core::text::is_unsafe_at_terminal) {
        return text;
    }
    let mut safe = String::with_capacity(text.len() + 12);
    for ch in text.chars() {
        if evoke_core::text::is_unsafe_at_terminal(ch) {
            safe.push_str(&format!("\\u{:04x}", ch as u32));
        } else {
            safe.push(ch);
        }
    }
    safe
}

#[cfg(test)]
mod tests {
    use super::to_line;

    #[test]
    fn a_line_carries_del_c1_and_bidi_as_escapes_of_the_same_value() {
        let value = serde_json::json!({ "result": "a\u{7F}b\u{9B}2Jc\u{202E}d\u{1B}e" });
        let line = to_line(&value);
        assert!(!line.contains(evoke_core::text::is_unsafe_at_terminal), "{line:?}");
        assert_eq!(line, r#"{"result":"a\u007fb\u009b2Jc\u202ed\u001be"}"#);
        let back: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(back, value);
    }
}

/// The line of a call by name (`evoke run --json`): nothing judged, so no confidence, weakest, judgments
/// or contenders; a destructive call carries `prompt` and `because` like any confirm.
#[derive(Serialize)]
pub struct NamedLine<'a> {
    pub input: &'a str,
    pub outcome: evoke_core::decision::Outcome,
    pub reflex: &'a str,
    pub args: &'a evoke_core::decision::Args,
    pub call: &'a str,
    pub effect: evoke_core::manifest::Effect,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt: Option<&'a evoke_core::decision::Prompt>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub because: Option<&'a [evoke_core::decision::Because]>,
    pub trace: &'a [TraceEntry],
    #[serde(flatten)]
    pub ran: Option<RanFields<'a>>,
    /// Why the call never started its body (a value refused at the edge, a secret unset), as a decided
    /// call's line says it: under `--json` a call by name has its line however it ends.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'a str>,
}
