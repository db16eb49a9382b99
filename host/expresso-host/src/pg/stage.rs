//! The reorder window (`crate::watermark`) on the shared Postgres store: the same stage, its tables in
//! the deployment's schema. A stage or a release holds the append lock for its transaction, so log
//! positions still become visible in order, and two workers never release one event twice.

use super::Namespace;
use crate::error::Error;
use crate::export::Exported;
use crate::watermark::{self, Correction, Fate, Released, Stage, Window};
use expresso_runtime::Event;
use postgres::{Client, Transaction};
use serde_json::Value;
use std::collections::HashMap;

const TABLES: &str = "
CREATE TABLE IF NOT EXISTS pending (
    id TEXT PRIMARY KEY,
    rev BIGINT NOT NULL,
    part TEXT NOT NULL,
    t_event BIGINT NOT NULL,
    arrived_ms BIGINT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS pending_by_part ON pending (part, t_event, id);
CREATE TABLE IF NOT EXISTS marks (part TEXT PRIMARY KEY, max_t BIGINT NOT NULL, released_t BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS releases (
    seq BIGINT PRIMARY KEY,
    part TEXT NOT NULL,
    watermark BIGINT NOT NULL,
    late BOOLEAN NOT NULL,
    why TEXT NOT NULL,
    released_ms BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS corrections (
    id TEXT NOT NULL,
    rev BIGINT NOT NULL,
    fate TEXT NOT NULL CHECK (fate IN ('refused', 'superseded')),
    reason TEXT NOT NULL,
    body TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (id, rev)
);
";

/// Makes the stage's tables when missing (a deployment made before the window had none), under the
/// append lock so two workers do not make them at once.
/// Once made (or found) for a schema, this process does not look again: a release runs at every turn of
/// a worker's loop, and one query less there is one round trip less.
pub fn ensure(client: &mut Client, ns: &Namespace) -> Result<(), Error> {
    static MADE: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let key = format!("{}\u{0}{}", ns.url, ns.schema);
    if MADE.lock().map(|made| made.contains(&key)).unwrap_or(false) {
        return Ok(());
    }
    let made: Option<String> = client.query_one("SELECT to_regclass('corrections')::text", &[])?.get(0);
    if made.is_none() {
        let mut tx = client.transaction()?;
        tx.execute("SELECT pg_advisory_xact_lock($1, 0)", &[&ns.append_key()])?;
        tx.batch_execute(TABLES)?;
        tx.commit()?;
    }
    if let Ok(mut made) = MADE.lock() {
        made.push(key);
    }
    Ok(())
}

/// The stage in a Postgres transaction. Each statement is a round trip under the append lock, so what a
/// group's events ask is read ahead in three queries, and their staging is written in two; a release
/// appends each event and its schedule row in one statement, in the log's order.
struct PgStage<'a, 'b> {
    tx: &'a mut Transaction<'b>,
    partitions: u32,
    /// Read ahead, by id: the highest `rev` in the log.
    released: HashMap<String, Option<i64>>,
    /// Read ahead, by id: the `rev` staged, as this stage leaves it.
    staged: HashMap<String, Option<i64>>,
    /// Read ahead, by id: every noted `(rev, reason, refused as it arrived)`, as this stage leaves them.
    noted: HashMap<String, Vec<(i64, String, bool)>>,
    /// Events staged and not yet written, by id (a later revision replaces an earlier one).
    to_stage: Vec<(Event, String, i64)>,
    /// The greatest `t_event` seen per partition and not yet written.
    seen: HashMap<String, i64>,
}

impl<'a, 'b> PgStage<'a, 'b> {
    fn new(tx: &'a mut Transaction<'b>, partitions: u32) -> Self {
        PgStage {
            tx,
            partitions,
            released: HashMap::new(),
            staged: HashMap::new(),
            noted: HashMap::new(),
            to_stage: Vec::new(),
            seen: HashMap::new(),
        }
    }
}

impl Stage for PgStage<'_, '_> {
    fn read_ahead(&mut self, events: &[Event]) -> Result<(), Error> {
        let mut ids: Vec<String> = events.iter().map(|e| e.id.clone()).collect();
        ids.sort_unstable();
        ids.dedup();
        for id in &ids {
            self.released.insert(id.clone(), None);
            self.staged.insert(id.clone(), None);
            self.noted.insert(id.clone(), Vec::new());
        }
        for row in self.tx.query("SELECT id, MAX(rev) FROM events WHERE id = ANY($1) GROUP BY id", &[&ids])? {
            self.released.insert(row.get(0), row.get(1));
        }
        for row in self.tx.query("SELECT id, rev FROM pending WHERE id = ANY($1)", &[&ids])? {
            self.staged.insert(row.get(0), Some(row.get(1)));
        }
        for row in self.tx.query("SELECT id, rev, reason, body <> '' FROM corrections WHERE id = ANY($1)", &[&ids])? {
            let id: String = row.get(0);
            self.noted.entry(id).or_default().push((row.get(1), row.get(2), row.get(3)));
        }
        Ok(())
    }
    fn write_kept(&mut self) -> Result<(), Error> {
        if !self.to_stage.is_empty() {
            let (mut ids, mut revs, mut parts, mut ts, mut arrived, mut bodies) =
                (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
            for (event, part, arrived_ms) in self.to_stage.drain(..) {
                bodies.push(serde_json::to_string(&event).map_err(|e| Error::Store(e.to_string()))?);
                revs.push(event.rev as i64);
                ts.push(watermark::t_of(&event));
                ids.push(event.id);
                parts.push(part);
                arrived.push(arrived_ms);
            }
            self.tx.execute(
                "INSERT INTO pending (id, rev, part, t_event, arrived_ms, body)
                 SELECT * FROM UNNEST($1::text[], $2::bigint[], $3::text[], $4::bigint[], $5::bigint[], $6::text[])
                 ON CONFLICT (id) DO UPDATE SET rev = excluded.rev, part = excluded.part, t_event = excluded.t_event,
                 arrived_ms = excluded.arrived_ms, body = excluded.body",
                &[&ids, &revs, &parts, &ts, &arrived, &bodies],
            )?;
        }
        if !self.seen.is_empty() {
            let (parts, ts): (Vec<String>, Vec<i64>) = self.seen.drain().unzip();
            self.tx.execute(
                "INSERT INTO marks (part, max_t, released_t) SELECT p, t, -1 FROM UNNEST($1::text[], $2::bigint[]) AS u(p, t)
                 ON CONFLICT (part) DO UPDATE SET max_t = GREATEST(marks.max_t, excluded.max_t)",
                &[&parts, &ts],
            )?;
        }
        Ok(())
    }
    fn released_rev(&mut self, id: &str) -> Result<Option<i64>, Error> {
        if let Some(rev) = self.released.get(id) {
            return Ok(*rev);
        }
        Ok(self.tx.query_one("SELECT MAX(rev) FROM events WHERE id = $1", &[&id])?.get(0))
    }
    fn staged_rev(&mut self, id: &str) -> Result<Option<i64>, Error> {
        if let Some(rev) = self.staged.get(id) {
            return Ok(*rev);
        }
        Ok(self.tx.query_opt("SELECT rev FROM pending WHERE id = $1", &[&id])?.map(|r| r.get(0)))
    }
    fn noted(&mut self, id: &str, rev: i64) -> Result<Option<(String, bool)>, Error> {
        if let Some(notes) = self.noted.get(id) {
            return Ok(notes.iter().find(|(r, ..)| *r == rev).map(|(_, reason, arrived)| (reason.clone(), *arrived)));
        }
        let row =
            self.tx.query_opt("SELECT reason, body <> '' FROM corrections WHERE id = $1 AND rev = $2", &[&id, &rev])?;
        Ok(row.map(|r| (r.get(0), r.get(1))))
    }
    fn staged_count(&mut self) -> Result<i64, Error> {
        Ok(self.tx.query_one("SELECT COUNT(*) FROM pending", &[])?.get(0))
    }
    fn stage(&mut self, event: &Event, part: &str, arrived_ms: i64) -> Result<(), Error> {
        self.staged.insert(event.id.clone(), Some(event.rev as i64));
        // One row per id in a statement: a later revision staged in the same group takes the earlier's place.
        self.to_stage.retain(|(e, ..)| e.id != event.id);
        self.to_stage.push((event.clone(), part.to_string(), arrived_ms));
        Ok(())
    }
    fn note(&mut self, id: &str, rev: i64, fate: &str, reason: &str, body: &str, at_ms: i64) -> Result<(), Error> {
        self.tx.execute(
            "INSERT INTO corrections (id, rev, fate, reason, body, at_ms) VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (id, rev) DO NOTHING",
            &[&id, &rev, &fate, &reason, &body, &at_ms],
        )?;
        // The first note of a revision stands, as the statement keeps it.
        if let Some(notes) = self.noted.get_mut(id)
            && !notes.iter().any(|(r, ..)| *r == rev)
        {
            notes.push((rev, reason.to_string(), !body.is_empty()));
        }
        Ok(())
    }
    fn saw(&mut self, part: &str, t_event: i64) -> Result<(), Error> {
        let t = self.seen.entry(part.to_string()).or_insert(t_event);
        *t = (*t).max(t_event);
        Ok(())
    }
    fn marks(&mut self) -> Result<Vec<(String, i64, i64)>, Error> {
        self.write_kept()?;
        let rows = self.tx.query(
            "SELECT part, max_t, released_t FROM marks WHERE part IN (SELECT DISTINCT part FROM pending) ORDER BY part",
            &[],
        )?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1), r.get(2))).collect())
    }
    fn staged(&mut self, part: &str) -> Result<Vec<(Event, i64)>, Error> {
        self.write_kept()?;
        let rows = self.tx.query(
            "SELECT body, arrived_ms FROM pending WHERE part = $1 ORDER BY t_event, id LIMIT $2",
            &[&part, &(watermark::RELEASE_LIMIT as i64)],
        )?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            let body: String = row.get(0);
            let event: Event =
                serde_json::from_str(&body).map_err(|e| Error::Store(format!("a staged event does not read: {e}")))?;
            out.push((event, row.get(1)));
        }
        Ok(out)
    }
    fn release(&mut self, released: &[Released], at_ms: i64) -> Result<(), Error> {
        self.write_kept()?;
        // One statement per event, in the log's order: its sequence number is taken as it is appended.
        // An `(id, rev)` the log holds already is not written twice, nor given a schedule row.
        for r in released {
            let body = serde_json::to_string(&r.event).map_err(|e| Error::Store(e.to_string()))?;
            let part = super::partition_of(&r.event, self.partitions);
            self.tx.execute(
                "WITH written AS (
                     INSERT INTO events (part, id, rev, body) VALUES ($1, $2, $3, $4)
                     ON CONFLICT (id, rev) DO NOTHING RETURNING seq)
                 INSERT INTO releases (seq, part, watermark, late, why, released_ms)
                 SELECT seq, $5, $6, $7, $8, $9 FROM written",
                &[&part, &r.event.id, &(r.event.rev as i64), &body, &r.part, &r.watermark, &r.late, &r.why, &at_ms],
            )?;
        }
        let ids: Vec<&str> = released.iter().map(|r| r.event.id.as_str()).collect();
        self.tx.execute("DELETE FROM pending WHERE id = ANY($1)", &[&ids])?;
        let (parts, ts): (Vec<&str>, Vec<i64>) = watermark::released_marks(released).into_iter().unzip();
        self.tx.execute(
            "UPDATE marks SET released_t = GREATEST(marks.released_t, u.t) FROM UNNEST($1::text[], $2::bigint[]) AS u(p, t)
             WHERE marks.part = u.p",
            &[&parts, &ts],
        )?;
        for r in released {
            self.staged.insert(r.event.id.clone(), None);
        }
        Ok(())
    }
}

/// Stages an ingest's events and releases what the window lets go, in one transaction.
pub fn stage(
    client: &mut Client,
    ns: &Namespace,
    events: &[Event],
    window: Window,
    now_ms: i64,
) -> Result<Vec<Fate>, Error> {
    ensure(client, ns)?;
    let mut tx = client.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock($1, 0)", &[&ns.append_key()])?;
    let fates = {
        let mut stage = PgStage::new(&mut tx, ns.partitions);
        let fates = watermark::stage(&mut stage, events, now_ms)?;
        watermark::release(&mut stage, window, now_ms, false)?;
        fates
    };
    tx.commit()?;
    crate::fault::point("after-append");
    Ok(fates)
}

/// Releases what the window lets go at `now_ms`; how many events.
pub fn release(client: &mut Client, ns: &Namespace, window: Window, now_ms: i64) -> Result<usize, Error> {
    ensure(client, ns)?;
    let any: bool = client.query_one("SELECT EXISTS (SELECT 1 FROM pending)", &[])?.get(0);
    if !any {
        return Ok(0);
    }
    let mut tx = client.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock($1, 0)", &[&ns.append_key()])?;
    let n = watermark::release(&mut PgStage::new(&mut tx, ns.partitions), window, now_ms, false)?.len();
    tx.commit()?;
    Ok(n)
}

/// The stage's counts and refused corrections of a deployment, for `status`.
pub fn counts(client: &mut Client) -> Result<watermark::StageCounts, Error> {
    let made: Option<String> = client.query_one("SELECT to_regclass('corrections')::text", &[])?.get(0);
    if made.is_none() {
        return Ok(watermark::StageCounts::default());
    }
    let r = client.query_one(
        "SELECT (SELECT COUNT(*) FROM pending), (SELECT COUNT(*) FROM releases WHERE late),
                (SELECT COUNT(*) FROM corrections WHERE fate = 'refused'),
                (SELECT COUNT(*) FROM corrections WHERE fate = 'superseded')",
        &[],
    )?;
    Ok(watermark::StageCounts { staged: r.get(0), late: r.get(1), refused: r.get(2), superseded: r.get(3) })
}

impl Exported for Client {
    fn log_after(&mut self, after: i64, limit: usize) -> Result<Vec<(i64, Event)>, Error> {
        let rows = self
            .query("SELECT seq, body FROM events WHERE seq > $1 ORDER BY seq LIMIT $2", &[&after, &(limit as i64)])?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            let (seq, body): (i64, String) = (row.get(0), row.get(1));
            let event: Event = serde_json::from_str(&body)
                .map_err(|e| Error::Store(format!("event at log position {seq} does not read: {e}")))?;
            out.push((seq, event));
        }
        Ok(out)
    }
    fn schedule_from(&mut self, after: i64, limit: usize) -> Result<HashMap<i64, Value>, Error> {
        let made: Option<String> = self.query_one("SELECT to_regclass('releases')::text", &[])?.get(0);
        if made.is_none() {
            return Ok(HashMap::new());
        }
        let rows = self.query(
            "SELECT seq, part, watermark, late, why, released_ms FROM releases WHERE seq > $1 ORDER BY seq LIMIT $2",
            &[&after, &(limit as i64)],
        )?;
        Ok(rows
            .iter()
            .map(|r| {
                let (seq, part, why): (i64, String, String) = (r.get(0), r.get(1), r.get(4));
                (seq, watermark::schedule_line(seq, &part, r.get(2), r.get(3), &why, r.get(5)))
            })
            .collect())
    }
    fn journal_after(&mut self, after: &str, limit: usize) -> Result<Vec<(String, String)>, Error> {
        let rows = self.query(
            "SELECT key, value FROM journal WHERE key COLLATE \"C\" > $1 ORDER BY key COLLATE \"C\" LIMIT $2",
            &[&after, &(limit as i64)],
        )?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }
    fn all_corrections(&mut self, limit: usize) -> Result<Vec<Correction>, Error> {
        let made: Option<String> = self.query_one("SELECT to_regclass('corrections')::text", &[])?.get(0);
        if made.is_none() {
            return Ok(Vec::new());
        }
        let rows = self.query(
            "SELECT id, rev, fate, reason, at_ms FROM corrections ORDER BY at_ms, id, rev LIMIT $1",
            &[&(limit as i64)],
        )?;
        Ok(rows
            .iter()
            .map(|r| Correction { id: r.get(0), rev: r.get(1), fate: r.get(2), reason: r.get(3), at_ms: r.get(4) })
            .collect())
    }
}
