//! The recording provider: a deterministic mock that answers by journal key from a JSON object
//! `{ "<journalKey>": value, … }`, and fails closed on a key it does not hold.

use crate::provider::{LeafRequest, Provider};
use serde_json::{Map, Value};

/// A recording whose text is not answers by journal key.
#[derive(Debug, thiserror::Error)]
pub enum RecordingError {
    #[error("not JSON: {0}")]
    NotJson(serde_json::Error),
    #[error("`answers` is not an object")]
    AnswersNotAnObject,
    #[error("a recording is a JSON object of answers by journal key")]
    NotAnObject,
}

#[derive(Debug, Clone, Default)]
pub struct Recording {
    answers: Map<String, Value>,
}

impl Recording {
    pub fn new(answers: Map<String, Value>) -> Recording {
        Recording { answers }
    }

    /// Reads `{ "answers": { key: value } }` or a bare `{ key: value }`.
    pub fn from_json(text: &str) -> Result<Recording, RecordingError> {
        let value: Value = serde_json::from_str(text).map_err(RecordingError::NotJson)?;
        let map = match value {
            Value::Object(mut map) if map.len() == 1 && map.contains_key("answers") => match map.remove("answers") {
                Some(Value::Object(inner)) => inner,
                _ => return Err(RecordingError::AnswersNotAnObject),
            },
            Value::Object(map) => map,
            _ => return Err(RecordingError::NotAnObject),
        };
        Ok(Recording { answers: map })
    }
}

impl Provider for Recording {
    fn id(&self) -> &str {
        "recording"
    }

    fn answer(&self, request: &LeafRequest) -> Result<Value, String> {
        self.answers.get(request.key).cloned().ok_or_else(|| "the recording holds no answer for this key".to_string())
    }
}
