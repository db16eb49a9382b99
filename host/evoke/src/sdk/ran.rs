//! What a run of a decision gave: the body's result, or its failure.

/// A body's run: its result (`text`, and `data` when it returned some) or the failure it ended with,
/// and the JSON line the command prints for it.
#[derive(Debug, Clone)]
pub struct Ran {
    pub(crate) ran: evoke_bodies::Ran,
    pub(crate) line: String,
}

impl Ran {
    /// Whether the body returned.
    pub fn succeeded(&self) -> bool {
        self.ran.result.is_ok()
    }

    /// The text the body returned.
    pub fn text(&self) -> Option<&str> {
        self.ran.result.as_ref().ok().map(|output| output.text.as_str())
    }

    /// The data the body returned beside its text.
    pub fn data(&self) -> Option<&serde_json::Value> {
        self.ran.result.as_ref().ok().and_then(|output| output.data.as_ref())
    }

    /// The body's failure, when it did not return.
    pub fn failure(&self) -> Option<&str> {
        self.ran.result.as_ref().err().map(|failure| failure.message.as_str())
    }

    /// The JSON line of the call with its result, as `evoke --json` prints it.
    pub fn to_json_line(&self) -> &str {
        &self.line
    }
}
