//! The store: fetched reflex directories under `DATA/store/`, keyed by their h1, and
//! re-hashed against the lock at every start. A copy that does not match is a miss.
//!
//! A directory's name is `h1-` and the hex of the hash's 32 bytes (the base64 of `h1:` holds `/`, which
//! no file name may). Files are written read-only; a copy is built beside its place and renamed into it,
//! so a store entry is whole or absent.

use crate::limits::Tally;
use evoke_core::h1::{Entry, H1Fault, decode, h1, h1_of_digests, hex};
use std::path::{Path, PathBuf};

pub use crate::store_error::StoreError;

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
        let found = hash_dir(&dir).map_err(|e| Miss::Unreadable(e.to_string()))?;
        if found == expected { Ok(dir) } else { Err(Miss::Changed { found }) }
    }

    /// Writes a reflex directory's files into the store, returning its h1 and its place. A copy already
    /// there and intact is kept; a broken one is replaced.
    ///
    /// The files are written through a capability on the new entry's directory (`cap-std`): a path that
    /// is absolute, climbs with `..` or passes through a symlink is refused by construction, so nothing a
    /// fetched tree names can land outside its entry.
    pub fn put(&self, files: &[(String, Vec<u8>)]) -> Result<(String, PathBuf), StoreError> {
        let entries: Vec<Entry> = files.iter().map(|(p, b)| Entry::File { path: p, bytes: b }).collect();
        let hash = h1(&entries).map_err(StoreError::Hash)?;
        let place = self.path_of(&hash).ok_or_else(|| StoreError::NotAnH1 { h1: hash.clone() })?;
        if self.verify(&hash).is_ok() {
            return Ok((hash, place));
        }
        crate::atomic::create_private_dirs(&self.dir)
            .map_err(|source| StoreError::CreateStore { dir: self.dir.clone(), source })?;
        // A fresh directory under a random name, made exclusively: nothing planted can be written through.
        let building = tempfile::Builder::new()
            .prefix(".building-")
            .tempdir_in(&self.dir)
            .map_err(|source| StoreError::CreateEntry { dir: self.dir.clone(), source })?;
        let entry = cap_std::fs::Dir::open_ambient_dir(building.path(), cap_std::ambient_authority())
            .map_err(|source| StoreError::OpenEntry { dir: building.path().to_path_buf(), source })?;
        for (path, bytes) in files {
            write_read_only(&entry, path, bytes).map_err(|source| StoreError::WriteFile {
                path: path.clone(),
                dir: building.path().to_path_buf(),
                source,
            })?;
        }
        drop(entry);
        if place.exists() {
            remove_tree(&place);
        }
        // Kept from here on: renamed into place, or removed by hand when the rename fails.
        let built = building.keep();
        std::fs::rename(&built, &place).map_err(|source| {
            remove_tree(&built);
            StoreError::Place { place: place.clone(), source }
        })?;
        Ok((hash, place))
    }
}

/// Writes one file of a store entry, read-only, through the entry's capability.
fn write_read_only(entry: &cap_std::fs::Dir, path: &str, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::PermissionsExt;
    if let Some(parent) = Path::new(path).parent().filter(|p| !p.as_os_str().is_empty()) {
        entry.create_dir_all(parent)?;
    }
    let mut file = entry.create(path)?;
    file.write_all(bytes)?;
    file.set_permissions(cap_std::fs::Permissions::from_std(std::fs::Permissions::from_mode(0o444)))?;
    Ok(())
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

/// The h1 of a directory on disk, each file hashed as it streams through a small buffer, the walk held to
/// the limits of a fetched reflex. A symlink or any entry that is not a regular file or a directory
/// refuses it, as does a name that is not UTF-8.
pub fn hash_dir(dir: &Path) -> Result<String, StoreError> {
    let mut files = Vec::new();
    walk(dir, "", 0, &mut Tally::default(), &mut files)?;
    let digests = files.iter().map(|(path, digest)| (path.as_str(), *digest)).collect();
    h1_of_digests(digests).map_err(|e: H1Fault| StoreError::Hash(e))
}

/// Every regular file under `dir` with its `/`-separated relative path and the SHA-256 of its content.
fn walk(
    dir: &Path,
    prefix: &str,
    depth: usize,
    tally: &mut Tally,
    out: &mut Vec<(String, [u8; 32])>,
) -> Result<(), StoreError> {
    let entries = std::fs::read_dir(dir).map_err(|source| StoreError::ReadDir { dir: dir.to_path_buf(), source })?;
    for entry in entries {
        let entry = entry.map_err(StoreError::Entry)?;
        let name = entry.file_name();
        let name = name.to_str().ok_or_else(|| StoreError::NotUtf8 { path: entry.path() })?;
        let relative = if prefix.is_empty() { name.to_string() } else { format!("{prefix}/{name}") };
        let kind = entry.file_type().map_err(StoreError::Entry)?;
        if kind.is_dir() {
            tally.dir(&relative, depth + 1).map_err(StoreError::Over)?;
            walk(&entry.path(), &relative, depth + 1, tally, out)?;
        } else if kind.is_file() {
            let digest = hash_file(&entry.path(), &relative, tally)?;
            out.push((relative, digest));
        } else if kind.is_symlink() {
            return Err(StoreError::Symlink { relative });
        } else {
            return Err(StoreError::NotRegular { relative });
        }
    }
    Ok(())
}

/// The SHA-256 of one file, read through a fixed buffer; its size is counted against the limits first,
/// and no more than that size is read, so a file growing while it is hashed cannot run past them.
fn hash_file(path: &Path, relative: &str, tally: &mut Tally) -> Result<[u8; 32], StoreError> {
    use sha2::{Digest, Sha256};
    use std::io::Read;
    let file =
        std::fs::File::open(path).map_err(|source| StoreError::ReadFile { relative: relative.to_string(), source })?;
    let size = file.metadata().map_err(|source| StoreError::ReadFile { relative: relative.to_string(), source })?.len();
    tally.file(relative, size).map_err(StoreError::Over)?;
    let mut reader = file.take(size);
    let mut hasher = Sha256::new();
    let mut buffer = [0u8; 64 * 1024];
    loop {
        let n = reader
            .read(&mut buffer)
            .map_err(|source| StoreError::ReadFile { relative: relative.to_string(), source })?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
    }
    Ok(hasher.finalize().into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_symlink_in_a_directory_refuses_its_hash_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("reflex.toml"), "x").unwrap();
        std::os::unix::fs::symlink("reflex.toml", dir.path().join("link")).unwrap();
        let e = hash_dir(dir.path()).unwrap_err();
        assert!(matches!(&e, StoreError::Symlink { relative } if relative == "link"), "{e}");
        assert_eq!(e.to_string(), "link is a symlink; only regular files are installed");
    }
}
