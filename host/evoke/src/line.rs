//! The JSON line of a decision as printed and logged: the decision's fields in the wire's order, then
//! what the run added (003, D1).

use crate::decide::{Failure, TraceEntry};
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

/// The line as one JSON text, without whitespace.
pub fn to_line<T: Serialize>(line: &T) -> String {
    serde_json::to_string(line).unwrap_or_else(|e| format!("{{\"error\":\"the line could not be written: {e}\"}}"))
}

/// The line of a call by name (`evoke run --json`): nothing judged, so no confidence, weakest, judgments
/// or contenders; a destructive call carries `prompt` and `because` like any confirm (003).
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
}
