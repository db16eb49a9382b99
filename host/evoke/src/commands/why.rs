//! `evoke why [N]`: explain a decision from the log alone; N counts back from 1, the last.

use crate::exit::Exit;
use crate::{log, render};
use evoke_files::places::Places;
use serde_json::Value;
use std::collections::BTreeMap;

pub fn run(back: usize, json: bool) -> Exit {
    let places = match Places::from_env() {
        Ok(places) => places,
        Err(e) => {
            render::err(&format!("error: {}\n", render::shown(&e.to_string())));
            return Exit::Failed;
        }
    };
    let entry = match log::entry(&places.log(), back) {
        Ok(entry) => entry,
        Err(e) => {
            render::err(&format!("error: {}\n", render::shown(&e.to_string())));
            return Exit::Usage;
        }
    };
    if json {
        render::out(&format!("{}\n", crate::line::to_line(&entry)));
        return Exit::Done;
    }
    if entry.get("steps").is_some() || entry.get("verdict").is_some() {
        return crate::commands::weave::why(&places.log(), back, &entry);
    }
    let input = entry.get("input").and_then(Value::as_str).unwrap_or_default();
    render::out(&format!("{}\n", crate::line::to_line(&input)));
    // A decision that failed closed has no outcome: its error is all there is to say.
    if let (None, Some(error)) = (entry.get("outcome"), entry.get("error").and_then(Value::as_str)) {
        render::out(&format!("  {}\n", render::shown(error)));
        return Exit::Done;
    }
    explain(&entry);
    Exit::Done
}

/// One decision's reading from its log entry, and what its body did.
pub(crate) fn explain(entry: &Value) {
    let mut answers: BTreeMap<String, BTreeMap<String, f64>> = BTreeMap::new();
    for round in entry.get("answers").and_then(Value::as_array).into_iter().flatten() {
        if let Some(raw) = round
            .get("raw")
            .and_then(|r| serde_json::from_value::<BTreeMap<String, BTreeMap<String, f64>>>(r.clone()).ok())
        {
            answers.extend(raw);
        }
    }
    let candidates = entry.get("candidates").cloned().unwrap_or(Value::Array(Vec::new()));
    render::out(&render::reading(entry, &answers, &candidates));
    // What the body did, when it ran.
    if let Some(text) = entry.pointer("/result/text").and_then(Value::as_str) {
        render::out(&format!("  ran: {}", render::result(text)));
    } else if let Some(error) = entry.get("error").and_then(Value::as_str) {
        render::out(&format!("  failed: {}\n", render::shown(error)));
    }
}
