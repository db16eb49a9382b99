//! A read made again: a part whose call is the very read the step just before it makes is folded into that
//! step rather than run a second time (`what's the forecast, and will it rain`): the same read reads the
//! same thing. Words the call does not account for (`again`, a value it did not take, words it cannot
//! read) keep their own step, and a write is never folded.

use super::plan::{Decided, Repair};
use crate::decision::Outcome;
use serde::Serialize;

/// A part of the sentence folded into a step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Folded {
    /// The part's words as typed.
    pub text: String,
    /// The step it was folded into, from 1.
    pub into: usize,
    /// The values the part's own call gave, by argument, as shown.
    pub gave: serde_json::Map<String, serde_json::Value>,
    /// The word of the part that picked its step among several; absent where one step alone makes the call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub picked: Option<String>,
}

/// Folds each read decided on its own words that makes again the call of the step just before it into that
/// step. Only a part decided alone folds (a repair wrote the others' words), and only into a step that is no
/// `again`, which a part left out may still drop. `typed` runs beside `decided`.
pub fn fold(decided: Vec<Decided>, typed: Vec<Option<String>>) -> (Vec<Decided>, Vec<Option<String>>, Vec<Folded>) {
    let mut kept: Vec<Decided> = Vec::new();
    let mut kept_typed = Vec::new();
    let mut folded = Vec::new();
    for (d, t) in decided.into_iter().zip(typed) {
        // Only the step just before: a call said again after another step is that call once more, in order
        // (`mark it and nap and mark it`).
        let last = kept.len().checked_sub(1);
        let into = last.filter(|&at| {
            let k = &kept[at];
            read_again(&d) && k.repair != Some(Repair::Again) && same_call(k, &d)
        });
        match into {
            Some(at) => folded.push(Folded {
                text: d.part.text.clone(),
                into: at + 1,
                gave: d
                    .decision
                    .args
                    .iter()
                    .flat_map(|a| a.0.iter())
                    .map(|(name, value)| (name.clone(), serde_json::Value::from(value.shown())))
                    .collect(),
                picked: None,
            }),
            None => {
                kept.push(d);
                kept_typed.push(t);
            }
        }
    }
    (kept, kept_typed, folded)
}

/// Whether a part may be a read made again: decided alone on its own words, a read that acts, every word
/// accounted for by its call (none asks `again`, says `more`, or names a value it did not take), and not
/// held for its mood (`…, when we are out`). A write is never folded: the same write typed twice may be
/// two things wanted (two timers), and only its body knows.
fn read_again(d: &Decided) -> bool {
    d.repair.is_none()
        && d.decision.outcome != Outcome::Abstain
        && d.decision.call.is_some()
        && d.decision.effect == Some(crate::manifest::Effect::Read)
        && d.decision.left.as_ref().is_none_or(Vec::is_empty)
        && !d.decision.because.iter().flatten().any(|b| matches!(b, crate::decision::Because::NotARequest { .. }))
}

/// Whether two decisions make one call: the same reflex with the same values.
fn same_call(a: &Decided, b: &Decided) -> bool {
    a.decision.reflex.is_some() && a.decision.reflex == b.decision.reflex && a.decision.call == b.decision.call
}
