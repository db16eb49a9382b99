//! `[adapters.local]` in `evoke.toml`: what a user may tune. Each setting is part of the id, so answers
//! cached under one setting are never read under another.
//!
//! ```toml
//! [adapters.local]
//! none_bias = 0.05                       # raise the score `none` stands at: abstain more often
//! synonyms  = { snug = ["den"], nuke = ["off"] }   # a word said, and the keys or words it names
//! ```

use super::words::words;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Settings {
    /// Added to the score `none` stands at, from -0.5 to 0.5.
    pub none_bias: f32,
    /// A stem, and the stems it names.
    pub synonyms: Vec<(String, Vec<String>)>,
}

fn stem_of(text: &str) -> String {
    words(text).into_iter().map(|w| w.stem).collect::<Vec<_>>().join(" ")
}

/// `[adapters.local]` is refused; each says what to write instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    #[error("[adapters.local] none_bias must be a number from -0.5 to 0.5")]
    NoneBias,
    #[error("[adapters.local] synonyms must be a table: synonyms = {{ snug = [\"den\"] }}")]
    SynonymsNotATable,
    #[error("[adapters.local] synonyms.{word} must list words: {word} = [\"den\"]")]
    NotWords { word: String },
    #[error("[adapters.local] has no setting `{key}`; it takes none_bias and synonyms")]
    UnknownKey { key: String },
}

impl Settings {
    /// Reads the table; an unknown key or a wrong type is refused with what to write instead.
    pub fn read(table: Option<&toml::Table>) -> Result<Settings, SettingsError> {
        let mut settings = Settings::default();
        let Some(table) = table else { return Ok(settings) };
        for (key, value) in table {
            match key.as_str() {
                "none_bias" => {
                    let n = value.as_float().or_else(|| value.as_integer().map(|i| i as f64));
                    match n {
                        Some(n) if (-0.5..=0.5).contains(&n) => settings.none_bias = n as f32,
                        _ => return Err(SettingsError::NoneBias),
                    }
                }
                "synonyms" => {
                    let Some(map) = value.as_table() else {
                        return Err(SettingsError::SynonymsNotATable);
                    };
                    for (word, means) in map {
                        let list: Vec<String> = match means {
                            toml::Value::String(s) => vec![stem_of(s)],
                            toml::Value::Array(items) => {
                                let mut list = Vec::new();
                                for item in items {
                                    match item.as_str() {
                                        Some(s) => list.push(stem_of(s)),
                                        None => {
                                            return Err(SettingsError::NotWords { word: word.clone() });
                                        }
                                    }
                                }
                                list
                            }
                            _ => {
                                return Err(SettingsError::NotWords { word: word.clone() });
                            }
                        };
                        settings.synonyms.push((stem_of(word), list));
                    }
                }
                other => {
                    return Err(SettingsError::UnknownKey { key: other.to_string() });
                }
            }
        }
        Ok(settings)
    }
}
