//! How a request is asked: the openings that make one (`can you`, `I'd like`), the words said before it
//! (`hey`, `ok`, `please`) and the polite closings after it (`…, will you?`), none of which change it.

use super::lists::{ASKING, COME_ON, COURTESIES, GOES_ON, OPENERS, TAILS, TELLING};
use super::spelling::{ends_with, spelled, starts};
use crate::text::is_format;
use unicode_normalization::UnicodeNormalization;

/// Whether the words open with a phrase of `ASKING`, which makes a request of what follows.
pub(super) fn asks(words: &[String]) -> bool {
    ASKING.iter().any(|a| starts(words, a))
}

/// How many words the phrase of `ASKING` the words open with holds (`can you print …`: 2), or 0.
pub(super) fn asking_len(words: &[String]) -> usize {
    ASKING.iter().find(|a| starts(words, a)).map_or(0, |a| a.len())
}

/// Whether the words open with a phrase of `ASKING` said to someone: `can you`, `could u`.
pub(super) fn asks_you(words: &[String]) -> bool {
    ASKING.iter().any(|a| a.len() >= 2 && starts(words, a) && matches!(a[1], "you" | "u"))
}

/// Whether the words only phrase a request, with nothing asked in them: every word is one of `OPENERS`
/// or stands in a phrase of `ASKING`, `TAILS` or `COURTESIES` (`can you please`, `could you tell me`).
/// A phrase of `COURTESIES` counts only where `courtesies` says so: before a request (`can you tell me,
/// …`), not after it (`…, then tell me`), where it asks to be told.
pub(super) fn only_phrasing(words: &[String], courtesies: bool) -> bool {
    let courtesies: &[&[&str]] = if courtesies { &COURTESIES } else { &[] };
    made_of(words, &[&ASKING, &TAILS, &GOES_ON, courtesies], true)
}

/// Whether the words, past the words that join them to what came before (`and`, `then`) and openers, open
/// with a phrase of `COURTESIES` (`tell me`, `let me know`): they ask to be told.
pub(super) fn asks_to_be_told(words: &[String]) -> bool {
    told_len(words).is_some()
}

/// How many words, past joining words and openers, end a phrase of `COURTESIES` the words open with.
pub(super) fn told_len(words: &[String]) -> Option<usize> {
    let at = words.iter().take_while(|w| matches!(w.as_str(), "and" | "then") || is_opener(w)).count();
    COURTESIES.iter().find(|c| starts(&words[at..], c)).map(|c| at + c.len())
}

/// Whether the words ask to be told whether something is so (`let me know if the den is off`, `can you
/// tell me that the den is off`, `tell me the kitchen lights are off`): past joining words, openers and a
/// phrase of `ASKING`, a phrase of `TELLING` before anything, or one of `COURTESIES` before `that`, `if`,
/// `whether`, a question word or a statement. They ask a question, not for the act they name.
pub(super) fn told_whether(text: &str, words: &[String]) -> bool {
    let mut at = words.iter().take_while(|w| matches!(w.as_str(), "and" | "then") || is_opener(w)).count();
    at += asking_len(&words[at..]);
    // `tell me the kitchen lights off`: whatever follows a phrase of `TELLING` is what is to be known. Set
    // apart by a mark (`could you tell me, …`), the phrase only opens a request.
    let set_apart = |t: &[&str]| {
        let lower = text.to_lowercase();
        lower
            .find(&t.join(" "))
            .is_some_and(|i| lower[i + t.join(" ").len()..].trim_start().starts_with([',', ';', ':', '-', '—', '–']))
    };
    if TELLING.iter().any(|t| starts(&words[at..], t) && words.len() > at + t.len() && !set_apart(t)) {
        return true;
    }
    COURTESIES.iter().any(|c| {
        starts(&words[at..], c)
            && words.get(at + c.len()).is_some_and(|next| {
                matches!(next.as_str(), "that" | "if" | "whether")
                    || super::form::is_question_word(next)
                    || super::form::statement(&words[at + c.len()..])
            })
    })
}

/// Whether the words are polite closings alone (`thanks`, `thank you very much`, `if you can`), an `and`
/// before them joining nothing (`…, and thanks`).
pub(super) fn only_closing(words: &[String]) -> bool {
    let closings: &[&[&[&str]]] = &[&TAILS, &GOES_ON];
    made_of(words, closings, false) || (words.len() > 1 && words[0] == "and" && made_of(&words[1..], closings, false))
}

/// Whether the words, one or more, are all phrases of `lists` (the longest where several start at one
/// word) and, where `openers` says so, words of `OPENERS`.
fn made_of(words: &[String], lists: &[&[&[&str]]], openers: bool) -> bool {
    let mut at = 0;
    while at < words.len() {
        let rest = &words[at..];
        match lists.iter().flat_map(|l| l.iter()).filter(|p| starts(rest, p)).map(|p| p.len()).max() {
            Some(len) => at += len,
            None if openers && is_opener(&rest[0]) => at += 1,
            None => return false,
        }
    }
    at > 0
}

/// Whether a word is one of `OPENERS`, said before a request and passed over.
pub(super) fn is_opener(word: &str) -> bool {
    OPENERS.contains(&word)
}

/// Whether a word is a polite closing alone (`please`, `ok`, `thanks`).
pub(super) fn is_tail_word(word: &str) -> bool {
    TAILS.iter().chain(GOES_ON.iter()).any(|t| t.len() == 1 && t[0] == word)
}

/// Drops the polite closings of `TAILS` the words end with (`…, will you`, `… asap`, `…, please`), as
/// long as words are left before them; whether it dropped any. A closing says nothing of the mood:
/// `turn off the den lights, will you?` is a request.
pub(super) fn strip_tails(words: &mut Vec<String>) -> bool {
    let mut stripped = false;
    while let Some(tail) = TAILS.iter().chain(GOES_ON.iter()).find(|t| words.len() > t.len() && ends_with(words, t)) {
        words.truncate(words.len() - tail.len());
        stripped = true;
    }
    stripped
}

/// How many words open the sentence before the request: words of `OPENERS`, then a `thank you` that opens
/// a request as `thanks, …` does.
pub(super) fn opening(words: &[String]) -> usize {
    let mut at = 0;
    while at < words.len() && is_opener(&words[at]) {
        at += 1;
    }
    if starts(&words[at..], &["thank", "you"]) && words.len() > at + 2 {
        at += 2;
    }
    at
}

/// Whether `word`, after `before`, is the `on` of `come on`, `hold on`, `go on`: it names no setting.
pub fn idiom_on(before: &str, word: &str) -> bool {
    word == "on" && COME_ON.contains(&before)
}

/// Whether the words are all openers (`hey`, `ok`, `evoke`, `please`, `go ahead and`): a greeting before a
/// comma opens the request after it and is no part of its own.
pub fn opens_only(text: &str) -> bool {
    let words = spelled(&text.nfkc().filter(|c| !is_format(*c)).collect::<String>());
    // `come on` opens a request too, and its `on` says nothing of a light.
    let come_on = |i: usize| {
        words.get(i + 1).is_some_and(|next| idiom_on(&words[i], next)) || (i > 0 && idiom_on(&words[i - 1], &words[i]))
    };
    !words.is_empty()
        && (0..words.len()).all(|i| is_opener(&words[i]) || matches!(words[i].as_str(), "go" | "ahead") || come_on(i))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_words_a_request_is_phrased_in_are_phrasing() {
        for said in ["can you please", "please, could you", "can you tell me", "do you know", "ok so, thanks"] {
            assert!(only_phrasing(&spelled(said), true), "{said}");
        }
        for said in ["let me in", "then up", "go out", "here too", "all", "tell me more", ""] {
            assert!(!only_phrasing(&spelled(said), true), "{said}");
        }
        assert!(!only_phrasing(&spelled("then tell me"), false));
        assert!(only_phrasing(&spelled("thanks"), false));
    }

    #[test]
    fn greetings_open_a_request_and_are_no_part() {
        for said in
            ["hey evoke", "OK", "so, um", "please", "go ahead and", "come on", "oh come on", "hold on", "aw go on"]
        {
            assert!(opens_only(said), "{said}");
        }
        for said in ["", "hey, turn on the lights", "it's dark", "evoke the lights", "on", "come", "lights on"] {
            assert!(!opens_only(said), "{said}");
        }
    }

    #[test]
    fn closings_are_dropped_while_words_are_left_and_openers_passed_over() {
        let mut w = spelled("turn off the den lights, will you please");
        assert!(strip_tails(&mut w));
        assert_eq!(w, ["turn", "off", "the", "den", "lights"]);
        let mut alone = spelled("please");
        assert!(!strip_tails(&mut alone), "a closing alone is all that was said");
        assert_eq!(opening(&spelled("hey ok thank you turn it off")), 4);
        assert_eq!(asking_len(&spelled("can you print it")), 2);
        assert!(asks_you(&spelled("could u dim it")) && !asks_you(&spelled("let's dim it")));
    }
}
