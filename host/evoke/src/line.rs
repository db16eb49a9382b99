//! The JSON line of a decision as printed and logged: the decision's fields in the wire's order, then
//! what the run added (003, D1).

use crate::decide::{Failure, TraceEntry};
use evoke_core::decision::Decision;
use serde::Serialize;

#[derive(Serialize)]
pub struct Line<'a> {
    #[serde(flatten)]
    pub decision: &'a Decision,
    pub trace: &'a [TraceEntry],
}

/// The line of a decision that failed closed: the input, the message, the fault, the calls made.
#[derive(Serialize)]
pub struct RefusedLine<'a> {
    pub input: &'a str,
    pub error: String,
    pub fault: &'a Failure,
    pub trace: &'a [TraceEntry],
}

/// The line as one JSON text, without whitespace.
pub fn to_line<T: Serialize>(line: &T) -> String {
    serde_json::to_string(line).unwrap_or_else(|e| format!("{{\"error\":\"the line could not be written: {e}\"}}"))
}
