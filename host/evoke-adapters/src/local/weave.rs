//! `local`'s answers to the questions evoke asks on its own account about a sentence (`weave.*`).
//!
//! A cut (`weave.cut_<start>_<end>`) separates two things when the words after the connective start a
//! request of their own: a word that says what not to do, an order word's clause, or a verb a request
//! starts with (one of the reflexes' own examples' first words, or a common command verb). Words that
//! only name another value (`the den and office lights`) are no request of their own.
//! `local` weighs this answer beside the route in its reader of a place to cut ([`super::cut`]); `embed`
//! takes it as it is.
//!
//! A part the words leave open (`weave.aside_<start>_<end>`) asks a thing of its own where any of its
//! words is a verb a request starts with (`i need you to call an ambulance`), or where it opens, past the
//! words that lead to a clause, with a question word, an auxiliary (`does my car need premium`) or any word
//! that is no small word (`feed the cat`: an order whose verb no list holds); small words alone (`what and
//! when is …`), or an opening small word (`i need quiet`, `i'd like a sedan if possible`, `then up`), tell
//! of the request, a detail. Nothing
//! past the leading words asks for nothing.
//!
//! Another value (`weave.again_<start>_<end>_<reflex>__<argument>`) is `also` where a list joins it to
//! the value read, `out` where the words rule it out, and `nothing` otherwise.

use super::words::{Word, words};
use evoke_core::question::{Question, QuestionId, Questions, Text};
use std::collections::BTreeMap;

/// How sure a clear reading is. Both sides of the route's bar, far from it.
pub(crate) const SURE: f64 = 0.9;

/// Verbs a spoken request commonly starts with, beyond the ones the reflexes' examples start with.
const VERBS: &[&str] = &[
    "add", "ask", "book", "buy", "call", "cancel", "change", "check", "clear", "close", "create", "decrease", "delete",
    "dim", "disable", "draft", "email", "enable", "find", "get", "give", "increase", "launch", "let", "list", "lock",
    "look", "lower", "make", "mail", "message", "mute", "note", "open", "order", "pause", "play", "print", "put",
    "raise", "read", "remind", "remove", "reset", "resume", "run", "save", "schedule", "search", "send", "set", "show",
    "shut", "start", "stop", "switch", "take", "tell", "text", "turn", "unlock", "unmute", "wake", "what", "whats",
    "when", "where", "who", "how", "write",
];

/// Words that join two things themselves: after a comma, the comma leaves the cut to them (`, then …`).
const JOINS: &[&str] = &["and", "then", "also", "next", "plus", "after", "afterwards", "finally"];

/// Words a question opens with: after a comma alone they go on the clause before (`in french, how do i
/// say …`).
const QUESTION_WORDS: &[&str] = &["what", "whats", "what's", "when", "where", "who", "how", "why", "which"];

/// Words that point back at a thing said before them: a stretch holding one asks about that thing.
const POINTING: &[&str] = &["it", "them", "that", "this", "those", "these", "one"];

/// Whether the words point back at something said before them (`put it in savings`, `skip it`).
pub(crate) fn points_back(text: &str) -> bool {
    words(text).iter().any(|w| POINTING.contains(&w.lower.as_str()))
}

/// Whether a word opens a question: one of the words a question opens with.
pub(crate) fn opens_a_question(word: &Word) -> bool {
    QUESTION_WORDS.contains(&word.lower.as_str())
}

/// Whether `word` (lowercased) is a verb a spoken request commonly starts with.
pub(crate) fn starts_a_request(word: &str) -> bool {
    VERBS.contains(&word)
}

/// Words that may stand between a connective and the verb it joins.
const LEAD: &[&str] = &["then", "also", "please", "and", "next", "that", "you", "i", "we", "can", "could", "just"];

/// The first words that say what not to do.
const NEGATIONS: &[&str] = &["don't", "dont", "not", "never", "without", "do"];

/// Whether the words after a place open by saying what not to do (`not the kitchen`, `do not …`): the part
/// they start is left out of the plan. A `do` alone opens no negation.
pub(crate) fn opens_with_negation(right: &str) -> bool {
    // Read as the plan reads a part it leaves out (`don t`, `please don't` included).
    if evoke_core::weave::negated(right) {
        return true;
    }
    let right = words(right);
    let Some(first) = right.first().map(|w| w.lower.as_str()) else { return false };
    NEGATIONS.contains(&first) && !(first == "do" && right.get(1).is_none_or(|w| w.lower != "not"))
}

/// A connective as this engine reads it: a sentence's end before another (`.`, `!`, `?`) parts two
/// clauses as a semicolon does.
pub(crate) fn read_as(connective: String) -> String {
    if evoke_core::weave::SENTENCE_ENDS.contains(&connective.as_str()) { ";".to_string() } else { connective }
}

/// The answer to one `weave.*` question, or `None` for one this engine does not know.
pub fn answer(request: &str, id: &QuestionId, question: &Question, round: &Questions) -> Option<BTreeMap<String, f64>> {
    match *id {
        QuestionId::Cut { start, end } => {
            let p = cut(request, start, end, round);
            Some([("yes".to_string(), p), ("no".to_string(), 1.0 - p)].into_iter().collect())
        }
        QuestionId::Again { start, end, .. } => Some(again(request, start, end, question)),
        QuestionId::Aside { start, end } => Some(aside(request, start, end)),
        _ => None,
    }
}

/// Words that, opening a part, ask a question or put a request (`does it need premium`, `can you call`).
const AUXILIARIES: &[&str] = &[
    "do", "does", "did", "is", "are", "was", "were", "can", "could", "will", "would", "should", "shall", "may",
    "might", "has", "have",
];

/// A small word, or one spelt with a small word before its apostrophe (`i'd`, `we're`): `part` is the
/// text the word was read from.
fn small_word(part: &str, word: &Word) -> bool {
    let typed: String = part.chars().skip(word.start).take(word.end - word.start).collect();
    let head = typed.split(['\'', '’']).next().unwrap_or_default();
    evoke_core::words::is_stop(word) || words(head).first().is_some_and(evoke_core::words::is_stop)
}

/// What the part at `start..end` does in the request: `aside`, `detail` or `asks`, read from its opening.
fn aside(request: &str, start: usize, end: usize) -> BTreeMap<String, f64> {
    use evoke_core::weave::count::{ASIDE, ASKS, DETAIL};
    let part: String = request.chars().skip(start).take(end.saturating_sub(start)).collect();
    let said = words(&part);
    let opening = said.iter().find(|w| !super::cut::LEAD.contains(&w.lower.as_str()) && w.lower != "but");
    // A verb a request starts with anywhere in it asks (`i need you to call an ambulance`, `i want the
    // front door locked`), whatever opens it.
    let verb = said
        .iter()
        .any(|w| !opens_a_question(w) && (VERBS.contains(&w.lower.as_str()) || VERBS.contains(&w.stem.as_str())));
    let read = match opening {
        None => ASIDE,
        _ if verb => ASKS,
        // Small words alone say too little to ask a thing of their own (`what and when is …`, `…, why`).
        _ if said.iter().all(|w| small_word(&part, w) || opens_a_question(w)) => DETAIL,
        Some(w) if opens_a_question(w) || AUXILIARIES.contains(&w.lower.as_str()) => ASKS,
        Some(w) if small_word(&part, w) => DETAIL,
        Some(_) => ASKS,
    };
    let rest = (1.0 - SURE) / 2.0;
    [ASIDE, DETAIL, ASKS].into_iter().map(|k| (k.to_string(), if k == read { SURE } else { rest })).collect()
}

/// How likely the connective at `start..end` separates two requests.
fn cut(request: &str, start: usize, end: usize, round: &Questions) -> f64 {
    let chars: Vec<char> = request.chars().collect();
    if start > end || end > chars.len() {
        return 1.0 - SURE;
    }
    let connective = read_as(chars[start..end].iter().collect::<String>().to_lowercase());
    let left = words(&chars[..start].iter().collect::<String>());
    let right_text: String = chars[end..].iter().collect();
    // The clause right after the place: up to the next comma or semicolon.
    let clause: String = right_text.split([',', ';']).next().unwrap_or_default().to_string();
    let right: Vec<Word> = words(&right_text);
    if left.len() < 2 || right.len() < 2 {
        return 1.0 - SURE;
    }
    let raw_first = right[0].lower.as_str();
    if opens_with_negation(&right_text) {
        return SURE;
    }
    let starts = example_starts(round);
    // A comma alone joins the clauses of one request as often as it parts two (`help me, i can't find my
    // phone`, `in french, how do i say …`): it parts them only where the words after it open with a verb
    // a request starts with, at once: not a question word, nor a word that only leads to one (`i`, `can`),
    // however many examples open with it.
    // A question word opens a request of its own after a clause of three words or more that the words
    // after it do not point back at (`do i need a visa for peru, what shots should i get`). So does a word
    // an example opens with that is no command verb (`does`, `is`): words that point back at the clause
    // before ask about it (`should i go to okinawa, does it require a visa`).
    if connective == "," && !JOINS.contains(&raw_first) {
        let opens = right.iter().map(|w| w.lower.as_str()).find(|w| *w != "please").unwrap_or(raw_first);
        let asks_again = QUESTION_WORDS.contains(&opens) && left.len() >= 3 && !points_back(&clause);
        let example_opens = starts.iter().any(|s| s == opens) && !points_back(&clause);
        let starts_one =
            (VERBS.contains(&opens) || example_opens) && !QUESTION_WORDS.contains(&opens) && !LEAD.contains(&opens);
        return if starts_one || asks_again { SURE } else { 1.0 - SURE };
    }
    let first = right.iter().map(|w| w.lower.as_str()).find(|w| !LEAD.contains(w)).unwrap_or(raw_first);
    if NEGATIONS.contains(&first) && first != "do" {
        return SURE;
    }
    if VERBS.contains(&first) || starts.iter().any(|s| s == first) {
        return SURE;
    }
    // A clause after an order word or a semicolon is a request of its own even when its verb is unknown.
    if matches!(connective.as_str(), "then" | "after that" | "next" | ";") && right.len() >= 3 {
        return SURE;
    }
    1.0 - SURE
}

/// Whether a word opens a command here: a common command verb, or a word that is no small word and that
/// an example or description the round's route offers opens with. A question word opens none.
pub(crate) fn opens_a_command(word: &Word, round: &Questions) -> bool {
    let w = word.lower.as_str();
    !QUESTION_WORDS.contains(&w)
        && (VERBS.contains(&w) || (!evoke_core::words::is_stop(word) && example_starts(round).iter().any(|s| s == w)))
}

/// The first word of each example and description the route offers: how requests here start.
fn example_starts(round: &Questions) -> Vec<String> {
    let Some(Question::Choice { options, .. }) = round.route() else { return Vec::new() };
    let mut starts = Vec::new();
    for (_, text) in &options.0 {
        if let Text::Rich { what, examples, .. } = text {
            for said in examples.iter().chain(std::iter::once(what)) {
                if let Some(w) = words(said).first() {
                    starts.push(w.lower.clone());
                }
            }
        }
    }
    starts
}

/// Words that stand between a list's connective and its next value: `the den lights and the kitchen lights`.
const DETERMINERS: &[&str] = &["the", "my", "our", "a", "an", "this", "that"];

/// What the words just before `start` say of the value there, skipping determiners: a list word joins it
/// (`also`), a negation rules it out (`out`), `instead` replaces; `None` where they say none of these.
fn joined_before(chars: &[char], start: usize) -> Option<&'static str> {
    let before: String = chars[..start].iter().collect::<String>().to_lowercase();
    let before = words(&before);
    let last: Vec<&str> =
        before.iter().rev().map(|w| w.lower.as_str()).skip_while(|w| DETERMINERS.contains(w)).take(2).collect();
    let comma = chars[..start].iter().rev().find(|c| !c.is_whitespace()) == Some(&',');
    match last.as_slice() {
        ["not", ..] | ["except", ..] | ["but", ..] | [_, "except"] => Some("out"),
        // `the den or the office`: a choice between the two, which is neither both nor the other alone.
        ["or", ..] => Some("nothing"),
        ["and", ..] | ["also", ..] | ["plus", ..] => Some("also"),
        ["of", "instead"] | ["instead", ..] => Some("instead"),
        _ if comma => Some("also"),
        _ => None,
    }
}

/// The value the step read, as the question's `instead` option quotes it (`… in place of "den".`).
fn read_value(question: &Question) -> Option<String> {
    let Question::Choice { options, .. } = question else { return None };
    let (_, text) = options.0.iter().find(|(key, _)| key == "instead")?;
    let Text::Plain(text) = text else { return None };
    let quoted = text.strip_suffix("\".")?;
    Some(quoted[quoted.rfind('"')? + 1..].to_lowercase())
}

/// The words that join the items of a list.
const LIST_WORDS: &[&str] = &["and", "or", "plus"];
/// Words that break a list: what not to do, an order, a contrast.
const LIST_BREAKS: &[&str] = &["not", "no", "but", "except", "without", "instead", "then", "dont", "never"];
/// The most words an item of a list may hold around its value (`the kitchen ceiling lights`).
const ITEM_WORDS: usize = 4;

/// Whether the value at `start..end` and the value read stand in one list, in either order: `the den
/// lights and the kitchen lights`, `the den, kitchen and office lights`, `the den lights, the kitchen
/// lights and the office lights`. Between the two, every stretch the list's marks (a comma, `and`, `or`,
/// `plus`) leave holds at most [`ITEM_WORDS`] words, none a verb a request starts with nor a word that
/// breaks a list, and the later value follows a mark, with only determiners between.
fn listed_with(chars: &[char], start: usize, end: usize, read: &str) -> bool {
    // Words are found in the lowercased text; its commas by the same offsets, which hold only where
    // lowercasing keeps the length.
    let lower: String = chars.iter().collect::<String>().to_lowercase();
    if lower.chars().count() != chars.len() {
        return false;
    }
    let said = words(&lower);
    let read = words(read);
    if read.is_empty() {
        return false;
    }
    let Some(other) = said.iter().position(|w| w.start == start) else { return false };
    let other_end = said.iter().rposition(|w| w.end <= end).unwrap_or(other).max(other);
    let read_at = (0..said.len()).find(|&i| {
        (i > other_end || i + read.len() <= other)
            && said.len() >= i + read.len()
            && said[i..i + read.len()].iter().zip(&read).all(|(a, b)| a.lower == b.lower)
    });
    let Some(read_at) = read_at else { return false };
    let (from, to) = if read_at < other { (read_at + read.len(), other) } else { (other_end + 1, read_at) };
    if from > to {
        return false;
    }
    // The stretch between the two values, its words and its commas in order.
    let gap_start = if from == 0 { 0 } else { said[from - 1].end };
    let gap_end = said[to].start;
    let mut marks: Vec<(usize, &str)> = said[from..to].iter().map(|w| (w.start, w.lower.as_str())).collect();
    let commas = chars[gap_start..gap_end].iter().enumerate().filter(|(_, c)| **c == ',');
    marks.extend(commas.map(|(i, _)| (gap_start + i, ",")));
    marks.sort_by_key(|(at, _)| *at);
    let is_mark = |w: &str| w == "," || LIST_WORDS.contains(&w);
    let mut item = 0;
    let mut after_mark = false;
    for (_, w) in &marks {
        if is_mark(w) {
            item = 0;
            after_mark = true;
        } else if LIST_BREAKS.contains(w) || starts_a_request(w) {
            return false;
        } else {
            item += 1;
            if item > ITEM_WORDS {
                return false;
            }
            after_mark &= DETERMINERS.contains(w);
        }
    }
    after_mark
}

/// Whether the request asks for the value at `start..end` as well (`also`), instead (`instead`), rules it
/// out (`out`), or says something else there (`nothing`).
fn again(request: &str, start: usize, end: usize, question: &Question) -> BTreeMap<String, f64> {
    let keys: Vec<&str> = question.keys();
    let mut p: BTreeMap<String, f64> = keys.iter().map(|k| (k.to_string(), 0.0)).collect();
    let pick = |p: &mut BTreeMap<String, f64>, key: &str| {
        let others = (keys.len().max(2) - 1) as f64;
        for (k, v) in p.iter_mut() {
            *v = if k == key { SURE } else { (1.0 - SURE) / others };
        }
    };
    let chars: Vec<char> = request.chars().collect();
    let start = start.min(chars.len());
    let end = end.clamp(start, chars.len());
    let key = match joined_before(&chars, start) {
        Some(key) => key,
        None if read_value(question).is_some_and(|read| listed_with(&chars, start, end, &read)) => "also",
        None => "nothing",
    };
    pick(&mut p, key);
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use evoke_core::question::{Options, YES};
    use evoke_core::recognize::recognize;
    use evoke_core::weave::{cut_question, cuts};

    fn round(input: &str) -> (Questions, Vec<evoke_core::weave::Cut>) {
        let route = Question::Choice {
            ask: String::new(),
            options: Options(vec![(
                "lights".into(),
                Text::Rich {
                    what: "Turn the lights in one room on, off, or dim them.".into(),
                    not_for: Vec::new(),
                    examples: vec!["turn on the kitchen lights".into(), "is the den lamp on".into()],
                },
            )]),
            otherwise: Some("none".into()),
        };
        let found = cuts(input, &recognize(input));
        let mut questions = Questions(vec![(QuestionId::Route, route)]);
        for c in &found {
            questions.0.push((c.id(), cut_question(input, c)));
        }
        (questions, found)
    }

    fn yes(input: &str) -> Vec<bool> {
        let (questions, found) = round(input);
        found
            .iter()
            .map(|c| {
                let q = questions.get(&c.id()).unwrap();
                answer(input, &c.id(), q, &questions).unwrap()[YES] >= 0.5
            })
            .collect()
    }

    #[test]
    fn two_requests_are_cut_and_a_list_of_values_is_not() {
        assert_eq!(yes("turn off the den lights and set a timer for 5 minutes"), [true]);
        assert_eq!(yes("turn off the den lights and order a large pizza"), [true]);
        assert_eq!(yes("look up dana's address and email them"), [true]);
        assert_eq!(yes("turn on the den lights but don't touch the office"), [true]);
        assert_eq!(yes("turn off the den and office lights"), [false]);
        assert_eq!(yes("dim the den then the office"), [false]);
    }

    #[test]
    fn a_comma_alone_parts_two_requests_only_before_a_verb_that_opens_one() {
        assert_eq!(yes("help me, i don't know where my phone is"), [false]);
        assert_eq!(yes("in french, how do i say hello"), [false]);
        assert_eq!(yes("turn off the den lights, set a timer for 5 minutes"), [true]);
        assert_eq!(yes("turn off the den lights, please set a timer for 5 minutes"), [true]);
        // A comma before a word that joins two things leaves the cut to that word's place.
        assert_eq!(yes("turn off the den lights, then set a timer for 5 minutes"), [true, true]);
        assert_eq!(yes("turn off the den lights, the kitchen lights and the office lights"), [false, false]);
    }

    #[test]
    fn after_a_comma_an_example_opening_that_points_back_asks_about_the_clause_before() {
        // `is` opens an example, so it may open a request of its own; `it` asks about the clause before.
        assert_eq!(yes("turn off the den lights, is the kitchen lamp on"), [true]);
        assert_eq!(yes("should i go to the den, is it warm"), [false]);
        // A command's verb opens a request of its own, whatever it points at.
        assert_eq!(yes("turn off the den lights, set it for 5 minutes"), [true]);
    }

    #[test]
    fn a_sentence_read_as_two_requests_is_routed_by_the_part_decided_first() {
        use evoke_core::adapter::State;
        let ask = |input: &str, questions: &Questions| {
            let local = crate::local::Local::default();
            local.answer_now(&State { request: input.into() }, questions).unwrap()["route"].clone()
        };
        let route_only =
            |questions: &Questions| Questions(vec![(QuestionId::Route, questions.route().unwrap().clone())]);
        let input = "turn off the den lights and set a timer for 5 minutes";
        let (questions, _) = round(input);
        let woven = ask(input, &questions);
        assert_eq!(woven, ask("turn off the den lights", &route_only(&questions)));
        assert_ne!(woven, ask(input, &route_only(&questions)), "not the whole sentence's own route");
        // A list of values is one request: routed by its own words.
        let input = "turn off the den and office lights";
        let (questions, _) = round(input);
        assert_eq!(ask(input, &questions), ask(input, &route_only(&questions)));
    }

    #[test]
    fn another_value_after_and_is_also_and_after_not_is_out() {
        let q = Question::Choice {
            ask: String::new(),
            options: Options(
                ["also", "instead", "out", "nothing"]
                    .iter()
                    .map(|k| (k.to_string(), Text::Plain(String::new())))
                    .collect(),
            ),
            otherwise: Some("nothing".into()),
        };
        let top = |input: &str, start: usize| {
            let a = again(input, start, start + 6, &q);
            a.into_iter().max_by(|x, y| x.1.total_cmp(&y.1)).unwrap().0
        };
        assert_eq!(top("turn off the den and office lights", 21), "also");
        assert_eq!(top("turn off the den but not office lights", 25), "out");
        assert_eq!(top("turn off the den lights in the office", 31), "nothing");
        // Determiners between the list word and the value.
        assert_eq!(top("turn off the den lights and the office lights", 32), "also");
        assert_eq!(top("turn off the den but not the office lights", 29), "out");
        // A choice between two values asks for neither step alone.
        assert_eq!(top("turn off the den or the office lights", 24), "nothing");
    }

    #[test]
    fn a_value_in_one_list_with_the_one_read_is_also() {
        let q = |read: &str| Question::Choice {
            ask: String::new(),
            options: Options(vec![
                ("also".into(), Text::Plain(String::new())),
                ("instead".into(), Text::Plain(format!("It means \"den\" in place of \"{read}\"."))),
                ("out".into(), Text::Plain(String::new())),
                ("nothing".into(), Text::Plain(String::new())),
            ]),
            otherwise: Some("nothing".into()),
        };
        let top = |input: &str, read: &str| {
            let start = input.find("den").unwrap();
            let a = again(input, start, start + 3, &q(read));
            a.into_iter().max_by(|x, y| x.1.total_cmp(&y.1)).unwrap().0
        };
        assert_eq!(top("turn off the den lights and the kitchen lights", "kitchen"), "also");
        assert_eq!(top("turn off the den and kitchen lights", "kitchen"), "also");
        assert_eq!(top("turn off the den lights or the living room lights", "living room"), "also");
        // Lists of three, the value read anywhere in them.
        assert_eq!(top("turn off the den, kitchen and office lights", "kitchen"), "also");
        assert_eq!(top("turn off the den, kitchen and office lights", "office"), "also");
        assert_eq!(top("turn off the den lights, the kitchen lights and the office lights", "kitchen"), "also");
        assert_eq!(top("turn off the den lights, the kitchen lights, and the office lights", "office"), "also");
        assert_eq!(top("turn off the lights in the kitchen, the den and the office", "kitchen"), "also");
        assert_eq!(top("turn off the office, the kitchen and the den", "office"), "also");
        // A verb between them starts a request of its own; no list word, no list.
        assert_eq!(top("turn on the den lights and leave the kitchen ones", "kitchen"), "nothing");
        assert_eq!(top("turn off the den lights in the kitchen", "kitchen"), "nothing");
        assert_eq!(top("turn off the den lights and then switch the kitchen lights", "kitchen"), "nothing");
        assert_eq!(top("turn off the den lights, not the kitchen lights", "kitchen"), "nothing");
        assert_eq!(top("turn off the den lights in the kitchen and the office", "kitchen"), "nothing");
        assert_eq!(top("turn off the den lights and the big lamp in the bedroom by the kitchen", "kitchen"), "nothing");
    }

    /// The rooms the plan of `input` switches, step by step, woven by `local` on the example project.
    fn rooms_woven(input: &str) -> Vec<String> {
        use evoke_core::adapter::Adapter;
        use evoke_core::validate::validate;
        use evoke_core::weave::weaver::{Weaver, Woven};
        let catalog = crate::testing::home_catalog();
        let local = crate::local::Local::default();
        let mut weaver = Weaver::new(&catalog, local.gate(), input).expect("bounded");
        while let Some((text, questions)) = weaver.questions() {
            let state = evoke_core::adapter::State { request: text.to_string() };
            let raw = local.answer_now(&state, questions).expect("local answers");
            let answers = validate(questions, &raw).expect("valid");
            weaver.feed(&answers).expect("within bounds");
        }
        let room = |d: &evoke_core::decision::Decision| {
            d.args.as_ref().and_then(|a| a.get("room")).map(|v| v.shown().to_string()).unwrap_or_default()
        };
        match weaver.woven().expect("woven") {
            Woven::Plan(plan) => plan.steps.iter().map(|s| room(&s.decision)).collect(),
            Woven::One(d) => vec![room(d)],
        }
    }

    #[test]
    fn a_list_of_rooms_is_a_step_per_room_whichever_the_call_read() {
        for input in [
            "turn off the den lights and the kitchen lights",
            "turn off the kitchen lights and the den lights",
            "turn off the den lights and kitchen lights",
        ] {
            let mut rooms = rooms_woven(input);
            rooms.sort();
            assert_eq!(rooms, ["den", "kitchen"], "{input}");
        }
        for input in [
            "turn off the den lights, the kitchen lights and the office lights",
            "turn off the den, kitchen and office lights",
            "turn off the lights in the den, the kitchen and the office",
            "turn off the office, the den, and the kitchen lights",
        ] {
            let mut rooms = rooms_woven(input);
            rooms.sort();
            assert_eq!(rooms, ["den", "kitchen", "office"], "{input}");
        }
    }

    /// The answer local gives the part of `sentence` that `part` names.
    fn aside_of(sentence: &str, part: &str) -> &'static str {
        let start = sentence[..sentence.find(part).expect("the part is in the sentence")].chars().count();
        let answer = aside(sentence, start, start + part.chars().count());
        let top = answer.iter().max_by(|a, b| a.1.total_cmp(b.1)).expect("three answers");
        ["aside", "detail", "asks"].into_iter().find(|k| *k == top.0).expect("a key offered")
    }

    #[test]
    fn a_negation_typed_with_a_space_or_after_an_opener_opens_a_part_left_out() {
        for right in ["don t set the volume to 80", "please don't set the volume", "don’t set the volume"] {
            assert!(opens_with_negation(right), "{right}");
        }
        assert!(!opens_with_negation("do set the volume"));
    }

    #[test]
    fn a_part_that_opens_with_a_small_word_tells_of_the_request_and_one_that_opens_with_an_order_asks() {
        let car = "can you get me a car rental in seattle, and i'd like a sedan if possible";
        assert_eq!(aside_of(car, "i'd like a sedan if possible"), "detail");
        assert_eq!(aside_of("please use your whispering voice; i need quiet", "i need quiet"), "detail");
        assert_eq!(aside_of("turn off the den lights and feed the cat", "feed the cat"), "asks");
        assert_eq!(aside_of("turn off the den lights and then order a pizza", "then order a pizza"), "asks");
        assert_eq!(aside_of("turn off the den lights, how warm is it", "how warm is it"), "asks");
        assert_eq!(aside_of("check the fuel and does my car need premium", "does my car need premium"), "asks");
        let ambulance = "turn off the den lights, then i need you to call an ambulance";
        assert_eq!(aside_of(ambulance, "then i need you to call an ambulance"), "asks");
        assert_eq!(aside_of("turn off the den lights, let me in", "let me in"), "asks");
        assert_eq!(aside_of("dim the den lights, then up", "then up"), "detail");
        assert_eq!(aside_of("what and when is the next holiday", "what"), "detail");
        assert_eq!(aside_of("and then, turn off the den lights", "and then"), "aside");
    }
}
