//! A call typed again: a part whose words say again the very call an earlier step makes is folded into
//! that step rather than run a second time (`turn off the den lights, then turn off the den lights`). Words that say the
//! call is wanted once more (`again`, `once more`, the read-back's `left.again`) keep their own step.

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

/// Folds each part decided on its own words that says again the call of the step just before it into that
/// step.
/// Only a part decided alone folds (a repair wrote the others' words), and only into a step that is no
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
            typed_again(&d)
                && k.repair != Some(Repair::Again)
                && same_call(k, &d)
                && (reads(&d) || says_nothing_new(k, &d))
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

/// Whether a part may be a call typed again: decided alone on its own words, acting, and with no word that
/// asks for the call once more.
fn typed_again(d: &Decided) -> bool {
    d.repair.is_none()
        && d.decision.outcome != Outcome::Abstain
        && d.decision.call.is_some()
        && !d.decision.left.iter().flatten().any(|l| l.again)
}

/// Whether the later part's words are the earlier's again: each of its words that carries anything is one
/// the earlier part said (by its stem); words that carry little on their own (`now`, `please`) may come
/// and go. One call for different words (`turn off the living room lights and lock the front door`, a home
/// reflex with no values) may still be two things asked: the call holds no value that tells them apart.
fn says_nothing_new(earlier: &Decided, later: &Decided) -> bool {
    let theirs: std::collections::HashSet<String> =
        crate::words::words(&earlier.decision.input).into_iter().map(|w| w.stem).collect();
    crate::words::words(&later.decision.input).iter().all(|w| theirs.contains(&w.stem) || crate::words::is_stop(w))
}

/// Whether a part's call only reads: the same read made again reads the same thing, whatever words asked
/// for it (`what's on my reminder list, read it back`), so a second run of it would add nothing.
fn reads(d: &Decided) -> bool {
    d.decision.effect == Some(crate::manifest::Effect::Read)
}

/// Whether two decisions make one call: the same reflex with the same values.
fn same_call(a: &Decided, b: &Decided) -> bool {
    a.decision.reflex.is_some() && a.decision.reflex == b.decision.reflex && a.decision.call == b.decision.call
}
