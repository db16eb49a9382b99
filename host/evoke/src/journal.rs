//! The step journal of a woven plan, in the state place (`weave/`). Before a write or destructive step's
//! body starts, the step is recorded at `intent`; after it returns, at `done` with its result. Each record
//! rewrites the whole file through a temporary file and a rename, so a journal is always one whole version
//! or the one before it, whatever stops evoke.
//!
//! A journal is keyed by the project, the plan and where the plan came from (a sentence said, or one plan
//! file), so the same words in another project, or a plan file and the sentence it was saved from, never
//! share one. It is held under an exclusive lock from the moment it is read until the plan ends: a second
//! evoke taking up the same plan is refused, never let run a step the first is running.
//!
//! Running the same plan again (its plan file, or `evoke resume`) reads the journal: a `done` step is
//! never run again, and a step left at `intent` may already have acted, so it is run again only when a
//! person says so.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// The most a journal keeps of a step's result text, in bytes.
const RESULT_KEPT: usize = 4096;
/// The largest journal file read back, in bytes: a plan holds at most a few steps.
const MAX_JOURNAL: u64 = 1 << 20;
/// The most journals of sentences kept: a fresh one past this many removes the oldest.
pub const KEPT: usize = 64;
/// The most journals of plan files kept. A plan file may run again at any time, so its journal is not
/// pruned with the sentences'; past this many the oldest goes, and that file then asks before each write.
pub const KEPT_FILES: usize = 4096;

/// Where a plan came from, which its journal is keyed by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin<'a> {
    /// A sentence said now: a new request, with a new journal.
    Said,
    /// A plan file, by its seal: the file's own journal, whatever sentence it holds.
    File { seal: &'a str },
    /// A plan file sealed elsewhere, by its whole text: its seal cannot be verified here, so it names
    /// nothing of this user's.
    Elsewhere { text: &'a str },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// The body was about to start; it may have acted.
    Intent,
    /// The body returned.
    Done,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub step: usize,
    pub call: String,
    pub mark: Mark,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// The result's data, which a later step may take a field of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<serde_json::Value>,
    /// Whether the body failed; a failed step is done, and ran.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub failed: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub journal: u32,
    /// The project's root, as the plan ran in it.
    #[serde(default)]
    pub project: String,
    /// The plan's digest.
    pub plan: String,
    pub input: String,
    pub steps: Vec<Entry>,
}

/// Why a plan's journal cannot be taken up again: each names the file; running on without it could run a
/// done step twice.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{}: over {MAX_JOURNAL} bytes; it is no journal evoke wrote", path.display())]
    TooLarge { path: PathBuf },
    #[error("{}: not a journal evoke can read: {reason}", path.display())]
    NotAJournal { path: PathBuf, reason: serde_json::Error },
    #[error("{}: the journal is of another plan ({plan})", path.display())]
    OtherPlan { path: PathBuf, plan: String },
    #[error("{}: the journal is of another project ({project})", path.display())]
    OtherProject { path: PathBuf, project: String },
    #[error("{}: not a regular file; it is no journal evoke wrote", path.display())]
    NotAFile { path: PathBuf },
    /// Another evoke holds the plan's lock: it is running the plan now.
    #[error("another evoke is running this plan now ({})", path.display())]
    Busy { path: PathBuf },
}

/// A plan's journal, held under its lock for as long as the value lives.
pub struct Journal {
    path: PathBuf,
    record: Record,
    /// Whether a journal of this plan was found on disk.
    found: bool,
    /// Whether it is a sentence's (not a plan file's) journal.
    said: bool,
    /// The exclusive lock on `<key>.lock`; dropping it lets another evoke take the plan up.
    _lock: std::fs::File,
}

/// The journal's file stem: a hash of the project, the plan and its origin, with a prefix telling a
/// plan file's journals from a sentence's.
fn key(project: &Path, digest: &str, origin: Origin) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"evoke journal\0");
    hasher.update(project.as_os_str().as_encoded_bytes());
    hasher.update(b"\0");
    hasher.update(digest.as_bytes());
    hasher.update(b"\0");
    let prefix = match origin {
        Origin::Said => "s",
        Origin::File { seal } => {
            hasher.update(seal.as_bytes());
            "f"
        }
        Origin::Elsewhere { text } => {
            hasher.update(b"elsewhere\0");
            hasher.update(text.as_bytes());
            "f"
        }
    };
    let hex: String = hasher.finalize().iter().map(|b| format!("{b:02x}")).collect();
    format!("{prefix}-{hex}")
}

/// The file naming the journal of the latest plan a sentence ran in `project`: what `evoke resume` takes
/// up there.
pub fn latest(state: &Path, project: &Path) -> PathBuf {
    let digest = Sha256::digest(project.as_os_str().as_encoded_bytes());
    let hex: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
    state.join("weave").join(format!("latest-{hex}"))
}

/// Why `evoke resume` finds nothing to take up, or cannot read what it finds.
#[derive(Debug, thiserror::Error)]
pub enum LatestError {
    #[error("no plan of several steps has run in this project; there is nothing to resume")]
    None,
    #[error(transparent)]
    Journal(#[from] JournalError),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> JournalError + '_ {
    move |source| JournalError::Io { path: path.to_path_buf(), source }
}

/// Takes the plan's lock, or says another evoke holds it. The lock file stays beside the journal.
fn lock(dir: &Path, stem: &str) -> Result<std::fs::File, JournalError> {
    evoke_files::atomic::create_private_dirs(dir).map_err(io(dir))?;
    let path = dir.join(format!("{stem}.lock"));
    // 0600, and never through a link planted at its name.
    let file = std::fs::File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&path)
        .map_err(io(&path))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(JournalError::Busy { path }),
        Err(std::fs::TryLockError::Error(source)) => Err(JournalError::Io { path, source }),
    }
}

/// Reads a journal file, `None` when there is none. Bounded while reading, and never blocked on: a journal
/// is a regular file evoke wrote, never a device, a FIFO or a file of any size.
fn read(path: &Path) -> Result<Option<Record>, JournalError> {
    let bytes = match evoke_files::bounded::read(path, MAX_JOURNAL) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.kind() == std::io::ErrorKind::FileTooLarge => {
            return Err(JournalError::TooLarge { path: path.to_path_buf() });
        }
        Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
            return Err(JournalError::NotAFile { path: path.to_path_buf() });
        }
        Err(source) => return Err(JournalError::Io { path: path.to_path_buf(), source }),
    };
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|reason| JournalError::NotAJournal { path: path.to_path_buf(), reason })
}

impl Journal {
    /// Takes up a plan's journal under its lock. Run `again` (a plan file), what is recorded of the plan is
    /// read, and a journal that cannot be read is an error: running on without it could run a done step
    /// twice. Said now, the journal starts over. Nothing is written until [`Journal::begin`].
    pub fn open(
        state: &Path,
        project: &Path,
        digest: &str,
        origin: Origin,
        input: &str,
        again: bool,
    ) -> Result<Journal, JournalError> {
        let dir = state.join("weave");
        let stem = key(project, digest, origin);
        let lock = lock(&dir, &stem)?;
        let path = dir.join(format!("{stem}.json"));
        let project = project.to_string_lossy().into_owned();
        let record = match again.then(|| read(&path)).transpose()?.flatten() {
            Some(record) => {
                if record.plan != digest {
                    return Err(JournalError::OtherPlan { path, plan: record.plan });
                }
                if record.project != project {
                    return Err(JournalError::OtherProject { path, project: record.project });
                }
                Some(record)
            }
            None => None,
        };
        let found = record.is_some();
        let record = record.unwrap_or_else(|| Record {
            journal: 1,
            project,
            plan: digest.to_string(),
            input: input.to_string(),
            steps: Vec::new(),
        });
        Ok(Journal { path, record, found, said: origin == Origin::Said, _lock: lock })
    }

    /// The journal `evoke resume` takes up in `project`: that of the latest plan a sentence ran there,
    /// under its lock.
    pub fn latest(state: &Path, project: &Path) -> Result<Journal, LatestError> {
        let pointer = latest(state, project);
        let stem = match evoke_files::bounded::read_to_string(&pointer, 256) {
            Ok(stem) => stem,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(LatestError::None),
            Err(source) => return Err(JournalError::Io { path: pointer, source }.into()),
        };
        let stem = stem.trim();
        // The pointer names a file in the journal's place and nothing else.
        if stem.is_empty() || !stem.chars().all(|c| c.is_ascii_hexdigit() || c == '-' || c == 's' || c == 'f') {
            return Err(LatestError::None);
        }
        let dir = state.join("weave");
        let lock = lock(&dir, stem)?;
        let path = dir.join(format!("{stem}.json"));
        let record = read(&path)?.ok_or(LatestError::None)?;
        let here = project.to_string_lossy();
        if record.project != here {
            return Err(JournalError::OtherProject { path, project: record.project }.into());
        }
        Ok(Journal { path, record, found: true, said: true, _lock: lock })
    }

    /// Whether a journal of this plan was found: a plan file run again without one cannot know which of
    /// its writes already ran.
    pub fn found(&self) -> bool {
        self.found
    }

    /// The digest of the plan the journal is of.
    pub fn plan(&self) -> &str {
        &self.record.plan
    }

    pub fn input(&self) -> &str {
        &self.record.input
    }

    /// Writes the journal as it stands before the plan's first step; a sentence's becomes the one
    /// `evoke resume` takes up in its project. Older journals past the bound are removed.
    pub fn begin(&mut self) -> std::io::Result<()> {
        // A plan file's journal that was not here is written at its first record, not now: a plan declined
        // before anything ran must not leave a journal that says nothing ran, or the next run would trust it.
        if !self.said && !self.found {
            return Ok(());
        }
        self.save()?;
        let dir = self.path.parent().map(Path::to_path_buf).unwrap_or_default();
        if self.said {
            let stem = self.path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let state = dir.parent().map(Path::to_path_buf).unwrap_or_default();
            evoke_files::atomic::write(&latest(&state, Path::new(&self.record.project)), stem.as_bytes())?;
        }
        prune(&dir, &self.path, self.said);
        Ok(())
    }

    /// Writes the journal as it stands, found or not: a plan file's journal begun when the file is saved.
    pub fn keep(&mut self) -> std::io::Result<()> {
        self.save()?;
        self.found = true;
        Ok(())
    }

    /// What the journal holds of a step (from 1).
    pub fn entry(&self, step: usize) -> Option<&Entry> {
        self.record.steps.iter().find(|e| e.step == step)
    }

    /// Records that the step's body is about to start.
    pub fn intent(&mut self, step: usize, call: &str) -> std::io::Result<()> {
        self.record.steps.retain(|e| e.step != step);
        self.record.steps.push(Entry {
            step,
            call: call.to_string(),
            mark: Mark::Intent,
            result: None,
            data: None,
            failed: false,
        });
        self.save()
    }

    /// Records that the step's body returned, with its result's text, or failed.
    pub fn done(
        &mut self,
        step: usize,
        call: &str,
        result: Option<&str>,
        data: Option<&serde_json::Value>,
        failed: bool,
    ) -> std::io::Result<()> {
        self.record.steps.retain(|e| e.step != step);
        let result = result.map(|r| {
            let mut end = r.len().min(RESULT_KEPT);
            while !r.is_char_boundary(end) {
                end -= 1;
            }
            r[..end].to_string()
        });
        // Data past the journal's bound is not kept: a later step that needs it finds nothing to take.
        let data = data.filter(|d| d.to_string().len() <= RESULT_KEPT).cloned();
        self.record.steps.push(Entry { step, call: call.to_string(), mark: Mark::Done, result, data, failed });
        self.save()
    }

    fn save(&self) -> std::io::Result<()> {
        if let Some(dir) = self.path.parent() {
            evoke_files::atomic::create_private_dirs(dir)?;
        }
        let text = serde_json::to_string(&self.record).map_err(std::io::Error::other)?;
        evoke_files::atomic::write(&self.path, text.as_bytes())
    }
}

/// Removes the lock files whose journal is gone or was never written (a plan stopped before it began),
/// never one another evoke holds.
fn remove_orphan_locks(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for path in entries.flatten().map(|e| e.path()) {
        if path.extension().is_none_or(|x| x != "lock") || path.with_extension("json").exists() {
            continue;
        }
        let Ok(file) = std::fs::File::options().write(true).custom_flags(libc::O_NOFOLLOW).open(&path) else {
            continue;
        };
        if file.try_lock().is_ok() {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// Removes the oldest journals of the same kind as `keep` past their bound ([`KEPT`] for sentences,
/// [`KEPT_FILES`] for plan files), never `keep` and never one another evoke holds. A journal that cannot
/// be removed stays.
fn prune(dir: &Path, keep: &Path, said: bool) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    // A plan file's journals start `f-`; every other journal is a sentence's.
    let of_kind = |path: &Path| {
        let file = path.file_name().map(|n| n.to_string_lossy().starts_with("f-")).unwrap_or(false);
        file != said
    };
    let mut journals: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json") && p != keep && of_kind(p))
        .filter_map(|p| Some((p.metadata().ok()?.modified().ok()?, p)))
        .collect();
    remove_orphan_locks(dir);
    let bound = if said { KEPT } else { KEPT_FILES };
    if journals.len() < bound {
        return;
    }
    journals.sort();
    let extra = journals.len() + 1 - bound;
    for (_, path) in journals.into_iter().take(extra) {
        let lock_path = path.with_extension("lock");
        let held = std::fs::File::options().write(true).open(&lock_path).ok();
        match &held {
            Some(file) if file.try_lock().is_err() => continue,
            _ => {}
        }
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_file(&lock_path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HERE: &str = "/projects/a";

    fn said(state: &Path, project: &str, digest: &str, again: bool) -> Result<Journal, JournalError> {
        Journal::open(state, Path::new(project), digest, Origin::Said, "a and b", again)
    }

    #[test]
    fn a_journal_read_again_holds_what_was_recorded() {
        let dir = tempfile::tempdir().unwrap();
        {
            let mut journal = said(dir.path(), HERE, "sha256:ab12", false).unwrap();
            journal.begin().unwrap();
            journal.intent(1, "lights room=\"den\"").unwrap();
            journal.done(1, "lights room=\"den\"", Some("ok"), None, false).unwrap();
            journal.intent(2, "timer duration=\"5 minutes\"").unwrap();
        }
        let again = said(dir.path(), HERE, "sha256:ab12", true).unwrap();
        assert!(again.found());
        assert_eq!(again.entry(1).map(|e| e.mark), Some(Mark::Done));
        assert_eq!(again.entry(1).and_then(|e| e.result.as_deref()), Some("ok"));
        assert_eq!(again.entry(2).map(|e| e.mark), Some(Mark::Intent));
        assert_eq!(again.entry(3), None);
        drop(again);
        let latest = Journal::latest(dir.path(), Path::new(HERE)).unwrap();
        assert_eq!(latest.plan(), "sha256:ab12");
    }

    #[test]
    fn a_journal_past_its_bound_is_refused_as_too_large() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.json");
        std::fs::write(&path, vec![b' '; MAX_JOURNAL as usize + 1]).unwrap();
        assert!(matches!(read(&path), Err(JournalError::TooLarge { .. })), "{:?}", read(&path).err());
    }

    #[test]
    fn a_plan_held_by_one_evoke_is_refused_to_another_until_it_ends() {
        let dir = tempfile::tempdir().unwrap();
        let first = said(dir.path(), HERE, "sha256:ab12", false).unwrap();
        let second = said(dir.path(), HERE, "sha256:ab12", true).err().unwrap();
        assert!(matches!(second, JournalError::Busy { .. }), "{second}");
        let resume = Journal::latest(dir.path(), Path::new(HERE));
        assert!(matches!(resume, Err(LatestError::None)), "nothing begun yet");
        drop(first);
        assert!(said(dir.path(), HERE, "sha256:ab12", true).is_ok());
    }

    #[test]
    fn a_begun_plan_is_refused_to_resume_while_it_runs() {
        let dir = tempfile::tempdir().unwrap();
        let mut first = said(dir.path(), HERE, "sha256:ab12", false).unwrap();
        first.begin().unwrap();
        let resume = Journal::latest(dir.path(), Path::new(HERE)).err().unwrap();
        assert!(matches!(resume, LatestError::Journal(JournalError::Busy { .. })), "{resume}");
    }

    #[test]
    fn the_same_plan_in_two_projects_keeps_two_journals_and_two_latest() {
        let dir = tempfile::tempdir().unwrap();
        {
            let mut a = said(dir.path(), HERE, "sha256:ab12", false).unwrap();
            a.begin().unwrap();
            a.intent(1, "x").unwrap();
            a.done(1, "x", Some("ran in a"), None, false).unwrap();
        }
        let b = said(dir.path(), "/projects/b", "sha256:ab12", true).unwrap();
        assert!(!b.found(), "project b has no journal of the plan");
        assert_eq!(b.entry(1), None);
        drop(b);
        let resume = Journal::latest(dir.path(), Path::new("/projects/b"));
        assert!(matches!(resume, Err(LatestError::None)), "nothing to resume in b");
    }

    #[test]
    fn a_plan_file_and_the_sentence_it_holds_keep_two_journals() {
        let dir = tempfile::tempdir().unwrap();
        {
            let mut file =
                Journal::open(dir.path(), Path::new(HERE), "sha256:ab12", Origin::File { seal: "s1" }, "x", false)
                    .unwrap();
            file.begin().unwrap();
            file.intent(1, "x").unwrap();
        }
        let sentence = said(dir.path(), HERE, "sha256:ab12", true).unwrap();
        assert_eq!(sentence.entry(1), None);
        drop(sentence);
        let file =
            Journal::open(dir.path(), Path::new(HERE), "sha256:ab12", Origin::File { seal: "s1" }, "x", true).unwrap();
        assert_eq!(file.entry(1).map(|e| e.mark), Some(Mark::Intent));
    }

    fn aged(journal: &Journal, i: usize) {
        let t = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000 + i as u64);
        std::fs::File::options().write(true).open(&journal.path).unwrap().set_modified(t).unwrap();
    }

    #[test]
    fn sentence_journals_past_the_bound_are_removed_oldest_first_and_plan_files_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let mut file =
            Journal::open(dir.path(), Path::new(HERE), "sha256:f11e", Origin::File { seal: "s1" }, "x", false).unwrap();
        file.keep().unwrap();
        aged(&file, 0);
        let file_path = file.path.clone();
        drop(file);
        let mut paths = Vec::new();
        for i in 0..KEPT + 5 {
            let mut journal = said(dir.path(), HERE, &format!("sha256:{i:04x}"), false).unwrap();
            journal.begin().unwrap();
            // Distinct times, so that the oldest is the first written.
            aged(&journal, i + 1);
            paths.push(journal.path.clone());
        }
        let sentences = std::fs::read_dir(dir.path().join("weave"))
            .unwrap()
            .flatten()
            .filter(|e| {
                e.file_name().to_string_lossy().starts_with("s-") && e.path().extension().is_some_and(|x| x == "json")
            })
            .count();
        assert_eq!(sentences, KEPT);
        assert!(!paths[0].exists(), "the oldest went first");
        assert!(paths[KEPT + 4].exists());
        assert!(file_path.exists(), "a plan file's journal outlives the sentences' bound");
    }

    #[test]
    fn a_journal_that_cannot_be_read_is_refused_not_started_over() {
        let dir = tempfile::tempdir().unwrap();
        let path = {
            let mut journal = said(dir.path(), HERE, "sha256:cd34", false).unwrap();
            journal.begin().unwrap();
            journal.path.clone()
        };
        std::fs::write(&path, "{\"journal\":1,\"plan\":").unwrap();
        let refused = said(dir.path(), HERE, "sha256:cd34", true).err().unwrap();
        assert!(matches!(&refused, JournalError::NotAJournal { path: named, .. } if *named == path), "{refused}");
        assert!(refused.to_string().contains("not a journal evoke can read"), "{refused}");
    }
}
