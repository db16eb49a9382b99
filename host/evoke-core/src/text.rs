//! The text rules: what a string may hold, and what a name looks like; and the one escaping
//! function for text from outside on its way to a terminal.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Why a string is not clean text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unclean {
    /// A Unicode control character (`Cc`), at this character offset.
    Control { at: usize, ch: char },
    /// A bidirectional control, which could repaint a terminal line.
    Bidi { at: usize, ch: char },
}

/// The bidi controls the text rules refuse: embeddings and overrides, isolates, marks, and the Arabic letter mark.
pub fn is_bidi_control(ch: char) -> bool {
    matches!(ch, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// The line and paragraph separators, U+2028 and U+2029: not `Cc`, yet a terminal or a viewer may break
/// the line at them, so a value holding one could paint a line of its own under the line it is shown in.
pub fn is_line_separator(ch: char) -> bool {
    matches!(ch, '\u{2028}' | '\u{2029}')
}

/// Whether `ch` is an invisible format character, Unicode's general category `Cf` (Unicode 15.1): a zero-width
/// space, joiner or non-joiner, a word joiner, a byte-order mark, a soft hyphen, a bidi control, and the
/// rest. It shows as nothing, so an input of only these and whitespace says nothing.
pub fn is_format(ch: char) -> bool {
    matches!(
        ch,
        '\u{00AD}'
            | '\u{0600}'..='\u{0605}'
            | '\u{061C}'
            | '\u{06DD}'
            | '\u{070F}'
            | '\u{0890}'..='\u{0891}'
            | '\u{08E2}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206F}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{110BD}'
            | '\u{110CD}'
            | '\u{13430}'..='\u{1343F}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0001}'
            | '\u{E0020}'..='\u{E007F}'
    )
}

/// Whether `text` says nothing: it holds only whitespace and invisible format characters ([`is_format`]).
pub fn is_blank(text: &str) -> bool {
    text.chars().all(|ch| ch.is_whitespace() || is_format(ch))
}

/// Checks a string against the text rules. `allow_line_feed` holds only for `description`.
pub fn check_clean(text: &str, allow_line_feed: bool) -> Result<(), Unclean> {
    for (at, ch) in text.chars().enumerate() {
        if (ch.is_control() || is_line_separator(ch)) && !(allow_line_feed && ch == '\n') {
            return Err(Unclean::Control { at, ch });
        }
        if is_bidi_control(ch) {
            return Err(Unclean::Bidi { at, ch });
        }
    }
    Ok(())
}

/// True when `text` holds a control or bidi character, the same test a decision applies to its input.
pub fn is_clean_line(text: &str) -> bool {
    check_clean(text, false).is_ok()
}

/// Whether printing `ch` could move the cursor, repaint a line or reorder what a terminal shows: a Unicode
/// control character (C0, DEL and C1, which start escape sequences), a line or paragraph separator, or a
/// bidi control.
pub fn is_unsafe_at_terminal(ch: char) -> bool {
    ch.is_control() || is_line_separator(ch) || is_bidi_control(ch)
}

/// The one escaping function for text that came from outside evoke (a manifest's key or value, a file
/// name, an adapter's key, a body's result and stderr) on its way to a terminal. Every control and bidi
/// character prints as `\u{1B}`, so an escape sequence shows as its letters and never runs. A line of its
/// own: the line feed is escaped too. Borrowed when there is nothing to escape.
pub fn escape_outside(text: &str) -> Cow<'_, str> {
    escape_keeping(text, |_| false)
}

/// [`escape_outside`] for a block of text shown as lines (a body's result, its stderr): the line feed and
/// the tab stay, since neither can move the cursor back over what is already shown; the carriage return,
/// which can, is escaped with the rest.
pub fn escape_outside_lines(text: &str) -> Cow<'_, str> {
    escape_keeping(text, |ch| ch == '\n' || ch == '\t')
}

fn escape_keeping(text: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    let unsafe_at = |ch: char| is_unsafe_at_terminal(ch) && !keep(ch);
    let Some(first) = text.find(unsafe_at) else { return Cow::Borrowed(text) };
    let mut out = String::with_capacity(text.len() + 8);
    out.push_str(&text[..first]);
    for ch in text[first..].chars() {
        if unsafe_at(ch) {
            let _ = write!(out, "\\u{{{:X}}}", ch as u32);
        } else {
            out.push(ch);
        }
    }
    Cow::Owned(out)
}

/// Escapes a stream of bytes as it arrives (a body's stderr, written while it runs), chunk by chunk, with
/// the rule of [`escape_outside_lines`]. A character split between two chunks is held until it completes,
/// so the escaping never depends on where a write happened to end; bytes that are not UTF-8 print as U+FFFD.
#[derive(Debug, Default)]
pub struct EscapeStream {
    /// The start of a character whose remaining bytes have not arrived yet (at most 3 bytes).
    pending: Vec<u8>,
}

impl EscapeStream {
    pub fn new() -> Self {
        EscapeStream::default()
    }

    /// The safe text of `bytes`, given what came before.
    pub fn push(&mut self, bytes: &[u8]) -> String {
        self.pending.extend_from_slice(bytes);
        let mut text = String::with_capacity(self.pending.len());
        let mut rest: &[u8] = &self.pending;
        loop {
            match std::str::from_utf8(rest) {
                Ok(valid) => {
                    text.push_str(&escape_outside_lines(valid));
                    rest = &[];
                    break;
                }
                Err(e) => {
                    let (valid, after) = rest.split_at(e.valid_up_to());
                    text.push_str(&escape_outside_lines(std::str::from_utf8(valid).unwrap_or_default()));
                    match e.error_len() {
                        // Invalid bytes: shown as one replacement character each run, as lossy decoding does.
                        Some(bad) => {
                            text.push('\u{FFFD}');
                            rest = &after[bad..];
                        }
                        // A character cut off at the end: keep it for the next chunk.
                        None => {
                            rest = after;
                            break;
                        }
                    }
                }
            }
        }
        self.pending = rest.to_vec();
        text
    }

    /// What is left at the end of the stream: a cut-off character, as U+FFFD.
    pub fn finish(&mut self) -> String {
        let left = std::mem::take(&mut self.pending);
        if left.is_empty() { String::new() } else { "\u{FFFD}".to_string() }
    }
}

/// `[a-z][a-z0-9_]*`: the shape of argument, tag, config key, vocabulary and reflex names.
pub fn is_name(text: &str) -> bool {
    let mut chars = text.chars();
    matches!(chars.next(), Some('a'..='z')) && chars.all(|c| matches!(c, 'a'..='z' | '0'..='9' | '_'))
}

/// The two sentinels a classifier may answer with; never an argument, an option key or a word.
pub const SENTINELS: [&str; 2] = ["none", "unstated"];

pub fn is_sentinel(text: &str) -> bool {
    SENTINELS.contains(&text)
}

/// JavaScript's reserved words (ECMAScript 2024, strict mode and modules, plus the literals), so that a
/// file body can always destructure its arguments: `export default ({ room, state }) => …`.
const JS_RESERVED: [&str; 47] = [
    "await",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "implements",
    "import",
    "in",
    "instanceof",
    "interface",
    "let",
    "new",
    "null",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "static",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "yield",
    "arguments",
];

pub fn is_js_reserved(name: &str) -> bool {
    JS_RESERVED.contains(&name) || name == "eval"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(is_name("room"));
        assert!(is_name("r2_d2"));
        assert!(!is_name("Room"));
        assert!(!is_name("2r"));
        assert!(!is_name("my-arg"));
        assert!(!is_name(""));
    }

    #[test]
    fn clean_text() {
        assert_eq!(check_clean("a\tb", false), Err(Unclean::Control { at: 1, ch: '\t' }));
        assert!(check_clean("a\nb", true).is_ok());
        assert!(check_clean("a\nb", false).is_err());
        assert_eq!(check_clean("x\u{202E}y", true), Err(Unclean::Bidi { at: 1, ch: '\u{202E}' }));
        assert!(check_clean("café ☕", false).is_ok());
        assert!(check_clean("\u{85}", true).is_err());
        // A line or paragraph separator breaks a line as a line feed does, even where one is allowed.
        for sep in ['\u{2028}', '\u{2029}'] {
            assert_eq!(check_clean(&format!("x{sep}  3  mark"), true), Err(Unclean::Control { at: 1, ch: sep }));
            assert_eq!(escape_outside(&format!("x{sep}y")), format!("x\\u{{{:X}}}y", sep as u32));
        }
        // Zero-width characters cannot move a line: they stay, as Persian, Indic scripts and emoji need them.
        assert!(check_clean("\u{200C}\u{200D}\u{200B}\u{2060}\u{FEFF}", false).is_ok());
    }

    #[test]
    fn escaping_shows_every_sequence_as_letters() {
        let attack = "ok\u{1B}]52;c;aGk=\u{7}\u{1B}[2J\u{9B}1A\u{202E}gnp.exe\u{7F}";
        let shown = escape_outside(attack);
        assert_eq!(shown, "ok\\u{1B}]52;c;aGk=\\u{7}\\u{1B}[2J\\u{9B}1A\\u{202E}gnp.exe\\u{7F}");
        assert!(!shown.chars().any(is_unsafe_at_terminal));
        assert!(matches!(escape_outside("café ☕"), Cow::Borrowed("café ☕")));
        assert_eq!(escape_outside("a\nb"), "a\\u{A}b");
        assert_eq!(escape_outside_lines("a\n\tb\r"), "a\n\tb\\u{D}");
    }

    #[test]
    fn a_stream_escapes_a_character_split_between_chunks() {
        let mut stream = EscapeStream::new();
        let bidi = "\u{202E}".as_bytes();
        let mut shown = stream.push(b"x\x1b");
        shown += &stream.push(&bidi[..1]);
        shown += &stream.push(&bidi[1..]);
        shown += &stream.push(b"\xff\n");
        shown += &stream.push(&"é".as_bytes()[..1]);
        shown += &stream.finish();
        assert_eq!(shown, "x\\u{1B}\\u{202E}\u{FFFD}\n\u{FFFD}");
    }

    #[test]
    fn reserved() {
        for word in ["class", "default", "new", "await", "eval", "arguments"] {
            assert!(is_js_reserved(word), "{word}");
        }
        assert!(!is_js_reserved("room"));
    }
}
