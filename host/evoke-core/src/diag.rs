//! Diagnostics: every refusal and warning names the file, the line and column, the key, and the fix.

use crate::text::escape_outside;
use evoke_snippet::Drawn;
use serde::Serialize;

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
    OptionalTakes => "optional_takes",
    RangeNotAllowed => "range_not_allowed",
    BadRange => "bad_range",
    WasConflict => "was_conflict",
    UnknownPlaceholder => "unknown_placeholder",
    PlaceholderNotRequired => "placeholder_not_required",
    BadPlaceholder => "bad_placeholder",
    ArgvFlag => "argv_flag",
    ArgvTakes => "argv_takes",
    ArgvProgram => "argv_program",
    RunExtension => "run_extension",
    RunPath => "run_path",
    RunMissing => "run_missing",
    CodeKey => "code_key",
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
    BadStep => "bad_step",
    BadWhen => "bad_when",
    NoReflex => "no_reflex",
    MissingArgument => "missing_argument",
    NoField => "no_field",
    MaybeSource => "maybe_source",
    BranchIntoPlan => "branch_into_plan",
    TooDeep => "too_deep",
    TooLong => "too_long",
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

    /// Renders the diagnostic the way rustc does (and with rustc's renderer): a headline, the place, the
    /// source line with a caret, the key and the fix.
    pub fn render(&self) -> String {
        // Every part but the label came from outside (a manifest's keys and values, a file's name), so each
        // passes through the one escaping function before it is drawn: the very text a diagnostic reports
        // cannot repaint it. The source line is escaped in three parts, so the caret stays under the
        // escaped text it points at.
        let source: Vec<char> = self.place.source_line.chars().collect();
        let start = self.place.column.saturating_sub(1).min(source.len());
        let end = (start + self.place.width.max(1)).min(source.len());
        let part = |chars: &[char]| escape_outside(&chars.iter().collect::<String>()).into_owned();
        let (before, marked, after) = (part(&source[..start]), part(&source[start..end]), part(&source[end..]));
        let (message, file, key) =
            (escape_outside(&self.message), escape_outside(&self.file), escape_outside(&self.key));
        let fix = self.fix.as_deref().map(escape_outside);
        let mut notes = Vec::new();
        if !key.is_empty() {
            notes.push(("key", key.as_ref()));
        }
        if let Some(fix) = &fix {
            notes.push(("fix", fix.as_ref()));
        }
        Drawn {
            error: self.is_error(),
            code: self.problem.as_str(),
            message: &message,
            file: &file,
            line: self.place.line,
            column: self.place.column,
            before: &before,
            marked: &marked,
            after: &after,
            notes: &notes,
        }
        .render()
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
    fn renders_like_rustc() {
        let d = Diagnostic {
            severity: Severity::Error,
            problem: Problem::BadEffect,
            file: "reflexes/lamp/reflex.toml".into(),
            place: Place { line: 3, column: 1, source_line: "effect = \"sometimes\"".into(), width: 6 },
            key: "effect".into(),
            message: "\"sometimes\" is not an effect".into(),
            fix: Some("write `read`, `write` or `destructive`".into()),
        };
        assert_eq!(
            d.render(),
            "error[bad_effect]: \"sometimes\" is not an effect\n --> reflexes/lamp/reflex.toml:3:1\n  |\n3 | effect = \"sometimes\"\n  | ^^^^^^\n  = key: effect\n  = fix: write `read`, `write` or `destructive`\n"
        );
    }

    #[test]
    fn an_escape_before_the_caret_keeps_the_file_column_and_moves_the_caret() {
        let d = Diagnostic {
            severity: Severity::Warning,
            problem: Problem::BadValue,
            file: "reflex.toml".into(),
            place: Place { line: 12, column: 5, source_line: "a\u{1B}b = 3".into(), width: 1 },
            key: String::new(),
            message: "bad".into(),
            fix: None,
        };
        assert_eq!(
            d.render(),
            "warning[bad_value]: bad\n  --> reflex.toml:12:5\n   |\n12 | a\\u{1B}b = 3\n   |          ^\n"
        );
    }

    #[test]
    fn an_empty_line_shows_the_caret_where_the_line_is() {
        let d = Diagnostic {
            severity: Severity::Error,
            problem: Problem::Empty,
            file: "reflex.toml".into(),
            place: Place { line: 1, column: 1, source_line: String::new(), width: 1 },
            key: "name".into(),
            message: "the file is empty".into(),
            fix: None,
        };
        assert_eq!(
            d.render(),
            "error[empty]: the file is empty\n --> reflex.toml:1:1\n  |\n1 |\n  | ^\n  = key: name\n"
        );
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
