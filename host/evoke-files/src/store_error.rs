//! Why a reflex directory could not be hashed or written into the store: the file named, and what befell it.

use crate::limits::Over;
use evoke_core::h1::H1Fault;
use std::path::PathBuf;

/// A directory could not be hashed, or a copy not placed in the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot read {}: {source}", dir.display())]
    ReadDir { dir: PathBuf, source: std::io::Error },
    /// An entry of a directory could not be listed or its type read.
    #[error("{0}")]
    Entry(std::io::Error),
    #[error("{} has a name that is not UTF-8", path.display())]
    NotUtf8 { path: PathBuf },
    /// The tree is past a fetched reflex's bounds.
    #[error("{0}")]
    Over(Over),
    #[error("{relative} is a symlink; only regular files are installed")]
    Symlink { relative: String },
    #[error("{relative} is not a regular file")]
    NotRegular { relative: String },
    #[error("cannot read {relative}: {source}")]
    ReadFile { relative: String, source: std::io::Error },
    /// The files have no h1 (a name that cannot be hashed).
    #[error("{0}")]
    Hash(H1Fault),
    /// An h1 just computed did not decode: a fault of the hashing itself.
    #[error("h1 did not decode")]
    NotAnH1 { h1: String },
    #[error("cannot create {}: {source}", dir.display())]
    CreateStore { dir: PathBuf, source: std::io::Error },
    #[error("cannot create a directory in {}: {source}", dir.display())]
    CreateEntry { dir: PathBuf, source: std::io::Error },
    #[error("cannot open {}: {source}", dir.display())]
    OpenEntry { dir: PathBuf, source: std::io::Error },
    #[error("cannot write {path} into {}: {source}", dir.display())]
    WriteFile { path: String, dir: PathBuf, source: std::io::Error },
    #[error("cannot place {}: {source}", place.display())]
    Place { place: PathBuf, source: std::io::Error },
}
