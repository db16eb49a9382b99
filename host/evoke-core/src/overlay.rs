//! Overlays: `overlays/<name>.toml`, the user's wording for one reflex, merged over the shipped
//! manifest. Tables merge by key, every value and list replaces whole, nothing is deleted. Wording may
//! change; the contract may not, and an overlay that tries, or fails to read, makes its reflex inactive.

use crate::diag::{Problem, Reading};
use crate::doc::{Doc, Entry, KeyPath, Sink, TableReader};
use crate::identity::identity;
use crate::manifest::read::{read_confirm, read_description, read_effect, read_tags};
use crate::manifest::records::{Author, Seen, read_records};
use crate::manifest::{Manifest, Record, Source};

/// Top-level keys that are contract: the body, the settings it needs, what it may reach.
const CONTRACT_TOP: [&str; 6] = ["reflex", "run", "config", "grants", "returns", "yields"];
/// Keys of an argument that are contract: its source and its shape.
const CONTRACT_ARG: [&str; 8] = ["vocab", "pick", "flag", "takes", "optional", "range", "was", "options"];

/// Merges the overlay `text` over `shipped`, giving the effective manifest, or no manifest and the
/// diagnostics that make the reflex inactive.
pub fn read_overlay(file: &str, text: &str, shipped: &Manifest) -> Reading<Manifest> {
    let doc = Doc::new(file, text);
    let root = match doc.parse() {
        Ok(root) => root,
        Err(fault) => return Reading { value: None, diagnostics: vec![fault] },
    };
    let mut sink = Sink::new(&doc);
    let mut top = TableReader::new(root.get_ref(), KeyPath::root(), 0..0);
    let mut merged = shipped.clone();

    for key in CONTRACT_TOP {
        if let Some(entry) = top.get(key) {
            contract(&entry, &mut sink, &format!("`{key}` is contract"));
        }
    }
    if let Some(e) = top.get("description")
        && let Some(description) = read_description(&e, &mut sink)
    {
        merged.description = description;
    }
    if let Some(e) = top.get("not_for")
        && let Some(not_for) = e.texts(&mut sink)
    {
        merged.not_for = not_for;
    }
    if let Some(e) = top.get("tags")
        && let Some(tags) = read_tags(&e, &mut sink)
    {
        merged.tags = tags;
    }
    if let Some(e) = top.get("effect")
        && let Some(effect) = read_effect(&e, &mut sink)
    {
        if effect < shipped.effect {
            sink.error(
                Problem::EffectLoosened,
                &e.path,
                &e.key_span,
                format!("the effect may only tighten: the reflex is {}, the overlay says {effect}", shipped.effect),
                &format!(
                    "remove line {}, or write an effect at least as strict as \"{}\"",
                    line_of(&sink, &e),
                    shipped.effect
                ),
            );
        } else {
            merged.effect = effect;
        }
    }
    if let Some(e) = top.get("confirm")
        && let Some(confirm) = read_confirm(&e, &shipped.args, true, &mut sink)
    {
        merged.confirm = confirm;
    }
    if let Some(e) = top.get("args") {
        merge_args(&e, shipped, &mut merged, &mut sink);
    }
    let mut seen = Seen::new();
    for table in ["examples", "tests"] {
        if let Some(e) = top.get(table)
            && let Some(records) = read_records(&e, &shipped.args, Author::User, &mut seen, &mut sink)
        {
            for record in records {
                place_record(&mut merged, table, record);
            }
        }
    }
    top.finish(&mut sink);
    let failed = sink.has_errors();
    Reading { value: (!failed).then_some(merged), diagnostics: sink.finish() }
}

fn line_of(sink: &Sink, entry: &Entry) -> usize {
    sink.doc.place(&entry.key_span).line
}

fn contract(entry: &Entry, sink: &mut Sink, what: &str) {
    let line = line_of(sink, entry);
    sink.error(
        Problem::ContractKey,
        &entry.path,
        &entry.key_span,
        format!("{what}: an overlay may change wording only, so this reflex is inactive"),
        &format!("remove line {line}; changing the contract is a new version of the reflex"),
    );
}

fn merge_args(entry: &Entry, shipped: &Manifest, merged: &mut Manifest, sink: &mut Sink) {
    let Some(mut table) = entry.table(sink) else { return };
    for item in table.entries() {
        // An overlay written against a former name follows the rename.
        let Some(live) = shipped.live_name(item.name) else {
            contract(&item, sink, &format!("`{}` is a new argument, and arguments are contract", item.name));
            continue;
        };
        let Some(mut fields) = item.table(sink) else { continue };
        let Some(index) = merged.args.iter().position(|a| a.name == live) else { continue };
        for key in CONTRACT_ARG {
            let Some(field) = fields.get(key) else { continue };
            let is_options = matches!(shipped.args[index].source, Source::Options(_));
            if key == "options" && is_options {
                merge_options(&field, index, merged, sink);
            } else {
                contract(&field, sink, &format!("`{key}` of an argument is contract"));
            }
        }
        if let Some(ask) = fields.get("ask")
            && let Some(text) = ask.nonempty_text(sink, false)
        {
            merged.args[index].ask = text;
        }
        fields.finish(sink);
    }
}

/// `options.<key>` changes the meaning of an existing key; it can never add one.
fn merge_options(entry: &Entry, index: usize, merged: &mut Manifest, sink: &mut Sink) {
    let Some(mut table) = entry.table(sink) else { return };
    let arg_name = merged.args[index].name.clone();
    for option in table.entries() {
        let Source::Options(options) = &mut merged.args[index].source else { return };
        let Some(slot) = options.iter_mut().find(|(key, _)| key == option.name) else {
            let keys: Vec<&str> = options.iter().map(|(k, _)| k.as_str()).collect();
            let line = line_of(sink, &option);
            sink.error(
                Problem::UnknownOption,
                &option.path,
                &option.key_span,
                format!(
                    "`{arg_name}` offers no option \"{}\"; an overlay may reword an option, never add one",
                    option.name
                ),
                &format!("remove line {line}, or reword one of: {}", keys.join(", ")),
            );
            continue;
        };
        if let Some(meaning) = option.text(sink, false) {
            slot.1 = meaning;
        }
    }
}

/// The highest layer decides each utterance's table and value.
fn place_record(merged: &mut Manifest, table: &str, record: Record) {
    let id = identity(&record.utterance);
    let (own, other) = if table == "examples" {
        (&mut merged.examples, &mut merged.tests)
    } else {
        (&mut merged.tests, &mut merged.examples)
    };
    other.retain(|r| identity(&r.utterance) != id);
    match own.iter_mut().find(|r| identity(&r.utterance) == id) {
        Some(slot) => *slot = record,
        None => own.push(record),
    }
}
