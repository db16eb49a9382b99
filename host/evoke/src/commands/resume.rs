//! `evoke resume`: the last plan a sentence ran in this project, decided again and run under its journal.
//! The plan must be the one left: another plan is refused, since its steps are not the ones the journal
//! speaks of. The journal is held from the moment it is read, so two `evoke resume` never both run what
//! was left.

use crate::context::Context;
use crate::error::{CommandError, CommandResult};
use crate::journal::{Journal, LatestError};
use crate::log::Log;
use crate::runner::{Journaled, Options, journal_refused, project_key};
use std::time::Instant;

pub fn run(context: &Context) -> CommandResult {
    let session = context.session()?;
    let journal = match Journal::latest(&session.places.state, &project_key(&session)) {
        Ok(journal) => journal,
        Err(LatestError::None) => return Err(CommandError::usage(LatestError::None.to_string())),
        Err(LatestError::Journal(e)) => return Err(journal_refused(e)),
    };
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
                    &context.ui,
                    &mut log,
                    &input,
                    failed.failure,
                    &failed.trace,
                    &failed.rounds,
                    context.json,
                );
            }
        };
        if woven.plan.digest() != journal.plan() {
            return Err(CommandError::refused(
                "the sentence now reads as another plan than the one left unfinished (the reflexes or the \
                 engine changed); nothing ran",
            )
            .with_fix("say the sentence again: evoke \"…\""));
        }
        let repeated = context.repeated();
        let options = Options {
            ui: &context.ui,
            json: context.json,
            project_flag: context.project_dir(),
            pinned: None,
            assigned: &[],
            repeated: &repeated,
            signals: true,
            code: &[],
        };
        crate::runner::run(session, &mut log, *woven, started, &options, Journaled::Resumed(journal)).await
    })
}
