//! `local`'s reading of a place to cut (`weave.cut_<start>_<end>`): a logistic reader over what the words
//! and the route say on each side of the connective. The words' rules ([`super::weave`]) are one of its
//! inputs; the others are the route's sureness on the stretch before the place, on the stretch after it
//! and on the whole sentence, whether the two stretches route to one reflex, the connective, the words
//! that open the stretch after, and the stretches' lengths.
//!
//! The weights are data (`cut.tsv`, a name and a weight per line), fitted on CLINC150's `train` split by
//! `cargo bench -p evoke-adapters -F embed --bench clinc --profile dev -- cut-fit`: every place to cut in
//! a single request is a place not to cut, and two requests of different intents joined by a connective
//! are cut at the join. A place a negation opens is always cut (000 §13.1: what was said not to do is no
//! step), whatever the weights say.

use super::words::{Word, is_stop, words};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The fitted weights, kept beside this file.
const WEIGHTS: &str = include_str!("cut.tsv");

/// Words that may open a clause before the word that says what it is: the first of the others counts as
/// the clause's opening word too.
pub const LEAD: &[&str] = &["then", "also", "and", "please", "so", "just", "now"];

/// A place's features: a name each, with its value.
pub type Features = Vec<(String, f64)>;

/// What the reader sees at one place to cut.
#[derive(Debug, Clone)]
pub struct Sides<'a> {
    /// The connective as typed, lowercased: `and`, `after that`, `,`.
    pub connective: &'a str,
    /// The words from the place before this one (or the start) up to the connective.
    pub left: &'a str,
    /// The words from the connective up to the next place (or the end).
    pub right: &'a str,
    /// The words' rules' answer: how likely they read a request of its own after the place.
    pub rule: f64,
    /// Whether the words after the place (past the words that lead to a clause) open with a word a
    /// request here starts with, and whether the sentence does.
    pub right_opens_request: bool,
    pub left_opens_request: bool,
    /// The route's most probable key and its probability, on the left stretch and on the right one.
    pub left_top: (&'a str, f64),
    pub right_top: (&'a str, f64),
    /// The whole sentence's probability of each side's key.
    pub whole_on_left: f64,
    pub whole_on_right: f64,
}

/// The reader's features at a place: a name each, with its value (1 for a word or a range).
pub fn features(s: &Sides) -> Features {
    let left = words(s.left);
    let right = words(s.right);
    let mut out: Features = vec![
        ("bias".into(), 1.0),
        ("rule".into(), s.rule),
        ("right.opens_request".into(), f64::from(u8::from(s.right_opens_request))),
        ("left.opens_request".into(), f64::from(u8::from(s.left_opens_request))),
        ("both_open_requests".into(), f64::from(u8::from(s.right_opens_request && s.left_opens_request))),
        (format!("connective={}", s.connective), 1.0),
        ("left.short".into(), f64::from(u8::from(left.len() <= 2))),
        ("right.short".into(), f64::from(u8::from(right.len() <= 2))),
        ("left.p".into(), s.left_top.1),
        ("right.p".into(), s.right_top.1),
        ("sides.min_p".into(), s.left_top.1.min(s.right_top.1)),
        ("whole.on_left".into(), s.whole_on_left),
        ("whole.on_right".into(), s.whole_on_right),
        ("sides.same".into(), f64::from(u8::from(s.left_top.0 == s.right_top.0))),
        (
            "sides.differ_min_p".into(),
            if s.left_top.0 == s.right_top.0 { 0.0 } else { s.left_top.1.min(s.right_top.1) },
        ),
        ("left.none".into(), f64::from(u8::from(s.left_top.0 == evoke_core::question::NONE))),
        ("right.none".into(), f64::from(u8::from(s.right_top.0 == evoke_core::question::NONE))),
        (
            "rule.sides_differ".into(),
            if s.left_top.0 == s.right_top.0 { 0.0 } else { s.rule * s.left_top.1.min(s.right_top.1) },
        ),
        (format!("rule.connective={}", s.connective), s.rule),
        ("right.points_back".into(), f64::from(u8::from(super::weave::points_back(s.right)))),
    ];
    // Words that carry little on their own (`i`, `and`, `can`, `what`) say how a clause is built, the same in
    // any project; a word that names a thing is only said to be one, so the weights learn no topic.
    let word = |w: &Word| if is_stop(w) { w.lower.clone() } else { "(word)".to_string() };
    if let Some(w) = right.first() {
        out.push((format!("right.first={}", word(w)), 1.0));
    }
    if let Some(w) = right.iter().find(|w| !LEAD.contains(&w.lower.as_str())) {
        out.push((format!("right.opens={}", word(w)), 1.0));
    }
    if let [a, b, ..] = right.as_slice() {
        out.push((format!("right.first2={} {}", word(a), word(b)), 1.0));
    }
    if let Some(w) = left.last() {
        out.push((format!("left.last={}", word(w)), 1.0));
    }
    if let Some(w) = left.first() {
        out.push((format!("left.first={}", word(w)), 1.0));
    }
    out
}

/// Whether both stretches open with a command verb as two commands do, and the later one does not point
/// back at what the earlier asks of the same reflex (`take 400 dollars out of checking and put it into
/// savings` is one transfer, 003's `merged`).
pub fn two_commands(features: &[(String, f64)]) -> bool {
    let has = |feature: &str| features.iter().any(|(name, x)| name == feature && *x == 1.0);
    has("both_open_requests") && !(has("sides.same") && has("right.points_back"))
}

/// The weights, read once from `cut.tsv`.
pub(crate) fn weights() -> &'static HashMap<String, f64> {
    static WEIGHTS_READ: OnceLock<HashMap<String, f64>> = OnceLock::new();
    WEIGHTS_READ.get_or_init(|| parse(WEIGHTS).expect("cut.tsv is well formed (a unit test reads it)"))
}

/// A weights file: `name<TAB>weight` per line, `#` lines and blank lines skipped.
pub fn parse(text: &str) -> Result<HashMap<String, f64>, String> {
    let mut out = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let (name, weight) =
            line.rsplit_once('\t').ok_or_else(|| format!("cut.tsv:{}: expected a name, a tab and a weight", i + 1))?;
        let weight: f64 = weight.parse().map_err(|_| format!("cut.tsv:{}: {weight:?} is not a number", i + 1))?;
        out.insert(name.to_string(), weight);
    }
    Ok(out)
}

/// How likely the place separates two requests, by the given weights.
pub fn weigh_with(weights: &HashMap<String, f64>, features: &[(String, f64)]) -> f64 {
    let z: f64 = features.iter().map(|(name, x)| weights.get(name).copied().unwrap_or(0.0) * x).sum();
    1.0 / (1.0 + (-z).exp())
}

/// How likely the place separates two requests.
pub fn weigh(sides: &Sides) -> f64 {
    weigh_with(weights(), &features(sides))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kept_weights_read() {
        let weights = parse(WEIGHTS).expect("well formed");
        assert!(weights.contains_key("bias") && weights.contains_key("rule"), "{} weights", weights.len());
    }

    #[test]
    fn a_line_without_a_tab_names_its_line() {
        let err = parse("bias\t0.5\nrule 2").unwrap_err();
        assert!(err.contains("cut.tsv:2"), "{err}");
    }
}
