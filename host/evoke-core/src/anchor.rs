//! Words asked alone: 003's `anchored` and `words`. A value that stands on one view was read from words
//! that name no key of its argument (`douse` read as `off`): the read-back only counted that those words
//! were left for it. So its argument's question is asked again of those words alone
//! (`weave.alone_<start>_<end>_<reflex>__<arg>`). Where the words alone name the value, its basis is
//! `anchored`. Where they name another key of the argument, the two readings disagree and the call waits
//! for a yes (`one_view`, with what the words read alone). Where they name nothing, the value stands as it
//! was read; that answer never makes a value surer. A value the call asks for, which its question judged
//! unstated while words name it (`unread`), is asked of those words the same way: named alone, it is read
//! from them (`words`) and the call waits for a yes, since only the sentence says what the words are there
//! for.

use crate::catalog::Catalog;
use crate::decision::{Basis, Because, Decision, Outcome, Value};
use crate::question::{NONE, Question, Questions, UNSTATED};
use crate::question_id::QuestionId;
use crate::readback::Does;
use crate::recognize::Span;
use crate::validate::Answers;

/// One value to anchor: its argument, its key, the words it was read from, and the question asking them.
#[derive(Debug, Clone, PartialEq)]
pub struct Anchor {
    pub arg: String,
    pub key: String,
    pub words: Span,
    pub id: QuestionId,
    /// Whether the value is one the call asks for: its question judged it unstated while these words name
    /// it (`unread`, with it `likely`). Named alone, it is taken from the words (`basis` `words`).
    pub asked: bool,
}

/// The values of a call to anchor: each option or vocabulary value whose basis is `view` and whose words
/// the read-back found, one per run of those words. A call that asks is anchored too: what its words
/// read alone still holds once a person gives the value it lacks.
pub fn anchors(decision: &Decision) -> Vec<Anchor> {
    if decision.outcome == Outcome::Abstain {
        return Vec::new();
    }
    let (Some(reflex), Some(args)) = (&decision.reflex, &decision.args) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for (arg, basis) in decision.basis.iter().flat_map(|b| &b.0) {
        let Basis::View { words, .. } = basis else { continue };
        let key = match args.get(arg) {
            Some(Value::Option { key }) => key,
            Some(Value::Word { word, .. }) => word,
            _ => continue,
        };
        if words.is_empty() {
            continue;
        }
        let read_from = |l: &&crate::readback::Left| l.read && matches!(&l.does, Does::Answers { arg: a } if a == arg);
        for left in decision.left.iter().flatten().filter(read_from) {
            let id = QuestionId::Alone {
                start: left.words.start,
                end: left.words.end,
                reflex: reflex.clone(),
                arg: arg.clone(),
            };
            found.push(Anchor { arg: arg.clone(), key: key.clone(), words: left.words.clone(), id, asked: false });
        }
    }
    // A value asked for whose words name it, the engine having read nothing from them.
    for missing in decision.missing.iter().flatten() {
        let (crate::decision::MissingBecause::Unread, Some(key)) = (&missing.because, &missing.likely) else {
            continue;
        };
        let answering = |l: &&crate::readback::Left| matches!(&l.does, Does::Answers { arg } if *arg == missing.arg);
        for left in decision.left.iter().flatten().filter(answering) {
            let id = QuestionId::Alone {
                start: left.words.start,
                end: left.words.end,
                reflex: reflex.clone(),
                arg: missing.arg.clone(),
            };
            let words = left.words.clone();
            found.push(Anchor { arg: missing.arg.clone(), key: key.clone(), words, id, asked: true });
        }
    }
    found
}

/// The round that asks each anchor's argument question of its words alone: the argument's own question,
/// its `ask` saying which words to read.
pub fn round(catalog: &Catalog, decision: &Decision, anchors: &[Anchor]) -> Questions {
    let Some(reflex) = decision.reflex.as_deref().and_then(|r| catalog.get(r)) else { return Questions(Vec::new()) };
    let mut questions = Vec::new();
    for anchor in anchors {
        let Some(arg) = reflex.manifest.args.iter().find(|a| a.name == anchor.arg) else { continue };
        let Some(Question::Choice { ask, options, otherwise }) = crate::question::argument(reflex, arg, &[]) else {
            continue;
        };
        let ask = format!("Read only the words \"{}\" of the request. {ask}", anchor.words.text);
        questions.push((anchor.id.clone(), Question::Choice { ask, options, otherwise }));
    }
    Questions(questions)
}

/// The key the words alone name, read so that a tie never anchors: `value` is named only where it stands
/// above every other key; where another key ties with it or passes it, that key is what they name.
fn named_alone<'a>(answer: &'a crate::validate::Distribution, value: &'a str) -> &'a str {
    let rival = answer.0.iter().filter(|(k, _)| k != value).max_by(|a, b| a.1.total_cmp(&b.1));
    match rival {
        Some((key, p)) if *p >= answer.p(value) => key,
        _ => value,
    }
}

/// The decision with each anchor's answer read: `anchored` on a value its words alone name, and the call
/// held for a yes (`one_view`) where they name another key; a value asked for that its words alone name
/// (every run of them) is taken from them, at the least sure of their answers. An anchor left unanswered
/// changes nothing.
pub fn apply(
    catalog: &Catalog,
    gate: Option<&crate::adapter::Gate>,
    candidates: &[crate::recognize::Candidate],
    decision: Decision,
    anchors: &[Anchor],
    answers: &Answers,
) -> Decision {
    let mut decision = decision;
    let mut taken: Vec<crate::decide::FromWords> = Vec::new();
    for anchor in anchors.iter().filter(|a| a.asked) {
        let Some(answer) = answers.get(&anchor.id) else { continue };
        let named = named_alone(answer, &anchor.key) == anchor.key;
        let runs = || anchors.iter().filter(|a| a.asked && a.arg == anchor.arg);
        let every_run = runs().all(|a| answers.get(&a.id).is_some_and(|d| named_alone(d, &a.key) == a.key));
        if !named || !every_run || taken.iter().any(|t| t.arg == anchor.arg) {
            continue;
        }
        let yes = runs().filter_map(|a| answers.get(&a.id).map(|d| d.p(&a.key))).fold(1.0, f64::min);
        let Some(value) = value_of(catalog, &decision, &anchor.arg, &anchor.key) else { continue };
        let words = runs().map(|a| a.words.text.clone()).collect();
        taken.push(crate::decide::FromWords { arg: anchor.arg.clone(), value, yes, words });
    }
    for read in &taken {
        decision = crate::decide::read_from_words(catalog, gate, candidates, &decision, read);
    }
    for anchor in anchors.iter().filter(|a| !a.asked) {
        let Some(answer) = answers.get(&anchor.id) else { continue };
        let top = named_alone(answer, &anchor.key);
        let Some(Basis::View { anchored, reads, .. }) = view_of(&mut decision, &anchor.arg) else { continue };
        if top == anchor.key {
            // Anchored only while no run of its words reads another key.
            *anchored = reads.is_none();
        } else if top != NONE && top != UNSTATED {
            *anchored = false;
            *reads = Some(top.to_string());
        }
    }
    held(catalog, decision)
}

/// The value `key` stands for as `arg`'s, read as the argument's own answer would read it.
fn value_of(catalog: &Catalog, decision: &Decision, arg: &str, key: &str) -> Option<Value> {
    let reflex = catalog.get(decision.reflex.as_deref()?)?;
    let arg = reflex.manifest.args.iter().find(|a| a.name == arg)?;
    match crate::decide::read_value(reflex, arg, key, &[]) {
        crate::decide::Read::Value(value @ (Value::Option { .. } | Value::Word { .. })) => Some(value),
        _ => None,
    }
}

/// The basis of `arg`, to write what its words read alone into.
fn view_of<'d>(decision: &'d mut Decision, arg: &str) -> Option<&'d mut Basis> {
    decision.basis.as_mut()?.0.iter_mut().find(|(a, _)| a == arg).map(|(_, b)| b)
}

/// A complete call held for a yes for each value whose words, read alone, name another key, and for each
/// value read from words alone: the engine's question, reading them in the sentence, named no value, and
/// only the sentence can say what they are there for (`the room by the office`).
fn held(catalog: &Catalog, decision: Decision) -> Decision {
    let one_view = |arg: &String, words: &Vec<String>, reads: &String| Because::OneView {
        arg: arg.clone(),
        words: words.clone(),
        reads: Some(reads.clone()),
    };
    let args = decision.args.clone().unwrap_or_default();
    let waits: Vec<Because> = decision
        .basis
        .iter()
        .flat_map(|b| &b.0)
        .filter_map(|(arg, basis)| match basis {
            Basis::View { words, reads: Some(reads), .. } => Some(one_view(arg, words, reads)),
            Basis::Words { words, .. } => Some(one_view(arg, words, &args.get(arg)?.shown().to_string())),
            _ => None,
        })
        .collect();
    waits.into_iter().fold(decision, |d, because| crate::decide::held_for(catalog, &d, because))
}

/// A call settled again after a person gave values (`given`), with what its words read alone when it was
/// first decided: each value the person did not give that stands on the same words keeps `anchored` and
/// `reads`, and a call they read otherwise for still waits for a yes.
pub fn carried(catalog: &Catalog, prior: &Decision, settled: Decision, given: &[String]) -> Decision {
    let mut settled = settled;
    for (arg, basis) in prior.basis.iter().flat_map(|b| &b.0) {
        if given.contains(arg) {
            continue;
        }
        match (basis, view_of(&mut settled, arg)) {
            (
                Basis::View { words, anchored, reads, .. },
                Some(Basis::View { words: now, anchored: a, reads: r, .. }),
            ) if now == words => {
                *a = *anchored;
                r.clone_from(reads);
            }
            // A value read from words alone stands on them still: the words name it aloud, which reads as a
            // second view, but the engine's question named no value there.
            (Basis::Words { .. }, Some(now)) => *now = basis.clone(),
            _ => {}
        }
    }
    held(catalog, settled)
}
