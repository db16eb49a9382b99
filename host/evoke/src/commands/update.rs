//! `evoke update [--accept]`: never prompts, never blocks, never rewrites a user's file.
//! It reports what was rewritten and taken, what went stale, what was orphaned, an effect loosened
//! upstream, which the user keeps until `--accept`, and a version that widens its grants, which is not
//! taken until `--accept` (exit 3).

use crate::commands::trust::{locate, require};
use crate::exit::Exit;
use crate::render::{self, shown};
use crate::session::{self, Session};
use evoke_core::contract::{Level, Widened};
use evoke_files::fetch::Fetcher;
use evoke_files::install::{Event, update};
use evoke_files::lock::LockedAdapter;
use evoke_files::places::Places;
use evoke_files::project::Location;

pub fn run(options: &session::Options, accept: bool) -> Exit {
    let (places, location) = match locate(options.project_dir) {
        Ok(found) => found,
        Err(exit) => return exit,
    };
    let mut fetcher = Fetcher::new(&places.cache).with_progress(crate::progress::Fetching::default());
    run_with(options, &places, &location, &mut fetcher, accept)
}

/// The command with its fetcher given, so a test can serve refs from loopback.
pub fn run_with(
    options: &session::Options,
    places: &Places,
    location: &Location,
    fetcher: &mut Fetcher,
    accept: bool,
) -> Exit {
    if let Err(exit) = require(places, location) {
        return exit;
    }
    let session =
        Session::open(&session::Options { recording: options.recording, project_dir: options.project_dir, tag: None });
    let adapter =
        session.as_ref().ok().map(|s| LockedAdapter { name: s.adapter_name.clone(), id: s.adapter.id().to_string() });
    drop(session);
    let report = match update(places, location, fetcher, accept, adapter) {
        Ok(report) => report,
        Err(e) => {
            render::err(&format!("error: {}\n", shown(&e.to_string())));
            return Exit::Failed;
        }
    };
    if report.events.is_empty() {
        render::out("nothing to update: no reflex of this project is fetched\n");
    }
    for event in &report.events {
        render::out(&line(event));
    }
    // A newer version left untaken for its wider grants needs a person's `--accept`.
    if report.failed {
        Exit::Failed
    } else if report.needs_consent {
        Exit::NeedsPerson
    } else {
        Exit::Done
    }
}

fn short(commit: &str) -> &str {
    &commit[..commit.len().min(12)]
}

/// One report line per event, in the words a person reads.
pub fn line(event: &Event) -> String {
    match event {
        // A tag is named by the remote: outside text, shown escaped like every other.
        Event::Taken { name, from: None, to, .. } => format!("taken      {name} {}\n", shown(to)),
        Event::Taken { name, from: Some(from), to, .. } if from == to => {
            format!("restored   {name} {} (its store copy was missing or changed)\n", shown(to))
        }
        Event::Taken { name, from: Some(from), to, level } => {
            let level = level
                .map(|l| format!(" ({})", if l == Level::None { "no contract change".into() } else { l.to_string() }));
            format!("taken      {name} {} → {}{}\n", shown(from), shown(to), level.unwrap_or_default())
        }
        Event::Unchanged { name, tag } => format!("unchanged  {name} {}\n", shown(tag)),
        Event::Rewritten { file, from, to, .. } => {
            let file = shown(file);
            let (from, to) = (shown(from), shown(to));
            format!("rewritten  {file}: `{from}` reads as `{to}` (renamed upstream); the file is left as it is\n")
        }
        Event::Stale { file, line, message, fix, .. } => {
            format!("stale      {}:{line}: {}\n  = fix: {}\n", shown(file), shown(message), shown(fix))
        }
        Event::Orphaned { file, why } => format!("orphaned   {}: {}\n", shown(file), shown(why)),
        Event::Loosened { name, consented, upstream } => {
            format!(
                "loosened   {name}: upstream's effect is {upstream}; you keep {consented} until: evoke update --accept\n"
            )
        }
        Event::Accepted { name, from, to } => format!("accepted   {name}: the effect is {to} now (was {from})\n"),
        Event::Widened { name, tag, kept, grants } => format!(
            "widened    {name}: {} grants itself more than you consented to: {}; the lock keeps {}\n  = fix: read the grants, then: evoke update --accept\n",
            shown(tag),
            grant_list(grants),
            shown(kept)
        ),
        Event::GrantsAccepted { name, tag, grants } => {
            format!("accepted   {name}: {} with its wider grants: {}\n", shown(tag), grant_list(grants))
        }
        Event::Tightened { name, from, to } => format!("tightened  {name}: the effect is {to} now (was {from})\n"),
        Event::Major { name, tag } => {
            let tag = shown(tag);
            format!(
                "major      {name}: {tag} is out; to take it, set its tag to \"{tag}\" in evoke.toml, then: evoke update\n"
            )
        }
        Event::Moved { name, tag, locked, now } => format!(
            "refused    {name}: the tag {} moved (locked {}, now {}); a published tag never changes, so the lock is kept\n",
            shown(tag),
            short(locked),
            short(now)
        ),
        // A fetch's failure may quote what the remote sent, and a path of its tree.
        Event::Failed { name, why } => format!("failed     {name}: {}\n", shown(why)),
        Event::Dropped { name } => {
            format!("dropped    {name}: no longer fetched by evoke.toml; removed from the lock\n")
        }
    }
}

/// Grants as a person reads them, `; `-separated; their paths and hosts came from upstream, so they are
/// escaped.
pub fn grant_list(grants: &[Widened]) -> String {
    grants.iter().map(|g| render::shown(&g.to_string()).into_owned()).collect::<Vec<_>>().join("; ")
}
