//! An argument's question: which option, which of the user's words, which span, or unstated. `local`
//! reads the keys and their texts as they are offered: an option key or a vocabulary word said in the
//! request (or a word the lexicon holds for it, or a name quoted in a word's meaning: `also 'the snug'`)
//! is strong evidence; the words of a meaning weaker; a pick's span is weighed by how its neighbourhood
//! answers the argument's `ask`.

use super::calibration::ArgParams;
use super::lexicon;
use super::words::{Word, is_stop, words};
use evoke_core::mention::{By, Said};
use evoke_core::question::{NO, NONE, Question, Text, UNSTATED, YES};
use std::collections::HashSet;

/// What `local` reads an argument question with.
pub struct Reading<'a> {
    pub request: &'a [Word],
    pub params: &'a ArgParams,
    pub synonyms: &'a [(String, Vec<String>)],
    /// What the core read of the keys said, for this argument: the longest key said wins, and a place
    /// another argument takes is not this one's.
    pub said: Option<&'a Said>,
    /// Stems an example never teaches: every value word of the round's arguments, and the reflex's own
    /// description.
    pub common: &'a HashSet<String>,
}

impl Reading<'_> {
    /// The same reading over other words (an example's), with nothing of the request's mentions.
    // Read by `embed` alone, which a build without the `embed` feature leaves out.
    #[cfg_attr(not(feature = "embed"), allow(dead_code))]
    pub fn over<'b>(&'b self, words: &'b [Word]) -> Reading<'b> {
        Reading { request: words, params: self.params, synonyms: self.synonyms, said: None, common: self.common }
    }
}

/// The stems an option's examples teach it: the content words of the utterances that assert it which no
/// other option's examples, no option's key or meaning, and no word of `common` has. From
/// `"kill the lights" = { state = "off" }` beside `"turn on the kitchen lights" = { state = "on" }`, `off`
/// learns `kill`.
fn taught(options: &[(String, Text)], common: &HashSet<String>) -> Vec<HashSet<String>> {
    let stems = |t: &str| -> HashSet<String> {
        words(t)
            .into_iter()
            .filter(|w| !is_stop(w) && !w.lower.chars().any(|c| c.is_ascii_digit()))
            .map(|w| w.stem)
            .collect()
    };
    let of_examples: Vec<HashSet<String>> = options
        .iter()
        .map(|(_, t)| match t {
            Text::Rich { examples, .. } => examples.iter().flat_map(|e| stems(e)).collect(),
            Text::Plain(_) => HashSet::new(),
        })
        .collect();
    let named: HashSet<String> = options
        .iter()
        .flat_map(|(k, t)| {
            let meaning = match t {
                Text::Plain(m) => m.as_str(),
                Text::Rich { what, .. } => what.as_str(),
            };
            words(k).into_iter().chain(words(meaning)).map(|w| w.stem).collect::<Vec<_>>()
        })
        .collect();
    (0..options.len())
        .map(|i| {
            of_examples[i]
                .iter()
                .filter(|s| {
                    !named.contains(*s)
                        && !common.contains(*s)
                        && of_examples.iter().enumerate().all(|(j, o)| j == i || !o.contains(*s))
                })
                .cloned()
                .collect()
        })
        .collect()
}

/// Names quoted inside a text: `'the snug'`, `"the study"`.
fn quoted(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (open, close) in [('\'', '\''), ('"', '"'), ('‘', '’'), ('“', '”')] {
        let mut rest = text;
        while let Some(a) = rest.find(open) {
            // An apostrophe inside a word (`it's`) opens nothing.
            let before = rest[..a].chars().next_back();
            let after = &rest[a + open.len_utf8()..];
            if open == '\'' && before.is_some_and(char::is_alphanumeric) {
                rest = after;
                continue;
            }
            let Some(b) = after.find(close) else { break };
            let inside = &after[..b];
            if !inside.trim().is_empty() && inside.chars().count() <= 40 {
                out.push(inside.trim().to_string());
            }
            rest = &after[b + close.len_utf8()..];
        }
    }
    out
}

/// Whether an option or vocabulary word is said in full, in whole words: its key, or a name its meaning
/// quotes (`also 'the snug'`), and not inside a longer word said or in a place another argument takes.
// Read by `embed` (and this module's tests) alone, which a build without the `embed` feature leaves out.
#[cfg_attr(not(feature = "embed"), allow(dead_code))]
pub fn said_in_full(reading: &Reading, key: &str, meaning: &str) -> bool {
    if only_inside_a_longer_name(reading, key, meaning) {
        return false;
    }
    if let Some(said) = reading.said {
        match said.by(key) {
            Some(By::Name) => return true,
            None if said.is_unread(key) => return false,
            _ => {}
        }
    }
    !places(reading.request, key, meaning).is_empty()
}

/// Where the key, or a name its meaning quotes, is said in whole words: the first word of each place.
fn places(request: &[Word], key: &str, meaning: &str) -> Vec<usize> {
    spans(request, key, meaning).into_iter().map(|(at, _)| at).collect()
}

/// Where the key, or a name its meaning quotes, is said in whole words: each place's first word and its
/// count of words.
fn spans(request: &[Word], key: &str, meaning: &str) -> Vec<(usize, usize)> {
    // The `on` of `come on`, `hold on`, `go on`, and of a polite closing (`…, and so on`), says nothing of a
    // setting.
    let lowered: Vec<&str> = request.iter().map(|w| w.lower.as_str()).collect();
    let closing = evoke_core::mention::closing_at(&lowered);
    let idiom =
        |i: usize| i >= closing || (i > 0 && evoke_core::mood::idiom_on(&request[i - 1].lower, &request[i].lower));
    let mut out = Vec::new();
    for phrase in std::iter::once(key.to_string()).chain(quoted(meaning)) {
        let phrase = words(&phrase);
        if phrase.is_empty() || phrase.len() > request.len() {
            continue;
        }
        out.extend(
            (0..=request.len() - phrase.len())
                .filter(|&i| phrase.iter().zip(&request[i..]).all(|(p, r)| p.stem == r.stem) && !idiom(i))
                .map(|i| (i, phrase.len())),
        );
    }
    out
}

/// Words a name can open after: articles, possessives, quantifiers and the prepositions of a place (`the
/// guest bedroom`, `all guest bedroom lights`, `lights in guest bedroom`).
const OPENING_A_NAME: &[&str] = &[
    "the", "a", "an", "my", "our", "your", "his", "her", "their", "this", "that", "these", "those", "some", "every",
    "each", "both", "all", "any", "in", "at", "of", "on", "off", "inside", "near", "by", "for",
];

/// Words that place a thing beside a named one rather than in it: `the lights outside the kitchen`.
const BESIDE: &[&[&str]] = &[
    &["outside"],
    &["near"],
    &["above"],
    &["below"],
    &["behind"],
    &["beside"],
    &["beneath"],
    &["under"],
    &["next", "to"],
    &["across", "from"],
    &["leading", "to"],
    &["close", "to"],
    &["beyond"],
    &["past"],
    &["by"],
    &["around"],
    &["opposite"],
    &["over"],
    &["across"],
];

/// Whether every place the key is said follows a word that puts the thing beside it (`the hallway light
/// near the den`): the den is where the light is not.
fn only_beside(request: &[Word], key: &str, meaning: &str) -> bool {
    let at = places(request, key, meaning);
    let beside = |at: usize| {
        let mut i = at;
        while i > 0 && matches!(request[i - 1].lower.as_str(), "the" | "my" | "our" | "a" | "an" | "this" | "that") {
            i -= 1;
        }
        BESIDE.iter().any(|phrase| {
            i >= phrase.len() && request[i - phrase.len()..i].iter().zip(phrase.iter()).all(|(w, p)| w.lower == *p)
        })
    };
    !at.is_empty() && at.into_iter().all(beside)
}

/// Whether the request places what it speaks of somewhere the round's values do not name: `in` or `at`,
/// the words that point (`the`, `my`, `other`, …) passed over, then a word the round does not read (`at
/// my neighbor's`, `at mom's`, `in the other house`, `at the lake house`, `at work`), or `next door` and
/// `across the street`. A kitchen named there is another household's kitchen, not the one the vocabulary
/// means. A place the values name (`in the den`), a number (`in 5 minutes`), a time of day (`at night`)
/// or a small word (`in here`) is no such place.
fn placed_elsewhere(request: &[Word], unread: &dyn Fn(&Word) -> bool) -> bool {
    let pointing = |w: &Word| matches!(w.lower.as_str(), "the" | "a" | "an" | "my" | "our" | "this" | "that");
    // Words that point away from the speaker's own home: `the other house`, `his place`.
    let pointing_away =
        |w: &Word| matches!(w.lower.as_str(), "your" | "his" | "her" | "their" | "other" | "old" | "new" | "another");
    let elsewhere = request.iter().enumerate().any(|(i, w)| {
        if !matches!(w.lower.as_str(), "in" | "at" | "of") {
            return false;
        }
        let mut j = i + 1;
        let mut away = false;
        while request.get(j).is_some_and(|w| pointing(w) || pointing_away(w)) {
            away |= pointing_away(&request[j]);
            j += 1;
        }
        request.get(j).is_some_and(|w| {
            let here = HERE.contains(&w.lower.as_str()) || TIMES_OF_DAY.contains(&w.lower.as_str());
            unread(w) && (away || !here)
        })
    });
    let lowers: Vec<&str> = request.iter().map(|w| w.lower.as_str()).collect();
    elsewhere
        || lowers.windows(2).any(|w| w == ["next", "door"])
        || lowers.windows(3).any(|w| w == ["across", "the", "street"] || w == ["across", "the", "road"])
}

/// Words after `in` or `at` that name the speaker's own home: `at home`, `in the house`, `in my house`.
const HERE: &[&str] = &["home", "house", "flat", "apartment", "place"];

/// Words after `in` or `at` that tell when, not where: the mood reads them (`in the morning`).
const TIMES_OF_DAY: &[&str] =
    &["morning", "afternoon", "evening", "night", "noon", "midnight", "once", "sunset", "sunrise", "dawn", "dusk"];

/// Words that may follow a value and leave it said in full: politeness, a time, a word for a room.
const AFTER_A_VALUE: &[&str] = &["thanks", "thank", "pls", "plz", "asap", "again", "tonight", "room", "area"];

/// Whether every place the key is said runs on into a word no value of the round reads, as the start of
/// a longer name (`the kitchen gas`, `the kitchen fan`, `the office building lights`, `the den patio
/// lights`): a kitchen's fan is no kitchen light. A word the round reads (`lights`, `off`), a small word, a
/// word in `-ly`, a word of the lexicon and a number pass.
fn runs_on_into_another_name(request: &[Word], spans: &[(usize, usize)], passes: &dyn Fn(&Word) -> bool) -> bool {
    !spans.is_empty()
        && spans.iter().all(|&(at, len)| {
            request
                .get(at + len)
                .is_some_and(|w| !passes(w) && !w.lower.ends_with("ly") && !AFTER_A_VALUE.contains(&w.lower.as_str()))
        })
}

/// Words before the reflex's own thing that still speak of the room's (`every light in the den`, `the main
/// lights in the kitchen`).
const OF_THE_ROOM: &[&str] = &[
    "every",
    "each",
    "both",
    "all",
    "those",
    "these",
    "remaining",
    "rest",
    "main",
    "overhead",
    "usual",
    "regular",
    "normal",
    "big",
    "small",
    "bright",
    "other",
    "two",
    "three",
    "four",
    "few",
    "many",
    "some",
];

/// Words that leave a setting only partly said: `nearly off`, `off a bit`, `kind of on`.
const HEDGES: &[&[&str]] = &[
    &["nearly"],
    &["almost"],
    &["mostly"],
    &["partly"],
    &["partially"],
    &["partway"],
    &["halfway"],
    &["half"],
    &["somewhat"],
    &["slightly"],
    &["ish"],
    &["a", "bit"],
    &["a", "little"],
    &["a", "tad"],
    &["kind", "of"],
    &["sort", "of"],
    &["kinda"],
    &["sorta"],
    &["just", "about"],
    &["pretty", "much"],
    &["practically"],
    &["virtually"],
    &["basically"],
    &["essentially"],
    &["more", "or", "less"],
    &["largely"],
    &["semi"],
    &["as", "good", "as"],
    &["shy", "of"],
    &["near"],
];

/// Words that speak of some of a thing, not all of it: `some of the den lights`.
const SOME_OF: &[&[&str]] = &[
    &["some", "of"],
    &["a", "few", "of"],
    &["most", "of"],
    &["half", "of"],
    &["one", "of"],
    &["part", "of"],
    &["a", "couple", "of"],
];

/// Words that speak of every one of something: `all the lights`, `everywhere`.
const ALL: &[&str] = &["all", "every", "everywhere", "everything", "whole", "entire"];

/// Whether every place the key is said follows a word for all of something and, between the two, a word
/// the round does not read: `turn off all lights omitting the den`, `… everywhere excl the den`, `… all
/// lights excpet the den`. A value named after `all` narrows it only through words that place it (`all
/// the lights in the den`); any other word between is likely one that spares it, however it is spelt.
fn set_apart_from_all(request: &[Word], spans: &[(usize, usize)], unread: &dyn Fn(&Word) -> bool) -> bool {
    spans.iter().all(|&(at, _)| {
        request[..at]
            .iter()
            .rposition(|w| ALL.contains(&w.lower.as_str()))
            .is_some_and(|all| request[all + 1..at].iter().any(unread))
    })
}

/// Words that speak of one thing of several: `a den light`, `a light in the den`.
const ONE_OF: &[&str] = &["a", "an", "one", "single", "another", "some"];

/// Whether a place the key is said follows a word for one of several, right before it (`turn off a den
/// light`, `some den lights`) or before a thing `in` it (`a light in the den`): one light of the room, and
/// the call would switch them all.
fn one_of(request: &[Word], spans: &[(usize, usize)]) -> bool {
    let one = |i: usize| ONE_OF.contains(&request[i].lower.as_str());
    spans.iter().any(|&(at, _)| {
        (at >= 1 && one(at - 1))
            || (at >= 3 && request[at - 1].lower == "in" && one(at - 3))
            || (at >= 4 && request[at - 2].lower == "in" && request[at - 1].lower == "the" && one(at - 4))
    })
}

/// Whether a place the key is said follows someone else's word: `in her kitchen`, `their den`.
fn someone_elses(request: &[Word], spans: &[(usize, usize)]) -> bool {
    spans.iter().any(|&(at, _)| at >= 1 && matches!(request[at - 1].lower.as_str(), "his" | "her" | "their" | "your"))
}

/// Whether `phrase` is said word for word at `at`.
fn said_at(request: &[Word], at: usize, phrase: &[&str]) -> bool {
    at + phrase.len() <= request.len() && request[at..at + phrase.len()].iter().zip(phrase).all(|(w, p)| w.lower == *p)
}

/// Hedges that, closing the request, leave its setting partly said wherever it stands: `turn on the den
/// lights halfway`. (`a little` and `a bit` do not: `dim the den lights a little` is a dim.)
const CLOSING_HEDGES: &[&str] = &["halfway", "partially", "partway", "partly", "half"];

/// Whether a hedge stands right before or right after a place the key is said (`turn the den lights
/// nearly off`, `turn the den lights off partially`), or one of `CLOSING_HEDGES` closes the request.
fn hedged(request: &[Word], spans: &[(usize, usize)]) -> bool {
    let closing = request.last().is_some_and(|w| CLOSING_HEDGES.contains(&w.lower.as_str()));
    !spans.is_empty() && closing
        || spans.iter().any(|&(at, len)| {
            HEDGES.iter().any(|h| (at >= h.len() && said_at(request, at - h.len(), h)) || said_at(request, at + len, h))
        })
}

/// Whether the request holds a phrase of `phrases`, word for word.
fn holds(request: &[Word], phrases: &[&[&str]]) -> bool {
    phrases.iter().any(|p| (0..request.len()).any(|at| said_at(request, at, p)))
}

/// Whether the key is said, but only as the end of a longer name the values do not hold: between the
/// key and a word a name opens after (above: `turn off guest bedroom lights`) stand one or two content
/// words no value of the round reads (`the guest bedroom`, `my neighbor's kitchen`, `the cozy little
/// den`, beside a vocabulary that has `bedroom`, `kitchen` and `den`). A user who named one bedroom may
/// have two, and the one said is not the one named: the key is not said in full. The first word of the
/// request starts a name too (`guest bedroom lights off`), unless it is a verb a request starts with or
/// a word of the lexicon (`kill den lights`, `dim bedroom lights`), and so does the first word after the
/// command's verbs and the words that open a request (`turn guest bedroom lights off`, `ok guest bedroom
/// lights off`); nor does a word the round reads
/// (`they're still on` after `kitchen lights`: `lights` is the reflex's own word).
fn only_inside_a_longer_name(reading: &Reading, key: &str, meaning: &str) -> bool {
    let request = reading.request;
    if only_beside(request, key, meaning) {
        return true;
    }
    let unread =
        |w: &Word| !is_stop(w) && !reading.common.contains(&w.stem) && !w.lower.chars().any(|c| c.is_ascii_digit());
    let said = spans(request, key, meaning);
    // The place is elsewhere, the setting is not: `on` and `off` are the lexicon's, a room is not.
    let a_setting = words(key).iter().all(|w| lexicon::is_known(&w.stem, reading.synonyms));
    if a_setting && hedged(request, &said) {
        return true;
    }
    if !a_setting
        && !said.is_empty()
        && (placed_elsewhere(request, &unread)
            || holds(request, SOME_OF)
            || one_of(request, &said)
            || someone_elses(request, &said)
            || set_apart_from_all(request, &said, &unread))
    {
        return true;
    }
    if !a_setting && runs_on_into_another_name(request, &said, &|w| !unread(w)) {
        return true;
    }
    // `the oven light in the kitchen`, `the desk lamp in the office`: the reflex's own thing, named by a
    // word the round does not read before the room, is one thing of the room, not the room's.
    let a_thing =
        |w: &Word| reading.common.contains(&w.stem) && !is_stop(w) && !lexicon::is_known(&w.stem, reading.synonyms);
    let named_apart = |at: usize| {
        let mut i = at;
        if i > 0 && matches!(request[i - 1].lower.as_str(), "the" | "my" | "our" | "this") {
            i -= 1;
        }
        i >= 3
            && matches!(request[i - 1].lower.as_str(), "in" | "of" | "at" | "inside")
            && a_thing(&request[i - 2])
            && unread(&request[i - 3])
            && !request[i - 3].lower.ends_with("ly")
            && !OF_THE_ROOM.contains(&request[i - 3].lower.as_str())
    };
    if !a_setting && !said.is_empty() && said.iter().all(|&(at, _)| named_apart(at)) {
        return true;
    }
    let opens = |w: &Word| OPENING_A_NAME.contains(&w.lower.as_str());
    let commands = |w: &Word| super::weave::starts_a_request(&w.lower) || lexicon::is_known(&w.stem, reading.synonyms);
    // A command's verb, or a word that only opens a request, at the very start opens a name too:
    // `turn guest bedroom lights off`, `please guest bedroom lights off`.
    let starts =
        |i: usize| request[..=i].iter().all(|w| commands(w) || evoke_core::mood::opens_only(&w.lower) || opens(w));
    let inside = |at: usize| {
        let mut i = at;
        while i > 0 && at - i < 2 && !opens(&request[i - 1]) && !starts(i - 1) && unread(&request[i - 1]) {
            i -= 1;
        }
        i < at && if i == 0 { !commands(&request[0]) } else { opens(&request[i - 1]) || starts(i - 1) }
    };
    let at = places(request, key, meaning);
    !at.is_empty() && at.into_iter().all(inside)
}

/// The evidence that the request states the value `key`, whose text is `meaning` and whose examples
/// teach the stems `taught`.
fn value_evidence(reading: &Reading, key: &str, meaning: &str, taught: &HashSet<String>) -> f32 {
    let request = reading.request;
    let key_words = words(key);
    // Said only as the end of a longer name (`the guest bedroom`): the words of a name the values lack.
    if only_inside_a_longer_name(reading, key, meaning) {
        return reading.params.partial;
    }
    let mut best: f32 = 0.0;
    if let Some(said) = reading.said {
        match said.by(key) {
            Some(By::Name) => return 1.0,
            Some(By::Word) => best = reading.params.synonym,
            // Said, but inside a longer key, or in a place another argument takes.
            None if said.is_unread(key) => return 0.0,
            None => {}
        }
    }
    if request.iter().any(|r| taught.contains(&r.stem)) {
        best = best.max(reading.params.taught);
    }
    if !places(request, key, meaning).is_empty() {
        best = 1.0;
    }
    // A one-word key said through a word the lexicon holds for it.
    if best < 1.0 && key_words.len() == 1 {
        let k = &key_words[0].stem;
        if request.iter().any(|r| r.stem != *k && lexicon::same(&r.stem, k, reading.synonyms)) {
            best = best.max(reading.params.synonym);
        }
    }
    // A key of several words, partly said.
    if best < 1.0 && key_words.len() > 1 {
        let content: Vec<&Word> = key_words.iter().filter(|w| !is_stop(w)).collect();
        if !content.is_empty() {
            let found = content.iter().filter(|k| request.iter().any(|r| r.stem == k.stem)).count();
            best = best.max(reading.params.partial * found as f32 / content.len() as f32);
        }
    }
    // The meaning's own words: weak evidence, by the share of its content words said.
    // A word inside another key said by name is that key's, not this meaning's: `the living room lights`
    // says nothing of the den, `the TV room downstairs`.
    let named_for_another = |r: &Word| {
        reading.said.is_some_and(|said| {
            said.mentions
                .iter()
                .any(|m| m.key != key && m.by == By::Name && r.start >= m.span.start && r.end <= m.span.end)
        })
    };
    let meaning_words: Vec<Word> = words(meaning).into_iter().filter(|w| !is_stop(w)).collect();
    if !meaning_words.is_empty() {
        let found = meaning_words
            .iter()
            .filter(|m| request.iter().any(|r| !is_stop(r) && r.stem == m.stem && !named_for_another(r)))
            .count();
        let share = found as f32 / meaning_words.len() as f32;
        best = best.max(reading.params.meaning * share.sqrt() * if found > 0 { 1.0 } else { 0.0 });
    }
    best
}

/// A pick candidate's key: `<start>-<end>`.
fn span_of(key: &str) -> Option<(usize, usize)> {
    let (a, b) = key.split_once('-')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

/// The evidence for a candidate span: every candidate stands, and the words near it that answer the
/// argument's `ask` lift it.
fn span_evidence(reading: &Reading, ask: &[Word], start: usize, end: usize, text: &str) -> f32 {
    let near: Vec<&Word> =
        reading.request.iter().filter(|w| w.end + 24 >= start && w.start <= end + 24 && !is_stop(w)).collect();
    // `50%` says `percent` with a mark.
    let percent = text.contains('%');
    let asked = ask
        .iter()
        .filter(|a| !is_stop(a))
        .filter(|a| near.iter().any(|n| n.stem == a.stem) || (percent && a.lower == "percent"))
        .count();
    let content = ask.iter().filter(|a| !is_stop(a)).count().max(1);
    reading.params.span + reading.params.span_context * (asked as f32 / content as f32)
}

/// The softmax of evidences against the sentinels' fixed levels.
fn softmax(keys: &[(String, Option<f32>)], params: &ArgParams) -> Vec<(String, f64)> {
    let a = f64::from(params.sharpness);
    let logit = |key: &str, e: Option<f32>| -> f64 {
        match (key, e) {
            (_, Some(e)) if e <= 0.0 => -a * f64::from(params.unsaid),
            (_, Some(e)) => a * f64::from(e),
            (UNSTATED, None) => a * f64::from(params.unstated),
            (NONE, None) => a * f64::from(params.unstated - params.none_gap),
            _ => f64::NEG_INFINITY,
        }
    };
    let logits: Vec<f64> = keys.iter().map(|(k, e)| logit(k, *e)).collect();
    let max = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = logits.iter().map(|z| (z - max).exp()).collect();
    let total: f64 = weights.iter().sum();
    keys.iter().zip(weights).map(|((k, _), w)| (k.clone(), w / total)).collect()
}

/// Answers an argument's choice: option keys, vocabulary words or pick spans, with the sentinels.
pub fn answer_choice(reading: &Reading, question: &Question) -> Vec<(String, f64)> {
    let Question::Choice { ask, options, otherwise } = question else { return Vec::new() };
    let ask_words = words(ask);
    let otherwise = otherwise.as_deref().unwrap_or(UNSTATED);
    let flag = options.contains(YES) && options.contains(NO) && options.0.len() <= 3;
    let taught = taught(&options.0, reading.common);
    let mut keys: Vec<(String, Option<f32>)> = Vec::new();
    for ((key, text), taught) in options.0.iter().zip(&taught) {
        let sentinel = key == otherwise || (key == NONE && otherwise == UNSTATED);
        if sentinel {
            keys.push((key.clone(), None));
            continue;
        }
        let meaning = match text {
            Text::Plain(t) => t.as_str(),
            Text::Rich { what, .. } => what.as_str(),
        };
        let evidence = if flag {
            flag_evidence(reading, &ask_words, key)
        } else if let Some((start, end)) = span_of(key) {
            span_evidence(reading, &ask_words, start, end, meaning)
        } else {
            value_evidence(reading, key, meaning, taught)
        };
        keys.push((key.clone(), Some(evidence)));
    }
    softmax(&keys, reading.params)
}

/// A flag's `yes` is said when the words of its `ask` are; `no` when they are, negated.
fn flag_evidence(reading: &Reading, ask: &[Word], key: &str) -> f32 {
    let content: Vec<&Word> = ask.iter().filter(|a| !is_stop(a)).collect();
    if content.is_empty() {
        return 0.0;
    }
    let found: Vec<usize> = reading
        .request
        .iter()
        .enumerate()
        .filter(|(_, r)| content.iter().any(|c| c.stem == r.stem))
        .map(|(i, _)| i)
        .collect();
    let share = found.len().min(content.len()) as f32 / content.len() as f32;
    let negated = found.iter().any(|&i| {
        reading.request[i.saturating_sub(3)..i]
            .iter()
            .any(|w| matches!(w.lower.as_str(), "not" | "no" | "dont" | "never" | "without"))
    });
    let said = reading.params.flag * share.sqrt();
    match (key, negated) {
        (YES, false) | (NO, true) => said,
        _ => 0.0,
    }
}

/// Answers a yes/no that is not a fit: how much nearer the request is to `yes` than to `no`.
pub fn answer_yesno(reading: &Reading, question: &Question) -> f64 {
    let Question::Yesno { yes, no, .. } = question else { return 0.5 };
    let text = |t: &Text| match t {
        Text::Plain(s) => s.clone(),
        Text::Rich { what, .. } => what.clone(),
    };
    let overlap = |t: &str| {
        let ws: Vec<Word> = words(t).into_iter().filter(|w| !is_stop(w)).collect();
        if ws.is_empty() {
            return 0.0;
        }
        ws.iter().filter(|w| reading.request.iter().any(|r| r.stem == w.stem)).count() as f64 / ws.len() as f64
    };
    let d = overlap(&text(yes)) - overlap(&text(no));
    1.0 / (1.0 + (-4.0 * d).exp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use evoke_core::question::Options;

    fn params() -> ArgParams {
        ArgParams::default()
    }

    /// The stems of the lights reflex's description, which the round reads as its own words.
    fn description() -> HashSet<String> {
        let what = "Turn the lights in one room on, off, or dim them to make it darker. Ceiling and lamp lights only.";
        words(what).into_iter().map(|w| w.stem).collect()
    }

    fn ask(request: &str, question: &Question) -> Vec<(String, f64)> {
        let ws = words(request);
        let params = params();
        // As the engines build it: the description, and every key and meaning the question offers.
        let mut common = description();
        if let Question::Choice { options, .. } = question {
            for (key, text) in &options.0 {
                let Text::Plain(meaning) = text else { continue };
                common.extend(words(key).into_iter().chain(words(meaning)).map(|w| w.stem));
            }
        }
        answer_choice(&Reading { request: &ws, params: &params, synonyms: &[], said: None, common: &common }, question)
    }

    fn top(d: &[(String, f64)]) -> (&str, f64) {
        d.iter().fold(("", -1.0), |b, (k, p)| if *p > b.1 { (k.as_str(), *p) } else { b })
    }

    fn choice(options: &[(&str, &str)], none: bool) -> Question {
        let mut o: Vec<(String, Text)> =
            options.iter().map(|(k, t)| (k.to_string(), Text::Plain(t.to_string()))).collect();
        if none {
            o.push((NONE.into(), Text::Plain("The request states a value that is not among these.".into())));
        }
        o.push((UNSTATED.into(), Text::Plain("The request does not say.".into())));
        Question::Choice {
            ask: "What should the lights do?".into(),
            options: Options(o),
            otherwise: Some(UNSTATED.into()),
        }
    }

    #[test]
    fn an_option_key_said_wins() {
        let q = choice(
            &[("on", "Switch on."), ("off", "Switch off."), ("dim", "Lower the brightness without switching off.")],
            true,
        );
        assert_eq!(top(&ask("turn on the kitchen lights", &q)).0, "on");
        assert_eq!(top(&ask("kill the lights", &q)).0, "off");
        assert_eq!(top(&ask("make it darker in here", &q)).0, "dim");
        assert_eq!(top(&ask("lights in the den", &q)).0, UNSTATED);
    }

    #[test]
    fn a_vocabulary_word_or_its_quoted_name_wins() {
        let q = choice(
            &[("den", "The TV room downstairs; also 'the snug'."), ("office", "The upstairs study."), ("kitchen", "")],
            true,
        );
        assert_eq!(top(&ask("turn on the kitchen lights", &q)).0, "kitchen");
        assert_eq!(top(&ask("lights off in the snug", &q)).0, "den");
        assert_eq!(top(&ask("turn on the lights", &q)).0, UNSTATED);
    }

    #[test]
    fn a_word_said_only_as_the_end_of_a_longer_name_is_not_said_in_full() {
        let rooms = [("kitchen", "Where the cooking happens."), ("bedroom", "Where I sleep."), ("den", "")];
        let q = choice(&rooms, true);
        // "turn on the guest bedroom lights" read bedroom 1.00, and ran, in a home with one bedroom named.
        for request in [
            "turn on the guest bedroom lights",
            "turn off the lights in my neighbor's kitchen",
            "switch off the upstairs den light",
            "turn on some guest bedroom lights",
            "turn off both guest bedroom lights",
            "turn off the cozy little den lights",
            "turn off the lights in guest bedroom",
            "turn off neighbor's kitchen lights",
            "guest bedroom lights off",
            "master bedroom lights on please",
            "turn guest bedroom lights off",
            "switch guest bedroom lights on",
            "turn master bedroom lights off",
            "please guest bedroom lights off",
            "ok guest bedroom lights off",
            "just guest bedroom lights off",
            "turn off the lights outside the kitchen",
            "turn off the hallway light near the den",
            "turn off the lights next to the bedroom",
            "turn on the kitchen lights at my neighbor's",
            "turn on the kitchen lights at mom's",
            "turn off the den lights over at our cabin",
            // A name that runs on into another thing's: the kitchen's fan, the office building.
            "turn off the kitchen gas",
            "turn on the kitchen fan please",
            "turn off the kitchen hood light",
            "turn off the kitchen cabinet lights",
            "turn off the den patio lights",
            "turn off the bedroom hallway lights",
            // Another house, or some of the lights only.
            "turn off the den lights in the other house",
            "turn off the den lights at the lake house",
            "turn off the den lights at work",
            "turn off the kitchen lights next door",
            "turn off the kitchen lights across the street",
            "turn off some of the den lights",
            "turn off a few of the den lights",
            "turn off the den lights in the other house",
            "turn off the den lights in my parents' house",
            "turn off the lights beyond the den",
            "turn off the kitchen lights of my sister",
            "turn off the den lights of the cabin",
            // One thing of the room, named apart from it.
            "turn off the oven light in the kitchen",
            "turn off the desk lamp in the den",
            "turn off the christmas lights in the den",
            "turn off the fairy lights in the bedroom",
            "turn off the lights past the den",
            "turn off lights for guest bedroom",
            // One light of several, someone else's room, a room beside, or spared from `all`.
            "turn off a den light",
            "turn off one light in the den",
            "turn off a light in the den",
            "turn off the lights in her kitchen",
            "turn off their den lights",
            "turn off the lights by the den",
            "turn off the lights around the kitchen",
            "turn off all lights omitting the den",
            "turn off all the lights everywhere excl the den",
            "turn off all lights excpet the den",
        ] {
            let d = ask(request, &q);
            assert_eq!(top(&d).0, UNSTATED, "{request}: {d:?}");
            let ws = words(request);
            let mut common = description();
            common.extend(rooms.iter().flat_map(|(k, m)| words(k).into_iter().chain(words(m))).map(|w| w.stem));
            let params = params();
            let reading = Reading { request: &ws, params: &params, synonyms: &[], said: None, common: &common };
            let (key, meaning) = rooms.iter().find(|(k, _)| request.contains(k)).unwrap();
            assert!(!said_in_full(&reading, key, meaning), "{request}");
        }
        // The name said on its own, or after a word the round reads (another argument's value, `all`).
        for (request, room) in [
            ("turn on the bedroom lights", "bedroom"),
            ("turn off all the kitchen lights", "kitchen"),
            ("turn the den off", "den"),
            ("lights off in the den and the guest bedroom", "den"),
            ("kill den lights", "den"),
            ("dim bedroom lights", "bedroom"),
            ("bedroom lights off", "bedroom"),
            ("switch kitchen lights off", "kitchen"),
            ("turn off every kitchen light", "kitchen"),
            ("turn kitchen lights off", "kitchen"),
            ("please switch bedroom lights on", "bedroom"),
            ("ok den lights off", "den"),
            ("turn on the kitchen lights at 7", "kitchen"),
            ("turn on the lights at the kitchen", "kitchen"),
            ("turn off the den lights now", "den"),
            ("turn off the den lights in 5 minutes", "den"),
            ("turn off the kitchen light thanks", "kitchen"),
            ("turn the bedroom off", "bedroom"),
            ("lights off in the den at night", "den"),
            ("turn on the lights in here in the kitchen", "kitchen"),
            ("kill the lights in the den", "den"),
            ("turn off the den lamp", "den"),
            ("turn off the den ceiling lights", "den"),
            ("at home turn off the den lights", "den"),
            ("in my house turn off the den lights", "den"),
            ("turn off the den lights in the house", "den"),
            ("turn off all the lights in the den", "den"),
            ("turn off all den lights", "den"),
            ("turn off every light in the den", "den"),
            ("turn off the main lights in the kitchen", "kitchen"),
            ("turn off both lights in the den", "den"),
        ] {
            assert_eq!(top(&ask(request, &q)).0, room, "{request}");
        }
        let ws = words("turn the off kitchen lights");
        let (params, common) = (params(), description());
        let reading = Reading { request: &ws, params: &params, synonyms: &[], said: None, common: &common };
        assert!(said_in_full(&reading, "kitchen", ""), "a word another argument reads is no part of a name");
        let ws = words("turn on the kitchen lights at my neighbor's");
        let reading = Reading { request: &ws, params: &params, synonyms: &[], said: None, common: &common };
        assert!(said_in_full(&reading, "on", ""), "a setting said at someone else's is still said");
        assert!(!said_in_full(&reading, "kitchen", ""), "a room said at someone else's is another's");
        let ws = words("turn off guest bedroom lights");
        let reading = Reading { request: &ws, params: &params, synonyms: &[], said: None, common: &common };
        assert!(!said_in_full(&reading, "bedroom", ""), "a name opens after another argument's value");
    }

    #[test]
    fn a_setting_said_with_a_hedge_is_not_said_in_full() {
        let q = choice(&[("on", "Switch on."), ("off", "Switch off."), ("dim", "Lower the brightness.")], true);
        // `turn the den lights nearly off` ran `off` at 1.00: the lights went fully off.
        for request in [
            "turn the den lights nearly off",
            "turn the den lights just about off",
            "turn the den lights pretty much off",
            "turn the den lights practically off",
            "turn the den lights virtually off",
            "turn the den lights more or less off",
            "turn the den lights almost off",
            "turn the den lights off partially",
            "turn the den lights halfway off",
            "turn the den lights off a bit",
            "turn the den lights kind of off",
            "turn the den lights off-ish",
            "turn the den lights on halfway",
            "turn on the den lights halfway",
            "turn on the den lights partially",
            "dim the den lights halfway",
        ] {
            let d = ask(request, &q);
            assert_eq!(top(&d).0, UNSTATED, "{request}: {d:?}");
        }
        for (request, state) in [
            ("turn the den lights off", "off"),
            ("turn off the den lights a bit later", "off"),
            ("dim the den lights a little", "dim"),
        ] {
            assert_eq!(top(&ask(request, &q)).0, state, "{request}");
        }
    }

    #[test]
    fn quoted_names_are_found() {
        assert_eq!(quoted("The TV room downstairs; also 'the snug'."), ["the snug"]);
        assert!(quoted("It's the study").is_empty());
    }
}
