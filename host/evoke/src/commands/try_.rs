//! `evoke try [SENTENCE…]`: show every judgment of a decision without running anything.
//! With no sentence and stdin not a terminal, one decision per input line (the filter).

use crate::context::Context;
use crate::drive::Failed;
use crate::error::{CommandError, CommandResult};
use crate::exit::Exit;
use crate::line::{Line, to_line};
use crate::log::Log;
use crate::reading::Reading;
use crate::render;
use crate::session::Session;
use crate::ui::Ui;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// The sentence; with none and stdin not a terminal, one decision per input line.
    sentence: Vec<String>,
    /// Write the plan of a sentence read as several steps to FILE, for `evoke run FILE`.
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
}

pub fn run(context: &Context, args: &Args) -> CommandResult {
    let ui = &context.ui;
    let sentence = (!args.sentence.is_empty()).then(|| args.sentence.join(" "));
    // A plan file holds one sentence's plan: lines read from stdin are many sentences, and none is saved.
    if sentence.is_none() && args.save.is_some() {
        return Err(CommandError::usage("--save writes the plan of one sentence: give it as an argument")
            .with_fix("evoke try --save FILE \"turn off the den lamp and set a timer for 5 minutes\""));
    }
    let session = match context.session() {
        Ok(session) => session,
        Err(e) => return crate::filter::refuse_every_input(ui, sentence.as_deref(), context.json, e),
    };
    session.warn_inactive(ui);
    let json = context.json;
    let mut log = Log::open(&session.places.log());
    let runtime = crate::session::runtime()?;
    match sentence {
        Some(sentence) => runtime.block_on(one(ui, &session, &mut log, &sentence, json, args.save.as_deref())),
        None if !ui.input_is_terminal() => crate::filter::each_line(ui, log.batch(), |log, line| match line {
            crate::filter::Line::Text(text) => runtime.block_on(one(ui, &session, log, text, json, None)),
            crate::filter::Line::Refused { shown, refusal } => {
                crate::commands::say::refused(ui, log, &shown, crate::drive::Failure::Input { refusal }, &[], &[], json)
            }
        }),
        None => Err(CommandError::usage("say what to decide: evoke try \"turn on the kitchen lights\"")),
    }
}

async fn one(
    ui: &Ui<'_>,
    session: &Session,
    log: &mut Log,
    input: &str,
    json: bool,
    save: Option<&Path>,
) -> CommandResult {
    let request = session.request(Instant::now());
    match crate::weave::weave(&request, input).await {
        Ok(crate::weave::Woven::Plan(woven)) => {
            let trace = woven.all_trace();
            let line = to_line(&crate::runner::PlanLine::of(&woven, &trace));
            let rounds = woven.all_rounds();
            if let Err(e) = log.append(&line, &rounds, &[]) {
                ui.err(&render::not_logged("plan", &e));
            }
            if json {
                ui.json_line(&line);
            } else {
                if let Some(head) = &woven.head {
                    ui.out(&render::playbook_picked(&head.playbook, woven.plan.steps.len()));
                }
                // The pick's own doubt (words it left unread, its mood) holds the plan as a review does, and
                // stands in its verdict.
                ui.out(&render::plan_reading(&woven.plan));
            }
            if let Some(path) = save {
                if woven.plan.refused() {
                    return Err(CommandError::usage("a refused plan is not saved; nothing would run"));
                }
                return crate::runner::planfile::save(ui, session, &woven, path);
            }
            Ok(Exit::Done)
        }
        Ok(crate::weave::Woven::One(_)) if save.is_some() => {
            Err(CommandError::usage("the sentence reads as one call, not a plan of several steps; run it as it is"))
        }
        Ok(crate::weave::Woven::One(decided)) => {
            let line = to_line(&Line { decision: &decided.decision, trace: &decided.trace, ran: None, error: None });
            if let Err(e) = log.append(&line, &decided.rounds, &decided.candidates) {
                ui.err(&render::not_logged("decision", &e));
            }
            if json {
                ui.json_line(&line);
            } else {
                ui.out(&render::reading(&Reading::of_decided(&decided)));
            }
            Ok(Exit::Done)
        }
        Err(Failed { failure, trace, rounds }) => {
            crate::commands::say::refused(ui, log, input, failure, &trace, &rounds, json)
        }
    }
}
