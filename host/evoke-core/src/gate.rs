//! The gate: when a decision abstains, and why a complete call stops at confirm.

use crate::adapter::Gate;
use crate::decision::Because;
use crate::manifest::Effect;
use crate::mood::Mood;
use crate::question::NONE;

/// The gate's first rule: abstain on a `none` top, a route under its bar, or a winner whose fit is under its bar.
/// Bars apply only where the adapter declares a gate.
pub fn abstains(gate: Option<&Gate>, route_top: &str, route_p: f64, fits_yes: Option<f64>) -> bool {
    if route_top == NONE {
        return true;
    }
    let Some(gate) = gate else { return false };
    if route_p < gate.route {
        return true;
    }
    matches!((gate.fits, fits_yes), (Some(bar), Some(yes)) if yes < bar)
}

/// What a complete call has to go on.
#[derive(Debug, Clone, PartialEq)]
pub struct Complete<'a> {
    pub effect: Effect,
    pub confidence: f64,
    pub unconsumed: bool,
    /// A text in quotes no value took, where the reflex takes one.
    pub quoted: bool,
    /// A text typed without quotes that the call took: `(arg, text)`.
    pub text_read: Option<(String, String)>,
    /// The texts typed without quotes that no value took, where the reflex takes a text.
    pub text_left: Vec<String>,
    /// The values that stand on one view while the words name another for their argument: `(arg, words)`.
    pub one_view: Vec<(String, Vec<String>)>,
    /// The codes written unlike the argument's examples, set apart only by a case or a separator:
    /// `(arg, text)`.
    pub respelt: Vec<(String, String)>,
    /// The second reflex and its route p, when there is one.
    pub runner_up: Option<(&'a str, f64)>,
    /// The sentence joins something to the call that the call leaves out.
    pub two_things: bool,
    /// What the sentence does: a write or a destructive call runs only on a request.
    pub mood: Mood,
    /// The words the read-back found nothing the reflex says reads.
    pub more: Vec<String>,
    /// Those of them that follow a pick's value with nothing between: the value may be cut short.
    pub cut: Vec<String>,
}

/// The gate's third rule: every reason the call waits for a person, in order. Empty means it runs.
pub fn confirm_reasons(gate: Option<&Gate>, call: &Complete) -> Vec<Because> {
    let mut because = Vec::new();
    if call.effect == Effect::Destructive {
        because.push(Because::Destructive);
    }
    let not_a_request =
        (call.effect != Effect::Read && call.mood != Mood::Request).then_some(Because::NotARequest { mood: call.mood });
    let more =
        (call.effect != Effect::Read && !call.more.is_empty()).then(|| Because::More { words: call.more.clone() });
    let cut = (call.effect != Effect::Read && !call.cut.is_empty()).then(|| Because::Cut { words: call.cut.clone() });
    let text_read = call
        .text_read
        .as_ref()
        .filter(|_| call.effect != Effect::Read)
        .map(|(arg, text)| Because::TextRead { arg: arg.clone(), text: text.clone() });
    let text_left = (call.effect != Effect::Read && !call.text_left.is_empty())
        .then(|| Because::TextLeft { words: call.text_left.clone() });
    let more: Vec<Because> = text_read.into_iter().chain(more).chain(cut).collect();
    let one_view: Vec<Because> = call
        .one_view
        .iter()
        .map(|(arg, words)| Because::OneView { arg: arg.clone(), words: words.clone(), reads: None })
        .chain(
            call.respelt
                .iter()
                .filter(|_| call.effect != Effect::Read)
                .map(|(arg, text)| Because::Respelt { arg: arg.clone(), text: text.clone() }),
        )
        .collect();
    let Some(gate) = gate else {
        because.push(Because::NoGate);
        because.extend(one_view);
        because.extend(more);
        if call.quoted {
            because.push(Because::Quoted);
        }
        because.extend(text_left);
        if call.unconsumed {
            because.push(Because::UnconsumedSpan);
        }
        if call.two_things {
            because.push(Because::TwoThings);
        }
        because.extend(not_a_request);
        return because;
    };
    let floor = match call.effect {
        Effect::Read => Some(gate.read),
        Effect::Write => Some(gate.write),
        Effect::Destructive => None,
    };
    if let Some(bar) = floor
        && call.confidence < bar
    {
        because.push(Because::UnderFloor { bar });
    }
    because.extend(one_view);
    because.extend(more);
    if call.quoted {
        because.push(Because::Quoted);
    }
    because.extend(text_left);
    if call.unconsumed {
        because.push(Because::UnconsumedSpan);
    }
    if let Some((reflex, route)) = call.runner_up
        && route >= gate.route
    {
        because.push(Because::RunnerUp { reflex: reflex.to_string(), route });
    }
    if call.two_things {
        because.push(Because::TwoThings);
    }
    because.extend(not_a_request);
    because
}

/// Why a gate's bars cannot stand, wherever they were given: moved by the user, declared by a component,
/// written in a recording.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BarError {
    /// A bar outside 0 to 1, or not a number at all.
    NotAProbability { bar: &'static str, value: f64 },
    /// `read` over `write`: a read would be let through where a write is not.
    ReadOverWrite { read: f64, write: f64 },
}

impl std::fmt::Display for BarError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BarError::NotAProbability { bar, value } => {
                write!(f, "the `{bar}` bar is {value}; a bar is a probability, from 0 to 1")
            }
            BarError::ReadOverWrite { read, write } => {
                write!(f, "the `read` bar ({read}) exceeds the `write` bar ({write}); read never exceeds write")
            }
        }
    }
}

impl std::error::Error for BarError {}

/// The one check of a gate's bars: each a probability, and `read` never over `write`.
pub fn check_bars(gate: &Gate) -> Result<(), BarError> {
    for (bar, value) in
        [("route", Some(gate.route)), ("fits", gate.fits), ("read", Some(gate.read)), ("write", Some(gate.write))]
    {
        if let Some(value) = value.filter(|v| !(0.0..=1.0).contains(v)) {
            return Err(BarError::NotAProbability { bar, value });
        }
    }
    if gate.read > gate.write {
        return Err(BarError::ReadOverWrite { read: gate.read, write: gate.write });
    }
    Ok(())
}
