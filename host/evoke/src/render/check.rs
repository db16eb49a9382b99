//! `evoke check`'s report: whether a manifest reads, and in a git working copy, how it stands against the
//! newest version tag. Tags, keys and paths come from the repository: each is shown escaped.

use evoke_core::manifest::{Effect, Manifest};
use evoke_core::text::escape_outside;
use evoke_files::release_tags::Against;

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A manifest that reads: its effect, how many arguments, how many lint findings.
pub fn manifest_reads(file: &str, manifest: &Manifest, findings: usize) -> String {
    format!(
        "{file}: reads · {} · {} · {}\n",
        manifest.effect,
        plural(manifest.args.len(), "argument", "arguments"),
        plural(findings, "lint finding", "lint findings")
    )
}

/// A playbook that reads and passes its check: its local name, steps, slots and strongest effect.
pub fn playbook_reads(file: &str, name: &str, playbook: &evoke_core::playbook::Playbook, effect: Effect) -> String {
    format!(
        "{file}: reads · playbook {} · {} · {} · at most {effect}\n",
        escape_outside(name),
        plural(playbook.steps.len(), "step", "steps"),
        plural(playbook.slots.len(), "slot", "slots"),
    )
}

/// A manifest refused, after its diagnostics.
pub fn manifest_refused(file: &str, errors: usize) -> String {
    format!("{file}: refused ({})\n", plural(errors, "error", "errors"))
}

/// How a reflex stands against its newest version tag (a refusal is an error, not said here).
pub fn against_newest(against: &Against) -> String {
    match against {
        Against::FirstRelease { suggested } => format!("no version tag yet: the first release is {suggested}\n"),
        Against::NewSince { newest, next } => {
            format!("new since {}: minor · next version {next}\n", escape_outside(&newest.to_string()))
        }
        Against::Diff { newest, diff, next } => {
            let mut out = match next {
                Some(next) => {
                    format!("since {}: {} · next version {next}\n", escape_outside(&newest.to_string()), diff.next)
                }
                None => format!("since {}: no change · no new version\n", escape_outside(&newest.to_string())),
            };
            let width = diff.changes.iter().map(|c| c.change.len()).max().unwrap_or(0);
            for c in &diff.changes {
                out.push_str(&format!("  {:<5}  {:<width$}  {}\n", c.level.as_str(), c.change, escape_outside(&c.key)));
            }
            out
        }
        Against::Refused { .. } => String::new(),
    }
}

/// The next version of a repository of `reflexes` reflexes, since its newest tag.
pub fn repository_next(reflexes: usize, newest: &str, next: Option<&impl std::fmt::Display>) -> String {
    match next {
        Some(next) => format!(
            "the repository, {reflexes} reflex{}: next version {next} (since {})\n",
            if reflexes == 1 { "" } else { "es" },
            escape_outside(newest)
        ),
        None => format!("the repository: no change since {}\n", escape_outside(newest)),
    }
}
