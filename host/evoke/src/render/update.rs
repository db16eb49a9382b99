//! `evoke update`'s report as a person reads it: one line per event, and the grants a reflex widens.

use super::fix_line;
use evoke_core::contract::{Level, Widened};
use evoke_core::text::escape_outside;
use evoke_files::install::Event;

fn short(commit: &str) -> &str {
    &commit[..commit.len().min(12)]
}

/// One line of `evoke update`'s report per event, in the words a person reads.
pub fn update_event(event: &Event) -> String {
    match event {
        // A tag is named by the remote: outside text, shown escaped like every other.
        Event::Taken { name, from: None, to, .. } => format!("taken      {name} {}\n", escape_outside(to)),
        Event::Taken { name, from: Some(from), to, .. } if from == to => {
            format!("restored   {name} {} (its store copy was missing or changed)\n", escape_outside(to))
        }
        Event::Taken { name, from: Some(from), to, level } => {
            let level = level
                .map(|l| format!(" ({})", if l == Level::None { "no contract change".into() } else { l.to_string() }));
            format!(
                "taken      {name} {} → {}{}\n",
                escape_outside(from),
                escape_outside(to),
                level.unwrap_or_default()
            )
        }
        Event::Unchanged { name, tag } => format!("unchanged  {name} {}\n", escape_outside(tag)),
        Event::Rewritten { file, from, to, .. } => {
            let file = escape_outside(file);
            let (from, to) = (escape_outside(from), escape_outside(to));
            format!("rewritten  {file}: `{from}` reads as `{to}` (renamed upstream); the file is left as it is\n")
        }
        Event::Stale { file, line, message, fix, .. } => {
            format!("stale      {}:{line}: {}\n{}", escape_outside(file), escape_outside(message), fix_line(fix))
        }
        Event::Orphaned { file, why } => format!("orphaned   {}: {}\n", escape_outside(file), escape_outside(why)),
        Event::Loosened { name, consented, upstream } => {
            format!(
                "loosened   {name}: upstream's effect is {upstream}; you keep {consented} until: evoke update --accept\n"
            )
        }
        Event::Accepted { name, from, to } => format!("accepted   {name}: the effect is {to} now (was {from})\n"),
        Event::Widened { name, tag, kept, grants } => format!(
            "widened    {name}: {} grants itself more than you consented to: {}; the lock keeps {}\n{}",
            escape_outside(tag),
            grant_list(grants),
            escape_outside(kept),
            fix_line("read the grants, then: evoke update --accept")
        ),
        Event::GrantsAccepted { name, tag, grants } => {
            format!("accepted   {name}: {} with its wider grants: {}\n", escape_outside(tag), grant_list(grants))
        }
        Event::Tightened { name, from, to } => format!("tightened  {name}: the effect is {to} now (was {from})\n"),
        Event::Major { name, tag } => {
            let tag = escape_outside(tag);
            format!(
                "major      {name}: {tag} is out; to take it, set its tag to \"{tag}\" in evoke.toml, then: evoke update\n"
            )
        }
        Event::Moved { name, tag, locked, now } => format!(
            "refused    {name}: the tag {} moved (locked {}, now {}); a published tag never changes, so the lock is kept\n",
            escape_outside(tag),
            short(locked),
            short(now)
        ),
        // A fetch's failure may quote what the remote sent, and a path of its tree.
        Event::Failed { name, why } => format!("failed     {name}: {}\n", escape_outside(why)),
        Event::Dropped { name } => {
            format!("dropped    {name}: no longer fetched by evoke.toml; removed from the lock\n")
        }
    }
}

/// Grants as a person reads them, `; `-separated; their paths and hosts came from upstream, so they are
/// escaped.
pub fn grant_list(grants: &[Widened]) -> String {
    grants.iter().map(|g| escape_outside(&g.to_string()).into_owned()).collect::<Vec<_>>().join("; ")
}
