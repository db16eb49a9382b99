//! How much a fetched reflex may hold: at most 10,000 files, 64 MiB in all, 16 MiB per file (a `.wasm`
//! component may take the whole 64 MiB), and directories nested at most 32 deep below the reflex directory. A fetch over any of them is refused
//! before anything is read into memory or written; the store's re-hash at every start holds a copy to the
//! same bounds, so a copy grown by another hand is a miss rather than a start that reads a gigabyte.

use std::fmt;

/// At most this many files, and this many directories (so that a tree of directories alone cannot make
/// a walk unbounded either).
pub const MAX_FILES: u64 = 10_000;
/// At most this many bytes in all the files together.
pub const MAX_TOTAL: u64 = 64 << 20;
/// At most this many bytes in one file.
pub const MAX_FILE: u64 = 16 << 20;
/// At most this many bytes in one `.wasm` file. A component carries its language's runtime (a Python
/// one is about 18 MB before any code of its own), so it may fill what the whole reflex may hold.
pub const MAX_COMPONENT: u64 = MAX_TOTAL;
/// At most this many directories nested below the reflex directory.
pub const MAX_DEPTH: usize = 32;

/// The limit a reflex directory went over, with the path that went over it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Over {
    /// More than [`MAX_FILES`] files (or directories); `path` is the first one past the limit.
    Files { path: String },
    /// More than [`MAX_TOTAL`] bytes in all; `path` is the file that crossed it.
    Total { path: String },
    /// One file over [`MAX_FILE`] bytes ([`MAX_COMPONENT`] for a `.wasm` file).
    File { path: String, size: u64 },
    /// A directory nested deeper than [`MAX_DEPTH`].
    Depth { path: String },
}

impl Over {
    /// The path named in the refusal.
    pub fn path(&self) -> &str {
        match self {
            Over::Files { path } | Over::Total { path } | Over::File { path, .. } | Over::Depth { path } => path,
        }
    }

    /// The limit itself, in the words the refusal and the documentation use.
    pub fn limit(&self) -> &'static str {
        match self {
            Over::Files { .. } => "at most 10,000 files",
            Over::Total { .. } => "at most 64 MiB in all",
            Over::File { path, .. } if is_component(path) => "at most 64 MiB in a .wasm component",
            Over::File { .. } => "at most 16 MiB per file (64 MiB for a .wasm component)",
            Over::Depth { .. } => "directories at most 32 deep",
        }
    }
}

impl fmt::Display for Over {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path();
        match self {
            Over::Files { .. } => write!(f, "it holds more than 10,000 files (at {path})"),
            Over::Total { .. } => write!(f, "its files hold more than 64 MiB in all (crossed at {path})"),
            Over::File { size, .. } => write!(f, "{path} holds {size} bytes"),
            Over::Depth { .. } => write!(f, "{path} is nested more than 32 directories deep"),
        }?;
        write!(f, "; a reflex may hold {}", self.limit())
    }
}

/// Whether `path` names a WebAssembly file, which may be larger than any other.
fn is_component(path: &str) -> bool {
    path.rsplit('/').next().is_some_and(|name| name.len() > ".wasm".len() && name.ends_with(".wasm"))
}

/// The most one file at `path` may hold.
pub fn file_cap(path: &str) -> u64 {
    if is_component(path) { MAX_COMPONENT } else { MAX_FILE }
}

/// A running count of what a walk has met, refusing the first entry past a limit.
#[derive(Debug, Default)]
pub struct Tally {
    files: u64,
    dirs: u64,
    total: u64,
}

impl Tally {
    /// A file of `size` bytes at `path`.
    pub fn file(&mut self, path: &str, size: u64) -> Result<(), Over> {
        self.files += 1;
        if self.files > MAX_FILES {
            return Err(Over::Files { path: path.to_string() });
        }
        if size > file_cap(path) {
            return Err(Over::File { path: path.to_string(), size });
        }
        self.total += size;
        if self.total > MAX_TOTAL {
            return Err(Over::Total { path: path.to_string() });
        }
        Ok(())
    }

    /// A directory at `path`, nested `depth` below the reflex directory (its own entries are at 1).
    pub fn dir(&mut self, path: &str, depth: usize) -> Result<(), Over> {
        if depth > MAX_DEPTH {
            return Err(Over::Depth { path: path.to_string() });
        }
        self.dirs += 1;
        if self.dirs > MAX_FILES {
            return Err(Over::Files { path: path.to_string() });
        }
        Ok(())
    }
}
