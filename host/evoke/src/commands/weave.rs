//! `evoke run FILE` of a plan file, and `evoke why` of a plan's lines: the command's side of a plan,
//! over the runner (`crate::runner`).

use crate::error::{CommandError, CommandResult};
use crate::exit::Exit;
use crate::log::Log;
use crate::reading::{LoggedPlan, LoggedStep};
use crate::render;
use crate::runner::{Journaled, Options, Pinned};
use crate::session::Session;
use crate::ui::Ui;
use std::path::Path;
use std::time::Instant;

/// `evoke why` for a weave, from the log alone: a step's line explains that step and lists every step
/// of its plan with how it ended; a plan refused whole says why; `try`'s plan line lists its steps.
pub fn why(ui: &Ui, log_path: &Path, back: usize, entry: &serde_json::Value) -> Exit {
    // A plan `try` printed, or one refused whole.
    if entry.get("step").is_none() {
        ui.out(&render::plan_why(&LoggedPlan::of(entry)));
        return Exit::Done;
    }
    let this = LoggedStep::of(entry);
    ui.out(&render::step_head(&this));
    crate::commands::why::explain(ui, entry);
    ui.out(&render::step_end(&this));
    // The plan's other lines sit beside this one in the log, in the order they were written.
    ui.out(&render::the_plan());
    let (step, steps) = (this.step.unwrap_or(1) as usize, this.steps.unwrap_or(1));
    let first = back + step - 1;
    for k in 0..steps as usize {
        let Some(at) = first.checked_sub(k) else { break };
        let Ok(line) = crate::log::entry(log_path, at) else { break };
        let other = LoggedStep::of(&line);
        if other.steps != Some(steps) {
            break;
        }
        ui.out(&render::step_line(&other));
    }
    Exit::Done
}

/// The one tag a plan file says it was saved under, read before its seal is opened: only to choose the
/// reflexes it runs among, which its seal and pins are then checked against. A file that cannot be read,
/// or that names no tag or several, gives none.
pub fn saved_tag(path: &Path) -> Option<String> {
    use evoke_core::weave::planfile::MAX_BYTES;
    let text = evoke_files::bounded::read_to_string(path, MAX_BYTES as u64).ok()?;
    let file: serde_json::Value = serde_json::from_str(&text).ok()?;
    match file.get("tags")?.as_array()?.as_slice() {
        [tag] => tag.as_str().map(str::to_string),
        _ => None,
    }
}

/// The id a step run from a plan file carries: `h1:` and the standard, padded base64 of the SHA-256 of
/// the file's bytes as read, the form of every content hash evoke writes (`evoke_core::h1`).
fn file_id(text: &str) -> String {
    use sha2::Digest;
    format!("h1:{}", evoke_core::h1::base64(&sha2::Sha256::digest(text.as_bytes())))
}

/// `evoke run FILE`: the plan of a plan file, run only when its seal holds, every pin still holds and its
/// answers give the very plan written. Nothing runs otherwise. A file sealed by another key (written
/// elsewhere) is decided again here from its sentence, and each of its writes asks first.
pub fn run_file(
    session: &Session,
    path: &Path,
    assigned: &[String],
    context: &crate::context::Context,
) -> CommandResult {
    let (ui, json, project_flag) = (&context.ui, context.json, context.project_dir());
    let repeated = context.repeated();
    use evoke_core::weave::planfile;
    let shown = path.display().to_string();
    let refused = |refused: planfile::Refused| {
        Err(CommandError::refused(format!("{shown}: {refused}; nothing ran")).with_fix(refused.fix))
    };
    let refuse = |message: String| Err(CommandError::refused(format!("{shown}: {message}; nothing ran")));
    // Bounded while reading and only a regular file: a link to /dev/zero reads as size 0 and never ends.
    let text = match evoke_files::bounded::read_to_string(path, planfile::MAX_BYTES as u64) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(CommandError::usage(format!("cannot read {shown}: {e}")));
        }
        Err(e) => return refuse(format!("cannot be read: {e}")),
    };
    let key = crate::runner::planfile::plan_key(session)?;
    let opened = match planfile::unseal(&text, &key) {
        Ok(opened) => opened,
        Err(e) => return refused(e),
    };
    // Lines are counted in the file as read; the sealed text lacks the seal's line.
    let shift = |mut e: planfile::Refused| {
        e.line += 1;
        e
    };
    let file = match planfile::read(&opened.text) {
        Ok(file) => file,
        Err(e) => return refused(shift(e)),
    };
    // Its pins are of the reflexes its tags let take part; among others, it is another plan.
    if file.tags != session.tags {
        let at = |key: &str| text.lines().position(|l| l.trim_start().starts_with(&format!("\"{key}\":")));
        let line = at("tags").or_else(|| at("weave")).map_or(1, |i| i + 1);
        let under = |tags: &[String]| match tags {
            [] => "no --tag".to_string(),
            tags => tags.iter().map(|t| format!("--tag {t}")).collect::<Vec<_>>().join(" "),
        };
        let mut words = vec!["evoke".to_string()];
        let mut given = repeated.iter();
        while let Some(word) = given.next() {
            // The run's own tag is left out: the file's takes its place.
            if word == "--tag" {
                given.next();
                continue;
            }
            words.push(word.clone());
        }
        for tag in &file.tags {
            words.extend(["--tag".to_string(), tag.clone()]);
        }
        words.extend(["run".to_string(), shown.clone()]);
        return Err(CommandError::refused(format!(
            "{shown}: line {line}: `tags`: saved under {}; this run is under {}; nothing ran",
            under(&file.tags),
            under(&session.tags)
        ))
        .with_fix(format!("run it under the tags it was saved with: {}", render::command(&words))));
    }
    let pins = crate::runner::planfile::pins(session);
    if let Err(e) = planfile::check(&opened.text, &file, &pins) {
        // A step whose reflex is gone says so on its line, and each other step that it did not run.
        let gone = planfile::steps_gone(&file, &pins);
        if !gone.is_empty() {
            let pinned = Pinned { file: shown.clone(), id: file_id(&text) };
            let mut log = Log::open(&session.places.log());
            for line in crate::runner::planfile::gone_lines(&file, &gone, &pinned) {
                if let Err(e) = log.append(&line, &[], &[]) {
                    ui.err(&render::not_logged("step", &e));
                }
                if json {
                    ui.json_line(&line);
                }
            }
        }
        return refused(shift(e));
    }
    if let Err(e) = crate::runner::planfile::check_remote(&opened.text, &crate::runner::planfile::remote_pins(session))
    {
        return refused(shift(e));
    }
    let runtime = crate::session::runtime()?;
    let mut log = Log::open(&session.places.log());
    let pinned = Pinned { file: shown.clone(), id: file_id(&text) };
    let options = Options {
        ui,
        json,
        project_flag,
        pinned: Some(pinned),
        assigned,
        repeated: &repeated,
        signals: true,
        code: &[],
    };
    if !opened.ours {
        let journaled = Journaled::Elsewhere { text: &text };
        ui.err(&render::plan_from_elsewhere(&shown));
        return runtime.block_on(async {
            let started = Instant::now();
            let request = session.request(started);
            match crate::weave::weave(&request, &file.input).await {
                Ok(crate::weave::Woven::Plan(woven)) => {
                    crate::runner::run(session, &mut log, *woven, started, &options, journaled).await
                }
                Ok(crate::weave::Woven::One(_)) => {
                    refuse("decided again here, it reads as one call: say it as a sentence".into())
                }
                Err(failed) => refuse(failed.failure.to_string()),
            }
        });
    }
    let engine = crate::weave::FromFile {
        id: session.adapter.id().to_string(),
        gate: session.gate,
        answers: file.answers.clone(),
    };
    runtime.block_on(async {
        let started = Instant::now();
        // The plan file's answers, never the cache's: the plan is the one its answers give.
        let request = session.request_through(&engine, None, started);
        let woven = match crate::weave::weave(&request, &file.input).await {
            Ok(crate::weave::Woven::Plan(woven)) => woven,
            Ok(crate::weave::Woven::One(_)) => return refuse("its answers give one call, not the plan written".into()),
            Err(failed) => return refuse(failed.failure.to_string()),
        };
        if serde_json::to_value(&woven.plan).ok().as_ref() != Some(&file.weave) {
            let line = text.lines().position(|l| l.trim_start().starts_with("\"weave\":")).map_or(1, |i| i + 1);
            return Err(CommandError::refused(format!(
                "{shown}: line {line}: `weave`: the plan written is not the plan its answers give; nothing ran"
            ))
            .with_fix("write the plan again: evoke try --save FILE \"…\""));
        }
        crate::runner::run(session, &mut log, *woven, started, &options, Journaled::File { seal: &opened.mac }).await
    })
}
