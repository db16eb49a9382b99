//! Whether a sentence asks for something to be done now.
//!
//! An engine answers which reflex a sentence is about; it does not say whether the sentence asks for it.
//! `are the kitchen lights on`, `the den lights are off`, `did I turn off the den lights`, `turn on the
//! kitchen lights if it gets dark` and `turn on the kitchen lights, just kidding` are all about the lights,
//! and a sure engine would switch them. So a write runs only on a request; anything else waits for a
//! person (`because: not_a_request`), whatever the engine's confidence. The reading is by the sentence's
//! form alone and errs toward asking: a request it misreads confirms, it never runs.

//!
//! Each rule is a file of this folder, a pure function over the sentence's words; the words each rule
//! reads are lists of `lists.toml`, one owner a list. `mood` tries them in order, and the first that
//! holds names the mood.

use serde::Serialize;

mod address;
mod asking;
mod condition;
mod form;
pub mod lists;
mod negation;
mod quotation;
mod report;
mod slips;
mod sparing;
mod spelling;
mod taken_back;
#[cfg(test)]
mod tests;
mod unclear;

pub use asking::{idiom_on, opens_only};
pub use sparing::spared_ranges;

use spelling::spelled;

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
    /// Letters of two alphabets in one sentence, as a word disguised with look-alike letters would be, or a
    /// number written in digits other than 0–9 (`８０`, `٨٠`, `⅓`), which the recognizers do not read.
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
            Mood::Unclear => "unclear: it mixes alphabets, or writes a number in digits evoke does not read",
        }
    }
}

/// The sentence's mood, from its words and its marks. A form it does not know as a request is still read
/// as one only when nothing in it says otherwise; every rule errs toward asking.
pub fn mood(text: &str) -> Mood {
    if unclear::foreign_digits(text) {
        return Mood::Unclear;
    }
    read(text, false, true)
}

/// The clauses of a text the mood reads as asides that give a reason (`…, you always forget`), as
/// character ranges: the hedges and habits in them are placed, as no condition.
pub fn aside_ranges(text: &str) -> Vec<(usize, usize)> {
    condition::aside_ranges(text)
}

/// Whether a text only phrases a request (`can you please`, `could you tell me`): every word is one a
/// request is said in, by the lists of openers, asking phrases and polite closings, and, `before` the
/// request, courtesies (after it, `…, then tell me` asks to be told).
pub fn courtesy(text: &str, before: bool) -> bool {
    asking::only_phrasing(&spelled(&unclear::folded(text)), before)
}

/// Whether a text is polite closings alone (`thanks`, `if you can`): after a request, nothing else only
/// phrases it.
pub fn closing(text: &str) -> bool {
    asking::only_closing(&spelled(&unclear::folded(text)))
}

/// Whether a text states something by its form (`this was fun`, `the den is dark`, `mom turned off the
/// lights`): a remark whose words, past its openers and polite closings, are a statement, not one said to
/// someone else or a message to send (`email them about lunch` asks for the email).
pub fn states(text: &str) -> bool {
    let mut words = spelled(&unclear::folded(text));
    asking::strip_tails(&mut words);
    let at = asking::opening(&words);
    let words = &words[at..];
    // The mood reads `volume's 30` as a bare thing, a request; a word with `be` run into it states.
    let mood = mood(text);
    (mood == Mood::Remark || (mood == Mood::Request && form::opens_contracted(words))) && form::statement(words)
}

/// Whether a text asks to be told something (`tell me what number it is`, `and let me know when it rings`):
/// past its joining words and openers it opens with a phrase of the courtesies.
pub fn asks_to_be_told(text: &str) -> bool {
    asking::asks_to_be_told(&spelled(&unclear::folded(text)))
}

/// Whether a text only asks to be told, nothing after its courtesy (`and let me know`, `then tell me`).
pub fn only_asks_to_be_told(text: &str) -> bool {
    let words = spelled(&unclear::folded(text));
    asking::told_len(&words) == Some(words.len())
}

/// Whether a text, past its openers, opens with a question of the tags (`don't you think the office
/// too`): it asks what the person thinks, and says no `don't`.
pub fn opens_with_tag(text: &str) -> bool {
    form::opens_tagged(&words_past_openers(text))
}

/// Whether a text is a question tagged on at a sentence's end alone (`do you think`, `and don't you
/// think`): it asks what the person thinks of what came before, and is no part of its own.
pub fn tag_question(text: &str) -> bool {
    form::only_tag(&spelled(&unclear::folded(text)))
}

/// Whether a text is a greeting and one name (`hey siri`, `ok google`): before a comma it calls who the
/// sentence is said to, and is no part of its own.
pub fn greets_by_name(text: &str) -> bool {
    address::greets_by_name(&spelled(&unclear::folded(text)))
}

/// The words of a text as the mood reads them, past the words said before a request (`please`, `ok`,
/// `hey evoke`): lower-cased, apostrophes kept, and one typed as a space put back (`don t` → `don't`).
pub fn words_past_openers(text: &str) -> Vec<String> {
    let words = spelled(&unclear::folded(text));
    let at = asking::opening(&words);
    words[at..].to_vec()
}

/// Whether the sentence's first negation is one of forgetting (`don't forget to …`): it asks for what
/// follows, not for nothing.
pub fn reminds(text: &str) -> bool {
    negation::reminds(&spelled(&unclear::folded(text)))
}

/// Whether a text tells of the speaker's own doing rather than asks for anything: a remark whose subject
/// is the speaker (`i'm heading out`, `we'll be back at 5`, `i am on main street now`). A want (`i need`,
/// `i'd like`) is a request and a question asks, so neither is one. A woven sentence sets such a part
/// aside beside its request (003's aside `by` `own`).
pub fn own_doing(text: &str) -> bool {
    if mood(text) != Mood::Remark {
        return false;
    }
    let words = spelled(&unclear::folded(text));
    report::of_the_speaker(&words[asking::opening(&words)..])
}

/// The mood a part of a woven sentence is decided under: its own, unless the whole sentence is not a
/// request. `turn off the den lights, not yet` leaves `not yet` out of the plan, and must not leave the
/// rest to run; nor may `my wife texted, turn off the lights`, `turn on the kitchen lights, then are the
/// den lights off?` or `turn on the kitchen lights, then turn off the den if it gets dark` run a part whose
/// words alone ask. Only a negation stays with its part (`turn off the den but not the office lights`:
/// the `not` is left out of the plan, or rules a value out), and `after` and `before`, which order the
/// parts, are not read as conditions of the whole.
pub fn within(part: &str, sentence: &str) -> Mood {
    let own = mood(part);
    let whole = read(sentence, true, true);
    match (own, whole) {
        (Mood::Request, Mood::Request | Mood::Negated) => own,
        (Mood::Request, _) => whole,
        _ => own,
    }
}

/// The mood, with the words that order woven parts (`after`, `before`) set as no condition where
/// `ordered`, and a scene set before a comma read only where `scenes` says so: the scene and the closing
/// clause are read once each, without it, so the reading stays linear in the commas a sentence holds.
fn read(text: &str, ordered: bool, scenes: bool) -> Mood {
    // A letter left once marks are passed over that is none of the alphabet the mood reads (`ø`, a small
    // capital `ᴅ`), beside letters that are, or a pictograph (`😂`, `☑`), could hide a word it must read.
    let text = unclear::folded(text);
    if unclear::mixes_alphabets(&text) {
        return Mood::Unclear;
    }
    if text.chars().any(unclear::pictograph) {
        let without: String = text.chars().map(|c| if unclear::pictograph(c) { ' ' } else { c }).collect();
        return match read(&without, ordered, scenes) {
            Mood::Request => Mood::Unclear,
            other => other,
        };
    }
    let mut words = spelled(&text);
    if taken_back::holds(&text, &words) {
        return Mood::TakenBack;
    }
    // Both read on every word, before the polite closing is passed over.
    let spared = sparing::by_a_later_word(&text, &words);
    let for_now = condition::for_now(&words);
    // `don't forget to …` asks for what follows, at a time it does not say: it waits for a person.
    if negation::reminds(&words) {
        return Mood::Conditional;
    }
    if negation::holds(&words) || sparing::at_once(&text, &words) {
        return Mood::Negated;
    }
    // A question mark before a polite closing asks nothing: `turn off the den lights, will you?`.
    let closed = asking::strip_tails(&mut words);
    let question_mark = text.contains(['?', '‽', '¿', '؟', '⸮']) && !closed;
    let at = asking::opening(&words);
    let words = &words[at..];
    // `let me know if the den blinds are closed`: asked to be told whether something is so, a question,
    // whatever condition or act its words name.
    if asking::told_whether(&text, words) {
        return Mood::Question;
    }
    if condition::holds(&text, words, at, ordered) || for_now {
        return Mood::Conditional;
    }
    if spared {
        return Mood::Negated;
    }
    if quotation::holds(&text, words) || address::holds(&text, words) || report::holds(&text, words) {
        return Mood::Remark;
    }
    // `make sure nobody turns off the den lights` asks that no one do what it names; `nobody turned off
    // the den lights`, opening with its subject, is read as a remark by its form.
    let request = if negation::by_nobody(words) { Mood::Negated } else { Mood::Request };
    if asking::asks(words) || (scenes && closes_a_scene(&text, ordered)) {
        return request;
    }
    form::read(words, question_mark).unwrap_or(request)
}

/// `we're about to eat, turn on the kitchen lights`: what comes before the last comma sets the scene, and
/// the request is the clause that closes the sentence, read on its own words. The whole sentence has
/// been read first for every word that holds it: a condition, a negation, a report, a name called.
fn closes_a_scene(text: &str, ordered: bool) -> bool {
    let Some((scene, last)) = text.rsplit_once(',') else { return false };
    let set = spelled(scene);
    !set.is_empty()
        && spelled(last).len() >= 2
        && read(scene, ordered, false) != Mood::Request
        // `anyone still up, turn off …`, `whoever is in the kitchen, …`: said to someone else.
        && !set.first().is_some_and(|w| {
            address::is_called(w) || matches!(w.as_str(), "anyone" | "anybody" | "whoever" | "someone" | "somebody" | "who")
        })
        && read(last, ordered, false) == Mood::Request
}
