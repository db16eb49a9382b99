//! `evoke SENTENCE…`: decide, then act. A run runs; a confirm asks y/N at a terminal; an ask asks for the
//! missing value from its closed choices and decides again; without a terminal, a confirm or an ask ends
//! with the literal command that gives the answer (exit 3), and an abstain exits 4.

use crate::body::{self, interrupted};
use crate::context::Context;
use crate::drive::{DEADLINE, Decided, Failed, Failure, Round, TraceEntry};
use crate::error::{CommandError, CommandResult};
use crate::exit::Exit;
use crate::line::{Line, RanFields, to_line};
use crate::log::Log;
use crate::render;
use crate::session::Session;
use crate::ui::{Person, Ui};
use evoke_core::decide::answered;
use evoke_core::decision::{Decision, Outcome};
use std::path::Path;
use std::time::Instant;

pub struct Options<'a> {
    /// Where the call's lines are written, and who answers its confirm or ask.
    pub ui: &'a Ui<'a>,
    pub json: bool,
    pub project_flag: Option<&'a Path>,
    /// The global options to give again in a command printed for a person.
    pub repeated: Vec<String>,
}

pub fn run(context: &Context, sentence: Option<String>) -> CommandResult {
    let ui = &context.ui;
    let session = match context.session() {
        Ok(session) => session,
        Err(e) => return crate::filter::refuse_every_input(ui, sentence.as_deref(), context.json, e),
    };
    session.warn_inactive(ui);
    let options = Options { ui, json: context.json, project_flag: context.project_dir(), repeated: context.repeated() };
    let runtime = crate::session::runtime()?;
    let mut log = Log::open(&session.places.log());
    match sentence {
        Some(sentence) => runtime.block_on(one(&session, &mut log, &sentence, &options)),
        // The filter: one decision per line, and the worst exit of them all.
        None if !ui.input_is_terminal() => crate::filter::each_line(ui, &mut log, |log, line| match line {
            crate::filter::Line::Text(text) => runtime.block_on(one(&session, log, text, &options)),
            crate::filter::Line::Refused { shown, refusal } => {
                refused(options.ui, log, &shown, Failure::Input { refusal }, &[], &[], options.json)
            }
        }),
        None => Err(CommandError::usage("say what you want: evoke \"turn on the kitchen lights\"")),
    }
}

async fn one(session: &Session, log: &mut Log, input: &str, options: &Options<'_>) -> CommandResult {
    let started = Instant::now();
    let request = session.request(started);
    let decided = match crate::weave::weave(&request, input).await {
        Ok(crate::weave::Woven::One(decided)) => decided,
        Ok(crate::weave::Woven::Plan(plan)) => {
            let woven = crate::runner::Options {
                ui: options.ui,
                json: options.json,
                project_flag: options.project_flag,
                pinned: None,
                assigned: &[],
                repeated: &options.repeated,
                signals: true,
                code: &[],
            };
            let journaled = crate::runner::Journaled::Said;
            return crate::runner::run(session, log, *plan, started, &woven, journaled).await;
        }
        Err(Failed { failure, trace, rounds }) => {
            return refused(options.ui, log, input, failure, &trace, &rounds, options.json);
        }
    };
    act(session, log, decided, started, options).await
}

/// A decision that failed closed: its line logged, and printed under `--json`, else its error.
pub(crate) fn refused(
    ui: &Ui,
    log: &mut Log,
    input: &str,
    failure: Failure,
    trace: &[TraceEntry],
    rounds: &[Round],
    json: bool,
) -> CommandResult {
    let line = crate::line::refused_line(input, &failure, trace);
    let _ = log.append(&line, rounds, &[]);
    if json {
        ui.json_line(&line);
        return Ok(Exit::Refused);
    }
    // An adapter's message and the keys it named came from outside: the error escapes them.
    Err(CommandError::refused(failure.to_string()))
}

async fn act(
    session: &Session,
    log: &mut Log,
    decided: Decided,
    started: Instant,
    options: &Options<'_>,
) -> CommandResult {
    let ui = options.ui;
    let mut decision = decided.decision.clone();
    // A prompt waiting for a person never counts against the deadline.
    let mut waited = std::time::Duration::ZERO;
    let present = ui.present();
    loop {
        decision = session.recall(decision);
        // A playbook picked once its slots were answered is planned as one picked outright.
        if decision.outcome != Outcome::Ask && crate::playbook::picks_playbook(&session.catalog, &decision) {
            let request = session.request(started);
            let input = decision.input.clone();
            let picked = Decided { decision, ..decided };
            let planned = match crate::playbook::plan(&request, &input, picked).await {
                Ok(planned) => planned,
                Err(Failed { failure, trace, rounds }) => {
                    return refused(options.ui, log, &input, failure, &trace, &rounds, options.json);
                }
            };
            let woven = crate::runner::Options {
                ui: options.ui,
                json: options.json,
                project_flag: options.project_flag,
                pinned: None,
                assigned: &[],
                repeated: &options.repeated,
                signals: true,
                code: &[],
            };
            let journaled = crate::runner::Journaled::Said;
            return crate::runner::run(session, log, planned, started, &woven, journaled).await;
        }
        match decision.outcome {
            Outcome::Abstain => {
                finish(log, &decided, &decision, None, options);
                if !options.json {
                    ui.err(&render::nothing_does_that());
                }
                return Ok(Exit::Abstain);
            }
            Outcome::Ask if present => {
                let asked = Instant::now();
                let Ok(answers) = crate::act::ask_missing(ui, &session.catalog, &decision) else {
                    finish(log, &decided, &decision, None, options);
                    ui.err(&render::left_unanswered());
                    return Ok(Exit::Declined);
                };
                waited += asked.elapsed();
                decision =
                    answered(&session.catalog, session.gate.as_ref(), &decided.candidates, &decision, &answers, None);
            }
            Outcome::Ask | Outcome::Confirm if !present => {
                finish(log, &decided, &decision, None, options);
                if !options.json {
                    ui.err(&render::unanswered(options.project_flag, &decision, None));
                }
                return Ok(Exit::NeedsPerson);
            }
            Outcome::Confirm => {
                let Some(prompt) = decision.prompt.clone() else { return Ok(Exit::Failed) };
                if !crate::act::confirmed(ui, &prompt, &mut waited) {
                    finish(log, &decided, &decision, None, options);
                    ui.err(&render::declined());
                    return Ok(Exit::Declined);
                }
                return execute(session, log, &decided, &decision, started + DEADLINE + waited, options).await;
            }
            Outcome::Run => {
                return execute(session, log, &decided, &decision, started + DEADLINE + waited, options).await;
            }
            Outcome::Ask => unreachable!("an ask with a person present is handled above"),
        }
    }
}

async fn execute(
    session: &Session,
    log: &mut Log,
    decided: &Decided,
    decision: &Decision,
    deadline: Instant,
    options: &Options<'_>,
) -> CommandResult {
    let prepared = match crate::act::prepare(session, decision, deadline) {
        Ok(prepared) => prepared,
        Err(e) => {
            // Refused at the edge, before its body: logged and printed like any end, then said as an error.
            finish_with(log, decided, decision, None, Some(&e.message), options);
            return Err(e);
        }
    };
    let ran = body::run(&prepared, &session.places.cache, interrupted()).await;
    session.remember(decision, &ran);
    finish(log, decided, decision, Some(&ran), options);
    Ok(crate::act::shown(options.ui, &ran, options.json))
}

/// Logs the decision as it ended and, under `--json`, prints its line.
fn finish(log: &mut Log, decided: &Decided, decision: &Decision, ran: Option<&evoke_bodies::Ran>, options: &Options) {
    finish_with(log, decided, decision, ran, None, options);
}

/// [`finish`], with the error of a call whose body never started.
fn finish_with(
    log: &mut Log,
    decided: &Decided,
    decision: &Decision,
    ran: Option<&evoke_bodies::Ran>,
    error: Option<&str>,
    options: &Options,
) {
    let ui = options.ui;
    let line = to_line(&Line { decision, trace: &decided.trace, ran: ran.map(RanFields::of), error });
    if let Err(e) = log.append(&line, &decided.rounds, &decided.candidates) {
        ui.err(&render::not_logged("decision", &e));
    }
    if options.json {
        ui.json_line(&line);
    }
}
