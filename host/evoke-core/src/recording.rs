//! A recording: an adapter's declaration and its answers, keyed by utterance identity and
//! question id. Reading it is pure; answering from it is the `replay` adapter's.

use crate::adapter::{Gate, Limits, Raw};
use crate::diag::{Problem, Reading};
use crate::doc::{Doc, Entry, KeyPath, Sink, TableReader, number_of};
use crate::identity::identity;
use std::collections::BTreeMap;
use toml::de::DeValue;

#[derive(Debug, Clone, PartialEq)]
pub struct Recording {
    pub id: String,
    pub gate: Option<Gate>,
    pub limits: Limits,
    pub plan: Option<String>,
    /// By utterance identity: per question, a number per key.
    pub answers: BTreeMap<String, Raw>,
}

impl Recording {
    pub fn answers_for(&self, input: &str) -> Option<&Raw> {
        self.answers.get(&identity(input))
    }
}

pub fn read_recording(file: &str, text: &str) -> Reading<Recording> {
    let doc = Doc::new(file, text);
    let root = match doc.parse() {
        Ok(root) => root,
        Err(fault) => return Reading { value: None, diagnostics: vec![fault] },
    };
    let mut sink = Sink::new(&doc);
    let mut top = TableReader::new(root.get_ref(), KeyPath::root(), 0..0);
    let id = match top.get("id") {
        Some(e) => e.nonempty_text(&mut sink, false),
        None => {
            top.missing(&mut sink, "id", "name the adapter the answers came from: id = \"replay\"");
            None
        }
    };
    let gate = top.get("gate").map(|e| read_gate(&e, &mut sink));
    let limits = top.get("limits").map(|e| read_limits(&e, &mut sink));
    let plan = top.get("plan").and_then(|e| e.nonempty_text(&mut sink, false));
    let mut answers = BTreeMap::new();
    if let Some(entry) = top.get("answers")
        && let Some(mut table) = entry.table(&mut sink)
    {
        for utterance in table.entries() {
            if let Some(raw) = read_raw(&utterance, &mut sink) {
                let id = identity(utterance.name);
                if answers.insert(id, raw).is_some() {
                    sink.error(
                        Problem::DuplicateUtterance,
                        &utterance.path,
                        &utterance.key_span,
                        format!("\"{}\" is recorded twice under identity", utterance.name),
                        "keep one of the two",
                    );
                }
            }
        }
    }
    top.finish(&mut sink);
    let failed = sink.has_errors();
    let value = match (failed, id) {
        (false, Some(id)) => {
            Some(Recording { id, gate: gate.flatten(), limits: limits.flatten().unwrap_or_default(), plan, answers })
        }
        _ => None,
    };
    Reading { value, diagnostics: sink.finish() }
}

fn read_raw(entry: &Entry, sink: &mut Sink) -> Option<Raw> {
    let mut questions = entry.table(sink)?;
    let mut raw = Raw::new();
    for question in questions.entries() {
        let Some(mut keys) = question.table(sink) else { continue };
        let mut distribution = BTreeMap::new();
        for key in keys.entries() {
            // A non-number is kept as NaN so that validation refuses it as a fault at decision time,
            // exactly as a live engine's malformed answer would be.
            let p = number_of(key.value.get_ref()).unwrap_or(match key.value.get_ref() {
                DeValue::Float(f) if f.as_str().contains("nan") => f64::NAN,
                DeValue::Float(f) if f.as_str().contains("inf") => f64::INFINITY,
                _ => f64::NAN,
            });
            distribution.insert(key.name.to_string(), p);
        }
        raw.insert(question.name.to_string(), distribution);
    }
    Some(raw)
}

fn read_gate(entry: &Entry, sink: &mut Sink) -> Option<Gate> {
    let mut table = entry.table(sink)?;
    let bar = |name: &str, table: &mut TableReader, sink: &mut Sink| table.get(name)?.probability(sink);
    let route = bar("route", &mut table, sink);
    let fits = bar("fits", &mut table, sink);
    let read = bar("read", &mut table, sink);
    let write = bar("write", &mut table, sink);
    for (name, value) in [("route", route), ("read", read), ("write", write)] {
        if value.is_none() && !sink.has_errors() {
            table.missing(sink, name, "declare every bar: route, read and write (fits is optional)");
        }
    }
    table.finish(sink);
    let gate = Gate { route: route?, fits, read: read?, write: write? };
    if let Err(crate::gate::BarError::ReadOverWrite { .. }) = crate::gate::check_bars(&gate) {
        sink.error(
            Problem::BadRange,
            &entry.path,
            &entry.key_span,
            "the `read` bar exceeds the `write` bar".into(),
            "read never exceeds write: lower `read` or raise `write`",
        );
        return None;
    }
    Some(gate)
}

fn read_limits(entry: &Entry, sink: &mut Sink) -> Option<Limits> {
    let mut table = entry.table(sink)?;
    let count = |name: &str, table: &mut TableReader, sink: &mut Sink| -> Option<usize> {
        let e = table.get(name)?;
        match e.value.get_ref() {
            DeValue::Integer(_) => number_of(e.value.get_ref()).filter(|n| *n >= 1.0).map(|n| n as usize),
            _ => {
                e.wrong_type(sink, "a positive integer", "write a whole number");
                None
            }
        }
    };
    let options = count("options", &mut table, sink);
    let tokens = count("tokens", &mut table, sink);
    table.finish(sink);
    Some(Limits { options, tokens })
}

/// A recording read lazily: its declaration (id, gate, limits, plan) is read at load, and each
/// `[answers."…"]` table only when a sentence of its identity is asked for. Loading scans the text once
/// for table headers and keeps each answers table's byte range by identity, so a recording of many
/// answers costs one scan and one small parse to answer one sentence.
///
/// What fails when: a broken declaration, a header the scan cannot read, or two tables of one identity
/// refuse the recording at load, as [`read_recording`] does. A table that is not valid is refused when
/// it is asked for, with the file and line of the fault, and the decision fails closed; the other tables
/// still answer. A recording whose answers are not written as one `[answers."…"]` table per sentence
/// (an `[answers]` table, dotted keys, deeper headers) is read whole at load instead, like
/// [`read_recording`].
#[derive(Debug)]
pub struct LazyRecording {
    pub id: String,
    pub gate: Option<Gate>,
    pub limits: Limits,
    pub plan: Option<String>,
    file: String,
    text: String,
    answers: Answers,
    /// Tables already read, by identity: a filter asks for the same sentence many times.
    read: std::sync::Mutex<std::collections::HashMap<String, Raw>>,
}

#[derive(Debug)]
enum Answers {
    /// By utterance identity: where its table lies in the text.
    Indexed(std::collections::HashMap<String, Table>),
    /// Read whole at load.
    Read(BTreeMap<String, Raw>),
}

/// One `[answers."…"]` table: its bytes, from the header line to the next header, and the header's line.
#[derive(Debug, Clone)]
struct Table {
    bytes: std::ops::Range<usize>,
    line: usize,
}

impl LazyRecording {
    /// The recorded answers for `input`'s identity: `Ok(None)` when it holds none, and the table's
    /// diagnostics when its table is not valid.
    pub fn answers_for(&self, input: &str) -> Result<Option<Raw>, Vec<crate::diag::Diagnostic>> {
        self.with_answers(input, |raw| raw.cloned())
    }

    /// `answer` applied to the recorded answers for `input`'s identity (`None` when it holds none), reading
    /// the sentence's table first if it was not read yet: the table's diagnostics when it is not valid.
    pub fn with_answers<T>(
        &self,
        input: &str,
        answer: impl FnOnce(Option<&Raw>) -> T,
    ) -> Result<T, Vec<crate::diag::Diagnostic>> {
        let id = identity(input);
        match &self.answers {
            Answers::Read(answers) => Ok(answer(answers.get(&id))),
            Answers::Indexed(tables) => {
                let Some(table) = tables.get(&id) else { return Ok(answer(None)) };
                let mut read = self.read.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(raw) = read.get(&id) {
                    return Ok(answer(Some(raw)));
                }
                let raw = self.read_table(table)?;
                Ok(answer(Some(&*read.entry(id).or_insert(raw))))
            }
        }
    }

    /// As [`Self::with_answers`], but only when no table must be read for it (the recording was read whole,
    /// the sentence holds no table, or its table was read before): `None` when one must.
    pub fn with_answers_in_memory<T>(&self, input: &str, answer: impl FnOnce(Option<&Raw>) -> T) -> Option<T> {
        let id = identity(input);
        match &self.answers {
            Answers::Read(answers) => Some(answer(answers.get(&id))),
            Answers::Indexed(tables) if !tables.contains_key(&id) => Some(answer(None)),
            Answers::Indexed(_) => {
                let read = self.read.lock().unwrap_or_else(|e| e.into_inner());
                read.get(&id).map(|raw| answer(Some(raw)))
            }
        }
    }

    /// How many sentences the recording answers.
    pub fn len(&self) -> usize {
        match &self.answers {
            Answers::Read(answers) => answers.len(),
            Answers::Indexed(tables) => tables.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Parses one table on its own, placed at its own line, so a diagnostic names the line in the file.
    fn read_table(&self, table: &Table) -> Result<Raw, Vec<crate::diag::Diagnostic>> {
        let mut text = "\n".repeat(table.line - 1);
        text.push_str(&self.text[table.bytes.clone()]);
        let doc = Doc::new(&self.file, &text);
        let root = doc.parse().map_err(|fault| vec![fault])?;
        let mut sink = Sink::new(&doc);
        let mut top = TableReader::new(root.get_ref(), KeyPath::root(), 0..0);
        let mut raw = None;
        if let Some(mut answers) = top.get("answers").and_then(|e| e.table(&mut sink)) {
            for utterance in answers.entries() {
                raw = read_raw(&utterance, &mut sink);
            }
        }
        top.finish(&mut sink);
        match raw {
            Some(raw) if !sink.has_errors() => Ok(raw),
            _ => Err(sink.finish()),
        }
    }
}

impl From<Recording> for LazyRecording {
    /// A recording already read whole.
    fn from(r: Recording) -> Self {
        let answers = Answers::Read(r.answers);
        LazyRecording {
            id: r.id,
            gate: r.gate,
            limits: r.limits,
            plan: r.plan,
            file: String::new(),
            text: String::new(),
            answers,
            read: Default::default(),
        }
    }
}

/// Reads a recording lazily; see [`LazyRecording`].
pub fn read_recording_lazy(file: &str, text: &str) -> Reading<LazyRecording> {
    let Some(scan) = scan(text) else { return read_whole(file, text) };
    // The declaration: the text with every answers table blanked, line feeds kept so places stay true.
    let mut head = String::with_capacity(text.len());
    let mut at = 0;
    for (_, table) in &scan {
        head.push_str(&text[at..table.bytes.start]);
        head.extend(text[table.bytes.clone()].bytes().filter(|b| *b == b'\n').map(|_| '\n'));
        at = table.bytes.end;
    }
    head.push_str(&text[at..]);
    let reading = read_recording(file, &head);
    let Some(declared) = reading.value else { return Reading { value: None, diagnostics: reading.diagnostics } };
    if !declared.answers.is_empty() {
        return read_whole(file, text);
    }
    let doc = Doc::new(file, text);
    let mut tables = std::collections::HashMap::with_capacity(scan.len());
    let mut diagnostics = reading.diagnostics;
    for (utterance, table) in scan {
        let start = table.bytes.start;
        if tables.insert(identity(&utterance), table).is_some() {
            diagnostics.push(crate::diag::Diagnostic {
                severity: crate::diag::Severity::Error,
                problem: Problem::DuplicateUtterance,
                file: file.to_string(),
                place: doc.place(&(start..start + 1)),
                key: KeyPath::root().child("answers").child(&utterance).to_string(),
                message: format!("\"{utterance}\" is recorded twice under identity"),
                fix: Some("keep one of the two".into()),
            });
        }
    }
    if diagnostics.iter().any(|d| d.severity == crate::diag::Severity::Error) {
        return Reading { value: None, diagnostics };
    }
    let value = LazyRecording {
        id: declared.id,
        gate: declared.gate,
        limits: declared.limits,
        plan: declared.plan,
        file: file.to_string(),
        text: text.to_string(),
        answers: Answers::Indexed(tables),
        read: Default::default(),
    };
    Reading { value: Some(value), diagnostics }
}

fn read_whole(file: &str, text: &str) -> Reading<LazyRecording> {
    let reading = read_recording(file, text);
    Reading { value: reading.value.map(LazyRecording::from), diagnostics: reading.diagnostics }
}

/// Finds every `[answers."…"]` table: its utterance, its bytes and its header's line. `None` when the
/// text holds a shape the scan does not index (a header it cannot read, an array of tables, an `[answers]`
/// table or a deeper one), so the recording is read whole.
fn scan(text: &str) -> Option<Vec<(String, Table)>> {
    let bytes = text.as_bytes();
    let mut tables: Vec<(String, Table)> = Vec::new();
    // The table being scanned, if it is an answers table: its utterance, start and line.
    let mut open: Option<(String, usize, usize)> = None;
    let (mut at, mut line, mut depth) = (0usize, 1usize, 0usize);
    let close = |open: &mut Option<(String, usize, usize)>, tables: &mut Vec<(String, Table)>, end: usize| {
        if let Some((utterance, start, line)) = open.take() {
            tables.push((utterance, Table { bytes: start..end, line }));
        }
    };
    while at < bytes.len() {
        // At a line's start: a header, when no value is open.
        let start = at;
        while at < bytes.len() && matches!(bytes[at], b' ' | b'\t') {
            at += 1;
        }
        if depth == 0 && bytes.get(at) == Some(&b'[') {
            close(&mut open, &mut tables, start);
            let (path, after) = header(text, at)?;
            match path.first().map(String::as_str) {
                Some("answers") if path.len() == 2 => {
                    open = Some((path[1].clone(), start, line));
                }
                Some("answers") => return None,
                _ => {}
            }
            at = after;
        }
        // The rest of the line, and any string that runs past it.
        while at < bytes.len() && bytes[at] != b'\n' {
            match bytes[at] {
                b'#' => {
                    while at < bytes.len() && bytes[at] != b'\n' {
                        at += 1;
                    }
                    continue;
                }
                b'"' | b'\'' => {
                    let quote = bytes[at];
                    let triple = bytes[at..].starts_with(&[quote; 3]);
                    at += if triple { 3 } else { 1 };
                    while let Some(&b) = bytes.get(at) {
                        if b == b'\\' && quote == b'"' {
                            if bytes.get(at + 1) == Some(&b'\n') {
                                line += 1;
                            }
                            at += 2;
                            continue;
                        }
                        if b == b'\n' {
                            if !triple {
                                break;
                            }
                            line += 1;
                        }
                        if b == quote && (!triple || bytes[at..].starts_with(&[quote; 3])) {
                            at += if triple { 3 } else { 1 };
                            // A closing triple quote may be followed by one or two more quotes of the text.
                            while triple && bytes.get(at) == Some(&quote) {
                                at += 1;
                            }
                            break;
                        }
                        at += 1;
                    }
                    continue;
                }
                b'[' | b'{' => depth += 1,
                b']' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            }
            at += 1;
        }
        if at < bytes.len() {
            at += 1;
            line += 1;
        }
    }
    close(&mut open, &mut tables, bytes.len());
    Some(tables)
}

/// Reads a table header at `at` (its `[`): its key path and the byte after its `]`. `None` for an array
/// of tables or a header it cannot read.
fn header(text: &str, at: usize) -> Option<(Vec<String>, usize)> {
    let bytes = text.as_bytes();
    let mut i = at + 1;
    if bytes.get(i) == Some(&b'[') {
        return None;
    }
    let mut path = Vec::new();
    loop {
        while matches!(bytes.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        match bytes.get(i)? {
            b'"' => {
                let mut key = String::new();
                i += 1;
                loop {
                    match *bytes.get(i)? {
                        b'"' => break,
                        b'\n' => return None,
                        b'\\' => {
                            let (ch, len) = escape(&text[i + 1..])?;
                            key.push(ch);
                            i += 1 + len;
                        }
                        _ => {
                            let ch = text[i..].chars().next()?;
                            key.push(ch);
                            i += ch.len_utf8();
                        }
                    }
                }
                i += 1;
                path.push(key);
            }
            b'\'' => {
                let end = text[i + 1..].find(['\'', '\n'])? + i + 1;
                if bytes[end] != b'\'' {
                    return None;
                }
                path.push(text[i + 1..end].to_string());
                i = end + 1;
            }
            _ => {
                let end = text[i..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
                    .map_or(text.len(), |n| n + i);
                if end == i {
                    return None;
                }
                path.push(text[i..end].to_string());
                i = end;
            }
        }
        while matches!(bytes.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        match bytes.get(i)? {
            b'.' => i += 1,
            b']' => return Some((path, i + 1)),
            _ => return None,
        }
    }
}

/// A basic string's escape after its backslash: the character and how many bytes it took.
fn escape(after: &str) -> Option<(char, usize)> {
    let simple = |ch| Some((ch, 1));
    match after.as_bytes().first()? {
        b'"' => simple('"'),
        b'\\' => simple('\\'),
        b'b' => simple('\u{8}'),
        b't' => simple('\t'),
        b'n' => simple('\n'),
        b'f' => simple('\u{c}'),
        b'r' => simple('\r'),
        b'e' => simple('\u{1b}'),
        b'u' => hex_char(after.get(1..5)?).map(|c| (c, 5)),
        b'U' => hex_char(after.get(1..9)?).map(|c| (c, 9)),
        _ => None,
    }
}

fn hex_char(digits: &str) -> Option<char> {
    digits.bytes().all(|b| b.is_ascii_hexdigit()).then_some(())?;
    char::from_u32(u32::from_str_radix(digits, 16).ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRY: &str = include_str!("../../../transcripts/try/recording.toml");
    const RUN: &str = include_str!("../../../transcripts/run/recording.toml");

    fn lazy(text: &str) -> LazyRecording {
        let reading = read_recording_lazy("r.toml", text);
        reading.value.unwrap_or_else(|| panic!("{:?}", reading.diagnostics))
    }

    #[test]
    fn a_lazy_reading_answers_as_the_whole_reading_does() {
        let mut big = String::from("id = \"replay\"\nplan = \"p\"\n[limits]\noptions = 4\n");
        for i in 0..200 {
            big.push_str(&format!(
                "[answers.\"sentence {i}\"]\nroute = {{ r{i} = 0.9, none = 0.1 }}\n\"a.b\" = {{ x = {i} }}\n"
            ));
        }
        big.push_str("[gate]\nroute = 0.5\nread = 0.6\nwrite = 0.8\n");
        for text in [TRY, RUN, big.as_str()] {
            let whole = read_recording("r.toml", text).value.unwrap();
            let lazy = lazy(text);
            assert!(matches!(lazy.answers, Answers::Indexed(_)), "indexed, not read whole");
            assert_eq!(
                (&lazy.id, lazy.gate, lazy.limits, &lazy.plan),
                (&whole.id, whole.gate, whole.limits, &whole.plan)
            );
            assert_eq!(lazy.len(), whole.answers.len());
            for key in whole.answers.keys() {
                assert_eq!(lazy.answers_for(key).unwrap().as_ref(), whole.answers.get(key), "{key}");
            }
            assert_eq!(lazy.answers_for("never recorded").unwrap(), None);
        }
    }

    #[test]
    fn a_broken_table_fails_when_asked_for_and_names_its_line_while_the_others_answer() {
        let text = "id = \"replay\"\n\n[answers.\"good\"]\nroute = { a = 0.9 }\n\n[answers.\"bad\"]\nroute = 0.5\n\n\
                    [answers.\"worse\"]\nroute = { a = \n";
        let recording = lazy(text);
        assert_eq!(recording.answers_for("good").unwrap().unwrap()["route"]["a"], 0.9);
        let faults = recording.answers_for("bad").unwrap_err();
        assert!(faults.iter().any(|d| d.file == "r.toml" && d.place.line == 7), "{faults:?}");
        let faults = recording.answers_for("worse").unwrap_err();
        assert!(faults.iter().any(|d| d.file == "r.toml" && d.place.line == 10), "{faults:?}");
    }

    #[test]
    fn only_the_table_asked_for_is_read_and_a_damaged_one_after_it_never_is() {
        // The last table is cut off in the middle of its value, as a truncated file would be.
        let text = "id = \"replay\"\n[answers.\"good\"]\nroute = { a = 0.9 }\n[answers.\"cut\"]\nroute = { a = 0.";
        let recording = lazy(text);
        assert_eq!(recording.len(), 2);
        assert_eq!(recording.with_answers_in_memory("good", |raw| raw.cloned()), None, "nothing read at load");
        assert_eq!(recording.answers_for("good").unwrap().unwrap()["route"]["a"], 0.9);
        let read = recording.read.lock().unwrap();
        assert_eq!(read.keys().collect::<Vec<_>>(), [&identity("good")], "the damaged table was never parsed");
        drop(read);
        // Asked for, the damaged table fails closed and names its line, every time, and is never kept.
        for _ in 0..2 {
            let faults = recording.answers_for("cut").unwrap_err();
            assert!(faults.iter().any(|d| d.file == "r.toml" && d.place.line == 5), "{faults:?}");
            assert_eq!(recording.with_answers_in_memory("cut", |raw| raw.cloned()), None);
        }
    }

    #[test]
    fn answers_in_memory_are_those_read_before_under_any_variant_of_the_sentence() {
        let recording = lazy("id = \"replay\"\n[answers.\"set a timer\"]\nroute = { a = 0.9 }\n");
        assert_eq!(recording.with_answers_in_memory("set a timer", |raw| raw.is_some()), None, "not read yet");
        assert_eq!(recording.with_answers_in_memory("never recorded", |raw| raw.is_some()), Some(false));
        assert!(recording.answers_for("set a timer").unwrap().is_some());
        assert_eq!(recording.with_answers_in_memory("Set  a timer!", |raw| raw.is_some()), Some(true));
        let whole = LazyRecording::from(
            read_recording("r.toml", "id = \"replay\"\n[answers.\"a\"]\nroute = { x = 1.0 }\n").value.unwrap(),
        );
        assert_eq!(whole.with_answers_in_memory("a", |raw| raw.is_some()), Some(true), "read whole at load");
    }

    #[test]
    fn a_recording_cut_off_in_a_header_or_the_declaration_is_refused_at_load() {
        for text in [
            "id = \"replay\"\n[answers.\"good\"]\nroute = { a = 0.9 }\n[answers.\"set a ti",
            "id = \"replay\"\n[gate]\nroute = 0.5\nread = 0.",
            "id = \"repl",
        ] {
            let reading = read_recording_lazy("r.toml", text);
            assert!(reading.value.is_none(), "{text:?} was taken");
            assert!(
                reading.diagnostics.iter().any(|d| d.severity == crate::diag::Severity::Error && d.file == "r.toml"),
                "{text:?}: {:?}",
                reading.diagnostics
            );
        }
    }

    #[test]
    fn a_sentence_with_no_table_is_answered_none_without_reading_any() {
        let recording = lazy("id = \"replay\"\n[answers.\"a\"]\nroute = { x = 1.0 }\n[answers.\"b\"]\nroute = 1\n");
        assert_eq!(recording.answers_for("c").unwrap(), None);
        assert!(recording.read.lock().unwrap().is_empty());
    }

    #[test]
    fn the_declaration_and_duplicates_are_still_refused_at_load() {
        let broken_gate =
            "id = \"replay\"\n[gate]\nroute = 2.0\nread = 0.5\nwrite = 0.5\n[answers.\"a\"]\nroute = { a = 1.0 }\n";
        assert!(read_recording_lazy("r.toml", broken_gate).value.is_none());
        let no_id = "[answers.\"a\"]\nroute = { a = 1.0 }\n";
        assert!(read_recording_lazy("r.toml", no_id).value.is_none());
        let twice = "id = \"replay\"\n[answers.\"set a timer\"]\nroute = { a = 1.0 }\n[answers.\"set  a timer\"]\nroute = { a = 1.0 }\n";
        let reading = read_recording_lazy("r.toml", twice);
        assert!(reading.value.is_none());
        let fault = &reading.diagnostics[0];
        assert_eq!((fault.problem, fault.place.line), (Problem::DuplicateUtterance, 4), "{fault:?}");
    }

    #[test]
    fn shapes_the_scan_does_not_index_are_read_whole() {
        for text in [
            "id = \"replay\"\n[answers]\n\"a\".route = { x = 1.0 }\n",
            "id = \"replay\"\n[answers.\"a\".route]\nx = 1.0\n",
            "id = \"replay\"\nanswers = { a = { route = { x = 1.0 } } }\n",
        ] {
            let recording = lazy(text);
            assert!(matches!(recording.answers, Answers::Read(_)), "{text}");
            assert_eq!(recording.answers_for("a").unwrap().unwrap()["route"]["x"], 1.0);
        }
    }

    #[test]
    fn a_header_inside_a_string_or_an_escaped_key_does_not_mislead_the_scan() {
        let text = "id = \"replay\"\n[answers.\"z\"]\nroute = { q = 1.0 }\nnote = \"\"\"\n[answers.\"a\"]\nroute = { evil = 1.0 }\n\"\"\"\n\
                    [answers.\"caf\\u00e9 \\\"x\\\"\"] # a comment [answers.\"b\"]\nroute = { good = 1.0 }\n\
                    [answers.'lit.eral']\nroute = [\n[1.0]]\n";
        let recording = lazy(text);
        assert_eq!(recording.len(), 3);
        assert_eq!(recording.answers_for("a").unwrap(), None);
        assert!(recording.answers_for("z").is_err(), "a string is no question");
        assert_eq!(recording.answers_for("café \"x\"").unwrap().unwrap()["route"]["good"], 1.0);
        assert!(recording.answers_for("lit.eral").is_err(), "an array is no distribution");
    }
}
