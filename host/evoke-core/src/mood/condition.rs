//! [`Mood::Conditional`](super::Mood::Conditional): a request for later, on a condition, as a habit or
//! for a while only.

use super::asking;
use super::lists::{ASIDE_SUBJECTS, CONDITIONS, EVERY_WHAT, FUZZY_CONDITIONS, HEDGES, ORDERING, TIME_UNITS};
use super::slips::fuzzily_has;
use super::spelling::{find, has, spelled, starts};

/// Whether the request waits on something or for later. `words` are the sentence's words after its
/// openers (`at` of them) and its polite closing; the text is read again without its asides. A first
/// `when` asks; a later one, or any other word or phrase of `CONDITIONS`, sets a condition; so does a
/// slip from a word of `FUZZY_CONDITIONS`, `every` or `each` before a word of `EVERY_WHAT`, and an
/// opening time from now. Where `ordered`, the sentence is read as the whole of woven parts, and the
/// words of `ORDERING`, which order its parts, set no condition on it.
pub(super) fn holds(text: &str, words: &[String], at: usize, ordered: bool) -> bool {
    // `before I forget` says why now, and sets no time.
    let now_before_forgetting = find(words, &["before", "i", "forget"]);
    let conditions: Vec<&[&str]> = CONDITIONS
        .iter()
        .copied()
        .filter(|c| !(ordered && ORDERING.contains(c) || now_before_forgetting && c == &["before"]))
        .collect();
    // An aside after a comma that tells of someone (`…, you always forget`) gives a reason, and its
    // words set no condition on the request.
    let mut unaside = spelled(&without_asides(text));
    asking::strip_tails(&mut unaside);
    let unaside = &unaside[unaside.len().min(at)..];
    has(&unaside[unaside.len().min(1)..], &conditions)
        || conditions.iter().any(|c| c != &["when"] && starts(unaside, c))
        || fuzzily_has(unaside, &FUZZY_CONDITIONS)
        || unaside.windows(2).any(|w| {
            matches!(w[0].as_str(), "every" | "each" | "evry" | "eveyr") && EVERY_WHAT.contains(&w[1].as_str())
        })
        || puts_off(words)
}

/// Whether the request is for now only (`turn on the den lights just for now`): the call would leave it
/// so, and what undoes it later is a second request. Read before the closing `now` is passed over.
pub(super) fn for_now(all: &[String]) -> bool {
    find(all, &["for", "now"])
}

/// The text without the asides after a comma that tell of someone or something (`…, you always forget`,
/// `…, it's probably bedtime`, `…, i'm going to bed`): a clause opening with a word of `ASIDE_SUBJECTS`.
fn without_asides(text: &str) -> String {
    let asides = aside_ranges(text);
    text.chars().enumerate().filter(|(i, _)| !asides.iter().any(|(s, e)| s <= i && i < e)).map(|(_, c)| c).collect()
}

/// The clauses after a comma that tell of someone (`…, you always forget`), comma included, as character
/// ranges: they give a reason, and a hedge or a habit in them sets no condition on the request.
pub fn aside_ranges(text: &str) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    let mut at = 0;
    for (n, clause) in text.split(',').enumerate() {
        let len = clause.chars().count();
        let w = spelled(clause);
        let first = w.first().map(String::as_str).unwrap_or("");
        // An aside hides a hedge or a habit (`…, you always forget`), never a time or an event (`…, we
        // want that every evening`).
        let timed = CONDITIONS.iter().any(|c| !(c.len() == 1 && HEDGES.contains(&c[0])) && find(&w, c));
        if n > 0 && ASIDE_SUBJECTS.contains(&first) && w.len() >= 2 && !timed {
            ranges.push((at - 1, at + len));
        }
        at += len + 1;
    }
    ranges
}

/// Whether the words open with a time from now: `in 5 minutes, …`, `in an hour …`.
fn puts_off(words: &[String]) -> bool {
    let amount = |w: &str| {
        matches!(w, "a" | "an" | "one" | "two" | "three" | "five" | "ten" | "few" | "half")
            || w.chars().next().is_some_and(|c| c.is_ascii_digit())
    };
    words.first().is_some_and(|w| w == "in")
        && words.get(1).is_some_and(|w| amount(w))
        && words.iter().skip(2).take(2).any(|w| TIME_UNITS.contains(&w.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_aside_that_tells_why_is_left_out_and_one_that_names_a_time_is_kept() {
        assert_eq!(without_asides("turn off the den lights, you always forget"), "turn off the den lights");
        let timed = "turn on the den lights, we want that every evening";
        assert_eq!(without_asides(timed), timed);
    }

    #[test]
    fn an_opening_time_from_now_puts_the_request_off() {
        assert!(puts_off(&spelled("in 5 minutes turn off the den lights")));
        assert!(puts_off(&spelled("in an hour turn off the den lights")));
        assert!(!puts_off(&spelled("in the den turn off the lights")));
    }
}
