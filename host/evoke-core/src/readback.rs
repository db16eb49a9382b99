//! The read-back (003's `left` and `whole`): once a call is read, every word of the input that no value
//! holds is accounted for. A word says what the reflex does (`action`), names a value of one of its
//! arguments that the call did not take (`answers`), carries nothing of its own (`nothing`), or is read
//! by nothing the reflex says (`more`): the input may ask for more than the call does.
//!
//! The reading is by the words alone, so it is pure and the same for every engine:
//!
//! - A value holds the words of its span (a pick), or the words that name it where the input says it
//!   ([`crate::mention`]: the key, a name in its meaning).
//! - A value no word names aloud (`kill` read as `off` by an engine's own lexicon) was read from words
//!   the read-back cannot place. As many words left over as there are such values are taken as theirs
//!   (`read`); past that count, every word left over does `more`, since which of them said the value
//!   cannot be told.
//! - `nothing`: the words a request is phrased in ([`crate::words::is_stop`]), and the words the mood
//!   reads to tell a request from a question, a condition, a negation or a remark, or a command from a
//!   mention of one (its lists of such words, [`MOOD_LISTS`], among them the verbs a command opens with):
//!   the mood gates the call on them, and the route reads the act from them, so they ask for nothing more.
//! - `action`: a word the reflex's description, examples, option meanings or questions use.
//! - `answers`: a key of one of its arguments' options or vocabulary, or a typed span of a pick's kind,
//!   that no value took.
//!
//! `whole` is the share of the input's content words (every word but `nothing`) that the call accounts
//! for. The gate reads two things from it (docs/decision.md): a write never runs while a word does `more`,
//! and an optional argument the engine judged unstated is unstated by the read-back, out of the weakest
//! judgment, when every word is accounted for and none answers it.

use crate::catalog::Reflex;
use crate::decision::{Args, Value};
use crate::manifest::Source;
use crate::mention::{Offered, said};
use crate::recognize::{Candidate, Span};
use crate::words::{Word, is_stop, words};
use serde::Serialize;
use std::collections::HashSet;

/// What words the call left do.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "does", rename_all = "snake_case")]
pub enum Does {
    /// They say what the reflex does.
    Action,
    /// They name a value of `arg` that the call did not take.
    Answers { arg: String },
    /// They carry nothing of their own.
    Nothing,
    /// Nothing the reflex says reads them: the input may ask for more than the call does.
    More,
}

/// A run of the input's words that no value holds, and what they do.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Left {
    /// The run as typed, with its offsets in characters (003's `{ start, end, text }`).
    pub words: Span,
    #[serde(flatten)]
    pub does: Does,
    /// How sure the reading is: the words alone read it, so it is whole.
    pub p: f64,
    /// Where a value of the call no word names aloud may have been read from these words.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub read: bool,
    /// Whether the words say the call is wanted once more (`again`, `once more`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub again: bool,
    /// Whether the words follow a pick's value with nothing but spaces between, and so may be part of it
    /// (`30 ish`): a value cut short.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cut: bool,
    /// Whether the words are a typed span no argument takes, which the gate holds the call for apart.
    #[serde(skip)]
    pub typed: bool,
}

/// The call read back against the input.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadBack {
    pub left: Vec<Left>,
    /// The share of the input's content words the call accounts for.
    pub whole: f64,
    /// The optional arguments the call leaves out that no word answers, where every word is accounted for.
    pub unstated: Vec<String>,
    /// The keys the input names for an argument that the call did not take them for: `(arg, key)`.
    pub named: Vec<(String, String)>,
    /// The arguments whose option or vocabulary value no word of the input names.
    pub unnamed: Vec<String>,
}

impl ReadBack {
    /// Whether some word does `more`.
    pub fn asks_more(&self) -> bool {
        self.left.iter().any(|l| l.does == Does::More)
    }
}

/// The mood's lists whose words shape a sentence rather than name a thing: what the read-back takes as
/// `nothing`, since the mood reads them. Only their single words count: a phrase's words (`come bed`) say
/// nothing apart.
pub const MOOD_LISTS: &[&str] = &[
    "taken_back",
    "closing_taken_back",
    "negations",
    "every",
    "conditions",
    "ordering",
    "habitual",
    "hearsay",
    "openers",
    "asking",
    "question_words",
    "be",
    "auxiliaries",
    "after_a_subject",
    "determiners",
    "hedges",
    "aside_subjects",
    "tails",
];

/// The mood's lists whose words tell a request from a question, a condition, a negation, a remark or a
/// request taken back: in a sentence the mood read as a request anyway, it did not place them.
/// Only the lists it reads wherever their words stand: `be` and `auxiliaries` are cues only before a
/// subject ([`inverted`]), and a verb after a subject is a verb like any other in a request.
/// `closing_taken_back` is read apart ([`takes_back_here`]): its words take back only where they close.
pub const CUE_LISTS: &[&str] =
    &["taken_back", "negations", "conditions", "habitual", "hearsay", "question_words", "hedges"];

/// Every single word of [`CUE_LISTS`], as written.
fn cue_words() -> &'static HashSet<String> {
    static WORDS: std::sync::LazyLock<HashSet<String>> = std::sync::LazyLock::new(|| single_words(CUE_LISTS, false));
    &WORDS
}

/// Whether the word at `i` is one of the mood's `closing_taken_back` list (`cancel`, `stop`).
fn closing_word(said_words: &[Word], i: usize) -> bool {
    crate::mood::lists::CLOSING_TAKEN_BACK.contains(&said_words[i].lower.as_str())
}

/// Whether a word of `closing_taken_back` stands where it takes back what came before it, as the mood
/// reads it: closing the sentence (`…, cancel`), or opening a clause after a mark (`…, stop it`). Opening
/// the request it is a verb like any other (`cancel my alarm`, `stop the music`), the reflex's own where its
/// wording uses it.
fn takes_back_here(input: &str, said_words: &[Word], i: usize) -> bool {
    let after_a_mark = i.checked_sub(1).is_some_and(|p| {
        let between: String =
            input.chars().skip(said_words[p].end).take(said_words[i].start - said_words[p].end).collect();
        between.contains(CLAUSE_ENDS)
    });
    closing_word(said_words, i) && ((i > 0 && i + 1 == said_words.len()) || after_a_mark)
}

/// Whether the word at `i`, past the first, is a form of `be` or an auxiliary before a subject: a clause
/// in the order of a question or a condition (`should it get dark`, `were it dark`, `had it been`).
fn inverted(said_words: &[Word], i: usize) -> bool {
    static AUXILIARIES: std::sync::LazyLock<HashSet<String>> =
        std::sync::LazyLock::new(|| single_words(&["be", "auxiliaries"], false));
    // `do it` and `have it` are a verb and its object, as a request says them (`do it in the den`).
    i > 0
        && AUXILIARIES.contains(&said_words[i].lower)
        && !matches!(said_words[i].lower.as_str(), "do" | "have")
        && said_words
            .get(i + 1)
            .is_some_and(|w| matches!(w.lower.as_str(), "it" | "you" | "i" | "we" | "they" | "he" | "she" | "there"))
}

/// The mood's list of the verbs a command opens with: `nothing` where one opens the request, since the
/// route reads the act from it (`kill the den lights`); elsewhere a word like any other (`the light of my
/// bed room`).
pub const COMMANDS: &str = "commands";

/// The single words of the named lists of the mood's data file, as written (lowercased, apostrophes
/// joined) or stemmed: the mood reads its words as written, so `night` is not its `nightly`.
fn single_words(names: &[&str], stemmed: bool) -> HashSet<String> {
    crate::mood::lists::LISTS
        .iter()
        .filter(|l| names.contains(&l.name))
        .flat_map(|l| l.entries.iter().filter(|e| e.len() == 1).flat_map(|e| e.iter()))
        .flat_map(|w| words(w))
        .map(|w| if stemmed { w.stem } else { w.lower })
        .collect()
}

/// Every single word of [`MOOD_LISTS`], as written.
fn mood_words() -> &'static HashSet<String> {
    static WORDS: std::sync::LazyLock<HashSet<String>> = std::sync::LazyLock::new(|| single_words(MOOD_LISTS, false));
    &WORDS
}

/// The phrases of [`MOOD_LISTS`] (two words or more), each as its words' stems.
fn mood_phrases() -> &'static [Vec<String>] {
    static PHRASES: std::sync::LazyLock<Vec<Vec<String>>> = std::sync::LazyLock::new(|| {
        crate::mood::lists::LISTS
            .iter()
            .filter(|l| MOOD_LISTS.contains(&l.name))
            .flat_map(|l| l.entries.iter().filter(|e| e.len() > 1))
            .map(|e| e.iter().flat_map(|w| words(w)).map(|w| w.lower).collect())
            .collect()
    });
    &PHRASES
}

/// Per word of the input, whether it stands in a whole phrase the mood reads (`go ahead`, `never mind`).
fn in_mood_phrase(said_words: &[Word]) -> Vec<bool> {
    inside(said_words, mood_phrases().iter().map(Vec::as_slice))
}

/// Per word, whether it stands in one of `phrases`, matched word for word as written (lowercased).
fn inside<'a, P: AsRef<str> + 'a>(said_words: &[Word], phrases: impl Iterator<Item = &'a [P]>) -> Vec<bool> {
    let mut inside = vec![false; said_words.len()];
    for phrase in phrases.filter(|p| !p.is_empty()) {
        for start in 0..said_words.len().saturating_sub(phrase.len() - 1) {
            let here = &said_words[start..start + phrase.len()];
            if here.iter().zip(phrase).all(|(w, p)| w.lower == p.as_ref()) {
                inside[start..start + phrase.len()].iter_mut().for_each(|b| *b = true);
            }
        }
    }
    inside
}

/// Whether a word is a comparative its stem is read from (`darker`, `longer`, `louder`): right after a
/// pick's value (`dim the office 30 percent darker`, `10 minutes longer`), where the reflex's own wording
/// uses its stem (`make it darker`, `For how long?`) and so would read it as `action`, it makes the value a
/// change from what is there, not the level or the length to set.
fn comparative(w: &Word) -> bool {
    w.lower.ends_with("er") && w.stem != w.lower && w.lower.starts_with(w.stem.trim_end_matches('e'))
}

/// Whether the word at `i` is the last of the sentence and leaves it unfinished: the sentence ends on a
/// phrase of the `unfinished` list, a conjunction that joins nothing (`turn on the kitchen lights and`,
/// `… and then`) or a word that needs a thing after it (`… and the`). A `then` alone closing a sentence is
/// an adverb (`fine, turn on the kitchen lights then`).
fn left_hanging(said_words: &[Word], i: usize) -> bool {
    let ends_on = |phrase: &&[&str]| {
        phrase.len() <= said_words.len()
            && said_words[said_words.len() - phrase.len()..].iter().zip(phrase.iter()).all(|(w, p)| w.lower == *p)
    };
    i + 1 == said_words.len() && crate::mood::lists::UNFINISHED.iter().any(ends_on)
}

/// Per word, whether it stands in a phrase of the mood's `goes_on` list (`etc`, `and so on`): a closing
/// that says the request goes on past what it says, so past what the call holds.
fn in_goes_on(said_words: &[Word]) -> Vec<bool> {
    inside(said_words, crate::mood::lists::GOES_ON.iter().copied())
}

/// The verbs a command opens with, stemmed.
fn command_verbs() -> &'static HashSet<String> {
    static WORDS: std::sync::LazyLock<HashSet<String>> = std::sync::LazyLock::new(|| single_words(&[COMMANDS], true));
    &WORDS
}

/// Whether the word at `i` says the call is wanted once more (003's `left.again`: `again`, `once more`):
/// it asks for the same call, not for more than it.
pub(crate) fn says_again(said_words: &[Word], i: usize) -> bool {
    let w = |k: usize| said_words.get(k).map(|w| w.lower.as_str());
    match w(i) {
        Some("again") => true,
        Some("more") => matches!(w(i.wrapping_sub(1)), Some("once" | "one")),
        Some("once") => w(i + 1) == Some("more"),
        _ => false,
    }
}

/// Whether the word at `i` closes its clause: the last word, or one a mark (`,`, `;`, `.`, `!`, `?`) or
/// a word that joins two things (`and`, `then`, `but`, `or`) follows.
fn closes_clause(input: &str, said_words: &[Word], i: usize) -> bool {
    let Some(next) = said_words.get(i + 1) else { return true };
    let between: String = input.chars().skip(said_words[i].end).take(next.start - said_words[i].end).collect();
    between.contains([',', ';', '.', '!', '?']) || matches!(next.lower.as_str(), "and" | "then" | "but" | "or")
}

/// Whether the word at `i` is one of the mood's `every` list (`all`, `everywhere`, `anywhere`) that closes
/// its clause, courtesies after it aside: a scope of its own (`turn on the kitchen lights everywhere`,
/// `volume to 40 everywhere`), which the call's values may not cover, rather than a word before the thing
/// it counts (`all the lights`, `everything except the den`, `anything but 80`).
fn scope_of_its_own(input: &str, said_words: &[Word], i: usize) -> bool {
    static EVERY: std::sync::LazyLock<HashSet<String>> = std::sync::LazyLock::new(|| single_words(&["every"], false));
    static TAILS: std::sync::LazyLock<HashSet<String>> = std::sync::LazyLock::new(|| single_words(&["tails"], false));
    // After a word of `said_of` or a form of `be`, as the words are read (`that's` is `thats`).
    static SAID_OF_WORDS: std::sync::LazyLock<HashSet<String>> = std::sync::LazyLock::new(|| {
        let listed = crate::mood::lists::SAID_OF.iter().flat_map(|w| words(w)).map(|w| w.lower);
        listed.chain(single_words(&["be"], false)).collect()
    });
    // `anything but 80` spares, as the mood reads it; `that's all`, `that is all` and `is that all` close the
    // request.
    let said_of = i.checked_sub(1).is_some_and(|p| SAID_OF_WORDS.contains(&said_words[p].lower));
    if !EVERY.contains(&said_words[i].lower) || said_words.get(i + 1).is_some_and(|w| w.lower == "but") || said_of {
        return false;
    }
    let mut k = i;
    while !closes_clause(input, said_words, k) && said_words.get(k + 1).is_some_and(|w| TAILS.contains(&w.lower)) {
        k += 1;
    }
    closes_clause(input, said_words, k)
}

/// Whether the word at `i` opens a greeting that names nothing (`come on, …`, `hold on, …`): a word of the
/// mood's `come_on` list right before `on`, as the mood passes it over.
fn calls_on(said_words: &[Word], i: usize) -> bool {
    crate::mood::lists::COME_ON.contains(&said_words[i].lower.as_str())
        && said_words.get(i + 1).is_some_and(|w| w.lower == "on")
}

/// What one word of the input is, before runs are joined.
#[derive(Debug, Clone, PartialEq)]
enum Said {
    Held,
    Left(Does),
    /// A word a value of `arg` that no word names may have been read from.
    Read(String),
    /// A word that says the call is wanted once more.
    Again,
}

/// Reads the call (`reflex` with `args`) back against `input`, whose typed spans are `candidates`.
/// `flags` are the reflex's flags the engine judged, yes or no: no word places what a flag reads.
pub fn read_back(input: &str, reflex: &Reflex, args: &Args, candidates: &[Candidate], flags: &[&str]) -> ReadBack {
    read_back_among(input, reflex, args, candidates, flags, &Around::default())
}

/// What the read-back knows of the sentence beyond the call: what other reflexes take, and what the mood
/// made of it.
#[derive(Debug, Default)]
pub struct Around {
    /// The words, lowercased, that name a value of another reflex's argument.
    pub elsewhere: HashSet<String>,
    /// Whether the mood read the sentence as a request: then the words by which it tells a request from
    /// a question, a condition, a negation or a remark ([`CUE_LISTS`]) are words it did not place.
    pub request: bool,
    /// The arguments a person gave: no word of the input said their values, so none is read for them.
    pub given: Vec<String>,
    /// Whether the call is a playbook's pick: a routine of many calls, picked only by its own words. A verb
    /// a command opens with that its wording never uses asks for something else (`wake the house up`,
    /// `turn off good night` of an evening routine): it does `more`, where for a reflex the route reads the
    /// act from it.
    pub routine: bool,
}

/// [`read_back`] among other reflexes and under the mood ([`Around`]). A word that names a value of
/// another reflex's argument (an option key, a vocabulary word) and closes its clause is never `nothing`,
/// even a word a request is phrased in: `on` in `all on, set a timer for 5 minutes` asks the lights for
/// something the timer does not read, so it does `more`. Before more words of its clause it reads as they
/// do (`mute the sound on the speakers`). In a sentence the mood read as a request, a word it reads
/// wherever it stands to tell a request from a question, a condition or a remark (`if`, `why`, `usually`),
/// or an auxiliary before a subject past the first word (`should it`, `were it`), and no part of a phrase
/// it read (`if you can`), is a phrasing the mood did not place: it does `more` (`turn off the den lights
/// should it get dark`).
pub fn read_back_among(
    input: &str,
    reflex: &Reflex,
    args: &Args,
    candidates: &[Candidate],
    flags: &[&str],
    around: &Around,
) -> ReadBack {
    let elsewhere = &around.elsewhere;
    let said_words = words(input);
    let mut said: Vec<Option<Said>> = vec![None; said_words.len()];
    let within = |w: &Word, start: usize, end: usize| start <= w.start && w.end <= end;
    let mut unplaced: Vec<String> = flags.iter().map(|f| f.to_string()).collect();
    let mut unnamed: Vec<String> = Vec::new();
    let mentions = mentions(input, reflex);
    // The words right after a pick's value, with only spaces between: they may be part of it.
    let mut after_value = vec![false; said_words.len()];
    for value in args.0.iter().map(|(_, v)| v) {
        let Value::Pick { span, .. } = value else { continue };
        let chars: Vec<char> = input.chars().collect();
        if let Some(i) = said_words.iter().position(|w| w.start >= span.end)
            && chars[span.end.min(chars.len())..said_words[i].start.min(chars.len())].iter().all(|c| c.is_whitespace())
        {
            after_value[i] = true;
        }
    }
    for (name, value) in &args.0 {
        let placed: Vec<(usize, usize)> = match value {
            Value::Pick { span, .. } => vec![(span.start, span.end)],
            Value::Option { key } | Value::Word { word: key, .. } => mentions
                .iter()
                .filter(|(arg, k, _, _)| arg == name && k == key)
                .map(|(_, _, start, end)| (*start, *end))
                .collect(),
            Value::Flag => continue,
        };
        if placed.is_empty() && !around.given.contains(name) {
            unplaced.push(name.clone());
            unnamed.push(name.clone());
        }
        for (i, w) in said_words.iter().enumerate() {
            if placed.iter().any(|(s, e)| within(w, *s, *e)) {
                said[i] = Some(Said::Held);
            }
        }
    }
    // Keys and spans said for an argument that the call did not take.
    let mut named: Vec<(String, String)> = Vec::new();
    for (arg, key, start, end) in &mentions {
        for (i, w) in said_words.iter().enumerate() {
            if said[i].is_none() && within(w, *start, *end) {
                said[i] = Some(Said::Left(Does::Answers { arg: arg.clone() }));
                if !named.iter().any(|(a, k)| a == arg && k == key) {
                    named.push((arg.clone(), key.clone()));
                }
            }
        }
    }
    // A typed span of a kind no argument takes is no word the read-back weighs: the gate already holds
    // the call for it (`unconsumed_span`). One that overlaps a value the call took is no unconsumed span
    // (`5 minutes to 9 pm`, read as a duration and as a time), so its words left are weighed like any.
    let taken: Vec<(usize, usize)> = args
        .0
        .iter()
        .filter_map(|(_, v)| match v {
            Value::Pick { span, .. } => Some((span.start, span.end)),
            _ => None,
        })
        .collect();
    let mut typed = vec![false; said_words.len()];
    for c in candidates.iter().filter(|c| !taken.iter().any(|(s, e)| c.span.start < *e && *s < c.span.end)) {
        let arg = reflex.manifest.args.iter().find(|a| a.source == Source::Pick(c.kind));
        for (i, w) in said_words.iter().enumerate() {
            if said[i].is_none() && within(w, c.span.start, c.span.end) {
                match arg {
                    Some(arg) => said[i] = Some(Said::Left(Does::Answers { arg: arg.name.clone() })),
                    None => typed[i] = true,
                }
            }
        }
    }
    let own = own_words(reflex);
    let wording = wording_as_written(reflex);
    let only_unset = own_only_where_unset(reflex, args);
    // The asides the mood read as a reason: what stands in them it placed.
    let asides = crate::mood::aside_ranges(input);
    // The closings that say the request goes on past what it says (`etc`, `and so on`).
    let goes_on = in_goes_on(&said_words);
    // The word that opens the request: the first that is neither a stop word nor one the mood reads.
    let phrased = in_mood_phrase(&said_words);
    let opening = (0..said_words.len())
        .position(|i| !phrased[i] && !is_stop(&said_words[i]) && !mood_words().contains(&said_words[i].lower));
    for (i, w) in said_words.iter().enumerate() {
        if said[i].is_some() {
            continue;
        }
        // A cue the mood did not place is read first: the reflex's own wording may use the word too (`What
        // should the lights do?`), and a condition is no less one for it.
        let in_aside = asides.iter().any(|(s, e)| *s <= w.start && w.end <= *e);
        let unplaced_cue = around.request
            && !phrased[i]
            && !in_aside
            && (cue_words().contains(&w.lower) || inverted(&said_words, i) || takes_back_here(input, &said_words, i));
        let changes_the_value = after_value[i] && comparative(w) && own.contains(&w.stem);
        said[i] =
            Some(Said::Left(if unplaced_cue || goes_on[i] || left_hanging(&said_words, i) || changes_the_value {
                Does::More
            } else if only_unset.contains(&w.stem) && !is_stop(w) {
                Does::More
            } else if own.contains(&w.stem) {
                Does::Action
            } else if says_again(&said_words, i) {
                said[i] = Some(Said::Again);
                continue;
            } else if scope_of_its_own(input, &said_words, i) {
                Does::More
            } else if elsewhere.contains(&w.lower) && closes_clause(input, &said_words, i) {
                Does::More
            } else if closing_word(&said_words, i) {
                // Neither taking back nor the reflex's own wording: it asks for something the call does not do.
                Does::More
            } else if against_the_reflex(&said_words, i, &wording) {
                // The call may move the other way (`turn up the brightness`, read by a reflex that lowers it).
                Does::More
            } else if is_stop(w)
                || phrased[i]
                || crate::weave::two_things::opens_one_act(&said_words, i)
                || calls_on(&said_words, i)
                || mood_words().contains(&w.lower)
                || (opening == Some(i) && command_verbs().contains(&w.stem) && !around.routine)
            {
                Does::Nothing
            } else {
                Does::More
            }));
    }
    let mut said: Vec<Said> = said.into_iter().map(|s| s.expect("every word is read")).collect();
    // Under a request, as the cues are: the mood read every clause as part of it.
    if around.request {
        bare_clauses_do_more(input, &said_words, &mut said);
        clauses_apart_do_more(input, reflex, &said_words, &mut said);
    }
    bounds_do_more(&taken, &said_words, &mut said);
    directions_do_more(&taken, &said_words, &mut said);
    let over = said.iter().filter(|s| **s == Said::Left(Does::More)).count();
    // The word a value no word names was read from: one word for one such value, else which said which
    // cannot be told (`douse lights`, with both the room and the state named by no word). An option or vocabulary value is read from the word that opens the request (`douse the den lights`),
    // never from a word elsewhere (`shut the den lights in the garage`: the garage is more); a flag, which
    // any word may say, from wherever the words are.
    let opens_only = said.iter().enumerate().all(|(i, s)| *s != Said::Left(Does::More) || opening == Some(i));
    let read = over == 1 && unplaced.len() == 1 && (!flags.is_empty() || opens_only);
    if read {
        for s in said.iter_mut().filter(|s| **s == Said::Left(Does::More)) {
            *s = Said::Read(unplaced[0].clone());
        }
    }
    let content = said.iter().filter(|s| !matches!(s, Said::Left(Does::Nothing) | Said::Again)).count();
    let more = if read { 0 } else { over };
    let whole = if content == 0 { 1.0 } else { 1.0 - more as f64 / content as f64 };
    // Only words that end what the sentence says may end its value (`30 ish`, `10 minutes tops`): words
    // that go on to more (`tomorrow remind me …`), or to another value the call holds (`4 minutes called
    // "tea"`), are no cut.
    for (i, after) in after_value.iter_mut().enumerate() {
        let mut rest = (i..said.len()).skip_while(|&k| said[k] == Said::Left(Does::More));
        if *after && !rest.all(|k| matches!(said[k], Said::Left(Does::Nothing) | Said::Again)) {
            *after = false;
        }
    }
    let left = runs(input, &said_words, &said, &typed, &after_value);
    let answered: HashSet<&str> = left
        .iter()
        .filter_map(|l| match &l.does {
            Does::Answers { arg } => Some(arg.as_str()),
            _ => None,
        })
        .collect();
    let unstated = if more > 0 {
        Vec::new()
    } else {
        reflex
            .manifest
            .args
            .iter()
            .filter(|a| a.optional && a.source != Source::Flag)
            .filter(|a| args.get(&a.name).is_none() && !answered.contains(a.name.as_str()))
            .filter(|a| !may_answer(reflex, a, &said_words, &said))
            .map(|a| a.name.clone())
            .collect()
    };
    ReadBack { left, whole, unstated, named, unnamed }
}

/// Every key of the reflex's options and vocabularies the input says, by argument: `(arg, key, start, end)`.
/// Words that, right before a typed value, make it a bound rather than the value: `longer than 5
/// minutes`, `at least 30`, `under 80`. Not `up to`, which sets a value as often as it bounds one (`turn
/// the volume up to 7`).
const BOUNDS: [&[&str]; 8] =
    [&["than"], &["at", "least"], &["at", "most"], &["under"], &["over"], &["below"], &["above"], &["by"]];

/// A value the call took that the words right before it make a bound (`set a timer for longer than 5
/// minutes`) is not what the person asked for: those words do `more`, whatever else reads them (`long`
/// is the timer's own word), so a write waits for a yes that shows them.
fn bounds_do_more(taken: &[(usize, usize)], said_words: &[Word], said: &mut [Said]) {
    for (start, _) in taken {
        let Some(at) = said_words.iter().position(|w| w.start >= *start) else { continue };
        for bound in BOUNDS {
            let Some(from) = at.checked_sub(bound.len()) else { continue };
            if said_words[from..at].iter().zip(bound.iter()).all(|(w, b)| w.lower == *b) {
                for s in &mut said[from..at] {
                    *s = Said::Left(Does::More);
                }
            }
        }
    }
}

/// Words that set a value where they stand right before it: `to 20 percent`, `at 30`, `for 10 minutes`.
const SETTERS: [&str; 3] = ["to", "at", "for"];

/// Whether a word is one of the `directions_up` or `directions_down` lists: a way to move a setting.
fn is_direction(w: &Word) -> bool {
    let w = w.lower.as_str();
    crate::mood::lists::DIRECTIONS_UP.contains(&w) || crate::mood::lists::DIRECTIONS_DOWN.contains(&w)
}

/// A value the call took with no `to`, `at` or `for` right before it, in a sentence that says a way to move
/// (`turn down the volume 20 percent`, `raise the volume 40 percent`, `turn the volume 20 percent down`,
/// `turn up the volume, 20 percent`), may be a change by that much rather than the level to set, and a
/// change down can set a level above the one there is. The direction's words do `more`, whatever else
/// reads them (`down` is the volume's own word), so a write waits for a yes that shows them; `turn it down
/// to 20 percent` sets the level.
fn directions_do_more(taken: &[(usize, usize)], said_words: &[Word], said: &mut [Said]) {
    for (start, _) in taken {
        let Some(at) = said_words.iter().position(|w| w.start >= *start) else { continue };
        if at.checked_sub(1).is_some_and(|p| SETTERS.contains(&said_words[p].lower.as_str())) {
            continue;
        }
        for i in 0..said_words.len() {
            if said[i] != Said::Held && is_direction(&said_words[i]) {
                said[i] = Said::Left(Does::More);
            }
        }
    }
}

/// Whether the word at `i` says a way to move that goes against every way the reflex's own wording says:
/// `up` said to a reflex whose wording only lowers (`turn up the brightness`, read by a reflex that dims).
/// A reflex whose wording says no way to move (a timer: `set up a timer`) is moved no way by the word.
/// The reflex's wording is read word for word, as written: stems run `brighter` and `brightness` together.
fn against_the_reflex(said_words: &[Word], i: usize, wording: &HashSet<String>) -> bool {
    use crate::mood::lists::{DIRECTIONS_DOWN, DIRECTIONS_UP};
    let says = |list: &[&str]| list.iter().any(|d| wording.contains(*d));
    let w = said_words[i].lower.as_str();
    (DIRECTIONS_UP.contains(&w) && says(&DIRECTIONS_DOWN) && !says(&DIRECTIONS_UP))
        || (DIRECTIONS_DOWN.contains(&w) && says(&DIRECTIONS_UP) && !says(&DIRECTIONS_DOWN))
}

/// Marks that end a clause: small words between two of them stand alone. Their full-width and other
/// script forms, the ellipsis, the dashes and brackets end one as well.
const CLAUSE_ENDS: [char; 37] = [
    ',', ';', ':', '.', '!', '?', '—', '–', '-', '\n', '…', '，', '；', '：', '。', '！', '？', '‒', '―', '(', ')',
    '~', '、', '[', ']', '{', '}', '<', '>', '|', '&', '•', '·', '«', '»', '「', '」',
];

/// A clause of small words alone that is neither a request's phrasing nor a greeting (`…, then in, …`,
/// `…, let me in`) says something the call does not hold: its words do `more`, where each word alone
/// would do nothing. Before the request, `can you please, …` and `hey evoke, …` phrase it; after it, only
/// a polite closing does (`…, thanks`), and words that lead on to more (`…, and`, `…, then`) do `more`.
/// A small word is small wherever the reflex's own wording uses it too: `them` of `dim them` leaves
/// `…, them too` no less a clause of its own.
fn bare_clauses_do_more(input: &str, said_words: &[Word], said: &mut [Said]) {
    let mut before_request = true;
    for clause in clauses_of(input, said_words) {
        let inside = clause.words;
        // The whole sentence is no clause beside anything.
        let whole = inside.len() == said_words.len();
        let small = |i: usize| match &said[i] {
            Said::Left(Does::Nothing) => true,
            Said::Left(Does::Action) => is_stop(&said_words[i]),
            _ => false,
        };
        let bare = inside.iter().all(|&i| small(i));
        if bare && !whole {
            let phrasing = if before_request {
                crate::mood::courtesy(&clause.text, true) || crate::mood::opens_only(&clause.text)
            } else {
                crate::mood::closing(&clause.text)
            };
            if !phrasing {
                for &i in &inside {
                    said[i] = Said::Left(Does::More);
                }
            }
        } else {
            before_request = false;
        }
    }
}

/// A clause of the input: its text as typed, and the indices of its words.
struct Clause {
    text: String,
    words: Vec<usize>,
}

/// The stretches of `input`, in characters, of its clauses that state something (`the kitchen was left on,
/// turn it off`), where another clause does not: what such a clause names is how things are, not what is
/// asked. Empty where every clause states, which the mood reads whole.
pub(crate) fn stated_ranges(input: &str) -> Vec<(usize, usize)> {
    let said_words = words(input);
    let found = clauses_of(input, &said_words);
    let states: Vec<bool> = found.iter().map(|c| crate::mood::states(&c.text)).collect();
    if states.iter().all(|s| *s) {
        return Vec::new();
    }
    let span = |c: &Clause| (said_words[c.words[0]].start, said_words[c.words[c.words.len() - 1]].end);
    found.iter().zip(states).filter(|(_, s)| *s).map(|(c, _)| span(c)).collect()
}

/// The input's clauses that hold a word, in order: the stretches between two of [`CLAUSE_ENDS`].
fn clauses_of(input: &str, said_words: &[Word]) -> Vec<Clause> {
    let chars: Vec<char> = input.chars().collect();
    let mut clauses = Vec::new();
    let mut start = 0;
    for end in (0..=chars.len()).filter(|&i| i == chars.len() || CLAUSE_ENDS.contains(&chars[i])) {
        let words: Vec<usize> =
            (0..said_words.len()).filter(|&i| start <= said_words[i].start && said_words[i].end <= end).collect();
        if !words.is_empty() {
            clauses.push(Clause { text: chars[start..end].iter().collect(), words });
        }
        start = end + 1;
    }
    clauses
}

/// Words that only frame a value in a clause of its own: what points at it (`the`, `my`), where or what it
/// stands for (`in`, `to`, `for`), a joining `and`, and a courtesy (`please`, `thanks`). Grammar's function
/// words, a closed class: a clause of a value and these says nothing more of it (`…, in the den`).
const FRAMING: &[&str] = &[
    "the", "a", "an", "my", "our", "your", "his", "her", "their", "its", "this", "that", "these", "those", "in", "at",
    "on", "to", "for", "of", "into", "from", "with", "by", "and", "please", "thanks", "thank", "you",
];

/// A clause apart from the request's that holds a value of the call with words beyond it says something
/// about that value rather than asking for it: `30 is too dark, dim the den lights`, `the den is ok, turn
/// off the lights`, `set a timer, 5 minutes too long`. The value may be what the person meant or what they
/// spared, and the words cannot tell, so its words do `more` and a write waits for a yes. A clause of
/// values, framing words and words of the reflex's examples alone (`in the den, …`, `…, 30 percent`, `den
/// lights, off`, `the den, kitchen and office lights`) says nothing more of them. The request's
/// clause is the first that opens, past its framing words, with a word an example of the reflex opens with
/// or a verb a command opens with; where none does, the one that holds the most of the call's words, the
/// later of two. A clause that states something (`the volume is 30, turn it up`) is the request's only
/// where every clause does.
fn clauses_apart_do_more(input: &str, reflex: &Reflex, said_words: &[Word], said: &mut [Said]) {
    let found = clauses_of(input, said_words);
    if found.len() < 2 {
        return;
    }
    // A clause that states something (`the volume is 30`) tells what is, never what is asked.
    let states: Vec<bool> = found.iter().map(|c| crate::mood::states(&c.text)).collect();
    let clauses: Vec<Vec<usize>> = found.into_iter().map(|c| c.words).collect();
    let framing = |i: usize| FRAMING.contains(&said_words[i].lower.as_str());
    let openers: HashSet<String> = reflex
        .manifest
        .examples
        .iter()
        .filter_map(|e| words(&e.utterance).into_iter().next().map(|w| w.lower))
        .chain(command_verbs().iter().cloned())
        .collect();
    let opens_request = |clause: &[usize]| {
        clause.iter().find(|&&i| !framing(i)).is_some_and(|&i| openers.contains(&said_words[i].lower))
    };
    let held: Vec<usize> = clauses.iter().map(|c| c.iter().filter(|&&i| said[i] == Said::Held).count()).collect();
    let main = (0..clauses.len())
        .find(|&k| opens_request(&clauses[k]) && !states[k])
        .or_else(|| (0..clauses.len()).filter(|&k| !states[k]).max_by_key(|&k| (held[k], k)))
        .unwrap_or_else(|| (0..clauses.len()).max_by_key(|&k| (held[k], k)).unwrap_or(clauses.len() - 1));
    // A word that says something of its own: not the call's value, nor another value of its arguments, nor
    // a word of the reflex's examples (`den lights, off`), nor a framing word. Its description's wording
    // counts (`the den keeps its state, …`): it tells what the reflex does, not how a request names it.
    let named: HashSet<String> = reflex
        .manifest
        .examples
        .iter()
        .flat_map(|e| words(&e.utterance))
        .map(|w| w.stem)
        .chain(words(&reflex.name).into_iter().map(|w| w.stem))
        .collect();
    let says: Vec<bool> = (0..said.len())
        .map(|i| {
            !framing(i)
                && match &said[i] {
                    Said::Left(Does::Nothing | Does::More) | Said::Read(_) => true,
                    Said::Left(Does::Action) => !named.contains(&said_words[i].stem),
                    _ => false,
                }
        })
        .collect();
    for (k, clause) in clauses.iter().enumerate() {
        // A statement says something of the value it holds, whatever its words (`it's at 100 percent`, where
        // `it's` is read as the framing `its`).
        if k == main || held[k] == 0 || !(states[k] || clause.iter().any(|&i| says[i])) {
            continue;
        }
        // Where only framing words stand beside the value (`it's at`), they are what says something of it.
        let own = clause.iter().any(|&i| said[i] != Said::Held && !framing(i));
        for &i in clause {
            if said[i] != Said::Held && (!own || !framing(i)) {
                said[i] = Said::Left(Does::More);
            }
        }
    }
}

pub(crate) fn mentions(input: &str, reflex: &Reflex) -> Vec<(String, String, usize, usize)> {
    let offered: Vec<Offered> = reflex
        .manifest
        .args
        .iter()
        .filter_map(|arg| {
            let keys: Vec<(&str, &str)> = match &arg.source {
                Source::Options(options) => options.iter().map(|(k, what)| (k.as_str(), what.as_str())).collect(),
                Source::Vocab(_) => {
                    reflex.vocab_of(&arg.name)?.words.iter().map(|w| (w.word.as_str(), w.what.as_str())).collect()
                }
                Source::Pick(_) | Source::Flag | Source::Takes(_) => return None,
            };
            Some(Offered { name: &arg.name, ask: &arg.ask, keys })
        })
        .collect();
    let said = said(input, &offered);
    offered
        .iter()
        .zip(&said)
        .flat_map(|(o, s)| s.mentions.iter().map(|m| (o.name.to_string(), m.key.clone(), m.span.start, m.span.end)))
        .collect()
}

/// The texts the reflex says of itself: what the weave reads as its own (its description, examples,
/// arguments, option keys and vocabulary words), with its `confirm` question, its options' meanings and
/// its name.
fn own_texts(reflex: &Reflex) -> Vec<&str> {
    let m = &reflex.manifest;
    let mut texts = crate::weave::two_things::spoken_texts(reflex);
    texts.extend([m.confirm.as_str(), reflex.name.as_str()]);
    for arg in &m.args {
        if let Source::Options(options) = &arg.source {
            texts.extend(options.iter().map(|(_, what)| what.as_str()));
        }
    }
    texts
}

/// The stems of the words of [`own_texts`], but for the values its examples assert.
fn own_words(reflex: &Reflex) -> HashSet<String> {
    let m = &reflex.manifest;
    let mut own: HashSet<String> = own_texts(reflex).into_iter().flat_map(words).map(|w| w.stem).collect();
    // A value an example asserts is that example's value, not the reflex's wording: `tea` in `start a "tea"
    // timer` names a label, and a label said elsewhere is more than the call holds.
    let asserted = m.examples.iter().flat_map(|r| r.asserts.iter().flatten()).filter_map(|(_, a)| match a {
        crate::manifest::Asserted::Text(text) => Some(text.as_str()),
        crate::manifest::Asserted::Flag(_) => None,
    });
    for w in asserted.flat_map(words) {
        own.remove(&w.stem);
    }
    own
}

/// The words of [`own_texts`], lowercased as written.
fn wording_as_written(reflex: &Reflex) -> HashSet<String> {
    own_texts(reflex).into_iter().flat_map(words).map(|w| w.lower).collect()
}

/// The words of the reflex's own wording that only an optional argument the call leaves out speaks of, by
/// its name or its question (`bright` of `How bright, in percent?`, with no brightness read): said, they
/// may ask for a value the call does not hold (`turn on the kitchen lights bright`), so they do `more`
/// rather than `action`. A word the rest of the reflex's wording uses too says what it does.
fn own_only_where_unset(reflex: &Reflex, args: &Args) -> HashSet<String> {
    let m = &reflex.manifest;
    let unset = |a: &&crate::manifest::Arg| a.optional && a.source != Source::Flag && args.get(&a.name).is_none();
    let stems = |text: &str| words(text).into_iter().filter(|w| !is_stop(w)).map(|w| w.stem).collect::<Vec<_>>();
    let theirs: HashSet<String> =
        m.args.iter().filter(unset).flat_map(|a| [stems(&a.name.replace('_', " ")), stems(&a.ask)]).flatten().collect();
    if theirs.is_empty() {
        return theirs;
    }
    let mut rest: Vec<String> = vec![m.description.clone(), m.confirm.clone(), reflex.name.replace('_', " ")];
    rest.extend(m.examples.iter().map(|e| e.utterance.clone()));
    for arg in &m.args {
        if !unset(&arg) {
            rest.push(arg.name.replace('_', " "));
            rest.push(arg.ask.clone());
        }
        rest.extend(arg.source.option_keys().map(str::to_string));
        if let Source::Options(options) = &arg.source {
            rest.extend(options.iter().map(|(_, what)| what.clone()));
        }
    }
    for vocab in reflex.vocabs.values() {
        rest.extend(vocab.words.iter().map(|w| w.word.clone()));
    }
    let rest: HashSet<String> = rest.iter().flat_map(|t| stems(t)).collect();
    theirs.into_iter().filter(|w| !rest.contains(w)).collect()
}

/// Words that point at a place without naming it: where a vocabulary argument holds places, `in here` or
/// `this light` may say one.
const POINTING_AT_A_PLACE: &[&str] = &["here", "there", "this", "that", "these", "those"];

/// Whether a word no value holds may say a value of the optional argument `arg`, so that the read-back
/// cannot settle it unstated: a word of its question or of its choices' meanings (`room` of `Which room?`,
/// `milk` of a meaning, `upstairs` of `The upstairs study.`), other than the reflex's own name, or, for a
/// vocabulary, a word that points at a place.
fn may_answer(reflex: &Reflex, arg: &crate::manifest::Arg, said_words: &[Word], said: &[Said]) -> bool {
    let mut texts: Vec<&str> = vec![&arg.ask];
    match &arg.source {
        Source::Options(options) => texts.extend(options.iter().map(|(_, what)| what.as_str())),
        Source::Vocab(_) => {
            texts.extend(reflex.vocab_of(&arg.name).iter().flat_map(|v| v.words.iter().map(|w| w.what.as_str())))
        }
        Source::Pick(_) | Source::Flag | Source::Takes(_) => {}
    }
    let name: HashSet<String> = words(&reflex.name.replace('_', " ")).into_iter().map(|w| w.stem).collect();
    let its: HashSet<String> =
        texts.into_iter().flat_map(words).filter(|w| !is_stop(w) && !name.contains(&w.stem)).map(|w| w.stem).collect();
    let vocab = matches!(arg.source, Source::Vocab(_));
    said_words.iter().zip(said).any(|(w, s)| {
        *s != Said::Held && (its.contains(&w.stem) || (vocab && POINTING_AT_A_PLACE.contains(&w.lower.as_str())))
    })
}

/// The words left, joined into runs of one kind, each run as typed.
fn runs(input: &str, said_words: &[Word], said: &[Said], typed: &[bool], after_value: &[bool]) -> Vec<Left> {
    let chars: Vec<char> = input.chars().collect();
    let mut left: Vec<Left> = Vec::new();
    // Where the run being built starts, and the word it last took.
    let mut open: Option<(usize, usize)> = None;
    for (i, (w, s)) in said_words.iter().zip(said).enumerate() {
        let (does, read, again) = match s {
            Said::Held => {
                open = None;
                continue;
            }
            Said::Left(does) => (does.clone(), false, false),
            Said::Read(arg) => (Does::Answers { arg: arg.clone() }, true, false),
            Said::Again => (Does::Nothing, false, true),
        };
        match (open, left.last_mut()) {
            (Some((start, last)), Some(run))
                if last + 1 == i
                    && run.does == does
                    && run.read == read
                    && run.again == again
                    && run.typed == typed[i] =>
            {
                let from = said_words[start].start;
                run.words = Span { start: from, end: w.end, text: chars[from..w.end].iter().collect() };
                open = Some((start, i));
            }
            _ => {
                let words = Span { start: w.start, end: w.end, text: chars[w.start..w.end].iter().collect() };
                let cut = after_value[i] && does == Does::More;
                left.push(Left { words, does, p: 1.0, read, again, cut, typed: typed[i] });
                open = Some((i, i));
            }
        }
    }
    left
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::decision::Value;

    const LIGHTS: &str = r#"
reflex = 1
description = "Turn the lights in one room on, off, or dim them."
effect = "write"
confirm = "Set the lights {state}?"
run = "lights.mjs"
[args.room]
ask = "Which room?"
vocab = "rooms"
optional = true
[args.state]
ask = "What should the lights do?"
options.on = "Switch on."
options.off = "Switch off."
[examples]
"turn on the kitchen lights" = { state = "on" }
"#;

    fn lights() -> Reflex {
        let read = crate::manifest::read_manifest("reflex.toml", LIGHTS, &|_: &str| true);
        let manifest = read.value.unwrap_or_else(|| panic!("{:?}", read.diagnostics));
        let rooms = "den = \"The TV room.\"\noffice = \"The study.\"\n";
        let rooms = crate::vocab::read_vocab("rooms", "rooms.toml", rooms).value.unwrap();
        Reflex { name: "lights".into(), manifest, vocabs: [("rooms".to_string(), rooms)].into_iter().collect() }
    }

    #[test]
    fn a_small_word_that_names_another_reflex_s_value_at_a_clause_end_does_more() {
        let around = Around {
            elsewhere: ["out".to_string()].into_iter().collect(),
            request: false,
            given: Vec::new(),
            routine: false,
        };
        let read = |input: &str| read_back_among(input, &lights(), &call(Some("den"), "off"), &[], &[], &around);
        let more = |back: &ReadBack| -> Vec<String> {
            back.left.iter().filter(|l| l.does == Does::More).map(|l| l.words.text.clone()).collect()
        };
        assert_eq!(more(&read("turn off the den lights and out")), ["out"]);
        assert_eq!(more(&read("out, turn off the den lights")), ["out"]);
        // Before more words of its clause it reads as they do.
        assert!(more(&read("turn off the den lights out there")).is_empty());
        assert!(
            more(&read_back("turn off the den lights and out", &lights(), &call(Some("den"), "off"), &[], &[]))
                .is_empty()
        );
    }

    #[test]
    fn a_way_to_move_that_the_reflexs_wording_never_says_does_more() {
        // A reflex whose wording only lowers: `up` said to it may ask the other way.
        let dimmer =
            LIGHTS.replace("Turn the lights in one room on, off, or dim them.", "Lower the lights in one room.");
        let read = crate::manifest::read_manifest("reflex.toml", &dimmer, &|_: &str| true);
        let dimmer = Reflex { manifest: read.value.unwrap(), ..lights() };
        let more = |input: &str, reflex: &Reflex| -> Vec<String> {
            let back = read_back(input, reflex, &call(Some("den"), "off"), &[], &[]);
            back.left.iter().filter(|l| l.does == Does::More).map(|l| l.words.text.clone()).collect()
        };
        assert_eq!(more("turn up the den lights", &dimmer), ["up"]);
        assert!(more("lower the den lights", &dimmer).is_empty());
        // The lights' own wording moves no way: `up` moves them no way either.
        assert!(more("turn up the den lights", &lights()).is_empty());
    }

    #[test]
    fn a_greeting_that_names_nothing_is_nothing() {
        let back = read_back("come on, turn off the den lights", &lights(), &call(Some("den"), "off"), &[], &[]);
        assert!(!back.asks_more(), "{:?}", back.left);
        let back = read_back("come home and turn off the den lights", &lights(), &call(Some("den"), "off"), &[], &[]);
        assert!(back.asks_more(), "`come` with no `on` is a word like any other: {:?}", back.left);
    }

    fn call(room: Option<&str>, state: &str) -> Args {
        let mut args = Vec::new();
        if let Some(room) = room {
            args.push(("room".to_string(), Value::Word { word: room.into(), value: None }));
        }
        args.push(("state".to_string(), Value::Option { key: state.into() }));
        Args(args)
    }

    fn more(back: &ReadBack) -> Vec<&str> {
        back.left.iter().filter(|l| l.does == Does::More).map(|l| l.words.text.as_str()).collect()
    }

    #[test]
    fn a_thing_the_reflex_never_speaks_of_does_more() {
        let back = read_back("turn on the den tv", &lights(), &call(Some("den"), "on"), &[], &[]);
        assert_eq!(more(&back), ["tv"]);
        assert!(back.asks_more());
        assert!(back.whole < 1.0);
        assert!(back.unstated.is_empty(), "nothing is settled while a word asks more");
    }

    #[test]
    fn every_word_accounted_for_settles_an_optional_argument_unstated() {
        let back = read_back("turn off the lights", &lights(), &call(None, "off"), &[], &[]);
        assert!(more(&back).is_empty(), "{back:?}");
        assert_eq!(back.whole, 1.0);
        assert_eq!(back.unstated, ["room"]);
    }

    #[test]
    fn a_room_said_but_not_taken_answers_it_and_settles_nothing() {
        let back = read_back("turn off the office lights", &lights(), &call(None, "off"), &[], &[]);
        let answers = Does::Answers { arg: "room".into() };
        assert!(back.left.iter().any(|l| l.words.text == "office" && l.does == answers), "{back:?}");
        assert!(back.unstated.is_empty());
    }

    #[test]
    fn a_value_no_word_names_is_read_from_as_many_words_left() {
        // An engine read `douse` as `off`: one value unplaced, one word left.
        let back = read_back("douse the den lights", &lights(), &call(Some("den"), "off"), &[], &[]);
        assert!(!back.asks_more(), "{back:?}");
        let read = &back.left[0];
        assert_eq!((read.words.text.as_str(), read.read), ("douse", true));
        assert_eq!(read.does, Does::Answers { arg: "state".into() });
        // Two words left for one such value: which said it cannot be told, so both ask more.
        let back = read_back("douse the den lights and the tv", &lights(), &call(Some("den"), "off"), &[], &[]);
        assert_eq!(more(&back), ["douse", "tv"]);
    }

    #[test]
    fn a_word_that_asks_for_the_call_once_more_asks_nothing_more() {
        let back = read_back("turn off the den lights again", &lights(), &call(Some("den"), "off"), &[], &[]);
        assert!(!back.asks_more(), "{back:?}");
        assert!(back.left.iter().any(|l| l.words.text == "again" && l.again), "{back:?}");
    }

    #[test]
    fn words_in_no_list_and_no_manifest_never_go_unread() {
        // Sentences built from words no rule and no manifest knows, around a plain request.
        for input in [
            "zorbly turn off the den lights",
            "turn off the den lights quistically",
            "turn off the den lights vex flumb",
            "plonk the den lights off",
        ] {
            let back = read_back(input, &lights(), &call(Some("den"), "off"), &[], &[]);
            assert!(back.asks_more(), "{input}: {back:?}");
        }
    }

    #[test]
    fn a_word_of_the_question_or_a_pointing_word_keeps_an_optional_argument_open() {
        // `room` is the question's own word, `here` and `this` point at a place: the room may be said.
        for input in ["turn off the lights in my room", "turn off the lights in here", "turn off this light"] {
            let back = read_back(input, &lights(), &call(None, "off"), &[], &[]);
            assert!(back.unstated.is_empty(), "{input}: {back:?}");
        }
    }

    #[test]
    fn a_word_of_the_mood_counts_only_as_written() {
        // The mood reads `nightly` and `kidding`, not `night` or `kids`; `bread` is no word of the mood's.
        for (input, word) in [
            ("turn on the den lights for the night", "night"),
            ("turn on the den lights for the kids", "kids"),
            ("turn on the den lights for the bread", "bread"),
        ] {
            let back = read_back(input, &lights(), &call(Some("den"), "on"), &[], &[]);
            assert!(more(&back).contains(&word), "{input}: {back:?}");
        }
    }

    #[test]
    fn a_value_an_example_asserts_is_no_word_of_the_reflex() {
        let manifest = r#"
reflex = 1
description = "Start a countdown timer."
effect = "write"
confirm = "Start a timer for {duration}?"
run = "timer.mjs"
[args.duration]
ask = "For how long?"
pick = "duration"
[args.label]
ask = "What is the timer for?"
pick = "text"
optional = true
[examples]
"start a \"tea\" timer for 4 minutes" = { duration = "4 minutes", label = "tea" }
"#;
        let manifest = crate::manifest::read_manifest("reflex.toml", manifest, &|_: &str| true).value.unwrap();
        let timer = Reflex { name: "timer".into(), manifest, vocabs: Default::default() };
        let back = read_back("start a timer for tea", &timer, &Args::default(), &[], &[]);
        assert_eq!(more(&back), ["tea"], "{back:?}");
    }

    /// A reflex of one manifest's text, with no vocabulary.
    fn reflex_of(name: &str, manifest: &str) -> Reflex {
        let manifest = crate::manifest::read_manifest("reflex.toml", manifest, &|_: &str| true).value.unwrap();
        Reflex { name: name.into(), manifest, vocabs: Default::default() }
    }

    /// A candidate as the value a pick takes.
    fn picked(c: &Candidate) -> Value {
        Value::Pick { span: c.span.clone(), value: c.value.clone() }
    }

    #[test]
    fn words_of_a_span_that_overlaps_a_value_taken_are_weighed_not_left_to_unconsumed() {
        let manifest = "reflex = 1\ndescription = \"Start a countdown timer.\"\neffect = \"write\"\n\
                        confirm = \"Start a timer for {duration}?\"\nrun = \"timer.mjs\"\n[args.duration]\n\
                        ask = \"For how long?\"\npick = \"duration\"\n";
        let timer = reflex_of("timer", manifest);
        let input = "set a timer for 5 minutes to 9 pm";
        let found = crate::recognize::recognize(input);
        let duration = found.iter().find(|c| c.span.text == "5 minutes").expect("a duration");
        assert!(found.iter().any(|c| c.span.start < duration.span.end && c.span.end > duration.span.end));
        let call = Args(vec![("duration".into(), picked(duration))]);
        let back = read_back(input, &timer, &call, &found, &[]);
        assert_eq!(more(&back), ["9 pm"], "{back:?}");
        assert!(back.left.iter().all(|l| !l.typed), "{back:?}");
    }

    #[test]
    fn a_value_no_word_names_is_read_from_the_opening_word_and_no_other() {
        let lights = lights();
        let back = read_back("douse the den lights", &lights, &call(Some("den"), "off"), &[], &[]);
        assert!(more(&back).is_empty(), "{back:?}");
        let back = read_back("turn the den lights in the garage", &lights, &call(Some("den"), "off"), &[], &[]);
        assert_eq!(more(&back), ["garage"], "{back:?}");
    }

    #[test]
    fn words_that_lead_to_another_value_held_are_no_cut() {
        let manifest = "reflex = 1\ndescription = \"Start a countdown timer.\"\neffect = \"write\"\n\
                        confirm = \"Start a timer?\"\nrun = \"timer.mjs\"\n[args.duration]\nask = \"For how long?\"\n\
                        pick = \"duration\"\n[args.label]\nask = \"What for?\"\npick = \"text\"\noptional = true\n";
        let timer = reflex_of("timer", manifest);
        for (input, cut) in
            [("set a timer for 4 minutes called \"tea\"", false), ("set a timer for 4 minutes ish", true)]
        {
            let found = crate::recognize::recognize(input);
            let mut call =
                vec![("duration".to_string(), picked(found.iter().find(|c| c.span.text == "4 minutes").unwrap()))];
            if let Some(tea) = found.iter().find(|c| c.span.text == "tea") {
                call.push(("label".to_string(), picked(tea)));
            }
            let back = read_back(input, &timer, &Args(call), &found, &[]);
            let after = back.left.iter().find(|l| l.does == Does::More).expect("a word does more");
            assert_eq!(after.cut, cut, "{input}: {back:?}");
        }
    }

    #[test]
    fn words_after_a_value_that_go_on_to_more_are_no_cut() {
        let manifest = "reflex = 1\ndescription = \"Set an alarm.\"\neffect = \"write\"\nconfirm = \"Set?\"\n\
                        run = \"a.mjs\"\n[args.day]\nask = \"On what day?\"\npick = \"date\"\n";
        let alarm = reflex_of("alarm", manifest);
        let input = "tomorrow remind me to water the plants";
        let found = crate::recognize::recognize(input);
        let day = found.iter().find(|c| c.span.text == "tomorrow").expect("a date");
        let call = Args(vec![("day".into(), picked(day))]);
        let back = read_back(input, &alarm, &call, &found, &[]);
        assert!(back.left.iter().all(|l| !l.cut), "{back:?}");
        assert!(back.asks_more(), "{back:?}");
    }
}
