//! `evoke add NAME REF[@TAG]` (or `--tag TAG`), and `evoke add NAME PATH` for a local reflex: install it,
//! lint it (a directory holding `playbook.toml` is installed as a playbook, checked as the project loads
//! it), then the theft test: the installed reflexes' examples routed over the new set,
//! naming every phrase the newcomer would take, with its one-line fix. Lint and theft report; they
//! never refuse. The lock records the effect the user consented to.

use crate::context::Context;
use crate::error::CommandResult;
use crate::exit::Exit;
use crate::render;
use crate::session::{self, Session};
use crate::ui::Ui;
use evoke_core::adapter::Cancel;
use evoke_core::catalog::Reflex;
use evoke_core::contract::grants_widened;
use evoke_core::manifest::Grants;
use evoke_files::fetch::Fetcher;
use evoke_files::install::{self, Added};
use evoke_files::lock::LockedAdapter;
use evoke_files::places::Places;
use evoke_files::project::Location;
use evoke_files::theft::theft_test;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// Its local name.
    name: String,
    /// A ref (https://host/path, ssh://host/path or user@host:path, then //subdir) or a directory.
    source: String,
}

pub fn run(context: &Context, args: &Args) -> CommandResult {
    let ui = &context.ui;
    let (places, location) = context.locate_trusted()?;
    let mut fetcher = Fetcher::new(&places.cache).with_progress(crate::progress::Fetching::new(ui));
    run_with(ui, &context.options(), &places, &location, &mut fetcher, &args.name, &args.source)
}

/// The command with its fetcher given, so a test can serve refs from loopback.
pub fn run_with(
    ui: &Ui,
    options: &session::Options,
    places: &Places,
    location: &Location,
    fetcher: &mut Fetcher,
    name: &str,
    source: &str,
) -> CommandResult {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
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
    let added = install::add(places, location, fetcher, &cwd, name, source, options.tag, adapter)?;
    report(ui, &added, &location.root);
    if let Ok(project) = evoke_files::project::load(location.clone()) {
        let added_one: Vec<_> = project.installed.into_iter().filter(|i| i.name == added.name).collect();
        crate::body::precompile(ui, &added_one, &places.cache);
    }
    // The theft test asks the project's engine, as it now stands with the newcomer installed.
    match Session::open(&session::Options {
        recording: options.recording,
        project_dir: options.project_dir,
        tag: None,
        home: None,
    }) {
        Ok(session) => {
            theft(ui, &session, &added);
            crate::warm::ahead(ui, &session);
        }
        Err(e) => ui.err(&render::no_theft_test(&e.message)),
    }
    Ok(Exit::Done)
}

fn report(ui: &Ui, added: &Added, root: &Path) {
    // What the user consents to by adding it: every path the body may reach with its mode, every host.
    let grants = grants_widened(&Grants::default(), &added.manifest.grants);
    ui.out(&render::added(added, &grants));
    let file = added.dir.join("reflex.toml");
    let shown = file.strip_prefix(root).unwrap_or(&file).display().to_string();
    for finding in &added.findings {
        ui.err(&render::lint_finding(&shown, finding, ui.colour()));
    }
}

fn theft(ui: &Ui, session: &Session, added: &Added) {
    let status = match session.project.installed(&added.name) {
        Some(installed) => installed.status.as_ref().err(),
        None => session.project.playbook(&added.name).and_then(|p| p.status.as_ref().err()),
    };
    if let Some(inactive) = status {
        ui.out(&render::inactive(&added.name, inactive));
    }
    let others: Vec<Reflex> = session.catalog.reflexes().iter().filter(|r| r.name != added.name).cloned().collect();
    if others.iter().all(|r| r.manifest.examples.is_empty()) {
        ui.out(&render::no_theft_examples());
        return;
    }
    let newcomer = session.catalog.get(&added.name).cloned().unwrap_or_else(|| Reflex {
        name: added.name.clone(),
        manifest: added.manifest.clone(),
        vocabs: Default::default(),
    });
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_time().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            ui.err(&render::no_theft_test(&e));
            return;
        }
    };
    let mut ask = |state: &evoke_core::adapter::State, questions: &evoke_core::question::Questions| {
        let cancel = Cancel::new();
        runtime.block_on(session.adapter.answer(state, questions, &cancel))
    };
    match theft_test(&others, &newcomer, &mut ask) {
        Ok(thefts) => ui.out(&render::thefts(&added.name, &thefts)),
        // The engine's failure may quote what an adapter sent.
        Err(skipped) => ui.err(&render::theft_test_stopped(&skipped.0)),
    }
}
