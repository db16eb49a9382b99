//! One partition of the shared Postgres store, as the write-ahead protocol sees it. The connection it
//! holds is the one its lease (a session advisory lock) lives on: if the connection dies, so does the
//! lease, and every further call fails, which drops the partition from its worker.

use super::Namespace;
use crate::error::Error;
use crate::log_store::LogStore;
use crate::store::{AgentRow, BatchWrite, Counts, Intent, Parked, STARTED_MS};
use expresso_runtime::{Event, MemoryStore, Store};
use postgres::{Client, Statement};
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};

pub struct PartitionStore {
    client: Client,
    ns: Namespace,
    part: i32,
    /// The cursor as this lease read it: a commit moves it only from here, so a worker whose lease has
    /// passed to another cannot move it again.
    fence: i64,
    /// The statements this connection has prepared, by their text. A statement given as text is prepared
    /// again at every call, a round trip of its own before the one that runs it; a batch makes about ten.
    prepared: HashMap<&'static str, Statement>,
    /// A transaction is open on the connection: the one [`LogStore::lock_memory`] began, holding the
    /// agents' memory locks until the batch's commit (or its refusal) ends it.
    in_tx: bool,
}

impl PartitionStore {
    /// Takes the lease of `part` on `client` if no one holds it; `None` when another worker does.
    pub fn lease(mut client: Client, ns: &Namespace, part: i32) -> Result<Result<PartitionStore, Client>, Error> {
        let got: bool = client.query_one("SELECT pg_try_advisory_lock($1, $2)", &[&ns.lease_key(), &part])?.get(0);
        if !got {
            return Ok(Err(client));
        }
        client.execute("INSERT INTO cursors (part, cursor) VALUES ($1, 0) ON CONFLICT (part) DO NOTHING", &[&part])?;
        let fence: i64 = client.query_one("SELECT cursor FROM cursors WHERE part = $1", &[&part])?.get(0);
        Ok(Ok(PartitionStore { client, ns: ns.clone(), part, fence, prepared: HashMap::new(), in_tx: false }))
    }

    /// The statement for `sql`, prepared on this connection the first time it is asked for.
    fn statement(&mut self, sql: &'static str) -> Result<Statement, Error> {
        if let Some(statement) = self.prepared.get(sql) {
            return Ok(statement.clone());
        }
        let statement = self.client.prepare(sql)?;
        self.prepared.insert(sql, statement.clone());
        Ok(statement)
    }

    pub fn part(&self) -> i32 {
        self.part
    }

    pub fn is_closed(&self) -> bool {
        self.client.is_closed()
    }

    pub fn namespace(&self) -> &Namespace {
        &self.ns
    }

    /// The connection, the deployment and the partition, for the timers (`crate::timers`); a transaction
    /// a failed batch left open is ended first.
    pub(crate) fn for_timers(&mut self) -> Result<(&mut Client, &Namespace, i32), Error> {
        self.end_tx(false)?;
        Ok((&mut self.client, &self.ns, self.part))
    }

    /// Gives the lease back and the connection with it, for another partition.
    pub fn release(mut self) -> Option<Client> {
        // A transaction left open (a batch that failed between its memory lock and its commit) ends here,
        // not in the next partition's first statement.
        self.end_tx(false).ok()?;
        let freed = self.client.execute("SELECT pg_advisory_unlock($1, $2)", &[&self.ns.lease_key(), &self.part]);
        freed.ok().map(|_| self.client)
    }
}

/// Appends events to the shared log in one transaction. The append holds a transaction-scoped lock, so
/// log positions become visible in the order they were given: a reader that sees position N has seen
/// every position before it, and a cursor never steps over an event committed late.
pub fn append(client: &mut Client, ns: &Namespace, events: &[Event]) -> Result<Vec<bool>, Error> {
    let mut parts = Vec::with_capacity(events.len());
    let mut ids = Vec::with_capacity(events.len());
    let mut revs = Vec::with_capacity(events.len());
    let mut bodies = Vec::with_capacity(events.len());
    for event in events {
        parts.push(super::partition_of(event, ns.partitions));
        ids.push(event.id.clone());
        revs.push(event.rev as i64);
        bodies.push(serde_json::to_string(event).map_err(|e| Error::Store(e.to_string()))?);
    }
    let mut tx = client.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock($1, 0)", &[&ns.append_key()])?;
    let rows = tx.query(
        "INSERT INTO events (part, id, rev, body)
         SELECT p, i, r, b FROM UNNEST($1::int[], $2::text[], $3::bigint[], $4::text[]) WITH ORDINALITY AS t(p, i, r, b, n)
         ORDER BY n
         ON CONFLICT (id, rev) DO NOTHING
         RETURNING id, rev",
        &[&parts, &ids, &revs, &bodies],
    )?;
    tx.commit()?;
    crate::fault::point("after-append");
    let mut fresh: HashSet<(String, i64)> = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
    Ok(ids.into_iter().zip(revs).map(|key| fresh.remove(&key)).collect())
}

pub fn last_seq(client: &mut Client) -> Result<i64, Error> {
    Ok(client.query_one("SELECT COALESCE(MAX(seq), 0) FROM events", &[])?.get(0))
}

/// The whole database's counts, every partition together.
pub fn counts(client: &mut Client) -> Result<Counts, Error> {
    let row = client.query_one(
        "SELECT (SELECT COUNT(*) FROM events), (SELECT COUNT(*) FROM journal),
                COUNT(*) FILTER (WHERE status = 'intent'), COUNT(*) FILTER (WHERE status = 'done'),
                COUNT(*) FILTER (WHERE status = 'held'),
                (SELECT COUNT(*) FROM parked WHERE status IN ('parked', 'retry'))
         FROM world",
        &[],
    )?;
    Ok(Counts {
        events: row.get(0),
        journal: row.get(1),
        intent: row.get(2),
        done: row.get(3),
        held: row.get(4),
        parked: row.get(5),
    })
}

/// An agent's memory lock, the second half of its key: FNV-1a over its name, stable across processes.
fn memory_lock_of(name: &str) -> i32 {
    let mut hash: u32 = 0x811c_9dc5;
    for byte in name.bytes() {
        hash ^= byte as u32;
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash as i32
}

fn parked_row(row: &postgres::Row) -> Parked {
    Parked {
        id: row.get(0),
        agent: row.get(1),
        event: row.get(2),
        seq: row.get(3),
        status: row.get(4),
        tries: row.get(5),
        reason: row.get(6),
        parked_ms: row.get(7),
    }
}

/// Parked firings of every partition, oldest first, at most `limit`; with `all`, also the ones retried
/// or skipped. (An operator's look, over any connection to the deployment.)
pub fn parked(client: &mut Client, all: bool, limit: usize) -> Result<Vec<Parked>, Error> {
    let rows = client.query(
        "SELECT id, agent, event, seq, status, tries, reason, parked_ms FROM parked
         WHERE $1 OR status IN ('parked', 'retry') ORDER BY id LIMIT $2",
        &[&all, &(limit.min(i64::MAX as usize) as i64)],
    )?;
    Ok(rows.iter().map(parked_row).collect())
}

/// An operator's retry: the worker holding the firing's partition runs it once more before its next
/// batch. False when no firing `id` is parked.
pub fn retry_parked(client: &mut Client, id: i64) -> Result<bool, Error> {
    Ok(client.execute("UPDATE parked SET status = 'retry' WHERE id = $1 AND status = 'parked'", &[&id])? == 1)
}

/// An operator's skip: marked `skipped`, and the event put in the agent's dedup set in the same
/// transaction, so no run, retry or replay fires it. False when no firing `id` is parked or waiting for
/// its retry. A retry the partition's worker is running meanwhile finds it skipped and writes nothing.
pub fn skip_parked(client: &mut Client, id: i64) -> Result<bool, Error> {
    let mut tx = client.transaction()?;
    let row = tx.query_opt(
        "UPDATE parked SET status = 'skipped' WHERE id = $1 AND status IN ('parked', 'retry') RETURNING agent, event",
        &[&id],
    )?;
    let Some(row) = row else { return Ok(false) };
    let (agent, event): (String, String) = (row.get(0), row.get(1));
    tx.execute("INSERT INTO dedup (agent, event) VALUES ($1, $2) ON CONFLICT DO NOTHING", &[&agent, &event])?;
    tx.commit()?;
    Ok(true)
}

/// Writes journal entries directly (a journal answered ahead of time, as a recording would).
pub fn seed_journal(client: &mut Client, entries: &[(String, String, Value)]) -> Result<(), Error> {
    let keys: Vec<&str> = entries.iter().map(|(k, _, _)| k.as_str()).collect();
    let events: Vec<&str> = entries.iter().map(|(_, e, _)| e.as_str()).collect();
    let values: Vec<String> = entries.iter().map(|(_, _, v)| v.to_string()).collect();
    client.execute(
        "INSERT INTO journal (key, event, value) SELECT * FROM UNNEST($1::text[], $2::text[], $3::text[])
         ON CONFLICT (key) DO UPDATE SET event = excluded.event, value = excluded.value",
        &[&keys, &events, &values],
    )?;
    Ok(())
}

fn unzip3<A, B, C>(items: impl Iterator<Item = (A, B, C)>) -> (Vec<A>, Vec<B>, Vec<C>) {
    let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
    for (x, y, z) in items {
        a.push(x);
        b.push(y);
        c.push(z);
    }
    (a, b, c)
}

fn unique<'a>(ids: &[&'a str]) -> Vec<&'a str> {
    let mut seen = HashSet::new();
    ids.iter().copied().filter(|id| seen.insert(*id)).collect()
}

fn parse(text: &str) -> Result<Value, Error> {
    serde_json::from_str(text).map_err(|e| Error::Store(format!("a stored value is not JSON: {e}")))
}

impl LogStore for PartitionStore {
    fn append(&mut self, events: &[Event]) -> Result<Vec<bool>, Error> {
        append(&mut self.client, &self.ns, events)
    }

    fn events_after(&mut self, after: i64, limit: usize) -> Result<Vec<(i64, Event)>, Error> {
        let statement =
            self.statement("SELECT seq, body FROM events WHERE part = $1 AND seq > $2 ORDER BY seq LIMIT $3")?;
        let rows = self.client.query(&statement, &[&self.part, &after, &(limit as i64)])?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            let seq: i64 = row.get(0);
            let body: &str = row.get(1);
            let event: Event = serde_json::from_str(body)
                .map_err(|e| Error::Store(format!("event at log position {seq} does not read: {e}")))?;
            out.push((seq, event));
        }
        Ok(out)
    }

    fn last_seq(&mut self) -> Result<i64, Error> {
        last_seq(&mut self.client)
    }

    fn event_by_id(&mut self, id: &str) -> Result<Option<Event>, Error> {
        let row = self.client.query_opt("SELECT body FROM events WHERE id = $1 ORDER BY rev DESC LIMIT 1", &[&id])?;
        let Some(row) = row else { return Ok(None) };
        let body: &str = row.get(0);
        serde_json::from_str(body).map(Some).map_err(|e| Error::Store(format!("event {id} does not read: {e}")))
    }

    fn journal_of(&mut self, ids: &[&str]) -> Result<MemoryStore, Error> {
        let ids = unique(ids);
        let statement = self.statement("SELECT key, value FROM journal WHERE event = ANY($1)")?;
        let rows = self.client.query(&statement, &[&ids])?;
        let mut store = MemoryStore::new();
        for row in rows {
            store.put(row.get(0), parse(row.get(1))?).map_err(Error::Runtime)?;
        }
        Ok(store)
    }

    fn world_of(&mut self, ids: &[&str]) -> Result<MemoryStore, Error> {
        let ids = unique(ids);
        let statement = self.statement("SELECT key, receipt FROM world WHERE event = ANY($1) ORDER BY made")?;
        let rows = self.client.query(&statement, &[&ids])?;
        let mut store = MemoryStore::new();
        for row in rows {
            store.put(row.get(0), parse(row.get(1))?).map_err(Error::Runtime)?;
        }
        Ok(store)
    }

    fn dedup_of(&mut self, agent: &str, ids: &[&str]) -> Result<HashSet<String>, Error> {
        let ids = unique(ids);
        let statement = self.statement("SELECT event FROM dedup WHERE agent = $1 AND event = ANY($2)")?;
        let rows = self.client.query(&statement, &[&agent, &ids])?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// The agent's one memory (shared by every partition), with this partition's cursor when the agent
    /// has run in this partition; `None` when it has not (an agent added to the program reads the
    /// partition from its start).
    fn agent(&mut self, name: &str) -> Result<Option<AgentRow>, Error> {
        let statement = self.statement(
            "SELECT (SELECT memory FROM memory WHERE name = $2)
             FROM agents WHERE part = $1 AND name = $2",
        )?;
        let row = self.client.query_opt(&statement, &[&self.part, &name])?;
        let Some(row) = row else { return Ok(None) };
        match row.get::<_, Option<&str>>(0).map(parse).transpose()? {
            None => Ok(Some((Map::new(), self.fence))),
            Some(Value::Object(map)) => Ok(Some((map, self.fence))),
            Some(_) => Err(Error::Store(format!("agent {name}'s memory is not an object"))),
        }
    }

    /// Opens the batch's transaction and takes each named agent's memory lock in it (a transaction-scoped
    /// advisory lock per agent, taken in one order by every partition, so two cannot wait on each other),
    /// then reads their memory as the last commit left it. The locks are held until the batch commits:
    /// two partitions never run one agent's memory from the same state.
    fn lock_memory(&mut self, names: &[&str]) -> Result<Option<HashMap<String, Map<String, Value>>>, Error> {
        if names.is_empty() {
            return Ok(Some(HashMap::new()));
        }
        self.end_tx(false)?;
        // The locks first, in a statement of their own: the read after them takes its snapshot once they
        // are held, so it sees the commit of whoever held them before (a read in the locking statement
        // would see the store as it was when that statement began, before its wait).
        let mut keys: Vec<i32> = names.iter().map(|n| memory_lock_of(n)).collect();
        keys.sort_unstable();
        keys.dedup();
        let key = self.ns.memory_key();
        let locks: Vec<String> = keys.iter().map(|k| format!("pg_advisory_xact_lock({key}, {k})")).collect();
        let statement = self.statement("SELECT name, memory FROM memory WHERE name = ANY($1)")?;
        self.in_tx = true;
        self.client.batch_execute(&format!("BEGIN; SELECT {}", locks.join(", ")))?;
        let rows = self.client.query(&statement, &[&names])?;
        let mut out = HashMap::with_capacity(rows.len());
        for row in rows {
            let name: String = row.get(0);
            match parse(row.get(1))? {
                Value::Object(map) => out.insert(name, map),
                _ => return Err(Error::Store(format!("agent {name}'s memory is not an object"))),
            };
        }
        Ok(Some(out))
    }

    fn commit_batch(&mut self, batch: &BatchWrite) -> Result<(), Error> {
        let went = self.write(batch);
        self.finish(batch, went)
    }

    fn parks(&self) -> bool {
        true
    }

    fn retries_due(&mut self, limit: usize) -> Result<Vec<Parked>, Error> {
        let statement = self.statement(
            "SELECT id, agent, event, seq, status, tries, reason, parked_ms FROM parked
             WHERE part = $1 AND status = 'retry' ORDER BY id LIMIT $2",
        )?;
        let rows = self.client.query(&statement, &[&self.part, &(limit.min(i64::MAX as usize) as i64)])?;
        Ok(rows.iter().map(parked_row).collect())
    }

    fn fire_timers(&mut self, timers: &mut crate::timers::Timers, now_ms: i64) -> Result<usize, Error> {
        crate::timers::fire(self, timers, now_ms)
    }

    fn commit_retry(&mut self, batch: &BatchWrite, id: i64, fault: Option<&str>) -> Result<bool, Error> {
        if !self.in_tx {
            self.client.batch_execute("BEGIN")?;
            self.in_tx = true;
        }
        let statement = self.statement(
            "UPDATE parked SET status = CASE WHEN $2::text IS NULL THEN 'retried' ELSE 'parked' END,
                 tries = tries + 1, reason = COALESCE($2, reason)
             WHERE id = $1 AND part = $3 AND status = 'retry'",
        )?;
        let changed = match self.client.execute(&statement, &[&id, &fault, &self.part]) {
            Ok(n) => n,
            Err(e) => {
                self.end_tx(false)?;
                return Err(e.into());
            }
        };
        if changed != 1 {
            // Skipped meanwhile: nothing of the retry is written.
            self.end_tx(false)?;
            return Ok(false);
        }
        let went = self.write(batch);
        self.finish(batch, went)?;
        Ok(true)
    }

    fn due_intents(&mut self, now_ms: i64, limit: usize) -> Result<Vec<Intent>, Error> {
        let statement = self.statement(
            "SELECT key, capability, receipt, attempts, next_try_ms FROM world
             WHERE part = $1 AND status = 'intent' AND next_try_ms <= $2 ORDER BY made LIMIT $3",
        )?;
        let rows = self.client.query(&statement, &[&self.part, &now_ms, &(limit as i64)])?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            out.push(Intent {
                key: row.get(0),
                capability: row.get(1),
                receipt: parse(row.get(2))?,
                attempts: row.get(3),
                started: row.get::<_, i64>(4) == STARTED_MS,
            });
        }
        Ok(out)
    }

    fn next_retry_ms(&mut self) -> Result<Option<i64>, Error> {
        let statement = self.statement("SELECT MIN(next_try_ms) FROM world WHERE part = $1 AND status = 'intent'")?;
        Ok(self.client.query_one(&statement, &[&self.part])?.get(0))
    }

    fn mark_done(&mut self, keys: &[String]) -> Result<(), Error> {
        if keys.is_empty() {
            return Ok(());
        }
        // A `done` mark need not wait for the disk: lost in a crash, it leaves its receipt `intent`, which
        // recovery sends again under the same key, exactly as after a crash just before the mark. So it
        // skips the sync (Postgres still writes it in order, behind every commit before it); the `intent`
        // commit, which must be on disk before any sink is called, keeps it.
        // BEGIN and the setting go in one round trip, the prepared update in another, COMMIT in a third.
        let statement = self.statement(
            "UPDATE world SET status = 'done', attempts = attempts + 1, last_error = NULL
             WHERE key = ANY($1) AND status = 'intent'",
        )?;
        let client = &mut self.client;
        let marked = client
            .batch_execute("BEGIN; SET LOCAL synchronous_commit TO off")
            .and_then(|()| client.execute(&statement, &[&keys]))
            .and_then(|_| client.batch_execute("COMMIT"));
        if let Err(e) = marked {
            // Whatever step failed, the connection leaves the transaction (a no-op outside one).
            let _ = client.batch_execute("ROLLBACK");
            return Err(e.into());
        }
        Ok(())
    }

    fn mark_failed(&mut self, key: &str, error: &str, next_try_ms: i64) -> Result<(), Error> {
        self.client.execute(
            "UPDATE world SET attempts = attempts + 1, last_error = $2, next_try_ms = $3
             WHERE key = $1 AND status = 'intent'",
            &[&key, &error, &next_try_ms],
        )?;
        Ok(())
    }

    fn defer(&mut self, key: &str, next_try_ms: i64) -> Result<(), Error> {
        self.client
            .execute("UPDATE world SET next_try_ms = $2 WHERE key = $1 AND status = 'intent'", &[&key, &next_try_ms])?;
        Ok(())
    }

    fn mark_held(&mut self, key: &str, reason: &str) -> Result<(), Error> {
        self.client.execute(
            "UPDATE world SET status = 'held', attempts = attempts + 1, last_error = $2
             WHERE key = $1 AND status = 'intent'",
            &[&key, &reason],
        )?;
        Ok(())
    }

    fn counts(&mut self) -> Result<Counts, Error> {
        let row = self.client.query_one(
            "SELECT (SELECT COUNT(*) FROM events WHERE part = $1), (SELECT COUNT(*) FROM journal),
                    COUNT(*) FILTER (WHERE status = 'intent'), COUNT(*) FILTER (WHERE status = 'done'),
                    COUNT(*) FILTER (WHERE status = 'held'),
                    (SELECT COUNT(*) FROM parked WHERE part = $1 AND status IN ('parked', 'retry'))
             FROM world WHERE part = $1",
            &[&self.part],
        )?;
        Ok(Counts {
            events: row.get(0),
            journal: row.get(1),
            intent: row.get(2),
            done: row.get(3),
            held: row.get(4),
            parked: row.get(5),
        })
    }
}

impl PartitionStore {
    /// Ends the open transaction, if any: committed with `commit`, else rolled back.
    fn end_tx(&mut self, commit: bool) -> Result<(), Error> {
        if !self.in_tx {
            return Ok(());
        }
        self.in_tx = false;
        if commit {
            self.client.batch_execute("COMMIT")?;
        } else {
            self.client.batch_execute("ROLLBACK")?;
        }
        Ok(())
    }

    /// Ends a batch's write: the transaction committed when it went, the fence moved; else refused.
    fn finish(&mut self, batch: &BatchWrite, went: Result<bool, Error>) -> Result<(), Error> {
        let went = match went {
            Ok(went) => went,
            Err(e) => {
                let _ = self.end_tx(false);
                return Err(e);
            }
        };
        let part = self.part;
        if !went {
            let _ = self.end_tx(false);
            return Err(Error::Store(format!(
                "partition {part}'s cursor is no longer at {}: its lease has passed to another worker",
                self.fence
            )));
        }
        self.end_tx(true)?;
        if !batch.memory.is_empty() {
            self.fence = batch.cursor;
        }
        Ok(())
    }

    /// The one statement that writes a batch; whether it went (the fence held).
    fn write(&mut self, batch: &BatchWrite) -> Result<bool, Error> {
        let part = self.part;
        let (j_keys, j_events, j_values): (Vec<&str>, Vec<&str>, Vec<String>) =
            unzip3(batch.journal.iter().map(|(k, e, v)| (k.as_str(), e.as_str(), v.to_string())));
        let (w_keys, w_events, w_caps): (Vec<&str>, Vec<&str>, Vec<&str>) =
            unzip3(batch.intents.iter().map(|(k, e, c, _)| (k.as_str(), e.as_str(), c.as_str())));
        let w_receipts: Vec<String> = batch.intents.iter().map(|(_, _, _, r)| r.to_string()).collect();
        let d_agents: Vec<&str> = batch.dedup.iter().map(|(a, _)| a.as_str()).collect();
        let d_events: Vec<&str> = batch.dedup.iter().map(|(_, e)| e.as_str()).collect();
        let m_names: Vec<&str> = batch.memory.iter().map(|(a, _)| a.as_str()).collect();
        let m_values: Vec<String> = batch.memory.iter().map(|(_, m)| Value::Object(m.clone()).to_string()).collect();
        let moves = !batch.memory.is_empty();
        let p_agents: Vec<&str> = batch.parked.iter().map(|p| p.0.as_str()).collect();
        let p_events: Vec<&str> = batch.parked.iter().map(|p| p.1.as_str()).collect();
        let p_seqs: Vec<i64> = batch.parked.iter().map(|p| p.2).collect();
        let p_tries: Vec<i64> = batch.parked.iter().map(|p| p.3).collect();
        let p_reasons: Vec<&str> = batch.parked.iter().map(|p| p.4.as_str()).collect();
        // One statement writes it all, in one round trip and with no transaction around it (a statement is
        // atomic on its own): the cursor moved past the batch only from where this lease read it (the
        // fence), and the journal, the intents, the dedup rows and the memory written only if it moved (or
        // when the batch does not move it). A refused commit writes nothing.
        let statement = self.statement(
            "WITH f AS (
                 UPDATE cursors SET cursor = $13 WHERE $15 AND part = $8 AND cursor = $14 RETURNING 1),
             ok AS (SELECT (NOT $15 OR EXISTS (SELECT 1 FROM f)) AS go),
             j AS (
                 INSERT INTO journal (key, event, value)
                 SELECT k, e, v FROM UNNEST($1::text[], $2::text[], $3::text[]) AS t(k, e, v), ok WHERE ok.go
                 ON CONFLICT (key) DO NOTHING),
             w AS (
                 INSERT INTO world (key, part, event, capability, receipt, status)
                 SELECT k, $8, e, c, r, 'intent' FROM UNNEST($4::text[], $5::text[], $6::text[], $7::text[])
                     WITH ORDINALITY AS t(k, e, c, r, n), ok WHERE ok.go ORDER BY n),
             d AS (
                 INSERT INTO dedup (agent, event)
                 SELECT a, e FROM UNNEST($9::text[], $10::text[]) AS t(a, e), ok WHERE ok.go
                 ON CONFLICT DO NOTHING),
             a AS (
                 INSERT INTO agents (part, name, memory)
                 SELECT $8, n, '{}' FROM UNNEST($11::text[]) AS t(n), ok WHERE ok.go
                 ON CONFLICT (part, name) DO NOTHING),
             m AS (
                 INSERT INTO memory (name, memory)
                 SELECT n, m FROM UNNEST($11::text[], $12::text[]) AS t(n, m), ok WHERE ok.go
                 ON CONFLICT (name) DO UPDATE SET memory = excluded.memory),
             p AS (
                 INSERT INTO parked (part, agent, event, seq, status, tries, reason, parked_ms)
                 SELECT $8, a, e, s, 'parked', n, r, $21
                 FROM UNNEST($16::text[], $17::text[], $18::bigint[], $19::bigint[], $20::text[]) AS t(a, e, s, n, r), ok
                 WHERE ok.go
                 ON CONFLICT (agent, event) DO UPDATE SET status = 'parked', part = excluded.part, seq = excluded.seq,
                     tries = excluded.tries, reason = excluded.reason, parked_ms = excluded.parked_ms)
             SELECT go FROM ok",
        )?;
        let went: bool = self
            .client
            .query_one(
                &statement,
                &[
                    &j_keys,
                    &j_events,
                    &j_values,
                    &w_keys,
                    &w_events,
                    &w_caps,
                    &w_receipts,
                    &part,
                    &d_agents,
                    &d_events,
                    &m_names,
                    &m_values,
                    &batch.cursor,
                    &self.fence,
                    &moves,
                    &p_agents,
                    &p_events,
                    &p_seqs,
                    &p_tries,
                    &p_reasons,
                    &crate::sinks::now_ms(),
                ],
            )?
            .get(0);
        Ok(went)
    }
}
