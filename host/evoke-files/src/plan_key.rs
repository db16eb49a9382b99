//! The secret that seals the plan files this user writes, kept in the data place (`plan.key`, 0600). A
//! plan file carries a MAC keyed by it, so any change to the file, by hand or by a tool, is seen: whoever
//! edits a file can recompute a digest, but not a MAC without this key.
//!
//! The key is made on first use from the operating system's random source, written under a random
//! temporary name and linked into place without replacing one already there: two evokes starting at once
//! end up with the one key that landed first.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The key's length in bytes.
pub const KEY_BYTES: usize = 32;

/// Why the plan key cannot be had.
#[derive(Debug, thiserror::Error)]
pub enum PlanKeyError {
    #[error("the plan key {}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("the plan key {} is not {KEY_BYTES} bytes; remove it and a new one is made (plan files saved with it are then from elsewhere: each of their writes asks first)", path.display())]
    Damaged { path: PathBuf },
    #[error("no random source to make the plan key from: {0}")]
    Random(String),
    #[error("the plan key {} may be read by others (mode {mode:o}); anyone who reads it can seal plan files as yours: chmod 600 {}", path.display(), path.display())]
    Open { path: PathBuf, mode: u32 },
}

/// Where the key lives.
pub fn path(data: &Path) -> PathBuf {
    data.join("plan.key")
}

/// The key, made on first use.
pub fn key(data: &Path) -> Result<[u8; KEY_BYTES], PlanKeyError> {
    let path = path(data);
    match read(&path) {
        Err(PlanKeyError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {}
        other => return other,
    }
    let io = |source| PlanKeyError::Io { path: path.clone(), source };
    let mut key = [0u8; KEY_BYTES];
    getrandom::fill(&mut key).map_err(|e| PlanKeyError::Random(e.to_string()))?;
    crate::atomic::create_private_dirs(data).map_err(io)?;
    let mut file = tempfile::Builder::new().prefix(".plan.key.").suffix(".tmp").tempfile_in(data).map_err(io)?;
    file.write_all(&key).map_err(io)?;
    file.as_file().sync_all().map_err(io)?;
    match file.persist_noclobber(&path) {
        Ok(_) => Ok(key),
        // Another evoke made it first: its key is the one.
        Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => read(&path),
        Err(e) => Err(io(e.error)),
    }
}

fn read(path: &Path) -> Result<[u8; KEY_BYTES], PlanKeyError> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let io = |source| PlanKeyError::Io { path: path.to_path_buf(), source };
    // Never through a link planted at its name, never blocked on a FIFO there.
    let file =
        std::fs::File::options().read(true).custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK).open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(PlanKeyError::Damaged { path: path.to_path_buf() });
    }
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(PlanKeyError::Open { path: path.to_path_buf(), mode });
    }
    let mut bytes = Vec::with_capacity(KEY_BYTES);
    file.take(KEY_BYTES as u64 + 1).read_to_end(&mut bytes).map_err(io)?;
    bytes.try_into().map_err(|_| PlanKeyError::Damaged { path: path.to_path_buf() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_is_made_once_and_read_back_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let first = key(dir.path()).unwrap();
        let second = key(dir.path()).unwrap();
        assert_eq!(first, second);
        assert_ne!(first, [0u8; KEY_BYTES], "random, not zeroed");
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path(dir.path())).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "readable by its owner alone");
    }

    #[test]
    fn a_key_others_may_read_or_a_link_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        key(dir.path()).unwrap();
        std::fs::set_permissions(path(dir.path()), std::fs::Permissions::from_mode(0o644)).unwrap();
        let refused = key(dir.path()).err().unwrap();
        assert!(matches!(refused, PlanKeyError::Open { mode: 0o644, .. }), "{refused}");
        assert!(refused.to_string().contains("chmod 600"), "{refused}");
        let other = tempfile::tempdir().unwrap();
        std::fs::write(other.path().join("chosen"), [7u8; KEY_BYTES]).unwrap();
        let linked = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(other.path().join("chosen"), path(linked.path())).unwrap();
        assert!(key(linked.path()).is_err(), "a link at the key's name is never read");
    }

    #[test]
    fn a_damaged_key_is_refused_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(path(dir.path()), b"short").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path(dir.path()), std::fs::Permissions::from_mode(0o600)).unwrap();
        let refused = key(dir.path()).err().unwrap();
        assert!(matches!(refused, PlanKeyError::Damaged { .. }), "{refused}");
        assert_eq!(std::fs::read(path(dir.path())).unwrap(), b"short", "the file is left for the person");
    }
}
