//! `evoke update [--accept]`: never prompts, never blocks, never rewrites a user's file. It brings every
//! remote reflex and playbook in line with `evoke.toml` and upstream's releases.
//! It reports what was rewritten and taken, what went stale, what was orphaned, an effect loosened
//! upstream, which the user keeps until `--accept`, and a version that widens its grants, which is not
//! taken until `--accept` (exit 3).

use crate::context::Context;
use crate::error::CommandResult;
use crate::exit::Exit;
use crate::render;
use crate::session::{self, Session};
use crate::ui::Ui;
use evoke_files::fetch::Fetcher;
use evoke_files::install::update;
use evoke_files::lock::LockedAdapter;
use evoke_files::places::Places;
use evoke_files::project::Location;

#[derive(clap::Args)]
pub struct Args {
    /// Take an effect loosened upstream.
    #[arg(long)]
    accept: bool,
}

pub fn run(context: &Context, args: &Args) -> CommandResult {
    let ui = &context.ui;
    let (places, location) = context.locate_trusted()?;
    let mut fetcher = Fetcher::new(&places.cache).with_progress(crate::progress::Fetching::new(ui));
    run_with(ui, &context.options(), &places, &location, &mut fetcher, args.accept)
}

/// The command with its fetcher given, so a test can serve refs from loopback.
pub fn run_with(
    ui: &Ui,
    options: &session::Options,
    places: &Places,
    location: &Location,
    fetcher: &mut Fetcher,
    accept: bool,
) -> CommandResult {
    let session = Session::open(&session::Options {
        recording: options.recording,
        project_dir: options.project_dir,
        tag: None,
        home: None,
    });
    let adapter =
        // A recording answers in place of an engine for one command; it is never the engine pinned.
        session.as_ref().ok().filter(|_| options.recording.is_none()).map(|s| LockedAdapter {
            name: s.adapter_name.clone(),
            id: s.adapter.id().to_string(),
        });
    drop(session);
    let report = update(places, location, fetcher, accept, adapter)?;
    if report.events.is_empty() {
        ui.out(&render::nothing_to_update());
    }
    for event in &report.events {
        ui.out(&line(event));
    }
    crate::warm::ahead_for(ui, options);
    // A newer version left untaken for its wider grants needs a person's `--accept`.
    Ok(if report.failed {
        Exit::Failed
    } else if report.needs_consent {
        Exit::NeedsPerson
    } else {
        Exit::Done
    })
}

pub use crate::render::update_event as line;
