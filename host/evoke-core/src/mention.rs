//! Which option keys and vocabulary words an input says, and for which argument: the reading every engine
//! can lean on before it weighs anything.
//!
//! A key is *said* where the input holds, word for word (case aside, and a plural `s` aside), one of its
//! names: the key itself (`km`, `office thermostat`), a name quoted in its meaning (`also 'the snug'`), its
//! whole meaning (`Degrees Celsius`), or a word of a short meaning (three content words at most) that no
//! other key of the argument uses (`celsius`, `miles`).
//!
//! Two rules then settle what each argument reads:
//!
//! - **The longest said in full wins.** Of an argument's keys, one said inside a longer one said at the same
//!   place is not said there: `set office thermostat to 19` says `office thermostat`, not `thermostat`,
//!   whatever the order of the words in the file.
//! - **Each argument takes its own words.** Arguments that offer the same keys (`from` and `to` over the
//!   same units) share out what is said. A place said after a word that marks one of them takes that one:
//!   `from` marks the argument whose name or question says `from`; `to`, `into`, `in` and `as` mark the
//!   one whose name or question says `to` or `into`. Numbers and articles between the word and the place
//!   are passed over (`from 10 miles`). The places left fill the arguments left, in the manifest's order:
//!   `convert 10 miles to km` reads `from` = miles and `to` = km. A place said once fills one argument at
//!   most; a key said twice may fill two.
//!
//! What an argument does not read is its `unread` list: keys said in the input that belong to another
//! argument, or that were said only inside a longer key. An engine should not read those for it.

use crate::question::{NONE, Question, QuestionId, Questions, Text, UNSTATED};
use crate::recognize::Span;
use serde::Serialize;

/// One argument as it is offered: its name, its question, and its keys with their meanings.
#[derive(Debug, Clone)]
pub struct Offered<'a> {
    pub name: &'a str,
    pub ask: &'a str,
    pub keys: Vec<(&'a str, &'a str)>,
}

/// How a key is named where it is said.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum By {
    /// The key itself, a name quoted in its meaning, or its whole meaning.
    Name,
    /// A word of its short meaning that no other key of the argument uses.
    Word,
}

/// A key said at a place of the input.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mention {
    pub key: String,
    pub span: Span,
    #[serde(skip)]
    pub by: By,
}

/// What one argument reads: the keys said for it, in input order, and the keys said in the input that it
/// must not read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Said {
    pub mentions: Vec<Mention>,
    pub unread: Vec<String>,
}

impl Said {
    /// How the key is said for this argument, if it is.
    pub fn by(&self, key: &str) -> Option<By> {
        self.mentions.iter().filter(|m| m.key == key).map(|m| m.by).min()
    }

    pub fn is_unread(&self, key: &str) -> bool {
        self.unread.iter().any(|k| k == key) && self.by(key).is_none()
    }
}

/// The longest input read, in characters: the decision's own bound.
const MAX_CHARS: usize = crate::decide::MAX_INPUT_CHARS;

#[derive(Debug, Clone)]
struct Tok {
    start: usize,
    end: usize,
    fold: String,
}

/// The input's words ([`crate::words::words`], the one tokenizer), each with a plural `s` dropped, so that
/// `miles` meets `Miles.` and `mile`.
fn toks(text: &str) -> Vec<Tok> {
    let text: String = text.chars().take(MAX_CHARS).collect();
    crate::words::words(&text).into_iter().map(|w| Tok { start: w.start, end: w.end, fold: fold(&w.lower) }).collect()
}

/// Where the polite closings that end a sentence begin, as the mood's `tails` and `goes_on` lists have them (`and so on`,
/// `thanks`): the index of the first of its words (lowercased) that they take, or the count of words where
/// none ends it. A key said there names no value: the `on` of `…, and so on`.
pub fn closing_at(words: &[&str]) -> usize {
    let mut end = words.len();
    'strip: loop {
        for phrase in crate::mood::lists::TAILS.iter().chain(crate::mood::lists::GOES_ON.iter()) {
            let n = phrase.len();
            if n <= end && words[end - n..end].iter().zip(phrase.iter()).all(|(t, w)| fold(t) == fold(w)) {
                end -= n;
                continue 'strip;
            }
        }
        return end;
    }
}

fn fold(word: &str) -> String {
    if word.chars().count() > 3 && word.ends_with('s') && !word.ends_with("ss") {
        word[..word.len() - 1].to_string()
    } else {
        word.to_string()
    }
}

/// Words that carry no name: they never stand alone for a key.
fn is_filler(w: &str) -> bool {
    w.chars().count() <= 2
        || matches!(
            w,
            "the"
                | "and"
                | "for"
                | "from"
                | "into"
                | "with"
                | "this"
                | "that"
                | "thi"
                | "your"
                | "our"
                | "its"
                | "which"
                | "where"
                | "what"
                | "when"
                | "who"
                | "how"
                | "why"
                | "here"
                | "there"
                | "all"
                | "any"
                | "some"
                | "not"
                | "only"
                | "one"
                | "also"
                | "very"
                | "more"
                | "less"
                | "than"
                | "then"
                | "just"
                | "too"
        )
}

fn is_number(w: &str) -> bool {
    w.chars().any(|c| c.is_ascii_digit()) || crate::recognize::is_number_word(w)
}

/// Names quoted inside a meaning: `'the snug'`, `"the study"`.
fn quoted(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for (open, close) in [('\'', '\''), ('"', '"'), ('‘', '’'), ('“', '”')] {
        let mut rest = text;
        while let Some(a) = rest.find(open) {
            let before = rest[..a].chars().next_back();
            let after = &rest[a + open.len_utf8()..];
            // An apostrophe inside a word (`it's`) opens nothing.
            if open == '\'' && before.is_some_and(char::is_alphanumeric) {
                rest = after;
                continue;
            }
            let Some(b) = after.find(close) else { break };
            let inside = after[..b].trim();
            if !inside.is_empty() && inside.chars().count() <= 40 {
                out.push(inside);
            }
            rest = &after[b + close.len_utf8()..];
        }
    }
    out
}

/// Every place each key of one argument is said, the longest winning: (key index, first token, end
/// token, by).
fn places(input: &[Tok], arg: &Offered) -> Vec<(usize, usize, usize, By)> {
    let words = |t: &str| -> Vec<String> { toks(t).into_iter().map(|t| t.fold).collect() };
    let meaning_words: Vec<Vec<String>> =
        arg.keys.iter().map(|(_, m)| words(m).into_iter().filter(|w| !is_filler(w)).collect()).collect();
    let key_words: Vec<Vec<String>> = arg.keys.iter().map(|(k, _)| words(k)).collect();
    let mut names: Vec<(usize, Vec<String>, By)> = Vec::new();
    for (i, (_, meaning)) in arg.keys.iter().enumerate() {
        names.push((i, key_words[i].clone(), By::Name));
        for alias in quoted(meaning) {
            names.push((i, words(alias), By::Name));
        }
        let whole = words(meaning);
        if whole.len() > 1 || whole.first().is_some_and(|w| !is_filler(w)) {
            names.push((i, whole, By::Name));
        }
        if meaning_words[i].len() <= 3 {
            for w in &meaning_words[i] {
                let elsewhere =
                    (0..arg.keys.len()).any(|j| j != i && (meaning_words[j].contains(w) || key_words[j].contains(w)));
                if !elsewhere {
                    names.push((i, vec![w.clone()], By::Word));
                }
            }
        }
    }
    let mut found: Vec<(usize, usize, usize, By)> = Vec::new();
    for (key, name, by) in &names {
        if name.is_empty() || name.len() > input.len() {
            continue;
        }
        for at in 0..=input.len() - name.len() {
            if name.iter().zip(&input[at..]).all(|(n, t)| *n == t.fold) {
                let place = (*key, at, at + name.len(), *by);
                match found.iter_mut().find(|f| f.0 == place.0 && f.1 == place.1 && f.2 == place.2) {
                    Some(f) => f.3 = f.3.min(*by),
                    None => found.push(place),
                }
            }
        }
    }
    // The longest said in full wins: a place inside a longer place is not said there.
    let mut kept: Vec<(usize, usize, usize, By)> = found
        .iter()
        .filter(|a| !found.iter().any(|b| b.1 <= a.1 && a.2 <= b.2 && b.2 - b.1 > a.2 - a.1))
        .copied()
        .collect();
    kept.sort_by_key(|f| (f.1, f.2, f.0));
    kept
}

/// The role words of an argument's name and question: `from`, and `to` for `to` or `into`.
fn roles(arg: &Offered) -> Vec<&'static str> {
    let mut out = Vec::new();
    for t in toks(arg.name).iter().chain(toks(&arg.name.replace('_', " ")).iter()).chain(toks(arg.ask).iter()) {
        let role = match t.fold.as_str() {
            "from" => "from",
            "to" | "into" => "to",
            _ => continue,
        };
        if !out.contains(&role) {
            out.push(role);
        }
    }
    out
}

/// The role a place is marked for by the word before it, numbers and articles passed over.
fn marker(input: &[Tok], at: usize, floor: usize) -> Option<&'static str> {
    let mut i = at;
    while i > floor {
        i -= 1;
        let w = input[i].fold.as_str();
        if is_number(w) || matches!(w, "a" | "an" | "the") {
            continue;
        }
        return match w {
            "from" => Some("from"),
            "to" | "into" | "in" | "as" => Some("to"),
            _ => None,
        };
    }
    None
}

/// What each argument reads of `input`, in the order the arguments are given.
pub fn said(input: &str, args: &[Offered]) -> Vec<Said> {
    let mut input_toks = toks(input);
    // The `on` of `come on`, `hold on`, `go on` says nothing of a setting: it names no key.
    for i in 1..input_toks.len() {
        if crate::mood::idiom_on(&input_toks[i - 1].fold, &input_toks[i].fold) {
            input_toks[i].fold.clear();
        }
    }
    // A polite closing that ends the sentence (`…, and so on`, `… etc`) says nothing of a setting either.
    let folds: Vec<&str> = input_toks.iter().map(|t| t.fold.as_str()).collect();
    let closing = closing_at(&folds);
    for tok in &mut input_toks[closing..] {
        tok.fold.clear();
    }
    let input_toks = input_toks;
    let span = |a: usize, b: usize| -> Span {
        let (start, end) = (input_toks[a].start, input_toks[b - 1].end);
        Span { start, end, text: input.chars().skip(start).take(end - start).collect() }
    };
    let mut out: Vec<Said> = vec![Said::default(); args.len()];
    fn key_set<'k>(a: &Offered<'k>) -> Vec<&'k str> {
        let mut k: Vec<&str> = a.keys.iter().map(|(k, _)| *k).collect();
        k.sort_unstable();
        k
    }
    let mut done = vec![false; args.len()];
    for first in 0..args.len() {
        if done[first] {
            continue;
        }
        let group: Vec<usize> =
            (first..args.len()).filter(|&j| !done[j] && key_set(&args[j]) == key_set(&args[first])).collect();
        for &j in &group {
            done[j] = true;
        }
        let lead = &args[first];
        let all = places(&input_toks, lead);
        let said_keys: Vec<&str> = {
            let mut ks: Vec<&str> = Vec::new();
            // Every key whose name is anywhere in the input, before the longest wins: what must not be
            // read where it was not kept.
            for (i, (key, _)) in lead.keys.iter().enumerate() {
                let alone = Offered { name: lead.name, ask: lead.ask, keys: vec![lead.keys[i]] };
                if !places(&input_toks, &alone).is_empty() && !ks.contains(key) {
                    ks.push(key);
                }
            }
            ks
        };
        // Which argument of the group each place goes to.
        let mut owner: Vec<Option<usize>> = vec![None; all.len()];
        if group.len() == 1 {
            owner.iter_mut().for_each(|o| *o = Some(first));
        } else {
            let group_roles: Vec<Vec<&str>> = group.iter().map(|&j| roles(&args[j])).collect();
            let own_role = |g: usize, role: &str| {
                group_roles[g].contains(&role)
                    && group_roles.iter().enumerate().all(|(h, r)| h == g || !r.contains(&role))
            };
            for (p, place) in all.iter().enumerate() {
                let floor = if p == 0 { 0 } else { all[p - 1].2.min(place.1) };
                let marked =
                    marker(&input_toks, place.1, floor).and_then(|role| (0..group.len()).find(|&g| own_role(g, role)));
                if let Some(g) = marked {
                    owner[p] = Some(group[g]);
                }
            }
            for p in 0..all.len() {
                if owner[p].is_some() {
                    continue;
                }
                let free = group.iter().copied().find(|j| !owner.contains(&Some(*j)));
                owner[p] = free;
            }
        }
        for &j in &group {
            let mut s = Said::default();
            for (p, (key, a, b, by)) in all.iter().enumerate() {
                if owner[p] == Some(j) {
                    s.mentions.push(Mention { key: lead.keys[*key].0.to_string(), span: span(*a, *b), by: *by });
                }
            }
            for key in &said_keys {
                if s.mentions.iter().all(|m| m.key != *key) {
                    s.unread.push(key.to_string());
                }
            }
            out[j] = s;
        }
    }
    out
}

/// The arguments of a round whose keys are option keys or vocabulary words (they offer `none`), by
/// reflex: what [`said`] reads. Returns, per question id, what the argument reads.
pub fn said_in_round(input: &str, questions: &Questions) -> Vec<(QuestionId, Said)> {
    let mut by_reflex: Vec<(&str, Vec<(&QuestionId, Offered)>)> = Vec::new();
    for (id, question) in &questions.0 {
        let Question::Choice { ask, options, otherwise } = question else { continue };
        let QuestionId::Arg { reflex, arg } = id else { continue };
        if otherwise.as_deref() != Some(UNSTATED) || !options.contains(NONE) {
            continue;
        }
        let keys: Vec<(&str, &str)> = options
            .0
            .iter()
            .filter(|(k, _)| k != NONE && k != UNSTATED)
            .map(|(k, t)| {
                (
                    k.as_str(),
                    match t {
                        Text::Plain(s) => s.as_str(),
                        Text::Rich { what, .. } => what.as_str(),
                    },
                )
            })
            .collect();
        let offered = Offered { name: arg, ask, keys };
        match by_reflex.iter_mut().find(|(r, _)| *r == reflex) {
            Some((_, list)) => list.push((id, offered)),
            None => by_reflex.push((reflex, vec![(id, offered)])),
        }
    }
    let mut out = Vec::new();
    for (_, list) in by_reflex {
        let offered: Vec<Offered> = list.iter().map(|(_, o)| o.clone()).collect();
        for ((id, _), s) in list.iter().zip(said(input, &offered)) {
            out.push(((*id).clone(), s));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units<'a>(name: &'a str, ask: &'a str) -> Offered<'a> {
        Offered {
            name,
            ask,
            keys: vec![
                ("km", "Kilometres."),
                ("mi", "Miles."),
                ("kg", "Kilograms."),
                ("lb", "Pounds."),
                ("c", "Degrees Celsius."),
                ("f", "Degrees Fahrenheit."),
            ],
        }
    }

    fn read(input: &str) -> Vec<Vec<(String, String)>> {
        let args = [units("from", "From which unit?"), units("to", "To which unit?")];
        said(input, &args).into_iter().map(|s| s.mentions.into_iter().map(|m| (m.key, m.span.text)).collect()).collect()
    }

    fn pair(a: &str, b: &str) -> Vec<(String, String)> {
        vec![(a.to_string(), b.to_string())]
    }

    #[test]
    fn each_argument_takes_its_own_words() {
        assert_eq!(read("convert 10 miles to km"), vec![pair("mi", "miles"), pair("km", "km")]);
        assert_eq!(read("convert to km from 10 miles"), vec![pair("mi", "miles"), pair("km", "km")]);
        assert_eq!(read("10 kg into pounds"), vec![pair("kg", "kg"), pair("lb", "pounds")]);
        assert_eq!(read("5 kg in pounds"), vec![pair("kg", "kg"), pair("lb", "pounds")]);
        assert_eq!(read("72 fahrenheit to celsius"), vec![pair("f", "fahrenheit"), pair("c", "celsius")]);
        assert_eq!(
            read("what is 20 degrees celsius in fahrenheit"),
            vec![pair("c", "degrees celsius"), pair("f", "fahrenheit")]
        );
    }

    #[test]
    fn a_word_said_once_fills_one_argument() {
        assert_eq!(read("convert 10 km"), vec![pair("km", "km"), vec![]]);
        let args = [units("from", "From which unit?"), units("to", "To which unit?")];
        let s = said("convert 10 km", &args);
        assert!(s[1].is_unread("km"), "km is from's: {s:?}");
        assert_eq!(read("convert km to km"), vec![pair("km", "km"), pair("km", "km")]);
    }

    #[test]
    fn the_on_of_come_on_names_no_setting() {
        let state = || Offered {
            name: "state",
            ask: "What should the lights do?",
            keys: vec![("on", "Switch on."), ("off", "Switch off."), ("dim", "Lower the brightness.")],
        };
        for input in ["come on, turn off the kitchen lights", "hold on, turn off the den", "go on turn off the lights"]
        {
            let s = &said(input, &[state()])[0];
            let keys: Vec<&str> = s.mentions.iter().map(|m| m.key.as_str()).collect();
            assert_eq!(keys, vec!["off"], "{input}");
        }
        let s = &said("come on, turn on the kitchen lights", &[state()])[0];
        assert_eq!(s.by("on"), Some(By::Name), "the `on` a request says is read");
    }

    #[test]
    fn the_longest_word_said_in_full_wins() {
        for keys in [
            vec![("thermostat", "The hall thermostat."), ("office thermostat", "The office thermostat.")],
            vec![("office thermostat", "The office thermostat."), ("thermostat", "The hall thermostat.")],
        ] {
            let arg = Offered { name: "device", ask: "Which device?", keys };
            let s = &said("set office thermostat to 19", &[arg])[0];
            let keys: Vec<&str> = s.mentions.iter().map(|m| m.key.as_str()).collect();
            assert_eq!(keys, vec!["office thermostat"]);
            assert!(s.is_unread("thermostat"));
        }
        let arg = Offered {
            name: "device",
            ask: "Which device?",
            keys: vec![("thermostat", "The hall thermostat."), ("office thermostat", "")],
        };
        let s = &said("turn the thermostat down", &[arg])[0];
        assert_eq!(s.by("thermostat"), Some(By::Name));
    }
}
