//! `evoke check` in a reflex's git working copy: the contract of the working copy's
//! manifest diffed against the same directory at the newest version tag, and the next version.

use evoke_core::contract::{Diff, Level, WasFault, diff, next_version};
use evoke_core::manifest::{Manifest, read_manifest};
use evoke_core::refs::{Version, newest_release};
use gix::bstr::ByteSlice;
use std::path::{Path, PathBuf};

/// What the working copy's manifest is against the newest tag.
#[derive(Debug, Clone, PartialEq)]
pub enum Against {
    /// The repository has no release tag yet: the first version is suggested.
    FirstRelease { suggested: Version },
    /// The directory did not exist at the newest tag: a new reflex, a minor change.
    NewSince { newest: Version, next: Version },
    /// The diff, and the next version (`None` when nothing changed).
    Diff { newest: Version, diff: Diff, next: Option<Version> },
    /// A `was` violation: refused outright.
    Refused { newest: Version, fault: WasFault },
}

/// Why the working copy could not be held against its newest tag.
#[derive(Debug, thiserror::Error)]
pub enum TagError {
    #[error("cannot read {}: {source}", dir.display())]
    Read { dir: PathBuf, source: std::io::Error },
    #[error("the reflex is outside its working copy")]
    Outside { dir: PathBuf },
    /// The repository's tags could not be listed: git's message.
    #[error("cannot read the repository's tags: {reason}")]
    Tags { reason: String },
    #[error("cannot read the repository: {0}")]
    Repository(gix::Error),
    /// The manifest at the newest tag does not read: the tag is named, since a release stays readable.
    #[error("the manifest at {tag} does not read; every tagged manifest must stay readable")]
    TaggedManifest { tag: String },
}

/// `Ok(None)` when `dir` is not inside a git working copy.
pub fn against_newest_tag(dir: &Path, manifest: &Manifest) -> Result<Option<Against>, TagError> {
    let Ok(repo) = gix::discover(dir) else { return Ok(None) };
    let Some(workdir) = repo.workdir().map(Path::to_path_buf) else { return Ok(None) };
    let absolute = dir.canonicalize().map_err(|source| TagError::Read { dir: dir.to_path_buf(), source })?;
    let workdir = workdir.canonicalize().unwrap_or(workdir);
    let relative = absolute.strip_prefix(&workdir).map_err(|_| TagError::Outside { dir: absolute.clone() })?;
    let relative: Vec<String> = relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();

    let error = TagError::Repository;
    let tags_error = |e: &dyn std::fmt::Display| TagError::Tags { reason: e.to_string() };
    let mut tags = Vec::new();
    let references = repo.references().map_err(|e| tags_error(&e))?;
    for reference in references.prefixed("refs/tags/").map_err(|e| tags_error(&e))?.flatten() {
        if let Ok(name) = reference.name().as_bstr().to_str()
            && let Some(tag) = name.strip_prefix("refs/tags/")
        {
            tags.push(tag.to_string());
        }
    }
    let Some(newest) = newest_release(tags.iter().map(String::as_str)) else {
        return Ok(Some(Against::FirstRelease {
            suggested: next_version(None, Level::Major).expect("a first version"),
        }));
    };
    let mut reference = repo.find_reference(format!("refs/tags/{}", newest.tag()).as_str()).map_err(error)?;
    let tree = reference.peel_to_commit().map_err(error)?.tree().map_err(error)?;
    let mut at = tree.id;
    for segment in &relative {
        let tree = repo.find_tree(at).map_err(error)?;
        let decoded = tree.decode().map_err(error)?;
        match decoded.entries.iter().find(|e| e.filename == segment.as_bytes() && e.mode.is_tree()) {
            Some(entry) => at = entry.oid.to_owned(),
            None => return Ok(Some(new_since(newest))),
        }
    }
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    collect(&repo, at, "", &mut files)?;
    let Some((_, text)) = files.iter().find(|(p, _)| p == "reflex.toml") else { return Ok(Some(new_since(newest))) };
    let text = String::from_utf8_lossy(text).into_owned();
    let exists = |path: &str| files.iter().any(|(p, _)| p == path.trim_start_matches("./"));
    let shown = format!("reflex.toml at {}", newest.tag());
    let Some(old) = read_manifest(&shown, &text, &exists).value else {
        return Err(TagError::TaggedManifest { tag: newest.tag() });
    };
    Ok(Some(match diff(&old, manifest) {
        Ok(diff) => {
            let next = next_version(Some(&newest), diff.next);
            Against::Diff { newest, diff, next }
        }
        Err(fault) => Against::Refused { newest, fault },
    }))
}

fn new_since(newest: Version) -> Against {
    let next = next_version(Some(&newest), Level::Minor).expect("a minor bump");
    Against::NewSince { newest, next }
}

fn collect(
    repo: &gix::Repository,
    id: gix::ObjectId,
    prefix: &str,
    out: &mut Vec<(String, Vec<u8>)>,
) -> Result<(), TagError> {
    let error = TagError::Repository;
    let tree = repo.find_tree(id).map_err(error)?;
    let decoded = tree.decode().map_err(error)?;
    for entry in &decoded.entries {
        let name = entry.filename.to_str_lossy();
        let path = if prefix.is_empty() { name.to_string() } else { format!("{prefix}/{name}") };
        if entry.mode.is_tree() {
            collect(repo, entry.oid.to_owned(), &path, out)?;
        } else if entry.mode.is_blob() {
            let data = if path == "reflex.toml" {
                repo.find_blob(entry.oid.to_owned()).map_err(error)?.data.clone()
            } else {
                Vec::new()
            };
            out.push((path, data));
        }
    }
    Ok(())
}

/// The reflex directories under `dir` (directories holding `reflex.toml`, hidden ones, `target` and
/// `node_modules` skipped), when `dir` is inside a git working copy: one tag covers the whole
/// repository, so `evoke check` at its root checks them all.
pub fn reflex_dirs(dir: &Path) -> Option<Vec<std::path::PathBuf>> {
    let repo = gix::discover(dir).ok()?;
    repo.workdir()?;
    let mut found = Vec::new();
    walk(dir, &mut found, 0);
    found.sort();
    Some(found)
}

fn walk(dir: &Path, found: &mut Vec<std::path::PathBuf>, depth: usize) {
    if depth > 12 {
        return;
    }
    if dir.join("reflex.toml").is_file() {
        found.push(dir.to_path_buf());
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name == "target" || name == "node_modules" {
            continue;
        }
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            walk(&entry.path(), found, depth + 1);
        }
    }
}

/// The next version of the repository from every reflex's result: the highest level among them.
pub fn repository_next(results: &[Against]) -> Option<(Version, Level, Option<Version>)> {
    let mut newest = None;
    let mut level = Level::None;
    for r in results {
        let (n, l) = match r {
            Against::FirstRelease { .. } | Against::Refused { .. } => return None,
            Against::NewSince { newest, .. } => (newest, Level::Minor),
            Against::Diff { newest, diff, .. } => (newest, diff.next),
        };
        newest = Some(n.clone());
        level = level.max(l);
    }
    let newest = newest?;
    let next = next_version(Some(&newest), level);
    Some((newest, level, next))
}
