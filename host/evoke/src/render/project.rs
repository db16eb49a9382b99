//! A project as `evoke trust` and `evoke list` show it: the files trust binds to, and the reflexes
//! installed. Paths, names and summaries came from the project's files: each is shown escaped.

use super::fix_line;
use evoke_core::text::escape_outside;
use evoke_files::trust::{Snapshot, Untrusted};

/// The home project, which needs no trust.
pub fn home_trusted(project: &str) -> String {
    format!("{project} is your home project, which is always trusted\n")
}

/// What trusting a project binds to: how it stood (`untrusted` when it was not trusted as it is), then
/// each owned file with its hash.
pub fn trusting(project: &str, untrusted: Option<&Untrusted>, snapshot: &Snapshot) -> String {
    let mut out = match untrusted {
        None => format!("{project} is trusted as it is; recording it again, bound to:\n"),
        Some(u) if !u.never => format!(
            "{project} changed since you trusted it ({}); trusting it now, bound to:\n",
            escape_outside(&u.changed.join(", "))
        ),
        Some(_) => format!("trusting {project}, bound to the content of:\n"),
    };
    let width = snapshot.files.keys().map(|k| k.chars().count()).max().unwrap_or(0);
    for (path, hash) in &snapshot.files {
        out.push_str(&format!("  {:<width$}  sha256:{hash}\n", escape_outside(path)));
    }
    out
}

/// The digest the project's trust is recorded under.
pub fn trusted(digest: &str) -> String {
    format!("trusted: {digest}\n")
}

/// A project with no reflex installed, and how to install one.
pub fn nothing_installed(project: &str) -> String {
    format!("nothing is installed in {project}; install a reflex with: evoke add NAME REF\n")
}

/// A playbook's summary in `evoke list`: marked as a playbook, with its count of steps.
pub fn playbook_summary(playbook: &evoke_core::playbook::Playbook) -> String {
    let steps = playbook.steps.len();
    let first = playbook.description.lines().next().unwrap_or("").trim();
    format!("playbook, {steps} step{}: {first}", if steps == 1 { "" } else { "s" })
}

/// One reflex of `evoke list`: its row, then why it is inactive and the fix when it is.
pub fn listed(row: &str, inactive: Option<&evoke_files::project::Inactive>) -> String {
    let mut out = format!("{}\n", escape_outside(row.trim_end()));
    if let Some(inactive) = inactive {
        out.push_str(&format!("  = why: {}\n{}", escape_outside(&inactive.why), fix_line(&inactive.fix)));
    }
    out
}
