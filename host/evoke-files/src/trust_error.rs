//! Why a project's trust could not be read or recorded: the file named, and what befell it.

use evoke_core::h1::H1Fault;
use std::path::PathBuf;

/// The owned files or the trust record could not be read, or the record not written.
#[derive(Debug, thiserror::Error)]
pub enum TrustError {
    #[error("cannot read {}: {source}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    /// A directory of owned files nested past the walk's bound.
    #[error("{} is nested too deep", dir.display())]
    TooDeep { dir: PathBuf },
    /// An entry of a directory of owned files could not be listed.
    #[error("{0}")]
    Entry(std::io::Error),
    /// The owned files have no h1 (a name that cannot be hashed).
    #[error("{0}")]
    Hash(H1Fault),
    /// The trust record is not TOML: the TOML reader's message.
    #[error("{}: {message}", path.display())]
    Malformed { path: PathBuf, message: String },
    #[error("cannot write {}: {source}", path.display())]
    Write { path: PathBuf, source: std::io::Error },
}
