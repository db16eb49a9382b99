//! What the write-ahead protocol needs of a store, whichever engine holds it: the SQLite file of one
//! process (`Db`) or one partition of a shared Postgres database (`pg::PartitionStore`). The protocol
//! (`Host`) is written once against this trait, so both engines run the same firing, commit and delivery.
//!
//! A store is one ordered log as the protocol sees it: `events_after` returns the events it owns (all of
//! them for SQLite, one partition's for Postgres) in log order, and `commit_batch` moves the cursor with
//! the batch's effects in one transaction.

use crate::error::Error;
use crate::store::{AgentRow, BatchWrite, Counts, Db, Intent, Parked};
use crate::watermark::{Fate, Window};
use expresso_runtime::{Event, MemoryStore};
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};

pub trait LogStore: Send {
    /// Appends events to the log in one transaction; per event, whether it was new.
    fn append(&mut self, events: &[Event]) -> Result<Vec<bool>, Error>;
    /// Up to `limit` of this store's events after log position `after`, in log order.
    fn events_after(&mut self, after: i64, limit: usize) -> Result<Vec<(i64, Event)>, Error>;
    /// The position of the last event in the whole log (0 when empty).
    fn last_seq(&mut self) -> Result<i64, Error>;
    /// The journal entries of these events.
    fn journal_of(&mut self, ids: &[&str]) -> Result<MemoryStore, Error>;
    /// The world entries of these events, whatever their status.
    fn world_of(&mut self, ids: &[&str]) -> Result<MemoryStore, Error>;
    /// Which of these events an agent has fired on.
    fn dedup_of(&mut self, agent: &str, ids: &[&str]) -> Result<HashSet<String>, Error>;
    /// An agent's memory and cursor, when it has run before.
    fn agent(&mut self, name: &str) -> Result<Option<AgentRow>, Error>;
    /// Commits a batch at once; refuses when the cursor is no longer this store's to move.
    fn commit_batch(&mut self, batch: &BatchWrite) -> Result<(), Error>;
    /// `intent` receipts due at `now_ms`, oldest first.
    fn due_intents(&mut self, now_ms: i64, limit: usize) -> Result<Vec<Intent>, Error>;
    /// The earliest next try of any `intent` receipt.
    fn next_retry_ms(&mut self) -> Result<Option<i64>, Error>;
    fn mark_done(&mut self, keys: &[String]) -> Result<(), Error>;
    fn mark_failed(&mut self, key: &str, error: &str, next_try_ms: i64) -> Result<(), Error>;
    fn defer(&mut self, key: &str, next_try_ms: i64) -> Result<(), Error>;
    fn mark_held(&mut self, key: &str, reason: &str) -> Result<(), Error>;
    /// Counts of this store's receipts by status, and of the log.
    fn counts(&mut self) -> Result<Counts, Error>;

    /// Whether the store keeps parked firings. One that does not (Postgres, not yet) gets the protocol
    /// of before: a faulting event holds its log (there, its partition) until it runs.
    fn parks(&self) -> bool {
        false
    }
    /// Parked firings an operator asked to retry, oldest first.
    fn retries_due(&mut self, _limit: usize) -> Result<Vec<Parked>, Error> {
        Ok(Vec::new())
    }
    /// The event at log position `seq`.
    fn event_at(&mut self, seq: i64) -> Result<Option<Event>, Error> {
        Ok(self.events_after(seq - 1, 1)?.into_iter().find(|(at, _)| *at == seq).map(|(_, e)| e))
    }
    /// Commits a retry's batch with the parked firing's new state; false when the firing no longer waits
    /// for its retry.
    fn commit_retry(&mut self, _batch: &BatchWrite, _id: i64, _fault: Option<&str>) -> Result<bool, Error> {
        Err(Error::Store("this store does not keep parked firings".into()))
    }
    /// On a store whose agents' memory other runners share (Postgres's partitions): opens the batch's
    /// transaction, locks the named agents' memory in it and reads it. `None` where one runner owns it.
    fn lock_memory(&mut self, _names: &[&str]) -> Result<Option<HashMap<String, Map<String, Value>>>, Error> {
        Ok(None)
    }
    /// The event with this id as the log holds it (its highest revision), where the store can read it.
    fn event_by_id(&mut self, _id: &str) -> Result<Option<Event>, Error> {
        Ok(None)
    }
    /// Stages what an ingest brought in the reorder window (`crate::watermark`); per event, its fate. A
    /// store without a stage appends the events to the log at once.
    fn stage(&mut self, events: &[Event], _window: Window, _now_ms: i64) -> Result<Vec<Fate>, Error> {
        Ok(self.append(events)?.into_iter().map(|new| if new { Fate::New } else { Fate::Duplicate }).collect())
    }
    /// Releases to the log what the window lets go at `now_ms`; how many events.
    fn release(&mut self, _window: Window, _now_ms: i64) -> Result<usize, Error> {
        Ok(0)
    }
    /// Appends the events of the timers due at `now_ms` (`crate::timers`); a store that keeps no timers
    /// (Postgres, not yet) appends none.
    fn fire_timers(&mut self, _timers: &mut crate::timers::Timers, _now_ms: i64) -> Result<usize, Error> {
        Ok(0)
    }
}

impl LogStore for Db {
    fn append(&mut self, events: &[Event]) -> Result<Vec<bool>, Error> {
        Db::append(self, events)
    }
    fn events_after(&mut self, after: i64, limit: usize) -> Result<Vec<(i64, Event)>, Error> {
        Db::events_after(self, after, limit)
    }
    fn last_seq(&mut self) -> Result<i64, Error> {
        Db::last_seq(self)
    }
    fn journal_of(&mut self, ids: &[&str]) -> Result<MemoryStore, Error> {
        Db::journal_of(self, ids)
    }
    fn world_of(&mut self, ids: &[&str]) -> Result<MemoryStore, Error> {
        Db::world_of(self, ids)
    }
    fn dedup_of(&mut self, agent: &str, ids: &[&str]) -> Result<HashSet<String>, Error> {
        Db::dedup_of(self, agent, ids)
    }
    fn agent(&mut self, name: &str) -> Result<Option<AgentRow>, Error> {
        Db::agent(self, name)
    }
    fn commit_batch(&mut self, batch: &BatchWrite) -> Result<(), Error> {
        Db::commit_batch(self, batch)
    }
    fn due_intents(&mut self, now_ms: i64, limit: usize) -> Result<Vec<Intent>, Error> {
        Db::due_intents(self, now_ms, limit)
    }
    fn next_retry_ms(&mut self) -> Result<Option<i64>, Error> {
        Db::next_retry_ms(self)
    }
    fn mark_done(&mut self, keys: &[String]) -> Result<(), Error> {
        Db::mark_done(self, keys)
    }
    fn mark_failed(&mut self, key: &str, error: &str, next_try_ms: i64) -> Result<(), Error> {
        Db::mark_failed(self, key, error, next_try_ms)
    }
    fn defer(&mut self, key: &str, next_try_ms: i64) -> Result<(), Error> {
        Db::defer(self, key, next_try_ms)
    }
    fn mark_held(&mut self, key: &str, reason: &str) -> Result<(), Error> {
        Db::mark_held(self, key, reason)
    }
    fn counts(&mut self) -> Result<Counts, Error> {
        Db::counts(self)
    }
    fn parks(&self) -> bool {
        true
    }
    fn retries_due(&mut self, limit: usize) -> Result<Vec<Parked>, Error> {
        Db::retries_due(self, limit)
    }
    fn event_at(&mut self, seq: i64) -> Result<Option<Event>, Error> {
        Db::event_at(self, seq)
    }
    fn commit_retry(&mut self, batch: &BatchWrite, id: i64, fault: Option<&str>) -> Result<bool, Error> {
        Db::commit_retry(self, batch, id, fault)
    }
    fn event_by_id(&mut self, id: &str) -> Result<Option<Event>, Error> {
        Db::event_by_id(self, id)
    }
    fn stage(&mut self, events: &[Event], window: Window, now_ms: i64) -> Result<Vec<Fate>, Error> {
        Db::stage(self, events, window, now_ms)
    }
    fn release(&mut self, window: Window, now_ms: i64) -> Result<usize, Error> {
        Db::release(self, window, now_ms, false)
    }
    fn fire_timers(&mut self, timers: &mut crate::timers::Timers, now_ms: i64) -> Result<usize, Error> {
        crate::timers::fire(self, timers, now_ms)
    }
}
