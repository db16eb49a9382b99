//! The reduction rules over a log: for each event, each agent in program order, each behavior in
//! its order — E-Skip, E-NoFire, E-Regex⊥, E-Fuzzy⊥ (the model's decision journaled even when it does
//! not fire) and E-Fire — with MODEL memoized in the journal J and WORLD in the world table W.

use crate::bounds::FLUSH_EVERY_EVENTS;
use crate::error::Error;
pub use crate::eval::Sink;
use crate::eval::{Firing, Ports};
use crate::event::{Event, order};
use crate::frame::{Conversation, Conversations};
use crate::keys;
use crate::provider::{Provider, RequestKind};
use crate::route::{routes, structural_ok};
use crate::store::Store;
use expresso_lang::Compiled;
use expresso_lang::ast::{Agent, Literal, Match};
use expresso_lang::bounds::MAX_REGEX_BYTES;
use expresso_lang::schema::{Kind, Scalar, Schema};
use regex::Regex;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::HashSet;

/// One thing that happened at a MODEL or WORLD leaf, in order: the record a report or a table is made of.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Step {
    /// A model leaf: `fresh` when the provider answered, not when the journal did.
    Leaf { event: String, key: String, fresh: bool, value: Value },
    /// A world effect: `applied` when it was new, not when W already held its key.
    Effect { event: String, key: String, applied: bool, receipt: Value },
}

/// What a run did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Outcome {
    pub events: usize,
    pub superseded: usize,
    /// Events dropped as a second delivery of an `(id, rev)` the log holds already.
    pub redelivered: usize,
    pub firings: usize,
    pub provider_calls: usize,
    pub journal_hits: usize,
    pub new_effects: usize,
    pub deduped_effects: usize,
    /// The receipts of the effects applied by this run, in order.
    pub effects: Vec<Value>,
    /// Every leaf and effect step, when recorded.
    pub steps: Vec<Step>,
}

/// `S[a]`: an agent's memory, the events it fired on, and how far it has read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AgentState {
    pub memory: Map<String, Value>,
    pub dedup: HashSet<String>,
    pub cursor: usize,
}

pub struct Runtime<'a> {
    compiled: &'a Compiled,
    carry: Carry,
    ports: Ports<'a>,
}

/// What a runtime carries from one stretch of the log to the next: each agent's state `S[a]`, every
/// partition's conversation, and the compiled trigger patterns. A host that runs a log in batches, with
/// stores it reloads between them, takes it out of one runtime ([`Runtime::into_carry`]) and resumes the
/// next with it ([`Runtime::resume`]).
#[derive(Debug, Clone)]
pub struct Carry {
    regexes: Vec<Vec<Option<Regex>>>,
    agents: Vec<AgentState>,
    conversations: Conversations,
}

impl Carry {
    /// The state before the first event: each agent's memory at its declared initial values.
    pub fn new(compiled: &Compiled) -> Carry {
        let program = &compiled.program;
        // Patterns were compiled once by the checker already; a failure here cannot happen for a program
        // that checked, and reads as a trigger that never matches.
        let regexes = program
            .agents
            .iter()
            .map(|a| {
                a.behaviors
                    .iter()
                    .map(|b| match b.trigger.matcher() {
                        Some(Match::Regex { pattern, .. }) => {
                            regex::RegexBuilder::new(pattern).size_limit(MAX_REGEX_BYTES).build().ok()
                        }
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        let agents = program
            .agents
            .iter()
            .map(|a| {
                let memory = a.memory.iter().map(|m| (m.name.text.clone(), literal(&m.value))).collect();
                AgentState { memory, ..AgentState::default() }
            })
            .collect();
        Carry { regexes, agents, conversations: Conversations::default() }
    }

    /// An agent's state, by its place in the program.
    pub fn state(&self, agent: usize) -> Option<&AgentState> {
        self.agents.get(agent)
    }

    /// An agent's state to restore from a durable store, by its place in the program.
    pub fn state_mut(&mut self, agent: usize) -> Option<&mut AgentState> {
        self.agents.get_mut(agent)
    }

    /// Adds an event already consumed to its partition's conversation, without running anything: how a
    /// host rebuilds the frames after a restart.
    pub fn observe(&mut self, event: &Event) {
        self.conversations.observe(event);
    }
}

impl<'a> Runtime<'a> {
    pub fn new(
        compiled: &'a Compiled,
        journal: &'a mut dyn Store,
        world: &'a mut dyn Store,
        provider: &'a dyn Provider,
    ) -> Runtime<'a> {
        Runtime::resume(compiled, Carry::new(compiled), journal, world, provider)
    }

    /// A runtime that goes on from where the one that gave `carry` stopped.
    pub fn resume(
        compiled: &'a Compiled,
        carry: Carry,
        journal: &'a mut dyn Store,
        world: &'a mut dyn Store,
        provider: &'a dyn Provider,
    ) -> Runtime<'a> {
        let program = &compiled.program;
        Runtime { compiled, carry, ports: Ports::new(program, &compiled.report.durations, journal, world, provider) }
    }

    /// Ends the runtime, freeing its stores: what it carries and what it did.
    pub fn into_carry(self) -> (Carry, Outcome) {
        (self.carry, self.ports.outcome)
    }

    /// Whether every leaf and effect step is kept in the outcome (on by default; a benchmark turns it off).
    pub fn record_steps(&mut self, record: bool) {
        self.ports.record = record;
    }

    /// Dispatches each applied effect to `sink` as it is applied (before W is flushed).
    pub fn dispatch_to(&mut self, sink: Sink<'a>) {
        self.ports.sink = Some(sink);
    }

    /// Runs a whole log in the order of [`order`]. J and W are flushed every
    /// [`FLUSH_EVERY_EVENTS`] events, at the end, and before a fault is returned, so a file store is not
    /// rewritten once per event (which would make a long run quadratic).
    pub fn run(&mut self, events: Vec<Event>) -> Result<(), Error> {
        let ordered = order(events);
        self.ports.outcome.superseded += ordered.superseded;
        self.ports.outcome.redelivered += ordered.redelivered;
        let events = ordered.events;
        for (i, event) in events.iter().enumerate() {
            if let Err(fault) = self.step(event) {
                self.flush()?;
                return Err(fault);
            }
            if (i + 1) % FLUSH_EVERY_EVENTS == 0 {
                self.flush()?;
            }
        }
        self.flush()
    }

    /// Runs a log in the order given, as a host fired it (an `expresso export` of `serve`'s log, whose
    /// order the watermark schedule decided): nothing is reordered or dropped. J and W are flushed as in
    /// [`Runtime::run`].
    pub fn run_as_fired(&mut self, events: Vec<Event>) -> Result<(), Error> {
        for (i, event) in events.iter().enumerate() {
            if let Err(fault) = self.step(event) {
                self.flush()?;
                return Err(fault);
            }
            if (i + 1) % FLUSH_EVERY_EVENTS == 0 {
                self.flush()?;
            }
        }
        self.flush()
    }

    fn flush(&mut self) -> Result<(), Error> {
        self.ports.journal.flush()?;
        self.ports.world.flush()
    }

    /// One event through every agent. The first fault stops the step (and the run).
    pub fn step(&mut self, event: &Event) -> Result<(), Error> {
        self.ports.outcome.events += 1;
        let conversation = self.carry.conversations.observe(event);
        for (index, agent) in self.compiled.program.agents.iter().enumerate() {
            let state = &mut self.carry.agents[index];
            state.cursor += 1;
            fire(agent, &self.carry.regexes[index], state, &mut self.ports, conversation, event)?;
        }
        Ok(())
    }

    /// One event through every agent, each agent's faults its own: an agent whose firing faults gets
    /// its memory back as it was before the event and does not count the event as fired on (so it is
    /// not deduplicated), and the agents after it still run. Returns each faulting agent's place in the
    /// program with its fault. What the faulting firing put in J (answers the provider gave) and in W
    /// (effects before the fault) stays in the stores; a host that parks the firing drops the W entries
    /// by their receipt's `agent` and `event`.
    pub fn step_isolated(&mut self, event: &Event) -> Vec<(usize, Error)> {
        self.ports.outcome.events += 1;
        let conversation = self.carry.conversations.observe(event);
        let mut faults = Vec::new();
        for (index, agent) in self.compiled.program.agents.iter().enumerate() {
            let state = &mut self.carry.agents[index];
            state.cursor += 1;
            let memory = state.memory.clone();
            if let Err(fault) = fire(agent, &self.carry.regexes[index], state, &mut self.ports, conversation, event) {
                state.memory = memory;
                faults.push((index, fault));
            }
        }
        faults
    }

    /// One agent's firing on an event already consumed, run again (a parked firing an operator retries):
    /// the event is not observed again, so its partition's frames are as they are now. On a fault the
    /// agent's memory is put back as it was. Returns whether the agent fired.
    pub fn fire_again(&mut self, event: &Event, agent: usize) -> Result<bool, Error> {
        let Some(definition) = self.compiled.program.agents.get(agent) else { return Ok(false) };
        let empty = Conversation::default();
        let conversation = self.carry.conversations.get(event).unwrap_or(&empty);
        let state = &mut self.carry.agents[agent];
        let memory = state.memory.clone();
        let before = state.dedup.contains(&event.id);
        match fire(definition, &self.carry.regexes[agent], state, &mut self.ports, conversation, event) {
            Ok(()) => Ok(!before && state.dedup.contains(&event.id)),
            Err(fault) => {
                state.memory = memory;
                Err(fault)
            }
        }
    }

    pub fn outcome(&self) -> &Outcome {
        &self.ports.outcome
    }

    pub fn into_outcome(self) -> Outcome {
        self.ports.outcome
    }

    /// An agent's state, by its place in the program.
    pub fn state(&self, agent: usize) -> Option<&AgentState> {
        self.carry.agents.get(agent)
    }
}

/// One agent on one event: E-Skip, then each behavior in its order (E-NoFire, E-Regex⊥, E-Fuzzy⊥,
/// E-Fire); the event joins the agent's dedup set when a behavior fired.
fn fire(
    agent: &Agent,
    regexes: &[Option<Regex>],
    state: &mut AgentState,
    ports: &mut Ports<'_>,
    conversation: &Conversation,
    event: &Event,
) -> Result<(), Error> {
    // E-Skip.
    if !routes(agent, event) || state.dedup.contains(&event.id) {
        return Ok(());
    }
    let mut fired = false;
    for behavior in &agent.behaviors {
        // E-NoFire.
        if !structural_ok(agent, behavior, event) {
            continue;
        }
        let site = keys::site(&agent.name.text, behavior.ordinal);
        let firing_id = keys::firing_id(&site, &event.id);
        let mut captures = Vec::new();
        match behavior.trigger.matcher() {
            Some(Match::Regex { .. }) => {
                // E-Regex⊥: pure, nothing journaled.
                let Some(found) = regexes[behavior.ordinal].as_ref().and_then(|r| r.captures(event.text())) else {
                    continue;
                };
                captures = found.iter().map(|m| m.map(|m| m.as_str().to_string())).collect();
            }
            Some(Match::Fuzzy { phrase, .. }) => {
                // E-Fuzzy⊥: the decision is journaled whether or not it fires.
                let path = keys::trigger_path(&site);
                let schema = ports.bool_schema.clone();
                let hit = ports.model(
                    event,
                    &firing_id,
                    &path,
                    "match",
                    RequestKind::Match,
                    &schema,
                    Some(phrase),
                    event.text(),
                )?;
                if hit != Value::Bool(true) {
                    continue;
                }
            }
            None => {}
        }
        // E-Fire.
        fired = true;
        ports.outcome.firings += 1;
        let mut firing = Firing::new(agent, event, conversation, site, firing_id, captures);
        firing.block(&behavior.body, ports, &mut state.memory)?;
    }
    if fired {
        state.dedup.insert(event.id.clone());
    }
    Ok(())
}

fn literal(value: &Literal) -> Value {
    match value {
        Literal::Str(s) => Value::String(s.clone()),
        Literal::Num(n) => crate::value::number(*n),
        Literal::Bool(b) => Value::Bool(*b),
        Literal::Dur(d) => Value::from(*d),
    }
}

/// The schema of a fuzzy trigger's answer and of `summarize`'s.
pub(crate) fn scalar_schema(kind: Kind) -> Schema {
    Schema::Scalar(Scalar { kind, optional: false, span: Default::default() })
}
