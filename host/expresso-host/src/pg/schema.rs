//! The Postgres schema and the names of its advisory locks.

use crate::error::Error;
use postgres::{Client, NoTls};

const SCHEMA_VERSION: &str = "2";

const TABLES: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    seq BIGSERIAL PRIMARY KEY,
    part INTEGER NOT NULL,
    id TEXT NOT NULL,
    rev BIGINT NOT NULL,
    body TEXT NOT NULL,
    UNIQUE (id, rev)
);
CREATE INDEX IF NOT EXISTS events_by_part ON events (part, seq);
CREATE TABLE IF NOT EXISTS journal (key TEXT PRIMARY KEY, event TEXT NOT NULL, value TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS journal_by_event ON journal (event);
CREATE TABLE IF NOT EXISTS world (
    key TEXT PRIMARY KEY,
    part INTEGER NOT NULL,
    event TEXT NOT NULL,
    capability TEXT NOT NULL,
    receipt TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('intent', 'done', 'held')),
    attempts BIGINT NOT NULL DEFAULT 0,
    next_try_ms BIGINT NOT NULL DEFAULT 0,
    last_error TEXT,
    made BIGSERIAL
);
CREATE INDEX IF NOT EXISTS world_by_event ON world (event);
CREATE INDEX IF NOT EXISTS world_intents ON world (part, next_try_ms) WHERE status = 'intent';
CREATE TABLE IF NOT EXISTS agents (part INTEGER NOT NULL, name TEXT NOT NULL, memory TEXT NOT NULL, PRIMARY KEY (part, name));
CREATE TABLE IF NOT EXISTS cursors (part INTEGER PRIMARY KEY, cursor BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS dedup (agent TEXT NOT NULL, event TEXT NOT NULL, PRIMARY KEY (agent, event));
";

/// What version 2 adds: each agent's one memory, whichever partition its firings are in, and the parked
/// firings. (`agents` keeps, per partition, which agents have run there: a row there means the agent has
/// read the partition up to its cursor; its `memory` column is no longer read.)
const TABLES_2: &str = "
CREATE TABLE IF NOT EXISTS memory (name TEXT PRIMARY KEY, memory TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS parked (
    id BIGSERIAL PRIMARY KEY,
    part INTEGER NOT NULL,
    agent TEXT NOT NULL,
    event TEXT NOT NULL,
    seq BIGINT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('parked', 'retry', 'retried', 'skipped')),
    tries BIGINT NOT NULL,
    reason TEXT NOT NULL,
    parked_ms BIGINT NOT NULL,
    UNIQUE (agent, event)
);
CREATE INDEX IF NOT EXISTS parked_to_retry ON parked (part, id) WHERE status = 'retry';
";

/// A version 1 store kept each agent's memory per partition. It becomes version 2 when every agent has
/// one memory there (one partition, or the same memory in each); an agent whose partitions disagree is
/// refused by name, since no merge of two memories is right for every program.
fn upgrade_from_1(client: &mut Client, ns: &Namespace) -> Result<(), Error> {
    let mut tx = client.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock($1, -1)", &[&ns.append_key()])?;
    let version: String = tx.query_one("SELECT value FROM meta WHERE key = 'version'", &[])?.get(0);
    if version != "1" {
        return Ok(());
    }
    let split: Vec<String> = tx
        .query("SELECT name FROM agents GROUP BY name HAVING COUNT(DISTINCT memory) > 1 ORDER BY name", &[])?
        .iter()
        .map(|r| r.get(0))
        .collect();
    if !split.is_empty() {
        return Err(Error::Store(format!(
            "the Postgres schema {schema} is a version 1 store, whose agents kept a memory per partition, and \
             the agent(s) {names} hold different memories in different partitions; this expresso keeps one \
             memory per agent\n  = fix: keep one partition's memory of each (`DELETE FROM {schema}.agents \
             WHERE name = '...' AND part <> N`), then start again",
            schema = ns.schema,
            names = split.join(", ")
        )));
    }
    tx.batch_execute(TABLES_2)?;
    tx.execute(
        "INSERT INTO memory (name, memory) SELECT DISTINCT ON (name) name, memory FROM agents ORDER BY name
         ON CONFLICT (name) DO NOTHING",
        &[],
    )?;
    tx.execute("UPDATE meta SET value = $1 WHERE key = 'version'", &[&SCHEMA_VERSION])?;
    tx.commit()?;
    Ok(())
}

/// Where one deployment lives in a database: its schema, and the advisory-lock keys derived from the
/// schema's name, so two deployments in one database never take each other's locks.
#[derive(Debug, Clone)]
pub struct Namespace {
    pub url: String,
    pub schema: String,
    pub partitions: u32,
}

impl Namespace {
    fn base(&self) -> i32 {
        let mut hash: u32 = 0x811c_9dc5;
        for byte in self.schema.bytes() {
            hash ^= byte as u32;
            hash = hash.wrapping_mul(0x0100_0193);
        }
        // Four consecutive keys, all positive.
        ((hash & 0x3fff_ffff) as i32) & !3
    }
    /// `(key, partition)`: the lease of a partition.
    pub fn lease_key(&self) -> i32 {
        self.base()
    }
    /// `(key, worker id)`: held by each live worker, so workers can count each other.
    pub fn presence_key(&self) -> i32 {
        self.base() + 1
    }
    /// `(key, 0)`: held by an append for its transaction, so log positions become visible in order.
    pub fn append_key(&self) -> i32 {
        self.base() + 2
    }
    /// `(key, hash of the agent's name)`: held by a batch for its transaction, so one agent's memory is
    /// run by one partition at a time.
    pub fn memory_key(&self) -> i32 {
        self.base() + 3
    }
}

/// Opens a connection, with the deployment's schema made and chosen.
pub fn connect(ns: &Namespace) -> Result<Client, Error> {
    if !ns.schema.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_') || ns.schema.is_empty() {
        return Err(Error::Store(format!(
            "the Postgres schema `{}` must be lower-case letters, digits and `_`",
            ns.schema
        )));
    }
    let mut config: postgres::Config =
        ns.url.parse().map_err(|e| Error::Store(format!("the Postgres URL does not read: {e}")))?;
    config.connect_timeout(std::time::Duration::from_secs(5));
    config.application_name("expresso");
    let mut client = config.connect(NoTls)?;
    let schema = &ns.schema;
    // Statements are prepared once per connection; each run is still planned for its own values (a plan
    // made for no values in particular, which Postgres switches to after five runs, reads a partition's
    // log badly once it has grown).
    client.batch_execute(&format!("SET search_path TO {schema}; SET plan_cache_mode TO force_custom_plan"))?;
    // The tables are made once. Only when they are missing: `CREATE INDEX IF NOT EXISTS` takes a lock on
    // its table even when the index is there, which would stall the log's appends at every new connection.
    let made: Option<String> = client.query_one("SELECT to_regclass('meta')::text", &[])?.get(0);
    if made.is_none() {
        // Two workers starting at once may both make them: the making is serialized by a lock held to the
        // end of its transaction (the statements of one batch are one transaction).
        client.batch_execute(&format!(
            "SELECT pg_advisory_xact_lock({key}, -1);
             CREATE SCHEMA IF NOT EXISTS {schema};
             {TABLES}
             {TABLES_2}
             INSERT INTO meta (key, value) VALUES ('version', '{SCHEMA_VERSION}') ON CONFLICT (key) DO NOTHING;",
            key = ns.append_key()
        ))?;
    }
    let mut version: String = client.query_one("SELECT value FROM meta WHERE key = 'version'", &[])?.get(0);
    if version == "1" {
        upgrade_from_1(&mut client, ns)?;
        version = client.query_one("SELECT value FROM meta WHERE key = 'version'", &[])?.get(0);
    }
    if version != SCHEMA_VERSION {
        return Err(Error::Store(format!(
            "the Postgres schema {schema} is a version {version} store; this expresso reads version {SCHEMA_VERSION}"
        )));
    }
    Ok(client)
}
