//! A recording (000 §11.2): an adapter's declaration and its answers, keyed by utterance identity and
//! question id. Reading it is pure; answering from it is the `replay` adapter's.

use crate::adapter::{Gate, Limits, Raw};
use crate::diag::{Problem, Reading};
use crate::doc::{Doc, Entry, KeyPath, Sink, TableReader, number_of};
use crate::identity::identity;
use std::collections::BTreeMap;
use toml::de::DeValue;

#[derive(Debug, Clone, PartialEq)]
pub struct Recording {
    pub id: String,
    pub gate: Option<Gate>,
    pub limits: Limits,
    pub plan: Option<String>,
    /// By utterance identity: per question, a number per key.
    pub answers: BTreeMap<String, Raw>,
}

impl Recording {
    pub fn answers_for(&self, input: &str) -> Option<&Raw> {
        self.answers.get(&identity(input))
    }
}

pub fn read_recording(file: &str, text: &str) -> Reading<Recording> {
    let doc = Doc::new(file, text);
    let root = match doc.parse() {
        Ok(root) => root,
        Err(fault) => return Reading { value: None, diagnostics: vec![fault] },
    };
    let mut sink = Sink::new(&doc);
    let mut top = TableReader::new(root.get_ref(), KeyPath::root(), 0..0);
    let id = match top.get("id") {
        Some(e) => e.nonempty_text(&mut sink, false),
        None => {
            top.missing(&mut sink, "id", "name the adapter the answers came from: id = \"replay\"");
            None
        }
    };
    let gate = top.get("gate").map(|e| read_gate(&e, &mut sink));
    let limits = top.get("limits").map(|e| read_limits(&e, &mut sink));
    let plan = top.get("plan").and_then(|e| e.nonempty_text(&mut sink, false));
    let mut answers = BTreeMap::new();
    if let Some(entry) = top.get("answers") {
        if let Some(mut table) = entry.table(&mut sink) {
            for utterance in table.entries() {
                if let Some(raw) = read_raw(&utterance, &mut sink) {
                    let id = identity(utterance.name);
                    if answers.insert(id, raw).is_some() {
                        sink.error(
                            Problem::DuplicateUtterance,
                            &utterance.path,
                            &utterance.key_span,
                            format!("\"{}\" is recorded twice under identity", utterance.name),
                            "keep one of the two",
                        );
                    }
                }
            }
        }
    }
    top.finish(&mut sink);
    let failed = sink.has_errors();
    let value = match (failed, id) {
        (false, Some(id)) => {
            Some(Recording { id, gate: gate.flatten(), limits: limits.flatten().unwrap_or_default(), plan, answers })
        }
        _ => None,
    };
    Reading { value, diagnostics: sink.finish() }
}

fn read_raw(entry: &Entry, sink: &mut Sink) -> Option<Raw> {
    let mut questions = entry.table(sink)?;
    let mut raw = Raw::new();
    for question in questions.entries() {
        let Some(mut keys) = question.table(sink) else { continue };
        let mut distribution = BTreeMap::new();
        for key in keys.entries() {
            // A non-number is kept as NaN so that validation refuses it as a fault at decision time,
            // exactly as a live engine's malformed answer would be.
            let p = number_of(key.value.get_ref()).unwrap_or(match key.value.get_ref() {
                DeValue::Float(f) if f.as_str().contains("nan") => f64::NAN,
                DeValue::Float(f) if f.as_str().contains("inf") => f64::INFINITY,
                _ => f64::NAN,
            });
            distribution.insert(key.name.to_string(), p);
        }
        raw.insert(question.name.to_string(), distribution);
    }
    Some(raw)
}

fn read_gate(entry: &Entry, sink: &mut Sink) -> Option<Gate> {
    let mut table = entry.table(sink)?;
    let bar = |name: &str, table: &mut TableReader, sink: &mut Sink| table.get(name)?.probability(sink);
    let route = bar("route", &mut table, sink);
    let fits = bar("fits", &mut table, sink);
    let read = bar("read", &mut table, sink);
    let write = bar("write", &mut table, sink);
    for (name, value) in [("route", route), ("read", read), ("write", write)] {
        if value.is_none() && !sink.has_errors() {
            table.missing(sink, name, "declare every bar: route, read and write (fits is optional)");
        }
    }
    table.finish(sink);
    let gate = Gate { route: route?, fits, read: read?, write: write? };
    if gate.read > gate.write {
        sink.error(
            Problem::BadRange,
            &entry.path,
            &entry.key_span,
            "the `read` bar exceeds the `write` bar".into(),
            "read never exceeds write: lower `read` or raise `write`",
        );
        return None;
    }
    Some(gate)
}

fn read_limits(entry: &Entry, sink: &mut Sink) -> Option<Limits> {
    let mut table = entry.table(sink)?;
    let count = |name: &str, table: &mut TableReader, sink: &mut Sink| -> Option<usize> {
        let e = table.get(name)?;
        match e.value.get_ref() {
            DeValue::Integer(_) => number_of(e.value.get_ref()).filter(|n| *n >= 1.0).map(|n| n as usize),
            _ => {
                e.wrong_type(sink, "a positive integer", "write a whole number");
                None
            }
        }
    };
    let options = count("options", &mut table, sink);
    let tokens = count("tokens", &mut table, sink);
    table.finish(sink);
    Some(Limits { options, tokens })
}
