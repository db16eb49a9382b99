//! Trust: a project other than the home one must be trusted before evoke decides in it.
//! Trust binds to the content of the four owned paths, `evoke.toml`, `evoke.lock`, `overlays/` and
//! `vocab/`; evoke's own writes renew it; any other change stops the next run until `evoke trust`.
//!
//! `DATA/trust.toml` holds, per project directory (canonical path), the h1 of the owned files and
//! each file's SHA-256, so that a refusal can name what changed.

use crate::places::Places;
use crate::project::{Location, PROJECT_FILE};
use evoke_core::h1::{Entry, h1, hex};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use crate::trust_error::TrustError;

pub const TRUST_FILE: &str = "trust.toml";

/// The owned content of a project as it is now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// The h1 of every owned file.
    pub digest: String,
    /// Each owned file's path (relative, `/`-separated) and the hex SHA-256 of its content.
    pub files: BTreeMap<String, String>,
}

/// Why a project may not decide.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Untrusted {
    pub root: PathBuf,
    /// Files added, changed or removed since the project was trusted; empty when it never was.
    pub changed: Vec<String>,
    pub never: bool,
}

impl Untrusted {
    /// The refusal, ending with the command that gives what is needed.
    pub fn message(&self) -> String {
        let shown = shown(&self.root);
        if self.never {
            format!("the project in {shown} is not trusted yet; read its files, then run: evoke trust")
        } else {
            format!(
                "the project in {shown} changed since you trusted it ({}); read the change, then run: evoke trust",
                self.changed.join(", ")
            )
        }
    }
}

impl std::fmt::Display for Untrusted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message())
    }
}

/// A directory as a person reads it: relative to the working directory when inside it.
pub fn shown(root: &Path) -> String {
    let cwd = std::env::current_dir().ok().and_then(|c| c.canonicalize().ok());
    let root_c = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    match cwd.as_deref().and_then(|c| root_c.strip_prefix(c).ok()) {
        Some(rel) if rel.as_os_str().is_empty() => ".".into(),
        Some(rel) => rel.display().to_string(),
        None => root_c.display().to_string(),
    }
}

/// Reads the owned files of the project at `root`: `evoke.toml`, `evoke.lock`, and every file under
/// `overlays/` and `vocab/`, each through `bounded` as evoke reads them: a link inside the project to a
/// file inside it is followed; a link leading outside it, a link to a directory, anything but a regular
/// file, a file over `bounded::MAX_OWNED`, or more than `limits::MAX_FILES` files refuse the snapshot.
pub fn snapshot(root: &Path) -> Result<Snapshot, TrustError> {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for name in [PROJECT_FILE, crate::lock::LOCK_FILE] {
        match crate::bounded::read_in(root, &root.join(name), crate::bounded::MAX_OWNED) {
            Ok(bytes) => files.push((name.to_string(), bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => return Err(TrustError::Read { path: root.join(name), source }),
        }
    }
    for dir in ["overlays", "vocab"] {
        let path = root.join(dir);
        // The directory itself may be a link, to a directory inside the project only.
        match crate::bounded::inside(root, &path) {
            Ok(_) => collect(root, &path, dir, &mut files, 0)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => return Err(TrustError::Read { path, source }),
        }
    }
    let entries: Vec<Entry> = files.iter().map(|(p, b)| Entry::File { path: p, bytes: b }).collect();
    let digest = h1(&entries).map_err(TrustError::Hash)?;
    let files = files.iter().map(|(p, b)| (p.clone(), hex(&Sha256::digest(b)))).collect();
    Ok(Snapshot { digest, files })
}

fn collect(
    root: &Path,
    dir: &Path,
    prefix: &str,
    out: &mut Vec<(String, Vec<u8>)>,
    depth: usize,
) -> Result<(), TrustError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound || e.kind() == std::io::ErrorKind::NotADirectory => {
            return Ok(());
        }
        Err(source) => return Err(TrustError::Read { path: dir.to_path_buf(), source }),
    };
    if depth > 16 {
        return Err(TrustError::TooDeep { dir: dir.to_path_buf() });
    }
    for entry in entries {
        let entry = entry.map_err(TrustError::Entry)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let relative = format!("{prefix}/{name}");
        let path = entry.path();
        if out.len() as u64 >= crate::limits::MAX_FILES {
            let source = std::io::Error::other(format!(
                "the project owns more than {} files, the most evoke reads: remove the overlays and vocabularies no reflex needs",
                crate::limits::MAX_FILES
            ));
            return Err(TrustError::Read { path, source });
        }
        // A directory is walked where it is; a link is never walked as one (a link to `..` would loop).
        let kind = entry.file_type().map_err(TrustError::Entry)?;
        if kind.is_dir() {
            collect(root, &path, &relative, out, depth + 1)?;
            continue;
        }
        if kind.is_symlink() && path.metadata().is_ok_and(|m| m.is_dir()) {
            let source = std::io::Error::other(format!(
                "{} is a link to a directory; evoke follows a link here only to a file inside the project: \
                 put the directory itself there",
                path.display()
            ));
            return Err(TrustError::Read { path, source });
        }
        match crate::bounded::read_in(root, &path, crate::bounded::MAX_OWNED) {
            Ok(bytes) => out.push((relative, bytes)),
            // A dangling symlink: its target's name is what binds.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let target = std::fs::read_link(&path).map(|t| t.to_string_lossy().into_owned()).unwrap_or_default();
                out.push((relative, format!("unreadable -> {target}").into_bytes()));
            }
            Err(source) => return Err(TrustError::Read { path, source }),
        }
    }
    Ok(())
}

fn key(root: &Path) -> String {
    root.canonicalize().unwrap_or_else(|_| root.to_path_buf()).display().to_string()
}

fn trust_path(places: &Places) -> PathBuf {
    places.data.join(TRUST_FILE)
}

/// The recorded trust of every project.
fn load(places: &Places) -> Result<BTreeMap<String, Snapshot>, TrustError> {
    let path = trust_path(places);
    let text = match crate::bounded::read_to_string(&path, crate::bounded::MAX_TRUST) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(source) => return Err(TrustError::Read { path, source }),
    };
    let table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| TrustError::Malformed { path: path.clone(), message: e.message().to_string() })?;
    let mut out = BTreeMap::new();
    if let Some(projects) = table.get("projects").and_then(|p| p.as_table()) {
        for (root, entry) in projects {
            let Some(entry) = entry.as_table() else { continue };
            let digest = entry.get("digest").and_then(|d| d.as_str()).unwrap_or_default().to_string();
            let files = entry
                .get("files")
                .and_then(|f| f.as_table())
                .map(|f| f.iter().filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string()))).collect())
                .unwrap_or_default();
            out.insert(root.clone(), Snapshot { digest, files });
        }
    }
    Ok(out)
}

fn save(places: &Places, all: &BTreeMap<String, Snapshot>) -> std::io::Result<()> {
    let mut projects = toml::Table::new();
    for (root, snapshot) in all {
        let mut entry = toml::Table::new();
        entry.insert("digest".into(), toml::Value::String(snapshot.digest.clone()));
        let files: toml::Table =
            snapshot.files.iter().map(|(k, v)| (k.clone(), toml::Value::String(v.clone()))).collect();
        entry.insert("files".into(), toml::Value::Table(files));
        projects.insert(root.clone(), toml::Value::Table(entry));
    }
    let mut table = toml::Table::new();
    table.insert("projects".into(), toml::Value::Table(projects));
    let text =
        format!("# The projects you trusted, bound to the content of their owned files. Written by evoke.\n{table}");
    // What a person trusted is theirs alone to read: the file 0600, its place 0700.
    crate::atomic::private_place(&places.data)?;
    crate::atomic::write(&trust_path(places), text.as_bytes())
}

/// Whether the project may decide: the home project always; another only while its owned files are
/// exactly what was trusted.
pub fn check(places: &Places, location: &Location) -> Result<(), Untrusted> {
    if location.home {
        return Ok(());
    }
    let now = snapshot(&location.root).map_err(|_| Untrusted {
        root: location.root.clone(),
        changed: Vec::new(),
        never: true,
    })?;
    let all = load(places).unwrap_or_default();
    match all.get(&key(&location.root)) {
        Some(trusted) if trusted.digest == now.digest => Ok(()),
        Some(trusted) => {
            let mut changed: Vec<String> = Vec::new();
            for (path, hash) in &now.files {
                if trusted.files.get(path) != Some(hash) {
                    changed.push(path.clone());
                }
            }
            for path in trusted.files.keys() {
                if !now.files.contains_key(path) {
                    changed.push(format!("{path} (removed)"));
                }
            }
            if changed.is_empty() {
                changed.push("its owned files".into());
            }
            Err(Untrusted { root: location.root.clone(), changed, never: false })
        }
        None => Err(Untrusted { root: location.root.clone(), changed: Vec::new(), never: true }),
    }
}

/// Records the project's owned files as they are now: what `evoke trust` does once it has shown them.
pub fn record(places: &Places, location: &Location) -> Result<Snapshot, TrustError> {
    let now = snapshot(&location.root)?;
    if location.home {
        return Ok(now);
    }
    let mut all = load(places)?;
    all.insert(key(&location.root), now.clone());
    save(places, &all).map_err(|source| TrustError::Write { path: trust_path(places), source })?;
    Ok(now)
}

/// Writes owned files of the project atomically, renewing its trust when it was trusted before the
/// write: evoke's own writes never stop the next run, and never launder a change made by another hand.
pub fn write_owned(places: &Places, location: &Location, files: &[(&Path, &[u8])]) -> Result<(), TrustError> {
    let trusted_before = check(places, location).is_ok();
    for (path, bytes) in files {
        crate::atomic::write(path, bytes).map_err(|source| TrustError::Write { path: path.to_path_buf(), source })?;
    }
    if trusted_before {
        record(places, location)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> (tempfile::TempDir, Places, Location) {
        let dir = tempfile::tempdir().unwrap();
        let places = Places::under(&dir.path().join("home"));
        let root = dir.path().join("proj");
        std::fs::create_dir_all(root.join("overlays")).unwrap();
        std::fs::write(root.join(PROJECT_FILE), "[reflexes]\n").unwrap();
        (dir, places, Location { root, home: false })
    }

    #[test]
    fn binds_to_the_owned_files_and_names_what_changed() {
        let (_dir, places, location) = setup();
        assert!(check(&places, &location).unwrap_err().never);
        record(&places, &location).unwrap();
        check(&places, &location).unwrap();
        // A file outside the four owned paths does not count.
        std::fs::write(location.root.join("notes.txt"), "x").unwrap();
        check(&places, &location).unwrap();
        std::fs::write(location.root.join("overlays/lights.toml"), "description = \"x\"\n").unwrap();
        let refused = check(&places, &location).unwrap_err();
        assert_eq!(refused.changed, ["overlays/lights.toml"]);
        assert!(refused.message().ends_with("evoke trust"));
    }

    #[test]
    fn evokes_own_writes_renew_trust_but_never_launder_another_change() {
        let (_dir, places, location) = setup();
        record(&places, &location).unwrap();
        let lock = location.root.join(crate::lock::LOCK_FILE);
        write_owned(&places, &location, &[(&lock, b"version = 1\n")]).unwrap();
        check(&places, &location).unwrap();
        std::fs::write(location.root.join(PROJECT_FILE), "[reflexes]\nx = \"elsewhere\"\n").unwrap();
        write_owned(&places, &location, &[(&lock, b"version = 1\n\n")]).unwrap();
        assert!(check(&places, &location).is_err(), "the hand edit of evoke.toml still stops the run");
    }

    #[test]
    fn a_trust_record_that_is_not_toml_is_named() {
        let (_dir, places, location) = setup();
        std::fs::create_dir_all(&places.data).unwrap();
        std::fs::write(trust_path(&places), "projects = [").unwrap();
        let e = record(&places, &location).unwrap_err();
        assert!(matches!(&e, TrustError::Malformed { path, .. } if *path == trust_path(&places)), "{e}");
        assert!(e.to_string().starts_with(&format!("{}: ", trust_path(&places).display())), "{e}");
    }

    #[test]
    fn the_home_project_is_trusted() {
        let (_dir, places, mut location) = setup();
        location.home = true;
        check(&places, &location).unwrap();
    }
}
