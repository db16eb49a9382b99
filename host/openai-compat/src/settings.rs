//! The one reading of an endpoint's settings, for evoke (its `[adapters.openai]` table) and Expresso (an
//! empty table): each of the three is taken from the first of these that holds it —
//!
//! | setting | 1. the table | 2. the environment | 3. else |
//! |---|---|---|---|
//! | base URL | `url` | `OPENAI_BASE_URL` | `https://api.openai.com/v1` |
//! | model | `model` | `EXPRESSO_OPENAI_MODEL` | the caller's default (Expresso `gpt-4o-mini`; evoke none: refused) |
//! | key | the variable `key_env` names | `OPENAI_API_KEY`, for a base URL the table does not name | no key |
//!
//! A key goes only where it was meant to: a base URL written in the table gets a key only from the variable
//! its `key_env` names, never `OPENAI_API_KEY` on its own, which would hand OpenAI's key to another host.
//!
//! An environment variable that is empty counts as unset. A value that is there but wrong is refused,
//! never skipped for the next source: the error names the key or the variable and says what to write. The
//! table's other keys are the caller's (evoke's `gate`), which it reads and refuses itself. The key is read
//! when it is wanted ([`Settings::key`]): a variable `key_env` names must be set, and OpenAI's own endpoint
//! is refused without a key.

use crate::{DEFAULT_URL, Endpoint};

/// The base URL's variable when the table has no `url`.
pub const URL_VAR: &str = "OPENAI_BASE_URL";
/// The model's variable when the table has no `model`.
pub const MODEL_VAR: &str = "EXPRESSO_OPENAI_MODEL";
/// The key's variable when the table has no `key_env`.
pub const KEY_VAR: &str = "OPENAI_API_KEY";
/// The table's keys read here; any other is the caller's.
pub const KEYS: [&str; 3] = ["url", "model", "key_env"];

/// Where the endpoint is, which model, and which variable holds the key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// The base URL, without a trailing `/`.
    pub url: String,
    pub model: String,
    /// The variable the key is read from: `key_env`, else [`KEY_VAR`] for a base URL the table does not
    /// name, else empty: no key.
    pub key_env: String,
    /// Whether `key_env` named it (then it must be set).
    pub key_named: bool,
}

/// A setting refused; each names the key or the variable and says what to write.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    #[error("`{key}` must be a string: {key} = \"…\"")]
    NotAString { key: String },
    /// `from` is `` `url` `` or `$OPENAI_BASE_URL`.
    #[error(
        "{from} must be an http(s) address, not {url:?}: set it to the endpoint's base, e.g. http://localhost:11434/v1"
    )]
    Url { from: String, url: String },
    #[error("`key_env` names an environment variable, not {var:?}: key_env = \"OPENAI_API_KEY\"")]
    KeyEnv { var: String },
    #[error("it needs `model`: model = \"gpt-4o-mini\" (or set $EXPRESSO_OPENAI_MODEL)")]
    NoModel,
    #[error("the key is read from ${var}, which is not set: set it, or remove `key_env` for an endpoint without a key")]
    KeyUnset { var: String },
    #[error("OPENAI_API_KEY is not set, and {url} wants a key: set it, or name another endpoint")]
    NoKey { url: String },
}

impl Settings {
    /// Reads `url`, `model` and `key_env` from `table`, else from the environment as `env` gives it (a
    /// variable's value, or `None`), else the defaults, as the module says; `default_model` is the model
    /// when neither names one (`None`: refused).
    pub fn read(
        table: &toml::Table,
        env: impl Fn(&str) -> Option<String>,
        default_model: Option<&str>,
    ) -> Result<Settings, SettingsError> {
        let text = |key: &str| -> Result<Option<String>, SettingsError> {
            match table.get(key) {
                None => Ok(None),
                Some(value) => value
                    .as_str()
                    .map(|s| Some(s.to_string()))
                    .ok_or_else(|| SettingsError::NotAString { key: key.to_string() }),
            }
        };
        let var = |name: &str| env(name).filter(|v| !v.is_empty());
        let url_in_table = table.contains_key("url");
        let (url, from) = match (text("url")?, var(URL_VAR)) {
            (Some(url), _) => (url, "`url`".to_string()),
            (None, Some(url)) => (url, format!("${URL_VAR}")),
            (None, None) => (DEFAULT_URL.to_string(), String::new()),
        };
        if !(url.starts_with("https://") || url.starts_with("http://")) {
            return Err(SettingsError::Url { from, url });
        }
        let model = text("model")?
            .or_else(|| var(MODEL_VAR))
            .or_else(|| default_model.map(str::to_string))
            .ok_or(SettingsError::NoModel)?;
        let named = text("key_env")?;
        if let Some(var) = &named
            && (var.is_empty() || !var.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        {
            return Err(SettingsError::KeyEnv { var: var.clone() });
        }
        Ok(Settings {
            url: url.trim_end_matches('/').to_string(),
            model,
            key_named: named.is_some(),
            // No variable at all for a base URL the table names without `key_env`: see the module.
            key_env: named.unwrap_or_else(|| if url_in_table { String::new() } else { KEY_VAR.to_string() }),
        })
    }

    /// The key, read from its variable as `env` gives it: a variable `key_env` named must be set, and
    /// OpenAI's own endpoint ([`DEFAULT_URL`]) is refused without one.
    pub fn key(&self, env: impl Fn(&str) -> Option<String>) -> Result<Option<String>, SettingsError> {
        let found = if self.key_env.is_empty() { None } else { env(&self.key_env) };
        match found.filter(|k| !k.is_empty()) {
            Some(key) => Ok(Some(key)),
            None if self.key_named => Err(SettingsError::KeyUnset { var: self.key_env.clone() }),
            None if self.url == DEFAULT_URL => Err(SettingsError::NoKey { url: self.url.clone() }),
            None => Ok(None),
        }
    }

    /// The endpoint, its key read as [`Settings::key`] reads it.
    pub fn endpoint(&self, env: impl Fn(&str) -> Option<String>) -> Result<Endpoint, SettingsError> {
        Ok(Endpoint::new(&self.url, &self.model, self.key(env)?))
    }
}

/// The process's environment, as [`Settings::read`] and [`Settings::key`] take it.
pub fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn table(text: &str) -> toml::Table {
        text.parse().unwrap()
    }

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        move |name| map.get(name).cloned()
    }

    #[test]
    fn the_table_comes_before_the_environment() {
        let vars = env(&[(URL_VAR, "http://env:1/v1"), (MODEL_VAR, "env-model"), (KEY_VAR, "env-key"), ("MINE", "k")]);
        let s =
            Settings::read(&table("url = \"http://t:2/v1/\"\nmodel = \"t\"\nkey_env = \"MINE\""), &vars, None).unwrap();
        assert_eq!((s.url.as_str(), s.model.as_str(), s.key_env.as_str()), ("http://t:2/v1", "t", "MINE"));
        assert_eq!(s.key(&vars).unwrap().as_deref(), Some("k"));
    }

    #[test]
    fn the_environment_comes_before_the_defaults() {
        let vars = env(&[(URL_VAR, "http://env:1/v1"), (MODEL_VAR, "env-model"), (KEY_VAR, "env-key")]);
        let s = Settings::read(&toml::Table::new(), &vars, Some("gpt-4o-mini")).unwrap();
        let endpoint = s.endpoint(&vars).unwrap();
        assert_eq!(endpoint, Endpoint::new("http://env:1/v1", "env-model", Some("env-key".into())));
    }

    #[test]
    fn the_defaults_last_and_an_empty_variable_is_unset() {
        let vars = env(&[(URL_VAR, ""), (MODEL_VAR, ""), (KEY_VAR, "sk")]);
        let s = Settings::read(&toml::Table::new(), &vars, Some("gpt-4o-mini")).unwrap();
        assert_eq!((s.url.as_str(), s.model.as_str(), s.key_named), (DEFAULT_URL, "gpt-4o-mini", false));
        assert_eq!(Settings::read(&toml::Table::new(), &vars, None), Err(SettingsError::NoModel));
    }

    #[test]
    fn a_bad_value_is_refused_with_its_key_and_the_fix() {
        let none = env(&[]);
        let e = Settings::read(&table("url = \"ftp://x\"\nmodel = \"m\""), &none, None).unwrap_err();
        assert!(e.to_string().starts_with("`url` must be an http(s) address") && e.to_string().contains("e.g."), "{e}");
        let e = Settings::read(&toml::Table::new(), env(&[(URL_VAR, "localhost:11434")]), Some("m")).unwrap_err();
        assert!(e.to_string().starts_with("$OPENAI_BASE_URL must be an http(s) address"), "{e}");
        let e = Settings::read(&table("model = 3"), &none, None).unwrap_err();
        assert_eq!(e, SettingsError::NotAString { key: "model".into() });
        let e = Settings::read(&table("model = \"m\"\nkey_env = \"A-B\""), &none, None).unwrap_err();
        assert!(e.to_string().contains("key_env = \"OPENAI_API_KEY\""), "{e}");
        // A wrong value in the table is refused, not passed over for the environment's.
        let e = Settings::read(&table("url = 1"), env(&[(URL_VAR, "http://ok/v1")]), Some("m")).unwrap_err();
        assert_eq!(e, SettingsError::NotAString { key: "url".into() });
    }

    #[test]
    fn a_base_url_the_table_names_gets_no_key_it_did_not_name() {
        let vars = env(&[(KEY_VAR, "sk-openai")]);
        let local = Settings::read(&table("url = \"http://localhost:11434/v1\"\nmodel = \"m\""), &vars, None).unwrap();
        assert_eq!(local.key(&vars), Ok(None), "OpenAI's key never goes to a host the table named");
        let named =
            Settings::read(&table("url = \"http://l/v1\"\nmodel = \"m\"\nkey_env = \"OPENAI_API_KEY\""), &vars, None)
                .unwrap();
        assert_eq!(named.key(&vars).unwrap().as_deref(), Some("sk-openai"), "named, it goes");
    }

    #[test]
    fn the_key_named_must_be_set_and_openai_wants_one() {
        let none = env(&[]);
        let named =
            Settings::read(&table("url = \"http://l/v1\"\nmodel = \"m\"\nkey_env = \"MINE\""), &none, None).unwrap();
        assert_eq!(named.key(&none), Err(SettingsError::KeyUnset { var: "MINE".into() }));
        let local = Settings::read(&table("url = \"http://l/v1\"\nmodel = \"m\""), &none, None).unwrap();
        assert_eq!(local.key(&none), Ok(None));
        let openai = Settings::read(&table("model = \"m\""), &none, None).unwrap();
        assert!(matches!(openai.key(&none), Err(SettingsError::NoKey { .. })));
        assert_eq!(openai.key(env(&[(KEY_VAR, "sk")])).unwrap().as_deref(), Some("sk"));
    }
}
