//! `evoke list`: every installed reflex with its summary, effect, source and whether it is active, and
//! when it is not, why and the command or edit that fixes it.

use crate::commands::trust::shown_path;
use crate::context::Context;
use crate::error::{CommandResult, TRUST_FIX};
use crate::exit::Exit;
use crate::render;
use evoke_core::project::ReflexSource;
use evoke_files::project::load_in;
use evoke_files::trust;

pub fn run(context: &Context) -> CommandResult {
    let (places, location) = context.locate()?;
    // An untrusted project is still listed: what it would install is what a person reads before trusting it.
    if let Err(u) = trust::check(&places, &location) {
        render::err(&render::warning(&format!("nothing decides here yet: {}", u.message()), Some(TRUST_FIX)));
    }
    let project = load_in(location.clone(), &places)?;
    if project.installed.is_empty() {
        let where_ = if location.home { "your home project".to_string() } else { shown_path(&location.root) };
        render::out(&render::nothing_installed(&where_));
        return Ok(Exit::Done);
    }
    let rows: Vec<[String; 4]> = project
        .installed
        .iter()
        .map(|i| {
            let source = match &i.source {
                ReflexSource::Path(path) => path.clone(),
                ReflexSource::Remote { reference, tag } => match &i.locked {
                    Some(l) if l.tag != *tag => format!("{reference}@{} (asked {tag})", l.tag),
                    _ => format!("{reference}@{tag}"),
                },
            };
            let effect = i
                .manifest
                .as_ref()
                .map(|m| m.effect.as_str().to_string())
                .or_else(|| i.locked.as_ref().map(|l| l.effect.as_str().to_string()))
                .unwrap_or_else(|| "-".into());
            let status = if i.status.is_ok() { "active" } else { "inactive" };
            [i.name.clone(), effect, source, status.to_string()]
        })
        .collect();
    let widths: Vec<usize> = (0..4).map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0)).collect();
    for (row, installed) in rows.iter().zip(&project.installed) {
        let summary = installed.manifest.as_ref().map(|m| m.summary().to_string()).unwrap_or_default();
        let line = format!(
            "{:<w0$}  {:<w1$}  {:<w2$}  {:<w3$}  {summary}",
            row[0],
            row[1],
            row[2],
            row[3],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
            w3 = widths[3]
        );
        render::out(&render::listed(&line, installed.status.as_ref().err()));
    }
    Ok(Exit::Done)
}
