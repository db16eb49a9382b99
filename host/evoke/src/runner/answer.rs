//! The literal command that answers a plan stopped for a value no one here could give.

use super::Options;
use super::assigned::Assigned;
use crate::error::CommandError;
use crate::journal::Journal;
use crate::render;
use crate::session::Session;
use evoke_core::decision::Outcome;
use evoke_core::weave::plan::Plan;
use std::path::Path;

/// How a plan that stopped for a value is answered.
pub enum AnswerCommand {
    /// The literal command that runs the whole plan with the answer: its plan file and `N.arg=<…>`.
    Run(String),
    /// Only at a terminal: the plan has run in part, and its journal is taken up by this command.
    AtTerminal(String),
}

/// The literal command that answers a plan stopped for a value: `evoke run FILE N.arg='<…>' …`, every value
/// given so far and a placeholder for each one still missing. The file is the plan's own when it ran from
/// one; otherwise the plan is saved now, sealed, in the state place, as `try --save` saves it.
pub(super) fn answer_command(
    session: &Session,
    settled: &Plan,
    plan: &Plan,
    answers: &[evoke_core::weave::planfile::Answer],
    assigned: &[Vec<Assigned>],
    journal: &Journal,
    options: &Options<'_>,
) -> Result<AnswerCommand, CommandError> {
    let file = match &options.pinned {
        Some(pinned) => std::fs::canonicalize(&pinned.file).unwrap_or_else(|_| pinned.file.clone().into()),
        None => {
            // A plan taken up by `evoke resume` that has run in part goes on under its own journal.
            if (1..=plan.steps.len()).any(|n| journal.entry(n).is_some()) {
                return Ok(AnswerCommand::AtTerminal(super::again_command(options)));
            }
            save_asked(session, settled, answers)?
        }
    };
    let mut words = vec!["evoke".to_string()];
    words.extend(options.repeated.iter().cloned());
    words.push("run".into());
    words.push(file.display().to_string());
    for (i, step) in plan.steps.iter().enumerate() {
        let n = i + 1;
        for a in &assigned[i] {
            words.push(format!("{n}.{}={}", a.arg, a.text));
        }
        let decision = &step.decision;
        if decision.outcome != Outcome::Ask {
            continue;
        }
        for m in decision.missing.iter().flatten() {
            if plan.binds.iter().any(|b| b.step == n && b.arg == m.arg) {
                continue;
            }
            words.push(render::placeholder(&format!("{n}.{}", m.arg), m));
        }
    }
    Ok(AnswerCommand::Run(render::command(&words)))
}

/// How many plans saved for an answer are kept: a new one past this many removes the oldest.
const ASKED_KEPT: usize = crate::journal::KEPT;

/// Saves a plan stopped for a value as a sealed plan file in the state place (`weave/asked/`), with its
/// journal begun, and gives its path. Each is one request: it carries an id of its own, so the same
/// sentence stopped again is a new plan file with a new journal, as a sentence said again is a new request.
fn save_asked(
    session: &Session,
    plan: &Plan,
    answers: &[evoke_core::weave::planfile::Answer],
) -> Result<std::path::PathBuf, CommandError> {
    use sha2::Digest;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let mut hasher = sha2::Sha256::new();
    hasher.update(b"evoke asked\0");
    hasher.update(std::process::id().to_le_bytes());
    hasher.update(now.as_nanos().to_le_bytes());
    hasher.update(plan.input.as_bytes());
    let id: String = hasher.finalize().iter().take(12).map(|b| format!("{b:02x}")).collect();
    let dir = session.places.state.join("weave").join("asked");
    evoke_files::atomic::create_private_dirs(&dir)
        .map_err(|e| CommandError::failed(format!("cannot make {}: {e}", dir.display())))?;
    let path = dir.join(format!("{id}.plan.json"));
    let sealed = super::planfile::seal_plan(session, plan, answers, Some(&id))?;
    evoke_files::atomic::write(&path, sealed.as_bytes())
        .map_err(|e| CommandError::failed(format!("cannot write {}: {e}", path.display())))?;
    prune_asked(&dir, &path);
    Ok(path)
}

/// Removes the oldest plans saved for an answer past [`ASKED_KEPT`], never `keep`.
fn prune_asked(dir: &Path, keep: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut saved: Vec<(std::time::SystemTime, std::path::PathBuf)> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p != keep && p.extension().is_some_and(|x| x == "json"))
        .filter_map(|p| Some((p.symlink_metadata().ok()?.modified().ok()?, p)))
        .collect();
    if saved.len() < ASKED_KEPT {
        return;
    }
    saved.sort();
    let extra = saved.len() + 1 - ASKED_KEPT;
    for (_, path) in saved.into_iter().take(extra) {
        let _ = std::fs::remove_file(path);
    }
}
