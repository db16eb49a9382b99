//! One partition of the shared Postgres store, as the write-ahead protocol sees it. The connection it
//! holds is the one its lease (a session advisory lock) lives on: if the connection dies, so does the
//! lease, and every further call fails, which drops the partition from its worker.

use super::Namespace;
use crate::error::Error;
use crate::log_store::LogStore;
use crate::store::{AgentRow, BatchWrite, Counts, Intent, STARTED_MS};
use expresso_runtime::{Event, MemoryStore, Store};
use postgres::{Client, Statement};
use serde_json::Value;
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
        Ok(Ok(PartitionStore { client, ns: ns.clone(), part, fence, prepared: HashMap::new() }))
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

    /// Gives the lease back and the connection with it, for another partition.
    pub fn release(mut self) -> Option<Client> {
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
                COUNT(*) FILTER (WHERE status = 'held')
         FROM world",
        &[],
    )?;
    Ok(Counts {
        events: row.get(0),
        journal: row.get(1),
        intent: row.get(2),
        done: row.get(3),
        held: row.get(4),
        parked: 0,
    })
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

    fn agent(&mut self, name: &str) -> Result<Option<AgentRow>, Error> {
        let statement = self.statement("SELECT memory FROM agents WHERE part = $1 AND name = $2")?;
        let row = self.client.query_opt(&statement, &[&self.part, &name])?;
        match row {
            None => Ok(None),
            Some(row) => match parse(row.get(0))? {
                Value::Object(map) => Ok(Some((map, self.fence))),
                _ => Err(Error::Store(format!("agent {name}'s memory in partition {} is not an object", self.part))),
            },
        }
    }

    fn commit_batch(&mut self, batch: &BatchWrite) -> Result<(), Error> {
        // The host parks only on a store whose `parks()` is true; this one's is not (yet), so a parked
        // firing here would be lost with its reason: refused whole.
        if !batch.parked.is_empty() {
            return Err(Error::Store("parked firings are not kept on Postgres yet".into()));
        }
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
                 SELECT $8, n, m FROM UNNEST($11::text[], $12::text[]) AS t(n, m), ok WHERE ok.go
                 ON CONFLICT (part, name) DO UPDATE SET memory = excluded.memory)
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
                ],
            )?
            .get(0);
        if !went {
            return Err(Error::Store(format!(
                "partition {part}'s cursor is no longer at {}: its lease has passed to another worker",
                self.fence
            )));
        }
        if moves {
            self.fence = batch.cursor;
        }
        Ok(())
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
                    COUNT(*) FILTER (WHERE status = 'held')
             FROM world WHERE part = $1",
            &[&self.part],
        )?;
        Ok(Counts {
            events: row.get(0),
            journal: row.get(1),
            intent: row.get(2),
            done: row.get(3),
            held: row.get(4),
            parked: 0,
        })
    }
}
