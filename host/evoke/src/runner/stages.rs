//! The plan's stages in order: each step's `when` weighed, the values it takes from earlier steps bound,
//! then the step run at its turn. A step that does not end well ends the plan after its stage.

use super::{Bound, Runner, Status, Why, skipped};
use crate::drive::DEADLINE;
use crate::exit::Exit;
use crate::render;
use evoke_core::decide::answered;
use evoke_core::decision::Decision;
use evoke_core::weave::plan::{self, Plan, Via};
use std::time::Instant;

/// What a step's `when` makes of it: run, or passed by with why.
pub(super) fn passed_by(
    when: &evoke_core::playbook::When,
    results: &[Option<serde_json::Value>],
    ran_ok: &[bool],
) -> Option<Why> {
    let source = when.step.saturating_sub(1);
    let yielded = results.get(source).cloned().flatten().and_then(|d| d.get(&when.field).cloned());
    match (ran_ok.get(source).copied().unwrap_or(false), yielded) {
        (false, _) => Some(Why::EarlierStep),
        (true, Some(v)) if crate::playbook::field_holds(&v, &when.is) => None,
        (true, v) => Some(Why::NotChosen { from: when.step, value: v.unwrap_or_default() }),
    }
}

impl Runner<'_> {
    /// Runs every stage; the exit is the worst step's.
    pub(super) async fn stages(&mut self, plan: &mut Plan, started: Instant) -> Exit {
        let (options, ui) = (self.options, self.options.ui);
        let mut results: Vec<Option<serde_json::Value>> = vec![None; self.count];
        let mut ran_ok: Vec<bool> = vec![false; self.count];
        let mut exit = Exit::Done;
        let mut stop_after: Option<usize> = None;
        for (stage_index, stage) in plan.stages.clone().iter().enumerate() {
            if stop_after.is_some_and(|s| stage_index > s) {
                for &n in stage {
                    let (status, why) = skipped();
                    self.emit(n - 1, &plan.steps[n - 1].decision.clone(), None, status, why);
                }
                continue;
            }
            for &n in stage {
                let i = n - 1;
                // A step a playbook runs only under a value: a source that did not run, or yielded another
                // value, passes it by. Passing it by is the routine's choice, not a failure.
                if let Some(when) = &plan.steps[i].when
                    && let Some(why) = passed_by(when, &results, &ran_ok)
                {
                    if !options.json {
                        ui.err(&render::step_not_chosen(n, when));
                    }
                    self.emit(i, &plan.steps[i].decision.clone(), None, Status::Skipped, Some(why));
                    continue;
                }
                let mut decision = plan.steps[i].decision.clone();
                if !plan::binds_of(plan, n).is_empty() {
                    match self.bound(plan, i, &results).await {
                        Ok(rebound) => decision = rebound,
                        Err((unread, message, why)) => {
                            if !options.json {
                                ui.err(&render::step_not_run(n, &message));
                            }
                            self.emit(i, &unread, None, Status::Refused, Some(why));
                            exit = exit.worse(Exit::Refused);
                            stop_after.get_or_insert(stage_index);
                            continue;
                        }
                    }
                    plan.steps[i].decision = decision.clone();
                    if !options.json {
                        let call = decision.call.clone().unwrap_or_default();
                        ui.out(&render::plan_step(n, &call, decision.confidence));
                    }
                }
                let deadline = started + DEADLINE + self.waited;
                let ended = self.step(i, &decision, deadline).await;
                exit = exit.worse(ended.exit);
                if ended.exit != Exit::Done && stop_after.is_none() {
                    stop_after = Some(stage_index);
                }
                results[i] = ended.data;
                ran_ok[i] = ended.exit == Exit::Done;
            }
        }
        if stop_after.is_some() && !options.json {
            ui.err(&render::weave_stopped());
        }
        exit
    }

    /// Step `i` with the values it takes from earlier steps' results: a required one given as an answer
    /// is, an optional one written into its words and decided again under the same gate. A value no
    /// earlier step gave, one out of the argument's range, or words that do not read it back stop the
    /// step: the decision as it stood and why.
    async fn bound(
        &mut self,
        plan: &Plan,
        i: usize,
        results: &[Option<serde_json::Value>],
    ) -> Result<Decision, (Decision, String, Why)> {
        let session = self.session;
        let mut decision = plan.steps[i].decision.clone();
        let binds = plan::binds_of(plan, i + 1);
        let mut answers = Vec::new();
        let mut lacking = None;
        for b in &binds {
            // A whole result is handed to the body as its source returned it, beside the call's values.
            let Some(kind) = b.kind else {
                // A `null` result is no result to hand on.
                let Some(data) = results[b.from - 1].clone().filter(|d| !d.is_null()) else {
                    lacking = Some(b);
                    continue;
                };
                self.bounds[i].push(Bound { arg: b.arg.clone(), from: b.from, field: b.field.clone(), value: None });
                self.wholes[i].push((b.arg.clone(), data));
                continue;
            };
            let field = results[b.from - 1].as_ref().and_then(|d| d.get(&b.field));
            let value = match plan::taken(kind, field) {
                Ok(value) => value,
                Err(plan::Untaken::Nothing) => {
                    lacking = Some(b);
                    continue;
                }
                Err(plan::Untaken::TooLarge { chars, limit }) => {
                    let message = format!(
                        "step {}'s {} is {chars} characters, more than the {limit} a value holds",
                        b.from, b.field
                    );
                    return Err((decision, message, Why::TooLarge { from: b.from }));
                }
                Err(plan::Untaken::Refused(why)) => {
                    let message = format!("step {}'s {} cannot be taken: {why}", b.from, b.field);
                    return Err((decision, message.clone(), Why::Said { message }));
                }
            };
            // A value a body reported meets the argument's range as a typed value does.
            let out_of_range =
                decision.reflex.as_deref().and_then(|r| plan::bound_refused(&session.catalog, r, &b.arg, &value));
            if let Some(message) = out_of_range {
                return Err((decision, message.clone(), Why::Said { message }));
            }
            self.bounds[i].push(Bound {
                arg: b.arg.clone(),
                from: b.from,
                field: b.field.clone(),
                value: Some(value.clone()),
            });
            answers.push((b.arg.clone(), value, b.via));
        }
        // A value no earlier step gave stops the step as one its words do not read.
        if let Some(b) = lacking {
            let message = match b.kind {
                Some(_) => format!("step {} gave no {} of the kind {} takes", b.from, b.field, b.arg),
                None => format!("step {} returned no result for {} to take", b.from, b.arg),
            };
            return Err((decision, message, Why::NothingToTake { from: b.from }));
        }
        let mut candidates = self.decided[i].candidates.clone();
        let mut fills = Vec::new();
        for (arg, value, via) in answers {
            if via != Via::Rewrite {
                fills.push((arg, value));
                continue;
            }
            let Some(words) = plan::rewritten_words(&decision.input, &value) else {
                let message = format!("the value of {arg} cannot be written into the step's words");
                return Err((decision, message.clone(), Why::Said { message }));
            };
            let request = session.request(Instant::now());
            match crate::drive::decide(&request, &words).await {
                Ok(again)
                    if again.decision.reflex == decision.reflex
                        && again.decision.args.as_ref().and_then(|a| a.get(&arg)).map(|v| v.shown())
                            == Some(value.shown()) =>
                {
                    candidates = again.candidates.clone();
                    decision = again.decision;
                }
                Ok(again) => {
                    let message = format!("\"{words}\" did not read {} as its {arg}", value.shown());
                    // Its words, written again, read as another reflex: the step says which.
                    let why = match again.decision.reflex {
                        Some(reflex) if again.decision.reflex != decision.reflex => Why::ReadAs { reflex },
                        _ => Why::Said { message: message.clone() },
                    };
                    return Err((decision, message, why));
                }
                Err(failed) => {
                    let message = failed.failure.to_string();
                    return Err((decision, message.clone(), Why::Said { message }));
                }
            }
        }
        if !fills.is_empty() {
            decision =
                answered(&session.catalog, session.gate.as_ref(), &candidates, &decision, &fills, Some(&plan.input));
        }
        let today = evoke_bodies::dates::today();
        match super::beside::read_beside(plan, i, &self.bounds[i], decision.clone(), today) {
            Ok(read) => Ok(self.hold(read)),
            Err(message) => Err((decision, message.clone(), Why::Said { message })),
        }
    }
}
