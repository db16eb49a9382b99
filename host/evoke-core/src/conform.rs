//! The core's functions as the conformance vectors call them: a function's name and its case input as
//! JSON, its output as JSON (vectors/README.md). The vector walker and `evoke conform` both go through here,
//! so there is one reading of the protocol.

use crate::adapter::{Gate, Raw};
use crate::catalog::{Catalog, Reflex};
use crate::decide::Decider;
use crate::decision::Outcome;
use crate::diag::{Diagnostic, Reading};
use crate::gate::{Complete, abstains, confirm_reasons};
use crate::identity::identity;
use crate::lint::lint;
use crate::manifest::Effect;
use crate::manifest::{Manifest, read_manifest};
use crate::mention::{Offered, said};
use crate::mood::{Mood, mood};
use crate::overlay::read_overlay;
use crate::question::{Question, QuestionId, Questions};
use crate::recognize::{PickKind, candidates};
use crate::validate::validate;
use crate::vocab::read_vocab;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

pub use crate::case_error::CaseError;

/// The functions a vector folder may name.
pub const FUNCTIONS: [&str; 17] = [
    "identity",
    "manifest",
    "lint",
    "overlay",
    "vocab",
    "recognize",
    "mentions",
    "questions",
    "validate",
    "gate",
    "decide",
    "refs",
    "h1",
    "versions",
    "weave",
    "playbook",
    "mood",
];

/// Runs `function` on a case's `input`. An input of the wrong shape is an error, not a fault.
pub fn call(function: &str, input: &Value) -> Result<Value, CaseError> {
    match function {
        "identity" => Ok(json!(identity(as_str(input, None)?))),
        "manifest" => Ok(reading_json(manifest_of(input)?, |m| m.to_canonical_json())),
        "lint" => {
            let reading = manifest_of(input)?;
            let Some(manifest) = reading.value else {
                return Ok(fault_json(reading.first_error()));
            };
            Ok(serde_json::to_value(lint(&manifest))?)
        }
        "overlay" => {
            let shipped = manifest_of(input)?;
            let Some(shipped) = shipped.value else {
                return Err(CaseError::ShippedManifest);
            };
            let overlay = as_str(input, Some("overlay"))?;
            Ok(reading_json(read_overlay("overlay.toml", overlay, &shipped), |m| m.to_canonical_json()))
        }
        "vocab" => {
            let name = as_str(input, Some("name"))?;
            let text = as_str(input, Some("toml"))?;
            let reading = read_vocab(name, &format!("vocab/{name}.toml"), text);
            match reading.value {
                Some(vocab) => Ok(vocab.to_canonical_json()),
                None => Ok(fault_json(reading.first_error())),
            }
        }
        "recognize" => recognize_case(input),
        "mentions" => mentions_case(input),
        "questions" => questions_case(input),
        "validate" => validate_case(input),
        "gate" => gate_case(input),
        "decide" => decide_case(input),
        "refs" => crate::refs::vector_case(input),
        "h1" => crate::h1::vector_case(input),
        "versions" => crate::contract::vector_case(input),
        "weave" => weave_case(input),
        "playbook" => playbook_case(input),
        "mood" => mood_case(input),
        other => Err(CaseError::NoFunction(other.to_string())),
    }
}

fn as_str<'v>(input: &'v Value, key: Option<&str>) -> Result<&'v str, CaseError> {
    let value = match key {
        Some(key) => input.get(key).ok_or_else(|| CaseError::Missing { key: key.to_string() })?,
        None => input,
    };
    value.as_str().ok_or_else(|| CaseError::NotAString { key: key.unwrap_or("input").to_string() })
}

fn manifest_of(input: &Value) -> Result<Reading<Manifest>, CaseError> {
    let text = as_str(input, Some(if input.get("manifest").is_some() { "manifest" } else { "toml" }))?;
    let files: Vec<String> = match input.get("files") {
        None => Vec::new(),
        Some(files) => serde_json::from_value(files.clone())
            .map_err(|reason| CaseError::Shape { at: "\"files\"".into(), reason })?,
    };
    let exists = move |path: &str| files.iter().any(|f| f.trim_start_matches("./") == path);
    Ok(read_manifest("reflex.toml", text, &exists))
}

fn reading_json(reading: Reading<Manifest>, canonical: impl Fn(&Manifest) -> Value) -> Value {
    match &reading.value {
        Some(manifest) => {
            let warnings: Vec<Value> = reading.warnings().map(|w| json!(w.fault())).collect();
            json!({ "manifest": canonical(manifest), "warnings": warnings })
        }
        None => fault_json(reading.first_error()),
    }
}

fn fault_json(error: Option<&Diagnostic>) -> Value {
    match error {
        Some(d) => json!({ "fault": d.fault() }),
        None => json!({ "fault": null }),
    }
}

/// Compares an output with a vector's `expected`: objects as objects, numbers by value, and arrays in
/// order unless `unordered` (a folder whose output is a set).
pub fn same(expected: &Value, actual: &Value, unordered: bool) -> bool {
    match (expected, actual) {
        (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len() && a.iter().all(|(k, v)| b.get(k).is_some_and(|w| same(v, w, unordered)))
        }
        (Value::Array(a), Value::Array(b)) if unordered => {
            let mut left: Vec<&Value> = b.iter().collect();
            a.len() == b.len()
                && a.iter().all(|v| match left.iter().position(|w| same(v, w, unordered)) {
                    Some(i) => {
                        left.swap_remove(i);
                        true
                    }
                    None => false,
                })
        }
        (Value::Array(a), Value::Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(v, w)| same(v, w, unordered)),
        _ => expected == actual,
    }
}

/// Folders whose expected output is a set.
pub fn is_unordered(function: &str) -> bool {
    function == "lint" || function == "versions"
}

fn recognize_case(input: &Value) -> Result<Value, CaseError> {
    let text = as_str(input, Some("text"))?;
    let kind = as_str(input, Some("kind"))?;
    let kind: PickKind = kind.parse().map_err(|_| CaseError::PickKind { kind: kind.to_string() })?;
    let found: Vec<Value> =
        candidates(text, kind).into_iter().map(|c| json!({ "span": c.span, "value": c.value })).collect();
    Ok(Value::Array(found))
}

/// The option keys and vocabulary words `input` says for each options or vocab argument of `reflex`.
fn mentions_case(input: &Value) -> Result<Value, CaseError> {
    let catalog = catalog_of(input)?;
    let name = as_str(input, Some("reflex"))?;
    let text = as_str(input, Some("input"))?;
    let reflex = catalog.get(name).ok_or_else(|| CaseError::NoReflex { name: name.to_string() })?;
    let asked: Vec<(&str, Question)> = reflex
        .manifest
        .args
        .iter()
        .filter(|a| matches!(a.source, crate::manifest::Source::Options(_) | crate::manifest::Source::Vocab(_)))
        .filter_map(|a| crate::question::argument(reflex, a, &[]).map(|q| (a.name.as_str(), q)))
        .collect();
    let offered: Vec<Offered> = asked
        .iter()
        .filter_map(|(name, q)| match q {
            Question::Choice { ask, options, .. } => Some(Offered {
                name,
                ask,
                keys: options
                    .0
                    .iter()
                    .filter(|(k, _)| k != crate::question::NONE && k != crate::question::UNSTATED)
                    .map(|(k, t)| {
                        let meaning = match t {
                            crate::question::Text::Plain(s) => s.as_str(),
                            crate::question::Text::Rich { what, .. } => what.as_str(),
                        };
                        (k.as_str(), meaning)
                    })
                    .collect(),
            }),
            Question::Yesno { .. } => None,
        })
        .collect();
    let read = said(text, &offered);
    let out: Map<String, Value> = offered
        .iter()
        .zip(read)
        .map(|(o, s)| {
            let mentions: Vec<Value> =
                s.mentions.into_iter().map(|m| json!({ "key": m.key, "span": m.span })).collect();
            (o.name.to_string(), Value::Array(mentions))
        })
        .collect();
    Ok(Value::Object(out))
}

/// Builds the catalog a case describes: `reflexes` maps a local name to its `manifest`, `files`, optional
/// `overlay`, and `vocab` (vocabulary name → TOML), in install order.
fn catalog_of(input: &Value) -> Result<Catalog, CaseError> {
    let reflexes = input
        .get("reflexes")
        .and_then(Value::as_object)
        .ok_or(CaseError::MissingCollection { key: "reflexes", kind: "object" })?;
    let mut reflexes_read = Vec::new();
    for (name, spec) in reflexes {
        let shipped = manifest_of(spec)?.value.ok_or_else(|| CaseError::Manifest { reflex: name.clone() })?;
        let manifest = match spec.get("overlay").and_then(Value::as_str) {
            Some(overlay) => read_overlay("overlay.toml", overlay, &shipped)
                .value
                .ok_or_else(|| CaseError::Overlay { reflex: name.clone() })?,
            None => shipped,
        };
        let mut vocabs = BTreeMap::new();
        if let Some(map) = spec.get("vocab").and_then(Value::as_object) {
            for (vocab, text) in map {
                let text = text.as_str().ok_or_else(|| CaseError::VocabularyNotText { vocabulary: vocab.clone() })?;
                let words = read_vocab(vocab, "vocab.toml", text)
                    .value
                    .ok_or_else(|| CaseError::Vocabulary { vocabulary: vocab.clone() })?;
                vocabs.insert(vocab.clone(), words);
            }
        }
        reflexes_read.push(Reflex { name: name.clone(), manifest, vocabs });
    }
    Ok(Catalog::new(reflexes_read))
}

/// A question's structure as vectors pin it: its type, the keys offered in order, and the sentinel.
fn question_shape(question: &Question) -> Value {
    match question {
        Question::Choice { options, otherwise, .. } => {
            let mut shape = json!({ "type": "choice", "keys": options.keys().collect::<Vec<_>>() });
            if let Some(otherwise) = otherwise {
                shape["otherwise"] = json!(otherwise);
            }
            shape
        }
        Question::Yesno { .. } => json!({ "type": "yesno" }),
    }
}

fn questions_shape(questions: &Questions) -> Value {
    Value::Object(questions.0.iter().map(|(id, q)| (id.to_string(), question_shape(q))).collect())
}

fn raw_of(value: &Value) -> Result<Raw, CaseError> {
    let map = value.as_object().ok_or(CaseError::AnswersNotAnObject)?;
    let mut raw = Raw::new();
    for (question, keys) in map {
        let keys = keys.as_object().ok_or_else(|| CaseError::AnswerNotAnObject { question: question.clone() })?;
        let mut distribution = BTreeMap::new();
        for (key, p) in keys {
            // JSON has no NaN or infinity: a case writes them as strings.
            let p = match p {
                Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
                Value::String(s) => s.parse::<f64>().unwrap_or(f64::NAN),
                _ => f64::NAN,
            };
            distribution.insert(key.clone(), p);
        }
        raw.insert(question.clone(), distribution);
    }
    Ok(raw)
}

fn gate_of(input: &Value) -> Result<Option<Gate>, CaseError> {
    match input.get("gate") {
        None | Some(Value::Null) => Ok(None),
        Some(gate) => serde_json::from_value(gate.clone())
            .map(Some)
            .map_err(|reason| CaseError::Shape { at: "\"gate\"".into(), reason }),
    }
}

/// Round 1 for the input; with `route` answered, round 2 as well (the gate aside).
fn questions_case(input: &Value) -> Result<Value, CaseError> {
    let catalog = catalog_of(input)?;
    let text = as_str(input, Some("input"))?;
    let mut decider = Decider::new(&catalog, None, text).map_err(CaseError::Refused)?;
    let mut out = Map::new();
    let Some(first) = decider.questions() else { return Ok(json!({ "rounds": [] })) };
    let mut rounds = vec![questions_shape(first)];
    if let Some(route) = input.get("route") {
        let raw = raw_of(&Value::Object([(QuestionId::Route.to_string(), route.clone())].into_iter().collect()))?;
        let answers = validate(first, &raw).map_err(CaseError::Answer)?;
        if decider.feed(&answers).is_none()
            && let Some(second) = decider.questions()
        {
            rounds.push(questions_shape(second));
        }
    }
    out.insert("rounds".into(), Value::Array(rounds));
    Ok(Value::Object(out))
}

fn validate_case(input: &Value) -> Result<Value, CaseError> {
    let shapes = input
        .get("questions")
        .and_then(Value::as_object)
        .ok_or(CaseError::MissingCollection { key: "questions", kind: "object" })?;
    let mut questions = Vec::new();
    for (id, shape) in shapes {
        let question = match shape.get("type").and_then(Value::as_str) {
            Some("yesno") => Question::Yesno {
                ask: String::new(),
                yes: crate::question::Text::Plain(String::new()),
                no: crate::question::Text::Plain(String::new()),
            },
            Some("choice") => {
                let keys: Vec<String> = serde_json::from_value(shape.get("keys").cloned().unwrap_or_default())
                    .map_err(|reason| CaseError::Shape { at: format!("{id}: keys"), reason })?;
                Question::Choice {
                    ask: String::new(),
                    options: crate::question::Options(
                        keys.into_iter().map(|k| (k, crate::question::Text::Plain(String::new()))).collect(),
                    ),
                    otherwise: shape.get("otherwise").and_then(Value::as_str).map(str::to_string),
                }
            }
            _ => return Err(CaseError::QuestionType { id: id.clone() }),
        };
        questions.push((id.parse().map_err(CaseError::NotAnId)?, question));
    }
    let raw = raw_of(input.get("raw").ok_or_else(|| CaseError::Missing { key: "raw".into() })?)?;
    match validate(&Questions(questions), &raw) {
        Ok(answers) => {
            let answers: Map<String, Value> = answers
                .into_iter()
                .map(|(id, d)| (id.to_string(), Value::Object(d.0.into_iter().map(|(k, p)| (k, json!(p))).collect())))
                .collect();
            Ok(json!({ "answers": answers }))
        }
        Err(fault) => Ok(json!({ "fault": fault })),
    }
}

fn gate_case(input: &Value) -> Result<Value, CaseError> {
    let gate = gate_of(input)?;
    let route = input.get("route").ok_or_else(|| CaseError::Missing { key: "route".into() })?;
    let top = as_str(route, Some("top"))?;
    let p = route.get("p").and_then(Value::as_f64).ok_or(CaseError::NotANumber { key: "route.p" })?;
    let fits = input.get("fits").and_then(Value::as_f64);
    if abstains(gate.as_ref(), top, p, fits) {
        return Ok(json!({ "outcome": Outcome::Abstain }));
    }
    let effect = Effect::parse(as_str(input, Some("effect"))?).ok_or(CaseError::Effect)?;
    let confidence =
        input.get("confidence").and_then(Value::as_f64).ok_or(CaseError::NotANumber { key: "confidence" })?;
    let runner_up = match input.get("runner_up") {
        Some(r) if !r.is_null() => {
            Some((as_str(r, Some("reflex"))?, r.get("route").and_then(Value::as_f64).ok_or(CaseError::RunnerUpRoute)?))
        }
        _ => None,
    };
    let unconsumed = input.get("unconsumed").and_then(Value::as_bool).unwrap_or(false);
    let two_things = input.get("two_things").and_then(Value::as_bool).unwrap_or(false);
    let quoted = input.get("quoted").and_then(Value::as_bool).unwrap_or(false);
    // The sentence is optional: a case without one is a request.
    let mood = match input.get("sentence") {
        Some(sentence) => mood(sentence.as_str().ok_or_else(|| CaseError::Missing { key: "sentence".into() })?),
        None => Mood::Request,
    };
    // The words the read-back found nothing reads: optional, none where the case gives none.
    let more: Vec<String> = match input.get("more") {
        Some(Value::Array(words)) => words
            .iter()
            .map(|w| w.as_str().map(String::from))
            .collect::<Option<_>>()
            .ok_or(CaseError::Missing { key: "more".into() })?,
        _ => Vec::new(),
    };
    let complete = Complete {
        effect,
        confidence,
        unconsumed,
        quoted,
        text_read: None,
        text_left: Vec::new(),
        one_view: Vec::new(),
        respelt: Vec::new(),
        runner_up,
        two_things,
        mood,
        more,
        cut: Vec::new(),
    };
    let because = confirm_reasons(gate.as_ref(), &complete);
    if because.is_empty() {
        Ok(json!({ "outcome": Outcome::Run }))
    } else {
        Ok(json!({ "outcome": Outcome::Confirm, "because": because }))
    }
}

/// A whole decision: each round's questions answered from `answers` (a question it lacks goes
/// unanswered), the line without `trace`, or the fault that ended it.
/// A sentence and its answers, each round's under the words it is asked under, to what it came to: the
/// plan's shape (each step's words, outcome, call and repair; the stages; the verdict; what was left out;
/// each place to cut and whether it cut), or `{ "one": … }` for a sentence decided as one input, or a
/// fault.
fn weave_case(input: &Value) -> Result<Value, CaseError> {
    use crate::weave::weaver::{NotWoven, Weaver, Woven};
    let catalog = catalog_of(input)?;
    let gate = gate_of(input)?;
    let text = as_str(input, Some("input"))?;
    let by_text = input
        .get("answers")
        .and_then(Value::as_object)
        .ok_or(CaseError::MissingCollection { key: "answers", kind: "object" })?;
    let mut recorded: BTreeMap<&str, Raw> = BTreeMap::new();
    for (words, answers) in by_text {
        recorded.insert(words.as_str(), raw_of(answers)?);
    }
    let mut weaver = match Weaver::new(&catalog, gate, text) {
        Ok(weaver) => weaver,
        Err(NotWoven::Input(refusal)) => return Ok(json!({ "fault": refusal })),
        Err(NotWoven::TooMany(reason)) => return Ok(json!({ "fault": reason })),
    };
    while let Some((words, questions)) = weaver.questions() {
        let Some(answers) = recorded.get(words) else {
            return Ok(json!({ "fault": { "type": "no_answers", "text": words } }));
        };
        let raw: Raw = questions
            .ids()
            .map(QuestionId::to_string)
            .filter_map(|id| answers.get(&id).map(|a| (id, a.clone())))
            .collect();
        let validated = match validate(questions, &raw) {
            Ok(validated) => validated,
            Err(fault) => return Ok(json!({ "fault": fault, "text": words })),
        };
        if let Err(reason) = weaver.feed(&validated) {
            return Ok(json!({ "fault": reason }));
        }
    }
    let step = |d: &crate::decision::Decision| {
        let mut out = json!({ "text": d.input, "outcome": d.outcome });
        if let Some(call) = &d.call {
            out["call"] = json!(call);
        }
        out
    };
    // 003's count and asides, where the sentence could be cut: for a plan, and for a sentence that stood as one.
    let counted = |shape: &mut Value| {
        if let Some(count) = weaver.count() {
            shape["count"] = json!(count);
        }
        if !weaver.asides().is_empty() {
            shape["asides"] = json!(weaver.asides());
        }
    };
    match weaver.woven().ok_or(CaseError::Unfinished { what: "weave" })? {
        Woven::One(decision) => {
            let mut shape = json!({ "one": step(decision) });
            counted(&mut shape);
            Ok(shape)
        }
        Woven::Plan(plan) => {
            let steps: Vec<Value> = plan
                .steps
                .iter()
                .map(|s| {
                    let mut out = step(&s.decision);
                    if let Some(repair) = s.repair {
                        out["repair"] = json!(repair);
                    }
                    // The reasons only a woven step has, which its words alone do not give.
                    let woven: Vec<&crate::decision::Because> = s
                        .decision
                        .because
                        .iter()
                        .flatten()
                        .filter(|b| {
                            use crate::decision::Because;
                            matches!(b, Because::Named { .. } | Because::Pointed { .. } | Because::Detail { .. })
                        })
                        .collect();
                    if !woven.is_empty() {
                        out["because"] = json!(woven);
                    }
                    if let Some(typed) = &s.typed {
                        out["typed"] = json!(typed);
                    }
                    if !s.shared.is_empty() {
                        out["shared"] = json!(s.shared);
                        // What a shared value stands on: the words another part said it in (003's basis
                        // `shared`).
                        if let Some(basis) = &s.decision.basis {
                            out["basis"] = json!(basis);
                        }
                    }
                    if !s.beside.is_empty() {
                        out["beside"] = json!(s.beside);
                    }
                    if !s.refs.is_empty() {
                        out["refs"] = json!(s.refs);
                    }
                    out
                })
                .collect();
            let mut shape = json!({
                "steps": steps,
                "stages": plan.stages,
                "verdict": plan.verdict,
                "excluded": plan.excluded.iter().map(|e| e.text.clone()).collect::<Vec<_>>(),
                "splits": plan.splits.iter().map(|s| json!({ "text": s.text, "at": s.start, "cut": s.cut })).collect::<Vec<_>>(),
            });
            if plan.exclusive {
                shape["exclusive"] = json!(true);
            }
            if !plan.folded.is_empty() {
                shape["folded"] = json!(plan.folded);
            }
            counted(&mut shape);
            // A step bound to an earlier one's result: which value, from where, and how it enters.
            if !plan.binds.is_empty() {
                shape["binds"] = json!(
                    plan.binds
                        .iter()
                        .map(
                            |b| json!({ "step": b.step, "arg": b.arg, "from": b.from, "field": b.field, "via": b.via })
                        )
                        .collect::<Vec<_>>()
                );
            }
            Ok(shape)
        }
    }
}

/// A playbook read; with `reflexes` (and `playbooks`, local name to playbook.toml) installed, checked
/// against them as `name`, its strongest effect beside it.
fn playbook_case(input: &Value) -> Result<Value, CaseError> {
    use crate::playbook::{check, read_playbook, strongest_effect};
    let text = as_str(input, Some("toml"))?;
    if input.get("reflexes").is_none() {
        let reading = read_playbook("playbook.toml", text);
        return Ok(match &reading.value {
            Some(playbook) => {
                let warnings: Vec<Value> = reading.warnings().map(|w| json!(w.fault())).collect();
                json!({ "playbook": playbook.to_canonical_json(), "warnings": warnings })
            }
            None => fault_json(reading.first_error()),
        });
    }
    let reflexes = catalog_of(input)?;
    // A playbook's slots name vocabularies as a reflex's arguments do: the installed reflexes hold them.
    let vocabs: BTreeMap<String, crate::vocab::Vocabulary> =
        reflexes.reflexes().iter().flat_map(|r| r.vocabs.clone()).collect();
    let mut playbooks = Vec::new();
    if let Some(map) = input.get("playbooks") {
        let map = map.as_object().ok_or(CaseError::MissingCollection { key: "playbooks", kind: "object" })?;
        for (name, text) in map {
            let text = text.as_str().ok_or_else(|| CaseError::NotAString { key: format!("playbooks.{name}") })?;
            let playbook =
                read_playbook("playbook.toml", text).value.ok_or_else(|| CaseError::Playbook { name: name.clone() })?;
            let effect = strongest_effect(&playbook, &reflexes);
            playbooks.push((playbook.as_reflex(name, effect, vocabs.clone()), playbook));
        }
    }
    let catalog = reflexes.with_playbooks(playbooks);
    let name = match input.get("name") {
        Some(_) => as_str(input, Some("name"))?,
        None => "playbook",
    };
    let reading = check("playbook.toml", text, name, &catalog);
    Ok(match &reading.value {
        Some(playbook) => {
            let warnings: Vec<Value> = reading.warnings().map(|w| json!(w.fault())).collect();
            json!({
                "playbook": playbook.to_canonical_json(),
                "effect": strongest_effect(playbook, &catalog).as_str(),
                "warnings": warnings,
            })
        }
        None => fault_json(reading.first_error()),
    })
}

/// A `mood` case: a sentence's mood, or a part's within the woven sentence that holds it.
fn mood_case(input: &Value) -> Result<Value, CaseError> {
    let (read, text) = match input {
        Value::String(text) => (mood(text), text.as_str()),
        _ => {
            let part = as_str(input, Some("part"))?;
            (crate::mood::within(part, as_str(input, Some("sentence"))?), part)
        }
    };
    // `own` only where it holds, so a case of any other mood pins the mood alone.
    Ok(match crate::mood::own_doing(text) {
        true => json!({ "mood": read, "own": true }),
        false => json!({ "mood": read }),
    })
}

fn decide_case(input: &Value) -> Result<Value, CaseError> {
    let catalog = catalog_of(input)?;
    let gate = gate_of(input)?;
    let text = as_str(input, Some("input"))?;
    let recorded = raw_of(input.get("answers").unwrap_or(&json!({})))?;
    let mut decider = match Decider::new(&catalog, gate, text) {
        Ok(decider) => decider,
        Err(refusal) => return Ok(json!({ "fault": refusal })),
    };
    while let Some(questions) = decider.questions() {
        let raw: Raw = questions
            .ids()
            .map(QuestionId::to_string)
            .filter_map(|id| recorded.get(&id).map(|a| (id, a.clone())))
            .collect();
        match validate(questions, &raw) {
            Ok(answers) => {
                decider.feed(&answers);
            }
            Err(fault) => return Ok(json!({ "fault": fault })),
        }
    }
    let decision = decider.decision().ok_or(CaseError::Unfinished { what: "decision" })?;
    // Results earlier in the session, `recalled` (each `{ reflex, data }`, oldest first): what an ask offers
    // as `choices.recent`.
    let Some(results) = input.get("recalled") else { return Ok(serde_json::to_value(decision)?) };
    let results = results.as_array().ok_or(CaseError::MissingCollection { key: "recalled", kind: "array" })?;
    let mut recalled = crate::recall::Recalled::default();
    for result in results {
        let name = as_str(result, Some("reflex"))?;
        let reflex = catalog.get(name).ok_or_else(|| CaseError::Missing { key: format!("reflexes.{name}") })?;
        recalled.remember(reflex, result.get("data"));
    }
    Ok(serde_json::to_value(recalled.recall(decision.clone()))?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_input_of_the_wrong_shape_names_the_key_and_what_it_must_be() {
        let e = call("identity", &json!(3)).unwrap_err();
        assert!(matches!(&e, CaseError::NotAString { key } if key == "input"));
        assert_eq!(e.to_string(), "\"input\" must be a string");
        let e = call("gate", &json!({})).unwrap_err();
        assert!(matches!(&e, CaseError::Missing { key } if key == "route"));
        assert_eq!(e.to_string(), "the input has no \"route\"");
        let e = call("decide", &json!({ "reflexes": [] })).unwrap_err();
        assert!(matches!(e, CaseError::MissingCollection { key: "reflexes", kind: "object" }));
        let e = call("gate", &json!({ "gate": 1, "route": {} })).unwrap_err();
        assert!(matches!(&e, CaseError::Shape { at, .. } if at == "\"gate\""));
        let e = call("mood", &json!({ "part": "turn it off" })).unwrap_err();
        assert!(matches!(&e, CaseError::Missing { key } if key == "sentence"));
    }

    #[test]
    fn a_function_there_is_not_is_named() {
        let e = call("nothing", &json!({})).unwrap_err();
        assert!(matches!(&e, CaseError::NoFunction(name) if name == "nothing"));
        assert_eq!(e.to_string(), "no core function is named \"nothing\"");
    }

    #[test]
    fn the_other_modules_cases_say_which_file_or_key() {
        let e = call("h1", &json!({ "files": [{ "path": "a" }] })).unwrap_err();
        assert!(matches!(&e, CaseError::ContentOrKind { path } if path == "a"));
        assert_eq!(e.to_string(), "a: give \"content\" or \"kind\"");
        assert!(matches!(call("refs", &json!(1)).unwrap_err(), CaseError::InputNotAString));
        let e = call("versions", &json!({ "tags": 1 })).unwrap_err();
        assert!(matches!(&e, CaseError::Shape { at, .. } if at == "tags"));
        assert!(e.to_string().starts_with("tags: "), "{e}");
    }
}
