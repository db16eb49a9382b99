//! `evoke trust`: show the files a project's trust binds to, each with its hash, then record
//! them. The home project is always trusted.

use crate::exit::Exit;
use crate::render;
use evoke_files::places::Places;
use evoke_files::project::{self, Location};
use evoke_files::trust;
use std::path::{Path, PathBuf};

pub fn run(project_dir: Option<&Path>) -> Exit {
    let (places, location) = match locate(project_dir) {
        Ok(found) => found,
        Err(exit) => return exit,
    };
    let shown = render::shown(&shown_path(&location.root)).into_owned();
    if location.home {
        render::out(&format!("{shown} is your home project, which is always trusted\n"));
        return Exit::Done;
    }
    // A project bringing settings only the home file may hold is refused on every use; trusting it would
    // only put the refusal off, so it is refused here, line by line.
    let file = location.root.join(project::PROJECT_FILE);
    if let Ok(text) = std::fs::read_to_string(&file) {
        let home = places.config.join(project::PROJECT_FILE);
        let refused = evoke_files::home_only::refuse(&file.display().to_string(), &text, &home);
        if !refused.is_empty() {
            for d in &refused {
                render::err(&render::diagnostic(d));
            }
            render::err(&format!(
                "error: {shown} is not trusted: its evoke.toml holds settings only your home evoke.toml may hold\n"
            ));
            return Exit::Usage;
        }
    }
    let snapshot = match trust::snapshot(&location.root) {
        Ok(snapshot) => snapshot,
        Err(e) => {
            render::err(&format!("error: {}\n", render::shown(&e.to_string())));
            return Exit::Failed;
        }
    };
    let before = trust::check(&places, &location);
    match &before {
        Ok(()) => render::out(&format!("{shown} is trusted as it is; recording it again, bound to:\n")),
        Err(u) if !u.never => render::out(&format!(
            "{shown} changed since you trusted it ({}); trusting it now, bound to:\n",
            render::shown(&u.changed.join(", "))
        )),
        Err(_) => render::out(&format!("trusting {shown}, bound to the content of:\n")),
    }
    let width = snapshot.files.keys().map(|k| k.chars().count()).max().unwrap_or(0);
    for (path, hash) in &snapshot.files {
        render::out(&format!("  {:<width$}  sha256:{hash}\n", render::shown(path)));
    }
    match trust::record(&places, &location) {
        Ok(recorded) => {
            render::out(&format!("trusted: {}\n", recorded.digest));
            if let Ok(project) = project::load(location.clone()) {
                crate::body::precompile(&project.installed, &places.cache);
            }
            Exit::Done
        }
        Err(e) => {
            render::err(&format!("error: {}\n", render::shown(&e.to_string())));
            Exit::Failed
        }
    }
}

/// The places and the project, as every command of this family finds them.
pub fn locate(project_dir: Option<&Path>) -> Result<(Places, Location), Exit> {
    let places = Places::from_env().map_err(|e| {
        render::err(&format!("error: {}\n", render::shown(&e.to_string())));
        Exit::Failed
    })?;
    places.private_cache().map_err(|e| {
        let message = format!("the cache place {} cannot be made private: {e}", places.cache.display());
        render::err(&format!("error: {}\n", render::shown(&message)));
        Exit::Failed
    })?;
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let location = project::locate(&cwd, project_dir, &places).map_err(|e| {
        render::err(&format!(
            "error: {}\n  = fix: name a directory holding evoke.toml: evoke -C DIR …\n",
            render::shown(&e.to_string())
        ));
        Exit::Usage
    })?;
    Ok((places, location))
}

/// A project's directory as a person reads it: relative to the working directory when inside it.
pub fn shown_path(root: &Path) -> String {
    trust::shown(root)
}

/// Refuses an untrusted project with the line that ends in the command that fixes it (exit 3).
pub fn require(places: &Places, location: &Location) -> Result<(), Exit> {
    trust::check(places, location).map_err(|u| {
        render::err(&format!("error: {}\n  = fix: evoke trust\n", render::shown(&u.message())));
        Exit::NeedsPerson
    })
}
