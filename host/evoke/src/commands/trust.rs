//! `evoke trust`: show the files a project's trust binds to, each with its hash, then record
//! them. The home project is always trusted.

use crate::context::Context;
use crate::error::{CommandError, CommandResult};
use crate::exit::Exit;
use crate::render;
use evoke_core::text::escape_outside;
use evoke_files::project;
use evoke_files::trust;
use std::path::Path;

pub fn run(context: &Context) -> CommandResult {
    let ui = &context.ui;
    let (places, location) = context.locate()?;
    let shown = escape_outside(&shown_path(&location.root)).into_owned();
    if location.home {
        ui.out(&render::home_trusted(&shown));
        crate::warm::ahead_for(ui, &context.options());
        return Ok(Exit::Done);
    }
    // A project bringing settings only the home file may hold is refused on every use; trusting it would
    // only put the refusal off, so it is refused here, line by line.
    let file = location.root.join(project::PROJECT_FILE);
    if let Ok(text) = evoke_files::bounded::read_to_string_in(&location.root, &file, evoke_files::bounded::MAX_OWNED) {
        let home = places.config.join(project::PROJECT_FILE);
        let refused = evoke_files::home_only::refuse(&file.display().to_string(), &text, &home);
        if !refused.is_empty() {
            return Err(CommandError::usage(format!(
                "{shown} is not trusted: its evoke.toml holds settings only your home evoke.toml may hold"
            ))
            .with_diagnostics(refused));
        }
    }
    let snapshot = trust::snapshot(&location.root)?;
    let before = trust::check(&places, &location);
    ui.out(&render::trusting(&shown, before.as_ref().err(), &snapshot));
    let recorded = trust::record(&places, &location)?;
    ui.out(&render::trusted(&recorded.digest));
    if let Ok(project) = project::load(location.clone()) {
        crate::body::precompile(ui, &project.installed, &places.cache);
    }
    crate::warm::ahead_for(ui, &context.options());
    Ok(Exit::Done)
}

/// A project's directory as a person reads it: relative to the working directory when inside it.
pub fn shown_path(root: &Path) -> String {
    trust::shown(root)
}
