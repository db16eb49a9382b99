//! `evoke check [PATH]`: read a reflex directory, print its refusals and lint findings; in a git working
//! copy, the contract diff against the newest version tag and the next version. At a directory holding
//! no `reflex.toml` inside a working copy, every reflex under it, and the repository's next version.

use crate::exit::Exit;
use crate::{load, render};
use evoke_core::lint::lint;
use std::path::Path;

pub fn run(path: Option<&Path>) -> Exit {
    let dir = path.unwrap_or(Path::new("."));
    if !dir.join("reflex.toml").exists()
        && let Some(dirs) = evoke_files::release_tags::reflex_dirs(dir).filter(|d| !d.is_empty())
    {
        return whole_repository(&dirs);
    }
    one(dir).0
}

/// One tag covers the whole repository: each reflex, then the highest level among them.
fn whole_repository(dirs: &[std::path::PathBuf]) -> Exit {
    let mut exit = Exit::Done;
    let mut results = Vec::new();
    for dir in dirs {
        let (e, against) = one(dir);
        if e != Exit::Done && exit == Exit::Done {
            exit = e;
        }
        results.extend(against);
    }
    if exit == Exit::Done && results.len() == dirs.len() {
        match evoke_files::release_tags::repository_next(&results) {
            Some((newest, _, Some(next))) => render::out(&format!(
                "the repository, {} reflex{}: next version {next} (since {})\n",
                dirs.len(),
                if dirs.len() == 1 { "" } else { "es" },
                render::shown(&newest.to_string())
            )),
            Some((newest, _, None)) => {
                render::out(&format!("the repository: no change since {}\n", render::shown(&newest.to_string())))
            }
            None => {}
        }
    }
    exit
}

fn one(dir: &Path) -> (Exit, Option<evoke_files::release_tags::Against>) {
    let (file, reading) = match load::reflex(dir) {
        // A path is outside text: shown escaped wherever it is printed.
        Ok((file, reading)) => (render::shown(&file).into_owned(), reading),
        Err(message) => {
            render::err(&format!(
                "error: {}\n  = fix: run `evoke check` in a reflex directory, or name one: `evoke check reflexes/lights`\n",
                render::shown(&message)
            ));
            return (Exit::Usage, None);
        }
    };
    for d in &reading.diagnostics {
        render::err(&render::diagnostic(d));
    }
    let Some(manifest) = reading.value else {
        let errors = reading.diagnostics.iter().filter(|d| d.is_error()).count();
        render::err(&format!("{file}: refused ({errors} error{})\n", if errors == 1 { "" } else { "s" }));
        return (Exit::Usage, None);
    };
    let findings = lint(&manifest);
    for f in &findings {
        render::err(&render::lint_finding(&file, f));
    }
    render::out(&format!(
        "{file}: reads · {} · {} argument{} · {} lint finding{}\n",
        manifest.effect,
        manifest.args.len(),
        if manifest.args.len() == 1 { "" } else { "s" },
        findings.len(),
        if findings.len() == 1 { "" } else { "s" },
    ));
    versions(dir, &manifest)
}

/// In a git working copy: the contract diff against the newest version tag and the next version.
fn versions(
    dir: &Path,
    manifest: &evoke_core::manifest::Manifest,
) -> (Exit, Option<evoke_files::release_tags::Against>) {
    use evoke_files::release_tags::{Against, against_newest_tag};
    let against = match against_newest_tag(dir, manifest) {
        Ok(against) => against,
        Err(e) => {
            render::err(&format!("error: {}\n", render::shown(&e.to_string())));
            return (Exit::Failed, None);
        }
    };
    // Tags and keys come from the repository: shown escaped.
    let exit = match &against {
        None => Exit::Done,
        Some(Against::FirstRelease { suggested }) => {
            render::out(&format!("no version tag yet: the first release is {suggested}\n"));
            Exit::Done
        }
        Some(Against::NewSince { newest, next }) => {
            render::out(&format!("new since {}: minor · next version {next}\n", render::shown(&newest.to_string())));
            Exit::Done
        }
        Some(Against::Diff { newest, diff, next }) => {
            match next {
                Some(next) => render::out(&format!(
                    "since {}: {} · next version {next}\n",
                    render::shown(&newest.to_string()),
                    diff.next
                )),
                None => {
                    render::out(&format!("since {}: no change · no new version\n", render::shown(&newest.to_string())))
                }
            }
            let width = diff.changes.iter().map(|c| c.change.len()).max().unwrap_or(0);
            for c in &diff.changes {
                render::out(&format!("  {:<5}  {:<width$}  {}\n", c.level.as_str(), c.change, render::shown(&c.key)));
            }
            Exit::Done
        }
        Some(Against::Refused { newest, fault }) => {
            let fix = match &fault {
                evoke_core::contract::WasFault::WasReturned { name, .. } => {
                    format!("give the argument another name than `{name}`")
                }
                evoke_core::contract::WasFault::WasDropped { key, name } => format!("put `{name}` back in {key}"),
            };
            render::err(&format!(
                "error: refused against {}: {}\n  = fix: {}\n",
                render::shown(&newest.to_string()),
                render::shown(&fault.to_string()),
                render::shown(&fix)
            ));
            Exit::Usage
        }
    };
    (exit, against)
}
