//! `evoke why [N]`: explain a decision from the log alone; N counts back from 1, the last.

use crate::context::Context;
use crate::error::{CommandError, CommandResult};
use crate::exit::Exit;
use crate::reading::Reading;
use crate::ui::Ui;
use crate::{log, render};
use evoke_core::log_entry::log_entry_of;
use evoke_files::places::Places;
use serde_json::Value;

#[derive(clap::Args)]
pub struct Args {
    /// How far back: 1 is the last decision.
    #[arg(default_value_t = 1)]
    n: usize,
}

pub fn run(context: &Context, args: &Args) -> CommandResult {
    let ui = &context.ui;
    let back = args.n;
    let places = Places::from_env()?;
    let entry = log::entry(&places.log(), back)?;
    if context.json {
        ui.json_line(&crate::line::to_line(&entry));
        return Ok(Exit::Done);
    }
    show(ui, &places.log(), back, &entry)
}

/// What `evoke why` prints for `entry`, the logged line `back` from the last of the log at `log_path`.
pub(crate) fn show(ui: &Ui, log_path: &std::path::Path, back: usize, entry: &Value) -> CommandResult {
    // A line that is JSON but no object is no decision: there is nothing to explain.
    if !entry.is_object() {
        return Err(CommandError::usage(format!(
            "{}: entry {back} from the end is not a JSON object",
            log_path.display()
        )));
    }
    if entry.get("steps").is_some() || entry.get("verdict").is_some() {
        return Ok(weave(ui, log_path, back, entry));
    }
    let input = entry.get("input").and_then(Value::as_str).unwrap_or_default();
    ui.out(&render::logged_input(input));
    // A decision that failed closed has no outcome: its error is all there is to say.
    if let (None, Some(error)) = (entry.get("outcome"), entry.get("error").and_then(Value::as_str)) {
        ui.out(&render::logged_refusal(error));
        return Ok(Exit::Done);
    }
    explain(ui, entry);
    Ok(Exit::Done)
}

/// One decision's reading from its log entry, and what its body did.
pub(crate) fn explain(ui: &Ui, entry: &Value) {
    // A line that is no object was refused when it was read; one that is reads as far as it can.
    let Ok(logged) = log_entry_of(entry.clone()) else { return };
    ui.out(&render::reading(&Reading::of_log(&logged)));
    ui.out(&render::logged_run(logged.ran.as_deref(), logged.error.as_deref()));
}

/// `evoke why` for a weave, from the log alone: a step's line explains that step and lists every step
/// of its plan with how it ended; a plan refused whole says why; `try`'s plan line lists its steps.
fn weave(ui: &Ui, log_path: &std::path::Path, back: usize, entry: &serde_json::Value) -> Exit {
    // A plan `try` printed, or one refused whole.
    if entry.get("step").is_none() {
        ui.out(&render::plan_why(&crate::reading::LoggedPlan::of(entry)));
        return Exit::Done;
    }
    let this = crate::reading::LoggedStep::of(entry);
    ui.out(&render::step_head(&this));
    explain(ui, entry);
    ui.out(&render::step_end(&this));
    // The plan's other lines sit beside this one in the log, in the order they were written.
    ui.out(&render::the_plan());
    let (step, steps) = (this.step.unwrap_or(1) as usize, this.steps.unwrap_or(1));
    let first = back + step - 1;
    for k in 0..steps as usize {
        let Some(at) = first.checked_sub(k) else { break };
        let Ok(line) = crate::log::entry(log_path, at) else { break };
        let other = crate::reading::LoggedStep::of(&line);
        if other.steps != Some(steps) {
            break;
        }
        ui.out(&render::step_line(&other));
    }
    Exit::Done
}
