//! Reading a TOML file with every key's place kept, so each diagnostic can name its line and column.

use crate::diag::{Diagnostic, Place, Problem, Severity};
use crate::text::{Unclean, check_clean};
use std::fmt;
use std::ops::Range;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// One file's text and where its lines start.
pub(crate) struct Doc<'a> {
    pub file: String,
    text: &'a str,
    line_starts: Vec<usize>,
}

impl<'a> Doc<'a> {
    pub fn new(file: &str, text: &'a str) -> Self {
        let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(at, _)| at + 1)).collect();
        Doc { file: file.to_string(), text, line_starts }
    }

    pub fn place(&self, span: &Range<usize>) -> Place {
        let start = span.start.min(self.text.len());
        let index = self.line_starts.partition_point(|&s| s <= start).saturating_sub(1);
        let line_start = self.line_starts[index];
        let line_end = self.text[line_start..].find('\n').map_or(self.text.len(), |n| line_start + n);
        let source_line = self.text[line_start..line_end].trim_end_matches('\r').to_string();
        let column = self.text.get(line_start..start).map_or(0, |s| s.chars().count()) + 1;
        let end = span.end.clamp(start, line_end);
        let width = self.text.get(start..end).map_or(1, |s| s.chars().count().max(1));
        Place { line: index + 1, column, source_line, width }
    }

    /// Parses the whole file; a syntax error becomes a `toml` diagnostic at the place the parser names.
    // The one diagnostic type of every file read, made once per file: boxing it would buy nothing.
    #[allow(clippy::result_large_err)]
    pub fn parse(&self) -> Result<Spanned<DeTable<'a>>, Diagnostic> {
        DeTable::parse(self.text).map_err(|error| {
            let span = error.span().unwrap_or(0..0);
            let message = error.message().lines().next().unwrap_or("invalid TOML").trim().to_string();
            Diagnostic {
                severity: Severity::Error,
                problem: Problem::Toml,
                file: self.file.clone(),
                place: self.place(&span),
                key: String::new(),
                message: format!("this is not TOML: {message}"),
                fix: Some("correct the TOML syntax at the place shown".into()),
            }
        })
    }
}

/// A dotted key path, shown the way TOML writes it: `examples."kill the lights".state`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct KeyPath(Vec<String>);

impl KeyPath {
    pub fn root() -> Self {
        KeyPath(Vec::new())
    }

    pub fn child(&self, segment: &str) -> Self {
        let mut segments = self.0.clone();
        segments.push(segment.to_string());
        KeyPath(segments)
    }
}

impl fmt::Display for KeyPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, segment) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            let bare =
                !segment.is_empty() && segment.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            if bare {
                f.write_str(segment)?;
            } else {
                write!(f, "\"{}\"", segment.replace('\\', "\\\\").replace('"', "\\\""))?;
            }
        }
        Ok(())
    }
}

/// Collects the diagnostics of one file while it is read; reading goes on after an error so that one
/// pass reports everything.
pub(crate) struct Sink<'d, 'a> {
    pub doc: &'d Doc<'a>,
    pub diagnostics: Vec<Diagnostic>,
}

impl<'d, 'a> Sink<'d, 'a> {
    pub fn new(doc: &'d Doc<'a>) -> Self {
        Sink { doc, diagnostics: Vec::new() }
    }

    pub fn error(&mut self, problem: Problem, key: &KeyPath, span: &Range<usize>, message: String, fix: &str) {
        self.push(Severity::Error, problem, key, span, message, fix);
    }

    pub fn warn(&mut self, problem: Problem, key: &KeyPath, span: &Range<usize>, message: String, fix: &str) {
        self.push(Severity::Warning, problem, key, span, message, fix);
    }

    fn push(
        &mut self,
        severity: Severity,
        problem: Problem,
        key: &KeyPath,
        span: &Range<usize>,
        message: String,
        fix: &str,
    ) {
        self.diagnostics.push(Diagnostic {
            severity,
            problem,
            file: self.doc.file.clone(),
            place: self.doc.place(span),
            key: key.to_string(),
            message,
            fix: (!fix.is_empty()).then(|| fix.to_string()),
        });
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The diagnostics in file order, errors before warnings at the same place.
    pub fn finish(mut self) -> Vec<Diagnostic> {
        self.diagnostics.sort_by_key(|d| (d.place.line, d.place.column, d.severity));
        self.diagnostics
    }

    /// Refuses text that breaks the text rules (docs/format.md), naming the character and where it is.
    pub fn check_clean(
        &mut self,
        text: &str,
        allow_line_feed: bool,
        key: &KeyPath,
        span: &Range<usize>,
        what: &str,
    ) -> bool {
        match check_clean(text, allow_line_feed) {
            Ok(()) => true,
            Err(Unclean::Control { at, ch }) => {
                let separator = crate::text::is_line_separator(ch);
                let fix = if ch == '\n' || separator {
                    "keep it on one line; only `description` may hold line feeds"
                } else {
                    "remove the control character; write the text plainly"
                };
                let said = if separator { "line separator" } else { "control character" };
                self.error(
                    Problem::ControlCharacter,
                    key,
                    span,
                    format!("{what} holds the {said} U+{:04X} at character {}", ch as u32, at + 1),
                    fix,
                );
                false
            }
            Err(Unclean::Bidi { at, ch }) => {
                self.error(
                    Problem::BidiControl,
                    key,
                    span,
                    format!(
                        "{what} holds the bidi control U+{:04X} at character {}, which could repaint a terminal",
                        ch as u32,
                        at + 1
                    ),
                    "remove the bidi control character",
                );
                false
            }
        }
    }
}

/// One key of a table and its value.
pub(crate) struct Entry<'t, 'i> {
    pub name: &'t str,
    pub path: KeyPath,
    pub key_span: Range<usize>,
    pub value: &'t Spanned<DeValue<'i>>,
}

pub(crate) fn kind_of(value: &DeValue<'_>) -> &'static str {
    match value {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date-time",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

impl<'t, 'i> Entry<'t, 'i> {
    pub fn wrong_type(&self, sink: &mut Sink, expected: &str, fix: &str) {
        sink.error(
            Problem::WrongType,
            &self.path,
            &self.key_span,
            format!("`{}` must be {expected}, not {}", self.path, kind_of(self.value.get_ref())),
            fix,
        );
    }

    pub fn string(&self, sink: &mut Sink, fix: &str) -> Option<&'t str> {
        match self.value.get_ref() {
            DeValue::String(s) => Some(s.as_ref()),
            _ => {
                self.wrong_type(sink, "a string", fix);
                None
            }
        }
    }

    /// A string that must be clean text; `allow_line_feed` holds only for `description`.
    pub fn text(&self, sink: &mut Sink, allow_line_feed: bool) -> Option<String> {
        let s = self.string(sink, "write it as a quoted string")?;
        let what = format!("`{}`", self.path);
        sink.check_clean(s, allow_line_feed, &self.path, &self.key_span, &what).then(|| s.to_string())
    }

    /// Clean text that must not be empty.
    pub fn nonempty_text(&self, sink: &mut Sink, allow_line_feed: bool) -> Option<String> {
        let s = self.text(sink, allow_line_feed)?;
        if s.trim().is_empty() {
            sink.error(
                Problem::Empty,
                &self.path,
                &self.key_span,
                format!("`{}` is empty", self.path),
                "write the text this key needs",
            );
            return None;
        }
        Some(s)
    }

    pub fn bool(&self, sink: &mut Sink) -> Option<bool> {
        match self.value.get_ref() {
            DeValue::Boolean(b) => Some(*b),
            _ => {
                self.wrong_type(sink, "true or false", "write `true` or `false`");
                None
            }
        }
    }

    /// A number from 0 to 1: a bar or an answer's probability.
    pub fn probability(&self, sink: &mut Sink) -> Option<f64> {
        let n = number_of(self.value.get_ref()).filter(|n| (0.0..=1.0).contains(n));
        if n.is_none() {
            sink.error(
                Problem::WrongType,
                &self.path,
                &self.key_span,
                format!("`{}` must be a probability", self.path),
                "write a number from 0 to 1",
            );
        }
        n
    }

    /// An array of clean one-line strings.
    pub fn texts(&self, sink: &mut Sink) -> Option<Vec<String>> {
        let DeValue::Array(items) = self.value.get_ref() else {
            self.wrong_type(sink, "an array of strings", "write a list: [\"…\", \"…\"]");
            return None;
        };
        let mut out = Vec::with_capacity(items.len());
        let mut ok = true;
        for item in items.iter() {
            match item.get_ref() {
                DeValue::String(s) => {
                    let what = format!("an entry of `{}`", self.path);
                    ok &= sink.check_clean(s, false, &self.path, &self.key_span, &what);
                    out.push(s.to_string());
                }
                other => {
                    sink.error(
                        Problem::WrongType,
                        &self.path,
                        &self.key_span,
                        format!("every entry of `{}` must be a string, not {}", self.path, kind_of(other)),
                        "quote each entry",
                    );
                    ok = false;
                }
            }
        }
        ok.then_some(out)
    }

    pub fn table(&self, sink: &mut Sink) -> Option<TableReader<'t, 'i>> {
        match self.value.get_ref() {
            DeValue::Table(table) => Some(TableReader::new(table, self.path.clone(), self.key_span.clone())),
            _ => {
                self.wrong_type(sink, "a table", "write it as a table: [section] or { key = … }");
                None
            }
        }
    }

    /// Checks the key itself (an option key, an utterance, a word) as clean one-line text.
    pub fn check_key_clean(&self, sink: &mut Sink, what: &str) -> bool {
        sink.check_clean(self.name, false, &self.path, &self.key_span, what)
    }
}

pub(crate) fn number_of(value: &DeValue<'_>) -> Option<f64> {
    match value {
        DeValue::Integer(i) => {
            let digits = i.as_str().replace('_', "");
            let digits = digits.trim_start_matches('+');
            match i.radix() {
                10 => digits.parse::<i64>().ok().map(|n| n as f64),
                radix => {
                    let body = digits.get(2..)?;
                    i64::from_str_radix(body, radix).ok().map(|n| n as f64)
                }
            }
        }
        DeValue::Float(f) => f.as_str().replace('_', "").parse::<f64>().ok().filter(|n| n.is_finite()),
        _ => None,
    }
}

/// A table being read. It remembers which keys were taken, so that the others can be reported as unknown.
pub(crate) struct TableReader<'t, 'i> {
    table: &'t DeTable<'i>,
    pub path: KeyPath,
    pub span: Range<usize>,
    taken: Vec<&'t str>,
}

impl<'t, 'i> TableReader<'t, 'i> {
    pub fn new(table: &'t DeTable<'i>, path: KeyPath, span: Range<usize>) -> Self {
        TableReader { table, path, span, taken: Vec::new() }
    }

    pub fn get(&mut self, key: &str) -> Option<Entry<'t, 'i>> {
        let (k, value) = self.table.get_key_value(key)?;
        self.taken.push(k.get_ref().as_ref());
        Some(Entry { name: k.get_ref().as_ref(), path: self.path.child(key), key_span: k.span(), value })
    }

    /// Every entry, in file order, for tables whose keys are data (options, records, words).
    pub fn entries(&mut self) -> Vec<Entry<'t, 'i>> {
        let table: &'t DeTable<'i> = self.table;
        table
            .iter()
            .map(|(k, value)| {
                let name: &'t str = k.get_ref().as_ref();
                self.taken.push(name);
                Entry { name, path: self.path.child(name), key_span: k.span(), value }
            })
            .collect()
    }

    /// Reports a required key that is absent, at the key naming this table.
    pub fn missing(&self, sink: &mut Sink, key: &str, fix: &str) {
        let where_ = if self.path == KeyPath::root() { "the file".to_string() } else { format!("[{}]", self.path) };
        sink.error(Problem::MissingKey, &self.path.child(key), &self.span, format!("{where_} has no `{key}`"), fix);
    }

    /// Warns about every key not taken: unknown keys are reported, never fatal.
    pub fn finish(self, sink: &mut Sink) {
        for (k, _) in self.table.iter() {
            let name: &str = k.get_ref().as_ref();
            if !self.taken.contains(&name) {
                let path = self.path.child(name);
                sink.warn(
                    Problem::UnknownKey,
                    &path,
                    &k.span(),
                    format!("`{path}` is not a key evoke knows; it is ignored"),
                    "check its spelling against the manifest reference, or remove it",
                );
            }
        }
    }
}
