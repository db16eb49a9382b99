//! The journal J (`journalKey ↦ value`) and the world table W (`idemKey ↦ receipt`) sit behind one
//! trait, so the durable host can bring its own. Two are here: in memory, and one JSON file.

use crate::bounds::MAX_STORE_BYTES;
use crate::error::Error;
use serde_json::{Map, Value, json};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

pub trait Store {
    fn get(&self, key: &str) -> Option<&Value>;
    fn put(&mut self, key: String, value: Value) -> Result<(), Error>;
    /// Makes every `put` so far durable. The runtime calls it after each event and before it stops.
    fn flush(&mut self) -> Result<(), Error>;
    /// Every entry in the order it was put.
    fn entries(&self) -> Vec<(&str, &Value)>;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A store that lives as long as the run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MemoryStore {
    map: Map<String, Value>,
}

impl MemoryStore {
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }
}

impl Store for MemoryStore {
    fn get(&self, key: &str) -> Option<&Value> {
        self.map.get(key)
    }

    fn put(&mut self, key: String, value: Value) -> Result<(), Error> {
        self.map.insert(key, value);
        Ok(())
    }

    fn flush(&mut self) -> Result<(), Error> {
        Ok(())
    }

    fn entries(&self) -> Vec<(&str, &Value)> {
        self.map.iter().map(|(k, v)| (k.as_str(), v)).collect()
    }

    fn len(&self) -> usize {
        self.map.len()
    }
}

/// A store in one JSON file: `{ "expresso": "<kind>", "version": 1, "entries": { key: value, … } }`.
/// It is read whole when opened and written whole on flush, to a temporary file in the same directory
/// renamed over the old one, so a crash leaves either the old file or the new, never half of one.
#[derive(Debug, Clone)]
pub struct FileStore {
    path: PathBuf,
    kind: String,
    memory: MemoryStore,
    dirty: bool,
}

impl FileStore {
    /// Opens `path`, empty when it does not exist yet. `kind` (`journal`, `world`) is checked on read, so
    /// a world table passed as a journal is refused rather than read as answers.
    pub fn open(path: &Path, kind: &str) -> Result<FileStore, Error> {
        let err = |message: String| Error::Store { path: path.display().to_string(), message };
        let mut memory = MemoryStore::new();
        match std::fs::File::open(path) {
            Ok(file) => {
                let mut text = String::new();
                file.take(MAX_STORE_BYTES + 1).read_to_string(&mut text).map_err(|e| err(e.to_string()))?;
                if text.len() as u64 > MAX_STORE_BYTES {
                    return Err(err(format!("larger than {MAX_STORE_BYTES} bytes")));
                }
                let value: Value = serde_json::from_str(&text).map_err(|e| err(format!("not a store file: {e}")))?;
                if value.get("expresso").and_then(Value::as_str) != Some(kind)
                    || value.get("version") != Some(&json!(1))
                {
                    return Err(err(format!("not a version 1 {kind} file")));
                }
                let Some(Value::Object(entries)) = value.get("entries") else {
                    return Err(err("no `entries` object".into()));
                };
                memory.map = entries.clone();
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(err(e.to_string())),
        }
        Ok(FileStore { path: path.to_path_buf(), kind: kind.to_string(), memory, dirty: false })
    }
}

impl Store for FileStore {
    fn get(&self, key: &str) -> Option<&Value> {
        self.memory.get(key)
    }

    fn put(&mut self, key: String, value: Value) -> Result<(), Error> {
        self.dirty = true;
        self.memory.put(key, value)
    }

    fn flush(&mut self) -> Result<(), Error> {
        if !self.dirty {
            return Ok(());
        }
        let body = json!({ "expresso": self.kind, "version": 1, "entries": self.memory.map });
        let mut text = serde_json::to_string_pretty(&body).unwrap_or_default();
        text.push('\n');
        write_atomic(&self.path, text.as_bytes())
            .map_err(|e| Error::Store { path: self.path.display().to_string(), message: e.to_string() })?;
        self.dirty = false;
        Ok(())
    }

    fn entries(&self) -> Vec<(&str, &Value)> {
        self.memory.entries()
    }

    fn len(&self) -> usize {
        self.memory.len()
    }
}

/// Writes a temporary file beside `path`, syncs it, and renames it over `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "store".into());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_store_survives_reopening_and_keeps_order() {
        let dir = std::env::temp_dir().join(format!("expresso-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("j.json");
        let _ = std::fs::remove_file(&path);
        let mut store = FileStore::open(&path, "journal").unwrap();
        store.put("b".into(), json!(1)).unwrap();
        store.put("a".into(), json!({"kind": "bug"})).unwrap();
        store.flush().unwrap();
        let again = FileStore::open(&path, "journal").unwrap();
        assert_eq!(again.entries(), vec![("b", &json!(1)), ("a", &json!({"kind": "bug"}))]);
        assert!(matches!(FileStore::open(&path, "world"), Err(Error::Store { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
