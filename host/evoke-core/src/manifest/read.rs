//! Reading `reflex.toml` into a [`Manifest`], with every refusal and warning placed.

use super::records::{Author, Seen, read_records};
use super::{Access, Arg, ConfigKey, Effect, Grants, Manifest, Run, Source, Yield, placeholders};
use crate::diag::{Problem, Reading};
use crate::doc::{Doc, Entry, KeyPath, Sink, TableReader, number_of};
use crate::recognize::PickKind;
use crate::text::{is_js_reserved, is_name, is_sentinel};
use toml::de::DeValue;

/// Answers whether a path (relative, `/`-separated) is a file of the reflex directory.
pub trait DirListing {
    fn has_file(&self, path: &str) -> bool;
}

impl<F: Fn(&str) -> bool> DirListing for F {
    fn has_file(&self, path: &str) -> bool {
        self(path)
    }
}

/// Reads a manifest. `file` is the path shown in diagnostics; `dir` answers which files exist beside it.
pub fn read_manifest(file: &str, text: &str, dir: &dyn DirListing) -> Reading<Manifest> {
    read(file, text, Body::Dir(dir))
}

/// Reads the manifest of a reflex handed to the SDK as code: its body is a function of the program, so
/// the manifest names no `run`, and holds no `grants` or `config`, which only a body evoke starts can be
/// held to or handed. `file` is the name shown in diagnostics.
pub fn read_code_manifest(file: &str, text: &str) -> Reading<Manifest> {
    read(file, text, Body::Code)
}

/// Where the body a manifest describes is.
#[derive(Clone, Copy)]
enum Body<'d> {
    /// A file or program of the reflex directory, which answers which files it holds.
    Dir(&'d dyn DirListing),
    /// A function of the program embedding evoke.
    Code,
}

fn read(file: &str, text: &str, body: Body) -> Reading<Manifest> {
    let doc = Doc::new(file, text);
    let root = match doc.parse() {
        Ok(root) => root,
        Err(fault) => return Reading { value: None, diagnostics: vec![fault] },
    };
    let mut sink = Sink::new(&doc);
    let mut top = TableReader::new(root.get_ref(), KeyPath::root(), 0..0);
    let manifest = read_top(&mut top, body, &mut sink);
    top.finish(&mut sink);
    let failed = sink.has_errors();
    Reading { value: manifest.filter(|_| !failed), diagnostics: sink.finish() }
}

fn read_top(top: &mut TableReader, body: Body, sink: &mut Sink) -> Option<Manifest> {
    match top.get("reflex") {
        None => top.missing(sink, "reflex", "add `reflex = 1` as the first line"),
        Some(entry) => {
            if number_of(entry.value.get_ref()) != Some(1.0) || !matches!(entry.value.get_ref(), DeValue::Integer(_)) {
                sink.error(
                    Problem::BadVersion,
                    &entry.path,
                    &entry.key_span,
                    "this evoke reads `reflex = 1` manifests only".into(),
                    "write `reflex = 1`",
                );
            }
        }
    }
    let description = required(top, "description", sink, "describe what the reflex does: `description = \"…\"`")
        .and_then(|e| read_description(&e, sink));
    let not_for = top.get("not_for").map_or(Some(Vec::new()), |e| e.texts(sink));
    let tags = top.get("tags").map_or(Some(Vec::new()), |e| read_tags(&e, sink));
    let effect = top.get("effect").map_or(Some(Effect::Destructive), |e| read_effect(&e, sink));
    let confirm_entry =
        required(top, "confirm", sink, "write the one-line question a person answers: `confirm = \"…\"`");
    let run_entry = match body {
        Body::Dir(_) => required(top, "run", sink, "name the body: `run = \"body.mts\"` or an argv list"),
        Body::Code => {
            for key in ["run", "grants", "config"] {
                if let Some(entry) = top.get(key) {
                    sink.error(
                        Problem::CodeKey,
                        &entry.path,
                        &entry.key_span,
                        format!("`{key}` has no meaning for a reflex handed as code: its body is the program's function, run with the program's own rights and settings"),
                        &format!("remove `{key}`"),
                    );
                }
            }
            None
        }
    };
    let config = match body {
        Body::Dir(_) => top.get("config").map_or(Some(Vec::new()), |e| read_config(&e, sink)),
        Body::Code => Some(Vec::new()),
    };
    let grants = match body {
        Body::Dir(_) => top.get("grants").map_or(Some(Grants::default()), |e| read_grants(&e, sink)),
        Body::Code => Some(Grants::default()),
    };
    let args = top.get("args").map_or(Some(Vec::new()), |e| read_args(&e, sink));
    let yields = top.get("yields").map_or(Some(Vec::new()), |e| read_yields(&e, sink));
    let returns = top.get("returns").map_or(Some(None), |e| read_returns(&e, sink).map(Some));

    // What follows is checked against the arguments; with arguments that did not read, checking would
    // only add echoes of the same fault.
    let args_read = args.is_some();
    let arg_list = args.clone().unwrap_or_default();
    let confirm = confirm_entry.and_then(|e| read_confirm(&e, &arg_list, args_read, sink));
    let run = match body {
        Body::Dir(dir) => run_entry.and_then(|e| read_run(&e, &arg_list, args_read, dir, sink)),
        Body::Code => Some(Run::Code),
    };
    let mut seen = Seen::new();
    let examples =
        top.get("examples").map_or(Some(Vec::new()), |e| read_records(&e, &arg_list, Author::Shipped, &mut seen, sink));
    let tests =
        top.get("tests").map_or(Some(Vec::new()), |e| read_records(&e, &arg_list, Author::Shipped, &mut seen, sink));

    Some(Manifest {
        description: description?,
        not_for: not_for?,
        tags: tags?,
        effect: effect?,
        confirm: confirm?,
        run: run?,
        config: config?,
        grants: grants?,
        args: args?,
        examples: examples?,
        tests: tests?,
        yields: yields?,
        returns: returns?,
    })
}

fn required<'t, 'i>(table: &mut TableReader<'t, 'i>, key: &str, sink: &mut Sink, fix: &str) -> Option<Entry<'t, 'i>> {
    let entry = table.get(key);
    if entry.is_none() {
        table.missing(sink, key, fix);
    }
    entry
}

pub(crate) fn read_description(entry: &Entry, sink: &mut Sink) -> Option<String> {
    entry.nonempty_text(sink, true)
}

pub(crate) fn read_tags(entry: &Entry, sink: &mut Sink) -> Option<Vec<String>> {
    let tags = entry.texts(sink)?;
    let mut ok = true;
    for tag in &tags {
        if !is_name(tag) {
            sink.error(
                Problem::BadName,
                &entry.path,
                &entry.key_span,
                format!("the tag \"{tag}\" is not a name"),
                "write tags as [a-z][a-z0-9_]*: lower-case letters, digits and _",
            );
            ok = false;
        }
    }
    ok.then_some(tags)
}

pub(crate) fn read_effect(entry: &Entry, sink: &mut Sink) -> Option<Effect> {
    let text = entry.string(sink, "write `effect = \"read\"`, `\"write\"` or `\"destructive\"`")?;
    let effect = Effect::parse(text);
    if effect.is_none() {
        sink.error(
            Problem::BadEffect,
            &entry.path,
            &entry.key_span,
            format!("\"{}\" is not an effect", crate::text::escape_outside(text)),
            "write `read`, `write` or `destructive` (absent means destructive)",
        );
    }
    effect
}

/// `confirm` names required arguments only.
pub(crate) fn read_confirm(entry: &Entry, args: &[Arg], check_names: bool, sink: &mut Sink) -> Option<String> {
    let confirm = entry.nonempty_text(sink, false)?;
    let found = match placeholders(&confirm) {
        Ok(found) => found,
        Err(_) => {
            sink.error(
                Problem::BadPlaceholder,
                &entry.path,
                &entry.key_span,
                "`confirm` has a brace that does not make a whole `{name}`".into(),
                "write each placeholder as {name}; a literal brace cannot appear in `confirm`",
            );
            return None;
        }
    };
    if !check_names {
        return Some(confirm);
    }
    let mut ok = true;
    for placeholder in found {
        match args.iter().find(|a| a.name == placeholder.name) {
            None => {
                sink.error(
                    Problem::UnknownPlaceholder,
                    &entry.path,
                    &entry.key_span,
                    format!("`confirm` names {{{}}}, which is not an argument", placeholder.name),
                    "name a required argument, or remove the placeholder",
                );
                ok = false;
            }
            Some(arg) if !arg.is_required() => {
                let what = if arg.source == Source::Flag { "a flag" } else { "optional" };
                sink.error(
                    Problem::PlaceholderNotRequired,
                    &entry.path,
                    &entry.key_span,
                    format!(
                        "`confirm` names {{{}}}, which is {what}: it may be unstated when the question shows",
                        arg.name
                    ),
                    "name required arguments only; describe the rest in words",
                );
                ok = false;
            }
            Some(_) => {}
        }
    }
    ok.then_some(confirm)
}

fn read_run(entry: &Entry, args: &[Arg], check_names: bool, dir: &dyn DirListing, sink: &mut Sink) -> Option<Run> {
    match entry.value.get_ref() {
        DeValue::String(_) => read_run_file(entry, dir, sink).map(Run::File),
        DeValue::Array(_) => read_argv(entry, args, check_names, sink).map(Run::Argv),
        _ => {
            entry.wrong_type(
                sink,
                "a path or an argv list",
                "write `run = \"body.mts\"` or `run = [\"program\", \"{arg}\"]`",
            );
            None
        }
    }
}

fn read_run_file(entry: &Entry, dir: &dyn DirListing, sink: &mut Sink) -> Option<String> {
    let path = entry.nonempty_text(sink, false)?;
    if path.starts_with('/') || path.starts_with('\\') || path.split(['/', '\\']).any(|s| s == "..") {
        sink.error(
            Problem::RunPath,
            &entry.path,
            &entry.key_span,
            format!("`run` names {path}, which is outside the reflex directory"),
            "give a path relative to the reflex directory, without `..`",
        );
        return None;
    }
    if !(path.ends_with(".mts") || path.ends_with(".mjs") || path.ends_with(".wasm")) {
        sink.error(
            Problem::RunExtension,
            &entry.path,
            &entry.key_span,
            format!("`run` names {path}: a body file ends in .mts, .mjs or .wasm"),
            "point `run` at a .mts, .mjs or .wasm file, or write an argv list: run = [\"program\", …]",
        );
        return None;
    }
    let normal = path.trim_start_matches("./");
    if !dir.has_file(normal) {
        sink.error(
            Problem::RunMissing,
            &entry.path,
            &entry.key_span,
            format!("`run` names {path}, which is not in the reflex directory"),
            &format!("add {path} beside reflex.toml, or point `run` at the body"),
        );
        return None;
    }
    Some(path)
}

fn read_argv(entry: &Entry, args: &[Arg], check_names: bool, sink: &mut Sink) -> Option<Vec<String>> {
    let argv = entry.texts(sink)?;
    let Some(program) = argv.first() else {
        sink.error(
            Problem::Empty,
            &entry.path,
            &entry.key_span,
            "`run` is an empty argv".into(),
            "name the program first: run = [\"program\", \"{arg}\"]",
        );
        return None;
    };
    let mut ok = true;
    if program.is_empty() || program.contains(['{', '}']) || (program.contains('/') && !program.starts_with('/')) {
        sink.error(Problem::ArgvProgram, &entry.path, &entry.key_span,
            format!("the program \"{program}\" must be a name on PATH or an absolute path"),
            "write a bare program name (`hue`) or an absolute path (`/usr/bin/hue`), never a relative path or a placeholder");
        ok = false;
    }
    for element in &argv[1..] {
        if !element.contains(['{', '}']) {
            continue;
        }
        let inner = element.strip_prefix('{').and_then(|e| e.strip_suffix('}')).filter(|n| !n.contains(['{', '}']));
        let Some(name) = inner else {
            sink.error(
                Problem::BadPlaceholder,
                &entry.path,
                &entry.key_span,
                format!("the argv element \"{element}\" holds a brace that is not a whole placeholder"),
                "make the placeholder an element of its own (\"--room\", \"{room}\"); literal braces need a file body",
            );
            ok = false;
            continue;
        };
        if !check_names {
            continue;
        }
        match args.iter().find(|a| a.name == name) {
            None => {
                sink.error(
                    Problem::UnknownPlaceholder,
                    &entry.path,
                    &entry.key_span,
                    format!("the argv names {{{name}}}, which is not an argument"),
                    "name an argument, or remove the element",
                );
                ok = false;
            }
            Some(arg) if arg.source == Source::Flag => {
                sink.error(
                    Problem::ArgvFlag,
                    &entry.path,
                    &entry.key_span,
                    format!("the argv names {{{name}}}, which is a flag"),
                    "flags need a file body; or make it an options argument",
                );
                ok = false;
            }
            Some(arg) if matches!(arg.source, Source::Takes(_)) => {
                sink.error(
                    Problem::ArgvTakes,
                    &entry.path,
                    &entry.key_span,
                    format!("the argv names {{{name}}}, which takes a whole result"),
                    "a whole result is JSON that needs a file or component body to read it; remove the element",
                );
                ok = false;
            }
            Some(_) => {}
        }
    }
    ok.then_some(argv)
}

/// `returns`: the name the body's whole result goes by, a name as an argument's is.
fn read_returns(entry: &Entry, sink: &mut Sink) -> Option<String> {
    let name = entry.text(sink, false)?;
    if !is_name(&name) {
        sink.error(
            Problem::BadName,
            &entry.path,
            &entry.key_span,
            format!("`returns` \"{}\" is not a name", crate::text::escape_outside(&name)),
            "name the whole result [a-z][a-z0-9_]*, like returns = \"forecast\"",
        );
        return None;
    }
    Some(name)
}

/// `[yields.<field>]`: `kind`, a pick kind, and an optional one-line `about`.
fn read_yields(entry: &Entry, sink: &mut Sink) -> Option<Vec<Yield>> {
    let mut table = entry.table(sink)?;
    let yields =
        read_named(table.entries(), sink, "the yielded field", "write field names as [a-z][a-z0-9_]*", |item, sink| {
            let mut t = item.table(sink)?;
            let kind = match t.get("kind") {
                Some(e) => e.text(sink, false).and_then(|k| match k.parse::<PickKind>() {
                    Ok(kind) => Some(kind),
                    Err(_) => {
                        sink.error(
                            Problem::BadPick,
                            &e.path,
                            &e.key_span,
                            format!("\"{}\" is not a pick kind", crate::text::escape_outside(&k)),
                            "write one of number, duration, date, time, amount, code, text",
                        );
                        None
                    }
                }),
                None => {
                    t.missing(sink, "kind", "say what the field holds: { kind = \"text\" }");
                    None
                }
            };
            let about = match t.get("about") {
                Some(e) => e.nonempty_text(sink, false).map(Some),
                None => Some(None),
            };
            t.finish(sink);
            Some(Yield { field: item.name.to_string(), kind: kind?, about: about? })
        });
    table.finish(sink);
    yields
}

/// Reads each entry of a table keyed by names (`[yields.<field>]`, `[config.<key>]`): a key that is not a
/// name is refused as `what` with the `rule`; every entry is read, and the whole stands only when each
/// entry does.
fn read_named<'t, 'i, T>(
    entries: Vec<Entry<'t, 'i>>,
    sink: &mut Sink,
    what: &str,
    rule: &str,
    mut read: impl FnMut(&Entry<'t, 'i>, &mut Sink) -> Option<T>,
) -> Option<Vec<T>> {
    let mut read_all = Vec::new();
    let mut ok = true;
    for item in entries {
        if !is_name(item.name) {
            let message = format!("{what} \"{}\" is not a name", crate::text::escape_outside(item.name));
            sink.error(Problem::BadName, &item.path, &item.key_span, message, rule);
            ok = false;
            continue;
        }
        match read(&item, sink) {
            Some(value) => read_all.push(value),
            None => ok = false,
        }
    }
    ok.then_some(read_all)
}

fn read_config(entry: &Entry, sink: &mut Sink) -> Option<Vec<ConfigKey>> {
    let mut table = entry.table(sink)?;
    read_named(table.entries(), sink, "the config key", "write config keys as [a-z][a-z0-9_]*", |item, sink| {
        let (about, secret) = match item.value.get_ref() {
            DeValue::String(_) => item.nonempty_text(sink, false).map(|about| (about, false)),
            DeValue::Table(_) => item.table(sink).and_then(|mut t| {
                let about = match t.get("about") {
                    Some(e) => e.nonempty_text(sink, false),
                    None => {
                        t.missing(sink, "about", "say what the setting is: { about = \"…\", secret = true }");
                        None
                    }
                };
                let secret = t.get("secret").map_or(Some(false), |e| e.bool(sink));
                t.finish(sink);
                Some((about?, secret?))
            }),
            _ => {
                item.wrong_type(
                    sink,
                    "a string or a table",
                    "write `key = \"about\"` or `key = { about = \"…\", secret = true }`",
                );
                None
            }
        }?;
        Some(ConfigKey { name: item.name.to_string(), about, secret })
    })
}

fn read_grants(entry: &Entry, sink: &mut Sink) -> Option<Grants> {
    let mut table = entry.table(sink)?;
    let mut grants = Grants::default();
    let mut ok = true;
    if let Some(files) = table.get("files") {
        if let Some(mut files) = files.table(sink) {
            for item in files.entries() {
                ok &= item.check_key_clean(sink, "a granted path");
                let access = match item.value.get_ref() {
                    DeValue::String(s) if s.as_ref() == "read" => Some(Access::Read),
                    DeValue::String(s) if s.as_ref() == "write" => Some(Access::Write),
                    _ => None,
                };
                match access {
                    Some(access) => grants.files.push((item.name.to_string(), access)),
                    None => {
                        sink.error(
                            Problem::BadGrant,
                            &item.path,
                            &item.key_span,
                            format!("the grant for \"{}\" must be \"read\" or \"write\"", item.name),
                            "write `\"{dir}\" = \"read\"` or `= \"write\"`",
                        );
                        ok = false;
                    }
                }
            }
        } else {
            ok = false;
        }
    }
    if let Some(net) = table.get("net") {
        match net.texts(sink) {
            Some(pairs) => {
                for pair in &pairs {
                    let port_ok = pair
                        .rsplit_once(':')
                        .is_some_and(|(host, port)| !host.is_empty() && port.parse::<u16>().is_ok_and(|p| p > 0));
                    if !port_ok {
                        sink.error(
                            Problem::BadGrant,
                            &net.path,
                            &net.key_span,
                            format!("\"{pair}\" is not a host:port pair"),
                            "write each entry as \"host:port\", e.g. \"api.example.com:443\"",
                        );
                        ok = false;
                    }
                }
                grants.net = pairs;
            }
            None => ok = false,
        }
    }
    table.finish(sink);
    ok.then_some(grants)
}

pub(crate) fn read_args(entry: &Entry, sink: &mut Sink) -> Option<Vec<Arg>> {
    let mut table = entry.table(sink)?;
    let mut args = Vec::new();
    let mut was_places = Vec::new();
    let mut ok = true;
    for item in table.entries() {
        match read_arg(&item, sink) {
            Some((arg, was_place)) => {
                args.push(arg);
                was_places.push(was_place);
            }
            None => ok = false,
        }
    }
    // A former name never returns as a live argument, and belongs to one argument only.
    for (arg, place) in args.iter().zip(&was_places) {
        for former in &arg.was {
            let live = args.iter().any(|a| &a.name == former);
            let claimed = args.iter().filter(|a| a.was.contains(former)).count() > 1;
            if let (true, Some((path, span))) = (live || claimed, place) {
                let why = if live { "is a live argument" } else { "is claimed by two arguments" };
                sink.error(
                    Problem::WasConflict,
                    path,
                    span,
                    format!("the former name \"{former}\" {why}; a retired name never returns"),
                    "choose a new name for the live argument; keep every former name in exactly one `was`",
                );
                ok = false;
            }
        }
    }
    ok.then_some(args)
}

/// Where an argument's `was` is written, to point a conflict at it.
type WasPlace = Option<(KeyPath, std::ops::Range<usize>)>;

fn read_arg(item: &Entry, sink: &mut Sink) -> Option<(Arg, WasPlace)> {
    let name = item.name;
    let mut ok = true;
    if !is_name(name) {
        sink.error(
            Problem::BadName,
            &item.path,
            &item.key_span,
            format!("the argument \"{}\" is not a name", crate::text::escape_outside(name)),
            "name arguments [a-z][a-z0-9_]*: lower-case letters, digits and _",
        );
        ok = false;
    } else if is_sentinel(name) {
        sink.error(
            Problem::ReservedKey,
            &item.path,
            &item.key_span,
            format!("\"{name}\" is reserved: the classifier answers with it"),
            "choose another name",
        );
        ok = false;
    } else if is_js_reserved(name) {
        sink.error(
            Problem::ReservedWord,
            &item.path,
            &item.key_span,
            format!("\"{name}\" is a JavaScript reserved word, so a body could not destructure it"),
            "choose another name",
        );
        ok = false;
    }
    let mut fields = item.table(sink)?;
    let ask = match fields.get("ask") {
        Some(e) => e.nonempty_text(sink, false),
        None => {
            fields.missing(sink, "ask", "write the question a person answers: ask = \"…?\"");
            None
        }
    };

    let mut sources: Vec<(Entry, Option<Source>)> = Vec::new();
    if let Some(e) = fields.get("options") {
        let source = read_options(&e, sink).map(Source::Options);
        sources.push((e, source));
    }
    if let Some(e) = fields.get("vocab") {
        let source = e.text(sink, false).and_then(|v| {
            if is_name(&v) {
                Some(Source::Vocab(v))
            } else {
                sink.error(
                    Problem::BadName,
                    &e.path,
                    &e.key_span,
                    format!("the vocabulary \"{v}\" is not a name"),
                    "name vocabularies [a-z][a-z0-9_]*, like vocab/rooms.toml → \"rooms\"",
                );
                None
            }
        });
        sources.push((e, source));
    }
    if let Some(e) = fields.get("pick") {
        let source = e.text(sink, false).and_then(|p| match p.parse::<PickKind>() {
            Ok(kind) => Some(Source::Pick(kind)),
            Err(_) => {
                sink.error(
                    Problem::BadPick,
                    &e.path,
                    &e.key_span,
                    format!("\"{p}\" is not a pick"),
                    "pick one of number, duration, date, time, amount, code, text",
                );
                None
            }
        });
        sources.push((e, source));
    }
    if let Some(e) = fields.get("takes") {
        let source = e.text(sink, false).and_then(|name| {
            if is_name(&name) {
                return Some(Source::Takes(name));
            }
            sink.error(
                Problem::BadName,
                &e.path,
                &e.key_span,
                format!("`takes` \"{}\" is not a name", crate::text::escape_outside(&name)),
                "name the whole result it takes, as the earlier reflex's `returns` does: takes = \"forecast\"",
            );
            None
        });
        sources.push((e, source));
    }
    if let Some(e) = fields.get("flag") {
        let source = match e.value.get_ref() {
            DeValue::Boolean(true) => Some(Source::Flag),
            _ => {
                e.wrong_type(sink, "`true`", "write `flag = true`, or remove the key");
                None
            }
        };
        sources.push((e, source));
    }
    let source = match sources.len() {
        0 => {
            sink.error(
                Problem::NoSource,
                &item.path,
                &item.key_span,
                format!("the argument `{name}` has no source"),
                "give it exactly one of options, vocab, pick, flag or takes",
            );
            None
        }
        1 => sources.pop().and_then(|(_, s)| s),
        _ => {
            let kinds: Vec<&str> = sources.iter().map(|(e, _)| e.name).collect();
            sink.error(
                Problem::SeveralSources,
                &item.path,
                &item.key_span,
                format!("the argument `{name}` has {} sources: {}", kinds.len(), kinds.join(", ")),
                "keep exactly one of options, vocab, pick, flag or takes",
            );
            None
        }
    };

    let optional = match fields.get("optional") {
        None => Some(false),
        Some(e) => {
            let optional = e.bool(sink);
            if let Some(what @ (Source::Flag | Source::Takes(_))) = &source {
                let (problem, what) = match what {
                    Source::Flag => (Problem::OptionalFlag, "a flag"),
                    _ => (Problem::OptionalTakes, "a whole result an earlier step gives"),
                };
                sink.error(
                    problem,
                    &e.path,
                    &e.key_span,
                    format!("`{name}` is {what}, optional by nature"),
                    "remove `optional`",
                );
                None
            } else {
                optional
            }
        }
    };
    let range = match fields.get("range") {
        None => Some(None),
        Some(e) => read_range(&e, source.as_ref(), sink).map(Some),
    };
    let was_entry = fields.get("was");
    let was_place = was_entry.as_ref().map(|e| (e.path.clone(), e.key_span.clone()));
    let was = match was_entry {
        None => Some(Vec::new()),
        Some(e) => e.texts(sink).and_then(|names| {
            let bad: Vec<&String> = names.iter().filter(|n| !is_name(n)).collect();
            if let Some(first) = bad.first() {
                sink.error(
                    Problem::BadName,
                    &e.path,
                    &e.key_span,
                    format!("the former name \"{first}\" is not a name"),
                    "former names are argument names: [a-z][a-z0-9_]*",
                );
                return None;
            }
            Some(names)
        }),
    };
    fields.finish(sink);
    if !ok {
        return None;
    }
    let arg = Arg { name: name.to_string(), ask: ask?, source: source?, optional: optional?, range: range?, was: was? };
    Some((arg, was_place))
}

fn read_options(entry: &Entry, sink: &mut Sink) -> Option<Vec<(String, String)>> {
    let mut table = entry.table(sink)?;
    let mut options = Vec::new();
    let mut ok = true;
    for option in table.entries() {
        if !option.check_key_clean(sink, "the option key") {
            ok = false;
            continue;
        }
        if option.name.trim().is_empty() {
            sink.error(
                Problem::Empty,
                &option.path,
                &option.key_span,
                "an option key is empty".into(),
                "name the option",
            );
            ok = false;
            continue;
        }
        if is_sentinel(option.name) {
            sink.error(
                Problem::ReservedKey,
                &option.path,
                &option.key_span,
                format!("\"{}\" is reserved: the classifier answers with it", option.name),
                "choose another option key",
            );
            ok = false;
            continue;
        }
        match option.text(sink, false) {
            Some(meaning) => options.push((option.name.to_string(), meaning)),
            None => ok = false,
        }
    }
    if ok && options.is_empty() {
        sink.error(
            Problem::Empty,
            &entry.path,
            &entry.key_span,
            "`options` offers nothing".into(),
            "list the options: options.on = \"Switch on.\"",
        );
        return None;
    }
    ok.then_some(options)
}

fn read_range(entry: &Entry, source: Option<&Source>, sink: &mut Sink) -> Option<(f64, f64)> {
    if !matches!(source, Some(Source::Pick(PickKind::Number | PickKind::Duration))) {
        sink.error(
            Problem::RangeNotAllowed,
            &entry.path,
            &entry.key_span,
            "`range` applies to a number or duration pick only".into(),
            "remove `range`",
        );
        return None;
    }
    let bounds: Option<Vec<f64>> = match entry.value.get_ref() {
        DeValue::Array(items) if items.len() == 2 => items.iter().map(|i| number_of(i.get_ref())).collect(),
        _ => None,
    };
    match bounds.as_deref() {
        Some(&[min, max]) if min <= max => Some((min, max)),
        _ => {
            sink.error(
                Problem::BadRange,
                &entry.path,
                &entry.key_span,
                "`range` must be two numbers, the smaller first".into(),
                "write `range = [min, max]` (seconds for a duration)",
            );
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WORDING: &str = "reflex = 1\ndescription = \"Greets someone\"\neffect = \"read\"\nconfirm = \"Greet {who}?\"\n\
                           [args.who]\nask = \"Who?\"\npick = \"text\"\n";

    #[test]
    fn a_manifest_handed_as_code_needs_no_run_and_its_body_is_code() {
        let reading = read_code_manifest("greet (code)", WORDING);
        assert!(reading.diagnostics.is_empty(), "{:?}", reading.diagnostics);
        assert_eq!(reading.value.unwrap().run, Run::Code);
        // The same text read from a directory still needs its `run`.
        let from_dir = read_manifest("reflex.toml", WORDING, &|_: &str| true);
        assert!(from_dir.value.is_none());
        assert_eq!(from_dir.diagnostics[0].problem, Problem::MissingKey);
    }

    #[test]
    fn a_manifest_handed_as_code_refuses_run_grants_and_config_by_key() {
        let text = format!(
            "run = \"body.mts\"\n{WORDING}[grants]\nnet = [\"example.com:443\"]\n[config.token]\nabout = \"t\"\n"
        );
        let reading = read_code_manifest("greet (code)", &text);
        assert!(reading.value.is_none());
        let keys: Vec<String> =
            reading.diagnostics.iter().filter(|d| d.problem == Problem::CodeKey).map(|d| d.key.clone()).collect();
        assert_eq!(keys, ["run", "grants", "config"]);
    }
}
