//! `serve`'s reorder window: events are fired in event-time order within a bounded window, and the
//! watermark schedule that decided the order is kept in the store, so the log the agents ran is a
//! function of what arrived and can be replayed (002 §8: "determinism is relative to a declared
//! watermark schedule; the schedule must be part of the log").
//!
//! An event `serve` accepts is first staged (durably, in the ingest's transaction) in `pending`. Each
//! partition `(workspace, room)` has a watermark: the greatest `t_event` that partition has brought,
//! minus the window W. A staged event is released to the log the agents run when the watermark reaches
//! its `t_event`, or when it has waited W of the host's clock (the settle time, so a quiet partition's
//! last events are not held for ever); a release takes, with the events it settles, every staged event
//! of the partition at or before them, and appends them in `(t_event, id)` order. The log's order (its
//! `seq`) is thus the order of firing, and the `releases` table holds, for each log position, the
//! partition's watermark at its release, whether it came late and why it was released: the schedule.
//!
//! - An event whose `t_event` is before one its partition has already released is late: it is released
//!   at once and fires in arrival order, after the later ones; its release row says so (`late`).
//! - A correction (an id the store holds, with a higher `rev`) that arrives while its event is staged
//!   replaces it, as `run` keeps only an id's highest `rev`. One that arrives after its event was
//!   released is refused: 002 defers retract and reassert, and the firing has happened. The refusal
//!   is answered to the sender, kept in `corrections` with its reason, and shown by `status` and
//!   `expresso export`. A lower `rev` than one held is refused the same way, as superseded.
//! - A second delivery of an `(id, rev)` the store holds (staged, released or refused) is a duplicate:
//!   counted once, run once.

use crate::error::Error;
use expresso_runtime::Event;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::time::Duration;

/// The window W unless one is given: an event waits at most this long, in event time and in the host's
/// time, for the ones before it.
pub const DEFAULT_REORDER_MS: u64 = 500;
/// The largest window `--reorder-ms` takes: an event is never held longer than this.
pub const MAX_REORDER_MS: u64 = 60_000;
/// Events staged at once, at most; past it the ingest is refused (the sender tries again later).
pub const MAX_PENDING: i64 = 100_000;
/// Events released per release, at most (the rest in the next one, in order).
pub const RELEASE_LIMIT: usize = 4_096;

/// The reorder window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub millis: i64,
}

impl Window {
    /// A window of `millis`, refused past [`MAX_REORDER_MS`].
    pub fn new(millis: u64) -> Result<Window, Error> {
        if millis > MAX_REORDER_MS {
            return Err(Error::Program(format!(
                "--reorder-ms {millis} is more than {MAX_REORDER_MS}\n  = fix: give a window of at most {MAX_REORDER_MS} ms"
            )));
        }
        Ok(Window { millis: millis as i64 })
    }

    pub fn duration(&self) -> Duration {
        Duration::from_millis(self.millis as u64)
    }
}

impl Default for Window {
    fn default() -> Window {
        Window { millis: DEFAULT_REORDER_MS as i64 }
    }
}

/// What became of one event an ingest brought.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fate {
    /// Staged: it will run.
    New,
    /// The store holds its `(id, rev)` already.
    Duplicate,
    /// Refused, with the reason the sender and `status` see.
    Refused(String),
}

/// An event's time as the stage keeps it (SQL integers are signed; a time past their range is held at
/// the greatest).
pub fn t_of(event: &Event) -> i64 {
    event.t_event.min(i64::MAX as u64) as i64
}

/// A partition as the stage keys it.
pub fn part_key(event: &Event) -> String {
    json!([event.partition.workspace, event.partition.room]).to_string()
}

/// What the stage needs of a store's transaction; written once for SQLite and for Postgres.
pub trait Stage {
    /// The highest `rev` of `id` in the log the agents run.
    fn released_rev(&mut self, id: &str) -> Result<Option<i64>, Error>;
    /// The `rev` of `id` staged, if it is.
    fn staged_rev(&mut self, id: &str) -> Result<Option<i64>, Error>;
    /// `(id, rev)`'s fate when it was refused or superseded already: its reason, and whether it was
    /// refused as it arrived (rather than taken off the stage by a later revision).
    fn noted(&mut self, id: &str, rev: i64) -> Result<Option<(String, bool)>, Error>;
    /// How many events are staged.
    fn staged_count(&mut self) -> Result<i64, Error>;
    /// Stages an event (replacing a staged lower `rev` of its id).
    fn stage(&mut self, event: &Event, part: &str, arrived_ms: i64) -> Result<(), Error>;
    /// Keeps the fate of a correction: `refused` or `superseded`, with its reason.
    fn note(&mut self, id: &str, rev: i64, fate: &str, reason: &str, body: &str, at_ms: i64) -> Result<(), Error>;
    /// Raises a partition's greatest `t_event` seen.
    fn saw(&mut self, part: &str, t_event: i64) -> Result<(), Error>;
    /// Every partition with staged events: `(part, greatest t_event seen, greatest t_event released)`.
    fn marks(&mut self) -> Result<Vec<(String, i64, i64)>, Error>;
    /// A partition's staged events with their arrival, in `(t_event, id)` order.
    fn staged(&mut self, part: &str) -> Result<Vec<(Event, i64)>, Error>;
    /// Appends released events to the log in this order, each with its schedule row, takes them off
    /// the stage and raises each partition's greatest released `t_event`.
    fn release(&mut self, released: &[Released], at_ms: i64) -> Result<(), Error>;
    /// Reads ahead what [`stage`] will ask of these events, for a store where each question is a round
    /// trip; the answers must then follow what this stage writes.
    fn read_ahead(&mut self, _events: &[Event]) -> Result<(), Error> {
        Ok(())
    }
    /// Writes what [`Stage::stage`] and [`Stage::saw`] kept back, before anything reads the stage again.
    fn write_kept(&mut self) -> Result<(), Error> {
        Ok(())
    }
}

/// One event released to the log, with the schedule that released it.
#[derive(Debug, Clone)]
pub struct Released {
    pub event: Event,
    pub part: String,
    /// The partition's release point: the watermark, or the settled event's `t_event` when later.
    pub watermark: i64,
    /// Its `t_event` is before one its partition released earlier: it fires in arrival order.
    pub late: bool,
    /// `watermark`, `settle` or `late`.
    pub why: &'static str,
}

/// Stages what an ingest brought; per event, its fate. Fails closed past [`MAX_PENDING`].
pub fn stage(tx: &mut dyn Stage, events: &[Event], now_ms: i64) -> Result<Vec<Fate>, Error> {
    let staged = tx.staged_count()?;
    if staged + events.len() as i64 > MAX_PENDING {
        return Err(Error::Store(format!(
            "{staged} events wait in the reorder window, and {} more would pass its bound of {MAX_PENDING}",
            events.len()
        )));
    }
    tx.read_ahead(events)?;
    let mut fates = Vec::with_capacity(events.len());
    for event in events {
        let rev = event.rev as i64;
        let body = serde_json::to_string(event).map_err(|e| Error::Store(e.to_string()))?;
        let id = event.id.as_str();
        match tx.noted(id, rev)? {
            // Refused when it came: sent again, refused again with the same reason, and still not run.
            Some((reason, true)) => {
                fates.push(Fate::Refused(reason));
                continue;
            }
            // Staged once, then replaced by a later revision: a redelivery.
            Some((_, false)) => {
                fates.push(Fate::Duplicate);
                continue;
            }
            None => {}
        }
        if let Some(held) = tx.released_rev(id)? {
            if held == rev {
                fates.push(Fate::Duplicate);
                continue;
            }
            let (fate, reason) = if rev > held {
                (
                    "refused",
                    format!(
                        "a correction of `{id}` (rev {rev}) arrived after rev {held} was released to the agents; 002 defers retract and reassert, so it is not run"
                    ),
                )
            } else {
                ("superseded", format!("`{id}` rev {rev} is superseded: rev {held} is in the log already"))
            };
            tx.note(id, rev, fate, &reason, &body, now_ms)?;
            fates.push(Fate::Refused(reason));
            continue;
        }
        if let Some(held) = tx.staged_rev(id)? {
            if held == rev {
                fates.push(Fate::Duplicate);
                continue;
            }
            if rev < held {
                let reason = format!("`{id}` rev {rev} is superseded: rev {held} waits in the reorder window");
                tx.note(id, rev, "superseded", &reason, &body, now_ms)?;
                fates.push(Fate::Refused(reason));
                continue;
            }
            // A correction before its event was released: it takes the staged revision's place.
            let reason = format!("superseded by rev {rev} before its release");
            tx.note(id, held, "superseded", &reason, "", now_ms)?;
        }
        let part = part_key(event);
        tx.stage(event, &part, now_ms)?;
        tx.saw(&part, t_of(event))?;
        fates.push(Fate::New);
    }
    tx.write_kept()?;
    Ok(fates)
}

/// Releases what the watermarks and the settle time let go, at `now_ms` (with `all`, everything staged:
/// a log that is complete, as `ingest` brings). Returns the events released, in log order.
pub fn release(tx: &mut dyn Stage, window: Window, now_ms: i64, all: bool) -> Result<Vec<Released>, Error> {
    let mut out = Vec::new();
    for (part, max_t, released_t) in tx.marks()? {
        let watermark = max_t.saturating_sub(window.millis);
        let staged = tx.staged(&part)?;
        // The latest staged event that has waited its settle time: it and every one before it go.
        let settled = staged
            .iter()
            .filter(|(_, arrived)| all || now_ms.saturating_sub(*arrived) >= window.millis)
            .map(|(e, _)| t_of(e))
            .max();
        let cutoff = settled.map_or(watermark, |t| t.max(watermark));
        for (event, _) in staged {
            let t = t_of(&event);
            if t > cutoff {
                continue;
            }
            let late = t < released_t;
            let why = if late {
                "late"
            } else if t <= watermark {
                "watermark"
            } else {
                "settle"
            };
            out.push(Released { event, part: part.clone(), watermark: cutoff, late, why });
        }
    }
    // Every partition's release in one order, by event time and id (a late event is behind its
    // partition's log whatever its place here).
    out.sort_by(|a, b| (a.event.t_event, &a.event.id).cmp(&(b.event.t_event, &b.event.id)));
    out.truncate(RELEASE_LIMIT);
    if !out.is_empty() {
        tx.release(&out, now_ms)?;
    }
    Ok(out)
}

/// The greatest released `t_event` per partition after a release, for [`Stage::release`] to keep.
pub fn released_marks(released: &[Released]) -> HashMap<&str, i64> {
    let mut marks: HashMap<&str, i64> = HashMap::new();
    for r in released {
        let t = t_of(&r.event);
        let m = marks.entry(r.part.as_str()).or_insert(t);
        *m = (*m).max(t);
    }
    marks
}

/// A log position's schedule row, as `export` writes it.
pub fn schedule_line(seq: i64, part: &str, watermark: i64, late: bool, why: &str, released_ms: i64) -> Value {
    let partition: Value = serde_json::from_str(part).unwrap_or(Value::String(part.to_string()));
    json!({ "seq": seq, "partition": partition, "watermark": watermark, "late": late, "why": why, "released_ms": released_ms })
}

// ---------------------------------------------------------------------------------------------------
// SQLite.

/// The stage's tables in the SQLite store (made when missing; the log's own tables are untouched).
pub const SQLITE_SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS pending (
    id TEXT PRIMARY KEY,
    rev INTEGER NOT NULL,
    part TEXT NOT NULL,
    t_event INTEGER NOT NULL,
    arrived_ms INTEGER NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS pending_by_part ON pending (part, t_event, id);
CREATE TABLE IF NOT EXISTS marks (part TEXT PRIMARY KEY, max_t INTEGER NOT NULL, released_t INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS releases (
    seq INTEGER PRIMARY KEY,
    part TEXT NOT NULL,
    watermark INTEGER NOT NULL,
    late INTEGER NOT NULL,
    why TEXT NOT NULL,
    released_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS corrections (
    id TEXT NOT NULL,
    rev INTEGER NOT NULL,
    fate TEXT NOT NULL CHECK (fate IN ('refused', 'superseded')),
    reason TEXT NOT NULL,
    body TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    PRIMARY KEY (id, rev)
);
";

pub struct SqliteStage<'a>(pub &'a rusqlite::Transaction<'a>);

impl Stage for SqliteStage<'_> {
    fn released_rev(&mut self, id: &str) -> Result<Option<i64>, Error> {
        Ok(self.0.query_row("SELECT MAX(rev) FROM events WHERE id = ?1", [id], |r| r.get(0))?)
    }
    fn staged_rev(&mut self, id: &str) -> Result<Option<i64>, Error> {
        use rusqlite::OptionalExtension;
        Ok(self.0.query_row("SELECT rev FROM pending WHERE id = ?1", [id], |r| r.get(0)).optional()?)
    }
    fn noted(&mut self, id: &str, rev: i64) -> Result<Option<(String, bool)>, Error> {
        use rusqlite::OptionalExtension;
        let mut stmt =
            self.0.prepare_cached("SELECT reason, body != '' FROM corrections WHERE id = ?1 AND rev = ?2")?;
        Ok(stmt.query_row(rusqlite::params![id, rev], |r| Ok((r.get(0)?, r.get(1)?))).optional()?)
    }
    fn staged_count(&mut self) -> Result<i64, Error> {
        Ok(self.0.query_row("SELECT COUNT(*) FROM pending", [], |r| r.get(0))?)
    }
    fn stage(&mut self, event: &Event, part: &str, arrived_ms: i64) -> Result<(), Error> {
        let body = serde_json::to_string(event).map_err(|e| Error::Store(e.to_string()))?;
        self.0.execute(
            "INSERT INTO pending (id, rev, part, t_event, arrived_ms, body) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT (id) DO UPDATE SET rev = excluded.rev, part = excluded.part, t_event = excluded.t_event,
             arrived_ms = excluded.arrived_ms, body = excluded.body",
            rusqlite::params![event.id, event.rev as i64, part, t_of(event), arrived_ms, body],
        )?;
        Ok(())
    }
    fn note(&mut self, id: &str, rev: i64, fate: &str, reason: &str, body: &str, at_ms: i64) -> Result<(), Error> {
        self.0.execute(
            "INSERT OR IGNORE INTO corrections (id, rev, fate, reason, body, at_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            rusqlite::params![id, rev, fate, reason, body, at_ms],
        )?;
        Ok(())
    }
    fn saw(&mut self, part: &str, t_event: i64) -> Result<(), Error> {
        self.0.execute(
            "INSERT INTO marks (part, max_t, released_t) VALUES (?1, ?2, -1)
             ON CONFLICT (part) DO UPDATE SET max_t = MAX(max_t, excluded.max_t)",
            rusqlite::params![part, t_event],
        )?;
        Ok(())
    }
    fn marks(&mut self) -> Result<Vec<(String, i64, i64)>, Error> {
        let mut stmt = self.0.prepare_cached(
            "SELECT part, max_t, released_t FROM marks WHERE part IN (SELECT DISTINCT part FROM pending) ORDER BY part",
        )?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }
    fn staged(&mut self, part: &str) -> Result<Vec<(Event, i64)>, Error> {
        let mut stmt = self
            .0
            .prepare_cached("SELECT body, arrived_ms FROM pending WHERE part = ?1 ORDER BY t_event, id LIMIT ?2")?;
        let rows = stmt.query_map(rusqlite::params![part, RELEASE_LIMIT as i64], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (body, arrived) = row?;
            let event: Event =
                serde_json::from_str(&body).map_err(|e| Error::Store(format!("a staged event does not read: {e}")))?;
            out.push((event, arrived));
        }
        Ok(out)
    }
    fn release(&mut self, released: &[Released], at_ms: i64) -> Result<(), Error> {
        // OR IGNORE: an `(id, rev)` the host wrote into the log itself meanwhile is not written twice (and
        // does not fail the release for ever); it is only taken off the stage.
        let mut insert = self.0.prepare_cached("INSERT OR IGNORE INTO events (id, rev, body) VALUES (?1, ?2, ?3)")?;
        let mut schedule = self.0.prepare_cached(
            "INSERT INTO releases (seq, part, watermark, late, why, released_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        let mut unstage = self.0.prepare_cached("DELETE FROM pending WHERE id = ?1")?;
        for r in released {
            let body = serde_json::to_string(&r.event).map_err(|e| Error::Store(e.to_string()))?;
            if insert.execute(rusqlite::params![r.event.id, r.event.rev as i64, body])? == 1 {
                let seq = self.0.last_insert_rowid();
                schedule.execute(rusqlite::params![seq, r.part, r.watermark, r.late, r.why, at_ms])?;
            }
            unstage.execute([&r.event.id])?;
        }
        let mut mark = self.0.prepare_cached("UPDATE marks SET released_t = MAX(released_t, ?2) WHERE part = ?1")?;
        for (part, t) in released_marks(released) {
            mark.execute(rusqlite::params![part, t])?;
        }
        Ok(())
    }
}

/// Counts of the stage, for `status`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StageCounts {
    /// Events staged, not yet released.
    pub staged: i64,
    /// Events released late (fired in arrival order).
    pub late: i64,
    /// Corrections refused because their event was released already.
    pub refused: i64,
    /// Revisions superseded (a lower `rev` than one held).
    pub superseded: i64,
}

/// A correction's fate, as `status` and `export` show it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Correction {
    pub id: String,
    pub rev: i64,
    pub fate: String,
    pub reason: String,
    pub at_ms: i64,
}

impl crate::store::Db {
    /// Stages an ingest's events in one transaction and releases at once what the window lets go.
    pub fn stage(&mut self, events: &[Event], window: Window, now_ms: i64) -> Result<Vec<Fate>, Error> {
        let tx = self.conn_mut().transaction()?;
        let fates = stage(&mut SqliteStage(&tx), events, now_ms)?;
        release(&mut SqliteStage(&tx), window, now_ms, false)?;
        tx.commit()?;
        crate::fault::point("after-append");
        Ok(fates)
    }

    /// Stages a whole log file and releases it at once, in one transaction (`ingest`): a file is a
    /// complete log, so nothing of it waits in the window, and a crash leaves all of it or none.
    pub fn ingest(&mut self, events: &[Event], now_ms: i64) -> Result<Vec<Fate>, Error> {
        let tx = self.conn_mut().transaction()?;
        let fates = stage(&mut SqliteStage(&tx), events, now_ms)?;
        while !release(&mut SqliteStage(&tx), Window::default(), now_ms, true)?.is_empty() {}
        tx.commit()?;
        crate::fault::point("after-append");
        Ok(fates)
    }

    /// Releases to the log what the window lets go at `now_ms` (with `all`, everything staged), in one
    /// transaction. Returns how many events it released.
    pub fn release(&mut self, window: Window, now_ms: i64, all: bool) -> Result<usize, Error> {
        let tx = self.conn_mut().transaction()?;
        let mut n = 0;
        loop {
            let released = release(&mut SqliteStage(&tx), window, now_ms, all)?.len();
            n += released;
            if !all || released == 0 {
                break;
            }
        }
        tx.commit()?;
        Ok(n)
    }

    pub fn stage_counts(&self) -> Result<StageCounts, Error> {
        Ok(self.conn().query_row(
            "SELECT (SELECT COUNT(*) FROM pending), (SELECT COUNT(*) FROM releases WHERE late),
                    (SELECT COUNT(*) FROM corrections WHERE fate = 'refused'),
                    (SELECT COUNT(*) FROM corrections WHERE fate = 'superseded')",
            [],
            |r| Ok(StageCounts { staged: r.get(0)?, late: r.get(1)?, refused: r.get(2)?, superseded: r.get(3)? }),
        )?)
    }

    /// Corrections refused or superseded, oldest first, at most `limit`; with `all` the superseded too.
    pub fn corrections(&self, all: bool, limit: usize) -> Result<Vec<Correction>, Error> {
        let mut stmt = self.conn().prepare_cached(
            "SELECT id, rev, fate, reason, at_ms FROM corrections WHERE ?1 OR fate = 'refused'
             ORDER BY at_ms, id, rev LIMIT ?2",
        )?;
        let rows = stmt.query_map(rusqlite::params![all, limit.min(i64::MAX as usize) as i64], |r| {
            Ok(Correction { id: r.get(0)?, rev: r.get(1)?, fate: r.get(2)?, reason: r.get(3)?, at_ms: r.get(4)? })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// The schedule row of each log position from `after` on, at most `limit`: `(seq, part, watermark,
    /// late, why, released_ms)`. A position with no row was appended without the window (`ingest` of old,
    /// or an event the host wrote itself).
    pub fn schedule_after(&self, after: i64, limit: usize) -> Result<HashMap<i64, Value>, Error> {
        let mut stmt = self.conn().prepare_cached(
            "SELECT seq, part, watermark, late, why, released_ms FROM releases WHERE seq > ?1 ORDER BY seq LIMIT ?2",
        )?;
        let rows = stmt.query_map(rusqlite::params![after, limit as i64], |r| {
            Ok(schedule_line(
                r.get(0)?,
                &r.get::<_, String>(1)?,
                r.get(2)?,
                r.get(3)?,
                &r.get::<_, String>(4)?,
                r.get(5)?,
            ))
        })?;
        let mut out = HashMap::new();
        for row in rows {
            let line = row?;
            out.insert(line["seq"].as_i64().unwrap_or(0), line);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Db;

    fn event(id: &str, room: &str, t: u64, rev: u64) -> Event {
        serde_json::from_value(json!({
            "id": id, "partition": {"workspace": "w", "room": room}, "type": "message",
            "payload": {"speaker": "s", "text": id}, "t_event": t, "rev": rev,
        }))
        .unwrap()
    }

    fn log(db: &Db) -> Vec<String> {
        db.events_after(0, 100).unwrap().into_iter().map(|(_, e)| e.id).collect()
    }

    #[test]
    fn each_partition_has_its_own_watermark_and_the_clock_settles_the_rest() {
        let dir = std::env::temp_dir().join(format!("expresso-watermark-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut db = Db::open(&dir).unwrap();
        let w = Window::new(1_000).unwrap();
        // A busy room far ahead in event time releases nothing of a quiet one.
        let fates = db.stage(&[event("p5000", "busy", 5_000, 0), event("q1000", "quiet", 1_000, 0)], w, 0).unwrap();
        assert_eq!(fates, vec![Fate::New, Fate::New]);
        assert!(log(&db).is_empty());
        // The quiet room's own later event passes its watermark over 1000 (2500 - 1000 = 1500).
        db.stage(&[event("q2500", "quiet", 2_500, 0)], w, 10).unwrap();
        assert_eq!(log(&db), vec!["q1000"]);
        // The clock settles what waited W: everything staged by time 0 and before it in its room.
        assert_eq!(db.release(w, 999, false).unwrap(), 0);
        assert_eq!(db.release(w, 1_000, false).unwrap(), 1);
        assert_eq!(log(&db), vec!["q1000", "p5000"]);
        assert_eq!(db.release(w, 1_010, false).unwrap(), 1);
        assert_eq!(log(&db), vec!["q1000", "p5000", "q2500"]);
        let schedule = db.schedule_after(0, 10).unwrap();
        let whys: Vec<&str> = (1..=3).map(|seq| schedule[&seq]["why"].as_str().unwrap()).collect();
        assert_eq!(whys, vec!["watermark", "settle", "settle"]);
        assert_eq!(schedule[&1]["watermark"], json!(1_500));
        assert_eq!(db.stage_counts().unwrap(), StageCounts::default());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn past_the_bound_of_staged_events_an_ingest_is_refused_whole() {
        struct Full;
        impl Stage for Full {
            fn released_rev(&mut self, _: &str) -> Result<Option<i64>, Error> {
                Ok(None)
            }
            fn staged_rev(&mut self, _: &str) -> Result<Option<i64>, Error> {
                Ok(None)
            }
            fn noted(&mut self, _: &str, _: i64) -> Result<Option<(String, bool)>, Error> {
                Ok(None)
            }
            fn staged_count(&mut self) -> Result<i64, Error> {
                Ok(MAX_PENDING)
            }
            fn stage(&mut self, _: &Event, _: &str, _: i64) -> Result<(), Error> {
                panic!("nothing is staged past the bound")
            }
            fn note(&mut self, _: &str, _: i64, _: &str, _: &str, _: &str, _: i64) -> Result<(), Error> {
                panic!("nothing is noted past the bound")
            }
            fn saw(&mut self, _: &str, _: i64) -> Result<(), Error> {
                Ok(())
            }
            fn marks(&mut self) -> Result<Vec<(String, i64, i64)>, Error> {
                Ok(Vec::new())
            }
            fn staged(&mut self, _: &str) -> Result<Vec<(Event, i64)>, Error> {
                Ok(Vec::new())
            }
            fn release(&mut self, _: &[Released], _: i64) -> Result<(), Error> {
                Ok(())
            }
        }
        let refused = stage(&mut Full, &[event("a", "r", 1, 0)], 0).unwrap_err().to_string();
        assert!(refused.contains("wait in the reorder window") && refused.contains("100000"), "{refused}");
    }
}
