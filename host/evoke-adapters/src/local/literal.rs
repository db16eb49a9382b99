//! A value said in full, read as surely as the words allow: the lift both built-in engines give a value
//! whose own words the request says, on top of the words' reading ([`super::args::answer_choice`]).
//!
//! An option or vocabulary word said in full, in whole words, in no place another argument takes, and
//! with no other value of the argument in play, gains `lift` in log-odds; so does the one span of a pick
//! whose own words say the argument's unit (`10 minutes`, `30 percent`). `local` answers with the words'
//! reading lifted so ([`lifted`]); `embed` adds what its encoder reads of the meanings and examples, with
//! the same lift ([`said_values`], [`shifted`]).

use super::args::{self, Reading};
use super::routing::plain;
use super::words;
use evoke_core::question::{NO, NONE, Question, Text, UNSTATED, YES};

/// The words' reading of an argument's choice, with a value said in full lifted by `lift` in log-odds.
pub fn lifted(
    request: &str,
    reading: &Reading,
    question: &Question,
    lexical: Vec<(String, f64)>,
    lift: f32,
) -> Vec<(String, f64)> {
    let Question::Choice { options, otherwise, .. } = question else { return lexical };
    if is_pick(question) {
        if names_anothers_thing(request, reading) {
            return lexical;
        }
        return unit_said(request, question, lexical, lift, reading.common);
    }
    if options.contains(YES) && options.contains(NO) {
        return lexical;
    }
    let otherwise = otherwise.as_deref().unwrap_or(UNSTATED);
    let values: Vec<&(String, Text)> =
        options.0.iter().filter(|(k, _)| k != otherwise && k != NONE && k != UNSTATED).collect();
    let (literal, contested) = said_values(reading, &values, &lexical);
    if contested {
        return lexical;
    }
    let said: Vec<&str> = values.iter().zip(&literal).filter(|(_, l)| **l).map(|((k, _), _)| k.as_str()).collect();
    if said.is_empty() {
        return lexical;
    }
    shifted(&lexical, |k| if said.contains(&k) { f64::from(lift) } else { 0.0 })
}

/// Whether a choice's keys are a pick's candidate spans (`<start>-<end>`).
pub(crate) fn is_pick(question: &Question) -> bool {
    let Question::Choice { options, .. } = question else { return false };
    options
        .0
        .iter()
        .any(|(k, _)| k.split_once('-').is_some_and(|(a, b)| a.parse::<usize>().is_ok() && b.parse::<usize>().is_ok()))
}

/// Per value, whether it is said in full; and whether more than one value is in play (said in full, or
/// read by the words through the lexicon at [`IN_PLAY`] or more), which is for a person to tell apart:
/// `kill the kitchen lights, they are on` reads `off` by `kill` and says `on`.
pub(crate) fn said_values(
    reading: &Reading,
    values: &[&(String, Text)],
    lexical: &[(String, f64)],
) -> (Vec<bool>, bool) {
    let literal: Vec<bool> = values.iter().map(|(key, text)| args::said_in_full(reading, key, plain(text))).collect();
    let lexical_p = |key: &str| lexical.iter().find(|(k, _)| k == key).map_or(0.0, |(_, p)| *p);
    let contested =
        values.iter().zip(&literal).filter(|((key, _), said)| **said || lexical_p(key) >= IN_PLAY).count() > 1;
    (literal, contested)
}

/// A distribution moved by `boost` in log-odds per key, and shared out again.
pub(crate) fn shifted(lexical: &[(String, f64)], boost: impl Fn(&str) -> f64) -> Vec<(String, f64)> {
    let logits: Vec<f64> = lexical.iter().map(|(k, p)| p.max(1e-300).ln() + boost(k)).collect();
    let max = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = logits.iter().map(|z| (z - max).exp()).collect();
    let total: f64 = weights.iter().sum();
    lexical.iter().zip(weights).map(|((k, _), w)| (k.clone(), w / total)).collect()
}

/// The share of the words' own reading at which a value is in play beside one said in full.
const IN_PLAY: f64 = 0.1;

/// A pick's reading, with the one candidate whose own words say the argument's unit lifted as a value said
/// in full is: `30 percent` and `50%` for `How bright, in percent?`, and a span that says a unit of time
/// (`10 minutes`, `half an hour`: a duration is read only with its unit). A bare number (`to 15`, `the two
/// lights`) may be any number the sentence holds, and stays as the words read it; two candidates that say
/// a unit are for a person to tell apart. Where the lifted one is the only candidate, it is lifted twice.
pub(crate) fn unit_said(
    request: &str,
    question: &Question,
    lexical: Vec<(String, f64)>,
    lift: f32,
    own: &std::collections::HashSet<String>,
) -> Vec<(String, f64)> {
    let Question::Choice { ask, options, .. } = question else { return lexical };
    // A span the recognizers typed as a kind that carries its unit, said with more than a number: `four
    // p. m.`, `20 minutes`, `€12`; not `at 5`, whose hour may be either half of the day. A date is not
    // lifted: `next friday` and `the 3rd` leave to the reader which one is meant.
    let typed = evoke_core::recognize::recognize(request);
    let in_full = |key: &str| {
        typed.iter().any(|c| {
            use evoke_core::recognize::PickKind::{Amount, Duration, Number, Time};
            let bare = evoke_core::recognize::recognize(&c.span.text)
                .iter()
                .any(|n| n.kind == Number && n.span.start == 0 && n.span.end == c.span.text.chars().count());
            c.span.key() == key && matches!(c.kind, Amount | Duration | Time) && !bare
        })
    };
    // Only a date, whatever unit it holds (`twelve weeks from today`).
    let a_date = |key: &str| {
        let of_key: Vec<_> = typed.iter().filter(|c| c.span.key() == key).collect();
        !of_key.is_empty() && of_key.iter().all(|c| c.kind == evoke_core::recognize::PickKind::Date)
    };
    let units: Vec<String> = words::words(ask).into_iter().filter(|w| !words::is_stop(w)).map(|w| w.stem).collect();
    let says_unit = |text: &str| {
        let percent = text.contains('%') && units.iter().any(|u| u == "percent");
        percent
            || words::words(text).iter().any(|w| {
                time_unit(&w.lower) || (!w.lower.chars().any(|c| c.is_ascii_digit()) && units.contains(&w.stem))
            })
    };
    // A word that acts on what is there holds the lift, unless the reflex's own description says it: then
    // the act is the reflex's, and the span is its argument (`mute for 20 minutes`, `cancel my 3 pm alarm`).
    if words::words(request).iter().any(|w| ON_WHAT_IS_THERE.contains(&w.lower.as_str()) && !own.contains(&w.stem)) {
        return lexical;
    }
    let with_unit: Vec<&str> = options
        .0
        .iter()
        .filter(|(k, text)| {
            k.split_once('-').is_some() && (says_unit(plain(text)) || in_full(k)) && !a_date(k) && !a_change(request, k)
        })
        .map(|(k, _)| k.as_str())
        .collect();
    let candidates: Vec<&str> =
        options.0.iter().filter(|(k, _)| k.split_once('-').is_some()).map(|(k, _)| k.as_str()).collect();
    // The only span the sentence holds, saying its unit, is read as surely as a word said twice; a bare
    // number that is the only span, set `to` (`set the volume to 40`, `dim the den to 10`), as a word said.
    let (lifted, lift) = match (with_unit.as_slice(), candidates.as_slice()) {
        ([lifted], [_]) => (*lifted, 2.0 * lift),
        ([lifted], _) => (*lifted, lift),
        ([], [only]) if set_to(request, only) && whole(&typed, only) => (*only, lift),
        _ => return lexical,
    };
    shifted(&lexical, |k| if k == lifted { f64::from(lift) } else { 0.0 })
}

/// Whether the span keyed `start-end` follows a word that makes it a change rather than a level: `dim the
/// den lights by 20%`, `another 10 minutes`.
fn a_change(request: &str, key: &str) -> bool {
    word_before(request, key).is_some_and(|w| {
        matches!(
            w.as_str(),
            "by" | "another" | "further" | "extra" | "more" | "less" | "up" | "down" | "plus" | "minus"
        )
    })
}

/// Whether the request names the reflex's own thing by a word the round does not read, right before it:
/// `the oven timer`, `the tv volume`, `spotify volume`, `a tea timer`. The thing may be another's, or one
/// the call does not name, and a span for it is left as the words read it; so is one on another device
/// (`on my phone`, `on the tv`).
pub(crate) fn names_anothers_thing(request: &str, reading: &Reading) -> bool {
    let unread = |w: &words::Word| {
        !words::is_stop(w)
            && !reading.common.contains(&w.stem)
            && !w.lower.chars().any(|c| c.is_ascii_digit())
            && !w.lower.ends_with("ly")
            && !crate::local::weave::starts_a_request(&w.lower)
    };
    let thing = |w: &words::Word| {
        reading.common.contains(&w.stem) && !words::is_stop(w) && !crate::local::weave::starts_a_request(&w.lower)
    };
    // Words that qualify the thing without making it another's: `a new timer`, `a quick timer`.
    let plain = |w: &words::Word| {
        matches!(
            w.lower.as_str(),
            "new"
                | "another"
                | "quick"
                | "short"
                | "long"
                | "second"
                | "first"
                | "simple"
                | "regular"
                | "normal"
                | "usual"
        )
    };
    let pointing =
        |w: &words::Word| matches!(w.lower.as_str(), "the" | "my" | "your" | "our" | "his" | "her" | "their");
    // `on my phone`, `on the oven`: the thing is on another device.
    let on_another = |i: usize| {
        let r = reading.request;
        r[i].lower == "on" && {
            let j = if r.get(i + 1).is_some_and(pointing) { i + 2 } else { i + 1 };
            j > i + 1 && r.get(j).is_some_and(unread)
        }
    };
    reading.request.windows(2).any(|pair| {
        // Word offsets are characters.
        let comma_between = request.chars().skip(pair[0].end).take(pair[1].start - pair[0].end).any(|c| c == ',');
        unread(&pair[0]) && !plain(&pair[0]) && thing(&pair[1]) && !comma_between
    }) || (0..reading.request.len()).any(on_another)
}

/// Whether the span keyed `start-end` reads as a whole number: `to half` may mean half of the range as
/// much as 0.5, and `to 40.5` is finer than a level is usually set, so neither is read as surely as `to 40`.
fn whole(typed: &[evoke_core::recognize::Candidate], key: &str) -> bool {
    typed.iter().filter(|c| c.span.key() == key).filter_map(|c| c.value.comparable()).any(|v| v.fract() == 0.0)
}

/// Whether the span keyed `start-end` follows `to`: a level set (`to 40`), not a count (`the 2 lights`) or a
/// time (`at 10`).
fn set_to(request: &str, key: &str) -> bool {
    word_before(request, key).is_some_and(|w| w == "to")
}

/// The word, lowercased, just before the span keyed `start-end` (offsets in characters).
fn word_before(request: &str, key: &str) -> Option<String> {
    let start = key.split_once('-').and_then(|(a, _)| a.parse::<usize>().ok())?;
    let byte = request.char_indices().nth(start).map_or(request.len(), |(b, _)| b);
    words::words(&request[..byte]).pop().map(|w| w.lower)
}

/// Verbs and words that act on something already there (`add 5 minutes to the timer`, `stop the 10 minute
/// timer`, `10 minutes left`): a span in such a sentence may name that thing or change it, and is not lifted.
const ON_WHAT_IS_THERE: &[&str] = &[
    "add",
    "extend",
    "cancel",
    "stop",
    "pause",
    "resume",
    "delete",
    "remove",
    "silence",
    "reset",
    "change",
    "snooze",
    "take",
    "shorten",
    "lengthen",
    "restart",
    "check",
    "end",
    "clear",
    "mute",
    "left",
    "remaining",
    "more",
    "less",
    "existing",
    "current",
    "running",
];

/// Whether a word says a unit of time, alone (`minutes`) or run into its number (`90s`, `10m`, `5min`).
fn time_unit(word: &str) -> bool {
    let unit = word.trim_start_matches(|c: char| c.is_ascii_digit());
    (unit.len() < word.len() && matches!(unit, "s" | "m" | "h" | "sec" | "secs" | "min" | "mins" | "hr" | "hrs"))
        || TIME_UNITS.contains(&word)
}

/// Words that name a unit of time: a span that says one is a duration or a time said with its unit.
const TIME_UNITS: &[&str] = &[
    "second", "seconds", "sec", "secs", "minute", "minutes", "min", "mins", "hour", "hours", "hr", "hrs", "day",
    "days", "week", "weeks",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The lift both engines ship (`embed`'s `arg_literal`, `local`'s `literal`).
    const LIFT: f32 = 4.0;

    /// The lifted share of the one span of a pick's question asked `ask` of `request`, from the words'
    /// reading of 0.852, the reflex's own description saying the words of `own`.
    fn lifted(request: &str, ask: &str, own: &[&str]) -> f64 {
        let found = evoke_core::recognize::recognize(request);
        // The longest span of a kind other than a bare number.
        let span = found
            .iter()
            .filter(|c| c.kind != evoke_core::recognize::PickKind::Number)
            .max_by_key(|c| c.span.end - c.span.start)
            .unwrap_or(&found[0]);
        let key = span.span.key();
        let question = Question::Choice {
            ask: ask.into(),
            options: evoke_core::question::Options(vec![
                (key.clone(), Text::Plain(span.span.text.clone())),
                (UNSTATED.into(), Text::Plain("Not said.".into())),
            ]),
            otherwise: Some(UNSTATED.into()),
        };
        let lexical = vec![(key.clone(), 0.852), (UNSTATED.to_string(), 0.148)];
        let own: std::collections::HashSet<String> = own.iter().map(|w| w.to_string()).collect();
        let read = unit_said(request, &question, lexical, LIFT, &own);
        read.iter().find(|(k, _)| *k == key).map(|(_, p)| *p).unwrap()
    }

    #[test]
    fn a_time_said_in_full_is_lifted_and_a_bare_hour_is_not() {
        assert!(lifted("make an alarm for four p. m.", "At what time?", &[]) > 0.997);
        assert!(lifted("wake me at 6:45", "At what time?", &[]) > 0.997);
        assert!((lifted("wake me at 5", "At what time?", &[]) - 0.852).abs() < 1e-9, "either half of the day");
    }

    #[test]
    fn a_date_is_not_lifted_whatever_unit_it_holds() {
        let found = evoke_core::recognize::recognize("set alarm for twelve weeks from today");
        assert!(found.iter().any(|c| c.kind == evoke_core::recognize::PickKind::Date), "{found:?}");
        assert!((lifted("set alarm for twelve weeks from today", "On what day?", &[]) - 0.852).abs() < 1e-9);
    }

    #[test]
    fn a_level_set_to_a_fraction_is_not_lifted() {
        assert!(lifted("set volume to 40", "What volume, in percent?", &[]) > 0.99);
        assert!((lifted("set volume to half", "What volume, in percent?", &[]) - 0.852).abs() < 1e-9);
        assert!((lifted("set volume to 40.5", "What volume, in percent?", &[]) - 0.852).abs() < 1e-9);
    }

    #[test]
    fn a_word_that_acts_on_what_is_there_holds_the_lift_unless_the_reflex_says_it() {
        assert!((lifted("mute for twenty minutes", "For how long?", &[]) - 0.852).abs() < 1e-9);
        assert!(lifted("mute for twenty minutes", "For how long?", &["mute"]) > 0.997);
    }
}
