//! `evoke add`'s report: the reflex added with what it is granted, whether it is active, and the theft
//! test. A name, a source, an example and a fix all came from outside: each is shown escaped.

use super::{fix_line, grant_list};
use evoke_core::contract::Widened;
use evoke_core::text::escape_outside;
use evoke_files::install::Added;
use evoke_files::project::Inactive;
use evoke_files::theft::Theft;

/// The reflex added: its name, source and effect, the commit and tree hash it is locked to, and the
/// grants the user consents to by adding it. A playbook is said to be one, with its count of steps and
/// the strongest effect among them.
pub fn added(added: &Added, grants: &[Widened]) -> String {
    let mut out = match &added.playbook {
        Some(playbook) => format!(
            "added playbook {}: {} · {} step{} · at most {}",
            escape_outside(&added.name),
            escape_outside(&added.source),
            playbook.steps.len(),
            if playbook.steps.len() == 1 { "" } else { "s" },
            added.manifest.effect
        ),
        None => format!(
            "added {}: {} · {}",
            escape_outside(&added.name),
            escape_outside(&added.source),
            added.manifest.effect
        ),
    };
    if let Some(locked) = &added.locked {
        out.push_str(&format!(" · commit {} · {}", &locked.commit[..locked.commit.len().min(12)], locked.h1));
    }
    out.push('\n');
    if !grants.is_empty() {
        out.push_str(&format!("  grants: {}\n", grant_list(grants)));
    }
    out
}

/// A reflex installed but inactive: why, and the fix.
pub fn inactive(name: &str, inactive: &Inactive) -> String {
    format!("{} is inactive: {}\n{}", escape_outside(name), escape_outside(&inactive.why), fix_line(&inactive.fix))
}

/// The theft test's findings: each example of another reflex the newcomer would take, with its fix.
pub fn thefts(newcomer: &str, thefts: &[Theft]) -> String {
    if thefts.is_empty() {
        return format!("theft test: no example of the installed reflexes goes to {}\n", escape_outside(newcomer));
    }
    let mut out = String::new();
    for Theft { phrase, owner, newcomer_p, owner_p, fix } in thefts {
        let (phrase, owner) = (escape_outside(phrase), escape_outside(owner));
        out.push_str(&format!(
            "theft: \"{phrase}\" (an example of {owner}) would go to {} ({newcomer_p:.2}; {owner} {owner_p:.2})\n{}",
            escape_outside(newcomer),
            fix_line(fix)
        ));
    }
    out
}
