//! 003's `anchored`. A value that stands on one view was read from words that name no key of its
//! argument (`douse` read as `off`): the read-back only counted that those words were left for it. So its
//! argument's question is asked again of those words alone (`weave.alone_<start>_<end>_<reflex>__<arg>`).
//! Where the words alone name the value, its basis is `anchored`. Where they name another key of the
//! argument, the two readings disagree and the call waits for a yes (`one_view`, with what the words read
//! alone). Where they name nothing, the value stands as it was read. The answer never makes a value surer:
//! it joins no judgment.

use crate::catalog::Catalog;
use crate::decision::{Basis, Because, Decision, Outcome, Value};
use crate::question::{NONE, Question, Questions, UNSTATED};
use crate::question_id::QuestionId;
use crate::readback::Does;
use crate::recognize::Span;
use crate::validate::Answers;

/// One value to anchor: its argument, its key, and the words it was read from.
#[derive(Debug, Clone, PartialEq)]
pub struct Anchor {
    pub arg: String,
    pub key: String,
    pub words: Span,
    pub id: QuestionId,
}

/// The values of a complete call to anchor: each option or vocabulary value whose basis is `view` and
/// whose words the read-back found, one per run of those words.
pub fn anchors(decision: &Decision) -> Vec<Anchor> {
    if !matches!(decision.outcome, Outcome::Run | Outcome::Confirm) {
        return Vec::new();
    }
    let (Some(reflex), Some(args), Some(bases)) = (&decision.reflex, &decision.args, &decision.basis) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for (arg, basis) in &bases.0 {
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
            found.push(Anchor { arg: arg.clone(), key: key.clone(), words: left.words.clone(), id });
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

/// The decision with each anchor's answer read: `anchored` on a value its words alone name, and the call
/// held for a yes (`one_view`) where they name another key. An anchor left unanswered changes nothing.
pub fn apply(catalog: &Catalog, decision: Decision, anchors: &[Anchor], answers: &Answers) -> Decision {
    let mut decision = decision;
    let mut disagree: Vec<(String, Vec<String>, String)> = Vec::new();
    for anchor in anchors {
        let Some(answer) = answers.get(&anchor.id) else { continue };
        let (top, _) = answer.top();
        if top == anchor.key {
            if let Some(Basis::View { anchored, .. }) =
                decision.basis.as_mut().and_then(|b| b.0.iter_mut().find(|(a, _)| *a == anchor.arg)).map(|(_, b)| b)
            {
                *anchored = true;
            }
        } else if top != NONE && top != UNSTATED {
            disagree.push((anchor.arg.clone(), vec![anchor.words.text.clone()], top.to_string()));
        }
    }
    for (arg, words, reads) in disagree {
        // Its words, read alone, name another value: the value is no longer anchored by any run.
        if let Some(Basis::View { anchored, .. }) =
            decision.basis.as_mut().and_then(|b| b.0.iter_mut().find(|(a, _)| *a == arg)).map(|(_, b)| b)
        {
            *anchored = false;
        }
        decision = crate::decide::held_for(catalog, &decision, Because::OneView { arg, words, reads: Some(reads) });
    }
    decision
}
