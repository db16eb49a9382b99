//! The questions of a decision, built from the active manifests and the input's
//! candidate spans, and the plan digest that pins every question the manifests can produce.

use crate::adapter::Limits;
use crate::catalog::{Catalog, Reflex};
use crate::manifest::{Arg, Asserted, Source};
use crate::recognize::Candidate;
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use serde_json::Value;
use sha2::{Digest, Sha256};

pub use crate::question_id::{NotAnId, QuestionId, RESERVED_NAMES};

/// The sentinel keys every question may answer with.
pub const NONE: &str = "none";
pub const UNSTATED: &str = "unstated";
pub const YES: &str = "yes";
pub const NO: &str = "no";

/// What the classifier reads for one option.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Text {
    Plain(String),
    Rich {
        what: String,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        not_for: Vec<String>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        examples: Vec<String>,
    },
}

/// Keys and texts in the order they are offered.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Options(pub Vec<(String, Text)>);

impl Options {
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(k, _)| k.as_str())
    }

    pub fn contains(&self, key: &str) -> bool {
        self.0.iter().any(|(k, _)| k == key)
    }
}

impl Serialize for Options {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_pairs(&self.0, serializer)
    }
}

/// Keyed pairs as a JSON object in their own order: the wire keeps the order things are offered in.
pub(crate) fn serialize_pairs<S: Serializer, K: Serialize, V: Serialize>(
    pairs: &[(K, V)],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(Some(pairs.len()))?;
    for (key, value) in pairs {
        map.serialize_entry(key, value)?;
    }
    map.end()
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Question {
    /// A distribution over the keys offered; `otherwise` names the sentinel among them.
    Choice {
        ask: String,
        options: Options,
        #[serde(skip_serializing_if = "Option::is_none")]
        otherwise: Option<String>,
    },
    /// Answered as `{ yes: p }`.
    Yesno { ask: String, yes: Text, no: Text },
}

impl Question {
    /// Every key an answer may name.
    pub fn keys(&self) -> Vec<&str> {
        match self {
            Question::Choice { options, .. } => options.keys().collect(),
            Question::Yesno { .. } => vec![YES, NO],
        }
    }
}

/// The questions of one round, by id, in the order they are asked.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Questions(pub Vec<(QuestionId, Question)>);

impl Questions {
    pub fn get(&self, id: &QuestionId) -> Option<&Question> {
        self.0.iter().find(|(i, _)| i == id).map(|(_, q)| q)
    }

    /// The route question, when this round asks it.
    pub fn route(&self) -> Option<&Question> {
        self.get(&QuestionId::Route)
    }

    pub fn ids(&self) -> impl Iterator<Item = &QuestionId> {
        self.0.iter().map(|(i, _)| i)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for Questions {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_pairs(&self.0, serializer)
    }
}

const ROUTE_ASK: &str = "Which of these does the request ask for?";
const FITS_ASK: &str = "Does this do what the request asks?";
const NONE_OF_THESE: &str = "None of these: the request asks for something else.";
const UNSTATED_TEXT: &str = "The request does not say.";
const NOT_OFFERED_TEXT: &str = "The request states a value that is not among these.";

/// Round 1: which reflex, or none of them.
pub fn route(catalog: &Catalog) -> Question {
    let mut options: Vec<(String, Text)> = catalog
        .reflexes()
        .iter()
        .map(|r| {
            let examples = r.manifest.examples.iter().map(|e| e.utterance.clone()).collect();
            let text =
                Text::Rich { what: r.manifest.description.clone(), not_for: r.manifest.not_for.clone(), examples };
            (r.name.clone(), text)
        })
        .collect();
    options.push((NONE.into(), Text::Plain(NONE_OF_THESE.into())));
    Question::Choice { ask: ROUTE_ASK.into(), options: Options(options), otherwise: Some(NONE.into()) }
}

/// `fits.<reflex>`: yes is the description, no its `not_for`.
pub fn fits(reflex: &Reflex) -> Question {
    let no = if reflex.manifest.not_for.is_empty() {
        "Something else.".to_string()
    } else {
        reflex.manifest.not_for.join("; ")
    };
    Question::Yesno { ask: FITS_ASK.into(), yes: Text::Plain(reflex.manifest.description.clone()), no: Text::Plain(no) }
}

/// An option's or a word's text: its meaning, with the examples that assert it for this argument. An
/// example that asserts an option teaches it (`"kill the lights" = { state = "off" }` says that kill means
/// off), so the classifier reads the utterance beside the meaning it teaches.
fn taught(reflex: &Reflex, arg: &Arg, key: &str, meaning: &str) -> Text {
    let examples: Vec<String> = reflex
        .manifest
        .examples
        .iter()
        .filter(|r| {
            r.asserts.as_ref().is_some_and(|values| {
                values.iter().any(|(name, value)| *name == arg.name && matches!(value, Asserted::Text(v) if v == key))
            })
        })
        .map(|r| r.utterance.clone())
        .collect();
    if examples.is_empty() {
        Text::Plain(meaning.to_string())
    } else {
        Text::Rich { what: meaning.to_string(), not_for: Vec::new(), examples }
    }
}

/// `<reflex>.<arg>` for this input, or `None` for a pick with no candidate: it reads as unstated.
pub fn argument(reflex: &Reflex, arg: &Arg, candidates: &[Candidate]) -> Option<Question> {
    let mut options: Vec<(String, Text)> = Vec::new();
    let mut none = true;
    match &arg.source {
        Source::Options(list) => {
            options.extend(list.iter().map(|(k, meaning)| (k.clone(), taught(reflex, arg, k, meaning))));
        }
        Source::Vocab(_) => {
            let words = reflex.vocab_of(&arg.name).map(|v| v.words.as_slice()).unwrap_or_default();
            options.extend(words.iter().map(|w| (w.word.clone(), taught(reflex, arg, &w.word, &w.what))));
        }
        Source::Pick(kind) => {
            let found: Vec<&Candidate> = candidates.iter().filter(|c| c.kind == *kind).collect();
            if found.is_empty() {
                return None;
            }
            options.extend(found.iter().map(|c| (c.span.key(), Text::Plain(c.span.text.clone()))));
            none = false;
        }
        Source::Flag => {
            options.push((YES.into(), Text::Plain("Yes.".into())));
            options.push((NO.into(), Text::Plain("No.".into())));
            none = false;
        }
        // A whole result is an earlier step's, never the words': nothing to ask.
        Source::Takes(_) => return None,
    }
    if none {
        options.push((NONE.into(), Text::Plain(NOT_OFFERED_TEXT.into())));
    }
    options.push((UNSTATED.into(), Text::Plain(UNSTATED_TEXT.into())));
    Some(Question::Choice { ask: arg.ask.clone(), options: Options(options), otherwise: Some(UNSTATED.into()) })
}

/// The reflexes whose fit is asked: all while there are at most 3, else those with route p ≥ 0.05, and
/// at least the top 2. `ranked` is in descending route order.
pub fn fits_asked<'a>(ranked: &[(&'a str, f64)]) -> Vec<&'a str> {
    if ranked.len() <= 3 {
        return ranked.iter().map(|(n, _)| *n).collect();
    }
    ranked.iter().enumerate().filter(|(i, (_, p))| *i < 2 || *p >= 0.05).map(|(_, (n, _))| *n).collect()
}

/// Round 2: the fits of the contenders and the winner's argument questions.
pub fn round_two(catalog: &Catalog, winner: &Reflex, fits_for: &[&str], candidates: &[Candidate]) -> Questions {
    let mut questions = Vec::new();
    for name in fits_for {
        if let Some(reflex) = catalog.get(name) {
            questions.push((QuestionId::fits(name), fits(reflex)));
        }
    }
    for arg in &winner.manifest.args {
        if let Some(question) = argument(winner, arg, candidates) {
            questions.push((QuestionId::arg(&winner.name, &arg.name), question));
        }
    }
    Questions(questions)
}

/// Every question template the active manifests can produce, a pick's candidates left open.
pub fn templates(catalog: &Catalog) -> Questions {
    let mut all = vec![(QuestionId::Route, route(catalog))];
    for reflex in catalog.reflexes() {
        all.push((QuestionId::fits(&reflex.name), fits(reflex)));
        for arg in &reflex.manifest.args {
            let template = match &arg.source {
                Source::Pick(kind) => Question::Choice {
                    ask: arg.ask.clone(),
                    options: Options(vec![
                        (format!("<{}>", kind.as_str()), Text::Plain("a span of the input".into())),
                        (UNSTATED.into(), Text::Plain(UNSTATED_TEXT.into())),
                    ]),
                    otherwise: Some(UNSTATED.into()),
                },
                // A whole result is never asked, so it has no template.
                Source::Takes(_) => continue,
                _ => argument(reflex, arg, &[]).expect("only picks and whole results go unasked"),
            };
            all.push((QuestionId::arg(&reflex.name, &arg.name), template));
        }
    }
    Questions(all)
}

/// The plan digest: SHA-256 of the canonical JSON of every template, as `sha256:<hex>`.
pub fn plan_digest(catalog: &Catalog) -> String {
    let value = serde_json::to_value(templates(catalog)).unwrap_or(Value::Null);
    let mut canonical = String::new();
    write_canonical(&value, &mut canonical);
    let digest = Sha256::digest(canonical.as_bytes());
    format!("sha256:{}", hex(&digest))
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// JSON with object keys sorted and no whitespace: one text per value.
pub fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String((*key).clone()).to_string());
                out.push(':');
                write_canonical(&map[*key], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// A plan over the adapter's limits, found at load.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverLimit {
    pub question: QuestionId,
    pub what: &'static str,
    pub count: usize,
    pub limit: usize,
}

/// A rough token count: four characters a token, the usual ratio for English text.
pub fn estimate_tokens(questions: &Questions) -> usize {
    serde_json::to_string(questions).map_or(0, |s| s.chars().count().div_ceil(4))
}

/// Checks every template against the adapter's limits: the options of each question, and the tokens of
/// each round (the route alone; one reflex's fits and arguments).
pub fn check_limits(catalog: &Catalog, limits: &Limits) -> Result<(), OverLimit> {
    let templates = templates(catalog);
    if let Some(limit) = limits.options {
        for (id, question) in &templates.0 {
            let count = question.keys().len();
            if count > limit {
                return Err(OverLimit { question: id.clone(), what: "options", count, limit });
            }
        }
    }
    if let Some(limit) = limits.tokens {
        let route = Questions(vec![(QuestionId::Route, route(catalog))]);
        let count = estimate_tokens(&route);
        if count > limit {
            return Err(OverLimit { question: QuestionId::Route, what: "tokens", count, limit });
        }
        for reflex in catalog.reflexes() {
            let names: Vec<&str> = catalog.reflexes().iter().take(3).map(|r| r.name.as_str()).collect();
            let round = round_two(catalog, reflex, &names, &[]);
            let count = estimate_tokens(&round);
            if count > limit {
                return Err(OverLimit { question: QuestionId::fits(&reflex.name), what: "tokens", count, limit });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::read_manifest;

    #[test]
    fn an_option_carries_the_examples_that_assert_it() {
        let text = r#"reflex = 1
description = "Lights."
effect = "write"
confirm = "Set {state}?"
run = "l.mjs"

[args.state]
ask = "On or off?"
options.on = "Switch on."
options.off = "Switch off."

[examples]
"kill the lights" = { state = "off" }
"lights please" = {}
"#;
        let manifest = read_manifest("reflex.toml", text, &|_: &str| true).value.expect("reads");
        let reflex = Reflex { name: "lights".into(), manifest, vocabs: Default::default() };
        let arg = &reflex.manifest.args[0];
        let Some(Question::Choice { options, .. }) = argument(&reflex, arg, &[]) else { panic!("a choice") };
        let off = options.0.iter().find(|(k, _)| k == "off").map(|(_, t)| t.clone());
        assert_eq!(
            off,
            Some(Text::Rich {
                what: "Switch off.".into(),
                not_for: Vec::new(),
                examples: vec!["kill the lights".into()]
            })
        );
        let on = options.0.iter().find(|(k, _)| k == "on").map(|(_, t)| t.clone());
        assert_eq!(on, Some(Text::Plain("Switch on.".into())));
    }
}
