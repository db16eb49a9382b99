//! Whether a sentence asks for something to be done now.
//!
//! An engine answers which reflex a sentence is about; it does not say whether the sentence asks for it.
//! `are the kitchen lights on`, `the den lights are off`, `did I turn off the den lights`, `turn on the
//! kitchen lights if it gets dark` and `turn on the kitchen lights, just kidding` are all about the lights,
//! and a sure engine would switch them. So a write runs only on a request; anything else waits for a
//! person (`because: not_a_request`), whatever the engine's confidence. The reading is by the sentence's
//! form alone and errs toward asking: a request it misreads confirms, it never runs.

use crate::text::is_format;
use serde::Serialize;
use unicode_normalization::UnicodeNormalization;

/// What a sentence does, read from its form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mood {
    /// An imperative (`kill the lights`, `lights off in the den`), a polite request (`can you`, `…, will
    /// you?`), or a want (`I'd like`, `I need`).
    Request,
    /// A question about the world: `are the lights on`, `did I`, `how do I`, `why`, or a `?` anywhere.
    Question,
    /// A statement, a report or a make-believe: `the den lights are off`, `Mom turned off the lights`,
    /// `my wife said turn off the lights`, `imagine the lights off`, or a bare `the kitchen lights`.
    Remark,
    /// A request for later or on a condition: `if`, `unless`, `when`, `later`, `until`, `every night`.
    Conditional,
    /// A request taken back or corrected: `just kidding`, `no wait`, `never mind`, `no`, `actually`,
    /// `I mean`.
    TakenBack,
    /// A request not to, or for all but something: `don't`, `not`, `never`, `stop turning off`, `except`.
    Negated,
    /// Letters of two alphabets in one sentence, as a word disguised with look-alike letters would be.
    Unclear,
}

impl Mood {
    /// How the confirm prompt names it.
    pub fn reads_as(self) -> &'static str {
        match self {
            Mood::Request => "a request",
            Mood::Question => "a question",
            Mood::Remark => "a remark",
            Mood::Conditional => "a request for later or on a condition",
            Mood::TakenBack => "a request taken back",
            Mood::Negated => "a request not to",
            Mood::Unclear => "unclear: it mixes alphabets",
        }
    }
}

/// Words and phrases that take back or correct what was said, wherever they stand.
const TAKEN_BACK: &[&[&str]] = &[
    &["kidding"],
    &["joking"],
    &["jk"],
    &["psych"],
    &["no"],
    &["nope"],
    &["nah"],
    &["wait"],
    &["never", "mind"],
    &["nevermind"],
    &["nvm"],
    &["scratch", "that"],
    &["forget", "it"],
    &["forget", "that"],
    &["cancel", "that"],
    &["ignore", "that"],
    &["undo"],
    &["actually"],
    &["i", "mean"],
    &["or", "not"],
    &["not", "yet"],
    &["not", "now"],
];

/// Whether the words take back what was said. `undo` and `cancel that` opening a sentence with more after
/// them are its verb (`cancel that reservation for 8`), not a taking back: nothing was said before them.
fn taken_back(words: &[String]) -> bool {
    (0..words.len()).any(|i| {
        TAKEN_BACK.iter().any(|p| {
            starts(&words[i..], p)
                && !(i == 0 && words.len() > p.len() && (p == &["undo"] || p == &["cancel", "that"]))
        })
    })
}

/// Words and phrases that ask for something not to be done, or for all but something, wherever they stand.
const NEGATIONS: &[&[&str]] = &[
    &["don't"],
    &["dont"],
    &["dnt"],
    &["donot"],
    &["do'nt"],
    &["do", "not"],
    &["not"],
    &["never"],
    &["except"],
    &["instead"],
    &["other", "than"],
    &["but", "the"],
    &["no", "need"],
    &["hold", "off"],
    &["refrain"],
    &["avoid"],
];

/// Verbs that, before a word in `-ing`, ask for something to stop or not happen: `stop turning off`.
const STOPPING: &[&str] = &["stop", "cancel", "quit", "abort", "avoid", "prevent", "skip", "forget"];

/// Words that make what is asked wait on something or for later, wherever they stand (a first `when`
/// asks instead).
const CONDITIONS: &[&[&str]] = &[
    &["if"],
    &["unless"],
    &["whenever"],
    &["when"],
    &["once"],
    &["in", "case"],
    &["as", "soon", "as"],
    &["later"],
    &["after"],
    &["before"],
    &["until"],
    &["till"],
    &["til"],
    &["every", "night"],
    &["every", "day"],
    &["every", "morning"],
    &["every", "evening"],
    &["every", "hour"],
    &["every", "week"],
    &["each", "night"],
    &["each", "day"],
    &["each", "morning"],
    &["daily"],
    &["nightly"],
    &["weekly"],
    &["sometime"],
    &["someday"],
    &["eventually"],
    &["maybe"],
    &["perhaps"],
    &["might"],
];

/// Words that report, imagine or mention rather than ask, wherever they stand.
const MENTIONING: &[&str] = &[
    "said", "says", "say", "told", "tells", "asked", "asks", "imagine", "suppose", "supposing", "pretend",
    "hypothetically", "wonder", "wondering", "guess", "wish", "example", "poem", "spell", "sing", "already",
    "yesterday", "earlier", "ago", "thanks", "thank",
];

/// Polite closings that leave the request as it was: `…, will you?`, `…, if you can`, `… asap`.
const TAILS: &[&[&str]] = &[
    &["will", "you"],
    &["would", "you"],
    &["could", "you"],
    &["can", "you"],
    &["won't", "you"],
    &["ok"],
    &["okay"],
    &["yeah"],
    &["alright"],
    &["please"],
    &["if", "you", "can"],
    &["if", "you", "could"],
    &["if", "you", "don't", "mind"],
    &["if", "possible"],
    &["when", "you", "can"],
    &["when", "possible"],
    &["when", "you", "get", "a", "chance"],
    &["as", "soon", "as", "possible"],
    &["as", "soon", "as", "you", "can"],
    &["asap"],
    &["right", "away"],
    &["at", "once"],
    &["now"],
    &["thanks"],
    &["thank", "you"],
];

/// Words said before the request itself, passed over.
const OPENERS: &[&str] = &[
    "hey", "hi", "hello", "ok", "okay", "so", "um", "uh", "oh", "well", "yo", "now", "just", "also", "quickly",
    "kindly", "pls", "plz", "please", "evoke", "and", "then",
];

/// Openings that make a request of what follows.
const ASKING: &[&[&str]] = &[
    &["can", "you"],
    &["could", "you"],
    &["would", "you"],
    &["will", "you"],
    &["won't", "you"],
    &["can", "u"],
    &["could", "u"],
    &["can", "i", "get"],
    &["could", "i", "get"],
    &["can", "i", "have"],
    &["may", "i", "have"],
    &["can", "we", "get"],
    &["can", "we", "have"],
    &["let's"],
    &["lets"],
    &["i", "want"],
    &["i", "wanna"],
    &["we", "want"],
    &["i'd", "like"],
    &["we'd", "like"],
    &["i", "would", "like"],
    &["we", "would", "like"],
    &["i'd", "love"],
    &["i", "would", "love"],
    &["i", "need"],
    &["we", "need"],
    &["any", "chance", "you", "could"],
    &["is", "it", "possible", "to"],
    &["would", "it", "be", "possible", "to"],
    &["go", "ahead", "and"],
];

const QUESTION_WORDS: &[&str] = &[
    "what", "what's", "whats", "why", "how", "how's", "who", "who's", "whom", "where", "where's", "which", "whose",
    "when", "when's", "whether",
];

/// Auxiliaries that open a question whatever follows: `is the den lit`, `are lights on`.
const BE: &[&str] = &["is", "isn't", "are", "aren't", "was", "wasn't", "were", "weren't", "am", "been"];

/// Auxiliaries that open a question when a subject follows: `did I`, `have the lights`; `do the dishes`
/// is read as a question too, which only means it asks.
const AUXILIARIES: &[&str] = &[
    "do", "does", "doesn't", "did", "didn't", "have", "has", "hasn't", "haven't", "had", "should", "shall", "will",
    "won't", "would", "can", "can't", "could", "may", "might", "must",
];

/// Words that stand as a subject or open one.
const SUBJECTS: &[&str] = &[
    "i", "we", "they", "he", "she", "it", "there", "you", "u", "that", "this", "these", "those", "the", "my", "our",
    "your", "his", "her", "their", "its", "a", "an", "anyone", "someone", "somebody", "nobody", "noone",
    "everyone", "everybody", "people", "something", "anything", "everything", "it's", "there's", "that's", "i'm",
    "we're", "they're", "he's", "she's", "i've", "we've", "i'll", "i'd", "mom", "dad", "good", "great", "nice",
];

/// Words in `-ed` that are no past tense.
const NOT_PAST: &[&str] = &[
    "bread", "breed", "creed", "embed", "exceed", "greed", "hundred", "indeed", "proceed", "sacred", "shred",
    "speed", "steed", "succeed", "tweed", "wicked",
];

/// The sentence's mood, from its words and its marks. A form it does not know as a request is still read
/// as one only when nothing in it says otherwise; every rule errs toward asking.
pub fn mood(text: &str) -> Mood {
    let text: String = text.nfkc().filter(|c| !is_format(*c)).collect();
    if mixes_alphabets(&text) {
        return Mood::Unclear;
    }
    let mut words = words(&text);
    let has = |words: &[String], phrases: &[&[&str]]| phrases.iter().any(|p| find(words, p));
    if taken_back(&words) || text.trim_end().ends_with("/s") {
        return Mood::TakenBack;
    }
    if has(&words, NEGATIONS)
        || words.windows(2).any(|w| STOPPING.contains(&w[0].as_str()) && w[1].len() > 4 && w[1].ends_with("ing"))
    {
        return Mood::Negated;
    }
    // A polite closing says nothing of the mood: `turn off the den lights, will you?` is a request.
    let mut question_mark = text.contains('?');
    while let Some(tail) = TAILS.iter().find(|t| words.len() > t.len() && words.ends_with_phrase(t)) {
        words.truncate(words.len() - tail.len());
        question_mark = false;
    }
    let mut at = 0;
    while at < words.len() && OPENERS.contains(&words[at].as_str()) {
        at += 1;
    }
    let words = &words[at..];
    // A first `when` asks; a later one, or any other condition word, sets a condition.
    if has(&words[words.len().min(1)..], CONDITIONS) || CONDITIONS.iter().any(|c| c != &["when"] && starts(words, c)) {
        return Mood::Conditional;
    }
    if words.iter().any(|w| MENTIONING.contains(&w.as_str())) {
        return Mood::Remark;
    }
    if ASKING.iter().any(|a| starts(words, a)) {
        return Mood::Request;
    }
    let first = words.first().map(String::as_str).unwrap_or("");
    let second = words.get(1).map(String::as_str).unwrap_or("");
    if words.iter().any(|w| QUESTION_WORDS.contains(&w.as_str()))
        || BE.contains(&first)
        || (AUXILIARIES.contains(&first) && SUBJECTS.contains(&second))
        || question_mark
    {
        return Mood::Question;
    }
    // `lights are off`, `Mom turned off the lights`, `turning off the lights`: a noun and a form of `be`,
    // a past tense or a gerund near the start.
    let past = |w: &String| w.chars().count() > 4 && w.ends_with("ed") && !NOT_PAST.contains(&w.as_str());
    if SUBJECTS.contains(&first)
        || (first.chars().count() >= 6 && first.ends_with("ing") && first != "string")
        || words.iter().skip(1).take(2).any(|w| BE.contains(&w.as_str()))
        || words.iter().take(3).any(past)
    {
        // `it's dark, turn on the lights`, `I'm out of milk so add it to my list`: a remark that gives the
        // reason, then a request in a clause of its own. Nothing above found a report, a condition, a
        // question or a taking back anywhere in the sentence.
        return if last_clause_asks(&text) { Mood::Request } else { Mood::Remark };
    }
    Mood::Request
}

/// Verbs that open a request when a clause starts with them; a verb not listed leaves a remark a remark.
const IMPERATIVES: &[&str] = &[
    "turn", "switch", "set", "put", "add", "order", "remind", "send", "call", "text", "book", "cancel", "open",
    "close", "lock", "unlock", "start", "dim", "kill", "shut", "change", "make", "create", "schedule", "pay",
    "transfer", "move", "delete", "remove", "report", "rent", "reset", "sync", "pause", "resume", "raise", "lower",
    "increase", "decrease", "mute", "unmute", "play", "bring", "update", "get", "give", "freeze", "block",
    "clear", "activate", "enable", "disable", "buy", "share", "brighten", "replace", "water", "feed", "heat",
    "cool", "warm", "boost", "stop", "skip",
];

/// Whether the sentence ends in a clause of its own (after a comma, a semicolon or `so`) that opens as a
/// request: with an imperative verb and something for it to act on, or with `can you …`, `I'd like …`.
fn last_clause_asks(text: &str) -> bool {
    let marked = text.rfind([',', ';']).map(|at| &text[at + 1..]);
    let clause = words(marked.unwrap_or(text));
    let clause = match clause.iter().rposition(|w| w == "so") {
        Some(at) => &clause[at + 1..],
        None if marked.is_some() => &clause[..],
        None => return false,
    };
    let mut at = 0;
    while at < clause.len() && OPENERS.contains(&clause[at].as_str()) {
        at += 1;
    }
    let clause = &clause[at..];
    let first = clause.first().map(String::as_str).unwrap_or("");
    (IMPERATIVES.contains(&first) && clause.len() >= 2) || ASKING.iter().any(|a| clause.len() > a.len() && starts(clause, a))
}

/// Whether the words are all openers (`hey`, `ok`, `evoke`, `please`, `go ahead and`): a greeting before a
/// comma opens the request after it and is no part of its own.
pub fn opens_only(text: &str) -> bool {
    let words = words(&text.nfkc().filter(|c| !is_format(*c)).collect::<String>());
    !words.is_empty() && words.iter().all(|w| OPENERS.contains(&w.as_str()) || matches!(w.as_str(), "go" | "ahead"))
}

/// The mood a part of a woven sentence is decided under: its own, unless the whole sentence takes back
/// what it asked, is unclear, or is a remark (`turn off the den lights, not yet` leaves `not yet` out of
/// the plan, and must not leave the rest to run; nor may `my wife said, turn off the lights` run its
/// second part, whose words alone ask).
pub fn within(part: Mood, sentence: Mood) -> Mood {
    match (part, sentence) {
        (Mood::Request, Mood::TakenBack | Mood::Unclear | Mood::Remark) => sentence,
        _ => part,
    }
}

/// Whether a sentence holds letters of the Latin alphabet and of Greek or Cyrillic, whose look-alike
/// letters could disguise a word (`іf` with a Cyrillic `і`).
fn mixes_alphabets(text: &str) -> bool {
    let latin = text.chars().any(|c| c.is_ascii_alphabetic());
    let other = text.chars().any(|c| matches!(c, '\u{0370}'..='\u{03FF}' | '\u{0400}'..='\u{052F}'));
    latin && other
}

trait EndsWithPhrase {
    fn ends_with_phrase(&self, phrase: &[&str]) -> bool;
}

impl EndsWithPhrase for Vec<String> {
    fn ends_with_phrase(&self, phrase: &[&str]) -> bool {
        phrase.len() <= self.len() && starts(&self[self.len() - phrase.len()..], phrase)
    }
}

/// Lower-cased words, an apostrophe inside a word joining it (every apostrophe-like mark read as `'`).
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let c = if matches!(c, '’' | '‘' | 'ʼ' | '´' | '`' | 'ʹ' | '′') { '\'' } else { c };
        if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
        } else if c == '\'' && !word.is_empty() && chars.peek().is_some_and(|n| n.is_alphabetic()) {
            word.push('\'');
        } else if !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

fn starts(words: &[String], phrase: &[&str]) -> bool {
    phrase.len() <= words.len() && phrase.iter().zip(words).all(|(p, w)| p == w)
}

fn find(words: &[String], phrase: &[&str]) -> bool {
    (0..words.len()).any(|i| starts(&words[i..], phrase))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_requests() {
        for said in [
            "kill the lights in the den",
            "switch off the bedroom light",
            "set a timer for 10 minutes",
            "lights off in the den",
            "turn on the kitchen lights",
            "Turn on the kitchen lights.",
            "can you turn off the den lights",
            "could you please dim the office?",
            "please turn the den lights off",
            "I want the den lights off",
            "I'd like to set a timer for 5 minutes",
            "I need a timer for 5 minutes",
            "hey, turn on the kitchen lights",
            "ok now turn the office lights on",
            "can I get a timer for 10 minutes?",
            "let's turn on the kitchen lights",
            "convert 10 miles to km",
            "10 minute timer",
            "turn off the den lights, will you?",
            "turn off the den lights, ok?",
            "turn off the den lights if you can",
            "turn off the den lights when you get a chance",
            "turn off the den lights as soon as possible",
            "turn off the den lights now, thanks",
            "all lights off in the den",
            "is it possible to turn off the den lights",
            "we want the kitchen lights on",
            "add bread to my shopping list",
            "bring me the remote",
        ] {
            assert_eq!(mood(said), Mood::Request, "{said}");
        }
    }

    #[test]
    fn questions_remarks_conditions_and_retractions_are_not_requests() {
        let cases = [
            ("are the kitchen lights on", Mood::Question),
            ("did I turn off the den lights", Mood::Question),
            ("Did you turn off the den lights?", Mood::Question),
            ("is kitchen light on", Mood::Question),
            ("how do I turn off the den lights", Mood::Question),
            ("what's the den light set to", Mood::Question),
            ("when is my timer done", Mood::Question),
            ("turn on the kitchen lights?", Mood::Question),
            ("the den lights are off", Mood::Remark),
            ("the kitchen lights", Mood::Remark),
            // A request in a statement's form is misread, and asks first: the reading errs that way.
            ("the den lights off please", Mood::Remark),
            ("I turned on the kitchen lights", Mood::Remark),
            ("the kitchen lights are on", Mood::Remark),
            ("den lights are off", Mood::Remark),
            ("it's dark in the den", Mood::Remark),
            ("turn on the kitchen lights if it gets dark", Mood::Conditional),
            ("turn off the den lights when I leave", Mood::Conditional),
            ("unless it's late, dim the den", Mood::Conditional),
            ("turn on the kitchen lights as soon as I'm home", Mood::Conditional),
            ("turn on the kitchen lights? no wait", Mood::TakenBack),
            ("turn on the kitchen lights, just kidding", Mood::TakenBack),
            ("turn on the kitchen lights… never mind", Mood::TakenBack),
            ("set a timer, scratch that", Mood::TakenBack),
            ("don't turn on the kitchen lights", Mood::Negated),
            ("please do not dim the den", Mood::Negated),
            ("Don’t turn off the den lights", Mood::Negated),
            // Said after the request, or in words the first reading missed.
            ("no, don't turn off the den lights", Mood::TakenBack),
            ("turn off the den lights, but don't", Mood::Negated),
            ("turn off the den lights, actually no", Mood::TakenBack),
            ("turn off the den lights, nope", Mood::TakenBack),
            ("turn off the den lights. I was joking", Mood::TakenBack),
            ("turn off the den lights /s", Mood::TakenBack),
            ("turn off the den lights - NOT", Mood::Negated),
            ("turn off the den lights, not yet", Mood::TakenBack),
            ("stop turning off the den lights", Mood::Negated),
            ("turn off the lights except in the den", Mood::Negated),
            ("turn off the lights everywhere but the den", Mood::Negated),
            ("turn the den lights off, I mean on", Mood::TakenBack),
            ("turn the den lights not off", Mood::Negated),
            ("no need to turn off the den lights", Mood::TakenBack),
            ("did you turn off the den lights, please?", Mood::Question),
            ("why are the den lights off please", Mood::Question),
            ("the den lights are off, please", Mood::Remark),
            ("my wife said please turn off the den lights", Mood::Remark),
            ("Mom turned off the den lights", Mood::Remark),
            ("Nobody turned off the den lights", Mood::Remark),
            ("Turned off the den lights", Mood::Remark),
            ("Den lights off already", Mood::Remark),
            ("thanks for turning off the den lights", Mood::Remark),
            ("turning off the den lights", Mood::Remark),
            ("imagine the den lights off", Mood::Remark),
            ("I wish the den lights were off", Mood::Remark),
            ("turn off the den lights later", Mood::Conditional),
            ("turn off the den lights until morning", Mood::Conditional),
            ("turn off the den lights every night", Mood::Conditional),
            ("maybe turn off the den lights", Mood::Conditional),
            ("turn off the den lights once the movie ends", Mood::Conditional),
            ("turn off the den lights?\u{200B}", Mood::Question),
            ("turn off the den lights？", Mood::Question),
            ("turn off the den lights? 🙂", Mood::Question),
            ("d\u{200B}on't turn off the den lights", Mood::Negated),
            ("ｄｏｎ'ｔ turn off the den lights", Mood::Negated),
            ("don‘t turn off the den lights", Mood::Negated),
            ("turn on the kitchen lights і\u{66} it gets dark", Mood::Unclear),
        ];
        for (said, want) in cases {
            assert_eq!(mood(said), want, "{said}");
        }
    }

    #[test]
    fn greetings_open_a_request_and_are_no_part() {
        for said in ["hey evoke", "OK", "so, um", "please", "go ahead and"] {
            assert!(opens_only(said), "{said}");
        }
        for said in ["", "hey, turn on the lights", "it's dark", "evoke the lights"] {
            assert!(!opens_only(said), "{said}");
        }
    }

    #[test]
    fn a_remark_then_a_request_in_a_clause_of_its_own_is_a_request() {
        for said in [
            "it's dark, turn on the lights",
            "I'm out of apples, add that to my list",
            "i ran out of bread, order more",
            "my card is lost, i would like to report it",
            "i'm out of kleenex so will you put that on my shopping list",
            "the den is too bright; dim the lights",
            "cancel that reservation for 8 at barney's",
            "undo my reservation for 5 at the loft",
        ] {
            assert_eq!(mood(said), Mood::Request, "{said}");
        }
        // The rule reads only a clause of its own that opens as a request, and only when nothing else in
        // the sentence says otherwise.
        for (said, read) in [
            ("my wife said, turn off the lights", Mood::Remark),
            ("I told him, turn off the lights", Mood::Remark),
            ("the lights are off, the kids did it", Mood::Remark),
            ("the lights are off, as usual", Mood::Remark),
            ("the den lights are off, will you", Mood::Remark),
            ("the den lights are off, turn", Mood::Remark),
            ("it's dark, turn on the lights if you want", Mood::Conditional),
            ("it's dark, so why not turn on the lights", Mood::Negated),
            // A question mark anywhere still asks, whatever clause it closes.
            ("it's dark, can you turn on the lights?", Mood::Question),
            ("it's dark, turn on the lights, just kidding", Mood::TakenBack),
            ("it's dark so the lights are on", Mood::Remark),
            ("cancel that", Mood::TakenBack),
            ("turn on the lights, no, undo", Mood::TakenBack),
            ("turn off the den lights, cancel that", Mood::TakenBack),
        ] {
            assert_eq!(mood(said), read, "{said}");
        }
    }

    #[test]
    fn a_part_said_within_a_remark_is_a_remark() {
        assert_eq!(within(mood("turn off the lights"), mood("my wife said, turn off the lights")), Mood::Remark);
        assert_eq!(within(mood("turn on the lights"), mood("it's dark, turn on the lights")), Mood::Request);
    }

    #[test]
    fn words_join_apostrophes_and_drop_marks() {
        assert_eq!(words("Don’t  turn it's, OFF?"), ["don't", "turn", "it's", "off"]);
        assert_eq!(words("'quoted' 10pm"), ["quoted", "10pm"]);
        assert!(words("").is_empty());
    }
}
