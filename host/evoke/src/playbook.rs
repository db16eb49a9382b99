//! A sentence that picks a playbook, planned: each step written with the slots the sentence gave, a `say`
//! step decided as typed words are, a `call` step checked against its reflex's manifest, and the whole
//! held for a yes while the person has not reviewed the playbook as it is now. The plan is run by the same
//! runner as a woven one: settled, staged, gated and journaled step by step.

use crate::drive::{Decided, Failed, Request, decide};
use crate::weave::PlanDecided;
use evoke_core::catalog::Catalog;
use evoke_core::decision::{Because, Decision, Outcome, call_line};
use evoke_core::manifest::{Effect, fill};
use evoke_core::playbook::{Action, From, MAX_STEPS, Playbook, When};
use evoke_core::weave::plan::{self, Plan, Step, Verdict, VerdictBecause};

/// What the step-0 line says: the playbook the sentence picked, the slots it gave, and the decision that
/// picked it.
#[derive(Debug, Clone)]
pub struct Head {
    pub playbook: String,
    pub slots: Vec<(String, String)>,
    pub pick: Decided,
    /// The question the whole plan waits on before any step runs, when it waits.
    pub confirm: Option<String>,
    /// The playbooks the plan waits to have reviewed, each with what a yes records.
    pub unreviewed: Vec<(String, String)>,
}

/// One step as a playbook wrote it, before it is numbered in the plan.
struct Written {
    text: String,
    decided: Decided,
    from: Vec<From>,
    /// The playbook's own `when`, its step counted in the playbook.
    when: Option<When>,
}

/// The values the sentence gave the slots, as the steps are written with them.
fn slot_values(decision: &Decision) -> Vec<(String, String)> {
    let args = decision.args.clone().unwrap_or_default();
    args.0.iter().map(|(name, value)| (name.clone(), value.shown().to_string())).collect()
}

/// A step's text with its slots in place; `None` when it names a slot the sentence did not give.
fn written(template: &str, slots: &[(String, String)]) -> Option<String> {
    let names = evoke_core::manifest::placeholders(template).ok()?;
    if names.iter().any(|p| !slots.iter().any(|(n, _)| *n == p.name)) {
        return None;
    }
    Some(fill(template, |name| slots.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone()).unwrap_or_default()))
}

/// A call written by a playbook, as `evoke run NAME k=v…` reads it: nothing judged, a destructive one
/// confirmed.
fn call_decision(catalog: &Catalog, reflex: &str, pairs: &[String]) -> Result<Decision, String> {
    let found = catalog.get(reflex).ok_or_else(|| format!("no reflex is installed as `{reflex}`"))?;
    let args = crate::commands::run::read_args(found, pairs).map_err(|e| e.message)?;
    let call = call_line(reflex, &args);
    let effect = found.manifest.effect;
    let destructive = effect == Effect::Destructive;
    let outcome = if destructive { Outcome::Confirm } else { Outcome::Run };
    Ok(Decision {
        prompt: destructive.then(|| evoke_core::decide::destructive_prompt(found, &args, &call)),
        because: destructive.then(|| vec![Because::Destructive]),
        effect: Some(effect),
        ..Decision::bare("", outcome, Some(reflex), args)
    })
}

fn named(decision: Decision) -> Decided {
    Decided { decision, trace: Vec::new(), rounds: Vec::new(), answers: Default::default(), candidates: Vec::new() }
}

/// The pairs of a call step, its slots in place; an argument given by a slot the sentence left out is
/// left out too, for the manifest to say whether the call may go without it.
fn call_pairs(args: &[(String, String)], slots: &[(String, String)]) -> Vec<String> {
    args.iter().filter_map(|(name, text)| written(text, slots).map(|value| format!("{name}={value}"))).collect()
}

/// Plans the sentence `pick` read as the playbook it names.
pub async fn plan(request: &Request<'_>, input: &str, pick: Decided) -> Result<PlanDecided, Failed> {
    let name = pick.decision.reflex.clone().unwrap_or_default();
    let catalog = request.catalog;
    let slots = slot_values(&pick.decision);
    let mut refused: Vec<VerdictBecause> = Vec::new();
    let mut steps: Vec<Written> = Vec::new();
    let mut books: Vec<String> = vec![name.clone()];
    let Some(playbook) = catalog.playbook(&name) else { unreachable!("a pick names a playbook of the catalog") };
    // A sentence that asks for it on a condition or for later is no request to run a routine now; one that
    // spares a part of it (`good night but leave the bedroom`) asks for less than the routine, which runs
    // whole or not at all.
    let mood = pick.decision.because.iter().flatten().find_map(|b| match b {
        Because::NotARequest { mood } => Some(*mood),
        _ => None,
    });
    match mood {
        Some(evoke_core::mood::Mood::Conditional) => {
            refused.push(VerdictBecause::Conditional { text: input.to_string() })
        }
        Some(evoke_core::mood::Mood::Negated) => refused.push(VerdictBecause::Excluded { text: input.to_string() }),
        _ => {}
    }
    let pick = as_its_example(pick, playbook, input);
    if refused.is_empty() {
        write(request, &name, playbook, &slots, &[], 0, &mut steps, &mut books, &mut refused).await?;
    }
    // A nested playbook's steps are written whole, so the count may pass the bound by its last few.
    if steps.len() > MAX_STEPS && !refused.iter().any(|r| matches!(r, VerdictBecause::TooLong { .. })) {
        refused.push(VerdictBecause::TooLong { steps: steps.len(), limit: MAX_STEPS });
    }

    let froms: Vec<Vec<From>> = steps.iter().map(|s| s.from.clone()).collect();
    let mut plan_steps: Vec<Step> = Vec::new();
    for (i, w) in steps.iter().enumerate() {
        let when = w.when.as_ref().map(|when| When {
            step: source_on_plan(&froms, &w.from, when.step).unwrap_or(0),
            field: when.field.clone(),
            is: when.is.clone(),
        });
        if let Some(when) = &when {
            refused.extend(branch_refused(catalog, &steps, i + 1, when));
        }
        plan_steps.push(Step {
            step: i + 1,
            text: w.text.clone(),
            start: 0,
            end: input.chars().count(),
            repair: None,
            typed: None,
            shared: Default::default(),
            beside: Default::default(),
            refs: Vec::new(),
            after: Vec::new(),
            from: w.from.clone(),
            when,
            decision: w.decided.decision.clone(),
        });
    }
    let effects: Vec<Effect> = plan_steps.iter().map(|s| effect_of(catalog, &s.decision)).collect();
    let stages = plan::stages(&effects);
    for (i, stage) in stages.iter().enumerate() {
        if i > 0 {
            let before: Vec<usize> = stages[..i].iter().flatten().copied().collect();
            for &n in stage {
                plan_steps[n - 1].after = before.clone();
            }
        }
    }

    // Picking the playbook clears the bar of the strongest effect among its steps; a destructive step
    // confirms at its own turn, so the write bar is the highest a pick meets.
    let mut pick = pick;
    let strongest = effects.iter().copied().max().unwrap_or(Effect::Read).min(Effect::Write);
    if let (Some(gate), Some(confidence)) = (request.gate, pick.decision.confidence) {
        let bar = if strongest == Effect::Read { gate.read } else { gate.write };
        if confidence < bar && pick.decision.outcome == Outcome::Run {
            pick.decision.outcome = Outcome::Confirm;
            pick.decision.because = Some(vec![Because::UnderFloor { bar }]);
        }
    }

    // Each playbook is reviewed as the plan runs it: its own content, and every step it writes by the
    // reflex that step runs, that reflex's content and its effect.
    let unreviewed: Vec<(String, String)> = books
        .iter()
        .map(|book| (book.clone(), review_key(request.reviews, book, &plan_steps, catalog)))
        .filter(|(book, key)| request.reviews.and_then(|r| r.recorded(book)).as_deref() != Some(key.as_str()))
        .collect();
    let count = plan_steps.len();
    let counted = if count == 1 { "the 1 step".to_string() } else { format!("the {count} steps") };
    let prompt = format!("Run {counted} of the playbook {name} as shown?");
    let mut because: Vec<VerdictBecause> = refused;
    let refuses = because.iter().any(VerdictBecause::refuses);
    if !refuses {
        for (book, _) in &unreviewed {
            // The top playbook is the sentence's own, step 0; a nested one is named at the step that picked it.
            let step =
                steps.iter().find(|s| s.from.len() == 2 && &s.from[1].playbook == book).map_or(0, |s| s.from[0].step);
            because.push(VerdictBecause::Reviewed {
                playbook: book.clone(),
                step,
                text: input.to_string(),
                prompt: prompt.clone(),
            });
        }
        // The pick's own doubt is the plan's too, and the line says it, so that the log alone explains the hold.
        if pick.decision.outcome == Outcome::Confirm {
            let kinds = pick
                .decision
                .because
                .iter()
                .flatten()
                .filter_map(|b| serde_json::to_value(b).ok()?.get("type")?.as_str().map(str::to_string));
            because.push(VerdictBecause::Picked {
                playbook: name.to_string(),
                because: kinds.collect(),
                reason: pick.decision.prompt.as_ref().map(|p| p.reason.clone()).unwrap_or_default(),
            });
        }
    }
    let worst = plan_steps.iter().map(|s| s.decision.outcome).fold(Outcome::Run, |worst, o| match (worst, o) {
        (Outcome::Ask, _) | (_, Outcome::Ask) => Outcome::Ask,
        (Outcome::Confirm, _) | (_, Outcome::Confirm) => Outcome::Confirm,
        _ => Outcome::Run,
    });
    let held = !unreviewed.is_empty() || pick.decision.outcome == Outcome::Confirm;
    let outcome = if refuses {
        Outcome::Abstain
    } else if worst == Outcome::Ask {
        Outcome::Ask
    } else if held {
        Outcome::Confirm
    } else {
        worst
    };
    let plan = Plan {
        input: input.to_string(),
        steps: plan_steps,
        binds: Vec::new(),
        stages,
        verdict: Verdict { outcome, because },
        excluded: Vec::new(),
        exclusive: false,
        splits: Vec::new(),
        count: None,
        asides: Vec::new(),
        folded: Vec::new(),
        playbook: Some(name.clone()),
        slots: Some(slots.iter().map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone()))).collect()),
    };
    let answers = pick
        .rounds
        .iter()
        .map(|r| evoke_core::weave::planfile::Answer { text: input.to_string(), raw: r.raw.clone() })
        .chain(steps.iter().flat_map(|s| {
            s.decided.rounds.iter().map(|r| evoke_core::weave::planfile::Answer {
                text: s.decided.decision.input.clone(),
                raw: r.raw.clone(),
            })
        }))
        .collect();
    let head =
        Head { playbook: name, slots, confirm: (held && !refuses).then_some(prompt), unreviewed, pick: pick.clone() };
    Ok(PlanDecided {
        plan,
        trace: pick.trace.clone(),
        rounds: pick.rounds.clone(),
        steps: steps.into_iter().map(|s| s.decided).collect(),
        answers,
        head: Some(Box::new(head)),
    })
}

/// What a review of `book` is a yes to: the playbook's own content, then per step it wrote, the reflex the
/// step runs, that reflex's content (its directory or its lock, with its item) and the step's effect. A
/// `say` step that reads as another reflex, a reflex whose body or manifest changed, or a stronger effect
/// is a plan the person has not seen. The values a sentence gives the slots are not in it: a routine
/// reviewed once runs for every room it names.
fn review_key(reviews: Option<&dyn Reviews>, book: &str, steps: &[Step], catalog: &Catalog) -> String {
    use sha2::{Digest, Sha256};
    let content = |name: &str| reviews.map(|r| r.content(name)).unwrap_or_default();
    let mut hasher = Sha256::new();
    hasher.update(content(book).as_bytes());
    for step in steps.iter().filter(|s| s.from.iter().any(|f| f.playbook == book)) {
        let reflex = step.decision.reflex.as_deref().unwrap_or_default();
        let effect = effect_of(catalog, &step.decision);
        hasher.update(format!("\n{} {reflex} {} {}", step.step, content(reflex), effect.as_str()).as_bytes());
    }
    let bytes = hasher.finalize();
    format!("review:{}", bytes.iter().map(|b| format!("{b:02x}")).collect::<String>())
}

/// What a review is checked against: the project's content and the trust file's record.
pub trait Reviews {
    /// What the person said yes to at their last review of the playbook, if any.
    fn recorded(&self, playbook: &str) -> Option<String>;
    /// What the reflex or playbook installed as `name` is now, as content: a change to it changes this.
    fn content(&self, name: &str) -> String;
}

/// A sentence that is one of the playbook's own examples, word for word, is the person asking for the
/// routine by the name they gave it: `good night` alone reads as a remark to the mood, but as the
/// playbook's example it is a request. Any other word keeps the mood's reading, and every other reason
/// to wait stays.
fn as_its_example(mut pick: Decided, playbook: &Playbook, input: &str) -> Decided {
    let plain = |text: &str| {
        text.to_lowercase()
            .split(|c: char| !c.is_alphanumeric() && c != '\'')
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let said = plain(input);
    if !playbook.examples.iter().any(|e| e.asserts.is_some() && plain(&e.utterance) == said) {
        return pick;
    }
    let decision = &mut pick.decision;
    let Some(because) = decision.because.as_mut() else { return pick };
    because.retain(|b| !matches!(b, Because::NotARequest { mood: evoke_core::mood::Mood::Remark }));
    if because.is_empty() && decision.outcome == Outcome::Confirm {
        decision.because = None;
        decision.prompt = None;
        decision.outcome = Outcome::Run;
    }
    pick
}

/// The effect a step is gated by: its decision's, or for an ask its reflex's.
fn effect_of(catalog: &Catalog, decision: &Decision) -> Effect {
    decision.effect.unwrap_or_else(|| {
        decision.reflex.as_deref().and_then(|r| catalog.get(r)).map_or(Effect::Destructive, |r| r.manifest.effect)
    })
}

/// Why a `when` on step `step` (from 1) cannot stand: its source does not yield the field, cannot hold the
/// value, may itself not run, or the step picks a plan of its own.
fn branch_refused(catalog: &Catalog, steps: &[Written], step: usize, when: &When) -> Vec<VerdictBecause> {
    let mut refused = Vec::new();
    let Some(source) = when.step.checked_sub(1).and_then(|i| steps.get(i)).filter(|_| when.step < step) else {
        refused.push(VerdictBecause::NoField { step, field: when.field.clone() });
        return refused;
    };
    if source.when.is_some() {
        refused.push(VerdictBecause::MaybeSource { step, from: when.step });
    }
    let reflex = source.decided.decision.reflex.as_deref().and_then(|r| catalog.get(r));
    match reflex.and_then(|r| r.manifest.yields.iter().find(|y| y.field == when.field)) {
        None => refused.push(VerdictBecause::NoField { step, field: when.field.clone() }),
        Some(field) => {
            if !holds_kind(field.kind, &when.is) {
                refused.push(VerdictBecause::BadValue { step, field: when.field.clone(), value: when.is.clone() });
            }
        }
    }
    refused
}

/// Whether a field of this kind can hold the value written in a `when`.
fn holds_kind(kind: evoke_core::recognize::PickKind, value: &str) -> bool {
    use evoke_core::recognize::PickKind;
    match kind {
        PickKind::Number => value.trim().parse::<f64>().is_ok_and(f64::is_finite),
        PickKind::Duration => value.trim().parse::<u64>().is_ok(),
        _ => !value.is_empty(),
    }
}

/// Whether a result's field holds the value a `when` waits for.
pub fn field_holds(field: &serde_json::Value, is: &str) -> bool {
    match field {
        serde_json::Value::String(s) => s == is,
        serde_json::Value::Number(n) => n.as_f64().zip(is.trim().parse::<f64>().ok()).is_some_and(|(a, b)| a == b),
        serde_json::Value::Bool(b) => b.to_string() == is,
        _ => false,
    }
}

/// Writes the steps of `playbook`, picked under `outer` (the `from` of the step that picked it, when it
/// is nested), `depth` levels down.
#[allow(clippy::too_many_arguments)]
async fn write(
    request: &Request<'_>,
    name: &str,
    playbook: &Playbook,
    slots: &[(String, String)],
    outer: &[From],
    depth: usize,
    out: &mut Vec<Written>,
    books: &mut Vec<String>,
    refused: &mut Vec<VerdictBecause>,
) -> Result<(), Failed> {
    let catalog = request.catalog;
    for (i, step) in playbook.steps.iter().enumerate() {
        let own = i + 1;
        // The bound holds before anything is asked: a plan past it is refused at its 17th step, its words
        // never decided, however many a nested playbook would add.
        if out.len() >= MAX_STEPS {
            if !refused.iter().any(|r| matches!(r, VerdictBecause::TooLong { .. })) {
                refused.push(VerdictBecause::TooLong { steps: MAX_STEPS + 1, limit: MAX_STEPS });
            }
            return Ok(());
        }
        let mut from = outer.to_vec();
        from.push(From { playbook: name.to_string(), step: own, slots: slots.to_vec() });
        let (text, decided) = match &step.action {
            Action::Say(template) => {
                let Some(text) = written(template, slots) else {
                    refused.push(VerdictBecause::FoundNothing { text: template.clone() });
                    continue;
                };
                let decided = decide(request, &text).await?;
                (text, decided)
            }
            Action::Call { reflex, args } => {
                let pairs = call_pairs(args, slots);
                let text = std::iter::once(reflex.clone()).chain(pairs.iter().cloned()).collect::<Vec<_>>().join(" ");
                if let Some(inner) = catalog.playbook(reflex) {
                    let inner_slots: Vec<(String, String)> =
                        pairs.iter().filter_map(|p| p.split_once('=')).map(|(k, v)| (k.into(), v.into())).collect();
                    if nested_refused(name, own, depth, step.when.is_some(), reflex, refused) {
                        continue;
                    }
                    if !books.contains(reflex) {
                        books.push(reflex.clone());
                    }
                    Box::pin(write(request, reflex, inner, &inner_slots, &from, depth + 1, out, books, refused))
                        .await?;
                    continue;
                }
                match call_decision(catalog, reflex, &pairs) {
                    Ok(decision) => (decision.call.clone().unwrap_or(text), named(decision)),
                    Err(_) => {
                        refused.push(VerdictBecause::FoundNothing { text });
                        continue;
                    }
                }
            }
        };
        let outcome = decided.decision.outcome;
        if outcome == Outcome::Abstain {
            refused.push(VerdictBecause::FoundNothing { text });
            continue;
        }
        // A `say` step that reads as a playbook is that playbook, one level down.
        if let Some(picked) = decided.decision.reflex.clone().filter(|r| catalog.playbook(r).is_some()) {
            if nested_refused(name, own, depth, step.when.is_some(), &picked, refused) {
                continue;
            }
            let inner = catalog.playbook(&picked).expect("checked above");
            let inner_slots = slot_values(&decided.decision);
            if !books.contains(&picked) {
                books.push(picked.clone());
            }
            Box::pin(write(request, &picked, inner, &inner_slots, &from, depth + 1, out, books, refused)).await?;
            continue;
        }
        out.push(Written { text, decided, from, when: step.when.clone() });
    }
    Ok(())
}

/// The plan's number (from 1) of the step a `when` waits on: step `own` of the playbook that wrote `from`'s
/// step, in the same call of it. A playbook called twice writes its steps twice, and each `when` waits on
/// its own call's source, never the other's; the playbook's name alone would not tell the two apart.
fn source_on_plan(froms: &[Vec<From>], from: &[From], own: usize) -> Option<usize> {
    let (this, outer) = from.split_last()?;
    let same_call = |f: &Vec<From>| {
        f.split_last().is_some_and(|(last, o)| o == outer && last.playbook == this.playbook && last.step == own)
    };
    froms.iter().position(same_call).map(|i| i + 1)
}

/// Refuses a step that picks a playbook where it may not: deeper than one level, or under a `when`.
fn nested_refused(
    name: &str,
    own: usize,
    depth: usize,
    branch: bool,
    picked: &str,
    refused: &mut Vec<VerdictBecause>,
) -> bool {
    if branch {
        refused.push(VerdictBecause::BranchIntoPlan { step: own, playbook: picked.to_string() });
        return true;
    }
    if depth >= 1 {
        refused.push(VerdictBecause::TooDeep { playbook: name.to_string(), step: own });
        return true;
    }
    false
}

/// Whether the decision picked a playbook the catalog holds, and so is planned rather than run.
pub fn picks_playbook(catalog: &Catalog, decision: &Decision) -> bool {
    decision.outcome != Outcome::Abstain && decision.reflex.as_deref().is_some_and(|r| catalog.playbook(r).is_some())
}

/// Records that the person said yes to the whole plan of these playbooks, each with what it ran. A record
/// that cannot be written is said: the next run asks again, which is the safe side.
pub fn record_reviews(ui: &crate::ui::Ui, session: &crate::session::Session, reviews: &[(String, String)]) {
    for (name, key) in reviews {
        let recorded = evoke_files::trust::record_review(&session.places, &session.project.location, name, key);
        if recorded.is_ok() {
            session.reviews.lock().unwrap_or_else(|e| e.into_inner()).insert(name.clone(), key.clone());
        }
        if let Err(e) = recorded {
            ui.err(&crate::render::warning(
                &format!("the review of the playbook {name} was not recorded: {e}; it asks again next time"),
                None,
            ));
        }
    }
}

#[cfg(test)]
mod when_on_the_plan {
    use super::*;

    fn from(chain: &[(&str, usize, &str)]) -> Vec<From> {
        chain
            .iter()
            .map(|(playbook, step, door)| From {
                playbook: playbook.to_string(),
                step: *step,
                slots: if door.is_empty() { Vec::new() } else { vec![("door".to_string(), door.to_string())] },
            })
            .collect()
    }

    #[test]
    fn a_playbook_called_twice_waits_on_its_own_calls_source() {
        // `both` calls `one_door` for the back door, then for the front door; step 2 of `one_door` waits on
        // its step 1. The plan's step 4 is the front door's, so it waits on step 3, not on step 1.
        let froms = vec![
            from(&[("both", 1, ""), ("one_door", 1, "back")]),
            from(&[("both", 1, ""), ("one_door", 2, "back")]),
            from(&[("both", 2, ""), ("one_door", 1, "front")]),
            from(&[("both", 2, ""), ("one_door", 2, "front")]),
        ];
        assert_eq!(source_on_plan(&froms, &froms[1], 1), Some(1));
        assert_eq!(source_on_plan(&froms, &froms[3], 1), Some(3));
    }

    #[test]
    fn a_when_of_the_top_playbook_counts_its_own_steps_past_a_nested_ones() {
        // good_night: 1 calls lock_up (two steps), 2 checks, 3 waits on 2: on the plan, step 4 waits on 3.
        let froms = vec![
            from(&[("good_night", 1, ""), ("lock_up", 1, "")]),
            from(&[("good_night", 1, ""), ("lock_up", 2, "")]),
            from(&[("good_night", 2, "")]),
            from(&[("good_night", 3, "")]),
        ];
        assert_eq!(source_on_plan(&froms, &froms[3], 2), Some(3));
        // A step of the playbook that is not written on the plan (one calling a playbook) is no source.
        assert_eq!(source_on_plan(&froms, &froms[3], 1), None);
    }
}
