//! A woven plan as a person reads it: its numbered steps as they run, `evoke try`'s reading of it, and why
//! a plan was refused whole.

use super::shown;
use evoke_core::decision::Outcome;
use evoke_core::weave::plan::{self, Plan, VerdictBecause};

/// Why a plan was refused whole, as `evoke` says it when nothing ran.
pub fn plan_refused(because: &VerdictBecause) -> String {
    let said = match because {
        VerdictBecause::NothingToDo => "evoke: the request only says what not to do; nothing ran".to_string(),
        VerdictBecause::FoundNothing { text } => {
            format!("evoke: nothing installed does \"{}\", so the whole request is refused; nothing ran", shown(text))
        }
        VerdictBecause::SeveralSources { step, arg, from } => format!(
            "evoke: step {step} refers back for its {arg}, which steps {} could each give; evoke does not guess, so nothing ran: say which",
            from.iter().map(ToString::to_string).collect::<Vec<_>>().join(" and ")
        ),
        VerdictBecause::NoSource { step, arg } => format!(
            "evoke: step {step} refers back for its {arg}, which no earlier step gives; nothing ran: say the {arg}"
        ),
    };
    format!("{said}\n")
}

/// The plan's numbered lines: `  1  lights room="den" state="off"  0.92`.
pub fn plan_steps(plan: &Plan) -> String {
    let mut out = String::new();
    for step in &plan.steps {
        let d = &step.decision;
        let binds = plan::binds_of(plan, step.step);
        if d.outcome == Outcome::Ask && !binds.is_empty() {
            let takes: Vec<String> = binds.iter().map(|b| format!("takes {} from {}", b.field, b.from)).collect();
            let reflex = d.reflex.as_deref().unwrap_or_default();
            out.push_str(&format!("{:>3}  {} · {}\n", step.step, shown(reflex), takes.join(", ")));
            continue;
        }
        let call = d.call.clone().unwrap_or_else(|| d.reflex.clone().unwrap_or_default());
        let confidence = d.confidence.map(|c| format!("  {c:.2}")).unwrap_or_default();
        out.push_str(&format!("{:>3}  {}{}\n", step.step, shown(&call), confidence));
    }
    out
}

/// `evoke try`'s reading of a plan: each step with its outcome, the stages, what was left out, and the
/// verdict when the plan is refused.
pub fn plan_reading(plan: &Plan) -> String {
    let mut out = String::new();
    if plan.refused() {
        for because in &plan.verdict.because {
            match because {
                VerdictBecause::NothingToDo => out.push_str("nothing to do: the request only says what not to do\n"),
                VerdictBecause::FoundNothing { text } => {
                    out.push_str(&format!("refused: nothing installed does \"{}\", so no step runs\n", shown(text)))
                }
                VerdictBecause::SeveralSources { step, arg, from } => out.push_str(&format!(
                    "stopped: step {step} refers back for its {arg}, which steps {from:?} could each give\n"
                )),
                VerdictBecause::NoSource { step, arg } => out.push_str(&format!(
                    "stopped: step {step} refers back for its {arg}, which no earlier step gives\n"
                )),
            }
        }
    } else {
        let count = |n: usize, one: &str| if n == 1 { format!("1 {one}") } else { format!("{n} {one}s") };
        out.push_str(&format!("plan: {} in {}\n", count(plan.steps.len(), "step"), count(plan.stages.len(), "stage")));
        for step in &plan.steps {
            let d = &step.decision;
            let binds = plan::binds_of(plan, step.step);
            if d.outcome == Outcome::Ask && !binds.is_empty() {
                let takes: Vec<String> = binds.iter().map(|b| format!("takes {} from {}", b.field, b.from)).collect();
                let reflex = shown(d.reflex.as_deref().unwrap_or_default()).into_owned();
                out.push_str(&format!("{:>3}  {reflex} · {}  bound\n", step.step, takes.join(", ")));
                continue;
            }
            let call = d.call.clone().unwrap_or_else(|| d.reflex.clone().unwrap_or_default());
            let confidence = d.confidence.map(|c| format!("  {c:.2}")).unwrap_or_default();
            let repair = step
                .repair
                .map(|r| format!("  ({})", serde_json::to_value(r).unwrap_or_default().as_str().unwrap_or("")))
                .unwrap_or_default();
            out.push_str(&format!(
                "{:>3}  {}{}  {}{}\n",
                step.step,
                shown(&call),
                confidence,
                d.outcome.as_str(),
                repair
            ));
        }
        let stages: Vec<String> =
            plan.stages.iter().map(|s| s.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(" ")).collect();
        out.push_str(&format!("stages: {}\n", stages.join(" | ")));
    }
    for excluded in &plan.excluded {
        out.push_str(&format!("left out: \"{}\" (it says what not to do)\n", shown(&excluded.text)));
    }
    out
}
