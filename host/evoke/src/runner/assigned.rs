//! The values `evoke run FILE N.arg=value` gives a plan's steps, read before anything runs.

use crate::error::CommandError;
use crate::session::Session;
use evoke_core::decision::{Outcome, Value};
use evoke_core::weave::plan::Plan;

/// One `N.arg=value` given to `evoke run FILE`, read against step N's reflex.
#[derive(Debug, Clone)]
pub(super) struct Assigned {
    pub(super) arg: String,
    /// As given, to be given again in a command printed later.
    pub(super) text: String,
    pub(super) value: Value,
}

/// Reads every `N.arg=value` against the plan: N a step of it, `arg` an argument of its reflex, the value
/// read exactly as `evoke run NAME arg=value` reads it (options, vocabulary, range, the text rules), and,
/// for an argv body, never one that starts with `-`. Only a value the step still needs may be given: one
/// the plan holds, or takes from an earlier step, is refused. Per step, in the plan's order.
pub(super) fn assignments(
    session: &Session,
    plan: &Plan,
    given: &[String],
) -> Result<Vec<Vec<Assigned>>, CommandError> {
    const FORM: &str = "give each as N.arg=value, N the number of a step that still needs `arg`";
    let count = plan.steps.len();
    let mut per_step: Vec<Vec<Assigned>> = vec![Vec::new(); count];
    for pair in given {
        let usage = |message: String| {
            CommandError::usage(format!("`{pair}`: {message}; nothing ran")).with_fix(FORM.to_string())
        };
        let Some((key, text)) = pair.split_once('=') else {
            return Err(usage("a plan file takes N.arg=value, and this has no `=`".into()));
        };
        let Some((n, arg)) = key.split_once('.') else {
            return Err(usage("a plan file takes N.arg=value, and this names no step".into()));
        };
        let Some(n) = n.parse::<usize>().ok().filter(|n| (1..=count).contains(n)) else {
            return Err(usage(format!("the plan has steps 1 to {count}; there is no step {n}")));
        };
        let decision = &plan.steps[n - 1].decision;
        let name = decision.reflex.as_deref().unwrap_or_default();
        let Some(reflex) = session.catalog.get(name) else {
            return Err(usage(format!("step {n} calls no reflex installed here")));
        };
        let (live, value) = crate::commands::run::read_value(reflex, arg, Some(text)).map_err(|mut e| {
            e.message = format!("`{pair}`: step {n} ({name}): {}; nothing ran", e.message);
            if e.fix.is_none() {
                e.fix = Some(FORM.to_string());
            }
            e
        })?;
        let Some(value) = value else {
            return Err(usage(format!("step {n} ({name}) needs a value for `{live}`, not a flag set to false")));
        };
        let missing = decision.outcome == Outcome::Ask
            && decision.missing.iter().flatten().any(|m| m.arg == live)
            && !plan.binds.iter().any(|b| b.step == n && b.arg == live);
        if !missing {
            let holds = match decision.args.as_ref().and_then(|a| a.get(&live)) {
                Some(v) => format!("already holds `{live}` as \"{}\"", v.shown()),
                None if plan.binds.iter().any(|b| b.step == n && b.arg == live) => {
                    format!("takes `{live}` from an earlier step")
                }
                None => format!("does not ask for `{live}`"),
            };
            return Err(CommandError::usage(format!(
                "`{pair}`: step {n} ({name}) {holds}; a plan file's assignment fills only a value the plan still \
                 needs; nothing ran"
            ))
            .with_fix("leave it out; to change what the sentence says, say the sentence again"));
        }
        if per_step[n - 1].iter().any(|a| a.arg == live) {
            return Err(usage(format!("`{n}.{live}` is given twice; give it once")));
        }
        // An argv body never takes a value that starts with `-`: refused now, before any step runs.
        let argv = matches!(&reflex.manifest.run, evoke_core::manifest::Run::Argv(argv)
            if argv.iter().skip(1).any(|e| *e == format!("{{{live}}}")));
        if argv && text.trim_start().starts_with('-') {
            return Err(usage(format!(
                "step {n} ({name}) runs a program, and a value that starts with `-` could become its option"
            )));
        }
        per_step[n - 1].push(Assigned { arg: live, text: text.to_string(), value });
    }
    Ok(per_step)
}
