//! Vocabularies: `vocab/<name>.toml`, a closed list of the user's words. The meaning is what the
//! classifier reads; the value, when set, is what the body receives instead of the word.

use crate::diag::{Problem, Reading};
use crate::doc::{Doc, KeyPath, Sink, TableReader};
use crate::identity::identity;
use crate::text::{is_name, is_sentinel};
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use toml::de::DeValue;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub word: String,
    pub what: String,
    pub value: Option<String>,
}

impl Word {
    /// What a body receives: the value when the user set one, else the word.
    pub fn delivered(&self) -> &str {
        self.value.as_deref().unwrap_or(&self.word)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vocabulary {
    pub name: String,
    pub words: Vec<Word>,
}

impl Vocabulary {
    /// The word a person typed or a classifier answered, matched under identity.
    pub fn find(&self, word: &str) -> Option<&Word> {
        let wanted = identity(word);
        self.words.iter().find(|w| identity(&w.word) == wanted)
    }

    pub fn to_canonical_json(&self) -> Value {
        let words: Map<String, Value> = self
            .words
            .iter()
            .map(|w| {
                let mut entry = Map::new();
                entry.insert("what".into(), json!(w.what));
                if let Some(value) = &w.value {
                    entry.insert("value".into(), json!(value));
                }
                (w.word.clone(), Value::Object(entry))
            })
            .collect();
        json!({ "words": words })
    }
}

/// Reads `vocab/<name>.toml`. `file` is the path shown in diagnostics.
pub fn read_vocab(name: &str, file: &str, text: &str) -> Reading<Vocabulary> {
    let doc = Doc::new(file, text);
    let mut sink = Sink::new(&doc);
    if !is_name(name) {
        sink.error(
            Problem::BadName,
            &KeyPath::root(),
            &(0..0),
            format!("\"{name}\" is not a vocabulary name"),
            "name the file [a-z][a-z0-9_]*.toml, like vocab/rooms.toml",
        );
        return Reading { value: None, diagnostics: sink.finish() };
    }
    let root = match doc.parse() {
        Ok(root) => root,
        Err(fault) => return Reading { value: None, diagnostics: vec![fault] },
    };
    let mut table = TableReader::new(root.get_ref(), KeyPath::root(), 0..0);
    let mut words = Vec::new();
    let mut seen: HashMap<String, String> = HashMap::new();
    for entry in table.entries() {
        let word = entry.name;
        if !entry.check_key_clean(&mut sink, "the word") {
            continue;
        }
        if word.trim().is_empty() {
            sink.error(Problem::Empty, &entry.path, &entry.key_span, "a word is empty".into(), "write the word");
            continue;
        }
        if word.trim() != word {
            sink.error(
                Problem::Untrimmed,
                &entry.path,
                &entry.key_span,
                format!("the word \"{word}\" has spaces at its ends"),
                &format!("write it as \"{}\"", word.trim()),
            );
            continue;
        }
        if is_sentinel(word) {
            sink.error(
                Problem::ReservedKey,
                &entry.path,
                &entry.key_span,
                format!("\"{word}\" is reserved: the classifier answers with it"),
                "choose another word",
            );
            continue;
        }
        let id = identity(word);
        if let Some(first) = seen.get(&id) {
            sink.error(
                Problem::DuplicateWord,
                &entry.path,
                &entry.key_span,
                format!("\"{word}\" is the same word as \"{first}\""),
                "keep one of the two",
            );
            continue;
        }
        seen.insert(id, word.to_string());
        let read = match entry.value.get_ref() {
            DeValue::String(_) => entry.nonempty_text(&mut sink, false).map(|what| (what, None)),
            DeValue::Table(_) => entry.table(&mut sink).and_then(|mut fields| {
                let what = match fields.get("what") {
                    Some(e) => e.nonempty_text(&mut sink, false),
                    None => {
                        fields.missing(&mut sink, "what", "say what the word means: { what = \"…\", value = \"…\" }");
                        None
                    }
                };
                let value = fields.get("value").map_or(Some(None), |e| e.nonempty_text(&mut sink, false).map(Some));
                fields.finish(&mut sink);
                Some((what?, value?))
            }),
            _ => {
                entry.wrong_type(
                    &mut sink,
                    "a meaning or a table",
                    "write `word = \"meaning\"` or `word = { what = \"meaning\", value = \"…\" }`",
                );
                None
            }
        };
        if let Some((what, value)) = read {
            words.push(Word { word: word.to_string(), what, value });
        }
    }
    let failed = sink.has_errors();
    let value = (!failed).then(|| Vocabulary { name: name.to_string(), words });
    Reading { value, diagnostics: sink.finish() }
}
