//! The step journal of a woven plan, in the state place (`weave/<digest>.json`). Before a write or
//! destructive step's body starts, the step is recorded at `intent`; after it returns, at `done` with its
//! result. Each record rewrites the whole file through a temporary file and a rename, so a journal is
//! always one whole version or the one before it, whatever stops evoke.
//!
//! Running the same plan again (its plan file, or `evoke resume`) reads the journal: a `done` step is
//! never run again, and a step left at `intent` may already have acted, so it is run again only when a
//! person says so.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The most a journal keeps of a step's result text, in bytes.
const RESULT_KEPT: usize = 4096;
/// The largest journal file read back, in bytes: a plan holds at most a few steps.
const MAX_JOURNAL: u64 = 1 << 20;
/// The most journals kept: a fresh one past this many removes the oldest.
pub const KEPT: usize = 64;

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
    /// A fresh journal could not be written.
    #[error("{0}")]
    Fresh(std::io::Error),
}

pub struct Journal {
    path: PathBuf,
    record: Record,
}

/// Where a plan's journal lives.
pub fn path_of(state: &Path, digest: &str) -> PathBuf {
    let hex = digest.strip_prefix("sha256:").unwrap_or(digest);
    let name: String = hex.chars().filter(|c| c.is_ascii_hexdigit()).collect();
    state.join("weave").join(format!("{name}.json"))
}

/// The file naming the journal of the latest plan a sentence ran: what `evoke resume` takes up.
pub fn latest(state: &Path) -> PathBuf {
    state.join("weave").join("latest")
}

impl Journal {
    /// A fresh journal for a plan a sentence asked for now: nothing of it has run.
    pub fn fresh(state: &Path, digest: &str, input: &str) -> std::io::Result<Journal> {
        let path = path_of(state, digest);
        let journal = Journal {
            path,
            record: Record { journal: 1, plan: digest.to_string(), input: input.to_string(), steps: Vec::new() },
        };
        journal.save()?;
        evoke_files::atomic::write(&latest(state), digest.as_bytes())?;
        prune(&state.join("weave"), &journal.path);
        Ok(journal)
    }

    /// The journal of a plan run again: what is recorded of it, or a fresh one. A journal that cannot be
    /// read is an error: running on without it could run a done step twice.
    pub fn again(state: &Path, digest: &str, input: &str) -> Result<Journal, JournalError> {
        let path = path_of(state, digest);
        match std::fs::metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Journal::fresh(state, digest, input).map_err(|source| JournalError::Io { path, source });
            }
            Err(source) => return Err(JournalError::Io { path, source }),
            Ok(meta) if meta.len() > MAX_JOURNAL => return Err(JournalError::TooLarge { path }),
            Ok(_) => {}
        }
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(source) => return Err(JournalError::Io { path, source }),
        };
        let record: Record = match serde_json::from_str(&text) {
            Ok(record) => record,
            Err(reason) => return Err(JournalError::NotAJournal { path, reason }),
        };
        if record.plan != digest {
            return Err(JournalError::OtherPlan { path, plan: record.plan });
        }
        Ok(Journal { path, record })
    }

    pub fn input(&self) -> &str {
        &self.record.input
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

/// Removes the oldest journals past [`KEPT`], never `keep`. A journal that cannot be removed stays.
fn prune(dir: &Path, keep: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut journals: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "json") && e.path() != keep)
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    if journals.len() < KEPT {
        return;
    }
    journals.sort();
    let extra = journals.len() + 1 - KEPT;
    for (_, path) in journals.into_iter().take(extra) {
        let _ = std::fs::remove_file(path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_journal_read_again_holds_what_was_recorded() {
        let dir = tempfile::tempdir().unwrap();
        let mut journal = Journal::fresh(dir.path(), "sha256:ab12", "a and b").unwrap();
        journal.intent(1, "lights room=\"den\"").unwrap();
        journal.done(1, "lights room=\"den\"", Some("ok"), None, false).unwrap();
        journal.intent(2, "timer duration=\"5 minutes\"").unwrap();
        let again = Journal::again(dir.path(), "sha256:ab12", "a and b").unwrap();
        assert_eq!(again.entry(1).map(|e| e.mark), Some(Mark::Done));
        assert_eq!(again.entry(1).and_then(|e| e.result.as_deref()), Some("ok"));
        assert_eq!(again.entry(2).map(|e| e.mark), Some(Mark::Intent));
        assert_eq!(again.entry(3), None);
        assert_eq!(std::fs::read_to_string(latest(dir.path())).unwrap(), "sha256:ab12");
    }

    #[test]
    fn journals_past_the_bound_are_removed_oldest_first() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..KEPT + 5 {
            Journal::fresh(dir.path(), &format!("sha256:{i:04x}"), "x").unwrap();
            // Distinct times, so that the oldest is the first written.
            let path = path_of(dir.path(), &format!("sha256:{i:04x}"));
            let t = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000 + i as u64);
            std::fs::File::options().write(true).open(&path).unwrap().set_modified(t).unwrap();
        }
        let left: Vec<_> = std::fs::read_dir(dir.path().join("weave"))
            .unwrap()
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
            .collect();
        assert_eq!(left.len(), KEPT);
        assert!(!path_of(dir.path(), "sha256:0000").exists(), "the oldest went first");
        assert!(path_of(dir.path(), &format!("sha256:{:04x}", KEPT + 4)).exists());
    }

    #[test]
    fn a_journal_that_cannot_be_read_is_refused_not_started_over() {
        let dir = tempfile::tempdir().unwrap();
        let path = path_of(dir.path(), "sha256:cd34");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "{\"journal\":1,\"plan\":").unwrap();
        let refused = Journal::again(dir.path(), "sha256:cd34", "x").err().unwrap();
        assert!(matches!(&refused, JournalError::NotAJournal { path: named, .. } if *named == path), "{refused}");
        assert!(refused.to_string().contains("not a journal evoke can read"), "{refused}");
    }
}
