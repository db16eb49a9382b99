//! Why `evoke.lock` could not be read: the file named, the place in it, and the way out.

use std::path::PathBuf;

/// `evoke.lock` could not be read.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error("cannot read {}: {source}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{}: {fault}", path.display())]
    Malformed { path: PathBuf, fault: LockFault },
}

impl LockError {
    /// What puts it right: the lock is evoke's own file, written whole by `evoke update`.
    pub fn fix(&self) -> &'static str {
        "evoke update writes it anew"
    }
}

/// What is wrong inside a lock's text, naming the table and key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LockFault {
    /// Not TOML at all: the TOML reader's message.
    #[error("{0}")]
    Toml(String),
    #[error("this lock was written by a newer evoke (`version` is not 1)")]
    Newer,
    #[error("{at} must be a table")]
    NotATable { at: String },
    #[error("{at} has no `{key}` string")]
    Missing { at: String, key: &'static str },
    #[error("{at}: `effect` is read, write or destructive")]
    Effect { at: String },
    #[error("unknown key `{0}`")]
    UnknownKey(String),
}
