//! The four places evoke keeps things: config (the home project), data, cache and state (the log).
//! `EVOKE_HOME=DIR` puts all four under one directory, which tests and transcripts use.

use etcetera::{BaseStrategy, choose_base_strategy};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Places {
    pub config: PathBuf,
    pub data: PathBuf,
    pub cache: PathBuf,
    pub state: PathBuf,
}

impl Places {
    /// From the environment: `EVOKE_HOME`, else the platform's base directories (XDG on Linux).
    pub fn from_env() -> Result<Places, NoPlaces> {
        if let Some(home) = std::env::var_os("EVOKE_HOME").filter(|v| !v.is_empty()) {
            return Ok(Places::under(Path::new(&home)));
        }
        let base = choose_base_strategy().map_err(|e| NoPlaces { reason: e.to_string() })?;
        let state = base.state_dir().unwrap_or_else(|| base.data_dir());
        Ok(Places {
            config: base.config_dir().join("evoke"),
            data: base.data_dir().join("evoke"),
            cache: base.cache_dir().join("evoke"),
            state: state.join("evoke"),
        })
    }

    pub fn under(home: &Path) -> Places {
        Places {
            config: home.join("config"),
            data: home.join("data"),
            cache: home.join("cache"),
            state: home.join("state"),
        }
    }

    pub fn log(&self) -> PathBuf {
        self.state.join("log.jsonl")
    }

    /// Makes the cache place private before anything is kept in it: created 0700, and narrowed to 0700 when
    /// an earlier evoke left it open. What is under it (answers, compiled components, fetches) is then
    /// readable by its owner alone, whatever mode each file has.
    pub fn private_cache(&self) -> std::io::Result<()> {
        crate::atomic::private_place(&self.cache)
    }
}

/// The platform names no home directory, so evoke has nowhere to keep its files; `EVOKE_HOME` is the fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("evoke has nowhere to keep its files ({reason}); set EVOKE_HOME to a directory")]
pub struct NoPlaces {
    /// Why the platform's base directories could not be found.
    pub reason: String,
}

/// Opens the log for appending: its place 0700 and the file 0600, narrowed when an earlier evoke left
/// either readable by others, since a log holds every request a person made.
///
/// The file is opened with `O_NOFOLLOW`: a symbolic link planted at the log's name is refused, never
/// appended to, and its target's mode never changed. The mode is narrowed through the open handle, so
/// no path is looked up again between the check and the change.
pub fn open_log(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        crate::atomic::private_place(dir)?;
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP) => std::io::Error::other(format!(
                "{} is a symbolic link, and evoke never writes its log through one; remove it (`rm {}`) and \
                 evoke makes a new log there",
                path.display(),
                path.display()
            )),
            _ => std::io::Error::other(format!("cannot open {}: {e}", path.display())),
        })?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::other(format!(
            "{} is not a regular file; remove it and evoke makes a new log there",
            path.display()
        )));
    }
    if meta.permissions().mode() & 0o077 != 0 {
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(file)
}
