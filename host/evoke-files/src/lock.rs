//! `evoke.lock`: for each remote reflex the ref, the tag, the commit, the content hash h1
//! of its directory and the effect the user consented to; and the adapter by name and id. Local
//! reflexes are never locked. Only evoke writes this file.

use evoke_core::manifest::Effect;
use std::collections::BTreeMap;
use std::path::Path;

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
}

impl Lock {
    /// Reads `evoke.lock` under `root`; no file is an empty lock.
    pub fn load(root: &Path) -> Result<Lock, String> {
        let path = root.join(LOCK_FILE);
        match std::fs::read_to_string(&path) {
            Ok(text) => Lock::parse(&text).map_err(|e| format!("{}: {e}", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Lock::default()),
            Err(e) => Err(format!("cannot read {}: {e}", path.display())),
        }
    }

    pub fn parse(text: &str) -> Result<Lock, String> {
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| e.message().to_string())?;
        let mut lock = Lock::default();
        let string = |t: &toml::Table, key: &str, at: &str| -> Result<String, String> {
            t.get(key).and_then(|v| v.as_str()).map(str::to_string).ok_or_else(|| format!("{at} has no `{key}` string"))
        };
        for (key, value) in &table {
            match key.as_str() {
                "version" => {
                    if value.as_integer() != Some(1) {
                        return Err("this lock was written by a newer evoke (`version` is not 1)".into());
                    }
                }
                "adapter" => {
                    let t = value.as_table().ok_or("[adapter] must be a table")?;
                    lock.adapter = Some(LockedAdapter {
                        name: string(t, "name", "[adapter]")?,
                        id: string(t, "id", "[adapter]")?,
                    });
                }
                "reflexes" => {
                    let reflexes = value.as_table().ok_or("[reflexes] must be a table")?;
                    for (name, entry) in reflexes {
                        let at = format!("[reflexes.{name}]");
                        let t = entry.as_table().ok_or_else(|| format!("{at} must be a table"))?;
                        let effect = string(t, "effect", &at)?;
                        let effect = Effect::parse(&effect)
                            .ok_or_else(|| format!("{at}: `effect` is read, write or destructive"))?;
                        lock.reflexes.insert(
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
                other => return Err(format!("unknown key `{other}`")),
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
        for (name, locked) in &self.reflexes {
            let key = if evoke_core::text::is_name(name) { name.clone() } else { quote(name) };
            out.push_str(&format!(
                "\n[reflexes.{key}]\nref = {}\ntag = {}\ncommit = {}\nh1 = {}\neffect = {}\n",
                quote(&locked.reference),
                quote(&locked.tag),
                quote(&locked.commit),
                quote(&locked.h1),
                quote(locked.effect.as_str()),
            ));
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
}
