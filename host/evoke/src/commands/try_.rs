//! `evoke try [SENTENCE…]`: show every judgment of a decision without running anything (000 §6.4).
//! With no sentence and stdin not a terminal, one decision per input line (the filter).

use crate::decide::{DEADLINE, Failed, Request, decide};
use crate::exit::Exit;
use crate::line::{Line, RefusedLine, to_value};
use crate::session::Session;
use crate::{log, render};
use std::collections::BTreeMap;
use std::io::{BufRead, IsTerminal};
use std::time::Instant;

pub fn run(session: &Session, sentence: Option<String>, json: bool) -> Exit {
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_time().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            render::err(&format!("error: cannot start: {e}\n"));
            return Exit::Failed;
        }
    };
    match sentence {
        Some(sentence) => runtime.block_on(one(session, &sentence, json)),
        None if !std::io::stdin().is_terminal() => {
            let mut worst = Exit::Done;
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                if line.trim().is_empty() {
                    continue;
                }
                let exit = runtime.block_on(one(session, &line, json));
                if exit == Exit::Refused {
                    worst = Exit::Refused;
                }
            }
            worst
        }
        None => {
            render::err("error: say what to decide: evoke try \"turn on the kitchen lights\"\n");
            Exit::Usage
        }
    }
}

async fn one(session: &Session, input: &str, json: bool) -> Exit {
    let request = Request {
        catalog: &session.catalog,
        adapter: session.adapter.as_ref(),
        gate: session.gate,
        plan: &session.plan,
        cache: Some(&session.cache),
        deadline: Instant::now() + DEADLINE,
    };
    match decide(&request, input).await {
        Ok(decided) => {
            let line = to_value(&Line { decision: &decided.decision, trace: &decided.trace });
            let candidates = serde_json::to_value(&decided.candidates).unwrap_or_default();
            if let Err(e) = log::append(&session.places.log(), &line, &decided.rounds, &decided.candidates) {
                render::err(&format!("warning: the decision was not logged: {e}\n"));
            }
            if json {
                render::out(&format!("{line}\n"));
            } else {
                let answers: BTreeMap<String, BTreeMap<String, f64>> =
                    decided.rounds.iter().flat_map(|r| r.raw.clone()).collect();
                render::out(&render::reading(&line, &answers, &candidates));
            }
            Exit::Done
        }
        Err(Failed { failure, trace, rounds }) => {
            let line = to_value(&RefusedLine { input, error: failure.to_string(), fault: &failure, trace: &trace });
            let _ = log::append(&session.places.log(), &line, &rounds, &[]);
            if json {
                render::out(&format!("{line}\n"));
            } else {
                render::err(&format!("error: {failure}\n"));
            }
            Exit::Refused
        }
    }
}
