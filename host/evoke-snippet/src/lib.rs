//! Diagnostics in rustc's shape, drawn by rustc's own renderer (annotate-snippets, plain): a headline, the
//! place, the source line with a caret, then one `= name: text` line a note.
//!
//! ```text
//! error[bad_effect]: "sometimes" is not an effect
//!  --> reflexes/lamp/reflex.toml:3:1
//!   |
//! 3 | effect = "sometimes"
//!   | ^^^^^^
//!   = key: effect
//!   = fix: write `read`, `write` or `destructive`
//! ```
//!
//! Every string given here is shown as it is: the caller escapes what came from outside first, so the text
//! a diagnostic reports cannot repaint the terminal that shows it.

use annotate_snippets::{AnnotationKind, Level, Renderer, Snippet};
use std::fmt::Write as _;

/// One diagnostic, every string already escaped for a terminal.
#[derive(Debug, Clone, Default)]
pub struct Drawn<'a> {
    /// An error, or else a warning.
    pub error: bool,
    pub code: &'a str,
    pub message: &'a str,
    pub file: &'a str,
    /// The 1-based line and column in the file (columns count characters).
    pub line: usize,
    pub column: usize,
    /// The source line as shown, cut where the caret starts and ends.
    pub before: &'a str,
    pub marked: &'a str,
    pub after: &'a str,
    /// The notes under the snippet, in order: (`key`, `args.room`) reads `= key: args.room`.
    pub notes: &'a [(&'a str, &'a str)],
}

impl Drawn<'_> {
    pub fn render(&self) -> String {
        let level = if self.error { Level::ERROR } else { Level::WARNING };
        let shown = format!("{}{}{}", self.before, self.marked, self.after);
        let caret = self.before.len()..self.before.len() + self.marked.len();
        let notes = self.notes.iter().map(|&(name, text)| Level::NOTE.with_name(name).message(text));
        let report = [level
            .primary_title(self.message)
            .id(self.code)
            .element(
                Snippet::source(shown.as_str())
                    .line_start(self.line.max(1))
                    .path(self.file)
                    .annotation(AnnotationKind::Primary.span(caret)),
            )
            .elements(notes)];
        let rendered = Renderer::plain().term_width(whole_line(&shown)).render(&report);
        in_shape(&rendered, self.column.max(1))
    }
}

/// A terminal width that shows `text` whole: the renderer would cut a wider line, and the caller has
/// already chosen what of the line to show. A character takes at most four columns (a tab).
fn whole_line(text: &str) -> usize {
    text.chars().count().saturating_mul(4).saturating_add(32)
}

/// The renderer's text in the shape the transcripts pin, which differs from rustc's in two details: no
/// blank gutter line between the caret and the notes, and the `-->` line names the column in the file (the
/// renderer counts it in the shown line, which an escape or a window around the caret shifts).
fn in_shape(rendered: &str, column: usize) -> String {
    let lines: Vec<&str> = rendered.lines().collect();
    let first_note = lines.iter().position(|l| l.trim_start().starts_with("= "));
    let mut out = String::with_capacity(rendered.len() + 8);
    let mut header_seen = false;
    for (at, text) in lines.iter().enumerate() {
        if first_note == Some(at + 1) && text.trim() == "|" {
            continue;
        }
        match text.rsplit_once(':') {
            Some((place, _)) if !header_seen && text.trim_start().starts_with("--> ") => {
                header_seen = true;
                let _ = writeln!(out, "{place}:{column}");
            }
            _ => {
                out.push_str(text);
                out.push('\n');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_rustc_shape_without_the_blank_line_before_the_notes() {
        let drawn = Drawn {
            error: true,
            code: "E_GRANT",
            message: "`say` needs `message.send`",
            file: "a.ex",
            line: 2,
            column: 16,
            before: "  on message { ",
            marked: "say 1",
            after: " }",
            notes: &[("fix", "add `message.send` to `grants { … }`")],
        };
        assert_eq!(
            drawn.render(),
            "error[E_GRANT]: `say` needs `message.send`\n --> a.ex:2:16\n  |\n2 |   on message { say 1 }\n  |                ^^^^^\n  = fix: add `message.send` to `grants { … }`\n"
        );
    }

    #[test]
    fn the_header_names_the_file_column_not_the_shown_one() {
        let drawn = Drawn {
            code: "x",
            message: "m",
            file: "c:/f",
            line: 100,
            column: 400,
            before: "…ab",
            marked: "c",
            ..Drawn::default()
        };
        assert_eq!(drawn.render(), "warning[x]: m\n   --> c:/f:100:400\n    |\n100 | …abc\n    |    ^\n");
    }

    #[test]
    fn an_empty_line_is_shown_with_a_caret() {
        let drawn = Drawn {
            error: true,
            code: "empty",
            message: "nothing here",
            file: "f",
            line: 1,
            column: 1,
            ..Drawn::default()
        };
        assert_eq!(drawn.render(), "error[empty]: nothing here\n --> f:1:1\n  |\n1 |\n  | ^\n");
    }

    #[test]
    fn a_long_line_is_shown_whole() {
        let long = "x".repeat(400);
        let drawn =
            Drawn { code: "x", message: "m", file: "f", line: 1, column: 401, before: &long, ..Drawn::default() };
        assert!(drawn.render().contains(&format!("1 | {long}\n")), "{}", drawn.render());
    }
}
