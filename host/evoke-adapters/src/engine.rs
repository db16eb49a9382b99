//! The shape the in-process engines (`local`, `embed`) share: the engine behind an `Arc`, shared with the
//! thread it computes on, so that a call returns a future at once and the host's deadline races the
//! computation instead of waiting behind it; an id that names the engine's version and constants; and
//! the gate its scores were calibrated for.

use evoke_core::adapter::{Adapter, AdapterError, AnswerFuture, Cancel, Gate, Limits, State};
use evoke_core::question::Questions;
use sha2::{Digest, Sha256};
use std::sync::Arc;

/// An engine, shared with the thread it answers on.
pub struct Shared<E>(pub(crate) Arc<E>);

impl<E> Clone for Shared<E> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<E> std::ops::Deref for Shared<E> {
    type Target = E;

    fn deref(&self) -> &E {
        &self.0
    }
}

/// What an in-process engine tells the host about itself, and how it answers off the caller's thread.
pub trait Engine: Send + Sync + 'static {
    fn id(&self) -> &str;

    fn gate(&self) -> Gate;

    /// Starts answering on the engine's thread and returns at once.
    fn answer_later(self: Arc<Self>, state: State, questions: Questions, cancel: Cancel) -> AnswerFuture<'static>;

    /// Computes ahead what the engine would compute on first use of `questions` (see
    /// [`Adapter::warm`]); nothing by default.
    fn warm(&self, _questions: &Questions, _progress: &mut dyn FnMut(usize, usize)) -> Result<(), AdapterError> {
        Ok(())
    }
}

impl<E: Engine> Adapter for Shared<E> {
    fn id(&self) -> &str {
        self.0.id()
    }

    fn limits(&self) -> Limits {
        Limits::default()
    }

    fn gate(&self) -> Option<Gate> {
        Some(self.0.gate())
    }

    fn answer<'a>(&'a self, state: &'a State, questions: &'a Questions, cancel: &'a Cancel) -> AnswerFuture<'a> {
        self.0.clone().answer_later(state.clone(), questions.clone(), cancel.clone())
    }

    fn warm(&self, questions: &Questions, progress: &mut dyn FnMut(usize, usize)) -> Result<(), AdapterError> {
        self.0.warm(questions, progress)
    }
}

/// The end of an engine's id: a short hash of its version and constants, so that answers kept under one
/// set of constants are never read as another's.
pub(crate) fn constants_digest(constants: &str) -> String {
    Sha256::digest(constants.as_bytes()).iter().take(6).map(|b| format!("{b:02x}")).collect()
}
