//! Trust: a project other than the home one must be trusted before evoke decides in it.
//! Trust binds to the content of the four owned paths, `evoke.toml`, `evoke.lock`, `overlays/` and
//! `vocab/`; evoke's own writes renew it; any other change stops the next run until `evoke trust`.
//!
//! `DATA/trust.toml` holds, per project directory (canonical path), the h1 of the owned files and
//! each file's SHA-256, so that a refusal can name what changed; and the playbooks a person reviewed,
//! each by the hash of the content they saw.

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

/// What the trust file holds of one project: the snapshot it was trusted at (none for the home project,
/// trusted by definition), and the playbooks a person reviewed, each by the item hash they saw.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Recorded {
    snapshot: Option<Snapshot>,
    /// Playbook local name to the item (h1) reviewed. One per name: a later review replaces it.
    reviewed: BTreeMap<String, String>,
}

/// The recorded trust of every project.
fn load(places: &Places) -> Result<BTreeMap<String, Recorded>, TrustError> {
    let path = trust_path(places);
    let text = match crate::bounded::read_to_string(&path, crate::bounded::MAX_TRUST) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(source) => return Err(TrustError::Read { path, source }),
    };
    let table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| TrustError::Malformed { path: path.clone(), message: e.message().to_string() })?;
    let strings = |t: Option<&toml::Value>| -> BTreeMap<String, String> {
        t.and_then(|f| f.as_table())
            .map(|f| f.iter().filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string()))).collect())
            .unwrap_or_default()
    };
    let mut out = BTreeMap::new();
    if let Some(projects) = table.get("projects").and_then(|p| p.as_table()) {
        for (root, entry) in projects {
            let Some(entry) = entry.as_table() else { continue };
            let snapshot = entry
                .get("digest")
                .and_then(|d| d.as_str())
                .map(|digest| Snapshot { digest: digest.to_string(), files: strings(entry.get("files")) });
            out.insert(root.clone(), Recorded { snapshot, reviewed: strings(entry.get("reviewed")) });
        }
    }
    Ok(out)
}

fn save(places: &Places, all: &BTreeMap<String, Recorded>) -> std::io::Result<()> {
    let strings = |map: &BTreeMap<String, String>| -> toml::Table {
        map.iter().map(|(k, v)| (k.clone(), toml::Value::String(v.clone()))).collect()
    };
    let mut projects = toml::Table::new();
    for (root, recorded) in all {
        let mut entry = toml::Table::new();
        if let Some(snapshot) = &recorded.snapshot {
            entry.insert("digest".into(), toml::Value::String(snapshot.digest.clone()));
            entry.insert("files".into(), toml::Value::Table(strings(&snapshot.files)));
        }
        if !recorded.reviewed.is_empty() {
            entry.insert("reviewed".into(), toml::Value::Table(strings(&recorded.reviewed)));
        }
        projects.insert(root.clone(), toml::Value::Table(entry));
    }
    let mut table = toml::Table::new();
    table.insert("projects".into(), toml::Value::Table(projects));
    let text = format!(
        "# The projects you trusted, bound to the content of their owned files, and the playbooks you reviewed. \
         Written by evoke.\n{table}"
    );
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
    match all.get(&key(&location.root)).and_then(|r| r.snapshot.as_ref()) {
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
    // The reviews stay: each is bound to its playbook's own hash, never to the project's snapshot.
    all.entry(key(&location.root)).or_default().snapshot = Some(now.clone());
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

/// Every review recorded for the project at `location`: per playbook, what the person said yes to.
pub fn reviews(places: &Places, location: &Location) -> Result<BTreeMap<String, String>, TrustError> {
    let all = load(places)?;
    Ok(all.get(&key(&location.root)).map(|r| r.reviewed.clone()).unwrap_or_default())
}

/// Whether a person reviewed the playbook installed as `playbook` at exactly `item` (its h1) in this
/// project. A playbook changed since is simply not reviewed.
pub fn reviewed(places: &Places, location: &Location, playbook: &str, item: &str) -> Result<bool, TrustError> {
    let all = load(places)?;
    Ok(all.get(&key(&location.root)).and_then(|r| r.reviewed.get(playbook)).is_some_and(|seen| seen == item))
}

/// Records a person's yes to the whole plan of the playbook at `item`. It lives in the trust file, not in
/// the project, so it never changes what the project was trusted at; in the home project as in any other.
pub fn record_review(places: &Places, location: &Location, playbook: &str, item: &str) -> Result<(), TrustError> {
    let mut all = load(places)?;
    all.entry(key(&location.root)).or_default().reviewed.insert(playbook.to_string(), item.to_string());
    save(places, &all).map_err(|source| TrustError::Write { path: trust_path(places), source })
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
    fn a_review_binds_to_the_playbooks_hash_and_leaves_trust_alone() {
        let (_dir, places, location) = setup();
        record(&places, &location).unwrap();
        assert!(!reviewed(&places, &location, "good_night", "h1:one").unwrap());
        record_review(&places, &location, "good_night", "h1:one").unwrap();
        assert!(reviewed(&places, &location, "good_night", "h1:one").unwrap());
        // Another content, or another playbook of the same content, was never seen.
        assert!(!reviewed(&places, &location, "good_night", "h1:two").unwrap());
        assert!(!reviewed(&places, &location, "morning", "h1:one").unwrap());
        // The record is in the trust file, not the project: the project is still what was trusted.
        check(&places, &location).unwrap();
        // A review of the new content replaces the old one.
        record_review(&places, &location, "good_night", "h1:two").unwrap();
        assert!(reviewed(&places, &location, "good_night", "h1:two").unwrap());
        assert!(!reviewed(&places, &location, "good_night", "h1:one").unwrap());
    }

    #[test]
    fn trusting_again_keeps_the_reviews() {
        let (_dir, places, location) = setup();
        record(&places, &location).unwrap();
        record_review(&places, &location, "good_night", "h1:one").unwrap();
        std::fs::write(location.root.join(PROJECT_FILE), "[playbooks]\n").unwrap();
        assert!(check(&places, &location).is_err());
        record(&places, &location).unwrap();
        check(&places, &location).unwrap();
        assert!(reviewed(&places, &location, "good_night", "h1:one").unwrap());
    }

    #[test]
    fn a_review_in_the_home_project_is_kept_though_home_is_never_recorded() {
        let (_dir, places, mut location) = setup();
        location.home = true;
        record_review(&places, &location, "good_night", "h1:one").unwrap();
        assert!(reviewed(&places, &location, "good_night", "h1:one").unwrap());
        // A project never trusted with only a review recorded is still not trusted.
        let other = Location { root: location.root.clone(), home: false };
        assert!(check(&places, &other).unwrap_err().never);
    }

    #[test]
    fn the_home_project_is_trusted() {
        let (_dir, places, mut location) = setup();
        location.home = true;
        check(&places, &location).unwrap();
    }
}
