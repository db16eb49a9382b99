//! The write-ahead protocol over the store.
//!
//! A batch of events runs in memory against the journal and world entries of those events. Then one
//! transaction commits its new journal entries, each new effect's receipt as `intent`, the dedup rows,
//! each agent's memory and the cursor past the batch. Only then is each receipt handed to its sink; the
//! ones a sink took are marked `done` in one more transaction. A crash before the commit loses nothing
//! (the events are in the log and run again); a crash after it leaves `intent` rows, which recovery sends
//! again with the same `Idempotency-Key`; a `done` row is never sent again, and no receipt of any status
//! lets the runtime apply its effect a second time.

use crate::error::Error;
use crate::fault;
use crate::log_store::LogStore;
use crate::metrics::Metrics;
use crate::sinks::{Delivered, Sinks, now_ms};
use crate::store::{BatchWrite, Db, Intent, STARTED_MS};
use expresso_lang::Compiled;
use expresso_runtime::{Carry, MemoryStore, Provider, Runtime, Store};
use serde_json::Value;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// Events run per batch (one commit for all of them).
pub const DEFAULT_BATCH: usize = 256;
/// Receipts delivered per sweep of the `intent` rows.
const SWEEP_LIMIT: usize = 256;
/// Tries a faulting firing gets, the first included, before it is parked (on a store that parks): the
/// retry policy `run` also asks a provider's transient fault again by (`expresso_runtime::retry`).
pub const FIRING_TRIES: u32 = expresso_runtime::retry::TRIES;
/// The pause after a firing's first fault before its event runs again; it doubles with each try, up to
/// [`FIRING_RETRY_MAX_MS`]. With 5 tries a poison event holds the log about 1.5 s in all, then is parked.
pub const FIRING_RETRY_FIRST_MS: i64 = expresso_runtime::retry::FIRST_PAUSE_MS as i64;
pub const FIRING_RETRY_MAX_MS: i64 = expresso_runtime::retry::MAX_PAUSE_MS as i64;
/// Parked firings an operator asked to retry, run per step at most.
const RETRIES_PER_STEP: usize = 16;

/// The protocol over a store: SQLite's `Db` by default, or one Postgres partition.
pub struct Host<S: LogStore = Db> {
    compiled: Compiled,
    db: S,
    sinks: Sinks,
    provider: Box<dyn Provider + Send>,
    carry: Option<Carry>,
    cursor: i64,
    /// After a runtime fault, events run one per batch until one succeeds (on a store that parks, until
    /// the cursor is past the faulting event), so the ones before the faulting event are committed.
    careful: bool,
    /// The log position of the event whose firing faulted last: events run one per batch until the
    /// cursor is past it, and it does not run again before `hold_until_ms`.
    fault_seq: i64,
    hold_until_ms: i64,
    /// Tries so far of each firing that faulted and is not yet parked, by `(agent, event id)`; in memory
    /// only, so a restart gives them their tries again.
    tries: HashMap<(String, String), u32>,
    pub metrics: Arc<Metrics>,
    pub batch: usize,
    /// Tries a faulting firing gets before it is parked ([`FIRING_TRIES`] unless set).
    pub firing_tries: u32,
    /// The program's timers, which the host's clock drives (`crate::timers`).
    pub timers: crate::timers::Timers,
    /// What a delivered receipt writes back into the log (`crate::feedback`).
    pub feedback: crate::feedback::Feedback,
}

/// A journal that notes which event each new entry belongs to.
struct Tagged<'c> {
    inner: MemoryStore,
    current: &'c RefCell<String>,
    events: Vec<String>,
}

impl Tagged<'_> {
    /// The entries written after the first `before`, each with the event that wrote it.
    fn since(&self, before: usize) -> Vec<(String, String, Value)> {
        self.entries()
            .into_iter()
            .skip(before)
            .zip(self.events.iter())
            .map(|((k, v), e)| (k.to_string(), e.clone(), v.clone()))
            .collect()
    }
}

impl Store for Tagged<'_> {
    fn get(&self, key: &str) -> Option<&Value> {
        self.inner.get(key)
    }
    fn put(&mut self, key: String, value: Value) -> Result<(), expresso_runtime::Error> {
        self.events.push(self.current.borrow().clone());
        self.inner.put(key, value)
    }
    fn flush(&mut self) -> Result<(), expresso_runtime::Error> {
        Ok(())
    }
    fn entries(&self) -> Vec<(&str, &Value)> {
        self.inner.entries()
    }
    fn len(&self) -> usize {
        self.inner.len()
    }
}

impl<S: LogStore> Host<S> {
    pub fn new(compiled: Compiled, db: S, sinks: Sinks, provider: Box<dyn Provider + Send>) -> Host<S> {
        let timers = crate::timers::Timers::of(&compiled.program);
        Host {
            feedback: crate::feedback::Feedback::of(&compiled),
            compiled,
            db,
            sinks,
            provider,
            carry: None,
            cursor: 0,
            careful: false,
            fault_seq: 0,
            hold_until_ms: 0,
            tries: HashMap::new(),
            metrics: Arc::new(Metrics::default()),
            batch: DEFAULT_BATCH,
            firing_tries: FIRING_TRIES,
            timers,
        }
    }

    pub fn db(&self) -> &S {
        &self.db
    }

    pub fn db_mut(&mut self) -> &mut S {
        &mut self.db
    }

    /// Gives the store back (a partition's lease, to release it).
    pub fn into_store(self) -> S {
        self.db
    }

    /// The log position every agent has read to.
    pub fn cursor(&self) -> i64 {
        self.cursor
    }

    /// Rebuilds what the runtime carries from the store: each agent's memory, the cursor (the least of
    /// the agents', so an agent added to the program reads the log from its start), and the frames, by
    /// observing every event up to the cursor again.
    fn rebuild(&mut self) -> Result<Carry, Error> {
        let mut carry = Carry::new(&self.compiled);
        let mut cursor: Option<i64> = None;
        for (i, agent) in self.compiled.program.agents.iter().enumerate() {
            let found = self.db.agent(&agent.name.text)?;
            let at = match found {
                Some((memory, at)) => {
                    if let Some(state) = carry.state_mut(i) {
                        state.memory = memory;
                    }
                    at
                }
                None => 0,
            };
            cursor = Some(cursor.map_or(at, |c: i64| c.min(at)));
        }
        self.cursor = cursor.unwrap_or(0);
        let mut at = 0;
        while at < self.cursor {
            let chunk = self.db.events_after(at, 1_000)?;
            let Some(last) = chunk.last().map(|(seq, _)| *seq) else { break };
            for (seq, event) in &chunk {
                if *seq <= self.cursor {
                    carry.observe(event);
                }
            }
            at = last;
        }
        Ok(carry)
    }

    /// Recovery, at start: every `intent` receipt is sent again with its own key.
    pub fn recover(&mut self) -> Result<usize, Error> {
        if self.carry.is_none() {
            let carry = self.rebuild()?;
            self.carry = Some(carry);
        }
        let mut sent = 0;
        loop {
            let due = self.db.due_intents(i64::MAX, SWEEP_LIMIT)?;
            if due.is_empty() {
                return Ok(sent);
            }
            let before = self.db.counts()?.intent;
            sent += due.len();
            self.deliver(due)?;
            // A sink that is down leaves its receipts `intent`, to be retried by the sweep later.
            if self.db.counts()?.intent >= before {
                return Ok(sent);
            }
        }
    }

    /// Sends the `intent` receipts whose next try is due. Returns how many it tried.
    pub fn sweep(&mut self) -> Result<usize, Error> {
        let due = self.db.due_intents(now_ms(), SWEEP_LIMIT)?;
        let n = due.len();
        if n > 0 {
            self.deliver(due)?;
        }
        Ok(n)
    }

    /// When the next `intent` receipt is due, if any is waiting.
    pub fn next_retry_ms(&mut self) -> Result<Option<i64>, Error> {
        self.db.next_retry_ms()
    }

    /// On a store whose agents' memory other runners share (Postgres's partitions), each agent that has
    /// memory gets it as the store holds it now, locked until this batch's commit.
    fn fresh_memory(&mut self, carry: &mut Carry) -> Result<(), Error> {
        let agents = &self.compiled.program.agents;
        let names: Vec<&str> = agents.iter().filter(|a| !a.memory.is_empty()).map(|a| a.name.text.as_str()).collect();
        let Some(mut fresh) = self.db.lock_memory(&names)? else { return Ok(()) };
        for (i, agent) in agents.iter().enumerate() {
            if let (Some(memory), Some(state)) = (fresh.remove(&agent.name.text), carry.state_mut(i)) {
                state.memory = memory;
            }
        }
        Ok(())
    }

    /// Runs the next batch of the log through the protocol. Returns how many events it consumed.
    ///
    /// On a store that parks, each agent's firing faults on its own: a faulting firing holds the log
    /// (the events before it go through one per batch) and runs again after a pause that doubles, up to
    /// [`Host::firing_tries`] tries; then it is parked with its reason in the batch's commit, and the batch,
    /// every other agent's firings on the same event included, goes on without it. Parked firings an
    /// operator asked to retry run first.
    pub fn step_batch(&mut self) -> Result<usize, Error> {
        if self.db.parks() {
            self.run_retries()?;
        }
        // The timers due now append their events first, so this batch runs them.
        let fired = self.db.fire_timers(&mut self.timers, now_ms())?;
        Metrics::add(&self.metrics.timer_events, fired as u64);
        let limit = if self.careful { 1 } else { self.batch.max(1) };
        let clock = std::time::Instant::now();
        let events = self.db.events_after(self.cursor, limit)?;
        if events.is_empty() {
            return Ok(0);
        }
        if self.careful && events[0].0 >= self.fault_seq && now_ms() < self.hold_until_ms {
            // The faulting firing's pause is not over: nothing runs past it yet.
            return Ok(0);
        }
        let mut carry = match self.carry.take() {
            Some(carry) => carry,
            None => self.rebuild()?,
        };
        let ids: Vec<&str> = events.iter().map(|(_, e)| e.id.as_str()).collect();
        let agents: Vec<String> = self.compiled.program.agents.iter().map(|a| a.name.text.clone()).collect();
        let mut before = Vec::with_capacity(agents.len());
        for (i, name) in agents.iter().enumerate() {
            let seen = self.db.dedup_of(name, &ids)?;
            if let Some(state) = carry.state_mut(i) {
                state.dedup = seen.clone();
            }
            before.push(seen);
        }
        let current = RefCell::new(String::new());
        let mut journal = Tagged { inner: self.db.journal_of(&ids)?, current: &current, events: Vec::new() };
        let mut world = self.db.world_of(&ids)?;
        let (journal_before, world_before) = (journal.len(), world.len());

        Metrics::time(&self.metrics.read_us, clock);
        let clock = std::time::Instant::now();
        let isolate = self.db.parks();
        // The memory lock last, just before the run: the reads above are of this batch's own events.
        self.fresh_memory(&mut carry)?;
        let mut runtime = Runtime::resume(&self.compiled, carry, &mut journal, &mut world, &*self.provider);
        runtime.record_steps(false);
        let mut fault = None;
        // Each faulting firing: the event's log position and id, the agent's place, the fault.
        let mut faults: Vec<(i64, String, usize, expresso_runtime::Error)> = Vec::new();
        for (seq, event) in &events {
            *current.borrow_mut() = event.id.clone();
            if isolate {
                for (agent, e) in runtime.step_isolated(event) {
                    faults.push((*seq, event.id.clone(), agent, e));
                }
            } else if let Err(e) = runtime.step(event) {
                fault = Some(e);
                break;
            }
        }
        let (carry, outcome) = runtime.into_carry();
        Metrics::time(&self.metrics.run_us, clock);
        fault::point("after-step");
        let clock = std::time::Instant::now();

        let new_journal: Vec<(String, String, Value)> = journal.since(journal_before);
        Metrics::add(&self.metrics.provider_calls, outcome.provider_calls as u64);

        if let Some(e) = fault {
            // The answers the provider gave are kept; nothing else of the batch is, and the carry (which
            // the faulting event may have half-changed) is rebuilt from the store.
            self.db.commit_batch(&BatchWrite { journal: new_journal, ..BatchWrite::default() })?;
            Metrics::add(&self.metrics.runtime_faults, 1);
            self.carry = None;
            self.careful = true;
            return Err(Error::Runtime(e));
        }

        // Each faulting firing counts a try; while one has tries left, the batch is not committed (but
        // the provider's answers are) and the log waits for its pause, so a fault that passes by itself
        // keeps the log's order.
        let mut parked = Vec::new();
        let mut waiting: Option<(i64, u32, expresso_runtime::Error)> = None;
        for (seq, event, agent, e) in faults {
            let key = (agents[agent].clone(), event);
            let tries = self.tries.entry(key.clone()).or_insert(0);
            *tries = tries.saturating_add(1);
            if *tries >= self.firing_tries {
                parked.push((key, seq, *tries, e));
            } else if waiting.is_none() {
                waiting = Some((seq, *tries, e));
            }
        }
        if let Some((seq, tries, e)) = waiting {
            self.db.commit_batch(&BatchWrite { journal: new_journal, ..BatchWrite::default() })?;
            Metrics::add(&self.metrics.runtime_faults, 1);
            self.carry = None;
            self.careful = true;
            self.fault_seq = seq;
            let pause = expresso_runtime::retry::pause_ms(tries) as i64;
            self.hold_until_ms = now_ms() + pause;
            return Err(Error::Runtime(e));
        }

        let mut write = BatchWrite { journal: new_journal, ..BatchWrite::default() };
        let mut intents = Vec::new();
        // A parked firing's effects (those it applied before its fault) are not sent: it did not finish.
        let parked_firing = |receipt: &Value| {
            let of = |k: &str| receipt.get(k).and_then(Value::as_str).unwrap_or("");
            parked.iter().any(|((agent, event), ..)| of("agent") == agent && of("event") == event)
        };
        for (key, receipt) in world.entries().into_iter().skip(world_before) {
            if parked_firing(receipt) {
                continue;
            }
            let event = receipt.get("event").and_then(Value::as_str).unwrap_or("").to_string();
            let capability = receipt.get("effect").and_then(Value::as_str).unwrap_or("").to_string();
            write.intents.push((key.to_string(), event, capability.clone(), receipt.clone()));
            intents.push(Intent {
                key: key.to_string(),
                capability,
                receipt: receipt.clone(),
                attempts: 0,
                started: false,
            });
        }
        for (i, name) in agents.iter().enumerate() {
            if let Some(state) = carry.state(i) {
                for id in state.dedup.difference(&before[i]) {
                    write.dedup.push((name.clone(), id.clone()));
                }
                write.memory.push((name.clone(), state.memory.clone()));
            }
        }
        for ((agent, event), seq, tries, e) in &parked {
            write.parked.push((agent.clone(), event.clone(), *seq, i64::from(*tries), e.to_string()));
        }
        write.cursor = events.last().map(|(seq, _)| *seq).unwrap_or(self.cursor);
        self.db.commit_batch(&write)?;
        Metrics::time(&self.metrics.commit_us, clock);
        Metrics::add(&self.metrics.batches, 1);
        fault::point("after-intent");
        self.cursor = write.cursor;
        self.carry = Some(carry);
        if self.cursor >= self.fault_seq {
            self.careful = false;
        }
        // The batch's events are past: the tries of their firings (parked, or faulted and then ran) go.
        self.tries.retain(|(_, event), _| !ids.contains(&event.as_str()));

        let m = &self.metrics;
        Metrics::add(&m.events_processed, events.len() as u64);
        Metrics::add(&m.firings, outcome.firings as u64);
        Metrics::add(&m.effects_deduplicated, outcome.deduped_effects as u64);
        Metrics::add(&m.firings_parked, parked.len() as u64);
        if !intents.is_empty() {
            let clock = std::time::Instant::now();
            self.deliver(intents)?;
            Metrics::time(&self.metrics.deliver_us, clock);
        }
        Ok(events.len())
    }

    /// Runs once more each parked firing an operator asked to retry: the agent alone on its event, with
    /// its memory as it is now and the partition's frames as they are now. A firing that runs commits its
    /// effects, dedup row and memory with its new state `retried`; one that faults again is parked again
    /// with the new reason (its provider answers kept). Returns how many it ran.
    pub fn run_retries(&mut self) -> Result<usize, Error> {
        let due = self.db.retries_due(RETRIES_PER_STEP)?;
        for row in &due {
            let mut carry = match self.carry.take() {
                Some(carry) => carry,
                None => self.rebuild()?,
            };
            self.fresh_memory(&mut carry)?;
            let index = self.compiled.program.agents.iter().position(|a| a.name.text == row.agent);
            let event = self.db.event_at(row.seq)?.filter(|e| e.id == row.event);
            let (Some(index), Some(event)) = (index, event) else {
                self.carry = Some(carry);
                let reason = format!("the agent {} or the event at log position {} is gone", row.agent, row.seq);
                self.db.commit_retry(
                    &BatchWrite { cursor: self.cursor, ..BatchWrite::default() },
                    row.id,
                    Some(&reason),
                )?;
                continue;
            };
            let ids = [event.id.as_str()];
            let seen = self.db.dedup_of(&row.agent, &ids)?;
            if let Some(state) = carry.state_mut(index) {
                state.dedup = seen.clone();
            }
            let current = RefCell::new(event.id.clone());
            let mut journal = Tagged { inner: self.db.journal_of(&ids)?, current: &current, events: Vec::new() };
            let mut world = self.db.world_of(&ids)?;
            let (journal_before, world_before) = (journal.len(), world.len());
            let mut runtime = Runtime::resume(&self.compiled, carry, &mut journal, &mut world, &*self.provider);
            runtime.record_steps(false);
            let result = runtime.fire_again(&event, index);
            let (carry, outcome) = runtime.into_carry();
            Metrics::add(&self.metrics.provider_calls, outcome.provider_calls as u64);
            let new_journal: Vec<(String, String, Value)> = journal.since(journal_before);
            let mut write = BatchWrite { journal: new_journal, cursor: self.cursor, ..BatchWrite::default() };
            let fault = match result {
                Err(e) => Some(e.to_string()),
                Ok(_) => {
                    for (key, receipt) in world.entries().into_iter().skip(world_before) {
                        let capability = receipt.get("effect").and_then(Value::as_str).unwrap_or("").to_string();
                        write.intents.push((key.to_string(), event.id.clone(), capability, receipt.clone()));
                    }
                    if let Some(state) = carry.state(index)
                        && state.dedup.contains(&event.id)
                        && !seen.contains(&event.id)
                    {
                        write.dedup.push((row.agent.clone(), event.id.clone()));
                    }
                    for (i, agent) in self.compiled.program.agents.iter().enumerate() {
                        if let Some(state) = carry.state(i) {
                            write.memory.push((agent.name.text.clone(), state.memory.clone()));
                        }
                    }
                    None
                }
            };
            if !self.db.commit_retry(&write, row.id, fault.as_deref())? {
                // Skipped meanwhile: nothing of the run was written, and the carry it changed is rebuilt.
                self.carry = None;
                continue;
            }
            self.carry = Some(carry);
            if fault.is_some() {
                Metrics::add(&self.metrics.runtime_faults, 1);
                continue;
            }
            let intents: Vec<Intent> = write
                .intents
                .into_iter()
                .map(|(key, _, capability, receipt)| Intent { key, capability, receipt, attempts: 0, started: false })
                .collect();
            if !intents.is_empty() {
                self.deliver(intents)?;
            }
        }
        Ok(due.len())
    }

    /// Hands receipts to their sinks, in order, grouped by sink; marks the ones taken `done` in one
    /// transaction. A sink that fails is not called again in this round: its remaining receipts wait for
    /// the sweep, so one receiver's outage does not hold the others up for long.
    fn deliver(&mut self, intents: Vec<Intent>) -> Result<(), Error> {
        let mut done = Vec::new();
        // Receipts not sent this round, each with its next try: deferred only once the delivered ones are
        // marked `done`, so a crash or a failing write in between cannot leave a delivered receipt `intent`.
        let mut put_off: Vec<(String, i64)> = Vec::new();
        let mut down: HashSet<String> = HashSet::new();
        // Receipts taken whose feedback the program or configuration asks for, with the sink's answer.
        let mut taken: Vec<(Value, Option<Value>)> = Vec::new();
        let mut i = 0;
        while i < intents.len() {
            let sink_name = self.sinks.route(&intents[i].capability).map(str::to_string);
            let mut j = i + 1;
            while j < intents.len() && self.sinks.route(&intents[j].capability).map(str::to_string) == sink_name {
                j += 1;
            }
            let group: Vec<&Intent> = intents[i..j].iter().collect();
            i = j;
            let Some(name) = sink_name else {
                for item in group {
                    let reason = format!("no sink is mapped for the capability {}", item.capability);
                    self.db.mark_held(&item.key, &reason)?;
                    Metrics::add(&self.metrics.effects_held, 1);
                }
                continue;
            };
            let Some(sink) = self.sinks.get_mut(&name) else { continue };
            // The failed receipt's next try. The ones put off behind it come due just after it, all at once,
            // so the sweep (which takes due receipts in the order they were made) sends them after it and in
            // their order, to a sink that keeps order.
            let mut failed_next = 0i64;
            let after_failed =
                |failed_next: i64, item: &Intent| if failed_next > 0 { failed_next + 1 } else { retry_at(item) };
            let chunks: Vec<Vec<&Intent>> =
                if sink.batches() { vec![group] } else { group.into_iter().map(|g| vec![g]).collect() };
            for chunk in chunks {
                if down.contains(&name) {
                    put_off.extend(chunk.iter().map(|item| (item.key.clone(), after_failed(failed_next, item))));
                    continue;
                }
                let chunk = if sink.at_most_once() {
                    // Its effect is not idempotent by key: one it began on and never saw end may have acted,
                    // and is held for a person. The mark goes down before the run, so a crash during the run
                    // leaves it for recovery to hold rather than run again.
                    let mut fresh = Vec::with_capacity(chunk.len());
                    for item in chunk {
                        if item.started {
                            let reason = format!(
                                "sink {name} began this run and its end was never recorded (the host stopped); it may have acted, so it is held for a person"
                            );
                            self.db.mark_held(&item.key, &reason)?;
                            Metrics::add(&self.metrics.effects_held, 1);
                        } else {
                            self.db.defer(&item.key, STARTED_MS)?;
                            fresh.push(item);
                        }
                    }
                    fresh
                } else {
                    chunk
                };
                if chunk.is_empty() {
                    continue;
                }
                let results = sink.deliver(&chunk);
                for (item, result) in chunk.iter().zip(results) {
                    match result {
                        Delivered::Done | Delivered::Answered(_) => {
                            fault::point("after-dispatch");
                            done.push(item.key.clone());
                            let answer = match &result {
                                Delivered::Answered(answer) => Some(answer.clone()),
                                _ => None,
                            };
                            if self.feedback.wants(&item.receipt) {
                                taken.push((item.receipt.clone(), answer));
                            }
                        }
                        Delivered::Retry(reason) => {
                            Metrics::add(&self.metrics.sink_errors, 1);
                            down.insert(name.clone());
                            let next = retry_at(item);
                            failed_next = failed_next.max(next);
                            self.db.mark_failed(&item.key, &reason, next)?;
                        }
                        Delivered::Held(reason) => {
                            Metrics::add(&self.metrics.sink_errors, 1);
                            Metrics::add(&self.metrics.effects_held, 1);
                            self.db.mark_held(&item.key, &reason)?;
                        }
                        Delivered::PutOff => put_off.push((item.key.clone(), after_failed(failed_next, item))),
                    }
                }
            }
        }
        // What came back goes into the log before the `done` mark: a crash in between sends the receipt
        // again, and the log keeps each event's `(id, rev)` once.
        self.feed_back(taken)?;
        self.db.mark_done(&done)?;
        fault::point("after-done");
        for (key, next) in &put_off {
            self.db.defer(key, *next)?;
        }
        Metrics::add(&self.metrics.effects_applied, done.len() as u64);
        Ok(())
    }

    /// Appends the events the taken receipts give back (`crate::feedback`), each built from its firing
    /// event as the log holds it.
    fn feed_back(&mut self, taken: Vec<(Value, Option<Value>)>) -> Result<(), Error> {
        let mut events = Vec::new();
        for (receipt, answer) in taken {
            let id = receipt.get("event").and_then(Value::as_str).unwrap_or("");
            let key = receipt.get("idemKey").and_then(Value::as_str).unwrap_or("");
            let fed = match self.db.event_by_id(id)? {
                Some(cause) => {
                    // Every event its firing event's effects give back shares that event's budget.
                    let world = self.db.world_of(&[cause.id.as_str()])?;
                    let siblings: u64 = world.entries().into_iter().map(|(_, r)| self.feedback.gives(r)).sum();
                    self.feedback.events(&receipt, answer.as_ref(), &cause, siblings)
                }
                None => crate::feedback::Fed {
                    dropped: vec![format!(
                        "{key}: not written back into the log: this store cannot read its firing event {id} back"
                    )],
                    ..Default::default()
                },
            };
            for reason in &fed.dropped {
                eprintln!("expresso: {reason}");
            }
            Metrics::add(&self.metrics.feedback_dropped, fed.dropped.len() as u64);
            events.extend(fed.events);
        }
        if !events.is_empty() {
            let new = self.db.append(&events)?;
            Metrics::add(&self.metrics.feedback_events, new.iter().filter(|n| **n).count() as u64);
            fault::point("after-feedback");
        }
        Ok(())
    }

    /// Runs the whole log, then sends the waiting receipts until none is `intent` or `settle_ms` passes.
    /// Returns how many receipts are still `intent`.
    pub fn drain(&mut self, settle_ms: u64) -> Result<i64, Error> {
        self.recover()?;
        let deadline = now_ms() + settle_ms as i64;
        loop {
            loop {
                match self.step_batch() {
                    Ok(0) if self.careful => {
                        // A faulting firing's pause: it runs again after it, until it runs or is parked.
                        let wait = (self.hold_until_ms - now_ms()).clamp(1, FIRING_RETRY_MAX_MS);
                        std::thread::sleep(std::time::Duration::from_millis(wait as u64));
                    }
                    Ok(0) => break,
                    Ok(_) => {}
                    // On a store that parks, a fault waits its pause and is tried again; elsewhere it stops.
                    Err(Error::Runtime(_)) if self.db.parks() => {}
                    Err(e) => return Err(e),
                }
            }
            let fed = Metrics::get(&self.metrics.feedback_events);
            self.sweep()?;
            if Metrics::get(&self.metrics.feedback_events) > fed {
                // A delivery wrote events back into the log (`crate::feedback`): they run too.
                continue;
            }
            let waiting = self.db.counts()?.intent;
            if waiting == 0 || now_ms() >= deadline {
                return Ok(waiting);
            }
            let next = self.next_retry_ms()?.unwrap_or(deadline).clamp(now_ms(), deadline);
            std::thread::sleep(std::time::Duration::from_millis((next - now_ms()).clamp(1, 200) as u64));
        }
    }

    pub fn is_careful(&self) -> bool {
        self.careful
    }

    /// The events the protocol has consumed, for metrics.
    pub fn processed(&self) -> u64 {
        self.metrics.events_processed.load(Ordering::Relaxed)
    }
}

/// When a receipt that failed is tried again: exponential from 250 ms by its attempts, capped at 30 s,
/// half jittered.
fn retry_at(item: &Intent) -> i64 {
    let base = 250i64.saturating_mul(1 << item.attempts.clamp(0, 7)).min(30_000);
    now_ms() + base / 2 + fastrand::i64(0..=base / 2)
}
