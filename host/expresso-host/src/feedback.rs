//! What comes back of an action, written back into the log as events the agents can react to.
//!
//! Actions stay `Unit` (002 §4): nothing of a sink's answer reaches the firing that applied the effect.
//! Once a sink has taken a receipt, the host appends, before marking it `done`:
//!
//! - a `receipt` event, when the acting agent has an `on receipt` behavior that matches the action's
//!   capability or verb. Its payload: `agent`, `key` (the idemKey), `capability`, `verb`, `event` (the
//!   firing event's id), `args`, `answer` (what the sink answered, JSON or text; `null` when it answered
//!   nothing), `in` (`meeting` or `channel`) and `depth`.
//! - the agent's words, when the configuration's `[feedback] words = true`: a `say`, `reply` or
//!   `message.send` comes back as a `message` (or an `utterance`, when the firing event was in a meeting)
//!   with `speaker` the agent's name, and a `react` as one whose text is the emoji, with `reaction_to` the
//!   firing event's id. The payload's `agent` marks it as the agent's own: routing never gives an agent
//!   its own words (it hears them, if it asks, as receipts with `on receipt "say"`), while other agents
//!   hear them as they hear anyone.
//!
//! Each event's id is made from the idemKey (`receipt|KEY`, `said|KEY`), its partition and `t_event` are
//! the firing event's, and its `rev` 0; the log keeps an `(id, rev)` once, so a receipt delivered again
//! (after a crash between the append and the `done` mark) appends nothing new. The events are appended
//! before the `done` mark, so a crash in between loses none of them.
//!
//! Bounds: an event's `depth` is its firing event's plus one (an event from outside the host is depth
//! 0); one past [`MAX_FEEDBACK_DEPTH`] is not written, so two agents answering each other stop. And one
//! event from outside gives back at most [`MAX_FEEDBACK_EVENTS`] in all (its `fuel`, shared out among
//! what it gives back: [`Feedback::events`]), so many agents answering each other stop soon too. An
//! answer past [`MAX_ANSWER_BYTES`] is not kept (the event says so in `answer_dropped`). An event whose id
//! would pass the event id bound is not written. What is not written is said on stderr and counted.

use expresso_lang::Compiled;
use expresso_lang::ast::Trigger;
use expresso_runtime::bounds::MAX_EVENT_LINE_BYTES;
use expresso_runtime::event::MAX_EVENT_ID_BYTES;
use expresso_runtime::{Event, EventType};
use serde_json::{Map, Value, json};
use std::collections::HashMap;

/// The most hops of feedback from an event that came from outside the host.
pub const MAX_FEEDBACK_DEPTH: u64 = 8;
/// The most events written back, in all, from one event that came from outside the host (its budget).
pub const MAX_FEEDBACK_EVENTS: u64 = 64;
/// The largest sink answer a `receipt` event carries, in bytes (as JSON).
pub const MAX_ANSWER_BYTES: usize = 16 * 1024;

/// Which feedback the program and the configuration ask for.
#[derive(Debug, Clone, Default)]
pub struct Feedback {
    /// Each agent with an `on receipt` behavior: its filters (`None`: every receipt).
    receipts: HashMap<String, Vec<Option<String>>>,
    /// Whether `say`, `reply`, `message.send` and `react` come back as words.
    pub words: bool,
}

/// The events a delivered receipt gives, and what was left out, with its reason.
#[derive(Debug, Default)]
pub struct Fed {
    pub events: Vec<Event>,
    pub dropped: Vec<String>,
}

impl Feedback {
    pub fn of(compiled: &Compiled) -> Feedback {
        let mut receipts: HashMap<String, Vec<Option<String>>> = HashMap::new();
        for agent in &compiled.program.agents {
            for behavior in &agent.behaviors {
                if let Trigger::Receipt { filter, .. } = &behavior.trigger {
                    receipts.entry(agent.name.text.clone()).or_default().push(filter.clone());
                }
            }
        }
        Feedback { receipts, words: false }
    }

    fn wants_receipt(&self, receipt: &Value) -> bool {
        let field = |k: &str| receipt.get(k).and_then(Value::as_str).unwrap_or("");
        self.receipts.get(field("agent")).is_some_and(|filters| {
            filters.iter().any(|f| f.as_deref().is_none_or(|f| f == field("effect") || f == field("verb")))
        })
    }

    fn words_of(&self, receipt: &Value) -> Option<(String, bool)> {
        if !self.words {
            return None;
        }
        let arg = |k: &str| match receipt.pointer(&format!("/args/{k}")) {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Null) | None => String::new(),
            Some(other) => other.to_string(),
        };
        match receipt.get("effect").and_then(Value::as_str)? {
            "message.send" => Some((arg("text"), false)),
            "react.add" => Some((arg("emoji"), true)),
            _ => None,
        }
    }

    /// Whether a receipt gives any event: then the host reads its firing event for [`Feedback::events`].
    pub fn wants(&self, receipt: &Value) -> bool {
        self.gives(receipt) > 0
    }

    /// How many events a receipt gives back (a `receipt` event, the agent's words, both or none).
    pub fn gives(&self, receipt: &Value) -> u64 {
        u64::from(self.wants_receipt(receipt)) + u64::from(self.words_of(receipt).is_some())
    }

    /// The events a receipt the sink took gives, with `cause` its firing event, `answer` what the sink
    /// answered and `siblings` how many events all the effects of `cause` give back.
    ///
    /// The budget: an event from outside has [`MAX_FEEDBACK_EVENTS`]` + 1` of `fuel`, and each event
    /// written back has `(fuel of its firing event - 1) / siblings`; one with none is not written. A
    /// subtree of fuel `f` so holds at most `f` events, and all that one outside event gives back at most
    /// [`MAX_FEEDBACK_EVENTS`], however many agents answer each other.
    pub fn events(&self, receipt: &Value, answer: Option<&Value>, cause: &Event, siblings: u64) -> Fed {
        let mut fed = Fed::default();
        let field = |k: &str| receipt.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        let key = field("idemKey");
        let depth = cause.payload.get("depth").and_then(Value::as_u64).unwrap_or(0).saturating_add(1);
        if depth > MAX_FEEDBACK_DEPTH {
            fed.dropped.push(format!(
                "{key}: not written back into the log: its firing event is {} hops of feedback from the outside, the most is {MAX_FEEDBACK_DEPTH}",
                depth - 1
            ));
            return fed;
        }
        // A producer may write `fuel` into an event it sends: no event has more than an outside one's.
        let fuel = cause.payload.get("fuel").and_then(Value::as_u64).unwrap_or(u64::MAX).min(MAX_FEEDBACK_EVENTS + 1);
        let fuel = fuel.saturating_sub(1) / siblings.max(1);
        if fuel == 0 {
            fed.dropped.push(format!(
                "{key}: not written back into the log: the {MAX_FEEDBACK_EVENTS} events its outside event may give back are spent"
            ));
            return fed;
        }
        let meeting = match cause.kind {
            EventType::Utterance | EventType::Silence | EventType::MeetingStart | EventType::MeetingEnd => true,
            EventType::Message | EventType::Schedule => false,
            EventType::Receipt => cause.payload.get("in").and_then(Value::as_str) == Some("meeting"),
        };
        let mut make = |prefix: &str, kind: EventType, payload: Map<String, Value>| {
            let id = format!("{prefix}|{key}");
            if id.len() > MAX_EVENT_ID_BYTES {
                fed.dropped.push(format!(
                    "{key}: not written back into the log: its event id would be {} bytes, more than {MAX_EVENT_ID_BYTES}",
                    id.len()
                ));
                return;
            }
            let event = Event { id, partition: cause.partition.clone(), kind, payload, t_event: cause.t_event, rev: 0 };
            // The action's arguments ride along, and may be larger than a line of the log may be: written,
            // such an event would leave a log that `expresso export` writes and `run` refuses.
            let size = serde_json::to_string(&event).map_or(usize::MAX, |line| line.len());
            if size > MAX_EVENT_LINE_BYTES {
                fed.dropped.push(format!(
                    "{key}: not written back into the log: its event would be {size} bytes, more than a line of the log may be ({MAX_EVENT_LINE_BYTES})"
                ));
                return;
            }
            fed.events.push(event);
        };
        if self.wants_receipt(receipt) {
            let mut payload = Map::new();
            payload.insert("agent".into(), json!(field("agent")));
            payload.insert("key".into(), json!(key));
            payload.insert("capability".into(), json!(field("effect")));
            payload.insert("verb".into(), json!(field("verb")));
            payload.insert("event".into(), json!(cause.id));
            payload.insert("args".into(), receipt.get("args").cloned().unwrap_or(Value::Null));
            let answer = answer.cloned().unwrap_or(Value::Null);
            let size = answer.to_string().len();
            if size > MAX_ANSWER_BYTES {
                payload.insert("answer".into(), Value::Null);
                payload.insert(
                    "answer_dropped".into(),
                    json!(format!("the answer is {size} bytes, more than {MAX_ANSWER_BYTES}")),
                );
            } else {
                payload.insert("answer".into(), answer);
            }
            payload.insert("in".into(), json!(if meeting { "meeting" } else { "channel" }));
            payload.insert("depth".into(), json!(depth));
            payload.insert("fuel".into(), json!(fuel));
            make("receipt", EventType::Receipt, payload);
        }
        if let Some((text, reaction)) = self.words_of(receipt) {
            let mut payload = Map::new();
            payload.insert("speaker".into(), json!(field("agent")));
            payload.insert("text".into(), json!(text));
            payload.insert("agent".into(), json!(field("agent")));
            payload.insert("key".into(), json!(key));
            payload.insert("verb".into(), json!(field("verb")));
            if reaction {
                payload.insert("reaction_to".into(), json!(cause.id));
            }
            payload.insert("depth".into(), json!(depth));
            payload.insert("fuel".into(), json!(fuel));
            make("said", if meeting { EventType::Utterance } else { EventType::Message }, payload);
        }
        fed
    }
}
