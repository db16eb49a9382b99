//! `expresso check FILE [--against STORE]…`: each agent's inferred effect against its ceiling, whether it
//! is certified replayable (T1), the minimal grant set, the over-grants, and which leaves need a generative
//! provider. With `--against`, the program is also held to a store of what an earlier version did: every
//! effect applied (and every answer journaled) there must still be keyed by a site of the program, so an
//! edit cannot re-key an effect and apply it again.

use crate::exit::Exit;
use crate::load;
use expresso_lang::ast::{Match, Program};
use expresso_lang::bounds::MAX_ERRORS;
use expresso_lang::sites::{KeySite, key_sites};
use expresso_lang::{Code, Diagnostic, Effect, Span};
use expresso_runtime::bounds::MAX_STORE_BYTES;
use expresso_runtime::keys::{escape, read_idem_key, read_journal_key, unescape};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// The most distinct sites (agent, behavior, part, loops, name, class) one store's keys are read into.
/// A program has far fewer; a store with more is not one this program's versions wrote.
pub const MAX_STORE_SITES: usize = 100_000;
/// How many events of a SQLite store are read at a time.
const PAGE_EVENTS: usize = 1_000;

pub fn check(path: &Path, against: &[PathBuf], allow_removed: bool) -> Exit {
    let (source, compiled) = match load::program(path) {
        Ok(read) => read,
        Err(exit) => return exit,
    };
    let file = path.display().to_string();
    let mut held = Vec::new();
    let mut refused = 0;
    for store in against {
        let sites = match read_store(store) {
            Ok(sites) => sites,
            Err(exit) => return exit,
        };
        let found = judge(&compiled.program, &sites, &store.display().to_string(), allow_removed);
        let errors = found.iter().filter(|d| d.is_error()).count();
        for d in found.iter().take(MAX_ERRORS) {
            eprint!("{}", d.render(&file, &source));
        }
        if found.len() > MAX_ERRORS {
            eprintln!("… and {} more", found.len() - MAX_ERRORS);
        }
        refused += errors;
        let removed = found.iter().filter(|d| d.code == Code::Removed).count();
        held.push((store, sites, removed));
    }
    if refused > 0 {
        eprintln!(
            "{file}: refused against {} ({refused} site{} re-keyed or gone)",
            against.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "),
            if refused == 1 { "" } else { "s" }
        );
        return Exit::Usage;
    }
    for agent in &compiled.report.agents {
        println!(
            "agent \"{}\": effect {} (at most {}) · needs {{{}}}",
            agent.name,
            agent.effect.as_str(),
            agent.ceiling.as_str(),
            agent.needs.join(", ")
        );
        match agent.effect {
            Effect::Pure => println!("  certified replayable (T1): pure, a function of the log alone"),
            Effect::Model => println!(
                "  not certified replayable: effect model; a replay decides the same only from its journal (T2)"
            ),
            Effect::World => println!(
                "  not certified replayable: effect world; a replay acts the same only with its journal and world table (T2, T3)"
            ),
        }
        if !agent.over_granted.is_empty() {
            println!("  over-granted: {{{}}}", agent.over_granted.join(", "));
        }
        for leaf in &agent.leaves {
            if leaf.closed {
                println!("  leaf {}: closed, evoke's engines answer it without minting a value", leaf.name);
            } else {
                println!("  leaf {}: open, needs a generative provider (openai)", leaf.name);
            }
        }
    }
    for (store, sites, removed) in &held {
        let what = match sites.kind {
            Kind::World => "applied effects",
            Kind::Journal => "journaled answers",
            Kind::Both => "applied effects and journaled answers",
        };
        let total: usize = sites.sites.values().map(|s| s.count).sum();
        let each = match *removed {
            0 => "each still made by the program".to_string(),
            n => format!(
                "each still made by the program but at the {n} site{} --allow-removed accepts as removed",
                if n == 1 { "" } else { "s" }
            ),
        };
        println!(
            "against {}: {total} key{} of {what} at {} site{}, {each}",
            store.display(),
            if total == 1 { "" } else { "s" },
            sites.sites.len(),
            if sites.sites.len() == 1 { "" } else { "s" }
        );
    }
    let warnings = compiled.report.diagnostics.len() + held.iter().map(|(_, _, removed)| removed).sum::<usize>();
    println!(
        "{file}: checks · {} agent{} · {warnings} warning{}",
        compiled.report.agents.len(),
        if compiled.report.agents.len() == 1 { "" } else { "s" },
        if warnings == 1 { "" } else { "s" }
    );
    Exit::Done
}

/// Where a store's keys were made: the parts of a key that a program's structure decides.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Site {
    /// The agent's name as keys write it (escaped).
    agent: String,
    behavior: usize,
    part: String,
    loops: usize,
    /// `None` for a fuzzy trigger's journal key.
    name: Option<String>,
    /// An effect's capability; `None` for a journal key.
    class: Option<String>,
}

#[derive(Debug)]
struct Seen {
    count: usize,
    /// One key made there, to show.
    example: String,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    World,
    Journal,
    Both,
}

struct StoreSites {
    kind: Kind,
    sites: BTreeMap<Site, Seen>,
}

impl StoreSites {
    fn add(&mut self, store: &Path, key: &str, world: bool) -> Result<(), Exit> {
        let read = if world { read_idem_key(key) } else { read_journal_key(key) };
        let Some(read) = read else {
            eprintln!(
                "error: {} holds the key {key:?}, which is not {} Expresso writes",
                store.display(),
                if world { "an idemKey" } else { "a journal key" }
            );
            eprintln!(
                "  = fix: name the journal or world file `expresso run` wrote, or the state directory of `serve`"
            );
            return Err(Exit::Usage);
        };
        let site = Site {
            agent: read.agent.to_string(),
            behavior: read.behavior,
            part: read.part.to_string(),
            loops: read.loops,
            name: read.name.map(str::to_string),
            class: read.class.map(str::to_string),
        };
        if let Some(seen) = self.sites.get_mut(&site) {
            seen.count += 1;
            return Ok(());
        }
        if self.sites.len() >= MAX_STORE_SITES {
            eprintln!("error: {} holds keys of more than {MAX_STORE_SITES} sites", store.display());
            eprintln!("  = fix: name a store this program's versions wrote");
            return Err(Exit::Usage);
        }
        self.sites.insert(site, Seen { count: 1, example: key.to_string() });
        Ok(())
    }
}

/// Reads a store's keys: a journal or world file of `expresso run`, or `serve`'s SQLite store (its state
/// directory, or the `expresso.db` in it), whose world table and journal are both read.
fn read_store(path: &Path) -> Result<StoreSites, Exit> {
    let db = if path.is_dir() {
        Some(path.to_path_buf())
    } else if path.file_name().is_some_and(|n| n == expresso_host::store::FILE_NAME) {
        Some(path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf())
    } else {
        None
    };
    if let Some(state) = db {
        return read_db(path, &state);
    }
    let text = load::text(path, MAX_STORE_BYTES, "store")?;
    let refuse = |why: &str| {
        eprintln!("error: {} is not a journal or world file: {why}", path.display());
        eprintln!("  = fix: name the journal or world file `expresso run` wrote, or the state directory of `serve`");
        Exit::Usage
    };
    let value: Value = serde_json::from_str(&text).map_err(|e| refuse(&e.to_string()))?;
    let world = match value.get("expresso").and_then(Value::as_str) {
        Some("world") => true,
        Some("journal") => false,
        _ => return Err(refuse("its `expresso` is neither \"journal\" nor \"world\"")),
    };
    if value.get("version") != Some(&Value::from(1)) {
        return Err(refuse("not version 1"));
    }
    let Some(Value::Object(entries)) = value.get("entries") else { return Err(refuse("no `entries` object")) };
    let mut sites = StoreSites { kind: if world { Kind::World } else { Kind::Journal }, sites: BTreeMap::new() };
    for key in entries.keys() {
        sites.add(path, key, world)?;
    }
    Ok(sites)
}

fn read_db(path: &Path, state: &Path) -> Result<StoreSites, Exit> {
    let refuse = |why: String| {
        eprintln!("error: cannot read the store {}: {why}", path.display());
        eprintln!("  = fix: name the state directory of `serve` (or its expresso.db)");
        Exit::Usage
    };
    // Opening creates a store where there is none: here a missing one is a mistake, not a start.
    if !state.join(expresso_host::store::FILE_NAME).is_file() {
        return Err(refuse(format!("no {} in {}", expresso_host::store::FILE_NAME, state.display())));
    }
    let db = expresso_host::Db::open(state).map_err(|e| refuse(e.to_string()))?;
    let mut sites = StoreSites { kind: Kind::Both, sites: BTreeMap::new() };
    let mut after = 0;
    // An event's revisions may lie pages apart (a correction sent long after): its keys are read once.
    let mut read: std::collections::HashSet<String> = std::collections::HashSet::new();
    loop {
        let page = db.events_after(after, PAGE_EVENTS).map_err(|e| refuse(e.to_string()))?;
        let Some((last, _)) = page.last() else { break };
        after = *last;
        let ids: Vec<&str> = page.iter().map(|(_, e)| e.id.as_str()).filter(|id| read.insert(id.to_string())).collect();
        let world = db.world_of(&ids).map_err(|e| refuse(e.to_string()))?;
        for (key, _) in expresso_runtime::Store::entries(&world) {
            sites.add(path, key, true)?;
        }
        let journal = db.journal_of(&ids).map_err(|e| refuse(e.to_string()))?;
        for (key, _) in expresso_runtime::Store::entries(&journal) {
            sites.add(path, key, false)?;
        }
    }
    Ok(sites)
}

/// Each site of the store the program no longer keys: `E_REKEY` where a site of the same name (and
/// capability, and loop depth) in the same behavior now makes keys the store does not hold, since it
/// would do again what was done; where nothing of the kind is left, `E_REKEY` too (the action was removed
/// or renamed), or `W_REMOVED` under `--allow-removed`.
fn judge(program: &Program, store: &StoreSites, file: &str, allow_removed: bool) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let mut walked: HashMap<(usize, usize), Vec<KeySite>> = HashMap::new();
    for (site, seen) in &store.sites {
        let count = seen.count;
        let noun = match (&site.class, count) {
            (Some(_), 1) => "1 effect applied".to_string(),
            (Some(_), n) => format!("{n} effects applied"),
            (None, 1) => "1 answer journaled".to_string(),
            (None, n) => format!("{n} answers journaled"),
        };
        let is = if count == 1 { "is" } else { "are" };
        let path = match &site.name {
            Some(name) => format!("{}#{}/{}/{name}", site.agent, site.behavior, site.part),
            None => format!("{}#{}/trigger", site.agent, site.behavior),
        };
        let mut gone = |span: Span, why: String| {
            let code = if allow_removed { Code::Removed } else { Code::Rekey };
            found.push(
                Diagnostic::new(code, span, format!("{noun} at `{path}` (as `{}`) {is} made by nothing in the program now: {why}", seen.example))
                    .expected(format!("every key in {file} still made by the site that made it"))
                    .fix(if allow_removed {
                        "none needed: --allow-removed accepts a site removed on purpose".to_string()
                    } else if site.name.is_none() {
                        // A fuzzy trigger's answers: its key holds no ordinal, and a trigger takes no id.
                        "make this behavior's trigger a fuzzy match again (`~ \"…\"`); if it was changed on purpose, check with --allow-removed".to_string()
                    } else {
                        format!(
                            "put it back where it was (an action that moved takes its old place as its id: `id \"{}\"`); if it was removed on purpose, check with --allow-removed",
                            site.part
                        )
                    }),
            );
        };
        let Some((a, agent)) = program.agents.iter().enumerate().find(|(_, a)| escape(&a.name.text) == site.agent)
        else {
            gone(
                Span::new(0, 0),
                format!(
                    "no agent is named \"{}\" (renaming an agent re-keys every effect it applied)",
                    unescape(&site.agent)
                ),
            );
            continue;
        };
        let Some(behavior) = agent.behaviors.get(site.behavior) else {
            gone(
                agent.name.span,
                format!(
                    "the agent has {} behavior{} (a behavior is keyed by its place: if one before this place was removed, the one that was here moved up, and would apply its effects again under its new place; keep each behavior's place, leaving a removed one as an `on` that never fires)",
                    agent.behaviors.len(),
                    if agent.behaviors.len() == 1 { "" } else { "s" }
                ),
            );
            continue;
        };
        let Some(name) = &site.name else {
            if !matches!(behavior.trigger.matcher(), Some(Match::Fuzzy { .. })) {
                gone(behavior.trigger.span(), "this behavior's trigger is no longer a fuzzy match".into());
            }
            continue;
        };
        let sites = walked.entry((a, site.behavior)).or_insert_with(|| key_sites(behavior));
        let same: Vec<_> = sites
            .iter()
            .filter(|s| s.name == name && s.loops == site.loops && s.cap == site.class.as_deref())
            .collect();
        if same.iter().any(|s| s.part().to_string() == site.part) {
            continue;
        }
        // The sites of that name whose keys the store does not hold: one of them is the site re-keyed. The
        // likeliest first: one without an id (an id was given on purpose), nearest its old place.
        let old: Option<usize> = site.part.parse().ok();
        let mut fresh: Vec<_> = same
            .iter()
            .filter(|s| {
                let now = Site { part: s.part().to_string(), ..site.clone() };
                !store.sites.contains_key(&now)
            })
            .collect();
        fresh.sort_by_key(|s| (s.id.is_some(), old.map_or(0, |o| s.ordinal.abs_diff(o)), s.ordinal));
        let Some(first) = fresh.first() else {
            let depth = if site.loops > 0 { " at that loop depth" } else { "" };
            let why = if same.is_empty() {
                format!("this behavior has no `{name}` left that could make it{depth}")
            } else {
                format!("each `{name}` of this behavior{depth} makes keys of its own that the store holds")
            };
            gone(behavior.trigger.span(), why);
            continue;
        };
        let now = format!("{}#{}/{}/{name}", site.agent, site.behavior, first.part());
        let again = if site.class.is_some() { "would apply them again" } else { "would ask the provider again" };
        let mut message = format!(
            "this `{name}` is keyed `{now}` now: {noun} at `{path}` (as `{}`) {is} made by no site of the program, and this one {again}",
            seen.example
        );
        if count == 1 {
            message = message.replace("would apply them again", "would apply it again");
        }
        let mut d = Diagnostic::new(Code::Rekey, first.span, message)
            .expected(format!("every key in {file} still made by the site that made it"))
            .fix(format!(
                "give this `{name}` its old place as its stable id: `id \"{}\"` after its arguments",
                site.part
            ));
        if let Some(other) = fresh.get(1) {
            d = d.note(format!("or this `{name}`, if it is the one that moved"), other.span);
        }
        found.push(d);
    }
    found.sort_by_key(|d| (d.span.start, d.span.end));
    found
}
