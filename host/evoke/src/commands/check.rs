//! `evoke check [PATH]`: read a reflex directory, print its refusals and lint findings.

use crate::exit::Exit;
use crate::{load, render};
use evoke_core::lint::lint;
use std::path::Path;

pub fn run(path: Option<&Path>) -> Exit {
    let dir = path.unwrap_or(Path::new("."));
    let (file, reading) = match load::reflex(dir) {
        Ok(read) => read,
        Err(message) => {
            render::err(&format!("error: {message}\n  = fix: run `evoke check` in a reflex directory, or name one: `evoke check reflexes/lights`\n"));
            return Exit::Usage;
        }
    };
    for d in &reading.diagnostics {
        render::err(&render::diagnostic(d));
    }
    let Some(manifest) = reading.value else {
        let errors = reading.diagnostics.iter().filter(|d| d.is_error()).count();
        render::err(&format!("{file}: refused ({errors} error{})\n", if errors == 1 { "" } else { "s" }));
        return Exit::Usage;
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
    Exit::Done
}
