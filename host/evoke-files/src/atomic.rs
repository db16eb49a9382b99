//! Writes of owned files: to a temporary file beside the target, synced, then renamed into place, so a
//! kill at any moment leaves the old file or the new one, never a torn one.
//!
//! The temporary file is made by the `tempfile` crate: a random name, created exclusively (`O_EXCL`), so a
//! symlink or a file planted beside the target under a guessed name is never opened, let alone written
//! through. It is created with mode 0600, which the target keeps once renamed: what evoke writes (the
//! lock, `trust.toml`, `evoke.toml`, the answer cache) is readable by its owner alone. A directory the
//! write has to create is made 0700.

use std::io::Write;
use std::os::unix::fs::DirBuilderExt;
use std::path::Path;

/// Writes `bytes` to `path` atomically, the file readable and writable by its owner alone.
pub fn write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    create_private_dirs(dir)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    // The prefix and suffix only make a left-behind file recognizable; the random middle makes it
    // unguessable, and the exclusive create refuses any name already taken.
    let mut file = tempfile::Builder::new().prefix(&format!(".{name}.")).suffix(".tmp").tempfile_in(dir)?;
    file.write_all(bytes)?;
    file.as_file().sync_all()?;
    // On failure the temporary file is removed when `file` (or the error holding it) is dropped.
    file.persist(path).map_err(|e| e.error)?;
    // The rename is durable once the directory is synced.
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Creates `dir` and any missing parent with mode 0700; directories already there are left as they are
/// (a project's own directory is the user's to set).
pub fn create_private_dirs(dir: &Path) -> std::io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir)
}

/// Makes one of evoke's own places (data, state, cache, config) private: created 0700 when missing, and
/// narrowed to 0700 when an earlier evoke or another hand left it readable by others. A place that is a
/// symbolic link is the user's own arrangement: it is used as it is, and its target's mode is never
/// changed through the link.
pub fn private_place(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    create_private_dirs(dir)?;
    let meta = std::fs::symlink_metadata(dir)?;
    if meta.is_dir() && meta.permissions().mode() & 0o077 != 0 {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}
