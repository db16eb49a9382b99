//! `evoke calibrate [--json] [--repeat N]`: every record and test of the installed reflexes decided
//! through the adapter and scored (003 `evoke calibrate --json`): the outcomes, the complete calls in
//! bins of confidence with Wilson intervals, the Brier decomposition, per-bar wrong runs per thousand
//! with intervals, each kind of question, and the misses; under `--repeat`, how far the answers move;
//! and what the log says of past decisions. Progress goes to a terminal's stderr.
//!
//! A case is right when the decision acts on its reflex with every value it asserts, or, for a `false`
//! record, when it does not act on that reflex (as `evoke test` reads it). A complete call on a `false`
//! record that names another reflex cannot be judged: it counts as `unknown`. Repeats decide without the
//! answer cache, so an engine that samples shows its spread.

use crate::calibration::{self, Scored};
use crate::commands::test::passes;
use crate::context::Context;
use crate::drive::decide;
use crate::error::CommandResult;
use crate::exit::Exit;

use crate::session::Session;
use evoke_core::decision::{Decision, Outcome};
use evoke_core::manifest::{Record, Source};
use evoke_core::question::QuestionId;
use evoke_core::validate::Answers;
use std::time::Instant;

/// One case: an utterance, the reflex whose record it is, and what the record asserts.
struct Case<'a> {
    reflex: &'a str,
    record: &'a Record,
}

fn score(session: &Session, case: &Case, decision: &Decision, answers: &Answers) -> Scored {
    let complete = matches!(decision.outcome, Outcome::Run | Outcome::Confirm);
    let acted_on_other = decision.outcome != Outcome::Abstain && decision.reflex.as_deref() != Some(case.reflex);
    let ok = passes(case.reflex, case.record, decision);
    let right = if case.record.asserts.is_none() && complete && acted_on_other { None } else { Some(ok) };
    let mismatch = if ok {
        String::new()
    } else if case.record.asserts.is_none() {
        format!("must not be {}", case.reflex)
    } else if decision.reflex.as_deref() != Some(case.reflex) || decision.outcome == Outcome::Abstain {
        format!("wanted {}", case.reflex)
    } else {
        "a value differs from the record".to_string()
    };
    let route_top = answers.get(&QuestionId::Route).map(|d| {
        let (k, p) = d.top();
        (k.to_string(), p)
    });
    let mut questions = Vec::new();
    if let Some((top, p)) = &route_top {
        let right = match &case.record.asserts {
            Some(_) => top == case.reflex,
            None => top != case.reflex,
        };
        questions.push(("route", *p, right));
    }
    if let (Some(asserts), Some(reflex)) = (&case.record.asserts, session.catalog.get(case.reflex))
        && decision.reflex.as_deref() == Some(case.reflex)
    {
        for (name, asserted) in asserts {
            let Some(arg) = reflex.manifest.arg(name) else { continue };
            let Some(d) = answers.get(&QuestionId::arg(case.reflex, name)) else { continue };
            let (top, p) = d.top();
            let kind = match arg.source {
                Source::Options(_) => "options",
                Source::Vocab(_) => "vocab",
                Source::Pick(_) => "pick",
                Source::Flag => "flag",
                // No question reads a whole result, so no record asserts one.
                Source::Takes(_) => continue,
            };
            let expected = match asserted {
                evoke_core::manifest::Asserted::Flag(true) => top == "yes",
                evoke_core::manifest::Asserted::Flag(false) => top != "yes",
                evoke_core::manifest::Asserted::Text(text) => {
                    let shown = decision.args.as_ref().and_then(|a| a.get(name)).map(|v| v.shown().to_string());
                    shown.is_some_and(|s| evoke_core::identity::identity(&s) == evoke_core::identity::identity(text))
                }
            };
            questions.push((kind, p, expected));
        }
    }
    Scored {
        outcome: decision.outcome,
        reflex: decision.reflex.clone(),
        confidence: decision.confidence,
        effect: decision.effect,
        complete,
        right,
        mismatch,
        route_top,
        questions,
        whole: decision.whole,
    }
}

#[derive(clap::Args)]
pub struct Args {
    /// Decide each case N times and report how far the answers move.
    #[arg(long, value_name = "N", default_value_t = 1)]
    repeat: usize,
}

pub fn run(context: &Context, args: &Args) -> CommandResult {
    let ui = &context.ui;
    let session = &context.session()?;
    let json = context.json;
    let repeat = args.repeat.max(1);
    let cases: Vec<Case> = session
        .catalog
        .reflexes()
        .iter()
        .flat_map(|r| {
            r.manifest.examples.iter().chain(&r.manifest.tests).map(move |record| Case { reflex: &r.name, record })
        })
        .collect();
    let runtime = crate::session::runtime()?;
    // Per case, per repeat.
    let mut runs: Vec<Vec<calibration::Run>> = Vec::new();
    let bar = (!json).then(|| crate::progress::Bar::new(ui, cases.len() * repeat, "calibrating"));
    for case in &cases {
        let mut these = Vec::new();
        for _ in 0..repeat {
            // Repeats decide without the cache, so an engine that samples shows its spread.
            let cache = if repeat > 1 { None } else { Some(&session.cache) };
            let request = session.request_through(session.adapter.as_ref(), cache, Instant::now());
            let result = runtime.block_on(decide(&request, &case.record.utterance));
            these.push(match result {
                Ok(decided) => Ok(score(session, case, &decided.decision, &decided.answers)),
                Err(failed) => Err(failed.failure),
            });
            if let Some(bar) = &bar {
                bar.step();
            }
        }
        runs.push(these);
    }
    drop(bar);
    let log =
        evoke_files::bounded::read_to_string(&session.places.log(), evoke_files::bounded::MAX_LOG).unwrap_or_default();
    let setting = calibration::Setting {
        adapter: calibration::AdapterName { name: session.adapter_name.clone(), id: session.adapter.id().to_string() },
        // The route offers the playbooks as choices beside the reflexes: their examples are cases too,
        // counted apart.
        reflexes: session.catalog.reflexes().len() - session.catalog.playbooks().len(),
        playbooks: session.catalog.playbooks().len(),
        bars: session.gate.map(|g| (g.read, g.write)),
        repeats: repeat,
        log: &log,
    };
    let utterances: Vec<&str> = cases.iter().map(|c| c.record.utterance.as_str()).collect();
    let report = calibration::report(&setting, &utterances, &runs);
    if json {
        ui.json_line(&crate::line::to_line(&report));
    } else {
        ui.out(&report.to_string());
    }
    Ok(Exit::Done)
}
