//! The content hash h1, the same as Go's module `h1:` hash (`dirhash.Hash1`): for each
//! regular file, in byte order of its `/`-separated relative path, the line
//! `hex(sha256(content)) + "  " + path + "\n"`; then `h1:` and the standard, padded base64 of the SHA-256
//! of all the lines. A symlink, a submodule or any other entry that is not a regular file refuses the
//! whole directory.

use crate::conform::CaseError;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::fmt;

/// One entry of a directory, as the reader found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry<'a> {
    File {
        path: &'a str,
        bytes: &'a [u8],
    },
    /// A symlink, a submodule, a device: anything that is not a regular file.
    Other {
        path: &'a str,
        kind: &'a str,
    },
}

/// Why a directory has no h1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum H1Fault {
    /// A symlink, a submodule or another entry that is not a regular file.
    NotRegular { path: String, kind: String },
    /// A path that cannot be written on one line of the hash (a line feed in it), or that is empty,
    /// absolute, or holds a `.` or `..` segment.
    BadPath { path: String },
    /// Two entries with the same path.
    Duplicate { path: String },
}

impl fmt::Display for H1Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            H1Fault::NotRegular { path, kind } => write!(f, "{path} is a {kind}; only regular files are installed"),
            H1Fault::BadPath { path } => write!(f, "the path {path:?} cannot be hashed"),
            H1Fault::Duplicate { path } => write!(f, "{path} appears twice"),
        }
    }
}

/// The h1 of a directory's entries, in any order.
pub fn h1(entries: &[Entry]) -> Result<String, H1Fault> {
    let mut files: Vec<(&str, [u8; 32])> = Vec::with_capacity(entries.len());
    for entry in entries {
        match entry {
            Entry::File { path, bytes } => {
                check_path(path)?;
                files.push((path, Sha256::digest(bytes).into()));
            }
            Entry::Other { path, kind } => {
                return Err(H1Fault::NotRegular { path: path.to_string(), kind: kind.to_string() });
            }
        }
    }
    h1_of_digests(files)
}

/// The h1 of regular files given by path and the SHA-256 of their content, in any order: for a reader
/// that hashes each file as it streams it, never holding a whole file in memory.
pub fn h1_of_digests(mut files: Vec<(&str, [u8; 32])>) -> Result<String, H1Fault> {
    for (path, _) in &files {
        check_path(path)?;
    }
    files.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    if let Some(w) = files.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(H1Fault::Duplicate { path: w[0].0.to_string() });
    }
    let mut summary = Sha256::new();
    for (path, digest) in files {
        summary.update(hex(&digest));
        summary.update("  ");
        summary.update(path);
        summary.update("\n");
    }
    Ok(format!("h1:{}", base64(&summary.finalize())))
}

/// A path one line of the hash can hold: not empty, no line feed, relative, no `.` or `..` segment.
fn check_path(path: &str) -> Result<(), H1Fault> {
    let ok = !path.is_empty()
        && !path.contains('\n')
        && !path.starts_with('/')
        && path.split('/').all(|s| !s.is_empty() && s != "." && s != "..");
    if ok { Ok(()) } else { Err(H1Fault::BadPath { path: path.to_string() }) }
}

/// The 32 bytes an `h1:` string encodes, when it is one.
pub fn decode(h1: &str) -> Option<[u8; 32]> {
    let text = h1.strip_prefix("h1:")?.as_bytes();
    if text.len() != 44 || !text.ends_with(b"=") || text[43 - 1] == b'=' {
        return None;
    }
    let value = |c: u8| ALPHABET.iter().position(|a| *a == c).map(|p| p as u32);
    let mut out = Vec::with_capacity(33);
    for chunk in text.chunks(4) {
        let mut n = 0u32;
        let mut pad = 0;
        for &c in chunk {
            n <<= 6;
            if c == b'=' {
                pad += 1;
            } else {
                n |= value(c)?;
            }
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..3 - pad]);
    }
    let bytes: [u8; 32] = out.try_into().ok()?;
    // Only the canonical spelling: encoding the bytes again gives the same text.
    (base64(&bytes) == h1[3..]).then_some(bytes)
}

pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[(b >> 4) as usize] as char);
        out.push(DIGITS[(b & 15) as usize] as char);
    }
    out
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 (RFC 4648 §4), padded.
pub fn base64(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The `h1` vector function: `{ "files": [ { "path", "content" } | { "path", "kind" } ] }` in, `{ "h1" }` or
/// the fault out. `content` is text, hashed as its UTF-8 bytes.
pub fn vector_case(input: &serde_json::Value) -> Result<serde_json::Value, CaseError> {
    let files = input
        .get("files")
        .and_then(|f| f.as_array())
        .ok_or(CaseError::MissingCollection { key: "files", kind: "list" })?;
    let mut entries = Vec::new();
    for file in files {
        let path = file.get("path").and_then(|p| p.as_str()).ok_or(CaseError::FileWithoutPath)?;
        match (file.get("content").and_then(|c| c.as_str()), file.get("kind").and_then(|k| k.as_str())) {
            (Some(content), None) => entries.push(Entry::File { path, bytes: content.as_bytes() }),
            (None, Some(kind)) => entries.push(Entry::Other { path, kind }),
            _ => return Err(CaseError::ContentOrKind { path: path.to_string() }),
        }
    }
    Ok(match h1(&entries) {
        Ok(h) => serde_json::json!({ "h1": h }),
        Err(fault) => serde_json::json!({ "fault": fault }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_rfc4648_vectors() {
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), encoded);
        }
    }

    #[test]
    fn decode_round_trips() {
        let h = h1(&[Entry::File { path: "a", bytes: b"x" }]).unwrap();
        let bytes = decode(&h).unwrap();
        assert_eq!(format!("h1:{}", base64(&bytes)), h);
        assert!(decode("h1:abc").is_none());
    }
}
