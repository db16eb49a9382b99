//! The answer cache: an adapter's validated answers, keyed by its id, the plan digest, the input's
//! identity and the questions asked, keys and texts, so that a repeated decision makes no call (its
//! `trace` is empty).
//!
//! A pick's keys are character offsets of the very text typed, and two inputs of one identity may place a
//! span differently (`for 10` and `for  10`). So the key covers every key a question offers, not only its
//! id: a hit is an answer to exactly these questions. A hit is validated again all the same, and one that
//! does not fit is a miss: the cache may be damaged or written by an older evoke, never trusted by name.
//!
//! Each entry holds its own key next to its answers, and a hit is only an entry whose key is the one
//! computed for the questions being asked: an entry copied from another question (another sentence's
//! `route`, say) is a miss and is asked again. The key is a digest without a secret, so this stops a
//! swapped entry, not someone who writes as you and forges an entry consistent with its name.
//!
//! The entries live in one SQLite file, `answers.sqlite3` in the cache place: one file rather than one per
//! input, because a filter run of thousands of lines spent its time creating, syncing and renaming small
//! files. SQLite rather than a file format of our own because two evoke processes may fill the cache at
//! once, and its write-ahead log keeps the file whole through a crash and through concurrent writers.
//! Writes are batched: kept in memory and written in one transaction every [`BATCH`] entries and when the
//! cache is dropped. The file holds at most [`MAX_ENTRIES`]; past that the oldest entries go.
//!
//! A cache that cannot be opened or read is worked around, never trusted: a file that is not a database,
//! or a damaged one, is set aside with a warning and a new one made; any other failure makes every
//! lookup a miss for the rest of the process.

use evoke_core::adapter::Raw;
use evoke_core::identity::identity;
use evoke_core::question::Questions;
use evoke_core::validate::validate;
use rusqlite::{Connection, OptionalExtension, params};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

/// Entries kept in memory before they are written together.
pub const BATCH: usize = 64;
/// The most entries the file keeps; writing past it removes the oldest.
pub const MAX_ENTRIES: i64 = 50_000;
/// The most bytes the write-ahead log keeps once it has been copied back into the database.
const JOURNAL_LIMIT: i64 = 4 << 20;
/// How long a writer waits for another process's transaction before it gives up on that batch.
const BUSY: Duration = Duration::from_secs(2);

pub struct AnswerCache {
    file: PathBuf,
    max_entries: i64,
    state: Mutex<State>,
}

enum State {
    /// Not opened yet: a command that never asks an adapter never touches the file.
    Closed,
    Open {
        db: Connection,
        pending: Vec<(String, String)>,
    },
    /// Could not be opened: every lookup is a miss, every write is dropped.
    Off,
}

impl AnswerCache {
    pub fn new(cache_place: &Path) -> Self {
        AnswerCache::bounded(cache_place, MAX_ENTRIES)
    }

    fn bounded(cache_place: &Path, max_entries: i64) -> Self {
        AnswerCache { file: cache_place.join("answers.sqlite3"), max_entries, state: Mutex::new(State::Closed) }
    }

    pub fn key(adapter: &str, plan: &str, input: &str, questions: &Questions) -> String {
        let mut hasher = Sha256::new();
        for part in [adapter, plan, &identity(input)] {
            hasher.update(part.as_bytes());
            hasher.update([0]);
        }
        // The questions as an adapter receives them: ids, offered keys and texts, in order.
        match serde_json::to_vec(questions) {
            Ok(json) => hasher.update(&json),
            Err(_) => {
                for id in questions.ids() {
                    hasher.update(id.to_string().as_bytes());
                    hasher.update([0]);
                }
            }
        }
        hasher.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The answer kept under `key`, only when it is a valid answer to `questions`.
    pub fn get(&self, key: &str, questions: &Questions) -> Option<Raw> {
        let raw = self.read(key)?;
        validate(questions, &raw).is_ok().then_some(raw)
    }

    /// The answers of the entry under `key`, only when the entry says it answers that very key.
    fn read(&self, key: &str) -> Option<Raw> {
        let mut state = self.state.lock().ok()?;
        let text = match self.opened(&mut state) {
            State::Open { db, pending } => match pending.iter().rev().find(|(k, _)| k == key) {
                Some((_, text)) => text.clone(),
                None => db
                    .prepare_cached("SELECT entry FROM answers WHERE key = ?1")
                    .and_then(|mut select| select.query_row([key], |row| row.get::<_, String>(0)).optional())
                    .ok()??,
            },
            _ => return None,
        };
        let entry: Entry = serde_json::from_str(&text).ok()?;
        (entry.key == key).then_some(entry.answers)
    }

    /// Best effort: a cache that cannot be written only costs a later call.
    pub fn put(&self, key: &str, raw: &Raw) {
        let entry = EntryRef { key, answers: raw };
        let Ok(text) = serde_json::to_string(&entry) else { return };
        let Ok(mut state) = self.state.lock() else { return };
        if let State::Open { db, pending } = self.opened(&mut state) {
            pending.push((key.to_string(), text));
            if pending.len() >= BATCH {
                write(db, pending, self.max_entries);
            }
        }
    }

    /// The state, opening the file on first use.
    fn opened<'s>(&self, state: &'s mut State) -> &'s mut State {
        if let State::Closed = state {
            *state = match open(&self.file) {
                Ok(db) => State::Open { db, pending: Vec::new() },
                Err(_) => State::Off,
            };
        }
        state
    }
}

impl Drop for AnswerCache {
    fn drop(&mut self) {
        let max_entries = self.max_entries;
        if let Ok(State::Open { db, pending }) = self.state.get_mut() {
            write(db, pending, max_entries);
        }
    }
}

/// Opens the cache file, setting aside one that is not a database or is damaged.
fn open(file: &Path) -> rusqlite::Result<Connection> {
    match open_checked(file) {
        Ok(db) => Ok(db),
        Err(e) if is_damage(&e) => {
            let aside = file.with_extension(format!("sqlite3.damaged-{}", std::process::id()));
            let said = format!(
                "the answer cache {} is damaged ({e}); it was moved to {} and a new one started",
                file.display(),
                aside.display()
            );
            // Opened deep inside an engine's answer, where no command's `Ui` reaches: the process's own streams.
            crate::ui::Ui::terminal().warn(&said, None);
            for suffix in ["", "-wal", "-shm"] {
                let from = PathBuf::from(format!("{}{suffix}", file.display()));
                let to = PathBuf::from(format!("{}{suffix}", aside.display()));
                let _ = std::fs::rename(from, to);
            }
            open_checked(file)
        }
        Err(e) => Err(e),
    }
}

fn open_checked(file: &Path) -> rusqlite::Result<Connection> {
    let db = Connection::open(file)?;
    db.busy_timeout(BUSY)?;
    // WAL: readers never wait on a writer, and a crash leaves the last committed batch. NORMAL sync is
    // enough for a cache: a power cut may lose the last batch, never the file.
    db.pragma_update(None, "journal_mode", "WAL")?;
    db.pragma_update(None, "synchronous", "NORMAL")?;
    // The last process to close the file would otherwise copy the write-ahead log into the database, sync
    // both and delete the log and its index, which the next process makes again: most of a short
    // process's time in the cache. The log stays instead; SQLite copies it back once it passes 1,000
    // pages, at a commit, and the limit below truncates it then, so it stays bounded.
    db.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)?;
    db.pragma_update(None, "journal_size_limit", JOURNAL_LIMIT)?;
    db.execute_batch("CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY NOT NULL, entry TEXT NOT NULL)")?;
    // Reading one row proves the file is a database and its table readable.
    db.query_row("SELECT count(*) FROM answers WHERE key = ''", [], |row| row.get::<_, i64>(0))?;
    Ok(db)
}

fn is_damage(e: &rusqlite::Error) -> bool {
    matches!(e.sqlite_error_code(), Some(rusqlite::ErrorCode::NotADatabase | rusqlite::ErrorCode::DatabaseCorrupt))
}

/// Writes the pending entries in one transaction, then trims the file to `max_entries`. A batch that
/// cannot be written is dropped: it only costs later calls.
fn write(db: &mut Connection, pending: &mut Vec<(String, String)>, max_entries: i64) {
    if pending.is_empty() {
        return;
    }
    let batch = std::mem::take(pending);
    let _ = (|| -> rusqlite::Result<()> {
        let tx = db.transaction()?;
        {
            // A replaced entry is deleted and inserted, so it counts as new for eviction.
            let mut delete = tx.prepare_cached("DELETE FROM answers WHERE key = ?1")?;
            let mut insert = tx.prepare_cached("INSERT INTO answers (key, entry) VALUES (?1, ?2)")?;
            for (key, entry) in &batch {
                delete.execute([key])?;
                insert.execute(params![key, entry])?;
            }
            tx.execute("DELETE FROM answers WHERE rowid <= (SELECT max(rowid) FROM answers) - ?1", [max_entries])?;
        }
        tx.commit()
    })();
}

/// An entry as read: the digest of what it answers (adapter id, plan digest, input identity, questions as
/// sent) and the answers. An entry of an older evoke, the bare answers, does not parse and is a miss.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    key: String,
    answers: Raw,
}

#[derive(serde::Serialize)]
struct EntryRef<'a> {
    key: &'a str,
    answers: &'a Raw,
}

#[cfg(test)]
mod tests {
    use super::*;
    use evoke_core::question::{Options, Question, QuestionId, Questions, Text};

    fn route() -> Questions {
        let options = Options(
            [("lamp", "the lamp"), ("none", "nothing")].map(|(k, t)| (k.to_string(), Text::Plain(t.into()))).into(),
        );
        Questions(vec![(
            QuestionId::Route,
            Question::Choice { ask: "Which?".into(), options, otherwise: Some("none".into()) },
        )])
    }

    fn answer(key: &str) -> Raw {
        [("route".to_string(), [(key.to_string(), 1.0)].into_iter().collect())].into()
    }

    #[test]
    fn an_entry_outlives_its_process_once_the_cache_is_dropped() {
        let place = tempfile::tempdir().unwrap();
        let key = AnswerCache::key("a", "p", "turn on the lamp", &route());
        let first = AnswerCache::new(place.path());
        first.put(&key, &answer("lamp"));
        assert_eq!(first.get(&key, &route()), Some(answer("lamp")), "a pending entry answers its own process");
        drop(first);
        let next = AnswerCache::new(place.path());
        assert_eq!(next.get(&key, &route()), Some(answer("lamp")));
    }

    #[test]
    fn the_write_ahead_log_stays_when_the_last_process_closes_the_file() {
        let place = tempfile::tempdir().unwrap();
        let key = AnswerCache::key("a", "p", "turn on the lamp", &route());
        let cache = AnswerCache::new(place.path());
        cache.put(&key, &answer("lamp"));
        drop(cache);
        // Kept, not copied back and deleted: the next process opens it as it is.
        assert!(place.path().join("answers.sqlite3-wal").is_file(), "the log was removed at close");
        let db = Connection::open(place.path().join("answers.sqlite3")).unwrap();
        let count: i64 = db.query_row("SELECT count(*) FROM answers", [], |r| r.get(0)).unwrap();
        assert_eq!(count, 1, "another connection reads the entry through the log");
        drop(db);
        assert_eq!(AnswerCache::new(place.path()).get(&key, &route()), Some(answer("lamp")));
    }

    #[test]
    fn an_entry_swapped_into_another_key_is_a_miss() {
        let place = tempfile::tempdir().unwrap();
        let (lamp, none) = (
            AnswerCache::key("a", "p", "turn on the lamp", &route()),
            AnswerCache::key("a", "p", "order a pizza", &route()),
        );
        let cache = AnswerCache::new(place.path());
        cache.put(&lamp, &answer("lamp"));
        cache.put(&none, &answer("none"));
        drop(cache);
        let db = Connection::open(place.path().join("answers.sqlite3")).unwrap();
        let other: String = db.query_row("SELECT entry FROM answers WHERE key = ?1", [&lamp], |r| r.get(0)).unwrap();
        db.execute("UPDATE answers SET entry = ?1 WHERE key = ?2", [&other, &none]).unwrap();
        drop(db);
        let cache = AnswerCache::new(place.path());
        assert_eq!(cache.get(&none, &route()), None, "the copied entry names another key");
        assert_eq!(cache.get(&lamp, &route()), Some(answer("lamp")));
    }

    #[test]
    fn a_damaged_file_is_set_aside_and_a_new_one_started() {
        let place = tempfile::tempdir().unwrap();
        let file = place.path().join("answers.sqlite3");
        std::fs::write(&file, b"this is not a database, and it is long enough to have a header").unwrap();
        let key = AnswerCache::key("a", "p", "turn on the lamp", &route());
        let cache = AnswerCache::new(place.path());
        assert_eq!(cache.get(&key, &route()), None);
        cache.put(&key, &answer("lamp"));
        drop(cache);
        assert_eq!(AnswerCache::new(place.path()).get(&key, &route()), Some(answer("lamp")));
        let aside: Vec<_> = std::fs::read_dir(place.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.contains("damaged"))
            .collect();
        assert_eq!(aside.len(), 1, "the damaged file is kept aside: {aside:?}");
    }

    #[test]
    fn the_file_keeps_at_most_its_bound_and_the_newest_stay() {
        let place = tempfile::tempdir().unwrap();
        let keys: Vec<String> = (0..300).map(|i| AnswerCache::key("a", "p", &format!("lamp {i}"), &route())).collect();
        let cache = AnswerCache::bounded(place.path(), 100);
        for key in &keys {
            cache.put(key, &answer("lamp"));
        }
        drop(cache);
        let db = Connection::open(place.path().join("answers.sqlite3")).unwrap();
        let count: i64 = db.query_row("SELECT count(*) FROM answers", [], |r| r.get(0)).unwrap();
        assert!(count <= 100, "{count} entries kept");
        let cache = AnswerCache::bounded(place.path(), 100);
        assert_eq!(cache.get(&keys[299], &route()), Some(answer("lamp")), "the newest entry stays");
        assert_eq!(cache.get(&keys[0], &route()), None, "the oldest entry went");
    }
}
