//! Shared by the runtime's tests: a deterministic oracle provider that counts its calls, and helpers.

#![allow(dead_code)]

use expresso_lang::schema::{Kind, Scalar, Schema};
use expresso_runtime::{Event, LeafRequest, Provider};
use serde_json::{Map, Value, json};
use std::cell::Cell;

/// Answers any schema from the input alone, the same way every time, and counts its calls.
#[derive(Default)]
pub struct Oracle {
    pub calls: Cell<usize>,
}

fn hash(text: &str) -> usize {
    text.bytes().fold(7usize, |h, b| h.wrapping_mul(31).wrapping_add(b as usize))
}

fn scalar(s: &Scalar, input: &str) -> Value {
    match &s.kind {
        Kind::Text | Kind::User => json!(input.split_whitespace().next().unwrap_or("")),
        Kind::Number => json!(input.len()),
        Kind::Bool => json!(hash(input).is_multiple_of(2)),
        Kind::Date => json!("2026-01-01"),
        Kind::Enum(cases) => json!(cases[hash(input) % cases.len()]),
        Kind::List(inner) => {
            let n = hash(input) % 4;
            Value::Array((0..n).map(|i| answer(inner, &format!("{input}{i}"))).collect())
        }
    }
}

pub fn answer(schema: &Schema, input: &str) -> Value {
    match schema {
        Schema::Scalar(s) => scalar(s, input),
        Schema::Record { fields, .. } => {
            let mut map = Map::new();
            for f in fields {
                map.insert(f.name.clone(), scalar(&f.scalar, &format!("{}{input}", f.name)));
            }
            Value::Object(map)
        }
    }
}

impl Provider for Oracle {
    fn id(&self) -> &str {
        "oracle"
    }

    fn answer(&self, request: &LeafRequest) -> Result<Value, String> {
        self.calls.set(self.calls.get() + 1);
        Ok(answer(request.schema, request.input))
    }
}

pub fn message(id: &str, t: u64, speaker: &str, text: &str) -> Event {
    let line = json!({
        "id": id, "partition": {"workspace": "acme", "room": "#support"}, "type": "message",
        "payload": {"speaker": speaker, "text": text}, "t_event": t, "rev": 0
    });
    serde_json::from_value(line).unwrap()
}

pub fn utterance(id: &str, t: u64, room: &str, speaker: &str, text: &str) -> Event {
    let line = json!({
        "id": id, "partition": {"workspace": "acme", "room": room}, "type": "utterance",
        "payload": {"speaker": speaker, "text": text}, "t_event": t, "rev": 0
    });
    serde_json::from_value(line).unwrap()
}

pub const TRIAGE: &str = include_str!("../../../../transcripts/expresso-triage/triage.ex");
