//! The adapter contract: the engine that answers a decision's questions.

use crate::question::Questions;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The adapter's own calibration: each number means P(correct). The core never rescales them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gate {
    pub route: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fits: Option<f64>,
    pub read: f64,
    pub write: f64,
}

/// Per-call ceilings; a plan over them is refused at load.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Option<usize>,
}

/// What an adapter sees of the user: the request, nothing else.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct State {
    pub request: String,
}

/// An engine's answers before validation: per question, a number per key. A yes/no answers `{ yes: p }`.
pub type Raw = BTreeMap<String, BTreeMap<String, f64>>;

/// Raised by the host when the decision's deadline passes or the person cancels; an adapter may watch it,
/// and one that does not is raced against it anyway.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub fn new() -> Self {
        Cancel::default()
    }

    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// Why an adapter gave no answer. Every kind fails closed: nothing runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdapterError {
    pub message: String,
}

impl AdapterError {
    pub fn new(message: impl Into<String>) -> Self {
        AdapterError { message: message.into() }
    }
}

impl std::fmt::Display for AdapterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

pub type AnswerFuture<'a> = Pin<Box<dyn Future<Output = Result<Raw, AdapterError>> + Send + 'a>>;

pub trait Adapter: Send + Sync {
    /// Opaque; changes whenever answers could. Compared, never parsed.
    fn id(&self) -> &str;
    fn limits(&self) -> Limits {
        Limits::default()
    }
    /// The bars this adapter's numbers were calibrated for; without them every decision confirms.
    fn gate(&self) -> Option<Gate>;
    /// A recording's plan digest: another plan refuses it.
    fn plan(&self) -> Option<&str> {
        None
    }
    /// Whether the host may cache this adapter's answers (a recording answers from its file already).
    fn cacheable(&self) -> bool {
        true
    }
    /// Answers any subset of a plan's questions. Stateless.
    fn answer<'a>(&'a self, state: &'a State, questions: &'a Questions, cancel: &'a Cancel) -> AnswerFuture<'a>;

    /// Computes ahead, and keeps, whatever the engine would otherwise compute on the first decision over
    /// `questions` (the project's question templates): an engine that reads the reflexes' side with a
    /// model does it here, at `evoke trust`, `add` and `update`, so that no first decision spends its
    /// deadline on it. `progress` is told `(done, total)` as the work goes. Nothing by default.
    fn warm(&self, _questions: &Questions, _progress: &mut dyn FnMut(usize, usize)) -> Result<(), AdapterError> {
        Ok(())
    }
}
