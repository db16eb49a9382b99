//! The lexer: source text to tokens, each with its span. Keywords are not reserved here; the parser reads
//! a word as a keyword only where the grammar allows one, so `meeting` can be a frame, a span and a phase.

use crate::diag::{Code, Diagnostic};
use crate::span::Span;

#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    Ident(String),
    /// A string's raw text between its quotes, escapes and `{…}` still in place, and the offset of its
    /// first character: the parser splits interpolations out with their own spans.
    Str {
        raw: String,
        start: usize,
    },
    Num(f64),
    /// A duration literal (`5m`, `1d`), in milliseconds.
    Dur(u64),
    /// `#support`, without the `#`.
    Tag(String),
    /// `/…/`, the pattern between the slashes with `\/` read as `/`.
    Regex(String),
    Sym(&'static str),
    Eof,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// The duration units, longest first so `ms` is not read as `m`.
const UNITS: [(&str, u64); 6] =
    [("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000), ("w", 604_800_000)];

/// How a duration reads as text, the inverse of lexing one: a whole number of the largest unit that holds
/// it exactly (`300000` ms is `5m`, `90000` is `90s`, `1500` is `1500ms`, `1209600000` is `2w`); zero is
/// `0s`. Reading the text back gives the same milliseconds.
pub fn duration_text(ms: u64) -> String {
    if ms == 0 {
        return "0s".into();
    }
    let (unit, size) = UNITS.iter().rev().find(|(_, size)| ms.is_multiple_of(*size)).copied().unwrap_or(("ms", 1));
    format!("{}{unit}", ms / size)
}

const SYMBOLS: [&str; 19] =
    ["..", "->", "==", "!=", ">=", "<=", "+=", "{", "}", "(", ")", ",", ":", ".", "<", ">", "=", "?", "~"];

/// Lexes `source[start..end]`; offsets stay those of the whole source. Errors are collected and the bad
/// character skipped, so one stray character does not hide the rest of the file.
pub fn lex(source: &str, start: usize, end: usize) -> (Vec<Token>, Vec<Diagnostic>) {
    let mut lexer = Lexer { source, pos: start, end, tokens: Vec::new(), errors: Vec::new() };
    lexer.run();
    (lexer.tokens, lexer.errors)
}

struct Lexer<'a> {
    source: &'a str,
    pos: usize,
    end: usize,
    tokens: Vec<Token>,
    errors: Vec<Diagnostic>,
}

impl Lexer<'_> {
    fn peek(&self) -> Option<char> {
        self.source[self.pos..self.end].chars().next()
    }

    fn peek2(&self) -> Option<char> {
        let mut chars = self.source[self.pos..self.end].chars();
        chars.next();
        chars.next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn push(&mut self, tok: Tok, start: usize) {
        self.tokens.push(Token { tok, span: Span::new(start, self.pos) });
    }

    fn run(&mut self) {
        while let Some(c) = self.peek() {
            let start = self.pos;
            if c.is_whitespace() {
                self.bump();
            } else if c == '/' && self.peek2() == Some('/') {
                while self.peek().is_some_and(|c| c != '\n') {
                    self.bump();
                }
            } else if c == '/' {
                self.regex(start);
            } else if c == '"' {
                self.string(start);
            } else if c.is_ascii_digit() {
                self.number(start);
            } else if c == '#' {
                self.bump();
                let name = self.word();
                if name.is_empty() {
                    self.error(start, "a `#` that starts no tag", "a tag such as `#support`");
                } else {
                    self.push(Tok::Tag(name), start);
                }
            } else if is_word_start(c) {
                let word = self.word();
                self.push(Tok::Ident(word), start);
            } else if let Some(sym) = SYMBOLS.iter().find(|s| self.source[self.pos..self.end].starts_with(**s)) {
                self.pos += sym.len();
                self.push(Tok::Sym(sym), start);
            } else {
                self.bump();
                self.errors.push(
                    Diagnostic::new(
                        Code::Parse,
                        Span::new(start, self.pos),
                        format!("unexpected character `{}`", c.escape_debug()),
                    )
                    .expected("a word, a string, a number, a tag or punctuation of the grammar")
                    .fix("remove the character, or put it inside a string"),
                );
            }
        }
        self.tokens.push(Token { tok: Tok::Eof, span: Span::new(self.end, self.end) });
    }

    fn error(&mut self, start: usize, message: &str, expected: &str) {
        self.errors.push(Diagnostic::new(Code::Parse, Span::new(start, self.pos), message).expected(expected));
    }

    /// Letters, digits, `_` and `-`-free: a word of the grammar (`-` belongs to no word, so `a-b` is an error).
    fn word(&mut self) -> String {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            self.bump();
        }
        self.source[start..self.pos].to_string()
    }

    fn number(&mut self, start: usize) {
        // After a `.` a number is a loop or capture index (`.match.1.2`): digits only, never a fraction.
        let index_only = start > 0 && self.source[..start].ends_with('.');
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
        }
        if !index_only && self.peek() == Some('.') && self.peek2().is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.bump();
            }
        }
        let digits = &self.source[start..self.pos];
        let value: f64 = digits.parse().unwrap_or(f64::INFINITY);
        if !index_only && self.peek().is_some_and(is_word_start) {
            let unit_start = self.pos;
            let unit = self.word();
            match UNITS.iter().find(|(u, _)| *u == unit) {
                Some((_, ms)) if value.is_finite() && value * (*ms as f64) < 1e15 => {
                    self.push(Tok::Dur((value * *ms as f64).round() as u64), start)
                }
                Some(_) => self.error(start, "a duration too long to hold", "a duration under about 30,000 years"),
                None => {
                    self.pos = unit_start + unit.len();
                    self.error(
                        start,
                        &format!("`{unit}` is not a duration unit"),
                        "one of `ms`, `s`, `m`, `h`, `d`, `w`",
                    )
                }
            }
            return;
        }
        if !value.is_finite() {
            self.error(start, "a number too large to hold", "a number under 1.8e308");
            return;
        }
        self.push(Tok::Num(value), start);
    }

    fn string(&mut self, start: usize) {
        self.bump();
        let inner = self.pos;
        loop {
            match self.peek() {
                None | Some('\n') => {
                    self.errors.push(
                        Diagnostic::new(Code::Parse, Span::new(start, self.pos), "unterminated string")
                            .expected("a closing `\"` on the same line")
                            .fix("close the string with `\"`; write a line break as `\\n`"),
                    );
                    return;
                }
                Some('\\') => {
                    self.bump();
                    self.bump();
                }
                Some('"') => break,
                Some(_) => {
                    self.bump();
                }
            }
        }
        let raw = self.source[inner..self.pos].to_string();
        self.bump();
        self.push(Tok::Str { raw, start: inner }, start);
    }

    fn regex(&mut self, start: usize) {
        self.bump();
        let mut pattern = String::new();
        loop {
            match self.peek() {
                None | Some('\n') => {
                    self.errors.push(
                        Diagnostic::new(Code::Parse, Span::new(start, self.pos), "unterminated regex")
                            .expected("a closing `/` on the same line")
                            .fix("close the pattern with `/`; write a slash inside it as `\\/`"),
                    );
                    return;
                }
                Some('\\') if self.peek2() == Some('/') => {
                    self.bump();
                    self.bump();
                    pattern.push('/');
                }
                Some('\\') => {
                    self.bump();
                    pattern.push('\\');
                    if let Some(c) = self.bump() {
                        pattern.push(c);
                    }
                }
                Some('/') => break,
                Some(c) => {
                    self.bump();
                    pattern.push(c);
                }
            }
        }
        self.bump();
        self.push(Tok::Regex(pattern), start);
    }
}

fn is_word_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(source: &str) -> Vec<Tok> {
        let (tokens, errors) = lex(source, 0, source.len());
        assert!(errors.is_empty(), "{errors:?}");
        tokens.into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn reads_durations_tags_regexes_and_indices() {
        assert_eq!(
            toks("silence for 5m #support /a\\/b/ .match.1.2"),
            vec![
                Tok::Ident("silence".into()),
                Tok::Ident("for".into()),
                Tok::Dur(300_000),
                Tok::Tag("support".into()),
                Tok::Regex("a/b".into()),
                Tok::Sym("."),
                Tok::Ident("match".into()),
                Tok::Sym("."),
                Tok::Num(1.0),
                Tok::Sym("."),
                Tok::Num(2.0),
                Tok::Eof,
            ]
        );
    }

    #[test]
    fn a_duration_reads_as_its_largest_exact_unit_and_back() {
        let cases = [
            (0, "0s"),
            (1, "1ms"),
            (1_500, "1500ms"),
            (90_000, "90s"),
            (300_000, "5m"),
            (5_400_000, "90m"),
            (7_200_000, "2h"),
            (86_400_000, "1d"),
            (1_209_600_000, "2w"),
            (1_296_000_000, "15d"),
        ];
        for (ms, text) in cases {
            assert_eq!(duration_text(ms), text);
            assert_eq!(toks(text), vec![Tok::Dur(ms), Tok::Eof], "{text} reads back as {ms}");
        }
    }

    #[test]
    fn a_comment_is_not_a_regex() {
        assert_eq!(toks("x // y /z/\n1.5"), vec![Tok::Ident("x".into()), Tok::Num(1.5), Tok::Eof]);
    }

    #[test]
    fn a_bad_unit_is_an_error_with_a_span() {
        let (_, errors) = lex("5q", 0, 2);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].span, Span::new(0, 2));
    }
}
