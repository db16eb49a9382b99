//! The text rules of 000 §3.2: what a string may hold, and what a name looks like.

/// Why a string is not clean text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unclean {
    /// A Unicode control character (`Cc`), at this character offset.
    Control { at: usize, ch: char },
    /// A bidirectional control, which could repaint a terminal line.
    Bidi { at: usize, ch: char },
}

/// The bidi controls 000 §3.2 refuses: embeddings and overrides, isolates, marks, and the Arabic letter mark.
pub fn is_bidi_control(ch: char) -> bool {
    matches!(ch, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// Checks a string against the text rules. `allow_line_feed` holds only for `description`.
pub fn check_clean(text: &str, allow_line_feed: bool) -> Result<(), Unclean> {
    for (at, ch) in text.chars().enumerate() {
        if ch.is_control() && !(allow_line_feed && ch == '\n') {
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
    }

    #[test]
    fn reserved() {
        for word in ["class", "default", "new", "await", "eval", "arguments"] {
            assert!(is_js_reserved(word), "{word}");
        }
        assert!(!is_js_reserved("room"));
    }
}
