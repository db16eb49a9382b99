//! An example adapter component (`evoke:adapter@1.0.0`): it answers every question by the words the
//! request shares with each option's text. A toy, not a classifier; it shows the whole contract: the
//! description with its gate, the questions as JSON in, a distribution per question out.
//!
//! Build: `cd reflexes && cargo build --release -p keywords` (the `.wasm` lands in
//! `target/guests/wasm32-wasip2/release/keywords.wasm`); install: `evoke adapter add keywords FILE`.

wit_bindgen::generate!({
    path: "../../../../wit/adapter/v1",
    world: "evoke:adapter/adapter@1.0.0",
    // Bindings for the world's wasi:http import too (and the wasi:io and wasi:clocks it uses).
    generate_all,
});

use exports::evoke::adapter::engine::{Description, Distribution, Gate, Guest, Limits};
use serde_json::Value;
use std::collections::BTreeSet;

struct Keywords;

/// Words that say nothing about which option is meant.
const STOP: &[&str] = &[
    "a", "an", "the", "to", "for", "of", "in", "on", "at", "and", "or", "it", "me", "my", "is", "be", "this",
    "that", "please", "set", "do", "with", "what", "which", "these", "does", "request", "asks",
];

/// Lower-case runs of letters and digits, without stop words, a plural `s` cut.
fn words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let w = w.to_lowercase();
            match w.strip_suffix('s') {
                Some(stem) if stem.len() > 2 => stem.to_string(),
                _ => w,
            }
        })
        .filter(|w| !STOP.contains(&w.as_str()))
        .collect()
}

/// Everything an option's text says for it: a string, or `{ what, examples }` (its `not_for` is against).
fn text_words(text: &Value) -> (BTreeSet<String>, BTreeSet<String>) {
    match text {
        Value::String(s) => (words(s), BTreeSet::new()),
        Value::Object(o) => {
            let mut all = o.get("what").and_then(Value::as_str).map(words).unwrap_or_default();
            for example in o.get("examples").and_then(Value::as_array).into_iter().flatten() {
                all.extend(example.as_str().map(words).unwrap_or_default());
            }
            let mut against = BTreeSet::new();
            for entry in o.get("not_for").and_then(Value::as_array).into_iter().flatten() {
                against.extend(entry.as_str().map(words).unwrap_or_default());
            }
            (all, against)
        }
        _ => (BTreeSet::new(), BTreeSet::new()),
    }
}

/// How many of the request's words the key and its text hold, less those its `not_for` holds.
fn overlap(said: &BTreeSet<String>, key: &str, text: &Value) -> f64 {
    let (mut for_it, against) = text_words(text);
    for_it.extend(words(key));
    let hits = said.intersection(&for_it).count() as f64;
    let misses = said.intersection(&against).filter(|w| !for_it.contains(*w)).count() as f64;
    hits - misses
}

fn choice(said: &BTreeSet<String>, question: &Value) -> Vec<(String, f64)> {
    let otherwise = question.get("otherwise").and_then(Value::as_str);
    let options = question.get("options").and_then(Value::as_object).cloned().unwrap_or_default();
    // The sentinel stands at half a word: it wins when nothing else is said.
    let scores: Vec<(String, f64)> = options
        .iter()
        .map(|(key, text)| {
            let score = if Some(key.as_str()) == otherwise { 0.5 } else { overlap(said, key, text) };
            (key.clone(), score)
        })
        .collect();
    // A softmax: each shared word makes an option e^2 ≈ 7 times likelier.
    let top = scores.iter().map(|(_, s)| *s).fold(f64::MIN, f64::max);
    let weights: Vec<f64> = scores.iter().map(|(_, s)| (2.0 * (s - top)).exp()).collect();
    let total: f64 = weights.iter().sum();
    scores.into_iter().zip(weights).map(|((key, _), w)| (key, w / total)).collect()
}

fn yesno(said: &BTreeSet<String>, question: &Value) -> Vec<(String, f64)> {
    let yes = question.get("yes").map_or(0.0, |text| overlap(said, "", text));
    let p = if yes >= 1.0 { 0.9 } else { 0.2 };
    vec![("yes".to_string(), p)]
}

impl Guest for Keywords {
    fn describe() -> Description {
        Description {
            id: "keywords/1".into(),
            limits: Some(Limits { options: Some(200), tokens: None }),
            gate: Some(Gate { route: 0.5, fits: None, read: 0.6, write: 0.8 }),
            plan: None,
        }
    }

    fn answer(request: String, questions: String) -> Result<Vec<Distribution>, String> {
        let questions: serde_json::Map<String, Value> =
            serde_json::from_str(&questions).map_err(|e| format!("the questions are not JSON: {e}"))?;
        let said = words(&request);
        let mut answers = Vec::new();
        for (id, question) in &questions {
            let probabilities = match question.get("type").and_then(Value::as_str) {
                Some("choice") => choice(&said, question),
                Some("yesno") => yesno(&said, question),
                other => return Err(format!("{id}: a question of type {other:?} is not one this adapter knows")),
            };
            answers.push(Distribution { question: id.clone(), probabilities });
        }
        Ok(answers)
    }
}

export!(Keywords);
