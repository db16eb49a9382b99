//! The plan file `evoke try --save FILE` writes and `evoke run FILE` runs: the plan whole, readable without
//! a tool, with everything it was decided against pinned. Running it checks every pin against what is
//! here now and refuses the file, naming its line and the fix, when one differs.

use crate::adapter::{Gate, Raw};
use crate::catalog::Reflex;
use crate::vocab::Vocabulary;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// The version of the plan file's format.
pub const FORMAT: u32 = 1;
/// The largest plan file read, in bytes.
pub const MAX_BYTES: usize = 1 << 20;
const NOTE: &str = "A plan written by `evoke try --save`. Run it with `evoke run FILE`: evoke refuses it when the \
                    reflexes, the vocabularies, the engine or evoke itself differ from when it was written.";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdapterPin {
    pub name: String,
    pub id: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReflexPin {
    /// The hash of its effective manifest (wording, consent, contract) and its settings' names and values.
    pub item: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    pub text: String,
    pub raw: Raw,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanFile {
    pub note: String,
    pub plan: u32,
    pub input: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    pub weave: serde_json::Value,
    pub evoke: String,
    pub adapter: AdapterPin,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gate: Option<Gate>,
    pub set: String,
    pub reflexes: BTreeMap<String, ReflexPin>,
    pub vocab: BTreeMap<String, String>,
    pub answers: Vec<Answer>,
}

/// What a plan file pins, as it is here now.
#[derive(Debug, Clone, PartialEq)]
pub struct Pins {
    pub evoke: String,
    pub adapter: AdapterPin,
    pub gate: Option<Gate>,
    pub set: String,
    pub reflexes: BTreeMap<String, ReflexPin>,
    pub vocab: BTreeMap<String, String>,
}

fn sha256(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    format!("sha256:{}", digest.iter().map(|b| format!("{b:02x}")).collect::<String>())
}

/// A reflex's pin: its effective manifest as canonical JSON, and its settings.
pub fn item(reflex: &Reflex, settings: &[(String, String)]) -> String {
    let mut text = reflex.manifest.to_canonical_json().to_string();
    for (key, value) in settings {
        text.push('\n');
        text.push_str(key);
        text.push('=');
        text.push_str(value);
    }
    sha256(text.as_bytes())
}

/// A vocabulary's pin: its canonical JSON.
pub fn vocab(vocabulary: &Vocabulary) -> String {
    sha256(vocabulary.to_canonical_json().to_string().as_bytes())
}

/// The file's text: one key a line at the top level, so that a refusal can name the line.
pub fn write(pins: &Pins, input: &str, tags: &[String], weave: serde_json::Value, answers: Vec<Answer>) -> String {
    let file = PlanFile {
        note: NOTE.to_string(),
        plan: FORMAT,
        input: input.to_string(),
        tags: tags.to_vec(),
        weave,
        evoke: pins.evoke.clone(),
        adapter: pins.adapter.clone(),
        gate: pins.gate,
        set: pins.set.clone(),
        reflexes: pins.reflexes.clone(),
        vocab: pins.vocab.clone(),
        answers,
    };
    let mut text = serde_json::to_string_pretty(&file).unwrap_or_default();
    text.push('\n');
    text
}

/// Why a plan file is refused: its line (from 1), the key, what differs, and the fix.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Refused {
    pub line: usize,
    pub key: String,
    pub message: String,
    pub fix: String,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: `{}`: {}\n  = fix: {}", self.line, self.key, self.message, self.fix)
    }
}

/// The line of the file where `key` is first written, or 1.
fn line_of(text: &str, key: &str) -> usize {
    let needle = format!("\"{key}\":");
    text.lines().position(|l| l.trim_start().starts_with(&needle)).map_or(1, |i| i + 1)
}

/// Reads a plan file: bounded, JSON, this format.
pub fn read(text: &str) -> Result<PlanFile, Refused> {
    const AGAIN: &str = "write the plan again: evoke try --save FILE \"…\"";
    if text.len() > MAX_BYTES {
        return Err(Refused {
            line: 1,
            key: "plan".into(),
            message: format!("the file is over {MAX_BYTES} bytes; no plan evoke writes is"),
            fix: AGAIN.into(),
        });
    }
    let file: PlanFile = serde_json::from_str(text).map_err(|e| Refused {
        line: e.line().max(1),
        key: "plan".into(),
        message: format!("not a plan file evoke can read: {e}"),
        fix: AGAIN.into(),
    })?;
    if file.plan != FORMAT {
        return Err(Refused {
            line: line_of(text, "plan"),
            key: "plan".into(),
            message: format!("a plan file of format {}; this evoke reads format {FORMAT}", file.plan),
            fix: AGAIN.into(),
        });
    }
    Ok(file)
}

/// Checks every pin of the file against what is here now; the first that differs refuses it.
pub fn check(text: &str, file: &PlanFile, now: &Pins) -> Result<(), Refused> {
    const AGAIN: &str = "say the sentence again, or write the plan again: evoke try --save FILE \"…\"";
    let refused = |key: &str, message: String| Refused {
        line: line_of(text, key),
        key: key.to_string(),
        message,
        fix: AGAIN.to_string(),
    };
    if file.evoke != now.evoke {
        return Err(refused("evoke", format!("written by evoke {}; this is evoke {}", file.evoke, now.evoke)));
    }
    if file.adapter != now.adapter {
        return Err(refused(
            "adapter",
            format!(
                "decided by {} ({}); the engine here is {} ({})",
                file.adapter.name, file.adapter.id, now.adapter.name, now.adapter.id
            ),
        ));
    }
    if file.gate != now.gate {
        return Err(refused("gate", "the engine's bars have moved since".into()));
    }
    if file.set != now.set {
        return Err(refused("set", "the reflexes' questions have changed since".into()));
    }
    for (name, pin) in &file.reflexes {
        match now.reflexes.get(name) {
            None => return Err(refused(name, format!("{name} is not installed and active here"))),
            Some(here) if here.item != pin.item => {
                return Err(refused(name, format!("{name} has changed since (its manifest or its settings)")));
            }
            Some(_) => {}
        }
    }
    if let Some(name) = now.reflexes.keys().find(|n| !file.reflexes.contains_key(*n)) {
        return Err(refused("reflexes", format!("{name} was installed since")));
    }
    if file.vocab != now.vocab {
        let changed = file.vocab.iter().find(|(k, v)| now.vocab.get(*k) != Some(v)).map(|(k, _)| k.clone());
        let key = changed.unwrap_or_else(|| "vocab".into());
        return Err(refused(&key, "a vocabulary has changed since".into()));
    }
    Ok(())
}

/// The SHA-256 of what was read, as a step run from the file carries it.
pub fn id(text: &str) -> String {
    sha256(text.as_bytes())
}
