//! `evoke.lock`: for each remote reflex the ref, the tag, the commit, the content hash h1
//! of its directory and the effect the user consented to; each remote playbook the same, in its own
//! `[playbooks]` table (its effect the strongest among its steps); and the adapter by name and id. Local
//! reflexes and playbooks are never locked. Only evoke writes this file.

use evoke_core::manifest::Effect;
use std::collections::BTreeMap;
use std::path::Path;

pub use crate::lock_error::{LockError, LockFault};

pub const LOCK_FILE: &str = "evoke.lock";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockedAdapter {
    pub name: String,
    pub id: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Locked {
    /// The ref as written in `evoke.toml` (`repository` and `//subdir`).
    pub reference: String,
    /// The version tag taken.
    pub tag: String,
    /// The commit the tag named when it was taken, in hex.
    pub commit: String,
    pub h1: String,
    /// The effect the user consented to: never looser than what runs.
    pub effect: Effect,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Lock {
    pub adapter: Option<LockedAdapter>,
    /// By local name.
    pub reflexes: BTreeMap<String, Locked>,
    /// The remote playbooks, by local name: a table of their own, so that the file says which is which.
    pub playbooks: BTreeMap<String, Locked>,
}

impl Lock {
    /// Reads `evoke.lock` under `root`; no file is an empty lock.
    pub fn load(root: &Path) -> Result<Lock, LockError> {
        let path = root.join(LOCK_FILE);
        match crate::bounded::read_to_string_in(root, &path, crate::bounded::MAX_OWNED) {
            Ok(text) => Lock::parse(&text).map_err(|fault| LockError::Malformed { path, fault }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Lock::default()),
            Err(source) => Err(LockError::Read { path, source }),
        }
    }

    pub fn parse(text: &str) -> Result<Lock, LockFault> {
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| LockFault::Toml(e.message().to_string()))?;
        let mut lock = Lock::default();
        let string = |t: &toml::Table, key: &'static str, at: &str| -> Result<String, LockFault> {
            t.get(key)
                .and_then(|v| v.as_str())
                .map(str::to_string)
                .ok_or_else(|| LockFault::Missing { at: at.to_string(), key })
        };
        let table_at = |value: &'_ toml::Value, at: &str| -> Result<toml::Table, LockFault> {
            value.as_table().cloned().ok_or_else(|| LockFault::NotATable { at: at.to_string() })
        };
        for (key, value) in &table {
            match key.as_str() {
                "version" => {
                    if value.as_integer() != Some(1) {
                        return Err(LockFault::Newer);
                    }
                }
                "adapter" => {
                    let t = &table_at(value, "[adapter]")?;
                    lock.adapter = Some(LockedAdapter {
                        name: string(t, "name", "[adapter]")?,
                        id: string(t, "id", "[adapter]")?,
                    });
                }
                "reflexes" | "playbooks" => {
                    let entries = table_at(value, &format!("[{key}]"))?;
                    let into = if key == "reflexes" { &mut lock.reflexes } else { &mut lock.playbooks };
                    for (name, entry) in &entries {
                        let at = format!("[{key}.{name}]");
                        let t = &table_at(entry, &at)?;
                        let effect = string(t, "effect", &at)?;
                        let effect = Effect::parse(&effect).ok_or_else(|| LockFault::Effect { at: at.clone() })?;
                        into.insert(
                            name.clone(),
                            Locked {
                                reference: string(t, "ref", &at)?,
                                tag: string(t, "tag", &at)?,
                                commit: string(t, "commit", &at)?,
                                h1: string(t, "h1", &at)?,
                                effect,
                            },
                        );
                    }
                }
                other => return Err(LockFault::UnknownKey(other.to_string())),
            }
        }
        Ok(lock)
    }

    /// The file's text: stable, sorted by local name, so that a write changes only what changed.
    pub fn to_text(&self) -> String {
        let quote = |s: &str| toml::Value::String(s.to_string()).to_string();
        let mut out = String::from("# Written by evoke add and evoke update; do not edit.\nversion = 1\n");
        if let Some(adapter) = &self.adapter {
            out.push_str(&format!("\n[adapter]\nname = {}\nid = {}\n", quote(&adapter.name), quote(&adapter.id)));
        }
        for (table, entries) in [("reflexes", &self.reflexes), ("playbooks", &self.playbooks)] {
            for (name, locked) in entries {
                let key = if evoke_core::text::is_name(name) { name.clone() } else { quote(name) };
                out.push_str(&format!(
                    "\n[{table}.{key}]\nref = {}\ntag = {}\ncommit = {}\nh1 = {}\neffect = {}\n",
                    quote(&locked.reference),
                    quote(&locked.tag),
                    quote(&locked.commit),
                    quote(&locked.h1),
                    quote(locked.effect.as_str()),
                ));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let mut lock =
            Lock { adapter: Some(LockedAdapter { name: "local".into(), id: "local/1".into() }), ..Lock::default() };
        lock.reflexes.insert(
            "lights".into(),
            Locked {
                reference: "https://example.com/o/r//lights".into(),
                tag: "v1.2.0".into(),
                commit: "0".repeat(40),
                h1: "h1:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=".into(),
                effect: Effect::Write,
            },
        );
        assert_eq!(Lock::parse(&lock.to_text()).unwrap(), lock);
    }

    #[test]
    fn a_playbook_is_locked_in_its_own_table() {
        let text = "version = 1\n\n[playbooks.good_night]\nref = \"https://example.com/o/r//good_night\"\n\
                    tag = \"v1.0.0\"\ncommit = \"c\"\nh1 = \"h\"\neffect = \"write\"\n";
        let lock = Lock::parse(text).unwrap();
        assert!(lock.reflexes.is_empty());
        let locked = &lock.playbooks["good_night"];
        assert_eq!((locked.tag.as_str(), locked.effect), ("v1.0.0", Effect::Write));
        assert!(lock.to_text().contains("\n[playbooks.good_night]\nref = "), "{}", lock.to_text());
        assert_eq!(Lock::parse(&lock.to_text()).unwrap(), lock);
        let bad = "[playbooks.good_night]\nref = \"r\"\ntag = \"v1\"\ncommit = \"c\"\nh1 = \"h\"\n";
        assert_eq!(Lock::parse(bad).unwrap_err().to_string(), "[playbooks.good_night] has no `effect` string");
    }
    #[test]
    fn a_bad_lock_says_which_table_and_key() {
        let text = "version = 1\n[reflexes.lights]\nref = \"r\"\ntag = \"v1\"\ncommit = \"c\"\nh1 = \"h\"\neffect = \"loud\"\n";
        assert_eq!(Lock::parse(text).unwrap_err(), LockFault::Effect { at: "[reflexes.lights]".into() });
        let missing = Lock::parse("[adapter]\nname = \"local\"\n").unwrap_err();
        assert_eq!(missing.to_string(), "[adapter] has no `id` string");
        assert_eq!(Lock::parse("version = 2\n").unwrap_err(), LockFault::Newer);

        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(LOCK_FILE), "surprise = 1\n").unwrap();
        let e = Lock::load(dir.path()).unwrap_err();
        assert!(matches!(&e, LockError::Malformed { fault: LockFault::UnknownKey(k), .. } if k == "surprise"));
        assert_eq!(e.to_string(), format!("{}: unknown key `surprise`", dir.path().join(LOCK_FILE).display()));
    }
}
