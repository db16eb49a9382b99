//! `evoke resume`: the last plan a sentence ran, decided again and run under its journal. The plan must
//! be the one left: another plan is refused, since its steps are not the ones the journal speaks of.

use crate::commands::weave::Options;
use crate::context::Context;
use crate::error::{CommandError, CommandResult};
use crate::journal::Journal;
use crate::log::Log;
use std::time::Instant;

pub fn run(context: &Context) -> CommandResult {
    let session = context.session()?;
    let latest = crate::journal::latest(&session.places.state);
    let digest = match std::fs::read_to_string(&latest) {
        Ok(digest) => digest.trim().to_string(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(CommandError::usage("no plan of several steps has run here; there is nothing to resume"));
        }
        Err(e) => return Err(CommandError::failed(format!("cannot read {}: {e}", latest.display()))),
    };
    let journal = Journal::again(&session.places.state, &digest, "")
        .map_err(|e| CommandError::refused(format!("the plan's journal is refused: {e}; nothing ran")))?;
    let input = journal.input().to_string();
    let runtime = crate::session::runtime()?;
    let session = &session;
    let mut log = Log::open(&session.places.log());
    runtime.block_on(async {
        let started = Instant::now();
        let request = session.request(started);
        let woven = match crate::weave::weave(&request, &input).await {
            Ok(crate::weave::Woven::Plan(woven)) => woven,
            Ok(crate::weave::Woven::One(_)) => {
                return Err(CommandError::refused(
                    "the sentence now reads as one call, not the plan left unfinished; nothing ran",
                ));
            }
            Err(failed) => {
                return crate::commands::say::refused(
                    &mut log,
                    &input,
                    failed.failure,
                    &failed.trace,
                    &failed.rounds,
                    context.json,
                );
            }
        };
        if woven.plan.digest() != digest {
            return Err(CommandError::refused(
                "the sentence now reads as another plan than the one left unfinished (the reflexes or the \
                 engine changed); nothing ran",
            )
            .with_fix("say the sentence again: evoke \"…\""));
        }
        let options = Options { json: context.json, project_flag: context.project_dir(), again: true, pinned: None };
        crate::commands::weave::act(session, &mut log, *woven, started, &options).await
    })
}
