//! What a body returns.

/// The result of a run: `text` for a person, `data` (JSON) for a program reading the line.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Output {
    pub text: String,
    /// A JSON document, as text. evoke refuses a result whose data is not JSON.
    pub data: Option<String>,
}

impl Output {
    /// A result with text only.
    pub fn text(text: impl Into<String>) -> Output {
        Output { text: text.into(), data: None }
    }

    /// Adds data, already written as JSON.
    pub fn with_data_json(mut self, json: impl Into<String>) -> Output {
        self.data = Some(json.into());
        self
    }

    /// Adds data, written as JSON from any serializable value. The error is the run's failure message, so
    /// that `run` may end with this call (its `String` is the WIT `string` a body fails with).
    #[cfg(feature = "json")]
    pub fn with_data(self, data: &impl serde::Serialize) -> Result<Output, String> {
        let json = serde_json::to_string(data).map_err(|e| format!("the data cannot be written as JSON: {e}"))?;
        Ok(self.with_data_json(json))
    }
}

impl From<String> for Output {
    fn from(text: String) -> Output {
        Output::text(text)
    }
}

impl From<&str> for Output {
    fn from(text: &str) -> Output {
        Output::text(text)
    }
}
