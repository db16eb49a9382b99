//! `evoke check [PATH]`: read a reflex directory, print its refusals and lint findings; in a git working
//! copy, the contract diff against the newest version tag and the next version. At a directory holding
//! no `reflex.toml` inside a working copy, every reflex under it, and the repository's next version. At a
//! directory holding `playbook.toml`, the playbook checked against the project's reflexes and playbooks,
//! every static refusal at its line.

use crate::context::Context;
use crate::error::{CommandError, CommandResult};
use crate::exit::Exit;
use crate::ui::Ui;
use crate::{load, render};
use evoke_core::lint::lint;
use evoke_core::project::ReflexSource;
use evoke_core::text::escape_outside;
use evoke_files::playbook::PLAYBOOK_FILE;
use evoke_files::release_tags::Against;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// The reflex or playbook directory (default: the current one).
    path: Option<PathBuf>,
}

pub fn run(context: &Context, args: &Args) -> CommandResult {
    let ui = &context.ui;
    let dir = args.path.as_deref().unwrap_or(Path::new("."));
    if dir.join(PLAYBOOK_FILE).is_file() && !dir.join("reflex.toml").exists() {
        return playbook(context, dir);
    }
    if !dir.join("reflex.toml").exists() {
        if let Some(dirs) = evoke_files::release_tags::reflex_dirs(dir).filter(|d| !d.is_empty()) {
            return Ok(whole_repository(ui, &dirs));
        }
        if !dir.join(PLAYBOOK_FILE).exists() {
            let here = match &args.path {
                Some(path) => escape_outside(&path.display().to_string()).into_owned(),
                None => "the current directory".to_string(),
            };
            return Err(CommandError::usage(format!("{here} holds neither reflex.toml nor {PLAYBOOK_FILE}")).with_fix(
                "`evoke check` takes a reflex or playbook directory: `evoke check reflexes/lights`, \
                 `evoke check playbooks/good_night`",
            ));
        }
    }
    one(ui, dir).map(|(exit, _)| exit)
}

/// One tag covers the whole repository: each reflex, then the highest level among them.
fn whole_repository(ui: &Ui, dirs: &[std::path::PathBuf]) -> Exit {
    let mut exit = Exit::Done;
    let mut results = Vec::new();
    for dir in dirs {
        // Each reflex is read whatever the one before it came to; its error is said where it stands.
        let (e, against) = one(ui, dir).unwrap_or_else(|e| (ui.finished(Err(e)), None));
        if e != Exit::Done && exit == Exit::Done {
            exit = e;
        }
        results.extend(against);
    }
    if exit == Exit::Done
        && results.len() == dirs.len()
        && let Some((newest, _, next)) = evoke_files::release_tags::repository_next(&results)
    {
        ui.out(&render::repository_next(dirs.len(), &newest.to_string(), next.as_ref()));
    }
    exit
}

fn one(ui: &Ui, dir: &Path) -> Result<(Exit, Option<Against>), CommandError> {
    let (file, reading) = load::reflex(dir).map_err(|e| {
        e.with_fix("run `evoke check` in a reflex directory, or name one: `evoke check reflexes/lights`")
    })?;
    // A path is outside text: shown escaped wherever it is printed.
    let file = escape_outside(&file).into_owned();
    for d in &reading.diagnostics {
        ui.err(&render::diagnostic(d, ui.colour()));
    }
    let Some(manifest) = reading.value else {
        let errors = reading.diagnostics.iter().filter(|d| d.is_error()).count();
        ui.err(&render::manifest_refused(&file, errors));
        return Ok((Exit::Usage, None));
    };
    let findings = lint(&manifest);
    for f in &findings {
        ui.err(&render::lint_finding(&file, f, ui.colour()));
    }
    ui.out(&render::manifest_reads(&file, &manifest, findings.len()));
    versions(ui, dir, &manifest)
}

/// In a git working copy: the contract diff against the newest version tag and the next version.
fn versions(
    ui: &Ui,
    dir: &Path,
    manifest: &evoke_core::manifest::Manifest,
) -> Result<(Exit, Option<Against>), CommandError> {
    let against = evoke_files::release_tags::against_newest_tag(dir, manifest)?;
    let exit = match &against {
        None => Exit::Done,
        Some(Against::Refused { newest, fault }) => {
            let fix = match &fault {
                evoke_core::contract::WasFault::WasReturned { name, .. } => {
                    format!("give the argument another name than `{name}`")
                }
                evoke_core::contract::WasFault::WasDropped { key, name } => format!("put `{name}` back in {key}"),
            };
            return Err(CommandError::usage(format!("refused against {newest}: {fault}")).with_fix(fix));
        }
        Some(against) => {
            ui.out(&render::against_newest(against));
            Exit::Done
        }
    };
    Ok((exit, against))
}

/// A playbook, read and checked against the project it is in: each refusal and warning at its line, then
/// whether it reads, with its steps and the strongest effect among them. Exit 2 when refused, as for a
/// reflex.
fn playbook(context: &Context, dir: &Path) -> CommandResult {
    let ui = &context.ui;
    let file = dir.join(PLAYBOOK_FILE);
    let shown = file.display().to_string();
    let text = evoke_files::bounded::read_to_string(&file, evoke_files::bounded::MAX_OWNED)
        .map_err(|e| CommandError::usage(format!("cannot read {}: {e}", escape_outside(&shown))))?;
    // Reading the project runs nothing, so an untrusted one is read too: it is what the playbook calls.
    let (places, location) = context.locate()?;
    let project = evoke_files::project::load_in(location, &places)?;
    let name = local_name(&project, dir);
    // A call of a name installed but inactive is refused saying so, and why, not as a name unknown.
    let reflexes = project.installed.iter().filter_map(|r| r.status.as_ref().err().map(|i| (&r.name, i)));
    let playbooks = project.playbooks.iter().filter_map(|p| p.status.as_ref().err().map(|i| (&p.name, i)));
    let inactive =
        reflexes.chain(playbooks).filter(|(n, _)| **n != name).map(|(n, i)| (n.clone(), i.why.clone())).collect();
    let mut catalog = project.catalog().with_inactive(inactive);
    // The playbook is checked as it is on disk, never against the copy the project loaded.
    catalog.retain(|r| r.name != name);
    let reading = evoke_core::playbook::check(&shown, &text, &name, &catalog);
    let file = escape_outside(&shown).into_owned();
    for d in &reading.diagnostics {
        ui.err(&render::diagnostic(d, ui.colour()));
    }
    let Some(playbook) = reading.value else {
        let errors = reading.diagnostics.iter().filter(|d| d.is_error()).count();
        ui.err(&render::manifest_refused(&file, errors));
        return Ok(Exit::Usage);
    };
    let effect = evoke_core::playbook::strongest_effect(&playbook, &catalog);
    ui.out(&render::playbook_reads(&file, &name, &playbook, effect));
    Ok(Exit::Done)
}

/// The playbook's local name: the one `evoke.toml` lists for this directory, else the directory's name.
fn local_name(project: &evoke_files::project::Project, dir: &Path) -> String {
    let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let here = canonical(dir);
    let listed = project.file.playbooks.iter().find(|(_, source)| match source {
        ReflexSource::Path(path) => canonical(&project.location.root.join(path)) == here,
        ReflexSource::Remote { .. } => false,
    });
    match listed {
        Some((name, _)) => name.clone(),
        None => here.file_name().and_then(|n| n.to_str()).unwrap_or("playbook").to_string(),
    }
}
