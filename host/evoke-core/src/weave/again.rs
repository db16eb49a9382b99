//! `again`: a list of values for one argument (`the den and office lights`) is one step per value. After a
//! step is decided, every other word of the same vocabulary that its words say is asked about, one
//! question each, `weave.again_<start>_<end>_<reflex>__<argument>`: `also` where the request asks for
//! that value as well (one more step, the value in place), `instead` where it means that value in place
//! of the one read, `out` where it rules it out, `nothing` where the words say something else.

use crate::adapter::Gate;
use crate::catalog::Catalog;
use crate::decide::answered;
use crate::decision::{Because, Decision, Judgment, Outcome, Value};
use crate::manifest::Source;
use crate::mood::Mood;
use crate::question::{Options, Question, QuestionId, Questions, Text};
use crate::recognize::Candidate;
use crate::validate::Answers;

pub const ALSO: &str = "also";
pub const INSTEAD: &str = "instead";
pub const OUT: &str = "out";
pub const NOTHING: &str = "nothing";

/// One other value a step's words name.
#[derive(Debug, Clone, PartialEq)]
pub struct Other {
    pub id: QuestionId,
    pub arg: String,
    pub word: String,
    pub start: usize,
    pub end: usize,
    /// Whether the words also name the value where they spare it (`the kitchen and office lights, except
    /// the office`): then no answer writes it in, and the engine's `also` or `instead` counts as `nothing`.
    pub spared: bool,
}

/// The other values of a decided step's vocabulary arguments that its words say, each once, in input order.
/// At most `limit`. `sentence` is the whole sentence the step is a part of: a value it spares anywhere
/// (`…, set a timer for 5 minutes, skipping the office`) is spared in every step.
pub fn others(catalog: &Catalog, decision: &Decision, sentence: &str, limit: usize) -> Vec<Other> {
    let mut found = Vec::new();
    let (Some(name), Some(args)) = (decision.reflex.as_deref(), decision.args.as_ref()) else { return found };
    if decision.outcome == Outcome::Abstain {
        return found;
    }
    let Some(reflex) = catalog.get(name) else { return found };
    let lower: Vec<char> = decision.input.to_lowercase().chars().collect();
    // Lowercasing keeps character offsets for the texts a request holds; a text where it would not is
    // read as saying no other value.
    if lower.len() != decision.input.chars().count() {
        return found;
    }
    // A value the sentence spares (`…, except the office`) is never written in, wherever else it names it.
    let spared = crate::mood::spared_ranges(sentence);
    let sentence_lower: Vec<char> = sentence.to_lowercase().chars().collect();
    let named_to_spare = |word: &str| {
        let len = word.chars().count();
        whole_words_at(&sentence_lower, &word.to_lowercase())
            .any(|at| spared.iter().any(|(start, end)| *start <= at && at + len <= *end))
    };
    for arg in &reflex.manifest.args {
        if !matches!(arg.source, Source::Vocab(_)) {
            continue;
        }
        let Some(Value::Word { word: taken, .. }) = args.get(&arg.name) else { continue };
        let Some(vocab) = reflex.vocab_of(&arg.name) else { continue };
        // A value taken from a statement (`turn on the office and the den is dark`, read as the den) is no
        // item of a list: the call stands as read, held for the other room its words name.
        let places: Vec<usize> = whole_words_at(&lower, &taken.to_lowercase()).collect();
        if !places.is_empty() && places.iter().all(|&at| in_a_statement(&lower, at)) {
            continue;
        }
        for w in &vocab.words {
            if w.word.eq_ignore_ascii_case(taken) {
                continue;
            }
            if let Some(start) = whole_word_at(&lower, &w.word.to_lowercase()) {
                let end = start + w.word.chars().count();
                // `turn on the office and the bedroom is dark`: a value in a clause that states something is
                // what is, not another value asked for.
                if in_a_statement(&lower, start) {
                    continue;
                }
                found.push(Other {
                    id: QuestionId::Again { start, end, reflex: name.to_string(), arg: arg.name.clone() },
                    arg: arg.name.clone(),
                    word: w.word.clone(),
                    start,
                    end,
                    spared: named_to_spare(&w.word),
                });
            }
        }
    }
    found.sort_by_key(|o| o.start);
    found.truncate(limit);
    found
}

/// Whether the word at `at` stands in a clause that states something (`the bedroom is dark`): the words
/// from the last `and`, `but` or mark before it to the next mark or the end.
fn in_a_statement(text: &[char], at: usize) -> bool {
    let marks = |c: char| matches!(c, ',' | ';' | ':' | '.' | '!' | '?');
    let end = (at..text.len()).find(|&i| marks(text[i])).unwrap_or(text.len());
    let joined = ["and", "but"].iter().filter_map(|j| whole_words_at(&text[..at], j).last().map(|i| i + j.len())).max();
    let marked = (0..at).rev().find(|&i| marks(text[i])).map(|i| i + 1);
    let start = joined.into_iter().chain(marked).max().unwrap_or(0);
    let clause: String = text[start..end].iter().collect();
    crate::mood::states(&clause)
}

/// Where `word` first stands as whole words in `text`, in characters.
fn whole_word_at(text: &[char], word: &str) -> Option<usize> {
    whole_words_at(text, word).next()
}

/// Each place `word` stands as whole words in `text`, in characters.
fn whole_words_at<'a>(text: &'a [char], word: &str) -> impl Iterator<Item = usize> + 'a {
    let word: Vec<char> = word.chars().collect();
    let last = if word.is_empty() || word.len() > text.len() { 0 } else { text.len() - word.len() + 1 };
    (0..last).filter(move |&i| {
        text[i..i + word.len()] == word[..]
            && (i == 0 || !text[i - 1].is_alphanumeric())
            && text.get(i + word.len()).is_none_or(|c| !c.is_alphanumeric())
    })
}

/// The round that asks about every other value.
pub fn round(decision: &Decision, others: &[Other]) -> Questions {
    let reflex = decision.reflex.as_deref().unwrap_or_default();
    let taken = |arg: &str| decision.args.as_ref().and_then(|a| a.get(arg)).map(|v| v.shown().to_string());
    Questions(
        others
            .iter()
            .map(|o| {
                let read = taken(&o.arg).unwrap_or_default();
                let options = vec![
                    (
                        ALSO.to_string(),
                        Text::Plain(format!("It asks for {reflex} with {} \"{}\" as well.", o.arg, o.word)),
                    ),
                    (INSTEAD.to_string(), Text::Plain(format!("It means \"{}\" in place of \"{read}\".", o.word))),
                    (OUT.to_string(), Text::Plain(format!("It rules \"{}\" out.", o.word))),
                    (NOTHING.to_string(), Text::Plain("The words say something else there.".into())),
                ];
                let question = Question::Choice {
                    ask: format!("Does the request ask for this value of {} too?", o.arg),
                    options: Options(options),
                    otherwise: Some(NOTHING.into()),
                };
                (o.id.clone(), question)
            })
            .collect(),
    )
}

/// What the answers make of the step: the step itself (its value replaced where an answer said
/// `instead`), and one more step per `also`, in input order. An answer under `bar` counts as `nothing`.
#[allow(clippy::too_many_arguments)]
pub fn apply(
    catalog: &Catalog,
    gate: Option<&Gate>,
    candidates: &[Candidate],
    decision: &Decision,
    others: &[Other],
    answers: &Answers,
    bar: f64,
    sentence: &str,
) -> (Decision, Vec<Decision>) {
    let mut base = decision.clone();
    let mut more = Vec::new();
    let mut ruled_out = false;
    let vocab_value = |arg: &str, word: &str| {
        decision
            .reflex
            .as_deref()
            .and_then(|r| catalog.get(r))
            .and_then(|r| r.vocab_of(arg))
            .and_then(|v| v.find(word))
            .and_then(|w| w.value.clone())
    };
    for other in others {
        let Some(answer) = answers.get(&other.id) else { continue };
        let (top, p) = answer.top();
        if p < bar {
            continue;
        }
        // A yes must never do what the words spare, whatever the engine read: the step stays as it was.
        let top = if other.spared && matches!(top, ALSO | INSTEAD) { NOTHING } else { top };
        let value = Value::Word { word: other.word.clone(), value: vocab_value(&other.arg, &other.word) };
        match top {
            ALSO => more.push(written(catalog, gate, candidates, decision, other, value, top, p, sentence)),
            INSTEAD => {
                base = written(catalog, gate, candidates, &base, other, value, top, p, sentence);
                // The words still say the value read: the engine's correction waits for the person's.
                let read = decision.args.as_ref().and_then(|a| a.get(&other.arg)).map(|v| v.shown().to_string());
                if let Some(read) = read {
                    let because = Because::OneView { arg: other.arg.clone(), words: vec![read], reads: None };
                    base = crate::decide::held_for(catalog, &base, because);
                }
            }
            OUT => ruled_out = true,
            _ => {}
        }
    }
    // A value the engine placed as a step of its own or ruled out no longer disagrees with the step. One
    // it means in place of the value read still does: the words say both.
    // A value the sentence spares is placed too: the words name it to spare it, not to say another value.
    let placed = |arg: &str, word: &str| {
        others.iter().filter(|o| o.arg == arg && o.word.eq_ignore_ascii_case(word)).any(|o| {
            o.spared
                || answers.get(&o.id).is_some_and(|a| {
                    let (top, p) = a.top();
                    p >= bar && (top == OUT || top == ALSO)
                })
        })
    };
    // Each step also holds the value of the step it was written from, and of its siblings: theirs.
    let values: Vec<String> = std::iter::once(&base)
        .chain(more.iter())
        .filter_map(|d| others.first().and_then(|o| d.args.as_ref()?.get(&o.arg)).map(|v| v.shown().to_lowercase()))
        .collect();
    let siblings = |arg: &str, word: &str| placed(arg, word) || values.iter().any(|v| *v == word.to_lowercase());
    others_spent(&mut base, &placed);
    for step in &mut more {
        others_spent(step, &siblings);
    }
    if ruled_out {
        negation_spent(&mut base);
    }
    (base, more)
}

/// `turn off the den and office lights`: the office disagrees with the den the step read until the engine
/// placed it; then the `one_view` it held the step for is spent, and the step stands as read otherwise.
/// `placed` says, of an argument and words that named another value of it, whether the plan placed them
/// elsewhere; the hold names only the words left.
pub(crate) fn others_spent(decision: &mut Decision, placed: &dyn Fn(&str, &str) -> bool) {
    let Some(because) = decision.because.as_mut() else { return };
    let before = because.clone();
    for b in because.iter_mut() {
        if let Because::OneView { arg, words, .. } = b {
            words.retain(|w| !placed(arg, w));
        }
    }
    because.retain(|b| !matches!(b, Because::OneView { words, .. } if words.is_empty()));
    if *because == before {
        return;
    }
    if because.is_empty() {
        decision.because = None;
        if decision.outcome == Outcome::Confirm {
            decision.outcome = Outcome::Run;
            decision.prompt = None;
        }
    } else {
        let reason = crate::decide::reasons(decision);
        if let Some(prompt) = decision.prompt.as_mut() {
            prompt.reason = reason;
        }
    }
}

/// `turn off the den but not the office lights`: the `not` rules a value out, and the engine has said so.
/// The step waited only on the sentence reading as a request not to; that negation is spent, and the step
/// stands as read.
fn negation_spent(decision: &mut Decision) {
    let only_negated = matches!(decision.because.as_deref(), Some([Because::NotARequest { mood: Mood::Negated }]));
    if decision.outcome == Outcome::Confirm && only_negated {
        decision.outcome = Outcome::Run;
        decision.because = None;
        decision.prompt = None;
    }
}

/// The step written again with `value` in place: judged by the again question in place of the route's,
/// and the value as sure as that answer.
#[allow(clippy::too_many_arguments)]
fn written(
    catalog: &Catalog,
    gate: Option<&Gate>,
    candidates: &[Candidate],
    decision: &Decision,
    other: &Other,
    value: Value,
    top: &str,
    p: f64,
    sentence: &str,
) -> Decision {
    let first = answered(catalog, gate, candidates, decision, &[(other.arg.clone(), value)], Some(sentence));
    let reflex = decision.reflex.as_deref().unwrap_or_default();
    let question = QuestionId::arg(reflex, &other.arg);
    let mut judgments: Vec<Judgment> = Vec::new();
    for j in first.judgments {
        if j.question == QuestionId::Route {
            judgments.push(Judgment { question: other.id.clone(), top: top.to_string(), p });
        } else if j.question == question {
            judgments.push(Judgment { question: j.question, top: j.top, p: p.min(j.p) });
        } else {
            judgments.push(j);
        }
    }
    let rejudged = Decision { judgments, ..first };
    answered(catalog, gate, candidates, &rejudged, &[], Some(sentence))
}
