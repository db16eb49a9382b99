//! `evoke try [SENTENCE…]`: show every judgment of a decision without running anything.
//! With no sentence and stdin not a terminal, one decision per input line (the filter).

use crate::drive::Failed;
use crate::exit::Exit;
use crate::line::{Line, to_line};
use crate::log::Log;
use crate::render;
use crate::session::Session;
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::time::Instant;

pub fn run(session: &Session, sentence: Option<String>, json: bool, save: Option<&std::path::Path>) -> Exit {
    let mut log = Log::open(&session.places.log());
    let runtime = match crate::session::runtime() {
        Ok(runtime) => runtime,
        Err(exit) => return exit,
    };
    match sentence {
        Some(sentence) => runtime.block_on(one(session, &mut log, &sentence, json, save)),
        None if !std::io::stdin().is_terminal() => crate::filter::each_line(log.batch(), |log, line| match line {
            crate::filter::Line::Text(text) => runtime.block_on(one(session, log, text, json, None)),
            crate::filter::Line::Refused { shown, refusal } => {
                crate::commands::say::refused(log, &shown, crate::drive::Failure::Input { refusal }, &[], &[], json)
            }
        }),
        None => {
            render::err("error: say what to decide: evoke try \"turn on the kitchen lights\"\n");
            Exit::Usage
        }
    }
}

async fn one(session: &Session, log: &mut Log, input: &str, json: bool, save: Option<&std::path::Path>) -> Exit {
    let request = session.request(Instant::now());
    match crate::weave::weave(&request, input).await {
        Ok(crate::weave::Woven::Plan(woven)) => {
            let trace = woven.all_trace();
            let line = to_line(&crate::commands::weave::PlanLine { plan: &woven.plan, trace: &trace });
            let rounds = woven.all_rounds();
            if let Err(e) = log.append(&line, &rounds, &[]) {
                render::err(&format!("warning: the plan was not logged: {}\n", render::shown(&e.to_string())));
            }
            if json {
                render::out(&format!("{line}\n"));
            } else {
                render::out(&crate::commands::weave::reading(&woven.plan));
            }
            if let Some(path) = save {
                if woven.plan.refused() {
                    render::err("error: a refused plan is not saved; nothing would run\n");
                    return Exit::Usage;
                }
                return crate::commands::weave::save(session, &woven, path, &[]);
            }
            Exit::Done
        }
        Ok(crate::weave::Woven::One(_)) if save.is_some() => {
            render::err("error: the sentence reads as one call, not a plan of several steps; run it as it is\n");
            Exit::Usage
        }
        Ok(crate::weave::Woven::One(decided)) => {
            let line = to_line(&Line { decision: &decided.decision, trace: &decided.trace, ran: None });
            if let Err(e) = log.append(&line, &decided.rounds, &decided.candidates) {
                render::err(&format!("warning: the decision was not logged: {}\n", render::shown(&e.to_string())));
            }
            if json {
                render::out(&format!("{line}\n"));
            } else {
                let value: serde_json::Value = serde_json::from_str(&line).unwrap_or_default();
                let candidates = serde_json::to_value(&decided.candidates).unwrap_or_default();
                let answers: BTreeMap<String, BTreeMap<String, f64>> =
                    decided.rounds.iter().flat_map(|r| r.raw.clone()).collect();
                render::out(&render::reading(&value, &answers, &candidates));
            }
            Exit::Done
        }
        Err(Failed { failure, trace, rounds }) => {
            crate::commands::say::refused(log, input, failure, &trace, &rounds, json)
        }
    }
}
