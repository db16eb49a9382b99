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
use unicode_normalization::char::is_combining_mark;

pub mod lists;

use lists::*;

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

/// Whether a word is laughter: `haha`, `hahah`, `ahaha`, `hehe` (two `ha` or `he` at least), `lolol`,
/// `lmaoo`, `jaja`.
fn laughter(word: &str) -> bool {
    let runs = |w: &str, pairs: &[&[u8]], tail: u8| {
        let w = w.as_bytes();
        let body = if w.len() % 2 == 1 && w.last() == Some(&tail) { &w[..w.len() - 1] } else { w };
        body.len() >= 4 && body.len() % 2 == 0 && body.chunks(2).all(|c| pairs.contains(&c))
    };
    let w = word.strip_prefix('a').filter(|rest| rest.starts_with('h')).unwrap_or(word);
    runs(w, &[b"ha", b"he"], b'h')
        || runs(word, &[b"ja", b"je"], b'j')
        || (word.len() >= 5 && runs(&word[..word.len() - 1], &[b"lo"], b'l') && word.ends_with('l'))
        || (word.starts_with("lmao") || word.starts_with("lmfao"))
            && word.trim_start_matches("lmf").trim_start_matches("lm").chars().all(|c| c == 'a' || c == 'o')
}

/// Where a sentence read as [`Mood::Negated`] speaks of what is not to be done or is spared: from each word
/// or phrase of `NEGATIONS` (or of `SPARING` after a word of `EVERY`) to the end of its clause (a comma,
/// semicolon, period, `!` or `?`, or the end), as character ranges, end exclusive. A value said only
/// there is what the person spared, never what the call should be made with: `turn off every light
/// except the den` names the den to keep it on.
pub fn spared_ranges(text: &str) -> Vec<(usize, usize)> {
    let words = crate::words::words(text);
    // `words` joins a word's apostrophe away (`don't` → `dont`); the lists are matched the same way.
    let bare = |w: &str| w.replace('\'', "");
    let chars: Vec<char> = text.chars().collect();
    let clause_end = |from: usize| {
        (from..chars.len()).find(|&i| matches!(chars[i], ',' | ';' | '.' | '!' | '?')).unwrap_or(chars.len())
    };
    let every_before = |i: usize| words[..i].iter().any(|w| EVERY.contains(&w.lower.as_str()));
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for i in 0..words.len() {
        let phrase = NEGATIONS.iter().find(|phrase| {
            phrase.len() <= words.len() - i && phrase.iter().zip(&words[i..]).all(|(p, w)| bare(p) == w.lower)
        });
        let opens = phrase.is_some() || (SPARING.contains(&words[i].lower.as_str()) && every_before(i));
        if !opens {
            continue;
        }
        let start = words[i].start;
        let end = clause_end(words[i].end);
        match ranges.last_mut() {
            Some(last) if last.1 >= start => last.1 = last.1.max(end),
            _ => ranges.push((start, end)),
        }
    }
    ranges
}

/// Whether the words open with a verb of writing and then a command's verb, a particle (`print out`) or
/// the words themselves (`print the words`) between them, after a polite opening (`can you print …`).
fn quotes_a_command(words: &[String]) -> bool {
    let asked = ASKING.iter().find(|a| starts(words, a)).map_or(0, |a| a.len());
    let rest = &words[asked..];
    if !rest.first().is_some_and(|w| QUOTING.contains(&w.as_str())) {
        return false;
    }
    let mut at = 1;
    while rest.get(at).is_some_and(|w| {
        matches!(w.as_str(), "out" | "in" | "back" | "then" | "this" | "these") || QUOTING.contains(&w.as_str())
    }) {
        at += 1;
    }
    if rest.get(at).is_some_and(|w| w == "the") && rest.get(at + 1).is_some_and(|w| w == "words") {
        at += 2;
    }
    // `translate to french turn off …`, `print in bold turn off …`: a language or a manner first.
    if rest.get(at).is_some_and(|w| matches!(w.as_str(), "to" | "into" | "in"))
        && rest.get(at + 1).is_some_and(|w| !COMMANDS.contains(&w.as_str()))
    {
        at += 2;
    }
    rest.len() > at + 1 && COMMANDS.contains(&rest[at].as_str())
}

/// The sentence's mood, from its words and its marks. A form it does not know as a request is still read
/// as one only when nothing in it says otherwise; every rule errs toward asking.
pub fn mood(text: &str) -> Mood {
    // A number in digits evoke does not read (`８０`, `٨٠`, `⅓`) could be any value: the sentence is not
    // read as asking for the one a recognizer would miss it for.
    if text.chars().any(|c| c.is_numeric() && !c.is_ascii_digit()) {
        return Mood::Unclear;
    }
    read(text, &[])
}

/// The mood, with the condition words in `not_conditions` not counted as conditions.
fn read(text: &str, not_conditions: &[&[&str]]) -> Mood {
    read_scene(text, not_conditions, true)
}

/// The mood, reading a scene set before a comma only where `scenes` says so: the scene and the closing
/// clause are read once each, without it, so the reading stays linear in the commas a sentence holds.
fn read_scene(text: &str, not_conditions: &[&[&str]], scenes: bool) -> Mood {
    // Marks over letters are passed over (`dón't` is `don't`); a letter left that is none of the
    // alphabet the mood reads (`ø`, a small capital `ᴅ`), beside letters that are, or a pictograph (`😂`,
    // `☑`), could hide a word the mood must read.
    let text: String =
        text.nfkc().filter(|c| !is_format(*c)).collect::<String>().nfd().filter(|c| !is_combining_mark(*c)).collect();
    if mixes_alphabets(&text) {
        return Mood::Unclear;
    }
    if text.chars().any(pictograph) {
        let without: String = text.chars().map(|c| if pictograph(c) { ' ' } else { c }).collect();
        return match read_scene(&without, not_conditions, scenes) {
            Mood::Request => Mood::Unclear,
            other => other,
        };
    }
    let mut words = words(&text);
    let has = |words: &[String], phrases: &[&[&str]]| phrases.iter().any(|p| find(words, p));
    // `…, cancel`, `…, cancel it`, `…, abort that`: a closing clause that opens with a word of stopping.
    let closing_taken_back = (words.len() > 1
        && words.last().is_some_and(|w| CLOSING_TAKEN_BACK.contains(&w.as_str())))
        || text.rsplit_once(',').is_some_and(|(head, last)| {
            !self::words(head).is_empty()
                && self::words(last).first().is_some_and(|w| CLOSING_TAKEN_BACK.contains(&w.as_str()))
        });
    if has(&words, &TAKEN_BACK)
        || closing_taken_back
        || text.trim_end().ends_with("/s")
        || words.iter().any(|w| laughter(w))
    {
        return Mood::TakenBack;
    }
    let gerund = |w: &String| w.len() > 4 && w.ends_with("ing");
    // `all lights off but den`: a `but` one or two words from the end names what is spared; `turn off
    // all the lights, leave the den`: a later clause that leaves or keeps something spares it.
    let spared_at_end =
        words.iter().rposition(|w| w == "but").is_some_and(|at| (1..=2).contains(&(words.len() - at - 1)));
    let spared_after_comma = text
        .split(',')
        .skip(1)
        .any(|clause| self::words(clause).first().is_some_and(|w| matches!(w.as_str(), "leave" | "keep" | "spare")));
    // Read after the conditions, so that a sentence on a condition stays one: `every time I leave, turn
    // off the den lights` waits on the leaving, and none of its parts runs.
    let spared = spared_by_a_later_word(&text, &words);
    // Read before the closing `now` is passed over as a tail: `turn on the den lights just for now`.
    let for_now = find(&words, &["for", "now"]);
    if has(&words, &NEGATIONS)
        || words.iter().any(|w| w.len() > 3 && w.ends_with("n't") && w != "won't")
        || refuses(&words)
        || fuzzily_has(&words, &FUZZY_NEGATIONS)
        || spared_at_end
        || spared_after_comma
        || words.windows(2).any(|w| STOPPING.contains(&w[0].as_str()) && gerund(&w[1]))
        || words.windows(3).any(|w| STOPPING.contains(&w[0].as_str()) && w[1] == "about" && gerund(&w[2]))
    {
        return Mood::Negated;
    }
    // A polite closing says nothing of the mood: `turn off the den lights, will you?` is a request.
    let mut question_mark = text.contains(['?', '‽', '¿', '؟', '⸮']);
    while let Some(tail) = TAILS.iter().find(|t| words.len() > t.len() && words.ends_with_phrase(t)) {
        words.truncate(words.len() - tail.len());
        question_mark = false;
    }
    let mut at = 0;
    while at < words.len() && OPENERS.contains(&words[at].as_str()) {
        at += 1;
    }
    // `thank you, …` opens a request as `thanks, …` does.
    if starts(&words[at..], &["thank", "you"]) && words.len() > at + 2 {
        at += 2;
    }
    let words = &words[at..];
    // A first `when` asks; a later one, or any other condition word, sets a condition. An aside after a
    // comma that tells of someone (`…, you always forget`, `…, it's probably bedtime`) gives a reason,
    // and its words set no condition on the request.
    // `before I forget` says why now, and sets no time.
    let now_before_forgetting = find(words, &["before", "i", "forget"]);
    let conditions: Vec<&[&str]> = CONDITIONS
        .iter()
        .copied()
        .filter(|c| !(not_conditions.contains(c) || now_before_forgetting && c == &["before"]))
        .collect();
    let mut unaside = self::words(&without_asides(&text));
    while let Some(tail) = TAILS.iter().find(|t| unaside.len() > t.len() && unaside.ends_with_phrase(t)) {
        unaside.truncate(unaside.len() - tail.len());
    }
    let unaside = &unaside[unaside.len().min(at)..];
    if has(&unaside[unaside.len().min(1)..], &conditions)
        || conditions.iter().any(|c| c != &["when"] && starts(unaside, c))
        || fuzzily_has(unaside, &FUZZY_CONDITIONS)
        || unaside.windows(2).any(|w| {
            matches!(w[0].as_str(), "every" | "each" | "evry" | "eveyr") && EVERY_WHAT.contains(&w[1].as_str())
        })
        || puts_off(words)
        || for_now
    {
        return Mood::Conditional;
    }
    if spared {
        return Mood::Negated;
    }
    if labelled(&text)
        || addressed(&text)
        || said_to_someone(words, &text)
        // `reminder turn off …`, `steps to turn off …`: a label before a command (`note "dune"` asks).
        || (0..words.len().min(2)).any(|i| {
            LABELS.contains(&words[i].as_str())
                && words.get(i + 1).is_some_and(|w| w == "to" || COMMANDS.contains(&w.as_str()))
        })
        || text.trim_start().starts_with(['[', '@', '#'])
        // `let the kids turn off …`: leave to someone else (`let me` is the speaker's, `let's` asks).
        || (words.first().is_some_and(|w| matches!(w.as_str(), "let" | "allow" | "permit"))
            && words.get(1).is_some_and(|w| !matches!(w.as_str(), "me" | "us"))
            && words.iter().skip(2).any(|w| COMMANDS.contains(&w.as_str())))
        || reported_at_the_end(&text)
        // `text mum I switched the bedroom lights off`, `email Tom to turn off …`: a message to send.
        || (words.len() > 2
            && MESSAGING.contains(&words[0].as_str())
            && !matches!(words[1].as_str(), "me" | "us"))
        || words.iter().any(|w| MENTIONING.contains(&w.as_str()))
        || has(words, &MENTIONING_PHRASES)
        || quotes_a_command(words)
        // `John please turn off the den lights`: a name before `please` and a command, said to someone.
        || (words.len() >= 3
            && words[1] == "please"
            && !COMMANDS.contains(&words[0].as_str())
            && COMMANDS.contains(&words[2].as_str()))
        || (words.first().is_some_and(|w| HABITUAL.contains(&w.as_str()) || HEARSAY.contains(&w.as_str()))
            && words.get(1).is_some_and(|w| SUBJECTS.contains(&w.as_str())))
        || OWN_STATE.iter().any(|o| starts(words, o))
        // `john put the den lights on`, `bob left the kitchen lights on`: someone's act, told.
        || (words.len() >= 3
            && matches!(words[1].as_str(), "put" | "left")
            && matches!(words[2].as_str(), "the" | "my" | "our" | "his" | "her" | "their" | "all"))
        || (words.first().is_some_and(|w| OTHER_ACTS.contains(&w.as_str()))
            && words.iter().skip(1).any(|w| w == "to" || gerund(w)))
    {
        return Mood::Remark;
    }
    // `make sure nobody turns off the den lights` asks that no one do what it names; `nobody turned off
    // the den lights`, opening with its subject, is read as a remark below.
    let nobody = words.iter().any(|w| matches!(w.as_str(), "nobody" | "noone"));
    let request = if nobody { Mood::Negated } else { Mood::Request };
    if ASKING.iter().any(|a| starts(words, a)) {
        return request;
    }
    // `we're about to eat, turn on the kitchen lights`: what comes before a comma sets the scene, and the
    // request is the clause that closes the sentence, read on its own words (the whole sentence has been
    // read for every word that holds it: a condition, a negation, a report, a name called).
    if scenes
        && let Some((scene, last)) = text.rsplit_once(',')
        && !self::words(scene).is_empty()
        && self::words(last).len() >= 2
        && read_scene(scene, not_conditions, false) != Mood::Request
        // `anyone still up, turn off …`, `whoever is in the kitchen, …`: said to someone else.
        && !self::words(scene).first().is_some_and(|w| {
            CALLED.contains(&w.as_str())
                || matches!(w.as_str(), "anyone" | "anybody" | "whoever" | "someone" | "somebody" | "who")
        })
        && read_scene(last, not_conditions, false) == Mood::Request
    {
        return request;
    }
    // A verb after a subject (`den lights have been turned off`, `kitchen lights switching on`); an
    // infinitive alone (`to turn off the den lights`); the speaker's own act (`let me turn off …`).
    if words.iter().skip(1).take(3).any(|w| AFTER_A_SUBJECT.contains(&w.as_str()))
        || (1..words.len().min(3)).any(|i| {
            // After a determiner, a word in -ing names a thing: `turn the living room lights off`.
            words[i].chars().count() > 5 && words[i].ends_with("ing") && !DETERMINERS.contains(&words[i - 1].as_str())
        })
        || words.first().is_some_and(|w| w == "to")
        || starts(words, &["let", "me"])
    {
        return Mood::Remark;
    }
    let first = words.first().map(String::as_str).unwrap_or("");
    let second = words.get(1).map(String::as_str).unwrap_or("");
    if words.iter().any(|w| QUESTION_WORDS.contains(&w.as_str()))
        || BE.contains(&first)
        || (AUXILIARIES.contains(&first) && SUBJECTS.contains(&second))
        // `does turn off the den lights work`: a command asked about.
        || (matches!(first, "does" | "did" | "do") && COMMANDS.contains(&second))
        // `can den lights be turned off`: a passive asked about, not a request of someone.
        || (AUXILIARIES.contains(&first)
            && words.windows(2).any(|w| w[0] == "be" && w[1].chars().count() > 4 && w[1].ends_with("ed")))
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
        // `lights in the den were turned off`: a form of `be` before a past participle, wherever it stands.
        || words.windows(2).any(|w| BE.contains(&w[0].as_str()) && past(&w[1]))
    {
        return Mood::Remark;
    }
    request
}

/// Whether a word later in the sentence spares something from what it asks: `turn off all lights bar the
/// den`, `turn off the lights but skip the den`, `…, skipping the den`, `…, the den excepted`, or keeps it
/// from happening: `keep the den lights from turning off`.
fn spared_by_a_later_word(text: &str, words: &[String]) -> bool {
    let determiner =
        |w: Option<&String>| w.is_some_and(|w| matches!(w.as_str(), "the" | "my" | "our" | "this" | "that"));
    // What is spared follows a determiner, or a place's `in` or `at` and one: `… but in the den`.
    let named_after = |i: usize| {
        determiner(words.get(i + 1))
            || (words.get(i + 1).is_some_and(|w| w == "in" || w == "at") && determiner(words.get(i + 2)))
    };
    let after_all_or_but = words.iter().enumerate().any(|(i, w)| {
        SPARING.contains(&w.as_str())
            && named_after(i)
            && (words[..i].iter().any(|e| EVERY.contains(&e.as_str())) || (i > 0 && words[i - 1] == "but"))
    });
    let after_a_comma = text.split(',').skip(1).any(|clause| {
        let clause = self::words(clause);
        (clause.first().is_some_and(|w| SPARING.contains(&w.as_str()) && w != "but") && determiner(clause.get(1)))
            || clause.last().is_some_and(|w| matches!(w.as_str(), "aside" | "excepted" | "excluded" | "stay" | "stays"))
    });
    let gerund = |w: &String| w.len() > 4 && w.ends_with("ing");
    let kept_from = words.windows(2).enumerate().any(|(i, pair)| {
        pair[0] == "from" && gerund(&pair[1]) && words[..i].iter().any(|w| KEEPING_FROM.contains(&w.as_str()))
    });
    // `prevent the den lights turning off`, `guard the den lights against going off`: the `from` left out.
    let prevented = words
        .iter()
        .enumerate()
        .any(|(i, w)| PREVENTING.contains(&w.as_str()) && words[i + 1..].iter().skip(1).any(&gerund));
    // `turn off the den lights bar the lamp`: what follows a thing named, and is spared from it.
    let after_a_thing = words.iter().enumerate().any(|(i, w)| {
        i > 0
            && matches!(w.as_str(), "save" | "bar" | "sans" | "leaving" | "omitting" | "sparing")
            && words[i - 1].len() > 3
            && words[i - 1].ends_with('s')
            && determiner(words.get(i + 1))
    });
    after_all_or_but || after_a_comma || kept_from || prevented || after_a_thing
}

/// Whether a `won't` (or `wont`) says what is not to be done: only `won't you` (`won't you lock the
/// door`, `…, won't you?`) asks politely. A `won't` with no `you` after it, first or later, refuses:
/// `won't lock the front door` and `lock the front door now then won't close the garage gate` must
/// not run what follows it.
fn refuses(words: &[String]) -> bool {
    words.iter().enumerate().any(|(at, w)| {
        matches!(w.as_str(), "won't" | "wont")
            && !words.get(at + 1).is_some_and(|next| matches!(next.as_str(), "you" | "u" | "ya" | "y'all"))
    })
}

/// Whether a word of `words` is one of `targets`, or one slip from it: a letter left out, added, changed
/// or two swapped.
/// A word of four letters is read against a target of five or more (`aftr`, `evry`); a shorter word is
/// too often another word.
fn fuzzily_has(words: &[String], targets: &[&str]) -> bool {
    words.iter().any(|w| {
        let n = w.chars().count();
        n >= 4
            && !NOT_SLIPS.contains(&w.as_str())
            && targets.iter().any(|t| (n >= 5 || t.chars().count() >= 5) && (w == t || one_slip(w, t)))
    })
}

/// Whether `a` is `b` with one letter left out, added, changed, or two neighbours swapped.
fn one_slip(a: &str, b: &str) -> bool {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let (short, long) = if a.len() <= b.len() { (&a, &b) } else { (&b, &a) };
    match long.len() - short.len() {
        0 => {
            let differ: Vec<usize> = (0..short.len()).filter(|&i| short[i] != long[i]).collect();
            match differ.as_slice() {
                [_] => true,
                [i, j] => *j == i + 1 && short[*i] == long[*j] && short[*j] == long[*i],
                _ => false,
            }
        }
        1 => {
            let first = (0..short.len()).find(|&i| short[i] != long[i]).unwrap_or(short.len());
            short[first..] == long[first + 1..]
        }
        _ => false,
    }
}

/// The text without the asides after a comma that tell of someone or something (`…, you always forget`,
/// `…, it's probably bedtime`, `…, i'm going to bed`): a clause opening with a subject and its verb.
fn without_asides(text: &str) -> String {
    let mut clauses = text.split(',');
    let mut out = clauses.next().unwrap_or_default().to_string();
    for clause in clauses {
        let w = words(clause);
        let first = w.first().map(String::as_str).unwrap_or("");
        // An aside hides a hedge or a habit (`…, you always forget`), never a time or an event (`…, we
        // want that every evening`).
        let timed = CONDITIONS.iter().any(|c| !(c.len() == 1 && HEDGES.contains(&c[0])) && find(&w, c));
        let tells = ASIDE_SUBJECTS.contains(&first) && w.len() >= 2 && !timed;
        if !tells {
            out.push(',');
            out.push_str(clause);
        }
    }
    out
}

/// Whether a label or a speaker stands before a colon (`todo: …`, `Mary: …`, `ignore this: …`): what
/// follows is quoted, noted or said to someone else. A colon between digits is a time (`7:30`).
fn labelled(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    chars.iter().enumerate().any(|(i, c)| {
        let time = i > 0 && chars[i - 1].is_ascii_digit() && chars.get(i + 1).is_some_and(|n| n.is_ascii_digit());
        // `:)`, `:-)`, `:D`: a face, closing the sentence.
        let face = chars.get(i + 1).is_some_and(|n| matches!(n, ')' | '(' | 'D' | 'P' | 'p' | '-' | '3' | '/'))
            && chars[i + 2..].iter().all(|n| !n.is_alphabetic() || matches!(n, 'D' | 'P' | 'p'));
        *c == ':' && !time && !face
    })
}

/// Whether the sentence opens by calling someone: a word of `CALLED`, a greeting and a name set apart
/// by a comma (`hey bob, …`; `hey evoke, …` is this program's), or a name before `can you` and the like
/// (`bob can you …`).
fn said_to_someone(words: &[String], text: &str) -> bool {
    let first = words.first().map(String::as_str).unwrap_or("");
    let greeting_and_name = text.split_once(',').is_some_and(|(head, _)| {
        let w = self::words(head);
        w.len() == 2 && matches!(w[0].as_str(), "hey" | "hi" | "hello" | "yo" | "oi" | "ok" | "okay") && w[1] != "evoke"
    });
    let name_then_asking = words.len() > 3
        && !OPENERS.contains(&first)
        && first != "evoke"
        && ASKING.iter().any(|a| a.len() >= 2 && starts(&words[1..], a) && matches!(a[1], "you" | "u"));
    let second = words.get(1).map(String::as_str).unwrap_or("");
    // `bob turn off the den lights`: a word no request opens with, then a command's verb.
    let named = words.len() > 3
        && COMMANDS.contains(&second)
        && matches!(
            words[2].as_str(),
            "the" | "my" | "our" | "all" | "off" | "on" | "up" | "down" | "out" | "it" | "a"
        )
        && !COMMANDS.contains(&first)
        && !OPENERS.contains(&first)
        && !first.ends_with("ly")
        && !NOT_NAMES.contains(&first)
        && !AUXILIARIES.contains(&first)
        && !BE.contains(&first)
        && !QUESTION_WORDS.contains(&first)
        && first.chars().all(|c| c.is_alphabetic())
        && !matches!(first, "evoke" | "and" | "then" | "or" | "but" | "to" | "lights" | "light");
    let called = named
        || CALLED.contains(&first)
            && (COMMANDS.contains(&second) || second == "please" || ASKING.iter().any(|a| starts(&words[1..], a)));
    called || greeting_and_name || name_then_asking
}

/// Whether the sentence closes by telling who said it: a clause after a comma of a subject and a verb
/// of saying or a past tense (`…, she insisted`, `…, mom said`).
fn reported_at_the_end(text: &str) -> bool {
    let Some((_, last)) = text.rsplit_once(',') else { return false };
    let w = words(last);
    w.len() == 2
        && (SUBJECTS.contains(&w[0].as_str()) || CALLED.contains(&w[0].as_str()))
        && (w[1].ends_with("ed") || matches!(w[1].as_str(), "said" | "says" | "told" | "wrote" | "insists"))
}

/// Whether the sentence is said to someone by name: one word, not a greeting or a polite closing, set
/// apart by a comma at its start or its end (`Bob, turn off the den lights`, `…, John`).
fn addressed(text: &str) -> bool {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() < 2 {
        return false;
    }
    let alone = |part: &str| {
        let w = words(part);
        w.len() == 1
            && !OPENERS.contains(&w[0].as_str())
            && !NOT_NAMES.contains(&w[0].as_str())
            && !TAILS.iter().any(|t| t.len() == 1 && t[0] == w[0])
    };
    alone(parts[0]) || parts.last().is_some_and(|last| alone(last))
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

/// Whether `word`, after `before`, is the `on` of `come on`, `hold on`, `go on`: it names no setting.
pub fn idiom_on(before: &str, word: &str) -> bool {
    word == "on" && COME_ON.contains(&before)
}

/// Whether the words are all openers (`hey`, `ok`, `evoke`, `please`, `go ahead and`): a greeting before a
/// comma opens the request after it and is no part of its own.
pub fn opens_only(text: &str) -> bool {
    let words = words(&text.nfkc().filter(|c| !is_format(*c)).collect::<String>());
    // `come on` opens a request too, and its `on` says nothing of a light.
    let come_on = |i: usize| {
        words.get(i + 1).is_some_and(|next| idiom_on(&words[i], next)) || (i > 0 && idiom_on(&words[i - 1], &words[i]))
    };
    !words.is_empty()
        && (0..words.len())
            .all(|i| OPENERS.contains(&words[i].as_str()) || matches!(words[i].as_str(), "go" | "ahead") || come_on(i))
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
    let whole = read(sentence, &ORDERING);
    match (own, whole) {
        (Mood::Request, Mood::Request | Mood::Negated) => own,
        (Mood::Request, _) => whole,
        _ => own,
    }
}

/// Whether a sentence holds letters of the Latin alphabet and of Greek or Cyrillic, whose look-alike
/// letters could disguise a word (`іf` with a Cyrillic `і`).
fn mixes_alphabets(text: &str) -> bool {
    let latin = text.chars().any(|c| c.is_ascii_alphabetic());
    let other = text.chars().any(|c| c.is_alphabetic() && !c.is_ascii());
    latin && other
}

/// Whether a character is a pictograph or a symbol drawn as one: emoji, dingbats, check boxes.
fn pictograph(c: char) -> bool {
    matches!(c, '\u{2190}'..='\u{21FF}' | '\u{2300}'..='\u{23FF}' | '\u{2600}'..='\u{27BF}' | '\u{2B00}'..='\u{2BFF}' | '\u{1F000}'..='\u{1FAFF}')
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
        let c = if matches!(c, '’' | '‘' | 'ʼ' | '´' | '`' | 'ʹ' | '′' | '‛' | 'ˈ' | '"' | '“' | '”') {
            '\''
        } else {
            c
        };
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
    // `don t`, `can t`: an apostrophe typed as a space.
    let mut joined: Vec<String> = Vec::with_capacity(out.len());
    for w in out.into_iter().map(|w| negation_spelled(&w).unwrap_or(w)) {
        match joined.last_mut() {
            Some(last) if w == "t" && last.len() >= 2 && last.ends_with('n') => last.push_str("'t"),
            _ => joined.push(w),
        }
    }
    joined
}

/// A negating contraction however its apostrophe fell, as the lists spell it: the apostrophe misplaced
/// (`did'nt`, `wo'nt`, `should'nt`), doubled (`won'nt`), or a clitic after it (`won't've`, `don't's`,
/// `won'tve`) read as the contraction it holds (`won't`, `didn't`). Only a word holding an apostrophe is
/// read so; a possessive (`grant's`) is not a contraction.
fn negation_spelled(word: &str) -> Option<String> {
    let apostrophes = word.matches('\'').count();
    if apostrophes == 0 || (apostrophes == 1 && word.ends_with("'s") && !word.ends_with("n't's")) {
        return None;
    }
    let letters: String = word.chars().filter(|c| *c != '\'').collect();
    // A clitic after the contraction: `'ve`, `'s`, `'d`, `'ll`, or `ve` run into it.
    let stem = ["ve", "ll", "s", "d"]
        .iter()
        .find_map(|c| letters.strip_suffix(c).filter(|s| s.ends_with("nt")))
        .unwrap_or(&letters);
    let base = stem.strip_suffix("nt")?;
    // `won'nt`: the `n` said twice.
    let base = if base.len() > 2 && base.ends_with('n') { &base[..base.len() - 1] } else { base };
    if base.len() < 2 || !base.chars().all(|c| c.is_alphabetic()) {
        return None;
    }
    let spelled = format!("{base}n't");
    (spelled != word).then_some(spelled)
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
    fn a_negation_is_read_however_its_apostrophe_fell_or_whatever_clitic_follows_it() {
        for text in [
            "won't've lock the front door",
            "wont've lock the front door",
            "won't's lock the front door",
            "won'tve lock the front door",
            "won'nt lock the front door",
            "wo'nt lock the front door",
            "don't've turn off the den lamp",
            "shouldn't've turn off the den lamp",
            "did'nt turn off the den lamp",
            "should'nt turn off the den lamp",
            "turn off the office lamp and won't've turn off the den lamp",
        ] {
            assert_eq!(mood(text), Mood::Negated, "{text}");
        }
        // A possessive is no contraction; `won't you` still asks.
        assert_eq!(mood("turn on grant's lamp"), Mood::Request);
        assert_eq!(mood("won't you turn off the den lamp"), Mood::Request);
        assert_eq!(negation_spelled("won't"), None, "already as the lists spell it");
        assert_eq!(negation_spelled("did'nt").as_deref(), Some("didn't"));
        assert_eq!(negation_spelled("won'nt").as_deref(), Some("won't"));
    }

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
    fn statements_labels_and_requests_to_someone_else_the_third_review_found() {
        for said in [
            "den lights have been turned off",
            "kitchen lights went off",
            "kitchen lights came on",
            "den lights will be turned off",
            "den lights could be off",
            "kitchen lights keep switching off",
            "den lights got turned off",
            "hardly anyone wants the den lights on",
            "in a dream I turn off the den lights",
            "I need to remember to turn off the den lights",
            "todo: turn off the den lights",
            "ignore this: turn off the den lights",
            "Mary: turn off the den lights",
            "Bob, turn off the den lights",
            "kids, turn off the den lights",
            "turn off the den lights, John",
            "theoretically turn off the den lights",
            "jokingly, turn off the den lights",
            "turn off the den lights at some point",
            "turn off the den lights while I'm away",
            "from now on, turn off the den lights",
            "TODO turn off the den lights",
            "in theory, turn off the den lights",
            "den lights being turned off",
            "den lights need to be off",
            "kitchen lights switching on",
            "kitchen lights on was a mistake",
            "to turn off the den lights",
            "let me turn off the den lights",
            "print turn off the kitchen lights",
            "type set a timer for 10 minutes",
            "please echo turn on the den lights",
            "print out turn off the kitchen lights",
            "can you print turn off the kitchen lights",
            "show turn off the kitchen lights",
            "print the words turn off the kitchen lights",
            "translate to french turn off the kitchen lights",
            "note turn off the kitchen lights",
            "typically I turn off the kitchen lights",
            "type in turn off the kitchen lights",
            "John please turn off the kitchen lights",
            "kids please turn off the den lights",
        ] {
            assert_ne!(mood(said), Mood::Request, "{said}");
        }
        // A time's colon, a greeting or a closing set apart by a comma still ask.
        for said in [
            "set an alarm for 7:30",
            "hey, turn on the kitchen lights",
            "turn off the den lights, please",
            "turn off the den lights, ok",
            "ok, turn off the den lights",
            "please keep the lights on",
            "can you keep the den lights on",
            "print the report",
            "type my password",
            "repeat the last song",
            "please turn off the den lights",
            "ok please turn off the den lights",
            "hey evoke please turn off the den lights",
        ] {
            assert_eq!(mood(said), Mood::Request, "{said}");
        }
    }

    #[test]
    fn greetings_open_a_request_and_are_no_part() {
        for said in
            ["hey evoke", "OK", "so, um", "please", "go ahead and", "come on", "oh come on", "hold on", "aw go on"]
        {
            assert!(opens_only(said), "{said}");
        }
        for said in ["", "hey, turn on the lights", "it's dark", "evoke the lights", "on", "come", "lights on"] {
            assert!(!opens_only(said), "{said}");
        }
    }

    #[test]
    fn a_part_is_held_by_a_whole_that_asks_for_nothing_now() {
        let part = |p: &str, s: &str| within(p, s);
        assert_eq!(part("turn off the den lights", "my wife texted, turn off the den lights"), Mood::Remark);
        // A scene set before the request leaves it a request; a report of it does not.
        assert_eq!(part("turn off the den lights", "it's late, turn off the den lights"), Mood::Request);
        assert_eq!(part("turn off the den lights", "mom said, turn off the den lights"), Mood::Remark);
        assert_eq!(
            part("turn on the kitchen lights", "turn on the kitchen lights, then are the den lights off?"),
            Mood::Question
        );
        assert_eq!(
            part(
                "turn on the kitchen lights",
                "turn on the kitchen lights, then turn off the den lights if it gets dark"
            ),
            Mood::Conditional
        );
        assert_eq!(part("turn off the den lights", "in 5 minutes, turn off the den lights"), Mood::Conditional);
        assert_eq!(part("turn on the kitchen lights", "turn on the kitchen lights, not really"), Mood::TakenBack);
        // A negation stays with its part, and `after` orders the parts.
        assert_eq!(part("turn off the den lights", "turn off the den lights but not the office"), Mood::Request);
        assert_eq!(
            part("set a timer for 5 minutes", "set a timer for 5 minutes after you turn off the den lights"),
            Mood::Request
        );
        assert_eq!(
            part("turn off the den lights", "turn off the den lights and set a timer for 5 minutes"),
            Mood::Request
        );
        // A part keeps its own mood.
        assert_eq!(
            part("turn off the den lights later", "turn off the den lights later and set a timer"),
            Mood::Conditional
        );
    }

    #[test]
    fn reports_retractions_doubts_and_delays_the_review_found() {
        for (said, read) in [
            ("my wife texted, turn off the den lights", Mood::Remark),
            // A request before the comma is no scene: what follows takes it back or asks for more.
            ("turn off the den lights, cancel it", Mood::TakenBack),
            ("anyone still up, turn off the kitchen lights", Mood::Remark),
            ("whoever is in the kitchen, turn the lights off", Mood::Remark),
            ("turn on the kitchen lights, he wrote", Mood::Remark),
            ("the robot in the play shouts, turn off the den lights", Mood::Remark),
            ("e.g. turn off the den lights", Mood::Remark),
            ("testing, turn off the den lights", Mood::Remark),
            ("you shouldn't, turn off the den lights", Mood::Negated),
            ("I'd rather you didn't, turn off the den lights", Mood::Negated),
            ("turn on the kitchen lights, not really", Mood::TakenBack),
            ("turn off the den lights, cancel", Mood::TakenBack),
            ("turn off the den lights, disregard", Mood::TakenBack),
            ("turn off the den lights, oops", Mood::TakenBack),
            ("turn off the den lights, hold on", Mood::TakenBack),
            ("soon, turn off the den lights", Mood::Conditional),
            ("turn on the kitchen lights, in a bit", Mood::Conditional),
            ("turn on the kitchen lights, but only at night", Mood::Conditional),
            ("in 5 minutes, turn off the den lights", Mood::Conditional),
            ("in an hour turn off the den lights", Mood::Conditional),
        ] {
            assert_eq!(mood(said), read, "{said}");
        }
        for (said, read) in [
            ("remind me to turn off the den lights", Mood::Remark),
            ("teach the kids to turn off the den lights", Mood::Remark),
            ("practice turning off the den lights", Mood::Remark),
            ("remind me in an hour and a half", Mood::Request),
            ("forget about turning off the den lights", Mood::Negated),
            ("turn off the den lights at sunset", Mood::Conditional),
            ("turn off the den lights provided nobody is home", Mood::Conditional),
            ("turn off the den lights as long as nobody is home", Mood::Conditional),
            ("turn off the den lights in the morning", Mood::Conditional),
            ("turn off the den lights next week", Mood::Conditional),
            ("do n't turn off the den lights", Mood::Negated),
            ("do nt turn off the den lights", Mood::Negated),
            ("turn off the den lights‽", Mood::Question),
            ("¿turn off the den lights", Mood::Question),
            ("turn off the den lights ؟", Mood::Question),
            ("turn off the den lights. belay that", Mood::TakenBack),
            ("dim the den lights to ８０ percent", Mood::Unclear),
            ("dim the den lights to ٨٠ percent", Mood::Unclear),
            ("dim the den lights to ⅓", Mood::Unclear),
            // All but a room, said with other words than `except`.
            ("turn off the lights without the den", Mood::Negated),
            ("turn off all lights excluding the den", Mood::Negated),
            ("turn off all lights besides the den", Mood::Negated),
            ("turn off all the lights apart from the den", Mood::Negated),
            ("turn off all lights aside from the den", Mood::Negated),
            ("turn off the lights minus the den", Mood::Negated),
            ("all lights off but den", Mood::Negated),
            ("turn off every light but the den", Mood::Negated),
            ("turn off all the lights, leave the den", Mood::Negated),
            ("keep the den lights from turning off", Mood::Negated),
            ("turn on the den lights, change that to the kitchen", Mood::TakenBack),
            ("turn on the den lights, make that the kitchen", Mood::TakenBack),
            ("prevent the kitchen lights from turning on", Mood::Negated),
            ("stop the den lights from turning off", Mood::Negated),
            ("turn off all lights bar the den", Mood::Negated),
            ("turn off all lights save the den", Mood::Negated),
            ("turn off the lights everywhere but in the den", Mood::Negated),
            ("turn off every light with the exception of the kitchen", Mood::Negated),
            ("turn off all lights leaving out the den", Mood::Negated),
            ("turn off the lights, skipping the den", Mood::Negated),
            ("turn off all lights, skip the den", Mood::Negated),
            ("turn off the lights but skip the den", Mood::Negated),
            ("turn off the lights but leave the den alone", Mood::Negated),
            ("turn off the lights, ignore the den", Mood::Negated),
            ("turn off all the lights, the den excepted", Mood::Negated),
            ("turn off all the lights, den aside", Mood::Negated),
            ("turn off the lights that aren't in the den", Mood::Negated),
            ("turn off any light that isn't in the den", Mood::Negated),
            ("turn off every light excepting the office", Mood::Negated),
            ("turn off all lights sparing the den", Mood::Negated),
            ("every time I leave, turn off the den lights", Mood::Conditional),
            ("always turn off the den lights", Mood::Conditional),
            ("usually turn off the den lights", Mood::Conditional),
            ("in the summer turn off the den lights", Mood::Conditional),
            ("turn off the den lights at the end of the movie", Mood::Conditional),
            ("turn on the den lights for a few minutes", Mood::Conditional),
            ("turn on the den lights just for now", Mood::Conditional),
            ("probably turn off the den lights", Mood::Conditional),
            ("den lights on all night", Mood::Conditional),
            ("in the game turn off the den lights", Mood::Remark),
            ("in minecraft turn off the den lights", Mood::Remark),
            ("in your dreams turn off the den lights", Mood::Remark),
            ("turn off the den lights is a command", Mood::Remark),
            ("turn off the den lights was the plan", Mood::Remark),
            ("kept the den lights on", Mood::Remark),
            ("allow me to turn off the den lights", Mood::Remark),
            ("does turn off the den lights work", Mood::Question),
            ("can den lights be turned off", Mood::Question),
            // Feelings, hearsay, what was left or forgotten, what the speaker is about to do.
            ("hate the den lights being on", Mood::Remark),
            ("sick of the den lights on", Mood::Remark),
            ("left the den lights on", Mood::Remark),
            ("forgot to turn off the den lights", Mood::Remark),
            ("meant to turn off the den lights", Mood::Remark),
            ("gonna turn off the den lights", Mood::Remark),
            ("going to turn off the den lights", Mood::Remark),
            ("apparently the den lights are on", Mood::Remark),
            ("supposedly the den lights are off", Mood::Remark),
            ("john put the den lights on", Mood::Remark),
            ("bob left the kitchen lights on", Mood::Remark),
            ("den lights going off", Mood::Remark),
            ("lights in the den were turned off", Mood::Remark),
            ("ways to turn off the den lights", Mood::Remark),
            ("turn off the den lights last night", Mood::Remark),
            ("on weekdays turn on the kitchen lights", Mood::Conditional),
            ("turn on the den lights briefly", Mood::Conditional),
            ("turn on the den lights for a bit", Mood::Conditional),
            ("temporarily turn off the kitchen lights", Mood::Conditional),
            ("turn off the den lights for a little while", Mood::Conditional),
        ] {
            assert_eq!(mood(said), read, "{said}");
        }
        // Still requests: a cancel reflex's own word, a polite `won't you`, and a time the call takes.
        for said in [
            "cancel my timer",
            "won't you turn off the den lights",
            "set a timer for 5 minutes",
            "cancel",
            "put the den lights on",
            "leave the den lights on",
            "please put the kitchen lights on",
            "turn left at the light",
            "love songs on",
            "turn off all the lights in the den",
            "keep the den lights on",
            "skip this song",
            "turn off every light in the house",
            "save my document",
            "turn off the den lights, then turn on the kitchen",
        ] {
            assert_eq!(mood(said), Mood::Request, "{said}");
        }
    }

    #[test]
    fn hedges_slips_sparing_words_and_asides_the_fourth_review_found() {
        for (said, read) in [
            // Hedges and habits in words of their own.
            ("prolly turn off the den lights", Mood::Conditional),
            ("turn off the den lights for the time being", Mood::Conditional),
            ("turn off the den lights by default", Mood::Conditional),
            ("turn off the den lights next time", Mood::Conditional),
            ("get ready to turn off the den lights", Mood::Conditional),
            ("turn on the den lights for a couple of minutes", Mood::Conditional),
            // One letter off, still read.
            ("alwys turn off the den lights", Mood::Conditional),
            ("ususally turn off the den lights", Mood::Conditional),
            ("turn off all lights excpet the den", Mood::Negated),
            ("turn off all lights exluding the den", Mood::Negated),
            // Other words that spare.
            ("turn off all lights but for the den", Mood::Negated),
            ("turn off all lights sans the den", Mood::Negated),
            ("turn off all lights, omit the den", Mood::Negated),
            ("turn off all lights, forget the den", Mood::Negated),
            ("turn off the lights, the den stays", Mood::Negated),
            ("turn off the lights bar the den", Mood::Negated),
            ("prevent the den lights turning off", Mood::Negated),
            ("make sure nobody turns off the den lights", Mood::Negated),
        ] {
            assert_eq!(mood(said), read, "{said}");
        }
        for said in [
            // An aside that tells why sets no condition.
            "turn off the den lights, you always forget",
            // Thanks and assent open a request; a face closes one.
            "thanks, turn off the den lights",
            "thank you, now turn off the den lights",
            "yeah turn off the den lights",
            "turn off the den lights :)",
            "turn off the den lights ta",
            // An -ing word after a determiner is a thing.
            "turn the living room lights off",
            // A word one letter from a negation that is a word of its own.
            "turn off the lamp beside the den door",
        ] {
            assert_eq!(mood(said), Mood::Request, "{said}");
        }
    }

    #[test]
    fn the_fifth_review_s_times_spellings_jokes_letters_and_addressees() {
        for (said, read) in [
            // Times and habits.
            ("turn off the den lights before bed", Mood::Conditional),
            ("turn off the den lights before I leave", Mood::Conditional),
            ("turn off the den lights each evening", Mood::Conditional),
            ("turn off the den lights often", Mood::Conditional),
            ("turn on the kitchen lights every weekday", Mood::Conditional),
            ("turn off the den lights Mondays", Mood::Conditional),
            ("turn off the den lights evry night", Mood::Conditional),
            ("turn off the den lights automatically", Mood::Conditional),
            ("turn off the den lights permanently", Mood::Conditional),
            ("turn on the den lights during the movie", Mood::Conditional),
            ("turn off the den lights all evening", Mood::Conditional),
            ("turn off the den lights prior to leaving", Mood::Conditional),
            ("turn off the den lights by the time I get home", Mood::Conditional),
            ("turn off the den lights the moment I leave", Mood::Conditional),
            ("turn off the den lights untill morning", Mood::Conditional),
            ("turn off the den lights aftr dinner", Mood::Conditional),
            ("turn off the den lights unles I'm home", Mood::Conditional),
            ("turn off the den lights tomorow", Mood::Conditional),
            ("turn off the den lights latr", Mood::Conditional),
            ("turn off the den lights for good", Mood::Conditional),
            ("turn off the den lights come nightfall", Mood::Conditional),
            ("turn off the den lights the minute I leave", Mood::Conditional),
            ("ima turn off the den lights", Mood::Remark),
            ("turn off the den lights, ignore me", Mood::TakenBack),
            ("pls dont't turn off the den lights", Mood::Negated),
            ("turn on the den lights, we want that every evening", Mood::Conditional),
            // An aside that names a time may be a schedule: it waits.
            ("turn off the den lights, it's probably bedtime", Mood::Conditional),
            // Negations however spelt.
            ("don t turn off the den lights", Mood::Negated),
            ("pls don\u{201b}t turn off the den lights", Mood::Negated),
            ("don\"t turn off the den lights", Mood::Negated),
            ("don\u{201c}t turn off the den lights", Mood::Negated),
            ("shouldnt turn off the den lights", Mood::Negated),
            ("mustnt turn off the den lights", Mood::Negated),
            ("dotn turn off the den lights", Mood::Negated),
            ("nevr turn off the den lights", Mood::Negated),
            ("needn't turn off the den lights", Mood::Negated),
            ("d\u{f3}n't turn off the den lights", Mood::Negated),
            ("do n\u{f3}t turn off the den lights", Mood::Negated),
            ("turn off the den lights \u{fc}nless I'm home", Mood::Conditional),
            // Letters the mood cannot read, and pictographs.
            ("do n\u{f8}t turn off the den lights", Mood::Unclear),
            ("\u{1d05}\u{1d0f}\u{274}'\u{1d1b} turn off the den lights", Mood::Unclear),
            ("turn off the den lights \u{1f602}", Mood::Unclear),
            ("\u{2611} turn off the den lights", Mood::Unclear),
            // Jokes and taking back.
            ("turn off the den lights hahaha", Mood::TakenBack),
            ("turn off the den lights ahaha", Mood::TakenBack),
            ("turn off the den lights lmao", Mood::TakenBack),
            ("turn off the den lights (sarcasm)", Mood::TakenBack),
            ("turn off the den lights, strike that", Mood::TakenBack),
            ("turn off the den lights, changed my mind", Mood::TakenBack),
            // Said to someone else, noted, left to someone, told.
            ("hey bob, turn off the den lights", Mood::Remark),
            ("guys turn off the den lights", Mood::Remark),
            ("honey can you turn off the den lights", Mood::Remark),
            ("bob can you turn off the den lights", Mood::Remark),
            ("@bob turn off the den lights", Mood::Remark),
            ("reminder turn off the den lights", Mood::Remark),
            ("steps to turn off the den lights", Mood::Remark),
            ("[ ] turn off the den lights", Mood::Remark),
            ("let the kids turn off the den lights", Mood::Remark),
            ("lemme turn off the den lights", Mood::Remark),
            ("want me to turn off the den lights", Mood::Remark),
            ("turn off the den lights, she insisted", Mood::Remark),
            ("bob turn off the den lights", Mood::Remark),
            ("turn off the den lights hahah", Mood::TakenBack),
            ("turn off the den lights lolol", Mood::TakenBack),
            ("turn off the den lights lmaoo", Mood::TakenBack),
            ("turn off the den lights every weeknight", Mood::Conditional),
            ("turn off the den lights the instant I leave", Mood::Conditional),
            ("friendly reminder turn off the den lights", Mood::Remark),
            ("im gonna turn off the den lights", Mood::Remark),
            ("text mum I switched the bedroom lights off", Mood::Remark),
            ("email Tom to turn off the office lights", Mood::Remark),
            ("tell Sarah I set a timer for 20 minutes", Mood::Remark),
            // The scene before the comma keeps what holds it.
            ("we're leaving, turn off the den lights when we go", Mood::Conditional),
            ("my wife texted, turn off the den lights", Mood::Remark),
            // A request before the comma is no scene: what follows takes it back or asks for more.
            ("turn off the den lights, cancel it", Mood::TakenBack),
            ("anyone still up, turn off the kitchen lights", Mood::Remark),
            ("whoever is in the kitchen, turn the lights off", Mood::Remark),
        ] {
            assert_eq!(mood(said), read, "{said}");
        }
        for said in [
            "hey evoke, turn off the den lights",
            "can you turn off the den lights",
            "please can you turn off the den lights",
            "let's turn off the den lights",
            "turn off every kitchen light",
            "turn off the den lights, please proceed",
            "turn off the lights in the caf\u{e9}",
            "won't you turn off the den lights",
            "turn off the den lights, you always forget",
            "turn on the water heater",
            // A command of its own: `cancel it` asks to cancel.
            "cancel it",
            "can you cancel it",
            "turn off the den lights for Avery",
            "btw turn off the den lights",
            "we're about to eat, turn on the kitchen lights",
            "ugh, turn off the den lights",
            "water's boiling, set a timer for 8 minutes",
            "it's too bright in here, dim the den to 30 percent",
            "timer set 10 min",
            "turn off the den lights before I forget",
            "before I forget, turn off the den lights",
            "quick, turn off the den lights",
            "turn off the den lights, goodnight",
            "note \"dune\"",
            "allow notifications from the bank",
            "mom's birthday reminder",
        ] {
            assert_eq!(mood(said), Mood::Request, "{said}");
        }
    }

    #[test]
    fn a_won_t_without_you_after_it_is_a_request_not_to() {
        // An attack ran both writes: the mood passed over every `won't`, meant for `won't you …`.
        for said in [
            "won't lock the front door",
            "wont lock the front door",
            "won\u{2019}t lock the front door",
            "lock the front door now then won't close the garage gate",
            "won't close the garage gate, please",
        ] {
            assert_eq!(mood(said), Mood::Negated, "{said}");
        }
        for said in ["won't you lock the front door", "lock the front door, won't you?", "wont u lock the front door"] {
            assert_eq!(mood(said), Mood::Request, "{said}");
        }
    }

    #[test]
    fn a_sentence_of_many_commas_is_read_without_deep_recursion() {
        // A scene is read once, not again for every comma before it: 2,000 characters of `it is late, `
        // took 0.8 s in a debug build and 24,000 overflowed the stack.
        let mut said = String::new();
        while said.len() < 24_000 {
            said.push_str("it is late, ");
        }
        said.push_str("turn off the den lights");
        assert_eq!(mood(&said), Mood::Request);
    }

    #[test]
    fn words_join_apostrophes_and_drop_marks() {
        assert_eq!(words("Don’t  turn it's, OFF?"), ["don't", "turn", "it's", "off"]);
        assert_eq!(words("'quoted' 10pm"), ["quoted", "10pm"]);
        assert!(words("").is_empty());
    }
}
