//! Weaving: one sentence read as several steps. The reading is pure: where the sentence could be cut is
//! found here, each place is asked as a question (`weave.cut_<start>_<end>`) beside the route, and the
//! answers cut the sentence into parts. Each part is then decided as one input by the same decider as any
//! sentence; [`plan`] settles the steps, their order and their stages.
//!
//! Nothing here is quadratic in the number of connectives: the sentence is read once, left to right, and a
//! sentence with more places to cut than [`MAX_CUTS`] is refused before any question is asked.

pub mod again;
pub mod count;
pub mod folded;
pub mod plan;
pub mod planfile;
pub mod shared;
pub mod two_things;
pub mod weaver;

use crate::question::{Question, QuestionId, Questions, Text};
use crate::recognize::Candidate;
use crate::validate::Answers;
use serde::Serialize;

/// The most places a sentence may be cut at: past this many connectives the sentence is refused rather
/// than asked about.
pub const MAX_CUTS: usize = 15;
/// The most parts a sentence may be read as; a sentence cut into more is refused.
pub const MAX_PARTS: usize = 8;

/// The words that may join two things. `after that` is one connective of two words.
pub(crate) const CONNECTIVES: [&str; 6] = ["and", "then", "but", "after", "before", "next"];
/// The first words of a part that say what not to do, or what is spared: `instead of the kitchen, …`,
/// `…, except the den`, `…, skipping the den`.
const NEGATIONS: [&[&str]; 14] = [
    &["not"],
    &["don't"],
    &["dont"],
    &["do", "not"],
    &["never"],
    &["without"],
    &["instead"],
    &["except"],
    &["excluding"],
    &["excepting"],
    &["barring"],
    &["sparing"],
    &["skipping"],
    &["minus"],
];

/// A place the sentence could be cut: the connective's character offsets, end exclusive.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cut {
    pub start: usize,
    pub end: usize,
    /// The connective as typed, lowercased: `and`, `after that`, `,`.
    pub word: String,
}

impl Cut {
    /// The question asked of this place.
    pub fn id(&self) -> QuestionId {
        QuestionId::Cut { start: self.start, end: self.end }
    }
}

/// Why a sentence is refused before its plan is made.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TooMany {
    /// More connectives than evoke asks about.
    TooManyCuts { found: usize, limit: usize },
    /// Cut into more parts than a plan holds.
    TooManyParts { found: usize, limit: usize },
}

impl std::fmt::Display for TooMany {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TooMany::TooManyCuts { found, limit } => write!(
                f,
                "the sentence has {found} places it could be cut; evoke reads at most {limit}: say it in shorter requests"
            ),
            TooMany::TooManyParts { found, limit } => write!(
                f,
                "the sentence asks for {found} things; a plan holds at most {limit}: say it in shorter requests"
            ),
        }
    }
}

/// One word or mark of the sentence, by character offsets.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

/// The sentence's words (letters, digits and inner apostrophes), its commas and semicolons, and the marks
/// that end a sentence before another, each with whether a quote or a typed span covers it.
fn tokens(input: &str, spans: &[Candidate]) -> Vec<(Token, bool)> {
    let chars: Vec<char> = input.chars().collect();
    let mut protected = vec![false; chars.len()];
    for c in spans {
        for p in protected.iter_mut().take(c.span.end.min(chars.len())).skip(c.span.start) {
            *p = true;
        }
    }
    // Quotes: one opens at the start of a word and closes at the end of one. An unclosed quote protects the
    // rest of the sentence, which only ever means fewer cuts.
    let mut open: Option<char> = None;
    for i in 0..chars.len() {
        let ch = chars[i];
        let before = if i == 0 { None } else { Some(chars[i - 1]) };
        let after = chars.get(i + 1).copied();
        match open {
            Some(q) => {
                protected[i] = true;
                if closes(q, ch) && after.is_none_or(|a| !a.is_alphanumeric()) {
                    open = None;
                }
            }
            None => {
                if is_quote(ch) && before.is_none_or(|b| b.is_whitespace() || b == '(') {
                    open = Some(ch);
                    protected[i] = true;
                }
            }
        }
    }
    // The words are the one tokenizer's ([`crate::words::words`]); the commas and semicolons stand between.
    let covered = |start: usize, end: usize| protected[start..end].iter().any(|p| *p);
    let mut out: Vec<(Token, bool)> = crate::words::words(input)
        .into_iter()
        .map(|w| {
            let covered = covered(w.start, w.end);
            (Token { start: w.start, end: w.end, text: w.lower }, covered)
        })
        .collect();
    for (i, ch) in chars.iter().enumerate().filter(|(_, ch)| matches!(ch, ',' | ';')) {
        out.push((Token { start: i, end: i + 1, text: ch.to_string() }, protected[i]));
    }
    // A sentence's end before another sentence (`turn off the den lights. set a timer`) parts them as a
    // semicolon does: a `.`, `!` or `?` right after a word, with a space after it. A `.` after a word of one
    // or two letters or digits may be an abbreviation's (`p. m.`, `st. louis`).
    for i in 0..chars.len() {
        let ends = matches!(chars[i], '.' | '!' | '?') && chars.get(i + 1).is_some_and(|c| c.is_whitespace());
        let in_a_word = |c: &&char| c.is_alphanumeric() || matches!(c, '\'' | '’');
        let letters_before = chars[..i].iter().rev().take_while(in_a_word).count();
        let abbreviation = chars[i] == '.' && letters_before < 3;
        if ends && letters_before > 0 && !abbreviation {
            out.push((Token { start: i, end: i + 1, text: chars[i].to_string() }, protected[i]));
        }
    }
    out.sort_by_key(|(t, _)| t.start);
    out
}

/// The marks that end a sentence before another: places to cut, as a semicolon is.
pub const SENTENCE_ENDS: [&str; 3] = [".", "!", "?"];

fn is_quote(ch: char) -> bool {
    matches!(ch, '"' | '\'' | '“' | '‘')
}

fn closes(open: char, ch: char) -> bool {
    match open {
        '“' => ch == '”',
        '‘' => ch == '’',
        other => ch == other,
    }
}

/// Every place the sentence could be cut, in order: each connective, comma, semicolon and sentence's end
/// outside quotes and typed spans, with words on both sides. `between 2 and 3` keeps its `and`.
pub fn cuts(input: &str, spans: &[Candidate]) -> Vec<Cut> {
    let tokens = tokens(input, spans);
    let mut cuts = Vec::new();
    let mut i = 0;
    // Whether a word stands before this token: a connective needs one on each side.
    let mut word_before = false;
    while i < tokens.len() {
        let (token, covered) = &tokens[i];
        let is_connective = CONNECTIVES.contains(&token.text.as_str()) || !is_word(token);
        if *covered || !is_connective || !word_before {
            word_before |= is_word(token);
            i += 1;
            continue;
        }
        // `after that` is one connective.
        let mut end_token = i;
        if token.text == "after" && tokens.get(i + 1).is_some_and(|(t, c)| t.text == "that" && !c) {
            end_token = i + 1;
        }
        if tokens.get(end_token + 1).is_none() {
            break;
        }
        // `next` joins two things only where a clause starts (`…; next, give me tips`): after any other
        // word it is the word of a time or an order (`the next song`, `paid next week`).
        if token.text == "next"
            && i > 0
            && is_word(&tokens[i - 1].0)
            && !CONNECTIVES.contains(&tokens[i - 1].0.text.as_str())
        {
            word_before = true;
            i += 1;
            continue;
        }
        // `between 2 and 3`: the and of a range joins its two ends.
        if token.text == "and"
            && i >= 2
            && (tokens[i - 2].0.text == "between" || (i >= 3 && tokens[i - 3].0.text == "between"))
        {
            i += 1;
            continue;
        }
        let word = if end_token > i { "after that".to_string() } else { token.text.clone() };
        cuts.push(Cut { start: token.start, end: tokens[end_token].0.end, word });
        i = end_token + 1;
    }
    cuts
}

fn is_word(token: &Token) -> bool {
    token.text != "," && token.text != ";" && !SENTENCE_ENDS.contains(&token.text.as_str())
}

const CUT_ASK: &str = "Does this connective separate two things the request asks for?";

/// The question asked of one place: yes where the words before and after it are two requests.
pub fn cut_question(input: &str, cut: &Cut) -> Question {
    let chars: Vec<char> = input.chars().collect();
    let left: String = chars[..cut.start.min(chars.len())].iter().collect();
    let right: String = chars[cut.end.min(chars.len())..].iter().collect();
    Question::Yesno {
        ask: format!("{CUT_ASK} \"{}\" at {}-{}", cut.word, cut.start, cut.end),
        yes: Text::Plain(format!("Two things: \"{}\" and \"{}\".", left.trim(), right.trim())),
        no: Text::Plain(format!("One thing: \"{}\" joins words of one request.", cut.word)),
    }
}

/// The first round of a sentence that may be woven: the route and one question per place to cut.
pub fn first_round(route: &Questions, input: &str, cuts: &[Cut]) -> Questions {
    let mut questions = route.clone();
    for cut in cuts {
        questions.0.push((cut.id(), cut_question(input, cut)));
    }
    questions
}

/// One answer to a place: where it cut, and how sure.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Split {
    pub start: usize,
    pub end: usize,
    pub text: String,
    pub cut: bool,
    pub p: f64,
    /// The engine's `no`: how surely the place joins words of one request. Not `1 - p`: an engine's
    /// shares need not sum to one, and a count is read as answered.
    #[serde(skip)]
    pub no: f64,
}

/// A part of the sentence: its words (character offsets of the sentence) and the connective before it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Part {
    pub start: usize,
    pub end: usize,
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub connective: Option<String>,
}

/// What the answers made of the sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    /// The parts to decide, in the order they run.
    pub parts: Vec<Part>,
    /// The parts that say what not to do.
    pub excluded: Vec<Part>,
    pub splits: Vec<Split>,
}

/// Cuts the sentence where the answers say, at `bar` (the route's bar), then leaves out negated parts and
/// puts the parts in the order their words give.
pub fn read(input: &str, cuts: &[Cut], answers: &Answers, bar: f64) -> Result<Reading, TooMany> {
    let chars: Vec<char> = input.chars().collect();
    let mut splits = Vec::new();
    let mut bounds: Vec<(usize, usize, Option<String>)> = Vec::new();
    let mut from = 0;
    let mut connective: Option<String> = None;
    for cut in cuts {
        let p = answers.get(&cut.id()).map_or(0.0, |d| d.p(crate::question::YES));
        // A place the engine left unanswered is read as no cut, as `p` is.
        let no = answers.get(&cut.id()).map_or(1.0, |d| d.p(crate::question::NO));
        // `hey evoke, turn on the lights`: words that only open a request are no part of their own.
        let opening: String = chars[from..cut.start].iter().collect();
        // `…, and so on`, `…, thanks` at the sentence's end: words that only close a request are no part of
        // their own either.
        let closing: String = chars[cut.start..].iter().collect();
        // `how do i say, see you later`: what follows a verb of saying or writing is what is said.
        let said_next = crate::words::words(&opening).last().is_some_and(|w| {
            matches!(w.lower.as_str(), "say" | "said") || crate::mood::lists::QUOTING.contains(&w.lower.as_str())
        });
        // `hey siri, …` calls who the sentence is said to, and `…, do you think` asks what the person thinks
        // of it: the mood reads both over the whole sentence.
        let calls = crate::mood::opens_only(&opening) || crate::mood::greets_by_name(&opening);
        let closes = crate::mood::closing(&closing) || crate::mood::tag_question(&closing);
        let is_cut = p >= bar && !calls && !closes && !said_next;
        splits.push(Split {
            start: cut.start,
            end: cut.end,
            text: chars[cut.start..cut.end].iter().collect(),
            cut: is_cut,
            p,
            no,
        });
        if is_cut {
            bounds.push((from, cut.start, connective.take()));
            from = cut.end;
            connective = Some(cut.word.clone());
        }
    }
    bounds.push((from, chars.len(), connective));
    let mut parts: Vec<Part> = Vec::new();
    for (start, end, connective) in bounds {
        let Some(part) = part_of(&chars, start, end, connective) else { continue };
        // Two connectives side by side (`, and`, `and then`): the empty part between them carries its word on.
        parts.push(part);
    }
    if parts.len() > MAX_PARTS {
        return Err(TooMany::TooManyParts { found: parts.len(), limit: MAX_PARTS });
    }
    let (excluded, mut kept): (Vec<Part>, Vec<Part>) = parts.into_iter().partition(|p| negated(&p.text));
    order(&mut kept);
    Ok(Reading { parts: kept, excluded, splits })
}

/// The parts the sentence reads as when it is cut at exactly these places (each a place's `(start, end)`,
/// as its question's id gives them), in the order they run, negated parts left out. An engine that reads
/// the cuts itself knows from this which words the plan will decide first.
pub fn parts_cut_at(input: &str, at: &[(usize, usize)]) -> Vec<Part> {
    let chars: Vec<char> = input.chars().collect();
    let mut cuts: Vec<Cut> = Vec::new();
    let mut answers = Answers::new();
    let mut at = at.to_vec();
    at.sort_unstable();
    for (start, end) in at {
        // A place outside the text, or one overlapping the place before it, is no place to cut.
        if start >= end || end > chars.len() || cuts.last().is_some_and(|c| start < c.end) {
            continue;
        }
        let typed: String = chars[start..end].iter().collect::<String>().to_lowercase();
        let cut = Cut { start, end, word: typed.split_whitespace().collect::<Vec<_>>().join(" ") };
        answers.insert(
            cut.id(),
            crate::validate::Distribution(vec![(crate::question::YES.into(), 1.0), (crate::question::NO.into(), 0.0)]),
        );
        cuts.push(cut);
    }
    read(input, &cuts, &answers, 0.5).map(|r| r.parts).unwrap_or_default()
}

/// A part's words, trimmed of spaces and of the order words that start it (`then`, `after that`, `also`,
/// `please`, `before you`, `after you`). `None` when nothing is left.
fn part_of(chars: &[char], start: usize, end: usize, connective: Option<String>) -> Option<Part> {
    let mut s = start;
    let mut e = end;
    let mut connective = connective;
    loop {
        while s < e && !chars[s].is_alphanumeric() && !is_quote(chars[s]) {
            s += 1;
        }
        let rest: String = chars[s..e].iter().collect::<String>().to_lowercase();
        let lead = ["after that ", "then ", "also ", "please ", "and ", "next ", "before you ", "after you "]
            .iter()
            .find(|w| rest.starts_with(**w));
        match lead {
            Some(w) => {
                let word = w.trim();
                if word.starts_with("after") && word != "after that" {
                    connective = Some("after".into());
                } else if connective.is_none() || word == "then" || word == "after that" || word == "next" {
                    connective = Some(word.to_string());
                }
                s += w.chars().count();
            }
            None => {
                // `Y after you X`: the `you` after the connective is no word of the request.
                let ordered = matches!(connective.as_deref(), Some("after") | Some("before"));
                if ordered && rest.starts_with("you ") {
                    s += 4;
                    continue;
                }
                break;
            }
        }
    }
    while e > s && (chars[e - 1].is_whitespace() || matches!(chars[e - 1], '.' | '!' | '?' | ',' | ';')) {
        e -= 1;
    }
    if s >= e {
        return None;
    }
    Some(Part { start: s, end: e, text: chars[s..e].iter().collect(), connective })
}

/// Whether a part's first words, past its openers (`please`, `ok`), say what not to do: not where they
/// say not to forget what follows (`don't forget to …`), which asks for it, nor where they ask what the
/// person thinks (`don't you think the office too`), which asks.
pub fn negated(text: &str) -> bool {
    let words: Vec<String> = crate::mood::words_past_openers(text).into_iter().take(2).collect();
    NEGATIONS.iter().any(|n| n.len() <= words.len() && n.iter().zip(&words).all(|(a, b)| a == b))
        && !crate::mood::reminds(text)
        && !crate::mood::opens_with_tag(text)
}

/// `Y after you X` reads X, then Y: a part whose connective is `after` runs before the part it follows.
/// Every other order is the sentence's own.
fn order(parts: &mut [Part]) {
    for i in 1..parts.len() {
        if parts[i].connective.as_deref() == Some("after") {
            parts.swap(i - 1, i);
        }
    }
    // `before you X, Y`: Y is what is to be done first.
    for i in (0..parts.len().saturating_sub(1)).rev() {
        if parts[i].connective.as_deref() == Some("before you") {
            parts.swap(i, i + 1);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
