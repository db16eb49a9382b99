//! The store (000 §9.3, D7, D9): fetched reflex directories under `DATA/store/`, keyed by their h1, and
//! re-hashed against the lock at every start. A copy that does not match is a miss.
//!
//! A directory's name is `h1-` and the hex of the hash's 32 bytes (the base64 of `h1:` holds `/`, which
//! no file name may). Files are written read-only; a copy is built beside its place and renamed into it,
//! so a store entry is whole or absent.

use evoke_core::h1::{Entry, H1Fault, decode, h1, hex};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone)]
pub struct Store {
    pub dir: PathBuf,
}

/// Why a store copy cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Miss {
    /// No copy at all.
    Absent,
    /// The copy's content hashes to something else: it was changed after it was written.
    Changed { found: String },
    /// The copy holds a symlink or something else that is not a regular file, or cannot be read.
    Unreadable(String),
}

impl std::fmt::Display for Miss {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Miss::Absent => f.write_str("it is not in the store"),
            Miss::Changed { found } => write!(f, "its copy in the store was changed (it hashes to {found})"),
            Miss::Unreadable(why) => write!(f, "its copy in the store cannot be read: {why}"),
        }
    }
}

impl Store {
    pub fn new(data: &Path) -> Store {
        Store { dir: data.join("store") }
    }

    /// Where the copy with this h1 lives; `None` when the text is not an h1.
    pub fn path_of(&self, h1: &str) -> Option<PathBuf> {
        decode(h1).map(|bytes| self.dir.join(format!("h1-{}", hex(&bytes))))
    }

    /// The copy for `h1`, re-hashed: its directory when the content matches.
    pub fn verify(&self, expected: &str) -> Result<PathBuf, Miss> {
        let dir = self.path_of(expected).ok_or_else(|| Miss::Unreadable(format!("{expected} is not an h1")))?;
        if !dir.is_dir() {
            return Err(Miss::Absent);
        }
        let found = hash_dir(&dir).map_err(Miss::Unreadable)?;
        if found == expected { Ok(dir) } else { Err(Miss::Changed { found }) }
    }

    /// Writes a reflex directory's files into the store, returning its h1 and its place. A copy already
    /// there and intact is kept; a broken one is replaced.
    pub fn put(&self, files: &[(String, Vec<u8>)]) -> Result<(String, PathBuf), String> {
        let entries: Vec<Entry> = files.iter().map(|(p, b)| Entry::File { path: p, bytes: b }).collect();
        let hash = h1(&entries).map_err(|e| e.to_string())?;
        let place = self.path_of(&hash).ok_or("h1 did not decode")?;
        if self.verify(&hash).is_ok() {
            return Ok((hash, place));
        }
        std::fs::create_dir_all(&self.dir).map_err(|e| format!("cannot create {}: {e}", self.dir.display()))?;
        let building = self.dir.join(format!(".building-{}-{}", std::process::id(), unique()));
        let result = (|| -> Result<(), String> {
            for (path, bytes) in files {
                let target = building.join(path);
                if let Some(parent) = target.parent() {
                    std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
                }
                std::fs::write(&target, bytes).map_err(|e| format!("cannot write {}: {e}", target.display()))?;
                let mut perms = std::fs::metadata(&target).map_err(|e| e.to_string())?.permissions();
                perms.set_readonly(true);
                std::fs::set_permissions(&target, perms).map_err(|e| e.to_string())?;
            }
            std::fs::create_dir_all(&building).map_err(|e| e.to_string())?;
            if place.exists() {
                remove_tree(&place);
            }
            std::fs::rename(&building, &place).map_err(|e| format!("cannot place {}: {e}", place.display()))
        })();
        if result.is_err() {
            remove_tree(&building);
        }
        result.map(|()| (hash, place))
    }
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

/// Removes a directory tree whose files may be read-only.
pub fn remove_tree(dir: &Path) {
    fn writable(dir: &Path) {
        if let Ok(entries) = std::fs::read_dir(dir) {
            for entry in entries.flatten() {
                let path = entry.path();
                if let Ok(meta) = std::fs::symlink_metadata(&path) {
                    if meta.is_dir() {
                        writable(&path);
                    }
                    #[allow(clippy::permissions_set_readonly_false)]
                    {
                        let mut perms = meta.permissions();
                        perms.set_readonly(false);
                        let _ = std::fs::set_permissions(&path, perms);
                    }
                }
            }
        }
    }
    writable(dir);
    let _ = std::fs::remove_dir_all(dir);
}

/// The h1 of a directory on disk. A symlink or any entry that is not a regular file or a directory
/// refuses it, as does a name that is not UTF-8.
pub fn hash_dir(dir: &Path) -> Result<String, String> {
    let files = read_dir_files(dir)?;
    let entries: Vec<Entry> = files.iter().map(|(p, b)| Entry::File { path: p, bytes: b }).collect();
    h1(&entries).map_err(|e: H1Fault| e.to_string())
}

/// Every regular file under `dir`, with its `/`-separated relative path.
pub fn read_dir_files(dir: &Path) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut out = Vec::new();
    walk(dir, "", &mut out)?;
    Ok(out)
}

fn walk(dir: &Path, prefix: &str, out: &mut Vec<(String, Vec<u8>)>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| e.to_string())?;
        let name = entry.file_name();
        let name = name.to_str().ok_or_else(|| format!("{} has a name that is not UTF-8", entry.path().display()))?;
        let relative = if prefix.is_empty() { name.to_string() } else { format!("{prefix}/{name}") };
        let kind = entry.file_type().map_err(|e| e.to_string())?;
        if kind.is_dir() {
            walk(&entry.path(), &relative, out)?;
        } else if kind.is_file() {
            let bytes = std::fs::read(entry.path()).map_err(|e| format!("cannot read {relative}: {e}"))?;
            out.push((relative, bytes));
        } else if kind.is_symlink() {
            return Err(format!("{relative} is a symlink; only regular files are installed"));
        } else {
            return Err(format!("{relative} is not a regular file"));
        }
    }
    Ok(())
}
