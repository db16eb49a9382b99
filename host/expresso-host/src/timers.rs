//! Durable timers: the host's clock drives `on schedule "every 5m"` and `on silence for D`.
//!
//! A program is a function of its log, and the grammar has no clock; so the clock does not reach the
//! program. It reaches the log: when a timer is due, the host appends a `schedule` or `silence` event,
//! as any producer could, and the agents run on it like on any other event (a replay of the log gives the
//! same effects with no clock at all). The event's id is built from the timer and its due time only, so
//! appending it twice appends it once (the log keeps each `(id, rev)` once), and it is appended in the
//! same transaction that moves the timer past that due time: a crash before the commit leaves the timer
//! due (it fires after the restart), a crash after it leaves the event in the log (it runs after the
//! restart) and the timer past it (it does not fire again).
//!
//! - **Schedules.** `every D` and `daily HH:MM` (see `expresso_lang::schedule`). A timer is armed the
//!   first time a host runs the program that declares it, due at the next due time after that moment
//!   (a due time before it never fires). When the host was down over one or more due times, the latest
//!   of them fires once after the restart, and the earlier ones never do. The event is
//!   `{ id: "timer:schedule:<room>:<spec>:<due_ms>", partition: { workspace: "expresso", room },
//!   type: "schedule", payload: { name: spec }, t_event: due_ms }`; the room is the meeting the agents
//!   declaring the schedule live in (a schedule happens where a meeting does, as routing has it), or
//!   `schedule` when they live elsewhere or nowhere.
//! - **Silences.** A partition's silence starts at the latest `t_event` of its utterances and
//!   messages; each silence duration D that some behavior could fire on in that partition is due at
//!   that time + D. A later utterance or message starts a new silence (re-arms every duration). The
//!   event is `{ id: "timer:silence:<workspace>:<room>:<start_ms>", rev: D, type: "silence", payload:
//!   { millis: D }, t_event: start + D }` in the partition itself. The durations of one silence share
//!   its id with a higher `rev` each: an agent that fired on the short one does not fire again on the
//!   longer one (its dedup set holds the id), while an agent waiting for the longer one fires on it; and
//!   a run over the exported log, which keeps the highest `rev`, keys the same effects.

use crate::error::Error;
use crate::pg::{Namespace, PartitionStore, partition_of};
use crate::store::Db;
use expresso_lang::ast::{Agent, Place, Program, Trigger};
use expresso_lang::schedule::{self, Clock};
use expresso_runtime::event::{Event, EventType, Partition};
use expresso_runtime::route::structural_ok;
use rusqlite::{OptionalExtension, params};
use serde_json::{Map, json};
use std::collections::{BTreeMap, BTreeSet};

/// The workspace of a schedule's events.
pub const SCHEDULE_WORKSPACE: &str = "expresso";
/// The room of a schedule's events when its agents live in no meeting.
pub const SCHEDULE_ROOM: &str = "schedule";
/// Log events the timers read per pass (for the silences), at most.
pub const SEEN_PER_PASS: usize = 4_096;
/// Timer events appended per pass, at most; the rest are appended by the next pass.
pub const FIRED_PER_PASS: usize = 1_000;
/// An id's partition part longer than this is replaced by a hash, so the whole id stays within the
/// event id bound (1,024 bytes).
const MAX_PART_BYTES: usize = 400;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS timer_schedules (
    room TEXT NOT NULL,
    spec TEXT NOT NULL,
    armed_ms INTEGER NOT NULL,
    next_due_ms INTEGER NOT NULL,
    PRIMARY KEY (room, spec)
);
CREATE TABLE IF NOT EXISTS timer_silences (
    workspace TEXT NOT NULL,
    room TEXT NOT NULL,
    start_ms INTEGER NOT NULL,
    fired_ms INTEGER NOT NULL,
    next_due_ms INTEGER,
    PRIMARY KEY (workspace, room)
);
CREATE INDEX IF NOT EXISTS timer_silences_due ON timer_silences (next_due_ms) WHERE next_due_ms IS NOT NULL;
CREATE TABLE IF NOT EXISTS timer_seen (one INTEGER PRIMARY KEY CHECK (one = 1), seq INTEGER NOT NULL);
";

/// One schedule the clock drives: its string, what it means, and the room its events go to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduleTimer {
    pub spec: String,
    pub clock: Clock,
    pub room: String,
}

/// The timers of a program, and what the host knows of them between passes.
#[derive(Debug, Clone, Default)]
pub struct Timers {
    pub schedules: Vec<ScheduleTimer>,
    /// The agents with a silence behavior, for the durations that apply in a partition.
    silent: Vec<Agent>,
    /// Why the program's timers cannot be driven, when they cannot.
    refused: Option<String>,
    /// The earliest due time the store holds, when known; `None` until the first pass.
    next_due_ms: Option<i64>,
    /// The log position the silences have read to, when known.
    seen: Option<i64>,
}

impl Timers {
    /// The timers a program declares.
    pub fn of(program: &Program) -> Timers {
        let mut timers = Timers::default();
        // spec -> (room -> the agents whose behaviors it fires)
        let mut rooms: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
        for agent in &program.agents {
            let mut silent = false;
            for behavior in &agent.behaviors {
                match &behavior.trigger {
                    Trigger::Silence { .. } => silent = true,
                    Trigger::Schedule { name, .. } => {
                        let clock = match schedule::parse(name) {
                            Ok(Some(clock)) => clock,
                            // A name: events so named come from outside.
                            Ok(None) => continue,
                            Err(refused) => {
                                timers.refused = Some(format!(
                                    "agent \"{}\": bad schedule: {}\n  = fix: {}",
                                    agent.name.text, refused.reason, refused.fix
                                ));
                                continue;
                            }
                        };
                        let room = schedule_room(agent);
                        let entry = rooms.entry(name.clone()).or_default();
                        if !entry.contains_key(&room) {
                            timers.schedules.push(ScheduleTimer { spec: name.clone(), clock, room: room.clone() });
                        }
                        entry.entry(room).or_default().push(agent.name.text.clone());
                    }
                    _ => {}
                }
            }
            if silent {
                timers.silent.push(agent.clone());
            }
        }
        // A schedule's events go to one room each: an agent that lives in no meeting fires on a schedule
        // event in any room, so a schedule shared with agents that live in a meeting would fire it once per
        // room. That is refused rather than guessed.
        for (spec, by_room) in &rooms {
            if by_room.len() > 1 && timers.refused.is_none() {
                let said: Vec<String> =
                    by_room.iter().map(|(room, agents)| format!("{} in {room}", agents.join(", "))).collect();
                timers.refused = Some(format!(
                    "schedule \"{spec}\" is declared by agents in different places ({}): one of its events would fire the others once per place\n  = fix: give each place its own schedule string (e.g. `daily 09:00` and `daily 09:00 UTC`)",
                    said.join("; ")
                ));
            }
        }
        timers
    }

    /// The earliest due time of the program's timers as the last pass left them (`None` before the first
    /// pass): no pass before it writes anything unless the log has grown.
    pub fn next_due_ms(&self) -> Option<i64> {
        self.next_due_ms
    }

    /// Whether the program declares any timer the clock drives.
    pub fn is_empty(&self) -> bool {
        self.schedules.is_empty() && self.silent.is_empty() && self.refused.is_none()
    }

    /// Refuses a program whose timers cannot be driven, naming the agent, the schedule and the fix.
    pub fn check(&self) -> Result<(), Error> {
        match &self.refused {
            Some(reason) => Err(Error::Program(reason.clone())),
            None => Ok(()),
        }
    }

    /// The silence durations some behavior could fire on in this partition, shortest first.
    pub fn silence_durations(&self, partition: &Partition) -> Vec<u64> {
        let probe = Event {
            id: "probe".into(),
            partition: partition.clone(),
            kind: EventType::Silence,
            payload: Map::from_iter([("millis".to_string(), json!(u64::MAX))]),
            t_event: 0,
            rev: 0,
        };
        let mut durations = BTreeSet::new();
        for agent in &self.silent {
            for behavior in &agent.behaviors {
                if let Trigger::Silence { millis, .. } = &behavior.trigger
                    && structural_ok(agent, behavior, &probe)
                {
                    durations.insert(*millis);
                }
            }
        }
        durations.into_iter().collect()
    }
}

/// Where an agent's schedule events go: the meeting it lives in, when it lives in one with a tag (a
/// schedule is scoped to that home, as routing has it); else the shared room.
fn schedule_room(agent: &Agent) -> String {
    match &agent.home {
        Some(home) if home.place == Place::Meeting => match &home.tag {
            Some(tag) => format!("#{}", tag.trim_start_matches('#')),
            None => SCHEDULE_ROOM.into(),
        },
        _ => SCHEDULE_ROOM.into(),
    }
}

/// A part of a timer's event id: printable ASCII but for `%`, `:` and space, which are written `%XX`, as
/// is every byte outside it; so the parts of an id never run into each other and an id never holds a
/// character an `Idempotency-Key` header cannot carry. A part longer than the bound is replaced by
/// `h` and the FNV-1a hash of its bytes, in hex.
pub fn id_part(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if matches!(b, b'!'..=b'~') && b != b'%' && b != b':' {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    if out.len() > MAX_PART_BYTES {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for b in text.bytes() {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
        return format!("h{hash:016x}");
    }
    out
}

/// The event a schedule appends for one due time.
pub fn schedule_event(timer: &ScheduleTimer, due_ms: u64) -> Event {
    Event {
        id: format!("timer:schedule:{}:{}:{due_ms}", id_part(&timer.room), id_part(&timer.spec)),
        partition: Partition { workspace: SCHEDULE_WORKSPACE.into(), room: timer.room.clone() },
        kind: EventType::Schedule,
        payload: Map::from_iter([("name".to_string(), json!(timer.spec))]),
        t_event: due_ms,
        rev: 0,
    }
}

/// The event a silence appends when it has lasted `millis`.
pub fn silence_event(partition: &Partition, start_ms: u64, millis: u64) -> Event {
    Event {
        id: format!("timer:silence:{}:{}:{start_ms}", id_part(&partition.workspace), id_part(&partition.room)),
        partition: partition.clone(),
        kind: EventType::Silence,
        payload: Map::from_iter([("millis".to_string(), json!(millis))]),
        t_event: start_ms.saturating_add(millis),
        rev: millis,
    }
}

/// What one pass did: the events it appended, the log position the silences have read to, and the
/// earliest due time of the program's timers after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fired {
    pub appended: usize,
    pub seen: i64,
    pub next_due_ms: i64,
}

/// What a pass needs of a store: written once for SQLite (`Db`, the whole log) and for Postgres (a
/// `PartitionStore`, one partition's share of the log and of the timers).
pub trait TimerStore {
    /// Makes the timer tables when missing; the log position the silences read on from: where the last
    /// pass stopped or, the first time, where the agents have read to (what they ran before the program
    /// had a silence is history: a silence behavior added to a program with a long log does not fire on
    /// every partition the log ever held).
    fn timers_seen(&mut self) -> Result<i64, Error>;
    /// Up to `limit` of this store's events after `after`, in log order.
    fn timer_events_after(&mut self, after: i64, limit: usize) -> Result<Vec<(i64, Event)>, Error>;
    /// Whether this store is the one an event of the timers goes to (Postgres: its partition's).
    fn owns(&self, event: &Event) -> bool;
    /// Runs `pass` in one transaction, committed when it returns `Ok`.
    fn in_timer_tx(&mut self, pass: &mut dyn FnMut(&mut dyn TimerTx) -> Result<Fired, Error>) -> Result<Fired, Error>;
}

/// What a pass reads and writes inside its transaction.
pub trait TimerTx {
    /// Arms a schedule not armed yet.
    fn arm(&mut self, room: &str, spec: &str, armed_ms: i64, next_due_ms: i64) -> Result<(), Error>;
    fn schedule_next(&mut self, room: &str, spec: &str) -> Result<i64, Error>;
    fn advance(&mut self, room: &str, spec: &str, next_due_ms: i64) -> Result<(), Error>;
    /// The start of the partition's silence, when one is kept.
    fn silence_start(&mut self, partition: &Partition) -> Result<Option<i64>, Error>;
    /// Starts the partition's silence again: nothing of it fired, due first at `next_due_ms`.
    fn rearm(&mut self, partition: &Partition, start_ms: i64, next_due_ms: i64) -> Result<(), Error>;
    fn set_seen(&mut self, seq: i64) -> Result<(), Error>;
    /// This store's silences: `(partition, start, longest duration fired)`.
    fn silences(&mut self) -> Result<Vec<(Partition, i64, i64)>, Error>;
    fn set_next(&mut self, partition: &Partition, next_due_ms: Option<i64>) -> Result<(), Error>;
    /// This store's silences due at `now_ms`, earliest first, at most `limit`.
    fn due_silences(&mut self, now_ms: i64, limit: usize) -> Result<Vec<(Partition, i64, i64)>, Error>;
    fn mark(&mut self, partition: &Partition, fired_ms: i64, next_due_ms: Option<i64>) -> Result<(), Error>;
    /// The earliest due time of this store's silences.
    fn next_silence(&mut self) -> Result<Option<i64>, Error>;
    /// Appends events to the log; one already there (the same `(id, rev)`) is not appended again.
    fn append(&mut self, events: &[Event]) -> Result<(), Error>;
}

/// One pass of the timers at `now_ms`: reads the utterances and messages appended since the last pass
/// (re-arming their partitions' silences), arms schedules seen for the first time, and appends the event
/// of every timer due, moving each past its due time in the same transaction. Returns how many events it
/// appended. A pass with nothing to read and nothing due writes nothing.
pub fn fire(store: &mut dyn TimerStore, timers: &mut Timers, now_ms: i64) -> Result<usize, Error> {
    if timers.is_empty() {
        return Ok(0);
    }
    timers.check()?;
    // The first pass of a host: the program may have been edited since the store's timers were set.
    let first_pass = timers.seen.is_none();
    if first_pass {
        timers.seen = Some(store.timers_seen()?);
    }
    let seen = timers.seen.unwrap_or(0);
    let new_events =
        if timers.silent.is_empty() { Vec::new() } else { store.timer_events_after(seen, SEEN_PER_PASS)? };
    if new_events.is_empty() && timers.next_due_ms.is_some_and(|due| now_ms < due) {
        return Ok(0);
    }
    let schedules: Vec<&ScheduleTimer> =
        timers.schedules.iter().filter(|t| store.owns(&schedule_event(t, 0))).collect();
    let fired = {
        let timers = &*timers;
        store.in_timer_tx(&mut |tx| pass(tx, timers, &schedules, first_pass, seen, &new_events, now_ms))?
    };
    crate::fault::point("after-timer");
    timers.seen = Some(fired.seen);
    timers.next_due_ms = Some(fired.next_due_ms);
    Ok(fired.appended)
}

fn pass(
    tx: &mut dyn TimerTx,
    timers: &Timers,
    schedules: &[&ScheduleTimer],
    first_pass: bool,
    seen: i64,
    new_events: &[(i64, Event)],
    now_ms: i64,
) -> Result<Fired, Error> {
    let now = now_ms.max(0) as u64;
    let mut appended: Vec<Event> = Vec::new();
    let mut next_schedule: Option<i64> = None;
    // Schedules: armed when first seen, due at the next due time after that. A schedule the program no
    // longer declares keeps its row (declared again, it goes on from there) and is not due: only the
    // program's own timers set when the next pass is.
    for timer in schedules {
        tx.arm(&timer.room, &timer.spec, at(now), at(timer.clock.due_after(now)))?;
        let next_due = tx.schedule_next(&timer.room, &timer.spec)?;
        let next = if next_due <= now_ms && appended.len() < FIRED_PER_PASS {
            // Due times missed while no host ran fire once, as the latest of them.
            let due = timer.clock.due_at_or_before(now).unwrap_or(next_due as u64).max(next_due as u64);
            appended.push(schedule_event(timer, due));
            let next = at(timer.clock.due_after(now));
            tx.advance(&timer.room, &timer.spec, next)?;
            next
        } else {
            next_due
        };
        next_schedule = Some(next_schedule.map_or(next, |n| n.min(next)));
    }

    // Silences: each utterance or message starts its partition's silence again.
    let mut last_seq = seen;
    let mut starts: BTreeMap<Partition, u64> = BTreeMap::new();
    for (seq, event) in new_events {
        last_seq = *seq;
        if matches!(event.kind, EventType::Utterance | EventType::Message) && !own_words(event) {
            let start = starts.entry(event.partition.clone()).or_insert(0);
            *start = (*start).max(event.t_event);
        }
    }
    for (partition, start) in &starts {
        let Some(&first) = timers.silence_durations(partition).first() else { continue };
        // An utterance older than the silence under way (it arrived late) does not end it.
        if tx.silence_start(partition)?.is_some_and(|b| b >= at(*start)) {
            continue;
        }
        tx.rearm(partition, at(*start), at(start.saturating_add(first)))?;
    }
    if last_seq > seen || (first_pass && !timers.silent.is_empty()) {
        tx.set_seen(last_seq)?;
    }
    // After an edit of the program, each silence under way is due at its next duration as the program
    // now declares them.
    if first_pass {
        for (partition, start, fired) in tx.silences()? {
            let next = timers
                .silence_durations(&partition)
                .into_iter()
                .find(|&d| d > fired as u64)
                .map(|d| at((start as u64).saturating_add(d)));
            tx.set_next(&partition, next)?;
        }
    }
    // Silences due: every duration reached, shortest first, each its own `rev` of the silence's event.
    for (partition, start, fired) in tx.due_silences(now_ms, FIRED_PER_PASS)? {
        let (start, fired) = (start as u64, fired as u64);
        let durations = timers.silence_durations(&partition);
        let mut last = fired;
        for &d in durations.iter().filter(|&&d| d > fired) {
            if start.saturating_add(d) > now || appended.len() >= FIRED_PER_PASS {
                break;
            }
            appended.push(silence_event(&partition, start, d));
            last = d;
        }
        let next = durations.iter().find(|&&d| d > last).map(|d| at(start.saturating_add(*d)));
        tx.mark(&partition, at(last), next)?;
    }
    if !appended.is_empty() {
        tx.append(&appended)?;
    }
    let next_silence = tx.next_silence()?;
    let next_due_ms = match (next_schedule, next_silence) {
        (Some(a), Some(b)) => a.min(b),
        (a, b) => a.or(b).unwrap_or(i64::MAX),
    };
    Ok(Fired { appended: appended.len(), seen: last_seq, next_due_ms })
}

/// An agent's own words the host wrote back into the log (`crate::feedback`: an id `said|…`, the payload
/// naming the agent). They do not end a silence: a silence is the people's, and an agent that says
/// "still there?" after a silence would otherwise start the next one and say it again for ever.
fn own_words(event: &Event) -> bool {
    event.id.starts_with("said|") && event.payload.get("agent").is_some_and(serde_json::Value::is_string)
}

// ---------------------------------------------------------------------------------------------------
// SQLite.

impl TimerStore for Db {
    fn timers_seen(&mut self) -> Result<i64, Error> {
        let conn = self.connection();
        conn.execute_batch(SCHEMA)?;
        let stopped: Option<i64> = conn.query_row("SELECT seq FROM timer_seen", [], |r| r.get(0)).optional()?;
        match stopped {
            Some(seq) => Ok(seq),
            None => Ok(conn.query_row("SELECT COALESCE(MAX(cursor), 0) FROM agents", [], |r| r.get(0))?),
        }
    }
    fn timer_events_after(&mut self, after: i64, limit: usize) -> Result<Vec<(i64, Event)>, Error> {
        self.events_after(after, limit)
    }
    fn owns(&self, _event: &Event) -> bool {
        true
    }
    fn in_timer_tx(&mut self, pass: &mut dyn FnMut(&mut dyn TimerTx) -> Result<Fired, Error>) -> Result<Fired, Error> {
        let tx = self.connection().transaction()?;
        let fired = pass(&mut SqliteTimers(&tx))?;
        tx.commit()?;
        Ok(fired)
    }
}

struct SqliteTimers<'a>(&'a rusqlite::Transaction<'a>);

type SilenceRow = (Partition, i64, i64);

fn silence_rows(stmt: &mut rusqlite::CachedStatement<'_>, p: impl rusqlite::Params) -> Result<Vec<SilenceRow>, Error> {
    let rows = stmt.query_map(p, |r| {
        Ok((Partition { workspace: r.get(0)?, room: r.get(1)? }, r.get::<_, i64>(2)?, r.get::<_, i64>(3)?))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

impl TimerTx for SqliteTimers<'_> {
    fn arm(&mut self, room: &str, spec: &str, armed_ms: i64, next_due_ms: i64) -> Result<(), Error> {
        self.0
            .prepare_cached(
                "INSERT OR IGNORE INTO timer_schedules (room, spec, armed_ms, next_due_ms) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![room, spec, armed_ms, next_due_ms])?;
        Ok(())
    }
    fn schedule_next(&mut self, room: &str, spec: &str) -> Result<i64, Error> {
        Ok(self
            .0
            .prepare_cached("SELECT next_due_ms FROM timer_schedules WHERE room = ?1 AND spec = ?2")?
            .query_row(params![room, spec], |r| r.get(0))?)
    }
    fn advance(&mut self, room: &str, spec: &str, next_due_ms: i64) -> Result<(), Error> {
        self.0
            .prepare_cached("UPDATE timer_schedules SET next_due_ms = ?3 WHERE room = ?1 AND spec = ?2")?
            .execute(params![room, spec, next_due_ms])?;
        Ok(())
    }
    fn silence_start(&mut self, p: &Partition) -> Result<Option<i64>, Error> {
        Ok(self
            .0
            .prepare_cached("SELECT start_ms FROM timer_silences WHERE workspace = ?1 AND room = ?2")?
            .query_row(params![p.workspace, p.room], |r| r.get(0))
            .optional()?)
    }
    fn rearm(&mut self, p: &Partition, start_ms: i64, next_due_ms: i64) -> Result<(), Error> {
        self.0
            .prepare_cached(
                "INSERT INTO timer_silences (workspace, room, start_ms, fired_ms, next_due_ms) VALUES (?1, ?2, ?3, 0, ?4)
                 ON CONFLICT (workspace, room) DO UPDATE SET start_ms = ?3, fired_ms = 0, next_due_ms = ?4",
            )?
            .execute(params![p.workspace, p.room, start_ms, next_due_ms])?;
        Ok(())
    }
    fn set_seen(&mut self, seq: i64) -> Result<(), Error> {
        self.0.execute(
            "INSERT INTO timer_seen (one, seq) VALUES (1, ?1) ON CONFLICT (one) DO UPDATE SET seq = ?1",
            [seq],
        )?;
        Ok(())
    }
    fn silences(&mut self) -> Result<Vec<SilenceRow>, Error> {
        silence_rows(&mut self.0.prepare_cached("SELECT workspace, room, start_ms, fired_ms FROM timer_silences")?, [])
    }
    fn set_next(&mut self, p: &Partition, next_due_ms: Option<i64>) -> Result<(), Error> {
        self.0
            .prepare_cached("UPDATE timer_silences SET next_due_ms = ?3 WHERE workspace = ?1 AND room = ?2")?
            .execute(params![p.workspace, p.room, next_due_ms])?;
        Ok(())
    }
    fn due_silences(&mut self, now_ms: i64, limit: usize) -> Result<Vec<SilenceRow>, Error> {
        silence_rows(
            &mut self.0.prepare_cached(
                "SELECT workspace, room, start_ms, fired_ms FROM timer_silences
                 WHERE next_due_ms IS NOT NULL AND next_due_ms <= ?1 ORDER BY next_due_ms LIMIT ?2",
            )?,
            params![now_ms, limit as i64],
        )
    }
    fn mark(&mut self, p: &Partition, fired_ms: i64, next_due_ms: Option<i64>) -> Result<(), Error> {
        self.0
            .prepare_cached(
                "UPDATE timer_silences SET fired_ms = ?3, next_due_ms = ?4 WHERE workspace = ?1 AND room = ?2",
            )?
            .execute(params![p.workspace, p.room, fired_ms, next_due_ms])?;
        Ok(())
    }
    fn next_silence(&mut self) -> Result<Option<i64>, Error> {
        Ok(self
            .0
            .query_row("SELECT MIN(next_due_ms) FROM timer_silences WHERE next_due_ms IS NOT NULL", [], |r| r.get(0))?)
    }
    fn append(&mut self, events: &[Event]) -> Result<(), Error> {
        let mut insert = self.0.prepare_cached("INSERT OR IGNORE INTO events (id, rev, body) VALUES (?1, ?2, ?3)")?;
        for event in events {
            let body = serde_json::to_string(event).map_err(|e| Error::Store(e.to_string()))?;
            insert.execute(params![event.id, at(event.rev), body])?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------------
// Postgres: each worker's partition drives the silences of its own rooms and the schedules whose events
// fall in it, so a timer is driven by the one worker that holds its partition's lease.

/// The timers' tables in a Postgres deployment's schema (made when missing, as the store's own are).
const PG_TABLES: &str = "
CREATE TABLE IF NOT EXISTS timer_schedules (
    room TEXT NOT NULL,
    spec TEXT NOT NULL,
    armed_ms BIGINT NOT NULL,
    next_due_ms BIGINT NOT NULL,
    PRIMARY KEY (room, spec)
);
CREATE TABLE IF NOT EXISTS timer_silences (
    part INTEGER NOT NULL,
    workspace TEXT NOT NULL,
    room TEXT NOT NULL,
    start_ms BIGINT NOT NULL,
    fired_ms BIGINT NOT NULL,
    next_due_ms BIGINT,
    PRIMARY KEY (workspace, room)
);
CREATE INDEX IF NOT EXISTS timer_silences_due ON timer_silences (part, next_due_ms) WHERE next_due_ms IS NOT NULL;
CREATE TABLE IF NOT EXISTS timer_seen (part INTEGER PRIMARY KEY, seq BIGINT NOT NULL);
";

impl TimerStore for PartitionStore {
    fn timers_seen(&mut self) -> Result<i64, Error> {
        let (client, ns, part) = self.for_timers()?;
        // Only when missing: `CREATE INDEX IF NOT EXISTS` locks its table even when the index is there.
        let made: Option<String> = client.query_one("SELECT to_regclass('timer_seen')::text", &[])?.get(0);
        if made.is_none() {
            // Two workers may make them at once: a lock held to the end of the statements' transaction.
            client.batch_execute(&format!("SELECT pg_advisory_xact_lock({}, -2); {PG_TABLES}", ns.append_key()))?;
        }
        if let Some(row) = client.query_opt("SELECT seq FROM timer_seen WHERE part = $1", &[&part])? {
            return Ok(row.get(0));
        }
        Ok(client.query_opt("SELECT cursor FROM cursors WHERE part = $1", &[&part])?.map_or(0, |row| row.get(0)))
    }
    fn timer_events_after(&mut self, after: i64, limit: usize) -> Result<Vec<(i64, Event)>, Error> {
        crate::log_store::LogStore::events_after(self, after, limit)
    }
    fn owns(&self, event: &Event) -> bool {
        partition_of(event, self.namespace().partitions) == self.part()
    }
    fn in_timer_tx(&mut self, pass: &mut dyn FnMut(&mut dyn TimerTx) -> Result<Fired, Error>) -> Result<Fired, Error> {
        let (client, ns, part) = self.for_timers()?;
        let mut tx = client.transaction()?;
        let fired = pass(&mut PgTimers { tx: &mut tx, ns, part })?;
        tx.commit()?;
        Ok(fired)
    }
}

struct PgTimers<'a, 'b> {
    tx: &'a mut postgres::Transaction<'b>,
    ns: &'a Namespace,
    part: i32,
}

fn pg_silences(rows: Vec<postgres::Row>) -> Vec<SilenceRow> {
    rows.iter().map(|r| (Partition { workspace: r.get(0), room: r.get(1) }, r.get(2), r.get(3))).collect()
}

impl TimerTx for PgTimers<'_, '_> {
    fn arm(&mut self, room: &str, spec: &str, armed_ms: i64, next_due_ms: i64) -> Result<(), Error> {
        self.tx.execute(
            "INSERT INTO timer_schedules (room, spec, armed_ms, next_due_ms) VALUES ($1, $2, $3, $4)
             ON CONFLICT (room, spec) DO NOTHING",
            &[&room, &spec, &armed_ms, &next_due_ms],
        )?;
        Ok(())
    }
    fn schedule_next(&mut self, room: &str, spec: &str) -> Result<i64, Error> {
        // The row is locked to the commit: a worker that lost this partition's lease and goes on waits
        // here, and then reads the due time the new holder moved on.
        Ok(self
            .tx
            .query_one(
                "SELECT next_due_ms FROM timer_schedules WHERE room = $1 AND spec = $2 FOR UPDATE",
                &[&room, &spec],
            )?
            .get(0))
    }
    fn advance(&mut self, room: &str, spec: &str, next_due_ms: i64) -> Result<(), Error> {
        self.tx.execute(
            "UPDATE timer_schedules SET next_due_ms = $3 WHERE room = $1 AND spec = $2",
            &[&room, &spec, &next_due_ms],
        )?;
        Ok(())
    }
    fn silence_start(&mut self, p: &Partition) -> Result<Option<i64>, Error> {
        Ok(self
            .tx
            .query_opt(
                "SELECT start_ms FROM timer_silences WHERE workspace = $1 AND room = $2 FOR UPDATE",
                &[&p.workspace, &p.room],
            )?
            .map(|row| row.get(0)))
    }
    fn rearm(&mut self, p: &Partition, start_ms: i64, next_due_ms: i64) -> Result<(), Error> {
        self.tx.execute(
            "INSERT INTO timer_silences (part, workspace, room, start_ms, fired_ms, next_due_ms) VALUES ($1, $2, $3, $4, 0, $5)
             ON CONFLICT (workspace, room) DO UPDATE SET part = $1, start_ms = $4, fired_ms = 0, next_due_ms = $5",
            &[&self.part, &p.workspace, &p.room, &start_ms, &next_due_ms],
        )?;
        Ok(())
    }
    fn set_seen(&mut self, seq: i64) -> Result<(), Error> {
        self.tx.execute(
            "INSERT INTO timer_seen (part, seq) VALUES ($1, $2) ON CONFLICT (part) DO UPDATE SET seq = $2",
            &[&self.part, &seq],
        )?;
        Ok(())
    }
    fn silences(&mut self) -> Result<Vec<SilenceRow>, Error> {
        let rows = self.tx.query(
            "SELECT workspace, room, start_ms, fired_ms FROM timer_silences WHERE part = $1 FOR UPDATE",
            &[&self.part],
        )?;
        Ok(pg_silences(rows))
    }
    fn set_next(&mut self, p: &Partition, next_due_ms: Option<i64>) -> Result<(), Error> {
        self.tx.execute(
            "UPDATE timer_silences SET next_due_ms = $3 WHERE workspace = $1 AND room = $2",
            &[&p.workspace, &p.room, &next_due_ms],
        )?;
        Ok(())
    }
    fn due_silences(&mut self, now_ms: i64, limit: usize) -> Result<Vec<SilenceRow>, Error> {
        let rows = self.tx.query(
            "SELECT workspace, room, start_ms, fired_ms FROM timer_silences
             WHERE part = $1 AND next_due_ms IS NOT NULL AND next_due_ms <= $2 ORDER BY next_due_ms LIMIT $3 FOR UPDATE",
            &[&self.part, &now_ms, &(limit as i64)],
        )?;
        Ok(pg_silences(rows))
    }
    fn mark(&mut self, p: &Partition, fired_ms: i64, next_due_ms: Option<i64>) -> Result<(), Error> {
        self.tx.execute(
            "UPDATE timer_silences SET fired_ms = $3, next_due_ms = $4 WHERE workspace = $1 AND room = $2",
            &[&p.workspace, &p.room, &fired_ms, &next_due_ms],
        )?;
        Ok(())
    }
    fn next_silence(&mut self) -> Result<Option<i64>, Error> {
        Ok(self
            .tx
            .query_one(
                "SELECT MIN(next_due_ms) FROM timer_silences WHERE part = $1 AND next_due_ms IS NOT NULL",
                &[&self.part],
            )?
            .get(0))
    }
    fn append(&mut self, events: &[Event]) -> Result<(), Error> {
        // The log's append lock, as every append takes it: positions become visible in order.
        self.tx.execute("SELECT pg_advisory_xact_lock($1, 0)", &[&self.ns.append_key()])?;
        for event in events {
            let body = serde_json::to_string(event).map_err(|e| Error::Store(e.to_string()))?;
            self.tx.execute(
                "INSERT INTO events (part, id, rev, body) VALUES ($1, $2, $3, $4) ON CONFLICT (id, rev) DO NOTHING",
                &[&partition_of(event, self.ns.partitions), &event.id, &at(event.rev), &body],
            )?;
        }
        Ok(())
    }
}

/// A time (or a duration) as the store holds it: past `i64::MAX` it is `i64::MAX`, which the host's clock
/// never reaches, so an event stamped at the end of time never makes a silence due at once.
fn at(ms: u64) -> i64 {
    ms.min(i64::MAX as u64) as i64
}

/// The timers' state as the store holds it, for `status` and the tests: each schedule's `(room, spec,
/// armed_ms, next_due_ms)`.
pub fn schedules(db: &mut Db) -> Result<Vec<(String, String, i64, i64)>, Error> {
    let conn = db.connection();
    conn.execute_batch(SCHEMA)?;
    let mut stmt = conn.prepare("SELECT room, spec, armed_ms, next_due_ms FROM timer_schedules ORDER BY room, spec")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}
