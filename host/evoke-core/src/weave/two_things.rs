//! `two_things`: a call that holds only part of what its sentence asked for. An `and` or a `then` the
//! engine did not cut at joins something to the call; when the words on either side of it, up to the next
//! place the sentence could be cut, name a thing the call's reflex never speaks of, the call would do one
//! thing and drop the other: `turn off the kitchen lights and the oven` would switch the lights off and
//! leave the oven on. The gate confirms such a call rather than run half of the request (000 §13.1: never
//! half done).
//!
//! What a reflex speaks of is every word of its description, its examples, its arguments' names and
//! questions, its options' keys and its vocabularies' words. Not its `not_for`, which names what it does
//! not do, nor the meanings of its values, which describe a value by other things: the den's "The TV room
//! downstairs" does not make `turn off the den lights and the tv` one thing.

use super::cuts;
use crate::catalog::Reflex;
use crate::recognize::Candidate;
use crate::words::{Word, is_stop, words};
use std::collections::BTreeSet;

/// The connectives that join one more thing to a call when they are not cut at.
const JOINING: [&str; 3] = ["and", "then", ";"];

/// Words that join one more thing to a call and are no place to cut: `turn off the den lights plus the tv`,
/// `… as well as the fan`, `…, also the oven`.
const JOINING_WORDS: &[&[&str]] = &[
    &["plus"],
    &["also"],
    &["as", "well", "as"],
    &["along", "with"],
    &["together", "with"],
    &["in", "addition", "to"],
    &["as", "well"],
    &["including"],
    &["incl"],
    // `the den lights n the tv`: `and` as it is texted (`w/` joins by its mark).
    &["n"],
];

/// Words that join one more thing when they close a clause: `…, oven too`, `… the fan too.`; `did I spend
/// too much` is no join.
const CLOSING_JOINS: &[&str] = &["too"];

/// Marks that stand for `and` between two words: `the den lights & the tv`, `… && the fan`, `… / the
/// fan`, `… -- the fan` (a lone `-` is a hyphen or a range, `june 5 - 8`, and joins nothing).
const JOINING_MARKS: [char; 5] = ['&', '+', '/', '|', '-'];

/// Marks that end a sentence: one that stops inside the input starts another (`turn off the den lights.
/// the fan too.`, `… lights! the fan!`).
const SENTENCE_MARKS: [char; 2] = ['.', '!'];

/// Words a request closes or softens with, which name no thing.
const COURTESY: &[&str] = &[
    "again", "asap", "away", "both", "each", "every", "kindly", "now", "pls", "plz", "quick", "quickly", "right",
    "thank", "thanks", "thx", "together", "well",
];

/// Words of what the speaker knows or wonders, which ask for the call's answer and name no second thing:
/// `my account is blocked and i have no idea why`, `… and i'm not sure why`.
const NOT_KNOWING: &[&str] =
    &["cant", "curious", "dont", "idea", "no", "not", "reason", "sure", "understand", "wonder", "wondering"];

/// Words before an `and` that join two verbs of one act: `go ahead and flip a coin`, `come and pick me up`,
/// `try and find my phone`.
const ONE_ACT: &[&str] = &["ahead", "come", "go", "try"];

/// Whether a call of `reflex` on `input` may leave out a second thing the sentence joins to it.
pub fn may_ask_two_things(input: &str, candidates: &[Candidate], reflex: &Reflex) -> bool {
    let places = cuts(input, candidates);
    let said = words(input);
    let in_a_span = |start: usize, end: usize| candidates.iter().any(|c| start < c.span.end && c.span.start < end);
    // Every place that joins one more thing, as character offsets; the cut places bound what each joins.
    let mut joins: Vec<(usize, usize)> = places
        .iter()
        .filter(|c| JOINING.contains(&c.word.as_str()) && !(c.word == "and" && joins_one_act(&said, c.start)))
        .map(|c| (c.start, c.end))
        .collect();
    for (i, _) in said.iter().enumerate() {
        for phrase in JOINING_WORDS {
            let here = said.get(i..i + phrase.len());
            if let Some(here) = here.filter(|h| h.iter().zip(phrase.iter()).all(|(w, p)| w.lower == *p)) {
                let (start, end) = (here[0].start, here[here.len() - 1].end);
                if !in_a_span(start, end) {
                    joins.push((start, end));
                }
            }
        }
    }
    let chars: Vec<char> = input.chars().collect();
    for (i, w) in said.iter().enumerate() {
        let closes = said.get(i + 1).is_none_or(|next| chars[w.end..next.start].iter().any(|c| ",.;!?".contains(*c)));
        if CLOSING_JOINS.contains(&w.lower.as_str()) && closes && !in_a_span(w.start, w.end) {
            joins.push((w.start, w.end));
        }
    }
    let mark = |c: &char| JOINING_MARKS.contains(c);
    let mut i = 0;
    while i < chars.len() {
        if !mark(&chars[i]) && !SENTENCE_MARKS.contains(&chars[i]) {
            i += 1;
            continue;
        }
        // A run of marks (`&&`, `||`, `--`, `/`), or one that ends a sentence before more words.
        let start = i;
        while i < chars.len() && chars[i] == chars[start] {
            i += 1;
        }
        let before = start.checked_sub(1).and_then(|j| chars.get(j));
        let after = chars.get(i);
        let words_after = chars[i..].iter().any(|c| c.is_alphanumeric());
        let joins_here = if SENTENCE_MARKS.contains(&chars[start]) {
            after.is_some_and(|c| c.is_whitespace()) && words_after && !gives_a_reason(&chars[i..])
        } else if chars[start] == '/' {
            // `lights/tv` and `lights / tv`, but not a fraction or a date (`1/2`), which a span holds.
            words_after && before.is_some_and(|c| !c.is_ascii_digit())
        } else {
            let spaced = |c: Option<&char>| c.is_none_or(|c| c.is_whitespace());
            spaced(before) && spaced(after) && (chars[start] != '-' || i - start >= 2)
        };
        if joins_here && !in_a_span(start, i) {
            joins.push((start, i));
        }
    }
    if joins.is_empty() {
        return false;
    }
    let spoken = spoken_of(reflex);
    let unspoken = |from: usize, to: usize| names_unspoken(&said, candidates, &spoken, from, to);
    let length = chars.len();
    let bounds: Vec<(usize, usize)> = places.iter().map(|c| (c.start, c.end)).chain(joins.iter().copied()).collect();
    // A bound with no word between it and the join bounds nothing: `and, the tv` reads on past the comma.
    let words_between = |from: usize, to: usize| said.iter().any(|w| w.start >= from && w.end <= to);
    joins.iter().any(|&(start, end)| {
        let before =
            bounds.iter().filter(|b| b.1 <= start && words_between(b.1, start)).map(|b| b.1).max().unwrap_or(0);
        let after =
            bounds.iter().filter(|b| b.0 >= end && words_between(end, b.0)).map(|b| b.0).min().unwrap_or(length);
        unspoken(before, start) || unspoken(end, after)
    })
}

/// Whether the words between characters `from` and `to` name a thing a reflex never speaks of (`spoken`,
/// [`spoken_of`]): a word no typed span holds, no small word, courtesy or word of what the speaker knows,
/// nor a word that joins. A word that asks for the call once more (`and start it again`) joins a second
/// call of it, and counts too.
fn names_unspoken(said: &[Word], candidates: &[Candidate], spoken: &BTreeSet<String>, from: usize, to: usize) -> bool {
    let in_a_span = |start: usize, end: usize| candidates.iter().any(|c| start < c.span.end && c.span.start < end);
    said.iter().enumerate().filter(|(_, w)| w.start >= from && w.end <= to).any(|(i, w)| {
        crate::readback::says_again(said, i)
            || (!in_a_span(w.start, w.end)
                && !is_stop(w)
                && !COURTESY.contains(&w.lower.as_str())
                && !COURTESY.contains(&w.stem.as_str())
                && !NOT_KNOWING.contains(&w.lower.as_str())
                && !JOINING_WORDS.iter().any(|p| p.contains(&w.lower.as_str()))
                && !CLOSING_JOINS.contains(&w.lower.as_str())
                && !w.lower.chars().all(|c| c.is_ascii_digit())
                && !spoken.contains(&w.stem))
    })
}

/// Whether `side`, a side of a joint in a call of `reflex`, names a thing that reflex never speaks of: the
/// side the call leaves out, as [`may_ask_two_things`] reads it (`i'm not sure why` names none).
pub fn names_another_thing(side: &str, reflex: &Reflex) -> bool {
    let said = words(side);
    let candidates = crate::recognize::recognize(side);
    names_unspoken(&said, &candidates, &spoken_of(reflex), 0, side.chars().count())
}

/// Whether a part that says what not to do joins more to it (`…, not the den, and the office`): whether
/// the office is ruled out too or asked for is the person's to say, so no step of the plan runs unasked.
/// So does one that only seems to rule out (`…, not just the kitchen` asks for the kitchen too), one that
/// goes on past a contrast or a clause's end (`…, not the den but the office`, `…, not the den; the
/// office`), and one a part joined by `and`, `plus` or `also` follows (`parts`, the plan's parts).
pub fn excluded_joins_more(excluded: &[super::Part], parts: &[super::Part], sentence: &str) -> bool {
    let chars: Vec<char> = sentence.chars().collect();
    let joining = |text: &str| words(text).iter().any(|w| matches!(w.lower.as_str(), "and" | "plus" | "also"));
    excluded.iter().any(|part| {
        let said = words(&part.text);
        let not_only = said.len() >= 2
            && said[0].lower == "not"
            && matches!(said[1].lower.as_str(), "just" | "only" | "simply" | "merely");
        // A clause's end with words after it: what follows is no longer what was ruled out.
        let text: Vec<char> = part.text.chars().collect();
        let goes_on =
            said.iter().any(|w| text[..w.start].iter().any(|c| matches!(c, ',' | ';' | '.' | '!' | '?' | '—' | '–')))
                || said.windows(2).any(|p| text[p[0].end..p[1].start].iter().filter(|c| **c == '-').count() >= 2);
        // The part right after it, with nothing left out between, joined to it.
        let next = parts.iter().filter(|p| p.start >= part.end).min_by_key(|p| p.start);
        let between = |p: &super::Part| excluded.iter().any(|e| e.start >= part.end && e.end <= p.start);
        // The words between the part and the next, connective and all (`, and`).
        let gap =
            |p: &super::Part| -> String { chars[part.end.min(chars.len())..p.start.min(chars.len())].iter().collect() };
        let joined_after =
            next.is_some_and(|p| !between(p) && (p.connective.as_deref().is_some_and(joining) || joining(&gap(p))));
        not_only
            || goes_on
            || joined_after
            || part.text.contains(['&', '+'])
            || said.iter().any(|w| matches!(w.lower.as_str(), "and" | "plus" | "then" | "also"))
            || said.iter().skip(1).any(|w| w.lower == "but")
    })
}

/// Whether a part that says what not to do names no value any of the plan's reflexes takes: `turn off the
/// den lights but not the lamp` leaves the lamp out of the plan, and the call, which takes a room, would
/// switch the lamp off with the rest. What is ruled out must be a value (an option, a vocabulary word or
/// a word of its meaning) for the plan to keep it out; otherwise no step of the plan runs unasked. A part
/// that names nothing at all (`… and then don't`, `… and don't do it`) rules out what was asked itself.
pub fn excluded_names_no_value(excluded: &[super::Part], reflexes: &[&Reflex]) -> bool {
    let mut values: BTreeSet<String> = BTreeSet::new();
    for reflex in reflexes {
        for arg in &reflex.manifest.args {
            values.extend(arg.source.option_keys().flat_map(words).map(|w| w.stem));
        }
        for vocab in reflex.vocabs.values() {
            for word in &vocab.words {
                values.extend(words(&word.word).into_iter().chain(words(&word.what)).map(|w| w.stem));
            }
        }
    }
    excluded.iter().any(|part| {
        let named: Vec<Word> = words(&part.text)
            .into_iter()
            .filter(|w| !is_stop(w) && !matches!(w.lower.as_str(), "dont" | "don't" | "never" | "without"))
            .collect();
        !named.iter().any(|w| values.contains(&w.stem))
    })
}

/// Words that open a sentence telling how things are or how the speaker is (`i'm going to bed`, `it's
/// late`), which gives a reason and asks for no second thing.
/// (Apostrophes are dropped: `it's` reads `its`.)
const TELLING: &[&str] = &["im", "its", "theyre", "youre", "thats", "theres", "ive", "weve"];

/// Words a sentence of its own can close a request with: a farewell, which asks for nothing.
const FAREWELLS: &[&str] = &["goodnight", "night", "nite", "bye", "goodbye", "cheers", "ta", "good", "love"];

/// Whether the sentence that starts `rest` only tells why or takes leave: `turn off the den lights.
/// goodnight.`, `… . i'm going to bed.`
fn gives_a_reason(rest: &[char]) -> bool {
    let sentence: String = rest.iter().take_while(|c| !SENTENCE_MARKS.contains(c) && **c != '?').collect();
    let said = words(&sentence);
    let Some(first) = said.first() else { return false };
    let second = said.get(1).map(|w| w.lower.as_str());
    TELLING.contains(&first.lower.as_str())
        || matches!((first.lower.as_str(), second), ("i", Some("am")) | ("it", Some("is")) | ("we", Some("are")))
        || said.iter().all(|w| FAREWELLS.contains(&w.lower.as_str()) || COURTESY.contains(&w.lower.as_str()))
}

/// Whether the word at `i` stands before an `and` that joins two verbs of one act (`come and …`).
pub(crate) fn opens_one_act(said: &[Word], i: usize) -> bool {
    ONE_ACT.contains(&said[i].lower.as_str()) && said.get(i + 1).is_some_and(|w| w.lower == "and")
}

/// Whether the word just before the connective at `at` makes it part of one act (`go ahead and …`).
fn joins_one_act(said: &[Word], at: usize) -> bool {
    said.iter().rev().find(|w| w.end <= at).is_some_and(|w| ONE_ACT.contains(&w.lower.as_str()))
}

/// The reflex's own texts: its description, examples, arguments' names, questions and option keys, and
/// its vocabularies' words.
pub(crate) fn spoken_texts(reflex: &Reflex) -> Vec<&str> {
    let manifest = &reflex.manifest;
    let mut texts: Vec<&str> = vec![manifest.description.as_str()];
    texts.extend(manifest.examples.iter().map(|e| e.utterance.as_str()));
    for arg in &manifest.args {
        texts.push(&arg.name);
        texts.push(&arg.ask);
        texts.extend(arg.source.option_keys());
    }
    for vocab in reflex.vocabs.values() {
        texts.extend(vocab.words.iter().map(|w| w.word.as_str()));
    }
    texts
}

/// The stems of every word the reflex's own texts say.
pub(crate) fn spoken_of(reflex: &Reflex) -> BTreeSet<String> {
    spoken_texts(reflex).iter().flat_map(|t| words(t)).map(|w| w.stem).collect()
}
