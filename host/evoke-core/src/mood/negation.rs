//! [`Mood::Negated`](super::Mood::Negated): a request not to, or for something to stop or not happen.

use super::lists::{FORGETTING, FUZZY_NEGATIONS, NEGATIONS, STOPPING};
use super::slips::fuzzily_has;
use super::spelling::{gerund, has, starts};

/// Whether the words ask for something not to be done: a word or phrase of `NEGATIONS` anywhere (or one
/// slip from a word of `FUZZY_NEGATIONS`), any word in `n't` but `won't`, a `won't` that refuses, or a
/// word of `STOPPING` before a word in `-ing` (`stop turning off`, `forget about turning off`).
pub(super) fn holds(words: &[String]) -> bool {
    has(words, &NEGATIONS)
        || words.iter().any(|w| w.len() > 3 && w.ends_with("n't") && w != "won't")
        || refuses(words)
        || fuzzily_has(words, &FUZZY_NEGATIONS)
        || words.windows(2).any(|w| STOPPING.contains(&w[0].as_str()) && gerund(&w[1]))
        || words.windows(3).any(|w| STOPPING.contains(&w[0].as_str()) && w[1] == "about" && gerund(&w[2]))
}

/// Whether the words open, past the openers, with a negation of forgetting (`don't forget to …`, `don't
/// let me forget …`, `never fail to …`) and say nothing else not to do after it: it asks for what follows,
/// not for nothing, and says no time for it. `i never forget to …` tells of a habit; `don't forget not to
/// …` and `…, except the den` still say what not to do.
pub(super) fn reminds(words: &[String]) -> bool {
    let at = super::asking::opening(words);
    let rest = &words[at..];
    let Some(len) = NEGATIONS.iter().filter(|p| starts(rest, p)).map(|p| p.len()).max() else {
        return false;
    };
    let mut next = at + len;
    if words.get(next).is_some_and(|w| w == "let") {
        next += 1;
        if words.get(next).is_some_and(|w| matches!(w.as_str(), "me" | "us")) {
            next += 1;
        }
    }
    words.get(next).is_some_and(|w| FORGETTING.contains(&w.as_str())) && !holds(&words[next + 1..])
}

/// Whether a phrase of `NEGATIONS` opens `words`, read as the engine's words are (its apostrophes
/// dropped: `don't` → `dont`).
pub(super) fn opens(words: &[crate::words::Word]) -> bool {
    let bare = |w: &str| w.replace('\'', "");
    NEGATIONS
        .iter()
        .any(|phrase| phrase.len() <= words.len() && phrase.iter().zip(words).all(|(p, w)| bare(p) == w.lower))
}

/// Whether a request asks that no one do what it names: `make sure nobody turns off the den lights`.
pub(super) fn by_nobody(words: &[String]) -> bool {
    words.iter().any(|w| matches!(w.as_str(), "nobody" | "noone"))
}

/// Whether a `won't` (or `wont`) says what is not to be done: only `won't you` (`won't you lock the
/// door`, `…, won't you?`) asks politely. A `won't` with no `you` after it, first or later, refuses:
/// `won't lock the front door` and `lock the front door now then won't close the garage gate` must
/// not run what follows it.
fn refuses(words: &[String]) -> bool {
    words.iter().enumerate().any(|(at, w)| {
        matches!(w.as_str(), "won't" | "wont")
            && !words.get(at + 1).is_some_and(|next| matches!(next.as_str(), "you" | "u" | "ya" | "y'all"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mood::spelling::spelled;

    #[test]
    fn a_negation_of_forgetting_asks_for_what_follows() {
        for said in [
            "don't forget to turn off the den lights",
            "please do not forget the den lights",
            "don't let me forget to set a timer",
            "never fail to lock the door",
        ] {
            assert!(reminds(&spelled(said)), "{said}");
        }
        for said in [
            "don't turn off the den lights",
            "forget the den lights",
            "don't turn it off, never forget",
            "i never forget to turn off the den lights",
            "don't forget not to turn off the den lights",
            "don't forget: don't turn off the den lights",
            "don't forget to turn off the lights except the den",
        ] {
            assert!(!reminds(&spelled(said)), "{said}");
        }
    }

    #[test]
    fn a_won_t_refuses_unless_you_follows() {
        assert!(refuses(&spelled("won't lock the door")));
        assert!(refuses(&spelled("lock the door then wont close the gate")));
        assert!(!refuses(&spelled("won't you lock the door")));
        assert!(!refuses(&spelled("wont u lock the door")));
    }

    #[test]
    fn a_negation_opens_the_engine_s_words_apostrophes_dropped() {
        assert!(opens(&crate::words::words("don't turn")));
        assert!(opens(&crate::words::words("apart from the den")));
        assert!(!opens(&crate::words::words("apart the den")));
    }
}
