//! The functions the conformance vectors pin, as JSON in and JSON out: `expresso-parse`,
//! `expresso-check`, `expresso-keys` and `expresso-route`. The vector test walks them, and
//! `expresso conform FUNCTION` exposes them to any runner.

use crate::event::{Event, read_log};
use crate::exec::{Runtime, Step};
use crate::keys;
use crate::recording::Recording;
use crate::route::{routes, structural_ok};
use crate::store::MemoryStore;
use expresso_lang::{compile, parse};
use serde_json::{Map, Value, json};

/// A case whose input is of the wrong shape, or that names no function: the key at fault is named.
#[derive(Debug, thiserror::Error)]
pub enum CaseError {
    #[error("input.source is not a string")]
    NoSource,
    #[error("no function `{0}`")]
    NoFunction(String),
    #[error("input.events is not a list")]
    NoEvents,
    #[error("input.event is missing")]
    NoEvent,
    #[error("input.event is not an event")]
    NotAnEvent,
    /// The events do not read: the runtime's account, line by line.
    #[error("{0}")]
    BadEvents(crate::Error),
    /// The program has errors: the first one's message.
    #[error("the program does not check: {first}")]
    DoesNotCheck { first: String },
    /// Running the same events again over their own journal failed.
    #[error("replay: {0}")]
    Replay(crate::Error),
}

pub const FUNCTIONS: [&str; 4] = ["expresso-parse", "expresso-check", "expresso-keys", "expresso-route"];

pub fn call(function: &str, input: &Value) -> Result<Value, CaseError> {
    let source = input.get("source").and_then(Value::as_str).ok_or(CaseError::NoSource)?;
    match function {
        "expresso-parse" => Ok(parse_case(source)),
        "expresso-check" => Ok(check_case(source)),
        "expresso-keys" => keys_case(source, input),
        "expresso-route" => route_case(source, input),
        other => Err(CaseError::NoFunction(other.to_string())),
    }
}

/// `{ "ok": true }`, or `{ "error": { code, line, column } }` for the first error in source order.
fn parse_case(source: &str) -> Value {
    let parsed = parse(source);
    match parsed.diagnostics.iter().find(|d| d.is_error()) {
        Some(d) => json!({ "error": d.fault(source) }),
        None => json!({ "ok": true }),
    }
}

/// Per agent its effect, ceiling, minimal grants and over-grants; or the first error.
fn check_case(source: &str) -> Value {
    match compile(source) {
        Err(diagnostics) => {
            let first = diagnostics.iter().find(|d| d.is_error()).map(|d| d.fault(source));
            json!({ "error": first })
        }
        Ok(compiled) => {
            let agents: Vec<Value> = compiled
                .report
                .agents
                .iter()
                .map(|a| {
                    json!({
                        "name": a.name,
                        "effect": a.effect.as_str(),
                        "ceiling": a.ceiling.as_str(),
                        "needs": a.needs,
                        "over_granted": a.over_granted,
                    })
                })
                .collect();
            json!({ "agents": agents })
        }
    }
}

fn events_of(input: &Value) -> Result<Vec<Event>, CaseError> {
    let events = input.get("events").and_then(Value::as_array).ok_or(CaseError::NoEvents)?;
    let lines: Vec<String> = events.iter().map(Value::to_string).collect();
    read_log(&lines.join("\n")).map_err(CaseError::BadEvents)
}

/// The first diagnostic of a program that does not check.
fn does_not_check(diagnostics: Vec<expresso_lang::Diagnostic>) -> CaseError {
    CaseError::DoesNotCheck { first: diagnostics[0].message.clone() }
}

/// Runs the events with a recording of `answers` (by journal key) and lists, in order, the journal keys
/// realized and the idempotency keys applied; then the same run again over its own J and W, which must
/// realize and apply nothing (`replay_calls`, `replay_effects`).
fn keys_case(source: &str, input: &Value) -> Result<Value, CaseError> {
    let compiled = compile(source).map_err(does_not_check)?;
    let events = events_of(input)?;
    let answers = input.get("answers").and_then(Value::as_object).cloned().unwrap_or_default();
    let recording = Recording::new(answers);
    let mut journal = MemoryStore::new();
    let mut world = MemoryStore::new();
    let mut runtime = Runtime::new(&compiled, &mut journal, &mut world, &recording);
    let result = runtime.run(events.clone());
    let outcome = runtime.into_outcome();
    let mut out = Map::new();
    let journal_keys: Vec<&str> = outcome
        .steps
        .iter()
        .filter_map(|s| if let Step::Leaf { key, .. } = s { Some(key.as_str()) } else { None })
        .collect();
    let idem_keys: Vec<&str> = outcome
        .steps
        .iter()
        .filter_map(|s| if let Step::Effect { key, applied: true, .. } = s { Some(key.as_str()) } else { None })
        .collect();
    out.insert("journal".into(), json!(journal_keys));
    out.insert("effects".into(), json!(idem_keys));
    if let Err(e) = result {
        out.insert("fault".into(), json!(e.to_string()));
        return Ok(Value::Object(out));
    }
    let mut replay = Runtime::new(&compiled, &mut journal, &mut world, &recording);
    replay.run(events).map_err(CaseError::Replay)?;
    let again = replay.into_outcome();
    out.insert("replay_calls".into(), json!(again.provider_calls));
    out.insert("replay_effects".into(), json!(again.new_effects));
    Ok(Value::Object(out))
}

/// For one event, per agent: whether it routes there, and the sites of the behaviors whose structure
/// fits (before any match is tried).
fn route_case(source: &str, input: &Value) -> Result<Value, CaseError> {
    let compiled = compile(source).map_err(does_not_check)?;
    let event = input.get("event").ok_or(CaseError::NoEvent)?;
    let events = read_log(&event.to_string()).map_err(CaseError::BadEvents)?;
    let event = events.first().ok_or(CaseError::NotAnEvent)?;
    let mut out = Map::new();
    for agent in &compiled.program.agents {
        let structural: Vec<String> = agent
            .behaviors
            .iter()
            .filter(|b| structural_ok(agent, b, event))
            .map(|b| keys::site(&agent.name.text, b.ordinal))
            .collect();
        out.insert(agent.name.text.clone(), json!({ "routes": routes(agent, event), "structural": structural }));
    }
    Ok(Value::Object(out))
}
