//! Versions: the diff of a manifest's contract against the one at the newest version
//! tag, the level of the next version it calls for, and the `was` rules an update may never break.
//!
//! Arguments are matched across the two manifests by name, or by the new argument's `was` list naming
//! the old name (a rename). Everything that is not contract is wording: a wording change is a patch.

use crate::conform::CaseError;
use crate::manifest::{Access, Arg, Effect, Grants, Manifest, Record, Source};
use crate::refs::Version;
use serde::Serialize;
use std::fmt;

/// How far a change reaches, in the order of the next version's part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    None,
    Patch,
    Minor,
    Major,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::None => "none",
            Level::Patch => "patch",
            Level::Minor => "minor",
            Level::Major => "major",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One change of the manifest since the newest tag.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    pub level: Level,
    /// What changed, as a snake_case name (`arg_removed`, `option_added`, `wording`, …).
    pub change: &'static str,
    /// The dotted key it concerns (`args.state.options.dim`).
    pub key: String,
}

/// A `was` violation, refused outright.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum WasFault {
    /// A name that a `was` list retired is a live argument again.
    WasReturned { key: String, name: String },
    /// A name left a `was` list it was in.
    WasDropped { key: String, name: String },
}

impl fmt::Display for WasFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WasFault::WasReturned { key, name } => {
                write!(f, "`{name}` was retired by a `was` list and may never return as a live argument ({key})")
            }
            WasFault::WasDropped { key, name } => {
                write!(f, "`{name}` was dropped from {key}; a retired name never leaves its `was` list")
            }
        }
    }
}

/// The diff: every change, and the level of the next version (the highest of them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diff {
    pub next: Level,
    pub changes: Vec<Change>,
}

fn key(segment: &str) -> String {
    if !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-') {
        segment.to_string()
    } else {
        format!("\"{}\"", segment.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

/// Diffs `new` against `old` (the manifest at the newest tag).
pub fn diff(old: &Manifest, new: &Manifest) -> Result<Diff, WasFault> {
    check_was(old, new)?;
    let mut changes = Vec::new();
    let mut push = |level, change, key: String| changes.push(Change { level, change, key });

    // Arguments, matched by name or by rename.
    for old_arg in &old.args {
        match matching(new, &old_arg.name) {
            None => push(Level::Major, "arg_removed", format!("args.{}", old_arg.name)),
            Some(new_arg) => {
                let at = format!("args.{}", new_arg.name);
                if new_arg.name != old_arg.name {
                    push(Level::Minor, "arg_renamed", at.clone());
                }
                arg_changes(old_arg, new_arg, &at, &mut push);
            }
        }
    }
    for new_arg in &new.args {
        if old.args.iter().any(|o| o.name == new_arg.name || new_arg.was.contains(&o.name)) {
            continue;
        }
        let level = if new_arg.is_required() { Level::Major } else { Level::Minor };
        push(level, "arg_added", format!("args.{}", new_arg.name));
    }

    if old.run != new.run {
        push(Level::Major, "run_changed", "run".into());
    }
    if new.effect > old.effect {
        push(Level::Minor, "effect_tightened", "effect".into());
    } else if new.effect < old.effect {
        push(Level::Major, "effect_loosened", "effect".into());
    }
    for c in &new.config {
        match old.config.iter().find(|o| o.name == c.name) {
            None => push(Level::Major, "config_added", format!("config.{}", key(&c.name))),
            Some(o) if o.secret != c.secret => {
                push(Level::Major, "config_changed", format!("config.{}.secret", key(&c.name)))
            }
            Some(o) if o.about != c.about => push(Level::Patch, "wording", format!("config.{}.about", key(&c.name))),
            Some(_) => {}
        }
    }
    for o in &old.config {
        if !new.config.iter().any(|c| c.name == o.name) {
            push(Level::Minor, "config_removed", format!("config.{}", key(&o.name)));
        }
    }
    for widened in grants_widened(&old.grants, &new.grants) {
        push(Level::Major, "grant_added", widened.key());
    }
    for (path, access) in &old.grants.files {
        match new.grants.files.iter().find(|(p, _)| p == path) {
            None => push(Level::Minor, "grant_removed", format!("grants.files.{}", key(path))),
            Some((_, Access::Read)) if *access == Access::Write => {
                push(Level::Minor, "grant_removed", format!("grants.files.{}", key(path)))
            }
            Some(_) => {}
        }
    }
    for net in &old.grants.net {
        if !new.grants.net.contains(net) {
            push(Level::Minor, "grant_removed", "grants.net".into());
        }
    }

    // What the result holds: a later step of a plan may take a field, so a field removed or changed
    // breaks a plan that took it; a field added breaks nothing.
    for y in &new.yields {
        match old.yields.iter().find(|o| o.field == y.field) {
            None => push(Level::Minor, "yield_added", format!("yields.{}", key(&y.field))),
            Some(o) if o.kind != y.kind => {
                push(Level::Major, "yield_changed", format!("yields.{}.kind", key(&y.field)))
            }
            Some(o) if o.about != y.about => push(Level::Patch, "wording", format!("yields.{}.about", key(&y.field))),
            Some(_) => {}
        }
    }
    for o in &old.yields {
        if !new.yields.iter().any(|y| y.field == o.field) {
            push(Level::Major, "yield_removed", format!("yields.{}", key(&o.field)));
        }
    }

    // Wording: what the classifier and the person read.
    if old.description != new.description {
        push(Level::Patch, "wording", "description".into());
    }
    if old.not_for != new.not_for {
        push(Level::Patch, "wording", "not_for".into());
    }
    if old.tags != new.tags {
        push(Level::Patch, "wording", "tags".into());
    }
    // A rename is not a wording change: the old text is read with the new names before comparing.
    let renames: Vec<(&str, &str)> = old
        .args
        .iter()
        .filter_map(|a| matching(new, &a.name).filter(|n| n.name != a.name).map(|n| (a.name.as_str(), n.name.as_str())))
        .collect();
    let renamed =
        |name: &str| renames.iter().find(|(o, _)| *o == name).map_or(name.to_string(), |(_, n)| n.to_string());
    let mut old_confirm = old.confirm.clone();
    for (o, n) in &renames {
        old_confirm = old_confirm.replace(&format!("{{{o}}}"), &format!("{{{n}}}"));
    }
    if old_confirm != new.confirm {
        push(Level::Patch, "wording", "confirm".into());
    }
    let records = |records: &[Record]| -> Vec<Record> {
        records
            .iter()
            .map(|r| Record {
                utterance: r.utterance.clone(),
                asserts: r.asserts.as_ref().map(|a| a.iter().map(|(k, v)| (renamed(k), v.clone())).collect()),
            })
            .collect()
    };
    if records(&old.examples) != new.examples {
        push(Level::Patch, "wording", "examples".into());
    }
    if records(&old.tests) != new.tests {
        push(Level::Patch, "wording", "tests".into());
    }
    let old_order: Vec<&str> =
        old.args.iter().filter_map(|a| matching(new, &a.name).map(|n| n.name.as_str())).collect();
    let new_order: Vec<&str> = new.args.iter().map(|a| a.name.as_str()).filter(|n| old_order.contains(n)).collect();
    if old_order != new_order {
        push(Level::Patch, "wording", "args".into());
    }

    let next = changes.iter().map(|c| c.level).max().unwrap_or(Level::None);
    Ok(Diff { next, changes })
}

/// The argument of `manifest` that `name` is now: the same name, or one whose `was` lists it.
fn matching<'a>(manifest: &'a Manifest, name: &str) -> Option<&'a Arg> {
    manifest
        .args
        .iter()
        .find(|a| a.name == name)
        .or_else(|| manifest.args.iter().find(|a| a.was.iter().any(|w| w == name)))
}

fn arg_changes(old: &Arg, new: &Arg, at: &str, push: &mut impl FnMut(Level, &'static str, String)) {
    if old.ask != new.ask {
        push(Level::Patch, "wording", format!("{at}.ask"));
    }
    match (&old.source, &new.source) {
        (Source::Options(old_options), Source::Options(new_options)) => {
            for (k, meaning) in old_options {
                match new_options.iter().find(|(n, _)| n == k) {
                    None => push(Level::Major, "option_removed", format!("{at}.options.{}", key(k))),
                    Some((_, m)) if m != meaning => push(Level::Patch, "wording", format!("{at}.options.{}", key(k))),
                    Some(_) => {}
                }
            }
            for (k, _) in new_options {
                if !old_options.iter().any(|(o, _)| o == k) {
                    push(Level::Minor, "option_added", format!("{at}.options.{}", key(k)));
                }
            }
            let old_keys: Vec<&str> = old_options
                .iter()
                .map(|(k, _)| k.as_str())
                .filter(|k| new.source.option_keys().any(|n| n == *k))
                .collect();
            let new_keys: Vec<&str> = new.source.option_keys().filter(|k| old_keys.contains(k)).collect();
            if old_keys != new_keys {
                push(Level::Patch, "wording", format!("{at}.options"));
            }
        }
        (a, b) if a != b => push(Level::Major, "source_changed", format!("{at}.{}", b.kind())),
        _ => {}
    }
    if old.is_required() != new.is_required() {
        if new.is_required() {
            push(Level::Major, "made_required", format!("{at}.optional"));
        } else {
            push(Level::Minor, "made_optional", format!("{at}.optional"));
        }
    }
    let unbounded = (f64::NEG_INFINITY, f64::INFINITY);
    let (old_min, old_max) = old.range.unwrap_or(unbounded);
    let (new_min, new_max) = new.range.unwrap_or(unbounded);
    if new_min > old_min || new_max < old_max {
        push(Level::Major, "range_narrowed", format!("{at}.range"));
    } else if new_min < old_min || new_max > old_max {
        push(Level::Minor, "range_widened", format!("{at}.range"));
    }
}

/// A retired name never returns as a live argument, and never leaves the `was` list it was in.
fn check_was(old: &Manifest, new: &Manifest) -> Result<(), WasFault> {
    for old_arg in &old.args {
        for retired in &old_arg.was {
            if let Some(live) = new.args.iter().find(|a| a.name == *retired) {
                return Err(WasFault::WasReturned { key: format!("args.{}", live.name), name: retired.clone() });
            }
        }
        if let Some(new_arg) = matching(new, &old_arg.name) {
            for retired in &old_arg.was {
                if !new_arg.was.contains(retired) {
                    return Err(WasFault::WasDropped {
                        key: format!("args.{}.was", new_arg.name),
                        name: retired.clone(),
                    });
                }
            }
        }
    }
    Ok(())
}

/// The next version after `newest` for a change of `level`; `None` when nothing changed. The first
/// version of a repository that has no release tag yet is `v1.0.0`.
pub fn next_version(newest: Option<&Version>, level: Level) -> Option<Version> {
    let Some(v) = newest else { return Some(Version::new(1, 0, 0)) };
    match level {
        Level::None => None,
        Level::Patch => Some(Version::new(v.major, v.minor, v.patch + 1)),
        Level::Minor => Some(Version::new(v.major, v.minor + 1, 0)),
        Level::Major => Some(Version::new(v.major + 1, 0, 0)),
    }
}

/// A grant one manifest holds beyond another's: a path granted anew or raised from read to write, or a
/// host added. Grants are contract, and a wider one needs the same consent as a looser effect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "grant")]
pub enum Widened {
    /// `files = { "<path>" = "<access>" }`; `was` is the access consented to before, if any.
    File { path: String, access: &'static str, was: Option<&'static str> },
    /// `net = ["<host:port>"]`.
    Host { host: String },
}

impl Widened {
    /// The dotted key of the grant, as the diff names it.
    pub fn key(&self) -> String {
        match self {
            Widened::File { path, .. } => format!("grants.files.{}", key(path)),
            Widened::Host { .. } => "grants.net".into(),
        }
    }
}

impl fmt::Display for Widened {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let quote = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
        match self {
            Widened::File { path, access, was: None } => write!(f, "files {} = \"{access}\"", quote(path)),
            Widened::File { path, access, was: Some(was) } => {
                write!(f, "files {} = \"{access}\" (was \"{was}\")", quote(path))
            }
            Widened::Host { host } => write!(f, "net {}", quote(host)),
        }
    }
}

fn access_str(access: Access) -> &'static str {
    match access {
        Access::Read => "read",
        Access::Write => "write",
    }
}

/// Every grant `upstream` holds beyond `consented`, in the order `upstream` lists them: files first, then
/// hosts. Empty when upstream grants nothing new.
pub fn grants_widened(consented: &Grants, upstream: &Grants) -> Vec<Widened> {
    let mut out = Vec::new();
    for (path, access) in &upstream.files {
        let was = consented.files.iter().find(|(p, _)| p == path).map(|(_, a)| *a);
        let wider = match was {
            None => true,
            Some(was) => was == Access::Read && *access == Access::Write,
        };
        if wider {
            out.push(Widened::File { path: path.clone(), access: access_str(*access), was: was.map(access_str) });
        }
    }
    for host in &upstream.net {
        if !consented.net.contains(host) {
            out.push(Widened::Host { host: host.clone() });
        }
    }
    out
}

/// Whether an effect may be taken from upstream without the user's `--accept`: only a tightening.
pub fn effect_needs_accept(consented: Effect, upstream: Effect) -> bool {
    upstream < consented
}

/// The `versions` vector function: `{ "tags": [ … ], "old": "<reflex.toml at the newest tag>"?,
/// "new": "<reflex.toml>", "files": [ … ] }` in; `{ "next", "version"?, "changes" }` or the fault out.
/// With no release tag, `next` is `"first"` and `old` is not read.
pub fn vector_case(input: &serde_json::Value) -> Result<serde_json::Value, CaseError> {
    use serde_json::json;
    let list = |key: &str| -> Result<Vec<String>, CaseError> {
        serde_json::from_value(input.get(key).cloned().unwrap_or(json!([])))
            .map_err(|reason| CaseError::Shape { at: key.to_string(), reason })
    };
    let tags = list("tags")?;
    let files = list("files")?;
    let exists = |path: &str| files.iter().any(|f| f.trim_start_matches("./") == path);
    let read = |key: &str| -> Result<crate::diag::Reading<Manifest>, CaseError> {
        let text =
            input.get(key).and_then(|t| t.as_str()).ok_or_else(|| CaseError::Missing { key: key.to_string() })?;
        Ok(crate::manifest::read_manifest("reflex.toml", text, &exists))
    };
    let new = read("new")?;
    let Some(new) = new.value else {
        return Ok(json!({ "fault": new.first_error().map(|d| d.fault()) }));
    };
    let Some(newest) = crate::refs::newest_release(tags.iter().map(String::as_str)) else {
        return Ok(
            json!({ "next": "first", "version": next_version(None, Level::Major).map(|v| v.tag()), "changes": [] }),
        );
    };
    let old = read("old")?.value.ok_or(CaseError::NewestManifest)?;
    Ok(match diff(&old, &new) {
        Ok(d) => {
            let mut out = json!({ "next": d.next, "changes": d.changes });
            if let Some(v) = next_version(Some(&newest), d.next) {
                out["version"] = json!(v.tag());
            }
            out
        }
        Err(fault) => json!({ "fault": fault }),
    })
}
