//! `[examples]` and `[tests]`: utterances and the values they assert.

use super::{Arg, Asserted, Record, Source};
use crate::diag::Problem;
use crate::doc::{Entry, Sink};
use crate::identity::identity;
use std::collections::HashMap;
use toml::de::DeValue;

/// Who wrote the records: a shipped manifest may not assert the user's words; a user's overlay may, and so
/// may a playbook, a person's own routine, whose record may also be `true`: the sentence picks it with
/// nothing stated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Author {
    Shipped,
    User,
    Playbook,
}

/// Identities already seen in this file, with the table and utterance that first held each: duplicates in
/// one file are refused, across `[examples]` and `[tests]` alike.
pub(crate) type Seen = HashMap<String, String>;

/// Reads one records table against the reflex's arguments. Former argument names follow `was`.
pub(crate) fn read_records(
    entry: &Entry,
    args: &[Arg],
    author: Author,
    seen: &mut Seen,
    sink: &mut Sink,
) -> Option<Vec<Record>> {
    let mut table = entry.table(sink)?;
    let mut records = Vec::new();
    let mut ok = true;
    for record in table.entries() {
        let utterance = record.name;
        if !record.check_key_clean(sink, "the utterance") {
            ok = false;
            continue;
        }
        if utterance.trim().is_empty() {
            sink.error(
                Problem::Empty,
                &record.path,
                &record.key_span,
                "an utterance is empty".into(),
                "write the sentence a person would say",
            );
            ok = false;
            continue;
        }
        let id = identity(utterance);
        if let Some(first) = seen.get(&id) {
            sink.error(
                Problem::DuplicateUtterance,
                &record.path,
                &record.key_span,
                format!("\"{utterance}\" is the same utterance as {first}"),
                "keep one of the two records",
            );
            ok = false;
            continue;
        }
        seen.insert(id, format!("\"{utterance}\" in [{}]", entry.path));
        match read_asserts(&record, args, author, sink) {
            Some(asserts) => records.push(Record { utterance: utterance.to_string(), asserts }),
            None => ok = false,
        }
    }
    ok.then_some(records)
}

fn read_asserts(
    record: &Entry,
    args: &[Arg],
    author: Author,
    sink: &mut Sink,
) -> Option<Option<Vec<(String, Asserted)>>> {
    match record.value.get_ref() {
        DeValue::Boolean(false) => return Some(None),
        DeValue::Boolean(true) if author == Author::Playbook => return Some(Some(Vec::new())),
        DeValue::Table(_) => {}
        _ => {
            record.wrong_type(
                sink,
                "a table of asserted values or `false`",
                "write `{ arg = \"value\" }`, or `false` for an input this reflex must not take",
            );
            return None;
        }
    }
    let mut values = record.table(sink)?;
    let mut asserts = Vec::new();
    let mut ok = true;
    for value in values.entries() {
        let Some(arg) = args.iter().find(|a| a.name == value.name || a.was.iter().any(|w| w == value.name)) else {
            sink.error(
                Problem::UnknownArgument,
                &value.path,
                &value.key_span,
                format!("the record asserts `{}`, which is not an argument of this reflex", value.name),
                "name one of the reflex's arguments, or remove the assertion",
            );
            ok = false;
            continue;
        };
        match read_value(&value, arg, record.name, author, sink) {
            Some(asserted) => asserts.push((arg.name.clone(), asserted)),
            None => ok = false,
        }
    }
    ok.then_some(Some(asserts))
}

fn read_value(value: &Entry, arg: &Arg, utterance: &str, author: Author, sink: &mut Sink) -> Option<Asserted> {
    if arg.source == Source::Flag {
        return match value.value.get_ref() {
            DeValue::Boolean(b) => Some(Asserted::Flag(*b)),
            _ => {
                sink.error(
                    Problem::BadValue,
                    &value.path,
                    &value.key_span,
                    format!("`{}` is a flag: a record asserts it as `true` or `false`", arg.name),
                    "write `true` or `false`",
                );
                None
            }
        };
    }
    if let Source::Takes(name) = &arg.source {
        sink.error(
            Problem::BadValue,
            &value.path,
            &value.key_span,
            format!("`{}` takes the whole result `{name}` of an earlier step; no utterance says it", arg.name),
            "remove the assertion: the value comes from the step before, never from the words",
        );
        return None;
    }
    let text = value.text(sink, false)?;
    match &arg.source {
        Source::Options(_) => {
            if !arg.source.option_keys().any(|k| k == text) {
                let keys: Vec<&str> = arg.source.option_keys().collect();
                sink.error(
                    Problem::BadValue,
                    &value.path,
                    &value.key_span,
                    format!("\"{text}\" is not an option of `{}`", arg.name),
                    &format!("assert one of its option keys: {}", keys.join(", ")),
                );
                return None;
            }
        }
        Source::Vocab(_) if author == Author::Shipped => {
            sink.error(
                Problem::VocabAsserted,
                &value.path,
                &value.key_span,
                format!("`{}` takes the user's words; a shipped manifest must not assert it", arg.name),
                "remove the assertion: the words belong to each user's vocabulary",
            );
            return None;
        }
        Source::Vocab(_) => {}
        Source::Pick(_) => {
            if !loose(utterance).contains(&loose(&text)) {
                sink.error(
                    Problem::BadValue,
                    &value.path,
                    &value.key_span,
                    format!(
                        "\"{text}\" is not words of the utterance \"{utterance}\"; a pick asserts the words it reads"
                    ),
                    "assert the words of the utterance that hold the value, as written",
                );
                return None;
            }
        }
        Source::Flag | Source::Takes(_) => unreachable!("flags and whole results are read above"),
    }
    Some(Asserted::Text(text))
}

/// Lower-cased with whitespace collapsed, for finding a pick's words in its utterance.
fn loose(text: &str) -> String {
    text.to_lowercase().split_whitespace().collect::<Vec<_>>().join(" ")
}
