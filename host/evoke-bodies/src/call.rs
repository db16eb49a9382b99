//! What a body receives and what comes back.

use crate::body_value::BodyValue;
use evoke_core::manifest::Grants;
use jiff::civil::Date;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

/// One run of one body.
#[derive(Debug, Clone)]
pub struct Call {
    /// The reflex's directory; a file body's path and a grant's relative path are read from here.
    pub dir: PathBuf,
    /// Per argument, in manifest order, what the body receives, typed by the manifest's kind: an
    /// option's key, a word's value or the word, a pick's value, a flag. Unstated optional arguments are
    /// absent.
    pub args: Vec<(String, BodyValue)>,
    /// The day a date reading is counted from: today where the person is, when the body runs.
    pub today: Date,
    /// The sentence as typed; empty for a call by name.
    pub input: String,
    /// Every config key as a string, secrets resolved from the environment for this run only.
    pub config: Vec<(String, String)>,
    /// What a component body may reach, with `{key}` already filled from the config.
    pub grants: Grants,
    /// When the decision's 30 seconds end; the run stops there.
    pub deadline: Instant,
}

/// What a body returned: a string is `{ text }`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Output {
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<serde_json::Value>,
}

/// Why a body did not return.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// The failure's message: a JavaScript error's message, an argv's last lines of stderr, a trap.
    pub message: String,
    /// A JavaScript body's frames, from the first, as `at body (throws.mts:1:1)`.
    pub frames: Vec<String>,
}

/// How far this machine held the body to its declaration: the line's `contained`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Contained {
    /// A component held to its grants.
    Full,
    /// A file body under Node's permission model; `why` says what it does not hold.
    Partial { why: String },
    /// An argv: the program runs with the user's rights.
    None { why: String },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Ran {
    pub result: Result<Output, Failure>,
    pub contained: Contained,
    /// True when the person's Ctrl-C ended the body.
    pub cancelled: bool,
}
