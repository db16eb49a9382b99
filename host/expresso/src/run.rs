//! `expresso run` and `expresso replay`: the program over the log with J and W; each new world effect
//! printed as one JSON line with its idemKey, a summary on stderr, and for replay the report of provider
//! calls and new effects.

use crate::exit::Exit;
use crate::{RunArgs, load, providers, table};
use expresso_runtime::bounds::{MAX_EVENT_LINE_BYTES, MAX_EVENTS};
use expresso_runtime::{Error, FileStore, MemoryStore, Runtime, Store, read_log};
use std::io::Write;

/// The largest event log read, in bytes: the event bound times a generous line.
const MAX_LOG_BYTES: u64 = 1 << 30;

fn store(path: Option<&std::path::Path>, kind: &str) -> Result<Box<dyn Store>, Exit> {
    match path {
        None => Ok(Box::new(MemoryStore::new())),
        Some(path) => FileStore::open(path, kind).map(|s| Box::new(s) as Box<dyn Store>).map_err(|e| {
            eprintln!("error: cannot open the {kind}: {e}");
            eprintln!("  = fix: name a {kind} file written by expresso, or a new path");
            Exit::Usage
        }),
    }
}

fn snapshot(store: &dyn Store) -> String {
    serde_json::to_string(&store.entries()).unwrap_or_default()
}

pub fn run(args: &RunArgs, replay: bool) -> Exit {
    let (_, compiled) = match load::program(&args.file) {
        Ok(read) => read,
        Err(exit) => return exit,
    };
    let log = match load::text(&args.events, MAX_LOG_BYTES, "event log") {
        Ok(text) => text,
        Err(exit) => return exit,
    };
    // An `expresso export` of serve's log is replayed in the order serve fired it.
    let exported = match expresso_host::export::header(&log) {
        None => None,
        Some(Ok(n)) => Some(n),
        Some(Err(reason)) => {
            eprintln!("error: {reason}");
            eprintln!("  --> {}:1", args.events.display());
            eprintln!("  = fix: write the file again with `expresso export`");
            return Exit::Usage;
        }
    };
    let events = match read_log(&log) {
        Ok(events) if exported.is_some_and(|n| n != events.len()) => {
            eprintln!(
                "error: the export says it holds {} events and holds {}: it is cut off or edited",
                exported.unwrap_or(0),
                events.len()
            );
            eprintln!("  --> {}", args.events.display());
            eprintln!("  = fix: write the file again with `expresso export`");
            return Exit::Usage;
        }
        Ok(events) => events,
        Err(Error::BadLog(lines)) => {
            for (line, reason) in &lines {
                eprintln!("error: not an event: {reason}");
                eprintln!("  --> {}:{line}", args.events.display());
            }
            eprintln!(
                "{}: refused ({} bad line{}); nothing ran",
                args.events.display(),
                lines.len(),
                if lines.len() == 1 { "" } else { "s" }
            );
            eprintln!(
                "  = fix: each line is one event {{id, partition, type, payload, t_event, rev}} (lines up to {MAX_EVENT_LINE_BYTES} bytes, {MAX_EVENTS} events)"
            );
            return Exit::Usage;
        }
        Err(e) => {
            eprintln!("error: {e}");
            return Exit::Usage;
        }
    };
    if args.journal.is_some() && args.journal == args.world {
        eprintln!("error: --journal and --world name one file");
        eprintln!("  = fix: give the journal and the world table a file each");
        return Exit::Usage;
    }
    let provider = match providers::open(args.provider.as_deref()) {
        Ok(p) => p,
        Err(exit) => return exit,
    };
    let mut journal = match store(args.journal.as_deref(), "journal") {
        Ok(s) => s,
        Err(exit) => return exit,
    };
    let mut world = match store(args.world.as_deref(), "world") {
        Ok(s) => s,
        Err(exit) => return exit,
    };
    let (journal_before, world_before) = (snapshot(journal.as_ref()), snapshot(world.as_ref()));
    // Each effect is printed (dispatched) as it is applied, before the world table is flushed.
    let mut print = |receipt: &serde_json::Value| {
        let mut out = std::io::stdout().lock();
        writeln!(out, "{receipt}").and_then(|_| out.flush()).map_err(|e| format!("stdout: {e}"))
    };
    let mut runtime = Runtime::new(&compiled, journal.as_mut(), world.as_mut(), provider.as_ref());
    runtime.record_steps(args.table);
    if !args.table {
        runtime.dispatch_to(&mut print);
    }
    let result = if exported.is_some() { runtime.run_as_fired(events) } else { runtime.run(events) };
    let outcome = runtime.into_outcome();
    if args.table {
        print!("{}", table::render(&outcome));
    }
    eprintln!(
        "{} events · {} firings · {} provider calls · {} journal hits · {} new effects · {} deduped",
        outcome.events,
        outcome.firings,
        outcome.provider_calls,
        outcome.journal_hits,
        outcome.new_effects,
        outcome.deduped_effects
    );
    if replay {
        let same = |before: &str, store: &dyn Store| if before == snapshot(store) { "unchanged" } else { "changed" };
        println!(
            "replay: {} provider calls · {} new effects · journal {} · world {}",
            outcome.provider_calls,
            outcome.new_effects,
            same(&journal_before, journal.as_ref()),
            same(&world_before, world.as_ref())
        );
    }
    match result {
        Ok(()) => Exit::Done,
        Err(e) => {
            eprintln!("error: {e}");
            let fix = match &e {
                Error::Provider { .. } => {
                    "give the provider the answer (a recording's key), or run with another --provider"
                }
                Error::Misfit { .. } => "nothing ran on the answer; fix the provider or the leaf's schema",
                Error::StaleJournal { .. } => "the program's schema changed under its journal: start a new journal",
                Error::ForBound { .. } | Error::StepBound { .. } => {
                    "split the work: the bounds are in docs/expresso.md"
                }
                _ => "see docs/expresso.md",
            };
            eprintln!("  = fix: {fix}");
            Exit::Failed
        }
    }
}
