//! `replay`: a recording answers offline, byte for byte. Its declared gate is the gate, so
//! the gate in tests is the gate in production; it is chosen only on the command line.

use evoke_core::adapter::{Adapter, AdapterError, AnswerFuture, Cancel, Gate, Limits, Raw, State};
use evoke_core::question::Questions;
use evoke_core::recording::LazyRecording;
use std::sync::Arc;

/// A recording, shared with the thread each call looks its answers up on, so that the deadline covers
/// the look-up too.
pub struct Replay {
    recording: Arc<LazyRecording>,
    worker: crate::local::thread::Worker,
}

impl Replay {
    /// A recording read lazily ([`evoke_core::recording::read_recording_lazy`]), or whole
    /// (`Recording::into`).
    pub fn new(recording: LazyRecording) -> Self {
        Replay { recording: Arc::new(recording), worker: crate::local::thread::Worker::new("evoke-replay") }
    }

    /// The recording's answers to exactly the questions asked. A question the recording lacks is left
    /// out, so validation finds it unanswered and the decision fails closed.
    pub fn answer_now(&self, state: &State, questions: &Questions) -> Result<Raw, AdapterError> {
        answer_from(&self.recording, state, questions)
    }
}

/// Only the table of the sentence asked for is read; a table that is not valid fails this decision closed
/// and names its file and line, and leaves every other sentence's answers as they are.
fn answer_from(recording: &LazyRecording, state: &State, questions: &Questions) -> Result<Raw, AdapterError> {
    let recorded = match recording.answers_for(&state.request) {
        Ok(Some(recorded)) => recorded,
        Ok(None) => {
            return Err(AdapterError::new(format!("the recording holds no answers for \"{}\"", state.request)));
        }
        Err(faults) => {
            let said: Vec<String> =
                faults.iter().map(|d| format!("{}:{}: {}", d.file, d.place.line, d.message)).collect();
            return Err(AdapterError::new(format!(
                "the recording's answers for \"{}\" are refused: {}",
                state.request,
                said.join("; ")
            )));
        }
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
        self.worker.answer(move || answer_from(&recording, &state, &questions))
    }
}
