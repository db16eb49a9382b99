//! Fuzz targets for the parsers of evoke-core and Expresso's: every text evoke or Expresso reads from outside
//! goes through one of these functions. Each takes any bytes, must never panic, and checks what its parser promises about what it
//! accepts; a broken promise is a panic, which a fuzzer reports as a crash.
//!
//! The same functions run three ways: the stable smoke test of this crate (seeds and deterministic
//! mutations, under `cargo test`), the libFuzzer project in `fuzz/` (one `fuzz_target!` each, nightly),
//! and `.ci/fuzz`, which runs that project briefly when nightly is there.
//!
//! Bytes that are not UTF-8 are read lossily, so that every input reaches its parser: the files evoke
//! reads are UTF-8 by then, and a replacement character is as hostile as any other.
//!
//! Two targets read two texts from one input, split at the first NUL byte (a NUL can never be part of a
//! TOML file evoke accepts): `overlay` reads `MANIFEST \0 OVERLAY`, and `vocab` reads `NAME \0 TOML`.
//! Without a NUL, the overlay lies over the shipped `lights` manifest, and the vocabulary is `rooms`.

pub mod mutate;
pub mod seeds;

use evoke_core::adapter::Raw;
use evoke_core::diag::Reading;
use evoke_core::identity::identity;
use evoke_core::lint::lint;
use evoke_core::log_entry::{nth_from_end, read_log_entry};
use evoke_core::manifest::{Manifest, Source, read_manifest};
use evoke_core::overlay::read_overlay;
use evoke_core::question::{Options, Question, QuestionId, Questions, Text};
use evoke_core::recording::read_recording;
use evoke_core::refs::{parse_ref, parse_ref_and_tag, parse_version_tag};
use evoke_core::text::{check_clean, is_name, is_sentinel};
use evoke_core::validate::{AnswerFault, SUM_TOLERANCE, validate};
use evoke_core::vocab::read_vocab;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

/// What a target made of its input: the smoke test checks that both sides are reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Accepted,
    Refused,
}

/// One fuzz target: its name (the name of its `fuzz_target!` and its seed folder) and its function.
pub struct Target {
    pub name: &'static str,
    pub run: fn(&[u8]) -> Verdict,
}

/// Every target. A new parser gets a row here, a function below, a file in `fuzz/fuzz_targets/` and a
/// `[[bin]]` in `fuzz/Cargo.toml`, and seeds in [`seeds::for_target`].
///
/// A plan file's reader joins once weaving lands: `plan` here, `pub fn plan(data: &[u8]) -> Verdict`
/// reading the file and checking that an accepted plan's digest is the digest of what it declares, seeds
/// from the plan files the transcripts then ship, and `fuzz/fuzz_targets/plan.rs`.
pub const TARGETS: &[Target] = &[
    Target { name: "manifest", run: manifest },
    Target { name: "overlay", run: overlay },
    Target { name: "vocab", run: vocab },
    Target { name: "recording", run: recording },
    Target { name: "answers", run: answers },
    Target { name: "refs", run: refs },
    Target { name: "why", run: why },
    Target { name: "expresso", run: expresso },
];

fn text(data: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// The two texts of an input split at its first NUL byte, or `None` without one.
fn split_nul(data: &[u8]) -> Option<(&[u8], &[u8])> {
    let at = data.iter().position(|&b| b == 0)?;
    Some((&data[..at], &data[at + 1..]))
}

/// Which files a fuzzed manifest's directory holds: every path but those naming `absent`, so that both
/// sides of the `run` check are reachable.
fn listing(path: &str) -> bool {
    !path.contains("absent")
}

/// The shipped manifest an overlay lies over when its input brings none.
fn lights() -> &'static Manifest {
    static LIGHTS: OnceLock<Manifest> = OnceLock::new();
    LIGHTS.get_or_init(|| {
        read_manifest("reflex.toml", seeds::LIGHTS, &listing).value.expect("the shipped lights manifest reads")
    })
}

/// What every reader promises: a value exactly when no error was found, a refusal that names its error,
/// and diagnostics that render.
fn check_reading<T>(reading: &Reading<T>) -> Verdict {
    let errors = reading.diagnostics.iter().filter(|d| d.is_error()).count();
    assert_eq!(reading.value.is_some(), errors == 0, "a value exactly when nothing is an error");
    for diagnostic in &reading.diagnostics {
        assert!(diagnostic.place.line >= 1 && diagnostic.place.column >= 1, "places are 1-based: {diagnostic:?}");
        assert!(!diagnostic.render().is_empty());
    }
    match reading.value {
        Some(_) => Verdict::Accepted,
        None => {
            assert!(reading.first_error().is_some(), "a refusal names its error");
            Verdict::Refused
        }
    }
}

/// Every string an accepted file hands on, values and keys, is clean text (only a value may hold a line
/// feed: the description's).
fn assert_clean(value: &Value) {
    match value {
        Value::String(s) => assert!(check_clean(s, true).is_ok(), "an accepted string is not clean: {s:?}"),
        Value::Array(items) => items.iter().for_each(assert_clean),
        Value::Object(map) => {
            for (key, value) in map {
                assert!(check_clean(key, false).is_ok(), "an accepted key is not clean: {key:?}");
                assert_clean(value);
            }
        }
        _ => {}
    }
}

/// `reflex.toml`: the reader, then the canonical form and lint of what it accepts.
pub fn manifest(data: &[u8]) -> Verdict {
    let text = text(data);
    let reading = read_manifest("reflex.toml", &text, &listing);
    let verdict = check_reading(&reading);
    if let Some(manifest) = &reading.value {
        check_manifest(manifest);
        let _ = lint(manifest);
    }
    verdict
}

fn check_manifest(manifest: &Manifest) {
    assert_clean(&manifest.to_canonical_json());
    let mut names = BTreeSet::new();
    for arg in &manifest.args {
        assert!(is_name(&arg.name) && !is_sentinel(&arg.name), "an argument's name: {:?}", arg.name);
        assert!(names.insert(arg.name.as_str()), "two arguments named {:?}", arg.name);
        for key in arg.source.option_keys() {
            assert!(!is_sentinel(key), "an option key is a sentinel: {key:?}");
        }
        if let Some((min, max)) = arg.range {
            assert!(min <= max, "a range is min ≤ max: {min} {max}");
        }
    }
}

/// An overlay over a shipped manifest: what it accepts keeps the contract and never loosens the effect.
pub fn overlay(data: &[u8]) -> Verdict {
    let (shipped, overlay_text) = match split_nul(data) {
        Some((shipped, overlay)) => {
            let read = read_manifest("reflex.toml", &text(shipped), &listing).value;
            (read.map_or(Cow::Borrowed(lights()), Cow::Owned), text(overlay))
        }
        None => (Cow::Borrowed(lights()), text(data)),
    };
    let reading = read_overlay("overlay.toml", &overlay_text, &shipped);
    let verdict = check_reading(&reading);
    if let Some(merged) = &reading.value {
        check_manifest(merged);
        assert!(merged.effect >= shipped.effect, "an overlay loosened the effect");
        assert_eq!(merged.run, shipped.run, "an overlay changed `run`");
        assert_eq!(merged.config, shipped.config, "an overlay changed `config`");
        assert_eq!(merged.grants, shipped.grants, "an overlay changed `grants`");
        assert_eq!(merged.args.len(), shipped.args.len(), "an overlay added or removed an argument");
        for (a, b) in merged.args.iter().zip(&shipped.args) {
            assert_eq!((&a.name, a.optional, a.range, &a.was), (&b.name, b.optional, b.range, &b.was));
            assert_eq!(a.source.kind(), b.source.kind(), "an overlay changed the source of {}", a.name);
            assert!(a.source.option_keys().eq(b.source.option_keys()), "an overlay changed the options of {}", a.name);
            if !matches!(a.source, Source::Options(_)) {
                assert_eq!(a.source, b.source, "an overlay changed the source of {}", a.name);
            }
        }
    }
    verdict
}

/// A vocabulary: what it accepts is clean, trimmed, unreserved and unique under identity.
pub fn vocab(data: &[u8]) -> Verdict {
    let (name, toml) = match split_nul(data) {
        Some((name, toml)) => (text(name), text(toml)),
        None => (Cow::Borrowed("rooms"), text(data)),
    };
    let reading = read_vocab(&name, "vocab.toml", &toml);
    let verdict = check_reading(&reading);
    if let Some(vocabulary) = &reading.value {
        assert_clean(&vocabulary.to_canonical_json());
        let mut seen = BTreeSet::new();
        for word in &vocabulary.words {
            assert!(check_clean(&word.word, false).is_ok() && word.word.trim() == word.word && !word.word.is_empty());
            assert!(!is_sentinel(&word.word), "a word is a sentinel: {:?}", word.word);
            assert!(seen.insert(identity(&word.word)), "two words are one under identity: {:?}", word.word);
            assert!(vocabulary.find(&word.word).is_some(), "a word is not found by itself: {:?}", word.word);
        }
    }
    verdict
}

/// A recording: its bars are probabilities with read ≤ write, its limits positive, its answers keyed by
/// identity.
pub fn recording(data: &[u8]) -> Verdict {
    let text = text(data);
    let reading = read_recording("recording.toml", &text);
    let verdict = check_reading(&reading);
    if let Some(recording) = &reading.value {
        if let Some(gate) = recording.gate {
            let bars = [Some(gate.route), gate.fits, Some(gate.read), Some(gate.write)];
            assert!(bars.into_iter().flatten().all(|p| (0.0..=1.0).contains(&p)), "a bar is not a probability");
            assert!(gate.read <= gate.write, "read exceeds write");
        }
        assert!(recording.limits.options.is_none_or(|n| n >= 1) && recording.limits.tokens.is_none_or(|n| n >= 1));
        for (key, raw) in &recording.answers {
            // Identity drops one trailing mark per application, so a key may still end in one; any other
            // key is its own identity, and answers the input it was recorded for.
            if !key.ends_with(['.', '!', '?', '…']) {
                assert_eq!(&identity(key), key, "an answer is not keyed by identity");
                assert!(
                    recording.answers_for(key).is_some_and(|found| std::ptr::eq(found, raw)),
                    "{key:?} is not found"
                );
            }
        }
    }
    verdict
}

/// An adapter's answers, as a validation case: `{ "questions": { ID: { "type": "choice", "keys": [...],
/// "otherwise": KEY } | { "type": "yesno" } }, "raw": { ID: { KEY: NUMBER } } }`. A probability that is not
/// a JSON number (`"NaN"`, `"inf"`, `null`) reads as what it says or as NaN, as a malformed engine answer
/// would. What validates is a distribution over exactly the keys offered; a fault names what is wrong.
pub fn answers(data: &[u8]) -> Verdict {
    let Ok(case) = serde_json::from_slice::<Value>(data) else { return Verdict::Refused };
    let (Some(questions), Some(raw)) = (case.get("questions").and_then(questions_of), case.get("raw").and_then(raw_of))
    else {
        return Verdict::Refused;
    };
    match validate(&questions, &raw) {
        Ok(answers) => {
            let ids: BTreeSet<&QuestionId> = questions.ids().collect();
            assert_eq!(answers.keys().collect::<BTreeSet<_>>(), ids, "answers ≠ questions");
            for (id, question) in &questions.0 {
                let distribution = &answers[id];
                let text = id.to_string();
                let keys: Vec<&str> = distribution.0.iter().map(|(k, _)| k.as_str()).collect();
                assert_eq!(keys, question.keys(), "{id}: the keys validated are not the keys offered, in order");
                assert!(raw[&text].keys().all(|k| question.keys().contains(&k.as_str())), "{id}: a stranger passed");
                assert!(distribution.0.iter().all(|(_, p)| (0.0..=1.0).contains(p)), "{id}: not probabilities");
                let sum: f64 = distribution.0.iter().map(|(_, p)| p).sum();
                assert!((sum - 1.0).abs() <= SUM_TOLERANCE + 1e-9, "{id}: sums to {sum}");
                let (top, p) = distribution.top();
                assert!(question.keys().contains(&top) && p == distribution.p(top));
            }
            Verdict::Accepted
        }
        Err(fault) => {
            match &fault {
                AnswerFault::Unasked { question } => {
                    assert!(raw.contains_key(question) && questions.ids().all(|id| id.to_string() != *question))
                }
                AnswerFault::Unanswered { question } => assert!(questions.get(question).is_some()),
                AnswerFault::NotOffered { question, key } => {
                    assert!(
                        raw[&question.to_string()].contains_key(key)
                            && !questions.get(question).unwrap().keys().contains(&key.as_str())
                    )
                }
                AnswerFault::NotProbability { question, key, .. } => {
                    assert!(
                        !(0.0..=1.0).contains(&raw[&question.to_string()][key]),
                        "{question}.{key} is a probability"
                    )
                }
                AnswerFault::NotDistribution { question, .. } => assert!(questions.get(question).is_some()),
            }
            assert!(!fault.to_string().is_empty());
            Verdict::Refused
        }
    }
}

/// Questions as a validation case describes them. Keys offered twice are not a question evoke builds (its
/// keys are option keys, span keys and sentinels, each once), nor is an id of no shape evoke asks, so such
/// a case is set aside.
fn questions_of(value: &Value) -> Option<Questions> {
    let mut questions = Vec::new();
    for (id, shape) in value.as_object()? {
        let question = match shape.get("type")?.as_str()? {
            "yesno" => {
                Question::Yesno { ask: String::new(), yes: Text::Plain(String::new()), no: Text::Plain(String::new()) }
            }
            "choice" => {
                let keys: Vec<String> = shape
                    .get("keys")?
                    .as_array()?
                    .iter()
                    .map(|k| k.as_str().map(str::to_string))
                    .collect::<Option<_>>()?;
                if keys.iter().collect::<BTreeSet<_>>().len() != keys.len() {
                    return None;
                }
                let otherwise = shape.get("otherwise").and_then(Value::as_str).map(str::to_string);
                let options = Options(keys.into_iter().map(|k| (k, Text::Plain(String::new()))).collect());
                Question::Choice { ask: String::new(), options, otherwise }
            }
            _ => return None,
        };
        questions.push((id.parse().ok()?, question));
    }
    Some(Questions(questions))
}

fn raw_of(value: &Value) -> Option<Raw> {
    let mut raw = Raw::new();
    for (question, keys) in value.as_object()? {
        let mut distribution = BTreeMap::new();
        for (key, p) in keys.as_object()? {
            let p = match p {
                Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
                Value::String(s) => s.parse::<f64>().unwrap_or(f64::NAN),
                _ => f64::NAN,
            };
            distribution.insert(key.clone(), p);
        }
        raw.insert(question.clone(), distribution);
    }
    Some(raw)
}

/// A ref, with or without its tag, and a version tag alone: what reads, reads back the same from its text.
pub fn refs(data: &[u8]) -> Verdict {
    let text = text(data);
    let verdict = match parse_ref_and_tag(&text) {
        Ok((reference, tag)) => {
            assert!(check_clean(&reference.text(), false).is_ok());
            assert_eq!(parse_ref(&reference.text()).as_ref(), Ok(&reference), "a ref does not read back");
            assert!(!reference.host.is_empty() && reference.text().contains(&reference.host));
            if let Some(tag) = tag {
                let whole = format!("{}@{}", reference.text(), tag.tag());
                assert_eq!(parse_ref_and_tag(&whole), Ok((reference, Some(tag))), "ref@tag does not read back");
            }
            Verdict::Accepted
        }
        Err(fault) => {
            assert!(!fault.message().is_empty());
            Verdict::Refused
        }
    };
    if let Ok(version) = parse_version_tag(&text) {
        assert_eq!(parse_version_tag(&version.tag()).as_ref(), Ok(&version), "a tag does not read back");
        assert_eq!(version.precedence(&version), std::cmp::Ordering::Equal);
        return Verdict::Accepted;
    }
    verdict
}

/// The decision log as `evoke why` reads it: the last three entries and every line on its own.
pub fn why(data: &[u8]) -> Verdict {
    let log = text(data);
    let mut verdict = Verdict::Refused;
    for back in 1..=3 {
        let Ok(line) = nth_from_end(&log, back) else { break };
        assert!(!line.trim().is_empty(), "a blank line was counted");
        if let Ok(entry) = read_log_entry(line) {
            verdict = Verdict::Accepted;
            for (question, keys) in &entry.answers {
                assert!(entry.line["answers"].is_array(), "answers without rounds: {question}");
                for key in keys.keys() {
                    let _ = entry.candidate_text(key);
                }
            }
            assert_eq!(entry.input, entry.line.get("input").and_then(Value::as_str).unwrap_or_default());
        }
    }
    if log.lines().count() > 1 {
        for line in log.lines().take(8) {
            let _ = read_log_entry(line);
        }
    }
    verdict
}

/// An Expresso program: parsed, every diagnostic rendered, and checked when it parses. Accepted when it
/// parses and checks without a diagnostic.
pub fn expresso(data: &[u8]) -> Verdict {
    if expresso_lang::fuzz::fuzz(data) == 0 { Verdict::Accepted } else { Verdict::Refused }
}
