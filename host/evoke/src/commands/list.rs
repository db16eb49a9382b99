//! `evoke list`: every installed reflex with its summary, effect, source and whether it is active, and
//! when it is not, why and the command or edit that fixes it; then every playbook, marked as one with its
//! count of steps, under the strongest effect among them.

use crate::commands::trust::shown_path;
use crate::context::Context;
use crate::error::{CommandResult, TRUST_FIX};
use crate::exit::Exit;
use crate::render;
use evoke_core::project::ReflexSource;
use evoke_files::project::load_in;
use evoke_files::trust;

pub fn run(context: &Context) -> CommandResult {
    let ui = &context.ui;
    let (places, location) = context.locate()?;
    // An untrusted project is still listed: what it would install is what a person reads before trusting it.
    if let Err(u) = trust::check(&places, &location) {
        ui.err(&render::nothing_decides_yet(&u.message(), TRUST_FIX));
    }
    let project = load_in(location.clone(), &places)?;
    if project.installed.is_empty() && project.playbooks.is_empty() {
        let where_ = if location.home { "your home project".to_string() } else { shown_path(&location.root) };
        ui.out(&render::nothing_installed(&where_));
        return Ok(Exit::Done);
    }
    let source_of = |source: &ReflexSource, locked: Option<&evoke_files::lock::Locked>| match source {
        ReflexSource::Path(path) => path.clone(),
        ReflexSource::Remote { reference, tag } => match locked {
            Some(l) if l.tag != *tag => format!("{reference}@{} (asked {tag})", l.tag),
            _ => format!("{reference}@{tag}"),
        },
    };
    let status = |active: bool| if active { "active" } else { "inactive" }.to_string();
    // Each row: name, effect, source, status, summary; and why it is inactive.
    let mut rows: Vec<([String; 5], Option<&evoke_files::project::Inactive>)> = project
        .installed
        .iter()
        .map(|i| {
            let effect = i
                .manifest
                .as_ref()
                .map(|m| m.effect.as_str().to_string())
                .or_else(|| i.locked.as_ref().map(|l| l.effect.as_str().to_string()))
                .unwrap_or_else(|| "-".into());
            let summary = i.manifest.as_ref().map(|m| m.summary().to_string()).unwrap_or_default();
            let row =
                [i.name.clone(), effect, source_of(&i.source, i.locked.as_ref()), status(i.status.is_ok()), summary];
            (row, i.status.as_ref().err())
        })
        .collect();
    rows.extend(project.playbooks.iter().map(|p| {
        let effect = p
            .effect
            .or_else(|| p.locked.as_ref().map(|l| l.effect))
            .map_or_else(|| "-".to_string(), |e| e.as_str().to_string());
        let summary = match &p.status {
            Ok(playbook) => render::playbook_summary(playbook),
            Err(_) => "playbook".to_string(),
        };
        let row = [p.name.clone(), effect, source_of(&p.source, p.locked.as_ref()), status(p.status.is_ok()), summary];
        (row, p.status.as_ref().err())
    }));
    let widths: Vec<usize> =
        (0..4).map(|c| rows.iter().map(|(r, _)| r[c].chars().count()).max().unwrap_or(0)).collect();
    for (row, inactive) in &rows {
        let line = format!(
            "{:<w0$}  {:<w1$}  {:<w2$}  {:<w3$}  {}",
            row[0],
            row[1],
            row[2],
            row[3],
            row[4],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
            w3 = widths[3]
        );
        ui.out(&render::listed(&line, *inactive));
    }
    Ok(Exit::Done)
}
