//! A report, a feeling or a make-believe, not a request: `my wife said turn off the lights`, `hate the
//! den lights being on`, `in the game turn off the den lights`. Each is a
//! [`Mood::Remark`](super::Mood::Remark).

use super::address::is_called;
use super::form::is_subject;
use super::lists::{HABITUAL, HEARSAY, MENTIONING, MENTIONING_PHRASES, OTHER_ACTS, OWN_STATE, SPEAKER};
use super::spelling::{gerund, has, spelled, starts};

/// Whether the sentence reports, mentions or imagines rather than asks: a word of `MENTIONING` or a
/// phrase of `MENTIONING_PHRASES` anywhere; a word of `HABITUAL` or `HEARSAY` before a subject; an
/// opening phrase of `OWN_STATE`; someone's act told (`john put the den lights on`); a verb of
/// `OTHER_ACTS` before `to` or a word in `-ing`; or a closing clause that tells who said it.
pub(super) fn holds(text: &str, words: &[String]) -> bool {
    reported_at_the_end(text)
        || words.iter().any(|w| MENTIONING.contains(&w.as_str()))
        || has(words, &MENTIONING_PHRASES)
        || (words.first().is_some_and(|w| HABITUAL.contains(&w.as_str()) || HEARSAY.contains(&w.as_str()))
            && words.get(1).is_some_and(|w| is_subject(w)))
        || OWN_STATE.iter().any(|o| starts(words, o))
        // `john put the den lights on`, `bob left the kitchen lights on`: someone's act, told.
        || (words.len() >= 3
            && matches!(words[1].as_str(), "put" | "left")
            && matches!(words[2].as_str(), "the" | "my" | "our" | "his" | "her" | "their" | "all"))
        || (words.first().is_some_and(|w| OTHER_ACTS.contains(&w.as_str()))
            && words.iter().skip(1).any(|w| w == "to" || gerund(w)))
}

/// Whether words (past their openers) open with the speaker as subject: `i'm heading out`, `we'll be
/// back at 5`. Read of a remark, it tells of the speaker's own doing.
pub(super) fn of_the_speaker(words: &[String]) -> bool {
    words.first().is_some_and(|w| SPEAKER.contains(&w.as_str()))
}

/// Whether the sentence closes by telling who said it: a clause after a comma of a subject and a verb
/// of saying or a past tense (`…, she insisted`, `…, mom said`).
fn reported_at_the_end(text: &str) -> bool {
    let Some((_, last)) = text.rsplit_once(',') else { return false };
    let w = spelled(last);
    w.len() == 2
        && (is_subject(&w[0]) || is_called(&w[0]))
        && (w[1].ends_with("ed") || matches!(w[1].as_str(), "said" | "says" | "told" | "wrote" | "insists"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closing_clause_of_someone_saying_reports() {
        assert!(reported_at_the_end("turn off the den lights, she insisted"));
        assert!(reported_at_the_end("turn on the kitchen lights, mom said"));
        assert!(!reported_at_the_end("turn off the den lights, then lock up"));
        assert!(!reported_at_the_end("turn off the den lights"));
    }
}
