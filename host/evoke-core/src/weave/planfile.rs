//! The plan file `evoke try --save FILE` writes and `evoke run FILE` runs: the plan whole, readable without
//! a tool, with everything it was decided against pinned. Running it checks every pin against what is
//! here now and refuses the file, naming its line and the fix, when one differs.
//!
//! The file is sealed: its first key, `seal`, is an HMAC-SHA256 of every other byte, keyed by a secret
//! kept in the user's data place and named by a short id of that key. A digest inside the file could not
//! hold an edit, since whoever edits the file can recompute one; a MAC cannot be recomputed without the
//! key. A seal of this user's key that does not match is an edit, refused; a seal of another key is a
//! plan from elsewhere, which is decided again here rather than trusted.

use crate::adapter::{Gate, Raw};
use crate::catalog::Reflex;
use crate::vocab::Vocabulary;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// The version of the plan file's format: 2 is sealed.
pub const FORMAT: u32 = 2;
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
    /// The hash of its effective manifest (wording, consent, contract) and its settings' names and values;
    /// for a playbook, the h1 of its directory, as the store hashes one.
    pub item: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

impl ReflexPin {
    /// Whether it pins a playbook: only a directory's hash is an h1, a manifest's is a sha256.
    pub fn is_playbook(&self) -> bool {
        self.item.starts_with("h1:")
    }
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
    /// Written only in a plan evoke saved because it stopped for a value no one could give there: an id
    /// of that one request, so the same sentence stopped again is a new request with a journal of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asked: Option<String>,
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
pub fn write(
    pins: &Pins,
    input: &str,
    tags: &[String],
    weave: serde_json::Value,
    answers: Vec<Answer>,
    asked: Option<&str>,
) -> String {
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
        asked: asked.map(str::to_string),
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
        // The fix is said apart, where the error is shown; a second line here would show inside the message.
        write!(f, "line {}: `{}`: {}", self.line, self.key, self.message)
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

/// How the seal opens a file's first line; the whole line is `  "seal": "hmac-sha256:<key id>:<mac>",`.
const SEAL_OPENS: &str = "{\n  \"seal\": \"hmac-sha256:";

/// The id a key is named by in a seal: enough of a hash of it to tell keys apart, nothing to recover it.
pub fn key_id(key: &[u8]) -> String {
    let digest = Sha256::new().chain_update(b"evoke plan key\0").chain_update(key).finalize();
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

fn mac_of(key: &[u8], text: &str) -> Hmac<Sha256> {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(text.as_bytes());
    mac
}

/// The file's text with its seal written first: the MAC of `text` (as [`write`] made it) under `key`.
pub fn seal(text: &str, key: &[u8]) -> String {
    let mac: String = mac_of(key, text).finalize().into_bytes().iter().map(|b| format!("{b:02x}")).collect();
    let body = text.strip_prefix("{\n").unwrap_or(text);
    format!("{SEAL_OPENS}{}:{mac}\",\n{body}", key_id(key))
}

/// A sealed file opened: the text the seal covers, what names it (its MAC), and whether this user's key
/// made it.
#[derive(Debug, Clone, PartialEq)]
pub struct Unsealed {
    pub text: String,
    pub mac: String,
    pub ours: bool,
}

/// Opens a file's seal under this user's `key`. A seal of this key that does not match the text is an
/// edit and is refused; a seal of another key is opened as a plan from elsewhere.
pub fn unseal(text: &str, key: &[u8]) -> Result<Unsealed, Refused> {
    const AGAIN: &str = "write the plan again: evoke try --save FILE \"…\"";
    let unsealed = |message: &str| Refused { line: 2, key: "seal".into(), message: message.into(), fix: AGAIN.into() };
    if text.len() > MAX_BYTES {
        return Err(Refused {
            line: 1,
            key: "plan".into(),
            message: format!("the file is over {MAX_BYTES} bytes; no plan evoke writes is"),
            fix: AGAIN.into(),
        });
    }
    let Some(rest) = text.strip_prefix(SEAL_OPENS) else {
        return Err(unsealed(
            "the file carries no seal where evoke writes one; it was edited, or written by an older evoke",
        ));
    };
    let Some((line, body)) = rest.split_once("\",\n") else {
        return Err(unsealed("the seal is not one evoke writes"));
    };
    let Some((id, mac)) = line.split_once(':') else {
        return Err(unsealed("the seal is not one evoke writes"));
    };
    let hex = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    if !hex(id, 16) || !hex(mac, 64) {
        return Err(unsealed("the seal is not one evoke writes"));
    }
    let covered = format!("{{\n{body}");
    let ours = id == key_id(key);
    if ours {
        let bytes: Vec<u8> = (0..32).map(|i| u8::from_str_radix(&mac[2 * i..2 * i + 2], 16).unwrap_or(0)).collect();
        if mac_of(key, &covered).verify_slice(&bytes).is_err() {
            return Err(unsealed(
                "the file was changed since evoke wrote it (by hand or by a tool): its seal no longer matches",
            ));
        }
    }
    Ok(Unsealed { text: covered, mac: mac.to_string(), ours })
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
    // A reflex gone is said by its name before the set its questions make, which its going changes too:
    // one a step calls first, then one the plan only chose among.
    let called = called_reflexes(file);
    let gone = |n: &&String| !now.reflexes.contains_key(*n);
    if let Some(name) = called.iter().find(gone) {
        return Err(refused(name, format!("{name} is not installed and active here")));
    }
    if let Some(name) = file.reflexes.keys().find(gone) {
        return Err(refused(name, format!("{name} was removed since; the plan was decided among the reflexes then")));
    }
    if file.set != now.set {
        return Err(refused("set", "the reflexes' questions have changed since".into()));
    }
    for (name, pin) in &file.reflexes {
        match now.reflexes.get(name) {
            Some(here) if here.item != pin.item => {
                let message = if pin.is_playbook() || here.is_playbook() {
                    format!("the playbook {name} has changed since (its steps or another file of its directory)")
                } else {
                    format!("{name} has changed since (its manifest or its settings)")
                };
                return Err(refused(name, message));
            }
            _ => {}
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

/// Each step's reflex in the file's plan, in step order (`None` for a step that names none).
fn step_reflexes(file: &PlanFile) -> Vec<Option<String>> {
    let steps = file.weave.get("steps").and_then(serde_json::Value::as_array).map(Vec::as_slice).unwrap_or_default();
    steps.iter().map(|step| step.get("reflex").and_then(serde_json::Value::as_str).map(str::to_string)).collect()
}

/// The reflexes the file's steps call, in step order, each once.
fn called_reflexes(file: &PlanFile) -> Vec<String> {
    let mut called: Vec<String> = Vec::new();
    for name in step_reflexes(file).into_iter().flatten() {
        if !called.contains(&name) {
            called.push(name);
        }
    }
    called
}

/// The steps (from 1) of the file's plan whose reflex is not installed and active here.
pub fn steps_gone(file: &PlanFile, now: &Pins) -> Vec<usize> {
    let gone = |r: &Option<String>| r.as_ref().is_some_and(|r| !now.reflexes.contains_key(r));
    step_reflexes(file).iter().enumerate().filter(|(_, r)| gone(r)).map(|(i, _)| i + 1).collect()
}

/// The SHA-256 of what was read, as a step run from the file carries it.
pub fn id(text: &str) -> String {
    sha256(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plan that called the reflex `lamp` and the playbook `night`.
    fn pins() -> Pins {
        let lamp = ReflexPin { item: "sha256:11".into(), path: Some("reflexes/lamp".into()) };
        let night = ReflexPin { item: "h1:AAAA".into(), path: Some("playbooks/night".into()) };
        Pins {
            evoke: "0.1.0".into(),
            adapter: AdapterPin { name: "replay".into(), id: "replay".into() },
            gate: None,
            set: "sha256:aa".into(),
            reflexes: [("lamp".to_string(), lamp), ("night".to_string(), night)].into(),
            vocab: BTreeMap::new(),
        }
    }

    #[test]
    fn a_changed_playbook_is_refused_for_its_steps_not_a_manifest() {
        let text = write(&pins(), "good night", &[], serde_json::json!({ "steps": [] }), Vec::new(), None);
        let file = read(&text).unwrap();
        let mut now = pins();
        now.reflexes.get_mut("night").unwrap().item = "h1:BBBB".into();
        let refused = check(&text, &file, &now).unwrap_err();
        assert_eq!(refused.key, "night");
        assert_eq!(
            refused.message,
            "the playbook night has changed since (its steps or another file of its directory)"
        );
        // A reflex beside it is still refused for its manifest or its settings.
        let mut now = pins();
        now.reflexes.get_mut("lamp").unwrap().item = "sha256:33".into();
        assert_eq!(
            check(&text, &file, &now).unwrap_err().message,
            "lamp has changed since (its manifest or its settings)"
        );
    }

    #[test]
    fn a_reflex_gone_is_named_though_the_set_of_questions_changed_with_it() {
        let weave = serde_json::json!({ "steps": [{ "step": 1, "reflex": "night" }, { "step": 2, "reflex": "lamp" }] });
        let text = write(&pins(), "good night and the lamp off", &[], weave, Vec::new(), None);
        let file = read(&text).unwrap();
        let mut now = pins();
        now.reflexes.remove("lamp");
        now.set = "sha256:bb".into();
        let refused = check(&text, &file, &now).unwrap_err();
        assert_eq!((refused.key.as_str(), refused.message.as_str()), ("lamp", "lamp is not installed and active here"));
        assert_eq!(steps_gone(&file, &now), [2]);
        assert_eq!(steps_gone(&file, &pins()), Vec::<usize>::new());
    }

    #[test]
    fn a_reflex_a_step_calls_is_named_before_one_the_plan_only_chose_among() {
        // `aardvark` sorts first among the pins, but no step calls it.
        let mut then = pins();
        then.reflexes.insert("aardvark".into(), ReflexPin { item: "sha256:22".into(), path: None });
        let weave = serde_json::json!({ "steps": [{ "step": 1, "reflex": "lamp" }] });
        let text = write(&then, "the lamp off", &[], weave, Vec::new(), None);
        let file = read(&text).unwrap();
        let mut now = then.clone();
        now.reflexes.remove("aardvark");
        now.reflexes.remove("lamp");
        assert_eq!(check(&text, &file, &now).unwrap_err().key, "lamp");
        // Only the uncalled one gone: said as a change to the reflexes, not as one the plan needs.
        let mut now = then.clone();
        now.reflexes.remove("aardvark");
        let refused = check(&text, &file, &now).unwrap_err();
        assert_eq!(refused.key, "aardvark");
        assert!(refused.message.contains("was removed since"), "{}", refused.message);
        assert!(steps_gone(&file, &now).is_empty());
    }
}
