//! Diagnostics: every refusal and warning names the file, the line and column, the key, and the fix.

use crate::text::escape_outside;
use serde::Serialize;
use std::fmt::Write as _;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
}

/// Declares the problems with their wire names in one place, so the two can never drift apart.
macro_rules! problems {
    ($($variant:ident => $name:literal,)*) => {
        /// What went wrong, as the closed set of fault types the vectors name (vectors/README.md).
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Problem {
            $($variant,)*
        }

        impl Problem {
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Problem::$variant => $name,)*
                }
            }
        }
    };
}

problems! {
    Toml => "toml",
    Unreadable => "unreadable",
    WrongType => "wrong_type",
    MissingKey => "missing_key",
    BadVersion => "bad_version",
    Empty => "empty",
    ControlCharacter => "control_character",
    BidiControl => "bidi_control",
    BadName => "bad_name",
    ReservedWord => "reserved_word",
    ReservedKey => "reserved_key",
    NoSource => "no_source",
    SeveralSources => "several_sources",
    BadPick => "bad_pick",
    BadEffect => "bad_effect",
    OptionalFlag => "optional_flag",
    RangeNotAllowed => "range_not_allowed",
    BadRange => "bad_range",
    WasConflict => "was_conflict",
    UnknownPlaceholder => "unknown_placeholder",
    PlaceholderNotRequired => "placeholder_not_required",
    BadPlaceholder => "bad_placeholder",
    ArgvFlag => "argv_flag",
    ArgvProgram => "argv_program",
    RunExtension => "run_extension",
    RunPath => "run_path",
    RunMissing => "run_missing",
    DuplicateUtterance => "duplicate_utterance",
    UnknownArgument => "unknown_argument",
    BadValue => "bad_value",
    VocabAsserted => "vocab_asserted",
    DuplicateWord => "duplicate_word",
    Untrimmed => "untrimmed",
    ContractKey => "contract_key",
    EffectLoosened => "effect_loosened",
    UnknownOption => "unknown_option",
    BadGrant => "bad_grant",
    UnknownKey => "unknown_key",
    HomeOnly => "home_only",
}

impl Serialize for Problem {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// Where in a file a diagnostic points: 1-based line and column (columns count characters).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Place {
    pub line: usize,
    pub column: usize,
    /// The source line, for the rendered snippet, and how many characters the caret underlines.
    pub source_line: String,
    pub width: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub problem: Problem,
    pub file: String,
    pub place: Place,
    /// The dotted key the diagnostic concerns (`args.state.options.on`); empty for the file as a whole.
    pub key: String,
    pub message: String,
    /// What the author or user does about it, when there is something to do.
    pub fix: Option<String>,
}

/// The part of a diagnostic the conformance vectors pin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fault {
    #[serde(rename = "type")]
    pub problem: Problem,
    pub key: String,
    pub line: usize,
}

impl Diagnostic {
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    pub fn fault(&self) -> Fault {
        Fault { problem: self.problem, key: self.key.clone(), line: self.place.line }
    }

    /// Renders the diagnostic the way rustc does: a headline, the place, the source line with a caret, the
    /// key and the fix.
    pub fn render(&self) -> String {
        let label = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        // Every part but the label came from outside (a manifest's keys and values, a file's name), so each
        // passes through the one escaping function: the very text a diagnostic reports cannot repaint it.
        let message = escape_outside(&self.message);
        let mut out = format!("{label}[{}]: {message}\n", self.problem.as_str());
        let line = self.place.line.max(1);
        let gutter = line.to_string().len();
        let pad = " ".repeat(gutter);
        let _ = writeln!(out, "{pad}--> {}:{}:{}", escape_outside(&self.file), line, self.place.column.max(1));
        if !self.place.source_line.is_empty() {
            let shown = escape_outside(&self.place.source_line);
            let _ = writeln!(out, "{pad} |");
            let _ = writeln!(out, "{line} | {shown}");
            let caret_pad = " ".repeat(self.place.column.saturating_sub(1));
            let carets = "^".repeat(self.place.width.max(1));
            let _ = writeln!(out, "{pad} | {caret_pad}{carets}");
        }
        if !self.key.is_empty() {
            let _ = writeln!(out, "{pad} = key: {}", escape_outside(&self.key));
        }
        if let Some(fix) = &self.fix {
            let _ = writeln!(out, "{pad} = fix: {}", escape_outside(fix));
        }
        out
    }
}

/// The result of reading a file: the value when nothing refused it, and every diagnostic in file order.
#[derive(Debug, Clone)]
pub struct Reading<T> {
    pub value: Option<T>,
    pub diagnostics: Vec<Diagnostic>,
}

impl<T> Reading<T> {
    /// The first error by place, the one a vector pins and a terse report shows.
    pub fn first_error(&self) -> Option<&Diagnostic> {
        self.diagnostics.iter().find(|d| d.is_error())
    }

    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| !d.is_error())
    }

    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Reading<U> {
        Reading { value: self.value.map(f), diagnostics: self.diagnostics }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problem_names_are_snake_case() {
        assert_eq!(Problem::RunMissing.as_str(), "run_missing");
        assert_eq!(Problem::Toml.as_str(), "toml");
    }

    #[test]
    fn rendering_escapes_what_it_shows() {
        let d = Diagnostic {
            severity: Severity::Error,
            problem: Problem::BidiControl,
            file: "reflex.toml".into(),
            place: Place { line: 3, column: 11, source_line: "confirm = \"a\u{202E}b\"".into(), width: 5 },
            key: "confirm".into(),
            message: "`confirm` holds a bidi control".into(),
            fix: Some("remove it".into()),
        };
        let shown = d.render();
        assert!(shown.contains("--> reflex.toml:3:11"));
        assert!(shown.contains("\\u{202E}"));
        assert!(!shown.contains('\u{202E}'));
        assert!(shown.contains("= key: confirm"));
    }

    #[test]
    fn rendering_escapes_an_unknown_key_everywhere_it_is_named() {
        let key = "args.room.x\u{202E}txt.exe\u{1B}[2J";
        let d = Diagnostic {
            severity: Severity::Warning,
            problem: Problem::UnknownKey,
            file: "r\u{1B}]0;pwned\u{7}/reflex.toml".into(),
            place: Place { line: 9, column: 1, source_line: format!("{key} = 1"), width: 3 },
            key: key.into(),
            message: format!("unknown key `{key}`"),
            fix: Some(format!("remove `{key}`")),
        };
        let shown = d.render();
        assert!(!shown.contains('\u{202E}') && !shown.contains('\u{1B}') && !shown.contains('\u{7}'), "{shown:?}");
        assert!(shown.contains("= key: args.room.x\\u{202E}txt.exe\\u{1B}[2J"), "{shown}");
        assert!(shown.contains("r\\u{1B}]0;pwned\\u{7}/reflex.toml:9:1"), "{shown}");
    }
}
