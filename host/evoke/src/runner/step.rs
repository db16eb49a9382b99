//! One step at its turn: the journal first, then the gate, then the body.

use super::{Ended, Runner, Status, Why, again_command};
use crate::body::{self, interrupted};
use crate::error::CommandError;
use crate::exit::Exit;
use crate::journal::Mark;
use crate::render;
use crate::ui::{Person, Question};
use evoke_bodies::BodyValue;
use evoke_core::decision::{Decision, Outcome};
use evoke_core::manifest::Effect;
use std::time::Instant;

impl Runner<'_> {
    /// Runs step `i` as `decision` says, by `deadline` (the time a person takes added to it).
    pub(super) async fn step(&mut self, i: usize, decision: &Decision, deadline: Instant) -> Ended {
        let (session, options, ui) = (self.session, self.options, self.options.ui);
        let present = self.present;
        let n = i + 1;
        let call = decision.call.clone().unwrap_or_default();
        let effect = decision.effect.unwrap_or(Effect::Destructive);
        let said = |message: String| Some(Why::Said { message });
        if let Some(entry) = self.journal.entry(n).cloned() {
            match entry.mark {
                Mark::Done => {
                    if !options.json {
                        ui.err(&render::step_ran_before(n));
                        if let Some(result) = &entry.result {
                            ui.out(&render::result(result));
                        }
                    }
                    let status = if entry.failed { Status::Failed } else { Status::Ran };
                    self.emit(i, decision, None, status, said("it ran before; it does not run again".into()));
                    let exit = if entry.failed { Exit::Failed } else { Exit::Done };
                    return Ended { exit, data: entry.data.clone() };
                }
                Mark::Intent => {
                    let question =
                        format!("step {n} ({}) started before and may already have acted; run it again?", call);
                    if !present {
                        let message = format!("{question} Answer at a terminal: {}", again_command(options));
                        if !options.json {
                            ui.err(&render::said(&message));
                        }
                        self.emit(i, decision, None, Status::Unanswered, said(message));
                        return Ended { exit: Exit::NeedsPerson, data: None };
                    }
                    let asked = Instant::now();
                    let yes = ui.confirm(Question::Own(&question));
                    self.waited += asked.elapsed();
                    if !yes {
                        self.emit(i, decision, None, Status::Declined, None);
                        return Ended { exit: Exit::Declined, data: None };
                    }
                }
            }
        }
        match decision.outcome {
            Outcome::Abstain | Outcome::Ask => {
                self.emit(i, decision, None, Status::Refused, said("the step was not settled".into()));
                return Ended { exit: Exit::Refused, data: None };
            }
            Outcome::Confirm => {
                let Some(prompt) = decision.prompt.clone() else {
                    return Ended { exit: Exit::Failed, data: None };
                };
                if !present {
                    if !options.json {
                        // The plan goes on from its journal, at a terminal: a call by name would run this step
                        // alone and lose the steps after it.
                        ui.err(&render::step_unanswered(n, &prompt, &again_command(options)));
                    }
                    self.emit(i, decision, None, Status::Unanswered, said(prompt.template.clone()));
                    return Ended { exit: Exit::NeedsPerson, data: None };
                }
                if !crate::act::confirmed(ui, &prompt, &mut self.waited) {
                    ui.err(&render::step_declined(n));
                    self.emit(i, decision, None, Status::Declined, None);
                    return Ended { exit: Exit::Declined, data: None };
                }
            }
            Outcome::Run => {}
        }
        /// What runs: a function handed over as code, or a body evoke starts.
        enum Runs<'c> {
            Code(&'c crate::sdk::CodeReflex),
            Body(body::Prepared),
        }
        let runs = match options.code.iter().find(|c| Some(c.name()) == decision.reflex.as_deref()) {
            Some(code) => Runs::Code(code),
            None => match crate::act::prepare(session, decision, deadline + self.waited) {
                Ok(mut prepared) => {
                    // The whole results the step takes go to the body beside its call's values.
                    let wholes =
                        self.wholes[i].iter().map(|(name, data)| (name.clone(), BodyValue::Whole(data.clone())));
                    prepared.call.args.extend(wholes);
                    Runs::Body(prepared)
                }
                // The step's error is said where it stands; the weave goes on to end its stage.
                Err(e) => {
                    ui.error(&e);
                    let status = if e.exit == Exit::Refused { Status::Refused } else { Status::Failed };
                    self.emit(i, decision, None, status, said(e.message.clone()));
                    return Ended { exit: e.exit, data: None };
                }
            },
        };
        let journaled = effect != Effect::Read;
        if journaled && let Err(e) = self.journal.intent(n, &call) {
            let message = format!("the step's intent cannot be recorded: {e}; it did not run");
            ui.error(&CommandError::failed(message));
            self.emit(i, decision, None, Status::Refused, said(format!("the journal cannot be written: {e}")));
            return Ended { exit: Exit::Failed, data: None };
        }
        let ran = match runs {
            Runs::Code(code) => {
                code.call_with(&decision.args.clone().unwrap_or_default(), &self.wholes[i], &decision.input)
            }
            Runs::Body(prepared) if options.signals => body::run(&prepared, &session.places.cache, interrupted()).await,
            Runs::Body(prepared) => body::run(&prepared, &session.places.cache, std::future::pending()).await,
        };
        let (text, failed) = match &ran.result {
            Ok(output) => (Some(output.text.as_str()), false),
            Err(failure) => (Some(failure.message.as_str()), true),
        };
        session.remember(decision, &ran);
        let data = ran.result.as_ref().ok().and_then(|o| o.data.as_ref());
        if journaled && let Err(e) = self.journal.done(n, &call, text, data, failed) {
            ui.err(&render::step_end_not_recorded(&e));
        }
        if ran.cancelled {
            self.emit(i, decision, Some(&ran), Status::Failed, Some(Why::Cancelled));
            return Ended { exit: Exit::Failed, data: None };
        }
        let exit = crate::act::shown(ui, &ran, options.json);
        match &ran.result {
            Ok(output) => {
                self.emit(i, decision, Some(&ran), Status::Ran, None);
                Ended { exit, data: output.data.clone() }
            }
            Err(failure) => {
                self.emit(i, decision, Some(&ran), Status::Failed, said(failure.message.clone()));
                Ended { exit, data: None }
            }
        }
    }
}
