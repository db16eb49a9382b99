//! The durable store: one SQLite file in WAL mode under the state directory, holding the event log, the
//! journal J, the world table W (each receipt `intent` or `done`), and each agent's memory, cursor and
//! dedup set. Whatever must happen together happens in one transaction: a batch's journal entries, its
//! `intent` receipts, the dedup rows, the memory and the cursor that moves past it.

use crate::error::Error;
use expresso_runtime::{Event, MemoryStore, Store};
use rusqlite::{Connection, OptionalExtension, params};
use serde_json::{Map, Value};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The file's name under the state directory.
pub const FILE_NAME: &str = "expresso.db";
const SCHEMA_VERSION: i64 = 1;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL,
    rev INTEGER NOT NULL,
    body TEXT NOT NULL,
    UNIQUE (id, rev)
);
CREATE TABLE IF NOT EXISTS journal (key TEXT PRIMARY KEY, event TEXT NOT NULL, value TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS journal_by_event ON journal (event);
CREATE TABLE IF NOT EXISTS world (
    key TEXT PRIMARY KEY,
    event TEXT NOT NULL,
    capability TEXT NOT NULL,
    receipt TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('intent', 'done', 'held')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_try_ms INTEGER NOT NULL DEFAULT 0,
    last_error TEXT
);
CREATE INDEX IF NOT EXISTS world_by_event ON world (event);
CREATE INDEX IF NOT EXISTS world_intents ON world (next_try_ms) WHERE status = 'intent';
CREATE TABLE IF NOT EXISTS agents (name TEXT PRIMARY KEY, memory TEXT NOT NULL, cursor INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS dedup (agent TEXT NOT NULL, event TEXT NOT NULL, PRIMARY KEY (agent, event)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS parked (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    agent TEXT NOT NULL,
    event TEXT NOT NULL,
    seq INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('parked', 'retry', 'retried', 'skipped')),
    tries INTEGER NOT NULL,
    reason TEXT NOT NULL,
    parked_ms INTEGER NOT NULL,
    UNIQUE (agent, event)
);
CREATE INDEX IF NOT EXISTS parked_to_retry ON parked (id) WHERE status = 'retry';
";

/// An effect whose receipt is `intent`: persisted, not yet known to have reached its sink.
#[derive(Debug, Clone, PartialEq)]
pub struct Intent {
    pub key: String,
    pub capability: String,
    pub receipt: Value,
    pub attempts: i64,
    /// A sink that acts at most once (a reflex) began on it and its end was never recorded: it may have
    /// acted, so it is held for a person rather than run again.
    pub started: bool,
}

/// The `next_try_ms` that marks a receipt whose at-most-once delivery has begun. It is never due to the
/// sweep (whose clock never gets there), only to recovery, which holds it.
pub const STARTED_MS: i64 = i64::MAX;

/// An agent's memory and cursor, as stored.
pub type AgentRow = (Map<String, Value>, i64);

/// What one batch commits at once.
#[derive(Debug, Default)]
pub struct BatchWrite {
    /// `(journalKey, event id, value)`.
    pub journal: Vec<(String, String, Value)>,
    /// `(idemKey, event id, capability, receipt)`, written as `intent`.
    pub intents: Vec<(String, String, String, Value)>,
    /// `(agent, event id)`.
    pub dedup: Vec<(String, String)>,
    /// `(agent, memory)`: every agent's memory after the batch.
    pub memory: Vec<(String, Map<String, Value>)>,
    /// The log position every agent has read to.
    pub cursor: i64,
    /// Firings that faulted past the bound on tries, parked: `(agent, event id, log position, tries,
    /// reason)`.
    pub parked: Vec<(String, String, i64, i64, String)>,
}

/// A parked firing: an agent's firing on an event that faulted past the bound on tries, kept with its
/// reason until an operator retries or skips it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Parked {
    pub id: i64,
    pub agent: String,
    pub event: String,
    /// The event's log position.
    pub seq: i64,
    /// `parked`; `retry` (an operator asked, the host has not run it yet); `retried` (it ran); `skipped`.
    pub status: String,
    pub tries: i64,
    pub reason: String,
    pub parked_ms: i64,
}

/// Counts of the world table by status, and of the log.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub events: i64,
    pub journal: i64,
    pub intent: i64,
    pub done: i64,
    pub held: i64,
    /// Firings parked or waiting for their retry.
    pub parked: i64,
}

pub struct Db {
    conn: Connection,
    path: PathBuf,
}

impl Db {
    /// Opens (creating when missing) `<state>/expresso.db`.
    pub fn open(state: &Path) -> Result<Db, Error> {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        // The store holds every event and effect: its place is made 0700 and the file 0600 (SQLite gives
        // its -wal and -shm files the database file's mode).
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(state)
            .map_err(|e| Error::Store(format!("cannot create the state directory {}: {e}", state.display())))?;
        let path = state.join(FILE_NAME);
        let place = |e: rusqlite::Error| Error::Store(format!("{}: {e}", path.display()));
        let conn = Connection::open(&path).map_err(place)?;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| Error::Store(format!("{}: {e}", path.display())))?;
        // WAL: readers do not block the writer; FULL: a commit is on disk when it returns.
        conn.pragma_update(None, "journal_mode", "WAL").map_err(place)?;
        conn.pragma_update(None, "synchronous", "FULL").map_err(place)?;
        conn.busy_timeout(Duration::from_secs(10)).map_err(place)?;
        conn.execute_batch(SCHEMA).map_err(place)?;
        conn.execute_batch(crate::watermark::SQLITE_SCHEMA).map_err(place)?;
        let version: Option<String> = conn
            .query_row("SELECT value FROM meta WHERE key = 'version'", [], |r| r.get(0))
            .optional()
            .map_err(place)?;
        match version {
            None => {
                conn.execute("INSERT INTO meta (key, value) VALUES ('version', ?1)", [SCHEMA_VERSION.to_string()])
                    .map_err(place)?;
            }
            Some(v) if v == SCHEMA_VERSION.to_string() => {}
            Some(v) => {
                return Err(Error::Store(format!(
                    "{} is a version {v} store; this expresso reads version {SCHEMA_VERSION}",
                    path.display()
                )));
            }
        }
        Ok(Db { conn, path })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The connection, for a module that keeps tables of its own in this file (`crate::timers`).
    pub(crate) fn connection(&mut self) -> &mut Connection {
        &mut self.conn
    }

    /// The connection, for the reorder window's stage (`crate::watermark`).
    pub(crate) fn conn(&self) -> &Connection {
        &self.conn
    }

    pub(crate) fn conn_mut(&mut self) -> &mut Connection {
        &mut self.conn
    }

    /// Appends events to the log in one transaction (a group commit). An event whose `(id, rev)` is in the
    /// log already is not appended again. Returns, per event, whether it was new.
    pub fn append(&mut self, events: &[Event]) -> Result<Vec<bool>, Error> {
        let tx = self.conn.transaction()?;
        let mut new = Vec::with_capacity(events.len());
        {
            let mut insert = tx.prepare_cached("INSERT OR IGNORE INTO events (id, rev, body) VALUES (?1, ?2, ?3)")?;
            for event in events {
                let body = serde_json::to_string(event).map_err(|e| Error::Store(e.to_string()))?;
                new.push(insert.execute(params![event.id, event.rev as i64, body])? == 1);
            }
        }
        tx.commit()?;
        crate::fault::point("after-append");
        Ok(new)
    }

    /// Up to `limit` events after log position `after`, in log order, with their positions.
    pub fn events_after(&self, after: i64, limit: usize) -> Result<Vec<(i64, Event)>, Error> {
        let mut stmt = self.conn.prepare_cached("SELECT seq, body FROM events WHERE seq > ?1 ORDER BY seq LIMIT ?2")?;
        let rows =
            stmt.query_map(params![after, limit as i64], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))?;
        let mut out = Vec::new();
        for row in rows {
            let (seq, body) = row?;
            let event: Event = serde_json::from_str(&body)
                .map_err(|e| Error::Store(format!("event at log position {seq} does not read: {e}")))?;
            out.push((seq, event));
        }
        Ok(out)
    }

    /// The position of the last event in the log (0 when empty).
    pub fn last_seq(&self) -> Result<i64, Error> {
        Ok(self.conn.query_row("SELECT COALESCE(MAX(seq), 0) FROM events", [], |r| r.get(0))?)
    }

    /// The J entries of these events, as a store the runtime reads.
    pub fn journal_of(&self, ids: &[&str]) -> Result<MemoryStore, Error> {
        self.store_of("SELECT key, value FROM journal WHERE event = ?1", ids)
    }

    /// The W entries of these events, whatever their status: `intent`, `done` and `held` all keep the
    /// runtime from applying the effect again.
    pub fn world_of(&self, ids: &[&str]) -> Result<MemoryStore, Error> {
        self.store_of("SELECT key, receipt FROM world WHERE event = ?1", ids)
    }

    /// The (key, JSON value) rows `select` gives for each of these events, as a store the runtime reads.
    fn store_of(&self, select: &str, ids: &[&str]) -> Result<MemoryStore, Error> {
        let mut store = MemoryStore::new();
        let mut stmt = self.conn.prepare_cached(select)?;
        for id in unique(ids) {
            let rows = stmt.query_map([id], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
            for row in rows {
                let (key, value) = row?;
                store.put(key, parse(&value)?).map_err(Error::Runtime)?;
            }
        }
        Ok(store)
    }

    /// Which of these events an agent has fired on.
    pub fn dedup_of(&self, agent: &str, ids: &[&str]) -> Result<HashSet<String>, Error> {
        let mut stmt = self.conn.prepare_cached("SELECT 1 FROM dedup WHERE agent = ?1 AND event = ?2")?;
        let mut out = HashSet::new();
        for id in unique(ids) {
            if stmt.exists(params![agent, id])? {
                out.insert(id.to_string());
            }
        }
        Ok(out)
    }

    /// An agent's memory and cursor, when it has run before.
    pub fn agent(&self, name: &str) -> Result<Option<AgentRow>, Error> {
        let row: Option<(String, i64)> = self
            .conn
            .query_row("SELECT memory, cursor FROM agents WHERE name = ?1", [name], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?;
        match row {
            None => Ok(None),
            Some((memory, cursor)) => match parse(&memory)? {
                Value::Object(map) => Ok(Some((map, cursor))),
                _ => Err(Error::Store(format!("agent {name}'s memory is not an object"))),
            },
        }
    }

    /// Commits a batch: journal entries, `intent` receipts, dedup rows, memory, cursor and parked firings,
    /// all at once.
    pub fn commit_batch(&mut self, batch: &BatchWrite) -> Result<(), Error> {
        let tx = self.conn.transaction()?;
        write_batch(&tx, batch)?;
        tx.commit()?;
        Ok(())
    }

    /// Commits what an operator's retry of parked firing `id` did, with the firing's new state: `retried`
    /// when `fault` is `None`, else `parked` again with the fault as its reason. Returns false, writing
    /// nothing, when the firing is no longer waiting for its retry (an operator skipped it meanwhile).
    pub fn commit_retry(&mut self, batch: &BatchWrite, id: i64, fault: Option<&str>) -> Result<bool, Error> {
        let tx = self.conn.transaction()?;
        let changed = match fault {
            None => tx.execute(
                "UPDATE parked SET status = 'retried', tries = tries + 1 WHERE id = ?1 AND status = 'retry'",
                [id],
            )?,
            Some(reason) => tx.execute(
                "UPDATE parked SET status = 'parked', tries = tries + 1, reason = ?2 WHERE id = ?1 AND status = 'retry'",
                params![id, reason],
            )?,
        };
        if changed != 1 {
            return Ok(false);
        }
        write_batch(&tx, batch)?;
        tx.commit()?;
        Ok(true)
    }

    /// Parked firings, oldest first, at most `limit`; with `all`, also the ones retried or skipped.
    pub fn parked(&self, all: bool, limit: usize) -> Result<Vec<Parked>, Error> {
        self.parked_where("?1 OR status IN ('parked', 'retry')", all, limit)
    }

    /// Parked firings an operator asked to retry, oldest first.
    pub fn retries_due(&self, limit: usize) -> Result<Vec<Parked>, Error> {
        self.parked_where("status = 'retry' AND ?1 IS NOT NULL", false, limit)
    }

    fn parked_where(&self, filter: &str, flag: bool, limit: usize) -> Result<Vec<Parked>, Error> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT id, agent, event, seq, status, tries, reason, parked_ms FROM parked WHERE {filter} ORDER BY id LIMIT ?2"
        ))?;
        let rows = stmt.query_map(params![flag, limit.min(i64::MAX as usize) as i64], |r| {
            Ok(Parked {
                id: r.get(0)?,
                agent: r.get(1)?,
                event: r.get(2)?,
                seq: r.get(3)?,
                status: r.get(4)?,
                tries: r.get(5)?,
                reason: r.get(6)?,
                parked_ms: r.get(7)?,
            })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// An operator's retry: the parked firing waits for the host to run it once more. False when no
    /// firing `id` is parked.
    pub fn retry_parked(&mut self, id: i64) -> Result<bool, Error> {
        Ok(self.conn.execute("UPDATE parked SET status = 'retry' WHERE id = ?1 AND status = 'parked'", [id])? == 1)
    }

    /// An operator's skip: the parked firing is marked `skipped`, and the agent's dedup set takes the
    /// event in the same transaction, so no run and no replay fires it again. False when no firing `id`
    /// is parked or waiting for its retry.
    pub fn skip_parked(&mut self, id: i64) -> Result<bool, Error> {
        let tx = self.conn.transaction()?;
        let row: Option<(String, String)> = tx
            .query_row("SELECT agent, event FROM parked WHERE id = ?1 AND status IN ('parked', 'retry')", [id], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()?;
        let Some((agent, event)) = row else { return Ok(false) };
        tx.execute("UPDATE parked SET status = 'skipped' WHERE id = ?1", [id])?;
        tx.execute("INSERT OR IGNORE INTO dedup (agent, event) VALUES (?1, ?2)", params![agent, event])?;
        tx.commit()?;
        Ok(true)
    }

    /// The event with this id as the log holds it: its highest revision.
    pub fn event_by_id(&self, id: &str) -> Result<Option<Event>, Error> {
        let body: Option<String> = self
            .conn
            .query_row("SELECT body FROM events WHERE id = ?1 ORDER BY rev DESC LIMIT 1", [id], |r| r.get(0))
            .optional()?;
        match body {
            None => Ok(None),
            Some(body) => serde_json::from_str(&body)
                .map(Some)
                .map_err(|e| Error::Store(format!("event {id} does not read: {e}"))),
        }
    }

    /// The event at log position `seq`.
    pub fn event_at(&self, seq: i64) -> Result<Option<Event>, Error> {
        Ok(self.events_after(seq - 1, 1)?.into_iter().find(|(at, _)| *at == seq).map(|(_, e)| e))
    }

    /// Receipts still `intent` whose next try is due at `now_ms`, oldest first.
    pub fn due_intents(&self, now_ms: i64, limit: usize) -> Result<Vec<Intent>, Error> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT key, capability, receipt, attempts, next_try_ms FROM world
             WHERE status = 'intent' AND next_try_ms <= ?1 ORDER BY rowid LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![now_ms, limit as i64], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, i64>(4)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (key, capability, receipt, attempts, next) = row?;
            out.push(Intent { key, capability, receipt: parse(&receipt)?, attempts, started: next == STARTED_MS });
        }
        Ok(out)
    }

    /// The earliest next try of any `intent` receipt.
    pub fn next_retry_ms(&self) -> Result<Option<i64>, Error> {
        Ok(self.conn.query_row("SELECT MIN(next_try_ms) FROM world WHERE status = 'intent'", [], |r| r.get(0))?)
    }

    /// Marks receipts `done` in one transaction.
    pub fn mark_done(&mut self, keys: &[String]) -> Result<(), Error> {
        if keys.is_empty() {
            return Ok(());
        }
        let tx = self.conn.transaction()?;
        {
            let mut stmt = tx.prepare_cached(
                "UPDATE world SET status = 'done', attempts = attempts + 1, last_error = NULL
                 WHERE key = ?1 AND status = 'intent'",
            )?;
            for key in keys {
                stmt.execute([key])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Records a failed try: the receipt stays `intent`, to be tried again at `next_try_ms`.
    pub fn mark_failed(&mut self, key: &str, error: &str, next_try_ms: i64) -> Result<(), Error> {
        self.conn.execute(
            "UPDATE world SET attempts = attempts + 1, last_error = ?2, next_try_ms = ?3
             WHERE key = ?1 AND status = 'intent'",
            params![key, error, next_try_ms],
        )?;
        Ok(())
    }

    /// Puts a receipt off to `next_try_ms` without counting a try (its sink failed on another receipt).
    pub fn defer(&mut self, key: &str, next_try_ms: i64) -> Result<(), Error> {
        self.conn.execute(
            "UPDATE world SET next_try_ms = ?2 WHERE key = ?1 AND status = 'intent'",
            params![key, next_try_ms],
        )?;
        Ok(())
    }

    /// A sink refused for good (a person is needed): the receipt is `held` and never sent again by itself.
    pub fn mark_held(&mut self, key: &str, reason: &str) -> Result<(), Error> {
        self.conn.execute(
            "UPDATE world SET status = 'held', attempts = attempts + 1, last_error = ?2
             WHERE key = ?1 AND status = 'intent'",
            params![key, reason],
        )?;
        Ok(())
    }

    /// A receipt's status and attempts, for reports and tests.
    pub fn receipt_status(&self, key: &str) -> Result<Option<(String, i64)>, Error> {
        Ok(self
            .conn
            .query_row("SELECT status, attempts FROM world WHERE key = ?1", [key], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?)
    }

    pub fn counts(&self) -> Result<Counts, Error> {
        let count = |sql: &str| -> Result<i64, Error> { Ok(self.conn.query_row(sql, [], |r| r.get(0))?) };
        Ok(Counts {
            events: count("SELECT COUNT(*) FROM events")?,
            journal: count("SELECT COUNT(*) FROM journal")?,
            intent: count("SELECT COUNT(*) FROM world WHERE status = 'intent'")?,
            done: count("SELECT COUNT(*) FROM world WHERE status = 'done'")?,
            held: count("SELECT COUNT(*) FROM world WHERE status = 'held'")?,
            parked: count("SELECT COUNT(*) FROM parked WHERE status IN ('parked', 'retry')")?,
        })
    }

    /// Writes journal entries directly (a journal answered ahead of time, as a recording would).
    pub fn seed_journal(&mut self, entries: &[(String, String, Value)]) -> Result<(), Error> {
        let tx = self.conn.transaction()?;
        {
            let mut stmt =
                tx.prepare_cached("INSERT OR REPLACE INTO journal (key, event, value) VALUES (?1, ?2, ?3)")?;
            for (key, event, value) in entries {
                stmt.execute(params![key, event, value.to_string()])?;
            }
        }
        tx.commit()?;
        Ok(())
    }
}

/// A batch's rows, inside the caller's transaction.
fn write_batch(tx: &rusqlite::Transaction<'_>, batch: &BatchWrite) -> Result<(), Error> {
    let mut journal = tx.prepare_cached("INSERT INTO journal (key, event, value) VALUES (?1, ?2, ?3)")?;
    for (key, event, value) in &batch.journal {
        journal.execute(params![key, event, value.to_string()])?;
    }
    let mut world = tx.prepare_cached(
        "INSERT INTO world (key, event, capability, receipt, status) VALUES (?1, ?2, ?3, ?4, 'intent')",
    )?;
    for (key, event, capability, receipt) in &batch.intents {
        world.execute(params![key, event, capability, receipt.to_string()])?;
    }
    let mut dedup = tx.prepare_cached("INSERT OR IGNORE INTO dedup (agent, event) VALUES (?1, ?2)")?;
    for (agent, event) in &batch.dedup {
        dedup.execute(params![agent, event])?;
    }
    let mut agents = tx.prepare_cached(
        "INSERT INTO agents (name, memory, cursor) VALUES (?1, ?2, ?3)
         ON CONFLICT (name) DO UPDATE SET memory = excluded.memory, cursor = excluded.cursor",
    )?;
    for (agent, memory) in &batch.memory {
        agents.execute(params![agent, Value::Object(memory.clone()).to_string(), batch.cursor])?;
    }
    // The same agent's firing on the same event parked again (a retry that ran without firing leaves no
    // dedup row) takes the new fault.
    let mut parked = tx.prepare_cached(
        "INSERT INTO parked (agent, event, seq, status, tries, reason, parked_ms)
         VALUES (?1, ?2, ?3, 'parked', ?4, ?5, ?6)
         ON CONFLICT (agent, event) DO UPDATE SET status = 'parked', seq = excluded.seq, tries = excluded.tries,
             reason = excluded.reason, parked_ms = excluded.parked_ms",
    )?;
    for (agent, event, seq, tries, reason) in &batch.parked {
        parked.execute(params![agent, event, seq, tries, reason, crate::sinks::now_ms()])?;
    }
    Ok(())
}

fn unique<'a>(ids: &[&'a str]) -> Vec<&'a str> {
    let mut seen = HashSet::new();
    ids.iter().copied().filter(|id| seen.insert(*id)).collect()
}

fn parse(text: &str) -> Result<Value, Error> {
    serde_json::from_str(text).map_err(|e| Error::Store(format!("a stored value is not JSON: {e}")))
}
