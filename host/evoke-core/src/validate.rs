//! Answer validation: every answer is checked against the questions asked, and any
//! fault ends the decision. Nothing runs on an answer that did not validate.

use crate::adapter::Raw;
use crate::question::{NO, Question, QuestionId, Questions, YES};
use serde::Serialize;
use std::collections::BTreeMap;

/// How far a choice's probabilities may sum from 1: engines round, and two-decimal recordings must read.
pub const SUM_TOLERANCE: f64 = 0.01;

/// A validated answer: every key offered, in the order offered, with its probability (omitted keys 0).
#[derive(Debug, Clone, PartialEq)]
pub struct Distribution(pub Vec<(String, f64)>);

impl Distribution {
    /// The most probable key; a tie goes to the key offered first.
    pub fn top(&self) -> (&str, f64) {
        let mut best: Option<(&str, f64)> = None;
        for (key, p) in &self.0 {
            if best.is_none_or(|(_, b)| *p > b) {
                best = Some((key, *p));
            }
        }
        best.unwrap_or(("", 0.0))
    }

    pub fn p(&self, key: &str) -> f64 {
        self.0.iter().find(|(k, _)| k == key).map_or(0.0, |(_, p)| *p)
    }

    /// Keys by descending probability, ties in the order offered.
    pub fn ranked(&self) -> Vec<(&str, f64)> {
        let mut ranked: Vec<(&str, f64)> = self.0.iter().map(|(k, p)| (k.as_str(), *p)).collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        ranked
    }
}

/// Validated answers by question id.
pub type Answers = BTreeMap<QuestionId, Distribution>;

/// Why an answer was refused.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AnswerFault {
    /// A question asked was left unanswered.
    Unanswered { question: QuestionId },
    /// An answer to a question that was not asked: the engine's text, which need not be an id at all.
    Unasked { question: String },
    /// A key that the question did not offer.
    NotOffered { question: QuestionId, key: String },
    /// A number that is not a probability: negative, over 1, or not a number at all.
    NotProbability { question: QuestionId, key: String, value: String },
    /// A choice whose probabilities do not sum to 1 (within [`SUM_TOLERANCE`]).
    NotDistribution { question: QuestionId, sum: f64 },
}

impl std::fmt::Display for AnswerFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnswerFault::Unanswered { question } => write!(f, "the engine left {question} unanswered"),
            AnswerFault::Unasked { question } => write!(f, "the engine answered {question}, which was not asked"),
            AnswerFault::NotOffered { question, key } => {
                write!(f, "the engine's answer to {question} names \"{key}\", which was not offered")
            }
            AnswerFault::NotProbability { question, key, value } => {
                write!(f, "the engine's answer to {question} gives \"{key}\" {value}, which is not a probability")
            }
            AnswerFault::NotDistribution { question, sum } => {
                write!(f, "the engine's answer to {question} sums to {sum}, not 1")
            }
        }
    }
}

/// Checks `raw` against `questions`, failing closed on the first fault in question order.
pub fn validate(questions: &Questions, raw: &Raw) -> Result<Answers, AnswerFault> {
    // The engine answers under the ids' texts; each asked id is written once and the answers found by it,
    // so a text is never read back into an id it might not round-trip to.
    let asked: Vec<String> = questions.ids().map(QuestionId::to_string).collect();
    for text in raw.keys() {
        if !asked.contains(text) {
            return Err(AnswerFault::Unasked { question: text.clone() });
        }
    }
    let mut answers = Answers::new();
    for ((id, question), text) in questions.0.iter().zip(&asked) {
        let Some(given) = raw.get(text) else {
            return Err(AnswerFault::Unanswered { question: id.clone() });
        };
        let offered = question.keys();
        // One look-up per key offered reads the distribution and counts the keys given that were offered;
        // only when the counts differ is the stranger looked for.
        let mut found = 0;
        let read: Vec<(String, f64)> = offered
            .iter()
            .map(|k| {
                let p = given.get(*k).copied();
                found += usize::from(p.is_some());
                (k.to_string(), p.unwrap_or(0.0))
            })
            .collect();
        if found != given.len() {
            let stranger = given.keys().find(|k| !offered.contains(&k.as_str())).cloned().unwrap_or_default();
            return Err(AnswerFault::NotOffered { question: id.clone(), key: stranger });
        }
        for (key, p) in given {
            if !(0.0..=1.0).contains(p) {
                return Err(AnswerFault::NotProbability {
                    question: id.clone(),
                    key: key.clone(),
                    value: p.to_string(),
                });
            }
        }
        let distribution = match question {
            Question::Yesno { .. } => {
                let Some(&yes) = given.get(YES) else {
                    return Err(AnswerFault::Unanswered { question: id.clone() });
                };
                if let Some(&no) = given.get(NO) {
                    let sum = yes + no;
                    if (sum - 1.0).abs() > SUM_TOLERANCE {
                        return Err(AnswerFault::NotDistribution { question: id.clone(), sum });
                    }
                }
                Distribution(vec![(YES.into(), yes), (NO.into(), 1.0 - yes)])
            }
            Question::Choice { .. } => {
                let sum: f64 = given.values().sum();
                if (sum - 1.0).abs() > SUM_TOLERANCE {
                    return Err(AnswerFault::NotDistribution { question: id.clone(), sum });
                }
                Distribution(read)
            }
        };
        answers.insert(id.clone(), distribution);
    }
    Ok(answers)
}
