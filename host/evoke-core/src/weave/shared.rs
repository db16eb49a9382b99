//! A word the sentence said once for several steps (003's `shared`): `turn off the lights and close the
//! blinds in the den` says the room once, and the lights take it too. A step that asks for a value of a
//! list (an option or a vocabulary word) takes the one word another step's part says and took for itself,
//! as an answer is given (`via` `fill`), and then waits for a yes: its own words never named it. Between
//! two steps of one reflex the value is what tells the requests apart, so it is shared only where the
//! asking step's words point back at an earlier one (`turn on the den lights and dim them`).
//!
//! A step that leaves an optional value of a list unstated takes the word the same way, but not as an
//! answer: the word is written into the step's words and the step is decided again on them (`via`
//! `rewrite`), so the value stands only where the engine reads it there.

use super::plan::{Plan, Step, Via};
use crate::catalog::Catalog;
use crate::decision::{Basis, Because, Decision, MissingBecause, Outcome, Value};
use crate::manifest::Source;
use serde::Serialize;

/// The word a step took from another part of the sentence, and how it entered the step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Shared {
    pub word: String,
    pub via: Via,
}

/// Gives each step that asks for a value of a list the one word another step's part says for it and
/// took. Several such words (`dim the lights, and close the den blinds and the office blinds`) leave the
/// step asking: evoke does not choose among them. A part left out is no step, so a spared value is never
/// shared.
pub fn share(catalog: &Catalog, gate: Option<&crate::adapter::Gate>, plan: &mut Plan) {
    if plan.refused() {
        return;
    }
    let mut changed = false;
    for j in 0..plan.steps.len() {
        let step = &plan.steps[j];
        let Some(reflex) = step.decision.reflex.as_deref().and_then(|r| catalog.get(r)) else { continue };
        if step.decision.outcome != Outcome::Ask || !may_take_a_share(reflex, step) {
            continue;
        }
        let mut answers: Vec<(String, Value, String)> = Vec::new();
        for m in step.decision.missing.iter().flatten().filter(|m| m.because == MissingBecause::Unstated) {
            let Some(arg) = reflex.manifest.arg(&m.arg) else { continue };
            if !matches!(arg.source, Source::Options(_) | Source::Vocab(_)) {
                continue;
            }
            let said = said_elsewhere(plan, j, reflex, &m.arg);
            if let [(value, words, _)] = said.as_slice() {
                answers.push((m.arg.clone(), value.clone(), words.clone()));
            }
        }
        if answers.is_empty() {
            continue;
        }
        let candidates = crate::recognize::recognize(&step.decision.input);
        let given: Vec<(String, Value)> = answers.iter().map(|(arg, value, _)| (arg.clone(), value.clone())).collect();
        let filled = crate::decide::answered(catalog, gate, &candidates, &step.decision, &given, Some(&plan.input));
        let mut decision = filled;
        for (arg, value, words) in &answers {
            let because = Because::Shared { arg: arg.clone(), words: words.clone() };
            decision = crate::decide::held_for(catalog, &decision, because);
            let bases = decision.basis.get_or_insert_with(Default::default);
            bases.0.retain(|(name, _)| name != arg);
            bases.0.push((arg.clone(), Basis::Shared { from: words.clone() }));
            plan.steps[j].shared.insert(arg.clone(), Shared { word: value.shown().to_string(), via: Via::Fill });
        }
        plan.steps[j].decision = decision;
        changed = true;
    }
    if changed {
        super::plan::staged(plan);
    }
}

/// A step's words with a word another part says written in, for an optional argument the step leaves
/// unstated: what [`rewritten`] decides again.
#[derive(Debug, Clone, PartialEq)]
pub struct Rewrite {
    pub arg: String,
    pub value: Value,
    /// The words of the part that said it.
    pub from: String,
    /// The step's words with the word written in after them.
    pub words: String,
}

/// The first optional argument of a list that step `j` leaves unstated and one other part of the sentence
/// says, with the step's words written anew: the word as that part said it, after the step's own words.
/// Only a step decided on its own words and meant to act (run or confirm), that took no shared word yet.
pub fn rewrite_of(catalog: &Catalog, plan: &Plan, j: usize) -> Option<Rewrite> {
    let step = plan.steps.get(j)?;
    let acts = matches!(step.decision.outcome, Outcome::Run | Outcome::Confirm);
    if plan.refused() || !acts || step.repair.is_some() || step.typed.is_some() || !step.shared.is_empty() {
        return None;
    }
    let reflex = catalog.get(step.decision.reflex.as_deref()?)?;
    if !may_take_a_share(reflex, step) {
        return None;
    }
    let stated = |name: &str| step.decision.args.as_ref().is_some_and(|a| a.get(name).is_some());
    let unstated = reflex.manifest.args.iter().filter(|a| !a.is_required() && !stated(&a.name));
    for arg in unstated.filter(|a| matches!(a.source, Source::Options(_) | Source::Vocab(_))) {
        if let [(value, from, word)] = said_elsewhere(plan, j, reflex, &arg.name).as_slice() {
            let words = format!("{} {word}", step.text.trim_end());
            return Some(Rewrite { arg: arg.name.clone(), value: value.clone(), from: from.clone(), words });
        }
    }
    None
}

/// Step `j` decided again on the words [`rewrite_of`] wrote: it takes the decision where that reads the
/// word as the argument, for the same reflex and with every other value as it was, and then waits for a
/// yes, as a shared value always does. Otherwise the step stays as its own words read it.
pub fn rewritten(catalog: &Catalog, plan: &mut Plan, j: usize, rewrite: &Rewrite, decision: Decision) {
    let step = &plan.steps[j];
    let before = step.decision.args.clone().unwrap_or_default();
    let after = decision.args.clone().unwrap_or_default();
    let same_reflex = decision.reflex == step.decision.reflex;
    let reads_it = after.get(&rewrite.arg).is_some_and(|v| v.shown() == rewrite.value.shown());
    let others_kept =
        before.0.iter().all(|(name, value)| after.get(name) == Some(value)) && after.0.len() == before.0.len() + 1;
    if !same_reflex || !reads_it || !others_kept || decision.outcome == Outcome::Abstain {
        return;
    }
    let because = Because::Shared { arg: rewrite.arg.clone(), words: rewrite.from.clone() };
    let mut decision = crate::decide::held_for(catalog, &decision, because);
    let bases = decision.basis.get_or_insert_with(Default::default);
    bases.0.retain(|(name, _)| *name != rewrite.arg);
    bases.0.push((rewrite.arg.clone(), Basis::Shared { from: rewrite.from.clone() }));
    let step = &mut plan.steps[j];
    step.typed = Some(step.text.clone());
    step.shared.insert(rewrite.arg.clone(), Shared { word: rewrite.value.shown().to_string(), via: Via::Rewrite });
    step.decision = decision;
    super::plan::staged(plan);
}

/// Whether a step that asks may take a value said for another: not where the words do more than ask.
fn may_take_a_share(reflex: &crate::catalog::Reflex, step: &Step) -> bool {
    let words = step.typed.as_deref().unwrap_or(&step.text);
    // A destructive call takes its values from its own words or a person's answer, never from another
    // request's (`erase my notes, then add a note to my home notes` does not propose erasing the home notes).
    let destructive = reflex.manifest.effect == crate::manifest::Effect::Destructive;
    // Words the call does not account for may name the value in a way no list knows (`the hallway lights`),
    // and words of every one (`all the lights`) ask for no one value.
    let unread = step.decision.left.iter().flatten().any(|l| !l.again);
    let every = crate::words::words(words).iter().any(|w| crate::mood::lists::EVERY.contains(&w.lower.as_str()));
    // A step held for its mood (`…, when it gets dark`) is no plain request to complete.
    let held = step.decision.because.iter().flatten().any(|b| matches!(b, Because::NotARequest { .. }));
    !(destructive || unread || every || held)
}

/// The values of `arg` that other parts of the sentence say and their steps took, each with the words of
/// the part that said it and the word as it said it, once each.
fn said_elsewhere(plan: &Plan, j: usize, reflex: &crate::catalog::Reflex, arg: &str) -> Vec<(Value, String, String)> {
    let own = &plan.steps[j];
    // A step of the same reflex says its value to tell its request from this one (`turn off the lamp and
    // turn off the den lamp`), unless this step's words point back at it, which only an earlier one can be
    // (`turn on the den lights and dim them`; in `paint it and paint it blue` the first `it` is not blue).
    // Another reflex's part shares a word said after this step's (`… and close the blinds in the den`):
    // a value said before, inside an earlier request (`close the den blinds and turn off the other
    // lights`), is that request's own.
    // The pointing word stands as the act's object, at once after its verb (`turn them off`, `do it in the
    // den`), not in a clause of its own (`when it gets dark`, `that is it`).
    let points_back = super::count::pointing_words(own.typed.as_deref().unwrap_or(&own.text), false)
        .is_some_and(|p| (1..=2).contains(&p.word));
    // An option is the author's word for one reflex's act: another reflex's `off` is no word said for both.
    let vocab = matches!(reflex.manifest.arg(arg).map(|a| &a.source), Some(Source::Vocab(_)));
    let may_share = |k: usize, other: &Step| {
        if other.decision.reflex == own.decision.reflex {
            points_back && k < j
        } else {
            vocab && other.start > own.start
        }
    };
    let mut said: Vec<(Value, String, String)> = Vec::new();
    let others = plan.steps.iter().enumerate().filter(|(k, s)| s.start != own.start && may_share(*k, s));
    for (_, other) in others {
        let named: Vec<(String, usize, usize)> = crate::readback::mentions(&other.text, reflex)
            .into_iter()
            .filter(|(name, ..)| name == arg)
            .map(|(_, key, start, end)| (key, start, end))
            .collect();
        // A part whose call took none of them says them for itself only; one that names several (`… in the
        // den or the office`) says each, whichever its own call took, so no one value is said for the step.
        if !named.iter().any(|(key, ..)| took(other, key)) {
            continue;
        }
        for (key, start, end) in named {
            // The value as this reflex's own list has it: a vocabulary word carries this reflex's value.
            let value = match reflex.manifest.arg(arg).map(|a| &a.source) {
                Some(Source::Vocab(_)) => {
                    let mapped = reflex.vocab_of(arg).and_then(|v| v.find(&key)).and_then(|w| w.value.clone());
                    Value::Word { word: key.clone(), value: mapped }
                }
                _ => Value::Option { key: key.clone() },
            };
            if !said.iter().any(|(v, ..)| v.shown() == value.shown()) {
                let word: String = other.text.chars().skip(start).take(end - start).collect();
                said.push((value, other.text.clone(), word));
            }
        }
    }
    said
}

/// Whether a step took `key` for a value: a word of its vocabulary or an option.
fn took(step: &Step, key: &str) -> bool {
    step.decision.args.iter().flat_map(|a| a.0.iter()).any(|(_, value)| match value {
        Value::Word { word, .. } => word == key,
        Value::Option { key: k } => k == key,
        _ => false,
    })
}
