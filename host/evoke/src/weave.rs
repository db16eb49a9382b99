//! Driving a sentence that may ask for several things: the core's [`Weaver`] hands out each round with the
//! words it is asked under, the adapter answers under the one deadline of the whole sentence, and the
//! answers are validated before the weaver reads them. A sentence with no place to cut asks exactly the
//! rounds of one decision.

use crate::drive::{Decided, Failed, Failure, Request, Round, TraceEntry, ask};
use evoke_core::recognize::recognize;
use evoke_core::validate::{Answers, validate};
use evoke_core::weave::plan::{Plan, Verdict, VerdictBecause};
use evoke_core::weave::weaver::{NotWoven, Weaver, Woven as CoreWoven};

/// What a sentence came to: one decision as ever, or a plan of steps.
#[allow(clippy::large_enum_variant)]
pub enum Woven {
    One(Decided),
    Plan(Box<PlanDecided>),
}

/// A settled plan, with what each round asked.
#[derive(Clone)]
pub struct PlanDecided {
    pub plan: Plan,
    /// The whole sentence's own rounds: their trace and their answers.
    pub trace: Vec<TraceEntry>,
    pub rounds: Vec<Round>,
    /// Per step, in the plan's order: the rounds asked under its words and its candidates.
    pub steps: Vec<Decided>,
    /// Every answer the plan took, with the words it was asked under, in the order asked.
    pub answers: Vec<evoke_core::weave::planfile::Answer>,
    /// The playbook the sentence picked, when a playbook wrote the plan: its step-0 line.
    pub head: Option<Box<crate::playbook::Head>>,
}

impl PlanDecided {
    /// Every adapter call the plan took: the sentence's own first, then each step's words' once.
    pub fn all_trace(&self) -> Vec<TraceEntry> {
        let mut all = self.trace.clone();
        let mut seen: Vec<&str> = Vec::new();
        for step in &self.steps {
            if seen.contains(&step.decision.input.as_str()) {
                continue;
            }
            seen.push(&step.decision.input);
            all.extend(step.trace.iter().cloned());
        }
        all
    }

    /// Every round the plan took, the sentence's own first.
    pub fn all_rounds(&self) -> Vec<Round> {
        let mut all = self.rounds.clone();
        let mut seen: Vec<&str> = Vec::new();
        for step in &self.steps {
            if seen.contains(&step.decision.input.as_str()) {
                continue;
            }
            seen.push(&step.decision.input);
            all.extend(step.rounds.iter().cloned());
        }
        all
    }
}

/// One round asked: the words it was asked under, the call it took, and the adapter's answer.
struct Asked {
    text: String,
    trace: Vec<TraceEntry>,
    round: Round,
}

pub async fn weave(request: &Request<'_>, input: &str) -> Result<Woven, Failed> {
    let mut weaver = match Weaver::new(request.catalog, request.gate, input) {
        Ok(weaver) => weaver,
        Err(NotWoven::Input(refusal)) => {
            return Err(Failed { failure: Failure::Input { refusal }, trace: Vec::new(), rounds: Vec::new() });
        }
        Err(NotWoven::TooMany(reason)) => {
            return Err(Failed { failure: Failure::Weave { reason }, trace: Vec::new(), rounds: Vec::new() });
        }
    };
    let mut asked: Vec<Asked> = Vec::new();
    let mut answers = Answers::new();
    let failed = |failure, asked: &[Asked]| Failed {
        failure,
        trace: asked.iter().flat_map(|a| a.trace.iter().cloned()).collect(),
        rounds: asked.iter().map(|a| a.round.clone()).collect(),
    };
    // Each round's questions are read where the weaver keeps them, never copied: a route over many reflexes
    // is the largest thing a round asks.
    while let Some((text, questions)) = weaver.questions() {
        let mut trace = Vec::new();
        let raw = match ask(request, text, questions, &mut trace).await {
            Ok(raw) => raw,
            Err(failure) => return Err(failed(failure, &asked)),
        };
        let validated = validate(questions, &raw);
        asked.push(Asked {
            text: text.to_string(),
            trace,
            round: Round { questions: questions.ids().cloned().collect(), raw },
        });
        let validated = match validated {
            Ok(validated) => validated,
            Err(fault) => return Err(failed(Failure::Answer { fault }, &asked)),
        };
        if let Err(reason) = weaver.feed(&validated) {
            return Err(failed(Failure::Weave { reason }, &asked));
        }
        answers.extend(validated);
    }
    let under = |text: &str| -> (Vec<TraceEntry>, Vec<Round>) {
        let mine = asked.iter().filter(|a| a.text == text);
        (mine.clone().flat_map(|a| a.trace.iter().cloned()).collect(), mine.map(|a| a.round.clone()).collect())
    };
    match weaver.woven().cloned().expect("a weaver without questions has woven") {
        CoreWoven::One(decision) => {
            let trace = asked.iter().flat_map(|a| a.trace.iter().cloned()).collect();
            let rounds = asked.iter().map(|a| a.round.clone()).collect();
            let candidates = weaver.candidates().to_vec();
            let decided = Decided { decision, trace, rounds, answers, candidates };
            // A sentence that picks a playbook, with every slot it needs, is planned from the playbook's
            // steps; an ask for a slot is asked as any ask is, and planned once answered.
            if crate::playbook::picks_playbook(request.catalog, &decided.decision)
                && decided.decision.outcome != evoke_core::decision::Outcome::Ask
            {
                let planned = crate::playbook::plan(request, input, decided).await?;
                return Ok(Woven::Plan(Box::new(planned)));
            }
            Ok(Woven::One(decided))
        }
        CoreWoven::Plan(plan) => {
            // The sentence's own rounds, and any asked under words no step kept (a splice that did not hold).
            let kept: Vec<&str> =
                plan.steps.iter().map(|s| s.decision.input.as_str()).filter(|t| *t != input).collect();
            let own = asked.iter().filter(|a| !kept.contains(&a.text.as_str()));
            let trace = own.clone().flat_map(|a| a.trace.iter().cloned()).collect();
            let rounds = own.map(|a| a.round.clone()).collect();
            let steps: Vec<Decided> = plan
                .steps
                .iter()
                .map(|step| {
                    let text = step.decision.input.as_str();
                    let (trace, rounds) = if text == input { (Vec::new(), Vec::new()) } else { under(text) };
                    Decided {
                        decision: step.decision.clone(),
                        trace,
                        rounds,
                        answers: Answers::new(),
                        candidates: recognize(text),
                    }
                })
                .collect();
            let answers: Vec<evoke_core::weave::planfile::Answer> = asked
                .iter()
                .map(|a| evoke_core::weave::planfile::Answer { text: a.text.clone(), raw: a.round.raw.clone() })
                .collect();
            if let Some(pick) = folds_into_playbook(request.catalog, &plan) {
                let decided = steps[pick].clone();
                let planned = crate::playbook::plan(request, input, decided).await?;
                if let Some(mut folded) = folded_into(&plan, pick, planned) {
                    // The sentence's own rounds and each part's, then the rounds the playbook's steps took.
                    folded.trace = asked.iter().flat_map(|a| a.trace.iter().cloned()).collect();
                    folded.rounds = asked.iter().map(|a| a.round.clone()).collect();
                    folded.answers = answers
                        .into_iter()
                        .chain(folded.steps.iter().flat_map(|s| {
                            s.rounds.iter().map(|r| evoke_core::weave::planfile::Answer {
                                text: s.decision.input.clone(),
                                raw: r.raw.clone(),
                            })
                        }))
                        .collect();
                    return Ok(Woven::Plan(Box::new(folded)));
                }
            }
            let mut plan = plan;
            refuse_playbook_beside_others(request.catalog, &mut plan);
            Ok(Woven::Plan(Box::new(PlanDecided { plan, trace, rounds, steps, answers, head: None })))
        }
    }
}

/// The step of a woven plan that picks a playbook, where every other step may say again one of the
/// playbook's own steps (`good night in the den and lock the back door`): one playbook, nothing left
/// out, no condition, and every other step a call of a reflex.
fn folds_into_playbook(catalog: &evoke_core::catalog::Catalog, plan: &Plan) -> Option<usize> {
    if plan.refused() || !plan.excluded.is_empty() || plan.steps.len() < 2 {
        return None;
    }
    if evoke_core::mood::mood(&plan.input) == evoke_core::mood::Mood::Conditional {
        return None;
    }
    let picks =
        |s: &evoke_core::weave::plan::Step| s.decision.reflex.as_deref().is_some_and(|r| catalog.playbook(r).is_some());
    let [pick] = plan.steps.iter().enumerate().filter(|(_, s)| picks(s)).map(|(i, _)| i).collect::<Vec<_>>()[..] else {
        return None;
    };
    let calls = plan.steps.iter().enumerate().all(|(i, s)| i == pick || said_whole(s));
    calls.then_some(pick)
}

/// Whether a part's call holds everything its words say, and they ask for it now: it acts, nothing is
/// missing, every word is accounted for (`to 200` out of range, `in 10 minutes` that no argument takes are
/// not), no other value is said, and its own words are a request (`but leave the den on`, `…, do you
/// think` are not; the playbook's words, `good night`, read as a remark, so the part's own mood is read,
/// not the one it was decided under). Only such a part may be a step said again.
fn said_whole(step: &evoke_core::weave::plan::Step) -> bool {
    use evoke_core::decision::{Because, Outcome};
    let decision = &step.decision;
    let request = evoke_core::mood::mood(&step.text) == evoke_core::mood::Mood::Request;
    fn empty<T>(v: &Option<Vec<T>>) -> bool {
        v.as_ref().is_none_or(Vec::is_empty)
    }
    decision.outcome != Outcome::Abstain
        && decision.args.is_some()
        && empty(&decision.missing)
        && empty(&decision.unconsumed)
        && empty(&decision.left)
        && request
        && !decision.because.iter().flatten().any(|b| matches!(b, Because::OneView { .. }))
}

/// The playbook's plan with every other step of the sentence folded into the one step of it that makes
/// that call (003's `folded`): the same reflex, each value the part gives held by the step, and no `when`
/// on it, since a step that may be passed by would leave what was asked undone. `picked` is the value
/// that chose the step among the playbook's steps of that reflex. `None` where a part matches no step, or
/// several, or the playbook's plan is refused: the sentence is then refused as a playbook beside others.
fn folded_into(woven: &Plan, pick: usize, mut planned: PlanDecided) -> Option<PlanDecided> {
    use evoke_core::weave::folded::Folded;
    if planned.plan.refused() {
        return None;
    }
    let mut folded = Vec::new();
    for part in woven.steps.iter().enumerate().filter(|(i, _)| *i != pick).map(|(_, s)| s) {
        let args = part.decision.args.as_ref()?;
        let reflex = part.decision.reflex.as_deref()?;
        let same_reflex: Vec<&evoke_core::weave::plan::Step> =
            planned.plan.steps.iter().filter(|s| s.decision.reflex.as_deref() == Some(reflex)).collect();
        let holds = |s: &evoke_core::weave::plan::Step| {
            args.0.iter().all(|(name, value)| {
                s.decision.args.as_ref().and_then(|a| a.get(name)).is_some_and(|v| v.shown() == value.shown())
            })
        };
        let [into] = same_reflex.iter().filter(|s| holds(s)).collect::<Vec<_>>()[..] else { return None };
        if into.when.is_some() {
            return None;
        }
        // The value that tells this step from the playbook's other steps of the reflex.
        let picked = (same_reflex.len() > 1)
            .then(|| {
                args.0.iter().find(|(name, value)| {
                    same_reflex.iter().any(|s| {
                        s.decision.args.as_ref().and_then(|a| a.get(name)).is_none_or(|v| v.shown() != value.shown())
                    })
                })
            })
            .flatten()
            .map(|(_, value)| value.shown().to_string());
        folded.push(Folded {
            text: part.text.clone(),
            into: into.step,
            gave: args.0.iter().map(|(name, value)| (name.clone(), serde_json::Value::from(value.shown()))).collect(),
            picked,
        });
    }
    planned.plan.folded = folded;
    // Where the sentence was cut, as woven: the parts it read before the playbook wrote the plan.
    planned.plan.splits = woven.splits.clone();
    planned.plan.count = woven.count.clone();
    Some(planned)
}

/// A playbook is a routine run whole, never a part of a woven sentence: picked beside other steps that
/// are not its own said again ([`folded_into`]) it refuses the plan (`nested`), picked beside words that exclude something it refuses it too
/// (`excluded`), and picked under a condition set apart from it (`if it's late, good night`) it is asked
/// for on that condition (`conditional`). Nothing runs.
fn refuse_playbook_beside_others(catalog: &evoke_core::catalog::Catalog, plan: &mut Plan) {
    let Some((playbook, text)) = plan.steps.iter().find_map(|s| {
        let name = s.decision.reflex.as_deref().filter(|r| catalog.playbook(r).is_some())?;
        Some((name.to_string(), s.text.clone()))
    }) else {
        return;
    };
    let conditional = evoke_core::mood::mood(&plan.input) == evoke_core::mood::Mood::Conditional;
    let because = match plan.excluded.first() {
        _ if conditional => VerdictBecause::Conditional { text: plan.input.clone() },
        Some(excluded) if plan.steps.len() == 1 => VerdictBecause::Excluded { text: excluded.text.clone() },
        _ => VerdictBecause::Nested { playbook, text: Some(text) },
    };
    plan.verdict = Verdict { outcome: evoke_core::decision::Outcome::Abstain, because: vec![because] };
}

/// An engine that answers from a plan file's answers: each round from the answers given under its words.
pub struct FromFile {
    pub id: String,
    pub gate: Option<evoke_core::adapter::Gate>,
    pub answers: Vec<evoke_core::weave::planfile::Answer>,
}

impl evoke_core::adapter::Adapter for FromFile {
    fn id(&self) -> &str {
        &self.id
    }

    fn gate(&self) -> Option<evoke_core::adapter::Gate> {
        self.gate
    }

    fn cacheable(&self) -> bool {
        false
    }

    fn answer<'a>(
        &'a self,
        state: &'a evoke_core::adapter::State,
        questions: &'a evoke_core::question::Questions,
        _cancel: &'a evoke_core::adapter::Cancel,
    ) -> evoke_core::adapter::AnswerFuture<'a> {
        let mut raw = evoke_core::adapter::Raw::new();
        for answer in self.answers.iter().filter(|a| a.text == state.request) {
            for id in questions.ids().map(ToString::to_string) {
                if let Some(a) = answer.raw.get(&id) {
                    raw.insert(id, a.clone());
                }
            }
        }
        let found = if raw.is_empty() {
            Err(evoke_core::adapter::AdapterError::new(format!(
                "the plan file holds no answers for \"{}\"",
                state.request
            )))
        } else {
            Ok(raw)
        };
        Box::pin(std::future::ready(found))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use evoke_core::decision::{Args, Decision, Outcome, Value};
    use evoke_core::recognize::Span;
    use evoke_core::weave::plan::Step;

    fn step(text: &str, outcome: Outcome) -> Step {
        let args = Args(vec![("door".into(), Value::Option { key: "back".into() })]);
        let decision = Decision::bare(text, outcome, Some("lock"), args);
        Step {
            step: 2,
            text: text.into(),
            start: 0,
            end: text.chars().count(),
            repair: None,
            typed: None,
            shared: Default::default(),
            beside: Default::default(),
            refs: Vec::new(),
            after: Vec::new(),
            from: Vec::new(),
            when: None,
            decision,
        }
    }

    #[test]
    fn only_a_part_whose_call_holds_all_it_says_may_be_a_step_said_again() {
        assert!(said_whole(&step("lock the back door", Outcome::Confirm)));
        assert!(!said_whole(&step("lock the back door", Outcome::Abstain)));
        // Its own words are no request: asked about, or said for later.
        assert!(!said_whole(&step("lock the back door, do you think", Outcome::Confirm)));
        assert!(!said_whole(&step("don't lock the back door", Outcome::Confirm)));
        // Words its call does not hold: a span no argument takes.
        let mut timed = step("lock the back door in 10 minutes", Outcome::Confirm);
        timed.decision.unconsumed = Some(vec![Span { start: 19, end: 32, text: "in 10 minutes".into() }]);
        assert!(!said_whole(&timed));
        // A value asked again, out of its range.
        let mut missing = step("lock the back door", Outcome::Ask);
        missing.decision.missing = Some(vec![evoke_core::decision::Missing {
            arg: "door".into(),
            ask: "Which door?".into(),
            because: evoke_core::decision::MissingBecause::Unstated,
            words: None,
            choices: evoke_core::decision::Choices::Options { options: Default::default() },
            likely: None,
        }]);
        assert!(!said_whole(&missing));
    }
}
