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

    /// A setting the body cannot do without; the error names it, and `?` turns it into the failure's
    /// message.
    pub fn require(&self, key: &str) -> Result<&str, MissingSetting> {
        self.config(key).ok_or_else(|| MissingSetting { key: key.to_string() })
    }

    /// Every setting, in the manifest's order.
    pub fn settings(&self) -> impl Iterator<Item = (&str, &str)> {
        self.config.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

/// A setting a body cannot do without is not set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingSetting {
    pub key: String,
}

impl std::fmt::Display for MissingSetting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the setting `{}` is not set", self.key)
    }
}

impl std::error::Error for MissingSetting {}

impl From<MissingSetting> for String {
    fn from(e: MissingSetting) -> String {
        e.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_required_setting_that_is_not_set_is_named() {
        let ctx = Context::new(String::new(), vec![("bridge".into(), "10.0.0.2".into())]);
        assert_eq!(ctx.require("bridge"), Ok("10.0.0.2"));
        let missing = ctx.require("token").unwrap_err();
        assert_eq!(missing, MissingSetting { key: "token".into() });
        assert_eq!(String::from(missing), "the setting `token` is not set");
    }
}
