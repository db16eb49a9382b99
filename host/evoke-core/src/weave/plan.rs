//! The plan of a woven sentence: its steps, each a part decided as one input, their stages, and the
//! verdict over them all. The plan is settled before anything runs; running it is the host's.

use super::{Part, Reading, Split};
use crate::catalog::Catalog;
use crate::decision::{Basis, Decision, MissingBecause, Outcome, Value};
use crate::manifest::Effect;
use crate::manifest::Source;
use crate::recognize::{PickKind, PickValue, Span};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// How a step came to be other than one part decided on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Repair {
    /// A part that matched nothing alone, read as an item of its neighbour's task.
    Spliced,
    /// A part that matched nothing alone, read with its neighbour's words as a value that step asked for.
    Narrowed,
    /// The step before it, written again for another value its words name.
    Again,
    /// A step a part that says what not to do was read with: the values that part names are spared.
    Corrected,
    /// Two parts read as one: the later points back at what the earlier asks of the same reflex.
    Merged,
    /// The first of two verbs before one thing (`find and delete the old logs`), read with that thing.
    First,
    /// The second of those verbs: a step of its own, on the same thing, after the first.
    Verb,
    /// A part that matched nothing alone, read as the reflex the whole sentence gives its words: its
    /// decision judges the reflex by `weave.span_<start>_<end>` in place of the route.
    Named,
    /// A step whose words name several values of a list, read for the one value its call holds: the steps
    /// `again` wrote for the others follow it (`turn off the den and office lights`, the den's step).
    Apart,
    /// A side of an `and` or a `then` the engine read as joining one request, where the call left the
    /// other side out: each side a step of its own, on a reflex of its own.
    Split,
}

/// One step of the plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// From 1.
    pub step: usize,
    /// The words the step was decided on.
    pub text: String,
    pub start: usize,
    pub end: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repair: Option<Repair>,
    /// The part's words as typed, where the step was decided on words the plan wrote anew (a splice's
    /// neighbour and part together).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub typed: Option<String>,
    /// The words the sentence said once for several steps that this step took, by argument.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub shared: std::collections::BTreeMap<String, super::shared::Shared>,
    /// Per argument, the earlier step (from 1) beside whose day a day of the month this step's words say
    /// (`until the 7th`) is read: the step it takes from, whose day it is said after.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub beside: std::collections::BTreeMap<String, usize>,
    /// The earlier steps its pointing words (`it`, `them`, `that`) may name, from 0: each that acts on the
    /// same reflex, whose result holds a field of a kind one of its arguments takes, or whose reflex
    /// returns a whole result one of its arguments takes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refs: Vec<usize>,
    /// The earlier steps it runs after, from 1: every step of the stages before its own.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub after: Vec<usize>,
    /// Where a playbook wrote the step, outermost first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub from: Vec<crate::playbook::From>,
    /// The value of an earlier step the step runs only under.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub when: Option<crate::playbook::When>,
    #[serde(flatten)]
    pub decision: Decision,
}

/// A part left out because it says what not to do.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Excluded {
    pub text: String,
    pub start: usize,
    pub end: usize,
}

/// Why a plan stops before any step runs, or what holds it. Read back from the log, it says again why
/// a plan was refused (`evoke why`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum VerdictBecause {
    /// Every part says what not to do.
    NothingToDo,
    /// A part matched nothing, alone or as an item of its neighbour's task: the whole request is refused.
    FoundNothing { text: String },
    /// A step refers back for an argument that several earlier fields could give: evoke never guesses.
    /// `from` and `fields` are the sources in pairs, in step order: a person chooses one ([`choose`]).
    SeveralSources {
        step: usize,
        arg: String,
        from: Vec<usize>,
        #[serde(default)]
        fields: Vec<String>,
    },
    /// A step refers back for an argument that no earlier step yields.
    NoSource { step: usize, arg: String },
    /// A playbook the person has not seen as it is now: the plan waits for a yes with every step shown.
    /// It holds the plan, never refuses it.
    Reviewed { playbook: String, step: usize, text: String, prompt: String },
    /// The sentence's own pick of the playbook confirms, as a call would (`under_floor`, `more`,
    /// `not_a_request`): `because` the kinds of its reasons, `reason` them in words. It holds the plan for a
    /// yes, reviewed or not, and never refuses it.
    Picked { playbook: String, because: Vec<String>, reason: String },
    /// A playbook picked as one part of a sentence that asks for other things beside it; `text` the words
    /// of the part that read as it (absent in a line an earlier evoke logged).
    Nested {
        playbook: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    /// A playbook's step picks a playbook that picks another: one level of nesting only.
    TooDeep { playbook: String, step: usize },
    /// More steps in all than a plan holds: `steps` counts to the first step past the bound, where
    /// writing the plan stops.
    TooLong { steps: usize, limit: usize },
    /// The sentence asks for the playbook on a condition, or for later.
    Conditional { text: String },
    /// The sentence excludes a part of the playbook's work: a routine is run whole or not at all.
    Excluded { text: String },
    /// A `when` names a field its step does not yield.
    NoField { step: usize, field: String },
    /// A `when` holds a value its field cannot hold.
    BadValue { step: usize, field: String, value: String },
    /// A `when` takes from a step that may itself not run.
    MaybeSource { step: usize, from: usize },
    /// A step that runs only under a value picks a playbook: a branch into another plan.
    BranchIntoPlan { step: usize, playbook: String },
}

impl VerdictBecause {
    /// Whether it refuses the plan; `reviewed` and `picked` only hold it for a yes.
    pub fn refuses(&self) -> bool {
        !matches!(self, VerdictBecause::Reviewed { .. } | VerdictBecause::Picked { .. })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    /// The weakest step's outcome: `abstain` when the plan is refused, else `ask` over `confirm` over `run`.
    pub outcome: Outcome,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub because: Vec<VerdictBecause>,
}

/// A binding of a later step to an earlier step's result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bind {
    pub step: usize,
    pub arg: String,
    pub from: usize,
    /// The field of its result, or for a whole result (`takes`) the name its source returns it by.
    pub field: String,
    /// The pick kind of a field; a whole result has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<PickKind>,
    pub via: Via,
}

/// How a bound value enters its step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Via {
    /// A required value the step's words do not give: given to the call as an answer is.
    Fill,
    /// An optional value the words leave unstated: written into the step's words, which are decided
    /// again under the same gate.
    Rewrite,
    /// A whole result, by the name its source `returns`: handed to the body beside the call's values,
    /// never written into the words nor shown in the call.
    Takes,
}

/// The plan whole, as `evoke try --json` prints it (less `trace`, which the host adds).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Plan {
    pub input: String,
    pub steps: Vec<Step>,
    pub binds: Vec<Bind>,
    /// Each stage's steps, from 1. A stage holds one write, or a run of consecutive reads.
    pub stages: Vec<Vec<usize>>,
    pub verdict: Verdict,
    pub excluded: Vec<Excluded>,
    /// Whether a part left out narrows a step (`every light except the den`): the step asks for all but
    /// what that part names, rather than the part naming an act not to do beside it.
    pub exclusive: bool,
    pub splits: Vec<Split>,
    /// How surely the sentence asks one thing, where it could be cut.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<super::count::Count>,
    /// The parts that ask for nothing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub asides: Vec<super::count::Aside>,
    /// The parts folded into a step: a call typed again.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub folded: Vec<super::folded::Folded>,
    /// The playbook that wrote the plan, when one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub playbook: Option<String>,
    /// The values the sentence gave the playbook's slots, in its order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slots: Option<serde_json::Map<String, serde_json::Value>>,
}

impl Plan {
    /// Whether the plan may run at all: refused plans never do.
    pub fn refused(&self) -> bool {
        self.verdict.outcome == Outcome::Abstain
    }

    /// The plan's digest: the sentence and every step's call, in order. Two runs of one plan share it.
    pub fn digest(&self) -> String {
        let mut hasher = Sha256::new();
        hasher.update(self.input.as_bytes());
        for step in &self.steps {
            hasher.update(b"\n");
            hasher.update(step.decision.reflex.as_deref().unwrap_or("").as_bytes());
            hasher.update(b" ");
            hasher.update(step.decision.call.as_deref().unwrap_or("").as_bytes());
        }
        let bytes = hasher.finalize();
        format!("sha256:{}", bytes.iter().map(|b| format!("{b:02x}")).collect::<String>())
    }

    /// The stage a step (from 1) runs in, from 0.
    pub fn stage_of(&self, step: usize) -> usize {
        self.stages.iter().position(|s| s.contains(&step)).unwrap_or(usize::MAX)
    }
}

/// A part's decision, with the repair that made it when it is not the part alone.
#[derive(Debug, Clone)]
pub struct Decided {
    pub part: Part,
    pub decision: Decision,
    pub repair: Option<Repair>,
}

/// The stages of steps with these effects: each write or destructive step alone, any run of consecutive
/// reads together. Numbers from 1.
pub fn stages(effects: &[Effect]) -> Vec<Vec<usize>> {
    let mut stages: Vec<Vec<usize>> = Vec::new();
    let mut reads_open = false;
    for (i, effect) in effects.iter().enumerate() {
        if *effect == Effect::Read && reads_open {
            stages.last_mut().expect("a read stage is open").push(i + 1);
        } else {
            stages.push(vec![i + 1]);
        }
        reads_open = *effect == Effect::Read;
    }
    stages
}

/// Settles the plan from the reading and each part's decision, in the reading's order.
pub fn settle(input: &str, reading: &Reading, decided: Vec<Decided>) -> Plan {
    let excluded: Vec<Excluded> =
        reading.excluded.iter().map(|p| Excluded { text: p.text.clone(), start: p.start, end: p.end }).collect();
    let mut plan = Plan {
        input: input.to_string(),
        steps: Vec::new(),
        binds: Vec::new(),
        stages: Vec::new(),
        verdict: Verdict { outcome: Outcome::Run, because: Vec::new() },
        excluded,
        exclusive: false,
        splits: reading.splits.clone(),
        count: super::count::Count::of(&reading.splits, false),
        asides: Vec::new(),
        folded: Vec::new(),
        playbook: None,
        slots: None,
    };
    if decided.is_empty() {
        plan.verdict = Verdict { outcome: Outcome::Abstain, because: vec![VerdictBecause::NothingToDo] };
        return plan;
    }
    let found_nothing: Vec<VerdictBecause> = decided
        .iter()
        .filter(|d| d.decision.outcome == Outcome::Abstain)
        .map(|d| VerdictBecause::FoundNothing { text: d.part.text.clone() })
        .collect();
    for (i, d) in decided.into_iter().enumerate() {
        // The words as typed, where the step was decided on words the plan wrote anew.
        let typed = (d.decision.input != d.part.text && d.repair.is_some()).then(|| d.part.text.clone());
        plan.steps.push(Step {
            step: i + 1,
            text: d.part.text,
            start: d.part.start,
            end: d.part.end,
            repair: d.repair,
            typed,
            shared: Default::default(),
            beside: Default::default(),
            refs: Vec::new(),
            after: Vec::new(),
            from: Vec::new(),
            when: None,
            decision: d.decision,
        });
    }
    if !found_nothing.is_empty() {
        plan.verdict = Verdict { outcome: Outcome::Abstain, because: found_nothing };
        return plan;
    }
    staged(&mut plan);
    plan
}

/// A value a part left out names (`turn off all the lights, not the kitchen`, or `not the snug` by a name in
/// the den's meaning) is never offered by a step that asks, and never taken by one that would run: each ask
/// drops it from its choices and says why (`excluded`), as one sentence's own ask does, and a step the
/// engine read it for asks for that argument instead, the spared value gone from its choices: a yes never
/// does what the person spared. Such a step is `corrected` (unless another repair made it), and the plan
/// `exclusive`. A step `again` wrote for a spared value is dropped: the person asked for nothing there.
pub fn spare_excluded(catalog: &Catalog, gate: Option<&crate::adapter::Gate>, plan: &mut Plan) {
    if plan.excluded.is_empty() || plan.refused() {
        return;
    }
    // Steps `again` wrote for a value the sentence spares: the person asked for nothing there.
    let mut dropped: Vec<usize> = Vec::new();
    for i in 0..plan.steps.len() {
        let Some(reflex) = plan.steps[i].decision.reflex.as_deref().and_then(|r| catalog.get(r)) else { continue };
        // Per argument, each key a left-out part names, with that part's words.
        let spared: Vec<(String, String, String)> = plan
            .excluded
            .iter()
            .flat_map(|e| {
                crate::readback::mentions(&e.text, reflex).into_iter().map(|(arg, key, ..)| (arg, key, e.text.clone()))
            })
            .collect();
        if spared.is_empty() {
            continue;
        }
        let before = plan.steps[i].decision.clone();
        // A step already read with the part: its own decision spared what the sentence spares (its ask
        // offers no spared key), or its own words name a spared key, which then never became a step.
        let is_spared = |arg: &str, key: &str| spared.iter().any(|(a, k, _)| a == arg && k == key);
        let read_with_part = before
            .missing
            .iter()
            .flatten()
            .any(|m| matches!(&m.because, MissingBecause::Excluded { key } if is_spared(&m.arg, key)))
            || crate::readback::mentions(&before.input, reflex).iter().any(|(arg, key, ..)| is_spared(arg, key));
        let again = plan.steps[i].repair == Some(Repair::Again);
        let decision = &mut plan.steps[i].decision;
        for m in decision.missing.iter_mut().flatten() {
            let keys: Vec<&str> =
                spared.iter().filter(|(arg, ..)| *arg == m.arg).map(|(_, key, _)| key.as_str()).collect();
            for key in &keys {
                m.choices = m.choices.clone().without(key);
            }
            if let Some(key) = keys.first()
                && m.because == MissingBecause::Unstated
            {
                m.because = MissingBecause::Excluded { key: key.to_string() };
            }
        }
        let taken = spared.iter().find(|(arg, key, _)| {
            decision
                .args
                .as_ref()
                .and_then(|a| a.get(arg))
                .is_some_and(|v| matches!(v, Value::Word { word: k, .. } | Value::Option { key: k } if k == key))
        });
        if taken.is_some() && again {
            dropped.push(i);
            plan.exclusive = true;
            continue;
        }
        if let Some((arg, key, _)) = taken
            && let Some(wanted) = reflex.manifest.args.iter().find(|a| a.name == *arg)
        {
            let candidates = crate::recognize::recognize(&decision.input);
            let mut asked =
                crate::decide::missing_of(reflex, wanted, MissingBecause::Excluded { key: key.clone() }, &candidates);
            for (_, spared_key, _) in spared.iter().filter(|(a, ..)| a == arg) {
                asked.choices = asked.choices.without(spared_key);
            }
            *decision = crate::decide::asked_instead(catalog, gate, &candidates, decision, asked, &plan.input);
        }
        // The part was read with the step only where it changed what the step offers or takes: `every light
        // except the den` narrows the lights, `the den lights but don't touch the office` leaves them be.
        if plan.steps[i].decision != before || read_with_part {
            plan.exclusive = true;
            plan.steps[i].repair.get_or_insert(Repair::Corrected);
        }
    }
    for i in dropped.into_iter().rev() {
        plan.steps.remove(i);
        // A step `again` wrote is never folded into, so a fold only moves up past it.
        for f in plan.folded.iter_mut().filter(|f| f.into > i + 1) {
            f.into -= 1;
        }
    }
    for (i, step) in plan.steps.iter_mut().enumerate() {
        step.step = i + 1;
    }
    // A step held now weighs on the verdict.
    staged(plan);
}

/// Stages a plan whose every step was read, and gives it the verdict of its weakest step.
pub(super) fn staged(plan: &mut Plan) {
    let effects: Vec<Effect> = plan.steps.iter().map(|s| s.decision.effect.unwrap_or(Effect::Destructive)).collect();
    plan.stages = stages(&effects);
    for (k, stage) in plan.stages.iter().enumerate() {
        let before: Vec<usize> = plan.stages[..k].iter().flatten().copied().collect();
        for step in stage {
            plan.steps[step - 1].after = before.clone();
        }
    }
    let rank = |o: Outcome| match o {
        Outcome::Abstain => 0,
        Outcome::Ask => 1,
        Outcome::Confirm => 2,
        Outcome::Run => 3,
    };
    let outcome = plan.steps.iter().map(|s| s.decision.outcome).min_by_key(|o| rank(*o)).unwrap_or(Outcome::Abstain);
    plan.verdict = Verdict { outcome, because: Vec::new() };
}

/// The words a part that matched nothing is tried with: the sentence as typed from its neighbour's first
/// word to its own last, the earlier neighbour first. `None` when the part stands alone.
pub fn splice_text(input: &str, parts: &[Part], i: usize) -> Option<(usize, String)> {
    let neighbour = if i > 0 {
        i - 1
    } else if parts.len() > 1 {
        1
    } else {
        return None;
    };
    let (a, b) = (&parts[i], &parts[neighbour]);
    let (start, end) = (a.start.min(b.start), a.end.max(b.end));
    Some((neighbour, input.chars().skip(start).take(end.saturating_sub(start)).collect()))
}

/// The part two neighbouring parts make read as one, the sentence as typed from the first's first word to
/// the second's last: where both act on one reflex, the second points back at what the first asks, and
/// each gives a value the other asks for, with no argument given two values (`take 400 dollars out of
/// checking and put it into savings`: an amount and a source, then the account it goes to). Two parts that
/// each give the whole call (`mark it and mark it again`), give one argument two values (`turn on the lamp
/// and then turn it off`) or open with the same verb (`paint it and paint it blue`) ask for two calls.
/// `None` where they do not merge.
pub fn merge_of(input: &str, parts: &[Part], excluded: &[Part], decided: [&Decision; 2], i: usize) -> Option<Part> {
    let (a, b) = (parts.get(i)?, parts.get(i + 1)?);
    // A part left out between them stays out: merged words would read it back in.
    if excluded.iter().any(|e| a.end <= e.start && e.end <= b.start) {
        return None;
    }
    let acts = |d: &Decision| d.outcome != Outcome::Abstain && d.reflex.is_some();
    if !acts(decided[0]) || decided[0].reflex != decided[1].reflex || !acts(decided[1]) || a.end > b.start {
        return None;
    }
    // The same verb said again asks for the act again (`paint it and paint it blue`).
    let opens = |p: &Part| crate::words::words(&p.text).first().map(|w| w.lower.clone());
    if !super::count::points_back(&b.text) || opens(a) == opens(b) {
        return None;
    }
    let stated = |d: &Decision, arg: &str| d.args.as_ref().and_then(|args| args.get(arg)).cloned();
    let gives_what_the_other_asks =
        |giver: &Decision, asker: &Decision| asker.missing.iter().flatten().any(|m| stated(giver, &m.arg).is_some());
    let twice = decided[0]
        .args
        .iter()
        .flat_map(|args| args.0.iter())
        .any(|(name, value)| stated(decided[1], name).is_some_and(|other| other != *value));
    let complement =
        gives_what_the_other_asks(decided[0], decided[1]) || gives_what_the_other_asks(decided[1], decided[0]);
    if twice || !complement {
        return None;
    }
    let text: String = input.chars().skip(a.start).take(b.end - a.start).collect();
    Some(Part { start: a.start, end: b.end, text, connective: a.connective.clone() })
}

/// Whether a spliced decision narrows its neighbour's: it holds a value the neighbour asked for, each such
/// value one the part's own words say, and keeps every value the neighbour took. Then the part is no item of its own but
/// the neighbour's missing value.
pub fn narrows(part: &Part, theirs: &Decision, spliced: &Decision) -> bool {
    if asks_or_states(part) {
        return false;
    }
    let holds = |arg: &str| spliced.args.as_ref().and_then(|a| a.get(arg));
    let asked: Vec<&str> = theirs.missing.iter().flatten().map(|m| m.arg.as_str()).collect();
    // Every value given for what was asked is said by the part; none is the engine's guess.
    let gives_what_was_asked = asked.iter().any(|arg| holds(arg).is_some_and(|value| said_in(part, value)))
        && asked.iter().all(|arg| holds(arg).is_none_or(|value| said_in(part, value)));
    let keeps = theirs
        .args
        .iter()
        .flat_map(|a| a.0.iter())
        .all(|(name, value)| holds(name).is_some_and(|now| now.shown() == value.shown()));
    gives_what_was_asked && keeps
}

/// Whether a spliced decision takes the part as an item of its neighbour's task: the same reflex, not an
/// abstain, and at least one value the part's words say that the neighbour's did not take.
pub fn splice_holds(part: &Part, neighbour: &Decision, spliced: &Decision) -> bool {
    if asks_or_states(part)
        || spliced.outcome == Outcome::Abstain
        || spliced.reflex != neighbour.reflex
        || spliced.reflex.is_none()
    {
        return false;
    }
    let Some(args) = &spliced.args else { return false };
    // A text typed without quotes is any words the reflex does not read: it says nothing of the part's
    // being an item of the neighbour's task (`we'll be back at 5, set a timer …` is no timer labelled `back`).
    args.0.iter().any(|(name, value)| {
        let theirs = neighbour.args.as_ref().and_then(|a| a.get(name));
        theirs != Some(value) && said_in(part, value) && !typed_plainly(spliced, name)
    })
}

/// Whether a part asks a question (`let me know that the den is off`) or states something (`it's at 50`):
/// either way it asks for no value of its neighbour's task, whatever values its words name.
fn asks_or_states(part: &Part) -> bool {
    crate::mood::mood(&part.text) == crate::mood::Mood::Question || crate::mood::states(&part.text)
}

/// Whether the decision's value of `arg` is a text typed without quotes (its basis `text`).
fn typed_plainly(decision: &Decision, arg: &str) -> bool {
    let bases = decision.basis.as_ref().map_or(&[][..], |b| b.0.as_slice());
    bases.iter().any(|(name, basis)| name == arg && matches!(basis, Basis::Text { .. }))
}

/// Whether a part's own words say a value: its key or word, or a pick's words as typed.
fn said_in(part: &Part, value: &Value) -> bool {
    let said = part.text.to_lowercase();
    match value {
        Value::Word { word, .. } => contains_word(&said, &word.to_lowercase()),
        Value::Option { key } => contains_word(&said, &key.to_lowercase()),
        Value::Pick { span, .. } => said.contains(&span.text.to_lowercase()),
        Value::Flag => false,
    }
}

/// Whether `word` stands in `text` as whole words.
fn contains_word(text: &str, word: &str) -> bool {
    if word.is_empty() {
        return false;
    }
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        before.is_none_or(|c| !c.is_alphanumeric()) && after.is_none_or(|c| !c.is_alphanumeric())
    })
}

/// Whether a step's words refer back to an earlier step's result: those of the words that point back
/// ([`super::count::POINTING`]) that may name a result (`it`, `them`, `that report`; not `this` or `one`).
pub fn refers_back(text: &str) -> bool {
    super::count::pointing_words(text, true).is_some()
}

/// Binds each step that refers back and lacks a required argument to the one earlier field of its kind
/// (`fill`). Several fields that fit stop the plan with `several_sources`; none, with `no_source`. Only a
/// step whose words refer back takes from another; any other missing value is asked up front.
pub fn bind(catalog: &Catalog, plan: &mut Plan) {
    bind_choosing(catalog, plan, &[]);
}

/// Gives each step bound to an earlier one the day of the month its words say beside that step's day
/// (`look up my flight and book a hotel from that day until the 7th`: the 7th after the day the flight
/// lands, not the next 7th from today). The earlier step's day is the date the step takes from it, or
/// else a date that step's own words say; a day of the month with no such day beside it is read from
/// today, as ever.
fn read_beside(plan: &mut Plan) {
    let has_a_day = |step: &Step| {
        step.decision.args.iter().flat_map(|a| a.0.iter()).any(|(_, v)| {
            matches!(v, Value::Pick { value: PickValue::Date(d), .. } if !matches!(d, crate::recognize::DateReading::Day { .. }))
        })
    };
    for j in 0..plan.steps.len() {
        let bound = |b: &&Bind| b.step == j + 1;
        let from_a_day = plan.binds.iter().filter(bound).find(|b| b.kind == Some(PickKind::Date)).map(|b| b.from);
        let from = from_a_day
            .or_else(|| plan.binds.iter().filter(bound).map(|b| b.from).find(|&k| has_a_day(&plan.steps[k - 1])));
        let Some(from) = from else { continue };
        let days: Vec<String> = plan.steps[j]
            .decision
            .args
            .iter()
            .flat_map(|a| a.0.iter())
            .filter(|(_, v)| {
                matches!(v, Value::Pick { value: PickValue::Date(crate::recognize::DateReading::Day { .. }), .. })
            })
            .map(|(name, _)| name.clone())
            .collect();
        for name in days {
            plan.steps[j].beside.insert(name, from);
        }
    }
}

/// A text typed without quotes gives way to what an earlier step found: where a step's words point back at
/// a result (`draft a mail to them about lunch`) and a required text argument took words typed plainly
/// (`lunch`), while an earlier step yields a field of that kind, the value is taken back and asked for, so
/// that the bind fills it from the result, as the words say. The words then do more than the call, and the
/// step waits for a yes.
pub fn texts_give_way(catalog: &Catalog, gate: Option<&crate::adapter::Gate>, plan: &mut Plan) {
    for j in 0..plan.steps.len() {
        let step = &plan.steps[j];
        if step.decision.outcome == Outcome::Abstain || !refers_back(&step.text) {
            continue;
        }
        let Some(reflex) = step.decision.reflex.as_deref().and_then(|r| catalog.get(r)) else { continue };
        let yielded = |kind: PickKind| {
            plan.steps[..j].iter().any(|earlier| {
                earlier
                    .decision
                    .reflex
                    .as_deref()
                    .and_then(|r| catalog.get(r))
                    .is_some_and(|r| r.manifest.yields.iter().any(|y| y.kind == kind))
            })
        };
        let given_way = reflex.manifest.args.iter().find(|a| {
            a.is_required()
                && typed_plainly(&step.decision, &a.name)
                && matches!(a.source, Source::Pick(kind) if yielded(kind))
        });
        let Some(arg) = given_way else { continue };
        let candidates = crate::recognize::recognize(&step.decision.input);
        let asked = crate::decide::missing_of(reflex, arg, MissingBecause::Unstated, &candidates);
        let decision = crate::decide::asked_instead(catalog, gate, &candidates, &step.decision, asked, &plan.input);
        plan.steps[j].decision = decision;
        // A step that asks now weighs on the verdict.
        staged(plan);
    }
}

/// Gives each step whose words point back (`turn them off`, `email it to dana`) the earlier steps those
/// words may name (`refs`, from 0): one before it in the plan, of another part, that acts on the same reflex
/// (the thing it acted on), or one whose
/// result holds a field of a kind the step's arguments take, or is a whole result one of them takes (what
/// it found). The binds then choose among
/// them; `refs` says what the words could mean, whatever was bound.
pub fn refer(catalog: &Catalog, plan: &mut Plan) {
    for j in 0..plan.steps.len() {
        let step = &plan.steps[j];
        let words = step.typed.as_deref().unwrap_or(&step.text);
        let Some(reflex) = step.decision.reflex.as_deref() else { continue };
        if !super::count::points_back(words) && super::count::points_at_several(words).is_none() {
            continue;
        }
        let takes: Vec<PickKind> = catalog
            .get(reflex)
            .map(|r| {
                r.manifest
                    .args
                    .iter()
                    .filter_map(|a| match a.source {
                        Source::Pick(kind) => Some(kind),
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default();
        let wholes: Vec<&str> = catalog
            .get(reflex)
            .map(|r| {
                r.manifest
                    .args
                    .iter()
                    .filter_map(|a| match &a.source {
                        Source::Takes(name) => Some(name.as_str()),
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default();
        let may_name = |earlier: &Step| {
            let theirs = earlier.decision.reflex.as_deref();
            theirs == Some(reflex)
                || theirs.and_then(|r| catalog.get(r)).is_some_and(|r| {
                    r.manifest.yields.iter().any(|y| takes.contains(&y.kind))
                        || r.manifest.returns.as_deref().is_some_and(|name| wholes.contains(&name))
                })
        };
        // Only steps of other parts: a step `again` wrote has this step's words, not earlier ones.
        let start = step.start;
        let refs: Vec<usize> = (0..j).filter(|&i| plan.steps[i].start != start && may_name(&plan.steps[i])).collect();
        plan.steps[j].refs = refs;
    }
}

/// A source a person chose for a step's argument that several earlier fields could give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chosen {
    pub step: usize,
    pub arg: String,
    pub from: usize,
    pub field: String,
}

/// The plan a `several_sources` refusal becomes once a person chose among the sources: bound again from
/// its settled steps with each choice, as if the words had named the one field. A choice that is none of
/// the sources leaves the refusal as it was, and so does a plan refused for anything else.
pub fn choose(catalog: &Catalog, refused: &Plan, chosen: &[Chosen]) -> Plan {
    let only_sources = refused.verdict.because.iter().all(|b| matches!(b, VerdictBecause::SeveralSources { .. }));
    if !refused.refused() || !only_sources || refused.verdict.because.is_empty() {
        return refused.clone();
    }
    let mut plan = refused.clone();
    plan.binds.clear();
    staged(&mut plan);
    bind_choosing(catalog, &mut plan, chosen);
    plan
}

/// [`bind`], with the sources a person chose where several fit.
fn bind_choosing(catalog: &Catalog, plan: &mut Plan, chosen: &[Chosen]) {
    if plan.refused() {
        return;
    }
    let mut stops = Vec::new();
    for j in 0..plan.steps.len() {
        let step = &plan.steps[j];
        if step.decision.outcome == Outcome::Abstain || !refers_back(&step.text) {
            continue;
        }
        let Some(reflex) = step.decision.reflex.as_deref().and_then(|r| catalog.get(r)) else { continue };
        // A required value missing is filled; an optional one unstated is written into the words.
        let missing = step.decision.missing.iter().flatten().filter(|m| m.because == MissingBecause::Unstated);
        let mut wanted: Vec<(String, Via)> = missing.map(|m| (m.arg.clone(), Via::Fill)).collect();
        let stated = |name: &str| step.decision.args.as_ref().is_some_and(|a| a.get(name).is_some());
        for arg in reflex.manifest.args.iter().filter(|a| !a.is_required() && !stated(&a.name)) {
            if matches!(arg.source, Source::Pick(_)) && !wanted.iter().any(|(n, _)| *n == arg.name) {
                wanted.push((arg.name.clone(), Via::Rewrite));
            }
        }
        // A whole result an argument takes, by the name its source returns.
        let wholes = reflex.manifest.args.iter().filter(|a| matches!(a.source, Source::Takes(_)));
        wanted.extend(wholes.map(|a| (a.name.clone(), Via::Takes)));
        let mut bound: Vec<Bind> = Vec::new();
        for (name, via) in wanted {
            let (kind, sources) = match reflex.manifest.arg(&name).map(|a| &a.source) {
                Some(Source::Pick(kind)) => (Some(*kind), fields_of_kind(catalog, &plan.steps[..j], *kind)),
                Some(Source::Takes(returned)) => (None, results_named(catalog, &plan.steps[..j], returned)),
                _ => continue,
            };
            let bind = |from: usize, field: &str| Bind {
                step: j + 1,
                arg: name.clone(),
                from,
                field: field.to_string(),
                kind,
                via,
            };
            match sources.as_slice() {
                [(from, field)] => bound.push(bind(*from, field)),
                // An optional value with nothing to take from is simply not given.
                [] if via != Via::Fill => {}
                [] => stops.push(VerdictBecause::NoSource { step: j + 1, arg: name.clone() }),
                _ => match chosen.iter().find(|c| c.step == j + 1 && c.arg == name) {
                    Some(c) if sources.iter().any(|(from, field)| *from == c.from && *field == c.field) => {
                        bound.push(bind(c.from, &c.field))
                    }
                    _ => stops.push(VerdictBecause::SeveralSources {
                        step: j + 1,
                        arg: name.clone(),
                        from: sources.iter().map(|(from, _)| *from).collect(),
                        fields: sources.iter().map(|(_, field)| field.clone()).collect(),
                    }),
                },
            }
        }
        // One field the words refer back to gives one argument: where it would give two of the step's
        // (`book a hotel from that day`, with `from` and `until` both days), which one the words meant is
        // the person's to say, so neither takes it and the step asks for both.
        let once = |b: &Bind| bound.iter().filter(|o| o.from == b.from && o.field == b.field).count() == 1;
        let kept: Vec<Bind> = bound.iter().filter(|b| once(b)).cloned().collect();
        plan.binds.extend(kept);
    }
    if !stops.is_empty() {
        plan.binds.clear();
        plan.stages.clear();
        plan.verdict = Verdict { outcome: Outcome::Abstain, because: stops };
        return;
    }
    read_beside(plan);
}

/// The earlier steps' fields of `kind`, as `(step, field)`, in step order.
fn fields_of_kind(catalog: &Catalog, earlier: &[Step], kind: PickKind) -> Vec<(usize, String)> {
    let mut sources = Vec::new();
    for step in earlier {
        let Some(theirs) = step.decision.reflex.as_deref().and_then(|r| catalog.get(r)) else { continue };
        for y in theirs.manifest.yields.iter().filter(|y| y.kind == kind) {
            sources.push((step.step, y.field.clone()));
        }
    }
    sources
}

/// The earlier steps whose reflex returns its whole result by `name`, as `(step, name)`, in step order.
fn results_named(catalog: &Catalog, earlier: &[Step], name: &str) -> Vec<(usize, String)> {
    let returns = |step: &Step| {
        step.decision.reflex.as_deref().and_then(|r| catalog.get(r)).and_then(|r| r.manifest.returns.as_deref())
            == Some(name)
    };
    earlier.iter().filter(|s| returns(s)).map(|s| (s.step, name.to_string())).collect()
}

/// The step's words with the value written in place of the words that refer back: text in quotes, so
/// that it reads as one span. `None` when the words hold no such words or the value cannot be quoted.
pub fn rewritten_words(text: &str, value: &Value) -> Option<String> {
    let said = value.shown();
    let written = match value {
        Value::Pick { value: PickValue::Text(_), .. } if said.contains('"') => return None,
        Value::Pick { value: PickValue::Text(_), .. } => format!("\"{said}\""),
        _ => said.to_string(),
    };
    let super::count::Pointed { start, end, .. } = super::count::pointing_words(text, true)?;
    let before: String = text.chars().take(start).collect();
    let after: String = text.chars().skip(end).collect();
    Some(format!("{before}{written}{after}"))
}

/// The binds that fill a step (from 1).
pub fn binds_of(plan: &Plan, step: usize) -> Vec<&Bind> {
    plan.binds.iter().filter(|b| b.step == step).collect()
}

/// Whether every value a step is missing comes from a bind that fills it.
pub fn filled_by_binds(plan: &Plan, step: usize) -> bool {
    let decision = &plan.steps[step - 1].decision;
    decision
        .missing
        .iter()
        .flatten()
        .all(|m| plan.binds.iter().any(|b| b.step == step && b.arg == m.arg && b.via == Via::Fill))
}

/// Why a field of an earlier step's result gives an argument no value.
#[derive(Debug, Clone, PartialEq)]
pub enum Untaken {
    /// The field is absent, or not of the argument's kind.
    Nothing,
    /// The field's text is longer than any value a call carries.
    TooLarge { chars: usize, limit: usize },
    /// The field's text is no clean text (a control character that could repaint a line): the refusal said.
    Refused(String),
}

/// The value a field of an earlier step's result gives an argument of `kind`: the result's own value,
/// never one read anew, meeting every bound a value read from the words meets.
pub fn taken(kind: PickKind, field: Option<&serde_json::Value>) -> Result<Value, Untaken> {
    let (text, value) = match (kind, field.ok_or(Untaken::Nothing)?) {
        (PickKind::Text, serde_json::Value::String(s)) => (s.clone(), PickValue::Text(s.clone())),
        (PickKind::Code, serde_json::Value::String(s)) => (s.clone(), PickValue::Code(s.clone())),
        (PickKind::Time, serde_json::Value::String(s)) => (s.clone(), PickValue::Time(s.clone())),
        (PickKind::Number, serde_json::Value::Number(n)) => {
            (n.to_string(), PickValue::Number(n.as_f64().ok_or(Untaken::Nothing)?))
        }
        (PickKind::Duration, serde_json::Value::Number(n)) => {
            let seconds = n.as_u64().ok_or(Untaken::Nothing)?;
            (format!("{seconds} s"), PickValue::Duration(seconds))
        }
        (PickKind::Date, serde_json::Value::String(s)) => {
            (s.clone(), PickValue::Date(calendar_day(s).ok_or(Untaken::Nothing)?))
        }
        _ => return Err(Untaken::Nothing),
    };
    match crate::decide::bound_value(&text) {
        Ok(()) => Ok(Value::Pick { span: Span { start: 0, end: 0, text }, value }),
        Err(crate::decide::Refusal::TooLong { chars, limit }) => Err(Untaken::TooLarge { chars, limit }),
        Err(refusal) => Err(Untaken::Refused(refusal.to_string())),
    }
}

/// A day a body reports as `YYYY-MM-DD`, the form a body receives a date in; any other text is no day.
fn calendar_day(text: &str) -> Option<crate::recognize::DateReading> {
    let bytes = text.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| bytes.get(r.clone()).filter(|b| b.iter().all(u8::is_ascii_digit)).map(|_| &text[r]);
    if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
        return None;
    }
    let year: i32 = digits(0..4)?.parse().ok()?;
    let month: u32 = digits(5..7)?.parse().ok()?;
    let day: u32 = digits(8..10)?.parse().ok()?;
    let days_in_month = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        _ => return None,
    };
    (1..=days_in_month).contains(&day).then_some(crate::recognize::DateReading::Calendar { year, month, day })
}

/// Why a value taken from an earlier step's result cannot be the argument's: a value a body reported
/// meets every check a value read from the words meets, and [`taken`] checks its kind and its text.
pub fn bound_refused(catalog: &Catalog, reflex: &str, arg: &str, value: &Value) -> Option<String> {
    let manifest = &catalog.get(reflex)?.manifest;
    let range = manifest.arg(arg)?.range;
    let n = match value {
        Value::Pick { value, .. } => value.comparable(),
        _ => None,
    };
    match (range, n) {
        (Some((low, high)), Some(n)) if n < low || n > high => {
            Some(format!("{arg} would be {n}, outside its range {low}–{high}"))
        }
        _ => None,
    }
}
