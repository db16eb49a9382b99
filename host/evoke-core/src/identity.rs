//! The identity of an utterance: two records are the same utterance when their identities match.

use unicode_normalization::UnicodeNormalization;

/// NFC, lower-cased, whitespace runs collapsed to one space, trimmed, and one trailing `.`, `!`, `?` or `…`
/// dropped.
pub fn identity(utterance: &str) -> String {
    let lowered: String = utterance.nfc().collect::<String>().to_lowercase();
    let mut collapsed = lowered.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.ends_with(['.', '!', '?', '…']) {
        collapsed.pop();
        let kept = collapsed.trim_end().len();
        collapsed.truncate(kept);
    }
    // Lower-casing can leave a string outside NFC (a few capitals decompose), so normalize once more.
    collapsed.nfc().collect()
}

#[cfg(test)]
mod tests {
    use super::identity;

    #[test]
    fn spec_examples() {
        assert_eq!(identity("  Kill   the LIGHTS! "), "kill the lights");
        assert_eq!(identity("cafe\u{301}"), "café");
        assert_eq!(identity("wait!!"), "wait!");
        assert_eq!(identity("so…"), "so");
        assert_eq!(identity("is it on ?"), "is it on");
        assert_eq!(identity(""), "");
    }
}
