//! A woven plan as a person reads it: its numbered steps as they run, `evoke try`'s reading of it, and why
//! a plan was refused whole.

use crate::line::to_line;
use crate::reading::{LoggedPlan, LoggedStep};
use evoke_core::decision::Outcome;
use evoke_core::text::escape_outside;
use evoke_core::weave::plan::{self, Plan, VerdictBecause};

/// The parts of a plan that found nothing installed, said once: `nothing installed does "a" or "b", …`.
pub fn found_nothing(texts: &[&str]) -> String {
    let quoted: Vec<String> = texts.iter().map(|t| format!("\"{}\"", escape_outside(t))).collect();
    format!("evoke: nothing installed does {}, so the whole request is refused; nothing ran\n", quoted.join(" or "))
}

/// Why a plan was refused whole, as `evoke` says it when nothing ran.
pub fn plan_refused(because: &VerdictBecause) -> String {
    let said = match because {
        VerdictBecause::NothingToDo => "evoke: the request only says what not to do; nothing ran".to_string(),
        VerdictBecause::FoundNothing { text } => return found_nothing(&[text]),
        VerdictBecause::SeveralSources { step, arg, from, .. } => format!(
            "evoke: step {step} refers back for its {arg}, which steps {} could each give; evoke does not guess, so nothing ran: say it at a terminal, where evoke asks which",
            from.iter().map(ToString::to_string).collect::<Vec<_>>().join(" and ")
        ),
        VerdictBecause::NoSource { step, arg } => format!(
            "evoke: step {step} refers back for its {arg}, which no earlier step gives; nothing ran: say the {arg}"
        ),
        playbook => format!("evoke: {}; nothing ran", playbook_held(playbook)),
    };
    format!("{said}\n")
}

/// The head of a plan a playbook wrote, as a person reads it.
pub fn playbook_picked(playbook: &str, steps: usize) -> String {
    let count = if steps == 1 { "1 step".to_string() } else { format!("{steps} steps") };
    format!("playbook {}: {count}\n", escape_outside(playbook))
}

/// The sentences a playbook's examples say pick it, as the review shows them.
pub fn playbook_examples(playbook: &evoke_core::playbook::Playbook) -> String {
    let said: Vec<String> = playbook
        .examples
        .iter()
        .filter(|e| e.asserts.is_some())
        .map(|e| format!("\"{}\"", escape_outside(&e.utterance)))
        .collect();
    if said.is_empty() {
        return String::new();
    }
    format!("picked by sentences like: {}\n", said.join(", "))
}

/// A playbook's plan that waits for a yes no one here can give: nothing ran.
pub fn playbook_waits(playbook: &str, question: &str, again: &str) -> String {
    format!(
        "evoke: the playbook {} waits for a yes to its whole plan ({}), which only a person at a terminal can \
         give; nothing ran: {} at a terminal, where every step is shown first\n",
        escape_outside(playbook),
        escape_outside(question),
        escape_outside(again)
    )
}

/// Why the sentence's own pick of a playbook holds the plan for a yes (`try`): the words it left unread,
/// its mood, a second thing it may ask for.
pub fn playbook_pick_waits(reason: &str) -> String {
    format!("waits for a yes: the sentence picks it so: {}\n", escape_outside(reason))
}

/// A step a playbook runs only under a value its source did not yield.
pub fn step_not_chosen(n: usize, when: &evoke_core::playbook::When) -> String {
    format!(
        "evoke: step {n} runs only when step {}'s {} is \"{}\"; it did not run\n",
        when.step,
        escape_outside(&when.field),
        escape_outside(&when.is)
    )
}

/// Why a plan a playbook wrote is refused, or held for a yes, in words.
pub fn playbook_held(because: &VerdictBecause) -> String {
    match because {
        VerdictBecause::Reviewed { playbook, .. } => {
            format!("the playbook {} has not been reviewed as it is now; it runs after a yes", escape_outside(playbook))
        }
        VerdictBecause::Picked { reason, .. } => format!("the sentence picks it so: {}", escape_outside(reason)),
        // The words that read as the playbook, where the line names them: the person may not have meant
        // the playbook at all.
        VerdictBecause::Nested { playbook, text: Some(text) } => format!(
            "\"{}\" reads as the playbook {}, a routine run whole, beside which only its own steps may be said again; say it alone, then the rest",
            escape_outside(text),
            escape_outside(playbook)
        ),
        VerdictBecause::Nested { playbook, text: None } => {
            format!(
                "the playbook {} is asked for beside other things; say it alone, then the rest",
                escape_outside(playbook)
            )
        }
        VerdictBecause::TooDeep { playbook, step } => format!(
            "step {step} of the playbook {} picks a playbook two levels below the sentence's own; one level of playbooks only",
            escape_outside(playbook)
        ),
        VerdictBecause::TooLong { steps, limit } => {
            format!("the playbook makes {steps} steps or more in all, over the {limit} a plan holds")
        }
        VerdictBecause::Conditional { text } => format!(
            "\"{}\" asks for a playbook on a condition or for later; evoke runs a routine only when asked now",
            escape_outside(text)
        ),
        VerdictBecause::Excluded { text } => {
            format!("\"{}\" leaves out part of a playbook; a playbook runs whole or not at all", escape_outside(text))
        }
        VerdictBecause::NoField { step, field } => {
            format!(
                "step {step} is run only under its source's {}, which that step does not yield",
                escape_outside(field)
            )
        }
        VerdictBecause::BadValue { step, field, value } => format!(
            "step {step} is run only when {} is \"{}\", a value the field cannot hold",
            escape_outside(field),
            escape_outside(value)
        ),
        VerdictBecause::MaybeSource { step, from } => {
            format!("step {step} is run only under a value of step {from}, which may itself not run")
        }
        VerdictBecause::BranchIntoPlan { step, playbook } => format!(
            "step {step} runs only under a value and picks the playbook {}: a branch into another plan",
            escape_outside(playbook)
        ),
        other => format!("{other:?}"),
    }
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
            out.push_str(&format!("{:>3}  {} · {}\n", step.step, escape_outside(reflex), takes.join(", ")));
            continue;
        }
        let call = d.call.clone().unwrap_or_else(|| d.reflex.clone().unwrap_or_default());
        let line = plan_step(step.step, &call, d.confidence);
        out.push_str(&format!("{}{}\n", line.trim_end_matches('\n'), written_by(plan, step)));
    }
    out
}

/// What a person confirming a plan must see of a step beyond its call: a value it took from words said for
/// another step, a whole result it takes, a day read beside another step's, the condition it runs under,
/// and the nested playbook that wrote it.
fn written_by(plan: &Plan, step: &plan::Step) -> String {
    let mut said = String::new();
    for arg in step.shared.keys() {
        said.push_str(&format!("  · {} said for another step", escape_outside(arg)));
    }
    for bind in plan::binds_of(plan, step.step).into_iter().filter(|b| b.via == plan::Via::Takes) {
        said.push_str(&format!("  · takes {} from {}", escape_outside(&bind.field), bind.from));
    }
    for (arg, from) in &step.beside {
        said.push_str(&format!("  · {} read beside step {from}'s day", escape_outside(arg)));
    }
    if let Some(when) = &step.when {
        said.push_str(&format!(
            "  · only if step {}'s {} is \"{}\"",
            when.step,
            escape_outside(&when.field),
            escape_outside(&when.is)
        ));
    }
    if step.from.len() > 1 {
        let names: Vec<String> = step.from[1..].iter().map(|f| escape_outside(&f.playbook).into_owned()).collect();
        said.push_str(&format!("  · from {}", names.join(", ")));
    }
    said
}

/// `evoke try`'s reading of a plan: each step with its outcome, the stages, what was left out, and the
/// verdict when the plan is refused.
pub fn plan_reading(plan: &Plan) -> String {
    let mut out = String::new();
    if plan.refused() {
        for because in &plan.verdict.because {
            match because {
                VerdictBecause::NothingToDo => out.push_str("nothing to do: the request only says what not to do\n"),
                VerdictBecause::FoundNothing { text } => out.push_str(&format!(
                    "refused: nothing installed does \"{}\", so no step runs\n",
                    escape_outside(text)
                )),
                VerdictBecause::SeveralSources { step, arg, from, .. } => out.push_str(&format!(
                    "stopped: step {step} refers back for its {arg}, which steps {} could each give\n",
                    from.iter().map(ToString::to_string).collect::<Vec<_>>().join(" and ")
                )),
                VerdictBecause::NoSource { step, arg } => out.push_str(&format!(
                    "stopped: step {step} refers back for its {arg}, which no earlier step gives\n"
                )),
                playbook => out.push_str(&format!("refused: {}\n", playbook_held(playbook))),
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
                let reflex = escape_outside(d.reflex.as_deref().unwrap_or_default()).into_owned();
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
                "{:>3}  {}{}  {}{}{}\n",
                step.step,
                escape_outside(&call),
                confidence,
                d.outcome.as_str(),
                repair,
                written_by(plan, step)
            ));
        }
        let stages: Vec<String> =
            plan.stages.iter().map(|s| s.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(" ")).collect();
        out.push_str(&format!("stages: {}\n", stages.join(" | ")));
        // A part said again as a step the plan already makes runs once, in that step.
        for folded in &plan.folded {
            out.push_str(&format!("folded: \"{}\" is step {}\n", escape_outside(&folded.text), folded.into));
        }
        for because in &plan.verdict.because {
            out.push_str(&format!("waits for a yes: {}\n", playbook_held(because)));
        }
    }
    for excluded in &plan.excluded {
        out.push_str(&format!("left out: \"{}\" (it says what not to do)\n", escape_outside(&excluded.text)));
    }
    out
}

/// `evoke why` of a plan's own line (`try`'s, or one refused whole): its steps, why it was refused, what
/// was left out.
pub fn plan_why(plan: &LoggedPlan) -> String {
    let mut out = format!("{}\n", to_line(&plan.input));
    for (step, call, outcome) in &plan.steps {
        out.push_str(&format!("{step:>3}  {}  {outcome}\n", escape_outside(call)));
    }
    for because in &plan.because {
        let said = match because {
            Ok(VerdictBecause::NothingToDo) => "nothing to do: the request only says what not to do".to_string(),
            Ok(VerdictBecause::FoundNothing { text }) => format!("refused: nothing installed does \"{text}\""),
            Ok(b @ (VerdictBecause::SeveralSources { .. } | VerdictBecause::NoSource { .. })) => {
                plan_refused(b).trim_end().trim_start_matches("evoke: ").to_string()
            }
            Ok(b) if !b.refuses() => format!("waits for a yes: {}", playbook_held(b)),
            Ok(b) => format!("refused: {}", playbook_held(b)),
            Err((kind, _)) => format!("stopped: {kind}"),
        };
        out.push_str(&format!("  {}\n", escape_outside(&said)));
    }
    for excluded in &plan.excluded {
        out.push_str(&format!("  left out: {}\n", to_line(excluded)));
    }
    out
}

/// The head of `evoke why` for a step: which step of how many, and its words, or its call when it has
/// none (a playbook's call step); then the playbook step that wrote it.
pub fn step_head(step: &LoggedStep) -> String {
    let said = match (step.input.is_empty(), step.call.is_empty()) {
        (true, false) => escape_outside(&step.call).into_owned(),
        _ => to_line(&step.input),
    };
    format!("step {} of {}: {said}{}\n", step.step.unwrap_or(1), step.steps.unwrap_or(1), logged_from(step))
}

/// ` (the playbook good_night's step 3, through lock_up's step 2)`: who wrote a logged step, outermost first.
fn logged_from(step: &LoggedStep) -> String {
    let Some(((outer, n), inner)) = step.from.split_first() else { return String::new() };
    let through: String = inner.iter().map(|(p, n)| format!(", through {}'s step {n}", escape_outside(p))).collect();
    format!(" (the playbook {}'s step {n}{through})", escape_outside(outer))
}

/// What a step took from the steps before it, and, unless it ran or failed (its result or error says
/// so), how it ended.
pub fn step_end(step: &LoggedStep) -> String {
    let mut out = String::new();
    for (arg, from, field) in &step.bound {
        out.push_str(&format!("  took {arg} from step {from}'s {field}\n"));
    }
    if !matches!(step.status.as_str(), "ran" | "failed") {
        out.push_str(&format!("  {}\n", step_status(step)));
    }
    out
}

/// One step among the plan's, as `evoke why` lists them: its number, its call, how it ended.
pub fn step_line(step: &LoggedStep) -> String {
    // A step that found nothing has no call and no reflex: its words stand for it.
    let shown_call = match (step.call.is_empty(), step.reflex.is_empty()) {
        (false, _) => escape_outside(&step.call).into_owned(),
        (true, false) => escape_outside(&step.reflex).into_owned(),
        (true, true) => to_line(&step.input),
    };
    format!("{:>3}  {shown_call}  {}\n", step.step.unwrap_or(0), step_status(step))
}

fn step_status(step: &LoggedStep) -> String {
    let status = &step.status;
    match &step.why {
        Some((kind, _)) if kind == "earlier_step" => format!("{status}: an earlier step stopped the weave"),
        Some((kind, _)) if kind == "found_nothing" => format!("{status}: nothing installed does what it says"),
        Some((kind, _)) if kind == "no_reflex" => format!("{status}: its reflex is not installed and active here"),
        // Passed by under its `when`: what the source yielded, against what the step runs under.
        Some((kind, _)) if kind == "not_chosen" => match (&step.when, &step.yielded) {
            (Some((from, field, is)), Some(value)) => {
                format!(
                    "{status}: step {from}'s {} was \"{}\", not \"{}\"",
                    escape_outside(field),
                    escape_outside(value),
                    escape_outside(is)
                )
            }
            _ => format!("{status}: its source did not yield the value it runs under"),
        },
        Some((_, Some(message))) => format!("{status}: {}", escape_outside(message)),
        Some((kind, None)) => format!("{status}: {kind}"),
        None => status.to_string(),
    }
}

/// One numbered step of a plan as it runs: `  1  lights room="den" state="off"  0.92`.
pub fn plan_step(n: usize, call: &str, confidence: Option<f64>) -> String {
    let confidence = confidence.map(|c| format!("  {c:.2}")).unwrap_or_default();
    format!("{n:>3}  {}{confidence}\n", escape_outside(call))
}

/// A step that asks for a value before anything runs.
pub fn step_asks(n: usize, reflex: &str) -> String {
    format!("step {n}: {}\n", escape_outside(reflex))
}

/// A step that did not run, and why.
pub fn step_not_run(n: usize, why: &str) -> String {
    format!("evoke: step {n}: {}; it did not run\n", escape_outside(why))
}

/// A step its journal says ran before: it does not run again.
pub fn step_ran_before(n: usize) -> String {
    format!("evoke: step {n} ran before; it does not run again\n")
}

pub fn step_declined(n: usize) -> String {
    format!("evoke: step {n} declined\n")
}

/// A plan saved by `evoke try --save`, and how to run it.
pub fn plan_saved(file: &str) -> String {
    format!("saved the plan to {}; run it with: {}\n", escape_outside(file), super::command(&["evoke", "run", file]))
}

/// A plan run again without a terminal, whose step `n` was left at `intent`: nothing runs.
pub fn plan_step_started_before(n: usize, again: &str) -> String {
    format!(
        "evoke: step {n} started before and may already have acted; only a person can say to run it again\n\
         nothing ran: answer at a terminal: {}\n",
        escape_outside(again)
    )
}

/// A plan file sealed by another key than this user's.
pub fn plan_from_elsewhere(file: &str) -> String {
    format!(
        "evoke: {file} was written elsewhere (sealed by another key): its sentence is decided again here, \
         and each write asks first\n"
    )
}
