//! `replay`: a recording answers offline, byte for byte. Its declared gate is the gate, so
//! the gate in tests is the gate in production; it is chosen only on the command line.

use evoke_core::adapter::{Adapter, AdapterError, AnswerFuture, Cancel, Gate, Limits, Raw, State};
use evoke_core::question::Questions;
use evoke_core::recording::LazyRecording;
use std::sync::Arc;

/// A recording, shared with the thread a sentence's table is read on, so that the deadline covers reading
/// it too.
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
    match recording.with_answers(&state.request, |recorded| asked(recorded, state, questions)) {
        Ok(answered) => answered,
        Err(faults) => {
            let said: Vec<String> =
                faults.iter().map(|d| format!("{}:{}: {}", d.file, d.place.line, d.message)).collect();
            Err(AdapterError::new(format!(
                "the recording's answers for \"{}\" are refused: {}",
                state.request,
                said.join("; ")
            )))
        }
    }
}

/// The recorded answers to exactly the questions asked, copied out of the sentence's table.
fn asked(recorded: Option<&Raw>, state: &State, questions: &Questions) -> Result<Raw, AdapterError> {
    let Some(recorded) = recorded else {
        return Err(AdapterError::new(format!("the recording holds no answers for \"{}\"", state.request)));
    };
    Ok(questions
        .ids()
        .filter_map(|id| recorded.get_key_value(&id.to_string()).map(|(k, a)| (k.clone(), a.clone())))
        .collect())
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
        // Answers already in memory are a look-up and a copy of what was asked, bounded by the table: given
        // here, without the hop to the worker and back. Only reading a table from the text, whose size is
        // the recording's, goes to the worker, where the deadline can race it.
        if let Some(answered) =
            self.recording.with_answers_in_memory(&state.request, |recorded| asked(recorded, state, questions))
        {
            return Box::pin(std::future::ready(answered));
        }
        let recording = self.recording.clone();
        let (state, questions) = (state.clone(), questions.clone());
        self.worker.answer(move || answer_from(&recording, &state, &questions))
    }
}
