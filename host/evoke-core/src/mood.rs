//! Whether a sentence asks for something to be done now.
//!
//! An engine answers which reflex a sentence is about; it does not say whether the sentence asks for it.
//! `are the kitchen lights on`, `the den lights are off`, `did I turn off the den lights`, `turn on the
//! kitchen lights if it gets dark` and `turn on the kitchen lights, just kidding` are all about the lights,
//! and a sure engine would switch them. So a write runs only on a request; anything else waits for a
//! person (`because: not_a_request`), whatever the engine's confidence. The reading is by the sentence's
//! form alone and errs toward asking: a request it misreads confirms, it never runs.

use serde::Serialize;

/// What a sentence does, read from its form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mood {
    /// An imperative, a polite request (`can you`, `please`), or a want (`I'd like`, `I need`).
    Request,
    /// A question about the world: `are the lights on`, `did I`, `how do I`, or a sentence ending in `?`.
    Question,
    /// A statement: `the den lights are off`, `I turned on the lights`, or a bare `the kitchen lights`.
    Remark,
    /// A request on a condition: `if`, `unless`, `when`, `whenever`, `as soon as`, `in case`.
    Conditional,
    /// A request taken back: `just kidding`, `no wait`, `never mind`, `scratch that`.
    TakenBack,
    /// A request not to: `don't`, `do not`, `never`, `not`.
    Negated,
}

impl Mood {
    /// How the confirm prompt names it.
    pub fn reads_as(self) -> &'static str {
        match self {
            Mood::Request => "a request",
            Mood::Question => "a question",
            Mood::Remark => "a remark",
            Mood::Conditional => "a request on a condition",
            Mood::TakenBack => "a request taken back",
            Mood::Negated => "a request not to",
        }
    }
}

/// Phrases that take back what came before, wherever they stand.
const TAKEN_BACK: &[&[&str]] = &[
    &["just", "kidding"],
    &["just", "joking"],
    &["jk"],
    &["no", "wait"],
    &["wait", "no"],
    &["never", "mind"],
    &["nevermind"],
    &["scratch", "that"],
    &["forget", "it"],
    &["forget", "that"],
    &["cancel", "that"],
    &["ignore", "that"],
    &["don't", "do", "that"],
];

/// Words that make what follows wait on something, wherever they stand (a first `when` asks instead).
const CONDITIONS: &[&[&str]] = &[&["if"], &["unless"], &["whenever"], &["when"], &["as", "soon", "as"], &["in", "case"]];

/// Words said before the request itself, passed over.
const OPENERS: &[&str] = &[
    "hey", "hi", "hello", "ok", "okay", "so", "um", "uh", "oh", "well", "yo", "now", "just", "also", "quickly",
    "kindly", "pls", "plz", "please", "evoke", "and", "then", "go", "ahead",
];

/// Openers that make a request of what follows.
const ASKING: &[&[&str]] = &[
    &["can", "you"],
    &["could", "you"],
    &["would", "you"],
    &["will", "you"],
    &["won't", "you"],
    &["can", "u"],
    &["could", "u"],
    &["can", "i"],
    &["could", "i"],
    &["may", "i"],
    &["can", "we"],
    &["could", "we"],
    &["shall", "we"],
    &["let's"],
    &["lets"],
    &["let", "me"],
    &["let", "us"],
    &["i", "want"],
    &["i", "wanna"],
    &["i'd", "like"],
    &["i", "would", "like"],
    &["i'd", "love"],
    &["i", "would", "love"],
    &["i", "need"],
    &["we", "need"],
    &["i", "wish"],
    &["i'd", "want"],
    &["help", "me"],
];

const QUESTION_WORDS: &[&str] = &[
    "what", "what's", "whats", "why", "how", "how's", "who", "who's", "whom", "where", "where's", "which", "whose",
    "when", "when's",
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
    "your", "his", "her", "their", "its", "a", "an", "any", "all", "anyone", "someone", "something", "anything",
    "everything", "it's", "there's", "that's", "i'm", "we're", "they're", "he's", "she's", "i've", "we've", "i'll",
];

/// Words a negated request opens with.
const NEGATIONS: &[&[&str]] = &[&["don't"], &["dont"], &["do", "not"], &["never"], &["not"]];

/// The sentence's mood, from its words and its last mark.
pub fn mood(text: &str) -> Mood {
    let words = words(text);
    let has = |phrases: &[&[&str]], from: usize| phrases.iter().any(|p| find(&words[from.min(words.len())..], p));
    if has(TAKEN_BACK, 0) {
        return Mood::TakenBack;
    }
    let mut at = 0;
    while at < words.len() && OPENERS.contains(&words[at].as_str()) {
        at += 1;
    }
    if NEGATIONS.iter().any(|n| starts(&words[at..], n)) {
        return Mood::Negated;
    }
    // A first `when` asks; a later one, or any other condition word, sets a condition.
    let opens_on_condition = CONDITIONS.iter().any(|c| c != &["when"] && starts(&words[at..], c));
    if opens_on_condition || has(CONDITIONS, at + 1) {
        return Mood::Conditional;
    }
    let asking = ASKING.iter().any(|a| starts(&words[at..], a));
    if asking || words.iter().any(|w| w == "please" || w == "pls" || w == "plz") {
        return Mood::Request;
    }
    let first = words.get(at).map(String::as_str).unwrap_or("");
    let second = words.get(at + 1).map(String::as_str).unwrap_or("");
    if QUESTION_WORDS.contains(&first)
        || BE.contains(&first)
        || (AUXILIARIES.contains(&first) && SUBJECTS.contains(&second))
        || text.trim_end().ends_with('?')
    {
        return Mood::Question;
    }
    // `lights are off`, `den lights are off`: a noun and then a form of `be`.
    if SUBJECTS.contains(&first) || words.iter().skip(at + 1).take(2).any(|w| BE.contains(&w.as_str())) {
        return Mood::Remark;
    }
    Mood::Request
}

/// Lower-cased words, an apostrophe inside a word joining it (`’` read as `'`), `it's` kept whole.
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let c = if c == '’' { '\'' } else { c };
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
            "the den lights off please",
            "I want the den lights off",
            "I'd like to set a timer for 5 minutes",
            "I need a timer for 5 minutes",
            "hey, turn on the kitchen lights",
            "ok now turn the office lights on",
            "can I get a timer for 10 minutes?",
            "let's turn on the kitchen lights",
            "convert 10 miles to km",
            "10 minute timer",
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
        ];
        for (said, want) in cases {
            assert_eq!(mood(said), want, "{said}");
        }
    }

    #[test]
    fn words_join_apostrophes_and_drop_marks() {
        assert_eq!(words("Don’t  turn it's, OFF?"), ["don't", "turn", "it's", "off"]);
        assert_eq!(words("'quoted' 10pm"), ["quoted", "10pm"]);
        assert!(words("").is_empty());
    }
}
