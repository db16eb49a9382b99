//! The words the mood reads, and how its phrases are found among them.
//!
//! The mood keeps a word's apostrophe (`don't`, `it's`), unlike the engine's stems, because its lists tell
//! `its` from `it's` and read a negation however its apostrophe fell.

/// The words as the lists spell them: the one tokenizer's words with their apostrophes
/// ([`crate::words::with_apostrophes`]), a negation however its apostrophe fell read as the lists write it
/// (`did'nt` → `didn't`, `don t` → `don't`).
pub(super) fn spelled(text: &str) -> Vec<String> {
    let out = crate::words::with_apostrophes(text);
    // `don t`, `can t`: an apostrophe typed as a space.
    let mut joined: Vec<String> = Vec::with_capacity(out.len());
    for w in out.into_iter().map(|w| negation_spelled(&w).unwrap_or(w)) {
        match joined.last_mut() {
            Some(last) if w == "t" && last.len() >= 2 && last.ends_with('n') => last.push_str("'t"),
            _ => joined.push(w),
        }
    }
    joined
}

/// A negating contraction however its apostrophe fell, as the lists spell it: the apostrophe misplaced
/// (`did'nt`, `wo'nt`, `should'nt`), doubled (`won'nt`), or a clitic after it (`won't've`, `don't's`,
/// `won'tve`) read as the contraction it holds (`won't`, `didn't`). Only a word holding an apostrophe is
/// read so; a possessive (`grant's`) is not a contraction.
pub(super) fn negation_spelled(word: &str) -> Option<String> {
    let apostrophes = word.matches('\'').count();
    if apostrophes == 0 || (apostrophes == 1 && word.ends_with("'s") && !word.ends_with("n't's")) {
        return None;
    }
    let letters: String = word.chars().filter(|c| *c != '\'').collect();
    // A clitic after the contraction: `'ve`, `'s`, `'d`, `'ll`, or `ve` run into it.
    let stem = ["ve", "ll", "s", "d"]
        .iter()
        .find_map(|c| letters.strip_suffix(c).filter(|s| s.ends_with("nt")))
        .unwrap_or(&letters);
    let base = stem.strip_suffix("nt")?;
    // `won'nt`: the `n` said twice.
    let base = if base.len() > 2 && base.ends_with('n') { &base[..base.len() - 1] } else { base };
    if base.len() < 2 || !base.chars().all(|c| c.is_alphabetic()) {
        return None;
    }
    let spelled = format!("{base}n't");
    (spelled != word).then_some(spelled)
}

/// Whether `words` open with `phrase`.
pub(super) fn starts(words: &[String], phrase: &[&str]) -> bool {
    phrase.len() <= words.len() && phrase.iter().zip(words).all(|(p, w)| p == w)
}

/// Whether `words` hold `phrase` anywhere.
pub(super) fn find(words: &[String], phrase: &[&str]) -> bool {
    (0..words.len()).any(|i| starts(&words[i..], phrase))
}

/// Whether `words` hold any of `phrases` anywhere.
pub(super) fn has(words: &[String], phrases: &[&[&str]]) -> bool {
    phrases.iter().any(|p| find(words, p))
}

/// Whether `words` close with `phrase`.
pub(super) fn ends_with(words: &[String], phrase: &[&str]) -> bool {
    phrase.len() <= words.len() && starts(&words[words.len() - phrase.len()..], phrase)
}

/// Whether a word is in `-ing` and long enough to be a verb's (`turning`, not `ring`).
pub(super) fn gerund(word: &str) -> bool {
    word.len() > 4 && word.ends_with("ing")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_join_apostrophes_and_drop_marks() {
        assert_eq!(spelled("Don’t  turn it's, OFF?"), ["don't", "turn", "it's", "off"]);
        assert_eq!(spelled("'quoted' 10pm"), ["quoted", "10pm"]);
        assert!(spelled("").is_empty());
    }

    #[test]
    fn a_negation_is_spelt_as_the_lists_spell_it() {
        assert_eq!(negation_spelled("won't"), None, "already as the lists spell it");
        assert_eq!(negation_spelled("did'nt").as_deref(), Some("didn't"));
        assert_eq!(negation_spelled("won'nt").as_deref(), Some("won't"));
        assert_eq!(negation_spelled("grant's"), None, "a possessive is no contraction");
        assert_eq!(spelled("don t turn"), ["don't", "turn"]);
    }

    #[test]
    fn phrases_are_found_word_for_word() {
        let w = spelled("turn off the den lights, never mind");
        assert!(find(&w, &["never", "mind"]));
        assert!(!find(&w, &["mind", "never"]));
        assert!(ends_with(&w, &["never", "mind"]));
        assert!(starts(&w, &["turn", "off"]));
        assert!(!starts(&w, &["off"]));
        assert!(gerund("turning") && !gerund("ring"));
    }
}
