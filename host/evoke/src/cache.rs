//! The answer cache: an adapter's validated answers, keyed by its id, the plan digest, the input's
//! identity and the questions asked, keys and texts, so that a repeated decision makes no call (its
//! `trace` is empty).
//!
//! A pick's keys are character offsets of the very text typed, and two inputs of one identity may place a
//! span differently (`for 10` and `for  10`). So the key covers every key a question offers, not only its
//! id: a hit is an answer to exactly these questions. A hit is validated again all the same, and one that
//! does not fit is a miss: the cache may be damaged or written by an older evoke, never trusted by name.
//!
//! Each entry holds its own key next to its answers, and a hit is only an entry whose key is the one
//! computed for the questions being asked: an entry copied or renamed from another question (another
//! sentence's `route`, say) is a miss and is asked again. The key is a digest without a secret, so this
//! stops a swapped entry, not someone who writes as you and forges an entry consistent with its name.

use evoke_core::adapter::Raw;
use evoke_core::identity::identity;
use evoke_core::question::Questions;
use evoke_core::validate::validate;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

pub struct AnswerCache {
    dir: PathBuf,
}

impl AnswerCache {
    pub fn new(cache_place: &Path) -> Self {
        AnswerCache { dir: cache_place.join("answers") }
    }

    pub fn key(adapter: &str, plan: &str, input: &str, questions: &Questions) -> String {
        let mut hasher = Sha256::new();
        for part in [adapter, plan, &identity(input)] {
            hasher.update(part.as_bytes());
            hasher.update([0]);
        }
        // The questions as an adapter receives them: ids, offered keys and texts, in order.
        match serde_json::to_vec(questions) {
            Ok(json) => hasher.update(&json),
            Err(_) => {
                for id in questions.ids() {
                    hasher.update(id.as_bytes());
                    hasher.update([0]);
                }
            }
        }
        hasher.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The answer kept under `key`, only when it is a valid answer to `questions`.
    pub fn get(&self, key: &str, questions: &Questions) -> Option<Raw> {
        let raw = self.read(key)?;
        validate(questions, &raw).is_ok().then_some(raw)
    }

    /// The answers of the entry named `key`, only when the entry says it answers that very key.
    fn read(&self, key: &str) -> Option<Raw> {
        let text = std::fs::read_to_string(self.dir.join(format!("{key}.json"))).ok()?;
        let entry: Entry = serde_json::from_str(&text).ok()?;
        (entry.key == key).then_some(entry.answers)
    }

    /// Best effort: a cache that cannot be written only costs a later call.
    pub fn put(&self, key: &str, raw: &Raw) {
        let entry = EntryRef { key, answers: raw };
        let Ok(text) = serde_json::to_string(&entry) else { return };
        let _ = evoke_files::atomic::write(&self.dir.join(format!("{key}.json")), text.as_bytes());
    }
}

/// An entry as read: the digest of what it answers (adapter id, plan digest, input identity, questions as
/// sent) and the answers. An entry of an older evoke, the bare answers, does not parse and is a miss.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    key: String,
    answers: Raw,
}

#[derive(serde::Serialize)]
struct EntryRef<'a> {
    key: &'a str,
    answers: &'a Raw,
}
