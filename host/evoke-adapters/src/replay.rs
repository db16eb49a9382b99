//! `replay`: a recording answers offline, byte for byte (000 §11.2). Its declared gate is the gate, so
//! the gate in tests is the gate in production; it is chosen only on the command line (D11).

use evoke_core::adapter::{Adapter, AdapterError, AnswerFuture, Cancel, Gate, Limits, Raw, State};
use evoke_core::question::Questions;
use evoke_core::recording::Recording;
use std::sync::Arc;

/// A recording, shared with the thread each call looks its answers up on, so that the deadline covers
/// the look-up too.
pub struct Replay {
    recording: Arc<Recording>,
}

impl Replay {
    pub fn new(recording: Recording) -> Self {
        Replay { recording: Arc::new(recording) }
    }

    /// The recording's answers to exactly the questions asked. A question the recording lacks is left
    /// out, so validation finds it unanswered and the decision fails closed.
    pub fn answer_now(&self, state: &State, questions: &Questions) -> Result<Raw, AdapterError> {
        answer_from(&self.recording, state, questions)
    }
}

fn answer_from(recording: &Recording, state: &State, questions: &Questions) -> Result<Raw, AdapterError> {
    let Some(recorded) = recording.answers_for(&state.request) else {
        return Err(AdapterError::new(format!("the recording holds no answers for \"{}\"", state.request)));
    };
    Ok(questions.ids().filter_map(|id| recorded.get(id).map(|a| (id.to_string(), a.clone()))).collect())
}

impl Adapter for Replay {
    fn id(&self) -> &str {
        &self.recording.id
    }

    fn limits(&self) -> Limits {
        self.recording.limits
    }

    fn gate(&self) -> Option<Gate> {
        self.recording.gate
    }

    fn plan(&self) -> Option<&str> {
        self.recording.plan.as_deref()
    }

    fn cacheable(&self) -> bool {
        false
    }

    fn answer<'a>(&'a self, state: &'a State, questions: &'a Questions, _cancel: &'a Cancel) -> AnswerFuture<'a> {
        let recording = self.recording.clone();
        let (state, questions) = (state.clone(), questions.clone());
        crate::local::thread::answer_on_a_thread("evoke-replay", move || answer_from(&recording, &state, &questions))
    }
}
