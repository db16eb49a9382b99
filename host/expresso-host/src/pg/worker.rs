//! A `serve` worker on Postgres: it takes its share of the partitions, runs each through the protocol,
//! and gives back what it holds past its share when more workers come.
//!
//! Its share is the partition count over the number of live workers, rounded up; a worker counts the
//! live ones by their presence locks, which die with their connections as leases do. So a worker that is
//! killed frees its partitions at once, and the others take them at their next look (every
//! `rebalance_every`), rebuild their state from the store and send their `intent` receipts again.

use super::partition_store::{self, PartitionStore};
use super::{Namespace, connect};

use crate::error::Error;
use crate::host::Host;
use crate::metrics::Metrics;
use crate::serve::Processor;
use expresso_runtime::Event;
use postgres::Client;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Makes the protocol over a partition just leased (the program, the sinks, the provider).
pub type MakeHost = Box<dyn FnMut(PartitionStore) -> Result<Host<PartitionStore>, Error> + Send>;

#[derive(Debug, Clone)]
pub struct WorkerOptions {
    /// How often the worker looks at its share and the free partitions.
    pub rebalance_every: Duration,
}

impl Default for WorkerOptions {
    fn default() -> WorkerOptions {
        WorkerOptions { rebalance_every: Duration::from_millis(300) }
    }
}

struct Held {
    host: Host<PartitionStore>,
    /// After a fault, the partition rests until then.
    resting_until: Option<Instant>,
    pause: Duration,
}

pub struct Worker {
    ns: Namespace,
    options: WorkerOptions,
    make: MakeHost,
    id: i32,
    /// Ingest and presence: the connection the worker is counted by.
    control: Option<Client>,
    spare: Option<Client>,
    held: BTreeMap<i32, Held>,
    next_look: Instant,
    reconnect_at: Instant,
    reconnect_pause: Duration,
    metrics: Arc<Metrics>,
    last_seq: i64,
    cursor: i64,
}

impl Worker {
    pub fn new(ns: Namespace, options: WorkerOptions, make: MakeHost) -> Worker {
        let now = Instant::now();
        Worker {
            ns,
            options,
            make,
            id: fastrand::i32(1..i32::MAX),
            control: None,
            spare: None,
            held: BTreeMap::new(),
            next_look: now,
            reconnect_at: now,
            reconnect_pause: Duration::from_millis(50),
            metrics: Arc::new(Metrics::default()),
            last_seq: 0,
            cursor: 0,
        }
    }

    /// The partitions this worker holds now.
    pub fn partitions(&self) -> Vec<i32> {
        self.held.keys().copied().collect()
    }

    /// A connection named after this worker, so an operator (and a test) sees whose each lease is.
    fn open(&self) -> Result<Client, Error> {
        let mut client = connect(&self.ns)?;
        client.batch_execute(&format!("SET application_name TO 'expresso worker {}'", self.id))?;
        Ok(client)
    }

    fn control(&mut self) -> Result<&mut Client, Error> {
        if self.control.as_ref().is_some_and(|c| c.is_closed()) {
            self.control = None;
        }
        if self.control.is_none() {
            if Instant::now() < self.reconnect_at {
                return Err(Error::Store("postgres: waiting to reconnect".into()));
            }
            let connected = self.open().and_then(|mut c| {
                c.execute("SELECT pg_advisory_lock($1, $2)", &[&self.ns.presence_key(), &self.id])?;
                Ok(c)
            });
            match connected {
                Ok(c) => {
                    self.control = Some(c);
                    self.reconnect_pause = Duration::from_millis(50);
                }
                Err(e) => {
                    self.reconnect_at = Instant::now() + self.reconnect_pause;
                    self.reconnect_pause = (self.reconnect_pause * 2).min(Duration::from_secs(1));
                    return Err(e);
                }
            }
        }
        Ok(self.control.as_mut().expect("connected above"))
    }

    /// Drops whatever failed on its connection (the control link, a spare) so it is made again.
    fn on_error<T>(&mut self, result: Result<T, Error>) -> Result<T, Error> {
        if result.is_err() {
            if self.control.as_ref().is_some_and(|c| c.is_closed()) {
                self.control = None;
            }
            if self.spare.as_ref().is_some_and(|c| c.is_closed()) {
                self.spare = None;
            }
        }
        result
    }

    /// Takes free partitions up to this worker's share, and gives back what is over it.
    fn rebalance(&mut self) -> Result<(), Error> {
        let (presence, partitions) = (self.ns.presence_key(), self.ns.partitions as i64);
        let live: i64 = self
            .control()?
            .query_one(
                "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2
                   AND classid = $1::int4::oid
                   AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
                &[&presence],
            )?
            .get(0);
        let share = ((partitions + live.max(1) - 1) / live.max(1)) as usize;
        while self.held.len() > share {
            let Some((&part, _)) = self.held.iter().next_back() else { break };
            if let Some(held) = self.held.remove(&part) {
                let store = held.host.into_store();
                self.spare = store.release();
            }
        }
        // Each worker starts its search at its own place, so two workers do not race for the same ones.
        let start = (self.id as u32 % self.ns.partitions.max(1)) as i32;
        for k in 0..self.ns.partitions as i32 {
            if self.held.len() >= share {
                break;
            }
            let part = (start + k) % self.ns.partitions as i32;
            if self.held.contains_key(&part) {
                continue;
            }
            let client = match self.spare.take() {
                Some(c) if !c.is_closed() => c,
                _ => self.open()?,
            };
            match PartitionStore::lease(client, &self.ns, part)? {
                Err(client) => self.spare = Some(client),
                Ok(store) => {
                    let mut host = (self.make)(store)?;
                    host.metrics = self.metrics.clone();
                    // Taking over: the state is rebuilt from the store and every `intent` sent again.
                    if let Err(e) = host.recover() {
                        eprintln!("expresso serve: partition {part}: recovery: {e}");
                        continue;
                    }
                    eprintln!("expresso serve: worker {} leased partition {part}", self.id);
                    self.held.insert(part, Held { host, resting_until: None, pause: Duration::from_millis(50) });
                }
            }
        }
        Ok(())
    }
}

impl Processor for Worker {
    fn metrics(&self) -> Arc<Metrics> {
        self.metrics.clone()
    }

    fn append(&mut self, events: &[Event]) -> Result<Vec<bool>, Error> {
        let ns = self.ns.clone();
        let result = self.control().and_then(|c| partition_store::append(c, &ns, events));
        self.on_error(result)
    }

    fn last_seq(&mut self) -> Result<i64, Error> {
        let result = self.control().and_then(partition_store::last_seq);
        let seq = self.on_error(result)?;
        self.last_seq = seq;
        Ok(seq)
    }

    fn recover(&mut self) -> Result<usize, Error> {
        let result = self.rebalance();
        self.on_error(result)?;
        self.next_look = Instant::now() + self.options.rebalance_every;
        Ok(0)
    }

    fn step(&mut self) -> Result<usize, Error> {
        let now = Instant::now();
        if now >= self.next_look {
            self.next_look = now + self.options.rebalance_every;
            let result = self.rebalance();
            if let Err(e) = self.on_error(result) {
                eprintln!("expresso serve: worker {}: {e}", self.id);
            }
        }
        // Each partition steps on a thread of its own: their commits then wait on the disk together, and
        // Postgres syncs them in one flush (its group commit), where one after another each waits alone.
        let now = Instant::now();
        let results: Vec<(i32, Result<usize, Error>, i64, bool)> = std::thread::scope(|scope| {
            let running: Vec<_> = self
                .held
                .iter_mut()
                .filter(|(_, held)| held.resting_until.is_none_or(|t| now >= t))
                .map(|(&part, held)| {
                    scope.spawn(move || {
                        let result = held.host.step_batch();
                        (part, result, held.host.cursor(), held.host.db().is_closed())
                    })
                })
                .collect();
            running.into_iter().map(|h| h.join().expect("a partition's step panicked")).collect()
        });
        let mut consumed = 0;
        let mut lost = Vec::new();
        let mut cursor: Option<i64> = None;
        for (part, result, at, closed) in results {
            let Some(held) = self.held.get_mut(&part) else { continue };
            match result {
                Ok(n) => {
                    consumed += n;
                    held.resting_until = None;
                    held.pause = Duration::from_millis(50);
                    if n > 0 {
                        cursor = Some(cursor.map_or(at, |c| c.min(at)));
                    }
                }
                Err(e) => {
                    eprintln!("expresso serve: partition {part}: {e}");
                    if closed || matches!(e, Error::Store(_)) {
                        // The connection, and with it the lease, is gone (or the fence refused): another
                        // worker, or this one at its next look, takes the partition and recovers it.
                        lost.push(part);
                    } else {
                        held.resting_until = Some(Instant::now() + held.pause);
                        held.pause = (held.pause * 2).min(Duration::from_secs(5));
                    }
                }
            }
        }
        for part in lost {
            self.held.remove(&part);
            self.next_look = self.next_look.min(Instant::now() + Duration::from_millis(50));
        }
        self.cursor = cursor.unwrap_or(self.last_seq);
        Ok(consumed)
    }

    fn cursor(&self) -> i64 {
        self.cursor
    }

    /// Events another worker appended wake no one here: the partitions are looked at again this soon.
    fn idle_wait(&self) -> Duration {
        Duration::from_millis(10)
    }

    fn ingest(
        &mut self,
        events: &[Event],
        window: crate::watermark::Window,
    ) -> Result<Vec<crate::watermark::Fate>, Error> {
        let ns = self.ns.clone();
        let now = crate::sinks::now_ms();
        let result = self.control().and_then(|c| super::stage::stage(c, &ns, events, window, now));
        self.on_error(result)
    }

    fn release(&mut self, window: crate::watermark::Window) -> Result<usize, Error> {
        let ns = self.ns.clone();
        let now = crate::sinks::now_ms();
        let result = self.control().and_then(|c| super::stage::release(c, &ns, window, now));
        self.on_error(result)
    }

    fn next_retry_ms(&mut self) -> Result<Option<i64>, Error> {
        let mut next: Option<i64> = None;
        for held in self.held.values_mut() {
            if let Ok(Some(t)) = held.host.next_retry_ms() {
                next = Some(next.map_or(t, |n| n.min(t)));
            }
        }
        Ok(next)
    }

    fn sweep(&mut self) -> Result<usize, Error> {
        let sent = std::thread::scope(|scope| {
            let running: Vec<_> = self
                .held
                .iter_mut()
                .map(|(&part, held)| {
                    scope.spawn(move || match held.host.sweep() {
                        Ok(n) => n,
                        Err(e) => {
                            eprintln!("expresso serve: partition {part}: {e}");
                            0
                        }
                    })
                })
                .collect();
            running.into_iter().map(|h| h.join().unwrap_or(0)).sum()
        });
        Ok(sent)
    }
}
