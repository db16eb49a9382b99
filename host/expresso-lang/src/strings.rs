//! String literals: escapes, and the `{…}` interpolations of a string in expression position.

// A diagnostic is the error here as everywhere in the crate; it is made once per bad string, not per call.
#![allow(clippy::result_large_err)]

use crate::diag::{Code, Diagnostic};
use crate::span::Span;

/// A piece of a string: literal text, or the source range of an interpolated expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Piece {
    Lit(String),
    Interp { start: usize, end: usize },
}

/// Splits a string's raw text (which starts at byte `start` of the source) into pieces.
/// `interpolate` false reads `{` and `}` as themselves: prompts, names, phrases and emoji are plain text.
pub fn pieces(raw: &str, start: usize, interpolate: bool) -> Result<Vec<Piece>, Diagnostic> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut chars = raw.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                let Some((_, e)) = chars.next() else {
                    return Err(bad_escape(start + i, start + i + 1));
                };
                text.push(match e {
                    'n' => '\n',
                    't' => '\t',
                    '\\' => '\\',
                    '"' => '"',
                    '{' => '{',
                    '}' => '}',
                    _ => return Err(bad_escape(start + i, start + i + 1 + e.len_utf8())),
                });
            }
            '{' if interpolate => {
                let close = raw[i + 1..].find('}').map(|j| i + 1 + j);
                let Some(close) = close else {
                    return Err(Diagnostic::new(
                        Code::Parse,
                        Span::new(start + i, start + raw.len()),
                        "unclosed `{` in a string",
                    )
                    .expected("`}` closing the interpolation")
                    .fix("close it with `}`, or write a literal brace as `\\{`"));
                };
                if !text.is_empty() {
                    out.push(Piece::Lit(std::mem::take(&mut text)));
                }
                out.push(Piece::Interp { start: start + i + 1, end: start + close });
                while chars.peek().is_some_and(|(j, _)| *j <= close) {
                    chars.next();
                }
            }
            _ => text.push(c),
        }
    }
    if !text.is_empty() || out.is_empty() {
        out.push(Piece::Lit(text));
    }
    Ok(out)
}

/// The text of a plain string, escapes read.
pub fn plain(raw: &str, start: usize) -> Result<String, Diagnostic> {
    let pieces = pieces(raw, start, false)?;
    Ok(pieces.into_iter().map(|p| if let Piece::Lit(t) = p { t } else { String::new() }).collect())
}

fn bad_escape(start: usize, end: usize) -> Diagnostic {
    Diagnostic::new(Code::Parse, Span::new(start, end), "unknown escape in a string")
        .expected("one of `\\n`, `\\t`, `\\\\`, `\\\"`, `\\{`, `\\}`")
        .fix("write a backslash as `\\\\`")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interpolations_keep_their_source_offsets() {
        // The string `Bug: {.message}!` with its first character at offset 10.
        let got = pieces("Bug: {.message}!", 10, true).unwrap();
        assert_eq!(got, vec![Piece::Lit("Bug: ".into()), Piece::Interp { start: 16, end: 24 }, Piece::Lit("!".into())]);
    }

    #[test]
    fn plain_strings_read_braces_as_text() {
        assert_eq!(plain("a {b} \\\"c\\\"", 0).unwrap(), "a {b} \"c\"");
        assert!(pieces("a {b", 0, true).is_err());
        assert!(plain("\\q", 0).is_err());
    }
}
