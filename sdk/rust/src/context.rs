//! What a body is told besides its arguments.

/// The sentence and the settings of one run.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Context {
    input: String,
    config: Vec<(String, String)>,
}

impl Context {
    pub fn new(input: String, config: Vec<(String, String)>) -> Context {
        Context { input, config }
    }

    /// The sentence as typed; empty for a call by name (`evoke run`).
    pub fn input(&self) -> &str {
        &self.input
    }

    /// A setting of the manifest's `[config]`, secrets resolved for this run only.
    pub fn config(&self, key: &str) -> Option<&str> {
        self.config.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// A setting the body cannot do without; the error names it.
    pub fn require(&self, key: &str) -> Result<&str, String> {
        self.config(key).ok_or_else(|| format!("the setting `{key}` is not set"))
    }

    /// Every setting, in the manifest's order.
    pub fn settings(&self) -> impl Iterator<Item = (&str, &str)> {
        self.config.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}
