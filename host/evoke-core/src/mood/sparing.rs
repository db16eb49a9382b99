//! What a request spares: all but something (`turn off all lights bar the den`), or something kept from
//! happening (`keep the den lights from turning off`). Either is [`Mood::Negated`](super::Mood::Negated).

use super::lists::{EVERY, KEEPING, KEEPING_FROM, PREVENTING, SPARING, STAYING};
use super::negation;
use super::spelling::{gerund, spelled};

/// The marks that end a clause: what follows one opens a clause of its own (`…; skipping the den`,
/// `… . leave the den.`, `… - keep the den`, `… (keep the den)`), in their full-width forms too.
const CLAUSE_ENDS: [char; 37] = [
    ',', ';', ':', '.', '!', '?', '-', '—', '–', '‒', '―', '(', ')', '…', '，', '；', '：', '。', '！', '？', '~',
    '、', '[', ']', '{', '}', '<', '>', '|', '&', '•', '·', '«', '»', '「', '」', '\n',
];

/// Whether word `i` is a verb of [`KEEPING`] right after `and`: `… and keep the den` spares as `…, keep the
/// den` does.
fn and_keeping(words: &[String], i: usize) -> bool {
    i > 0 && words[i - 1] == "and" && KEEPING.contains(&words[i].as_str())
}

/// Whether the sentence spares something in words read with the negations, before any condition: a `but`
/// one or two words from the end (`all lights off but den`), a later clause that opens with a word of
/// `KEEPING` (`turn off all the lights, leave the den`, `… and keep the den`), or an opening clause that
/// spares ([`opening_clause`]).
pub(super) fn at_once(text: &str, all: &[String]) -> bool {
    let at_end = all.iter().rposition(|w| w == "but").is_some_and(|at| (1..=2).contains(&(all.len() - at - 1)));
    let after_comma = text
        .split(CLAUSE_ENDS)
        .skip(1)
        .any(|clause| spelled(clause).first().is_some_and(|w| KEEPING.contains(&w.as_str())));
    let after_and = (1..all.len()).any(|i| and_keeping(all, i) && all.len() > i + 1);
    at_end || after_comma || after_and || opening_clause(text).is_some()
}

/// Where the sentence opens with a clause of its own that spares something before the request that
/// follows it, as a later clause would (`keep the den, turn off the lights`, `please keep den - …`, `skip
/// the den, …`, `the den stays on, …`, `keep the den and turn off the lights`): past the words said before
/// a request, a word of `KEEPING` and a thing of one to four words, or another word of `SPARING` and a
/// determiner, or a thing of one to four words and a word of `STAYING` (last, or with one word after it);
/// a mark, or a word that joins another act, ends the clause, and more than a polite closing follows it.
/// The clause's end, in characters.
fn opening_clause(text: &str) -> Option<usize> {
    let chars: Vec<char> = text.chars().collect();
    let mark = chars.iter().position(|c| CLAUSE_ENDS.contains(c)).unwrap_or(chars.len());
    // A word that joins another act ends the clause as a mark does (`keep the den and turn off the
    // lights`); one that joins another thing does not (`keep the den and the kitchen, …`).
    let words = crate::words::words(text);
    let joined = words.windows(2).find(|pair| {
        let (join, next) = (&pair[0], &pair[1]);
        join.end <= mark
            && matches!(join.lower.as_str(), "and" | "but" | "so" | "or" | "then")
            && !matches!(next.lower.as_str(), "the" | "my" | "our" | "this" | "that" | "a" | "an")
    });
    let (end, rest_from) = match joined {
        Some(pair) => (pair[0].start, pair[0].end),
        None if mark < chars.len() => (mark, mark + 1),
        None => return None,
    };
    let clause: String = chars[..end].iter().collect();
    let words = spelled(&clause);
    let at = super::asking::opening(&words);
    let thing = |n: usize| (1..=4).contains(&n);
    let first = words.get(at).map(String::as_str);
    // `keep going` keeps on doing, and names no thing.
    let keeps = first.is_some_and(|w| KEEPING.contains(&w))
        && thing(words.len().saturating_sub(at + 1))
        && !words.get(at + 1).is_some_and(|w| gerund(w));
    let spares = first.is_some_and(|w| SPARING.contains(&w) && !matches!(w, "but" | "past" | "beyond"))
        && words.get(at + 1).is_some_and(|w| matches!(w.as_str(), "the" | "my" | "our" | "this" | "that"));
    // The staying word closes the clause, or comes one word before its end (`the den stays on`).
    let stays = words.iter().rev().take(2).any(|w| STAYING.contains(&w.as_str()))
        && thing(words.len().saturating_sub(at + 2).max(1));
    let opens = keeps || spares || stays;
    let rest: String = chars[rest_from..].iter().collect();
    (opens && !spelled(&rest).is_empty() && !super::closing(&rest)).then_some(end)
}

/// Whether a word later in the sentence spares something from what it asks: `turn off all lights bar the
/// den`, `turn off the lights but skip the den`, `…, skipping the den`, `…, the den excepted`, or keeps it
/// from happening: `keep the den lights from turning off`. It is read after the conditions, so that a
/// sentence on a condition stays one: `every time I leave, turn off the den lights` waits on the leaving.
pub(super) fn by_a_later_word(text: &str, all: &[String]) -> bool {
    let determiner =
        |w: Option<&String>| w.is_some_and(|w| matches!(w.as_str(), "the" | "my" | "our" | "this" | "that"));
    // What is spared follows a determiner, or a place's `in` or `at` and one: `… but in the den`.
    let named_after = |i: usize| {
        determiner(all.get(i + 1))
            || (all.get(i + 1).is_some_and(|w| w == "in" || w == "at") && determiner(all.get(i + 2)))
    };
    let after_all_or_but = all.iter().enumerate().any(|(i, w)| {
        SPARING.contains(&w.as_str())
            && named_after(i)
            && (all[..i].iter().any(|e| EVERY.contains(&e.as_str())) || (i > 0 && all[i - 1] == "but"))
    });
    let after_a_comma = text.split(CLAUSE_ENDS).skip(1).any(|clause| {
        let clause = spelled(clause);
        (clause.first().is_some_and(|w| SPARING.contains(&w.as_str()) && w != "but") && determiner(clause.get(1)))
            || clause.iter().rev().take(2).any(|w| STAYING.contains(&w.as_str()))
    });
    let kept_from = all.windows(2).enumerate().any(|(i, pair)| {
        pair[0] == "from" && gerund(&pair[1]) && all[..i].iter().any(|w| KEEPING_FROM.contains(&w.as_str()))
    });
    // `prevent the den lights turning off`, `guard the den lights against going off`: the `from` left out.
    let prevented = all
        .iter()
        .enumerate()
        .any(|(i, w)| PREVENTING.contains(&w.as_str()) && all[i + 1..].iter().skip(1).any(|w| gerund(w)));
    // `turn off the den lights bar the lamp`: what follows a thing named, and is spared from it.
    let after_a_thing = all.iter().enumerate().any(|(i, w)| {
        i > 0
            && matches!(w.as_str(), "save" | "bar" | "sans" | "leaving" | "omitting" | "sparing")
            && all[i - 1].len() > 3
            && all[i - 1].ends_with('s')
            && determiner(all.get(i + 1))
    });
    after_all_or_but || after_a_comma || kept_from || prevented || after_a_thing
}

/// Where a sentence read as [`Mood::Negated`](super::Mood::Negated) speaks of what is not to be done or
/// is spared, as character ranges, end exclusive: from each word or phrase of `NEGATIONS`, from a word of
/// `SPARING` after a word of `EVERY` or right after `but` (`but skip the den`), from a word of `SPARING`
/// after a thing named in `-s` (`the den lights bar the lamp`), and from a verb of `KEEPING_FROM` or
/// `PREVENTING` that keeps something from happening, each to the end of its clause (a comma, semicolon,
/// period, `!` or `?`, or the end); and a whole clause after a comma that opens with a word of `SPARING`
/// before a determiner, or with `leave`, `keep` or `spare` (`…, skipping the den`, `…, leave the den`), or
/// that closes with `aside`, `excepted`, `excluded`, `stay` or `stays` (`…, the den excepted`). These are the
/// places [`by_a_later_word`] and [`at_once`] read the sentence as sparing something. A value said only
/// there is what the person spared, never what the call should be made with: `turn off every light except
/// the den` names the den to keep it on.
pub fn spared_ranges(text: &str) -> Vec<(usize, usize)> {
    // The engine's words, for their offsets; `negation::opens` reads the lists as they spell them.
    let words = crate::words::words(text);
    let chars: Vec<char> = text.chars().collect();
    let is_end = |c: char| CLAUSE_ENDS.contains(&c);
    let clause_end = |from: usize| (from..chars.len()).find(|&i| is_end(chars[i])).unwrap_or(chars.len());
    let lower = |i: usize| words.get(i).map(|w| w.lower.as_str());
    let determiner = |i: usize| matches!(lower(i), Some("the" | "my" | "our" | "this" | "that"));
    let named_after = |i: usize| determiner(i + 1) || (matches!(lower(i + 1), Some("in" | "at")) && determiner(i + 2));
    let every_before = |i: usize| words[..i].iter().any(|w| EVERY.contains(&w.lower.as_str()));
    // Whether word `i` opens a clause after a mark that ends one, and where that clause starts.
    let after_a_comma = |i: usize| {
        let before = if i == 0 { None } else { Some(words[i - 1].end) };
        before.and_then(|b| (b..words[i].start).find(|&k| is_end(chars[k])))
    };
    let lowered: Vec<String> = words.iter().map(|w| w.lower.clone()).collect();
    let mut found: Vec<(usize, usize)> = Vec::new();
    let mut push = |start: usize, end: usize| found.push((start, end));
    for i in 0..words.len() {
        let w = words[i].lower.as_str();
        let sparing = SPARING.contains(&w);
        let opens = negation::opens(&words[i..])
            || (sparing && every_before(i))
            || (sparing && i > 0 && words[i - 1].lower == "but" && named_after(i))
            || (i > 0
                && matches!(w, "save" | "bar" | "sans" | "leaving" | "omitting" | "sparing")
                && words[i - 1].lower.len() > 3
                && words[i - 1].lower.ends_with('s')
                && determiner(i + 1))
            || ((KEEPING_FROM.contains(&w) || PREVENTING.contains(&w))
                && words[i + 1..].iter().any(|x| gerund(&x.lower)))
            || (after_a_comma(i).is_some() && ((sparing && w != "but" && determiner(i + 1)) || KEEPING.contains(&w)))
            || (and_keeping(&lowered, i) && i + 1 < words.len());
        if opens {
            push(words[i].start, clause_end(words[i].end));
        }
        // `…, the den excepted`, `…; the den stays on`: the clause that closes with the word, or with it and
        // one word more, is spared whole.
        let closes_clause =
            |at: usize| words.get(at + 1).is_none_or(|next| (words[at].end..next.start).any(|k| is_end(chars[k])));
        let last =
            if closes_clause(i) { Some(i) } else { Some(i + 1).filter(|&n| n < words.len() && closes_clause(n)) };
        if STAYING.contains(&w)
            && let Some(last) = last
        {
            let start = (0..words[i].start).rev().find(|&k| is_end(chars[k]));
            if let Some(start) = start {
                let first = words.iter().find(|x| x.start > start).map_or(words[i].start, |x| x.start);
                push(first, words[last].end);
            }
        }
    }
    if let Some(end) = opening_clause(text)
        && let Some(first) = words.first()
    {
        push(first.start, end);
    }
    // Ranges that overlap or touch are one.
    found.sort_unstable();
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for (start, end) in found {
        match ranges.last_mut() {
            Some(last) if last.1 >= start => last.1 = last.1.max(end),
            _ => ranges.push((start, end)),
        }
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_sentence_spares_runs_from_its_word_to_the_end_of_its_clause() {
        let spared = |text: &str| -> Vec<String> {
            spared_ranges(text).iter().map(|(a, b)| text.chars().skip(*a).take(b - a).collect()).collect()
        };
        assert_eq!(spared("turn off every light except the den"), ["except the den"]);
        assert_eq!(spared("turn off all the lights but the kitchen"), ["but the kitchen"]);
        assert_eq!(spared("switch off everything apart from the den lights"), ["apart from the den lights"]);
        // A comma closes the clause: what follows it is asked for again.
        assert_eq!(spared("turn off every light except the den, then lock up"), ["except the den"]);
        // `bar` spares only after a word of every one of something.
        assert_eq!(spared("turn off every light bar the den"), ["bar the den"]);
        assert!(spared("meet me at the bar in the den").is_empty());
        assert!(spared("turn off the kitchen lights").is_empty());
    }

    #[test]
    fn every_way_the_mood_reads_a_room_spared_names_its_range() {
        let spared = |text: &str| -> Vec<String> {
            spared_ranges(text).iter().map(|(a, b)| text.chars().skip(*a).take(b - a).collect()).collect()
        };
        assert_eq!(spared("turn off the lights, skipping the den"), ["skipping the den"]);
        assert_eq!(spared("turn off the lights but skip the den"), ["skip the den"]);
        assert_eq!(spared("turn off the lights but leave the den"), ["leave the den"]);
        assert_eq!(spared("turn off the lights, spare the den"), ["spare the den"]);
        assert_eq!(spared("turn off the lights, leave the den"), ["leave the den"]);
        assert_eq!(spared("turn off the den and office lights, the office excepted"), ["the office excepted"]);
        assert_eq!(spared("turn off the den lights bar the lamp"), ["bar the lamp"]);
        assert_eq!(spared("keep the den lights from turning off"), ["keep the den lights from turning off"]);
        // A spared clause said after another request still spares what it names.
        assert_eq!(
            spared("turn off the den and office lights, set a timer for 5 minutes, skipping the office"),
            ["skipping the office"]
        );
        // `leave` that asks for something, with no comma or `but` before it, spares nothing.
        assert!(spared("leave the den lights on").is_empty());
        assert!(spared("skip this song").is_empty());
    }
}
