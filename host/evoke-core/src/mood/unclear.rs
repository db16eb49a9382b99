//! What makes a sentence [`Mood::Unclear`](super::Mood::Unclear): letters or digits the mood cannot read.

use crate::text::is_format;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// Whether the text writes a number in digits evoke does not read (`８０`, `٨٠`, `⅓`): it could be any
/// value, and the sentence is not read as asking for the one a recognizer would miss it for.
pub(super) fn foreign_digits(text: &str) -> bool {
    text.chars().any(|c| c.is_numeric() && !c.is_ascii_digit())
}

/// The text as the mood reads it: folded to NFKC, format characters dropped, marks over letters passed
/// over (`dón't` is `don't`).
pub(super) fn folded(text: &str) -> String {
    text.nfkc().filter(|c| !is_format(*c)).collect::<String>().nfd().filter(|c| !is_combining_mark(*c)).collect()
}

/// Whether a sentence holds letters of the Latin alphabet and of Greek or Cyrillic, whose look-alike
/// letters could disguise a word (`іf` with a Cyrillic `і`).
pub(super) fn mixes_alphabets(text: &str) -> bool {
    let latin = text.chars().any(|c| c.is_ascii_alphabetic());
    let other = text.chars().any(|c| c.is_alphabetic() && !c.is_ascii());
    latin && other
}

/// Whether a character is a pictograph or a symbol drawn as one: emoji, dingbats, check boxes.
pub(super) fn pictograph(c: char) -> bool {
    matches!(c, '\u{2190}'..='\u{21FF}' | '\u{2300}'..='\u{23FF}' | '\u{2600}'..='\u{27BF}' | '\u{2B00}'..='\u{2BFF}' | '\u{1F000}'..='\u{1FAFF}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_alike_letters_foreign_digits_and_pictographs_are_seen() {
        assert!(mixes_alphabets("turn on і\u{66}"));
        assert!(!mixes_alphabets("turn on the lights"));
        assert!(foreign_digits("dim to ８０") && foreign_digits("⅓") && !foreign_digits("dim to 80"));
        assert!(pictograph('😂') && pictograph('☑') && !pictograph('a'));
        assert_eq!(folded("dón\u{200B}'t"), "don't");
    }
}
