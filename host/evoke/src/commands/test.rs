//! `evoke test [NAME]`: every reflex's held-out `[tests]` decided through the adapter. A record passes
//! when the decision acts on that reflex with every value it asserts, or, for `false`, when it does not
//! act on that reflex at all.

use crate::context::Context;
use crate::drive::decide;
use crate::error::{CommandError, CommandResult};
use crate::exit::Exit;
use crate::render;
use evoke_core::decision::{Decision, Outcome, Value};
use evoke_core::identity::identity;
use evoke_core::manifest::{Asserted, Record};
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// Only this reflex's tests.
    name: Option<String>,
}

pub fn run(context: &Context, args: &Args) -> CommandResult {
    let ui = &context.ui;
    let session = context.session()?;
    let name = args.name.as_deref();
    let reflexes: Vec<_> = session.catalog.reflexes().iter().filter(|r| name.is_none_or(|n| r.name == n)).collect();
    if let Some(name) = name
        && reflexes.is_empty()
    {
        return Err(CommandError::usage(format!("no active reflex is installed as `{name}`")));
    }
    let runtime = crate::session::runtime()?;
    let (mut passed, mut failed) = (0, 0);
    for reflex in reflexes {
        for record in &reflex.manifest.tests {
            let request = session.request(Instant::now());
            let (ok, got) = match runtime.block_on(decide(&request, &record.utterance)) {
                Ok(decided) => (passes(&reflex.name, record, &decided.decision), summary(&decided.decision)),
                Err(failed) => (false, failed.failure.to_string()),
            };
            ui.out(&render::tested(ok, &reflex.name, &record.utterance, &got, record.asserts.is_none()));
            if ok { passed += 1 } else { failed += 1 }
        }
    }
    ui.out(&render::tests_passed(passed, failed));
    Ok(if failed == 0 { Exit::Done } else { Exit::Failed })
}

fn summary(decision: &Decision) -> String {
    match (&decision.call, &decision.reflex) {
        (Some(call), _) => format!("{} {call}", decision.outcome.as_str()),
        (None, Some(reflex)) => format!("{} {reflex}", decision.outcome.as_str()),
        (None, None) => decision.outcome.as_str().to_string(),
    }
}

/// Whether a decision meets what the record asserts (an argument a record does not name is not
/// asserted).
pub fn passes(reflex: &str, record: &Record, decision: &Decision) -> bool {
    let acted = decision.outcome != Outcome::Abstain && decision.reflex.as_deref() == Some(reflex);
    let Some(asserts) = &record.asserts else { return !acted };
    if !acted {
        return false;
    }
    let args = decision.args.clone().unwrap_or_default();
    asserts.iter().all(|(arg, asserted)| match (asserted, args.get(arg)) {
        (Asserted::Flag(expected), value) => (value == Some(&Value::Flag)) == *expected,
        (Asserted::Text(text), Some(Value::Option { key })) => key == text,
        (Asserted::Text(text), Some(Value::Word { word, .. })) => identity(word) == identity(text),
        (Asserted::Text(text), Some(Value::Pick { span, .. })) => identity(&span.text) == identity(text),
        (Asserted::Text(_), _) => false,
    })
}
