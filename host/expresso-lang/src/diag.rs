//! Diagnostics in the shape rustc prints them, as evoke's do: the code and what is wrong, the file, line
//! and column, the source line with a caret, what was expected, and the fix.

use crate::span::{Span, line_text, position};
use evoke_snippet::Drawn;
use serde::Serialize;
use std::fmt::Write as _;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
}

/// Declares the codes with their wire names in one place, so the two can never drift apart.
macro_rules! codes {
    ($($variant:ident => $name:literal, $severity:ident;)*) => {
        /// What went wrong, as the closed set of codes the vectors name.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Code {
            $($variant,)*
        }

        impl Code {
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                }
            }

            pub fn severity(self) -> Severity {
                match self {
                    $(Code::$variant => Severity::$severity,)*
                }
            }
        }
    };
}

codes! {
    // Parse errors, and the static errors found while parsing.
    Parse => "E_PARSE", Error;
    TooDeep => "E_DEPTH", Error;
    TooLarge => "E_TOO_LARGE", Error;
    LeafSchema => "E_LEAF_SCHEMA", Error;
    MeetingPhase => "E_MEETING_PHASE", Error;
    SilenceDuration => "E_SILENCE_DURATION", Error;
    Regex => "E_REGEX", Error;
    Id => "E_ID", Error;
    // Checker errors.
    Grant => "E_GRANT", Error;
    Ceiling => "E_CEILING", Error;
    DupAgent => "E_DUP_AGENT", Error;
    DupId => "E_DUP_ID", Error;
    Rekey => "E_REKEY", Error;
    Type => "E_TYPE", Error;
    Schedule => "E_SCHEDULE", Error;
    Receipt => "E_RECEIPT", Error;
    // Warnings.
    OverGrant => "W_OVER_GRANT", Warning;
    Removed => "W_REMOVED", Warning;
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    pub code: Code,
    pub message: String,
    pub span: Span,
    /// What the reader expected to find here, when the problem is that something else was found.
    pub expected: Option<String>,
    /// What the author does about it.
    pub fix: Option<String>,
    /// Another place that explains this one (the first declaration of a redeclared leaf).
    pub note: Option<(String, Span)>,
}

impl Diagnostic {
    pub fn new(code: Code, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { code, message: message.into(), span, expected: None, fix: None, note: None }
    }

    pub fn expected(mut self, expected: impl Into<String>) -> Diagnostic {
        self.expected = Some(expected.into());
        self
    }

    pub fn fix(mut self, fix: impl Into<String>) -> Diagnostic {
        self.fix = Some(fix.into());
        self
    }

    pub fn note(mut self, note: impl Into<String>, span: Span) -> Diagnostic {
        self.note = Some((note.into(), span));
        self
    }

    pub fn severity(&self) -> Severity {
        self.code.severity()
    }

    pub fn is_error(&self) -> bool {
        self.severity() == Severity::Error
    }

    /// What the vectors pin: the code and where it starts.
    pub fn fault(&self, source: &str) -> serde_json::Value {
        let at = position(source, self.span.start);
        serde_json::json!({ "code": self.code.as_str(), "line": at.line, "column": at.column })
    }

    /// Renders the diagnostic the way rustc does, and with rustc's renderer.
    pub fn render(&self, file: &str, source: &str) -> String {
        // What came from the program (its file name, its text) is escaped before it is drawn.
        let file = printable(file);
        let at = position(source, self.span.start);
        let shown = shown_line(source, self.span);
        let expected = self.expected.as_deref().map(printable);
        let fix = self.fix.as_deref().map(printable);
        let note = self.note.as_ref().map(|(note, span)| {
            let there = position(source, span.start);
            format!("{} at {file}:{}:{}", printable(note), there.line, there.column)
        });
        let notes: Vec<(&str, &str)> = [("expected", &expected), ("fix", &fix), ("note", &note)]
            .into_iter()
            .filter_map(|(name, text)| Some((name, text.as_deref()?)))
            .collect();
        Drawn {
            error: self.is_error(),
            code: self.code.as_str(),
            message: &printable(&self.message),
            file: &file,
            line: at.line,
            column: at.column,
            before: &shown.before,
            marked: &shown.marked,
            after: &shown.after,
            notes: &notes,
        }
        .render()
    }
}

/// The widest source line shown whole; a longer one is shown as a window around the caret.
const SHOWN_CHARS: usize = 160;

/// The source line as shown, escaped, cut where the caret starts and ends.
struct Shown {
    before: String,
    marked: String,
    after: String,
}

fn shown_line(source: &str, span: Span) -> Shown {
    let at = position(source, span.start);
    let text = line_text(source, span.start);
    let chars: Vec<char> = text.chars().collect();
    // The caret runs to the span's end or the line's end, whichever comes first, at least one wide.
    let end_at = position(source, span.end);
    let end = if end_at.line == at.line { end_at.column } else { chars.len() + 1 };
    let mut width = end.saturating_sub(at.column).max(1);
    let (mut from, mut to) = (0, chars.len());
    if chars.len() > SHOWN_CHARS {
        from = (at.column - 1).saturating_sub(SHOWN_CHARS / 3);
        to = (from + SHOWN_CHARS).min(chars.len());
        width = width.min(to.saturating_sub(at.column - 1)).max(1);
    }
    // Escaped in three parts, so the caret stays under the escaped text it points at.
    let start = (at.column - 1).clamp(from, to);
    let stop = (start + width).min(to);
    let part = |range: std::ops::Range<usize>| printable(&chars[range].iter().collect::<String>());
    Shown {
        before: format!("{}{}", if from > 0 { "…" } else { "" }, part(from..start)),
        marked: part(start..stop),
        after: format!("{}{}", part(stop..to), if to < chars.len() { "…" } else { "" }),
    }
}

/// A source line as it may be shown on a terminal: control and bidi characters escaped, so the text a
/// diagnostic refuses cannot repaint the line that reports it.
pub fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        let bidi =
            matches!(ch, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}');
        if (ch.is_control() && ch != '\t') || bidi {
            let _ = write!(out, "\\u{{{:04X}}}", ch as u32);
        } else {
            out.push(ch);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_like_rustc() {
        let source = "agent \"A\" {\n  on message { say 1 }\n}\n";
        let d = Diagnostic::new(Code::Grant, Span::new(27, 32), "`say` needs `message.send`")
            .fix("add `message.send` to `grants { … }`");
        let text = d.render("a.ex", source);
        assert_eq!(
            text,
            "error[E_GRANT]: `say` needs `message.send`\n --> a.ex:2:16\n  |\n2 |   on message { say 1 }\n  |                ^^^^^\n  = fix: add `message.send` to `grants { … }`\n"
        );
    }

    #[test]
    fn the_caret_stays_under_its_text_after_an_escape() {
        let source = "a\u{7}b c\n";
        let text = Diagnostic::new(Code::Type, Span::new(4, 5), "m").render("t.ex", source);
        assert_eq!(text, "error[E_TYPE]: m\n --> t.ex:1:5\n  |\n1 | a\\u{0007}b c\n  |            ^\n");
    }

    #[test]
    fn codes_carry_their_severity() {
        assert_eq!(Code::OverGrant.severity(), Severity::Warning);
        assert_eq!(Code::Ceiling.as_str(), "E_CEILING");
    }
}
