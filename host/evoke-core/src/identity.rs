//! The identity of an utterance: two records are the same utterance when their identities match.

use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

/// NFC, lower-cased, whitespace runs collapsed to one space, trimmed, and one trailing `.`, `!`, `?` or `…`
/// dropped.
pub fn identity(utterance: &str) -> String {
    let lowered = match already_nfc(utterance) {
        true => utterance.to_lowercase(),
        false => utterance.nfc().collect::<String>().to_lowercase(),
    };
    let mut collapsed = lowered.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.ends_with(['.', '!', '?', '…']) {
        collapsed.pop();
        let kept = collapsed.trim_end().len();
        collapsed.truncate(kept);
    }
    // Lower-casing can leave a string outside NFC (a few capitals decompose), so normalize once more.
    match already_nfc(&collapsed) {
        true => collapsed,
        false => collapsed.nfc().collect(),
    }
}

/// Whether `text` is certainly NFC already, as nearly every input and example is (all ASCII is): then it
/// is not copied through the normalizer, which was a measurable part of reading 150 manifests. "Maybe"
/// normalizes, as before.
fn already_nfc(text: &str) -> bool {
    text.is_ascii() || is_nfc_quick(text.chars()) == IsNormalized::Yes
}

#[cfg(test)]
mod tests {
    use super::{already_nfc, identity};

    #[test]
    fn spec_examples() {
        assert_eq!(identity("  Kill   the LIGHTS! "), "kill the lights");
        assert_eq!(identity("cafe\u{301}"), "café");
        assert_eq!(identity("wait!!"), "wait!");
        assert_eq!(identity("so…"), "so");
        assert_eq!(identity("is it on ?"), "is it on");
        assert_eq!(identity(""), "");
    }

    /// The quick check only skips work: every text gives what normalizing it in full gives, whether it
    /// is NFC already, decomposed, or made non-NFC by lower-casing.
    #[test]
    fn the_quick_check_gives_what_full_normalization_gives() {
        use unicode_normalization::UnicodeNormalization;
        let full = |utterance: &str| -> String {
            let lowered: String = utterance.nfc().collect::<String>().to_lowercase();
            let mut collapsed = lowered.split_whitespace().collect::<Vec<_>>().join(" ");
            if collapsed.ends_with(['.', '!', '?', '…']) {
                collapsed.pop();
                let kept = collapsed.trim_end().len();
                collapsed.truncate(kept);
            }
            collapsed.nfc().collect()
        };
        for text in [
            "Turn ON the lights.",
            "cafe\u{301} au lait",
            "Café",
            "\u{212B}ngstr\u{F6}m",
            "\u{1E9E} STRASSE",
            "\u{130}stanbul",
            "\u{3D2}\u{301}",
            "e\u{301}\u{327} and a\u{30A}",
            "한국어 \u{1100}\u{1161}",
            "ﬁ ligature …",
            "  spaced   out  ?",
        ] {
            assert_eq!(identity(text), full(text), "{text:?}");
            assert!(unicode_normalization::is_nfc(&identity(text)), "{text:?} gives NFC");
        }
        assert!(!already_nfc("cafe\u{301}"), "a decomposed text is normalized");
    }
}
