//! `evoke.toml`: which adapter decides, which reflexes are installed under which local names, the
//! user's moved bars, and each reflex's settings. Reading it is pure; finding it on disk is evoke-files'.

use crate::adapter::Gate;
use crate::diag::{Problem, Reading};
use crate::doc::{Entry, KeyPath, Sink, TableReader};
use crate::question::RESERVED_NAMES;
use crate::text::{is_name, is_sentinel};
use std::collections::BTreeMap;
use toml::de::DeValue;

/// Where an installed reflex comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReflexSource {
    /// A directory, relative to the project.
    Path(String),
    /// A git repository at a version tag.
    Remote { reference: String, tag: String },
}

/// The bars a user moved for one adapter; the rest stay the adapter's.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BarMoves {
    pub route: Option<f64>,
    pub fits: Option<f64>,
    pub read: Option<f64>,
    pub write: Option<f64>,
}

impl BarMoves {
    /// The adapter's gate with these moves applied. `read` may never exceed `write`.
    pub fn apply(&self, gate: Gate) -> Result<Gate, crate::gate::BarError> {
        let moved = Gate {
            route: self.route.unwrap_or(gate.route),
            fits: self.fits.or(gate.fits),
            read: self.read.unwrap_or(gate.read),
            write: self.write.unwrap_or(gate.write),
        };
        crate::gate::check_bars(&moved)?;
        Ok(moved)
    }
}

/// A setting's value: plain text, or a secret named by the environment variable that holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Setting {
    Plain(String),
    Env(String),
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct ProjectFile {
    pub adapter: Option<String>,
    pub reflexes: Vec<(String, ReflexSource)>,
    /// `[playbooks]`: sourced as reflexes are, their local names in the same space as the reflexes'.
    pub playbooks: Vec<(String, ReflexSource)>,
    pub bars: BTreeMap<String, BarMoves>,
    pub config: BTreeMap<String, Vec<(String, Setting)>>,
    /// Settings of the adapters, as TOML text per adapter name, read by each adapter.
    pub adapters: BTreeMap<String, toml::Table>,
}

pub fn read_project_file(file: &str, text: &str) -> Reading<ProjectFile> {
    let doc = crate::doc::Doc::new(file, text);
    let root = match doc.parse() {
        Ok(root) => root,
        Err(fault) => return Reading { value: None, diagnostics: vec![fault] },
    };
    let mut sink = Sink::new(&doc);
    let mut top = TableReader::new(root.get_ref(), KeyPath::root(), 0..0);
    let mut project = ProjectFile::default();
    if let Some(e) = top.get("adapter") {
        project.adapter = e.nonempty_text(&mut sink, false);
        // A recording carries its own gate, so a cloned project must never be able to bring one.
        if project.adapter.as_deref() == Some("replay") {
            sink.error(
                Problem::BadName,
                &e.path,
                &e.key_span,
                "`replay` is chosen on the command line only, never by a project".into(),
                "remove the line, or name a built-in engine such as \"local\"; replay with `--recording FILE`",
            );
        }
    }
    if let Some(e) = top.get("reflexes")
        && let Some(mut table) = e.table(&mut sink)
    {
        for item in table.entries() {
            if let Some(source) = read_source(&item, "reflex", &mut sink) {
                project.reflexes.push((item.name.to_string(), source));
            }
        }
    }
    if let Some(e) = top.get("playbooks")
        && let Some(mut table) = e.table(&mut sink)
    {
        for item in table.entries() {
            // One space of local names: the route's key must say which of the two it means.
            if project.reflexes.iter().any(|(name, _)| name == item.name) {
                sink.error(
                    Problem::BadName,
                    &item.path,
                    &item.key_span,
                    format!(
                        "\"{}\" is already a reflex's local name; a playbook and a reflex share one space of names",
                        item.name
                    ),
                    "give the playbook another name, or remove the reflex of that name from [reflexes]",
                );
                continue;
            }
            if let Some(source) = read_source(&item, "playbook", &mut sink) {
                project.playbooks.push((item.name.to_string(), source));
            }
        }
    }
    if let Some(e) = top.get("bars")
        && let Some(mut table) = e.table(&mut sink)
    {
        for item in table.entries() {
            if let Some(moves) = read_bars(&item, &mut sink) {
                project.bars.insert(item.name.to_string(), moves);
            }
        }
    }
    if let Some(e) = top.get("config")
        && let Some(mut table) = e.table(&mut sink)
    {
        for item in table.entries() {
            if let Some(settings) = read_settings(&item, &mut sink) {
                project.config.insert(item.name.to_string(), settings);
            }
        }
    }
    if let Some(e) = top.get("adapters")
        && let Some(mut table) = e.table(&mut sink)
    {
        for item in table.entries() {
            if item.table(&mut sink).is_some() {
                // The settings as plain TOML values, read from the whole file: a value's span does not
                // hold a table given by a `[adapters.NAME]` header.
                let whole = text.parse::<toml::Table>().unwrap_or_default();
                let settings = whole
                    .get("adapters")
                    .and_then(|a| a.get(item.name))
                    .and_then(toml::Value::as_table)
                    .cloned()
                    .unwrap_or_default();
                project.adapters.insert(item.name.to_string(), settings);
            }
        }
    }
    top.finish(&mut sink);
    let failed = sink.has_errors();
    Reading { value: (!failed).then_some(project), diagnostics: sink.finish() }
}

/// Whether `name` may name a reflex or a playbook in a project: `[a-z][a-z0-9_]*`, and none of the
/// sentinels a question answers with or the names its ids are built of.
pub fn is_local_name(name: &str) -> bool {
    is_name(name) && !is_sentinel(name) && !RESERVED_NAMES.contains(&name)
}

/// A `[reflexes]` or `[playbooks]` entry (`what` says which): a path, or `{ ref, tag }`.
fn read_source(item: &Entry, what: &str, sink: &mut Sink) -> Option<ReflexSource> {
    if !is_local_name(item.name) {
        sink.error(
            Problem::BadName,
            &item.path,
            &item.key_span,
            format!("\"{}\" cannot be a {what}'s local name", crate::text::escape_outside(item.name)),
            "name it [a-z][a-z0-9_]*, other than none, unstated, route, fits and weave",
        );
        return None;
    }
    match item.value.get_ref() {
        DeValue::String(_) => item.nonempty_text(sink, false).map(ReflexSource::Path),
        DeValue::Table(_) => {
            let mut fields = item.table(sink)?;
            let reference = fields.get("ref").and_then(|e| e.nonempty_text(sink, false));
            let tag = fields.get("tag").and_then(|e| e.nonempty_text(sink, false));
            if reference.is_none() && !sink.has_errors() {
                fields.missing(
                    sink,
                    "ref",
                    "name the repository: { ref = \"https://host/owner/repo\", tag = \"v1.0.0\" }",
                );
            }
            if tag.is_none() && !sink.has_errors() {
                fields.missing(sink, "tag", "name the version tag: tag = \"v1.0.0\"");
            }
            fields.finish(sink);
            Some(ReflexSource::Remote { reference: reference?, tag: tag? })
        }
        _ => {
            let fix = if what == "playbook" {
                "write `name = \"playbooks/name\"` or `name = { ref = \"…\", tag = \"v1.0.0\" }`"
            } else {
                "write `name = \"reflexes/name\"` or `name = { ref = \"…\", tag = \"v1.0.0\" }`"
            };
            item.wrong_type(sink, "a path or { ref, tag }", fix);
            None
        }
    }
}

fn read_bars(item: &Entry, sink: &mut Sink) -> Option<BarMoves> {
    let mut table = item.table(sink)?;
    let mut moves = BarMoves::default();
    let mut ok = true;
    for (name, slot) in
        [("route", &mut moves.route), ("fits", &mut moves.fits), ("read", &mut moves.read), ("write", &mut moves.write)]
    {
        if let Some(e) = table.get(name) {
            match e.probability(sink) {
                Some(n) => *slot = Some(n),
                None => ok = false,
            }
        }
    }
    if let (Some(read), Some(write)) = (moves.read, moves.write)
        && read > write
    {
        let read_line = table.get("read").map(|e| (e.path.clone(), e.key_span.clone()));
        if let Some((path, span)) = read_line {
            sink.error(
                Problem::BadRange,
                &path,
                &span,
                format!("the `read` bar ({read}) exceeds the `write` bar ({write}); read never exceeds write"),
                "lower `read` to at most `write`",
            );
        }
        ok = false;
    }
    table.finish(sink);
    ok.then_some(moves)
}

fn read_settings(item: &Entry, sink: &mut Sink) -> Option<Vec<(String, Setting)>> {
    let mut table = item.table(sink)?;
    let mut settings = Vec::new();
    let mut ok = true;
    for setting in table.entries() {
        let value = match setting.value.get_ref() {
            DeValue::String(_) => setting.text(sink, false).map(Setting::Plain),
            DeValue::Table(_) => setting.table(sink).and_then(|mut t| {
                let var = match t.get("env") {
                    Some(e) => e.nonempty_text(sink, false),
                    None => {
                        t.missing(
                            sink,
                            "env",
                            "a secret is named by the environment variable holding it: { env = \"VAR\" }",
                        );
                        None
                    }
                };
                t.finish(sink);
                var.map(Setting::Env)
            }),
            _ => {
                setting.wrong_type(
                    sink,
                    "a string, or { env = \"VAR\" } for a secret",
                    "write `key = \"value\"`; a secret is named by its variable: `token = { env = \"HUE_TOKEN\" }`",
                );
                None
            }
        };
        match value {
            Some(value) => settings.push((setting.name.to_string(), value)),
            None => ok = false,
        }
    }
    ok.then_some(settings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn playbooks_are_sourced_as_reflexes_are() {
        let text = "[reflexes]\nlights = \"reflexes/lights\"\n\n[playbooks]\ngood_night = \"playbooks/good_night\"\n\
                    morning = { ref = \"https://example.com/o/r//morning\", tag = \"v1.0.0\" }\n";
        let project = read_project_file("evoke.toml", text).value.unwrap();
        assert_eq!(
            project.playbooks,
            [
                ("good_night".to_string(), ReflexSource::Path("playbooks/good_night".into())),
                (
                    "morning".to_string(),
                    ReflexSource::Remote { reference: "https://example.com/o/r//morning".into(), tag: "v1.0.0".into() }
                ),
            ]
        );
        assert_eq!(project.reflexes.len(), 1);
    }

    #[test]
    fn a_playbook_named_as_a_reflex_is_refused_at_its_line() {
        let text = "[playbooks]\nlights = \"playbooks/lights\"\n\n[reflexes]\nlights = \"reflexes/lights\"\n";
        let reading = read_project_file("evoke.toml", text);
        assert!(reading.value.is_none());
        let first = reading.first_error().unwrap();
        assert_eq!((first.place.line, first.problem.as_str()), (2, "bad_name"));
        assert!(first.message.contains("already a reflex's local name"), "{}", first.message);
        assert!(first.fix.as_deref().unwrap().contains("another name"));
    }

    #[test]
    fn a_playbook_may_not_take_a_name_the_tool_keeps() {
        for text in ["[playbooks]\nroute = \"playbooks/route\"\n", "[playbooks]\nnone = \"playbooks/none\"\n"] {
            let reading = read_project_file("evoke.toml", text);
            let first = reading.first_error().unwrap();
            assert!(first.message.contains("cannot be a playbook's local name"), "{}", first.message);
        }
        let reading = read_project_file("evoke.toml", "[playbooks]\nnight = 3\n");
        let first = reading.first_error().unwrap();
        assert!(first.fix.as_deref().unwrap().contains("playbooks/name"), "{:?}", first.fix);
    }
}
