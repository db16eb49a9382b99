//! A leaf request as evoke's closed questions, and an engine's answers read back as the leaf's value.

use crate::dates;
use evoke_core::adapter::Raw;
use evoke_core::question::{Options, Question, QuestionId, Questions, Text, UNSTATED};
use evoke_core::recognize::{PickKind, PickValue, candidates_at};
use expresso_lang::schema::{Kind, Scalar, Schema};
use expresso_runtime::{LeafRequest, RequestKind};
use serde_json::{Map, Value};

/// How one question's answer becomes a field's value.
#[derive(Debug, Clone, PartialEq)]
enum Read {
    /// A choice: each offered key and the value it stands for (`unstated` → null).
    Choice(Vec<(String, Value)>),
    YesNo,
    /// No candidate for an optional field: null, nothing asked.
    Null,
}

/// The questions of one leaf and how to read their answers.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub questions: Questions,
    /// Per field (`None` for a scalar leaf): its question id and how to read it.
    reads: Vec<(Option<String>, QuestionId, Read)>,
}

/// Why a closed engine cannot answer a leaf, or did not: each names the leaf or the question.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unanswerable {
    #[error("summarize writes free text, which needs a generative provider (openai)")]
    Summarize,
    /// A list leaf: how many items there are is itself a generated answer.
    #[error("`{what}` is a list, which needs a generative provider (openai)")]
    List { what: String },
    /// The text holds no span of the field's kind to choose among.
    #[error("the text holds no {kind} for `{what}`, and a closed engine cannot make one up")]
    NoSpan { kind: &'static str, what: String },
    #[error("the engine did not answer `{id}`")]
    NotAnswered { id: QuestionId },
}

/// Plans a leaf, or says why a closed engine cannot answer it.
pub fn plan(request: &LeafRequest) -> Result<Plan, Unanswerable> {
    let mut plan = Plan { questions: Questions::default(), reads: Vec::new() };
    match request.kind {
        RequestKind::Summarize => {
            return Err(Unanswerable::Summarize);
        }
        RequestKind::Match => {
            let phrase = request.prompt.unwrap_or("");
            let question = Question::Yesno {
                ask: format!("Does the message match: {phrase}?"),
                yes: Text::Plain(phrase.to_string()),
                no: Text::Plain("Something else.".into()),
            };
            plan.push(None, QuestionId::Leaf { name: "match".into() }, question, Read::YesNo);
            return Ok(plan);
        }
        RequestKind::Leaf => {}
    }
    match request.schema {
        Schema::Scalar(scalar) => plan.field(request, None, scalar)?,
        Schema::Record { fields, .. } => {
            for field in fields {
                plan.field(request, Some(&field.name), &field.scalar)?;
            }
        }
    }
    Ok(plan)
}

impl Plan {
    fn push(&mut self, field: Option<String>, id: QuestionId, question: Question, read: Read) {
        self.questions.0.push((id.clone(), question));
        self.reads.push((field, id, read));
    }

    fn field(&mut self, request: &LeafRequest, name: Option<&String>, scalar: &Scalar) -> Result<(), Unanswerable> {
        let id = match name {
            Some(n) => QuestionId::arg(request.leaf, n),
            None => QuestionId::Leaf { name: request.leaf.to_string() },
        };
        let what = name.cloned().unwrap_or_else(|| request.leaf.to_string());
        let ask = match request.prompt {
            Some(prompt) => format!("{prompt} Which {what}?"),
            None => format!("Which {what} does the text state?"),
        };
        let mut options: Vec<(String, Text)> = Vec::new();
        let mut values: Vec<(String, Value)> = Vec::new();
        match &scalar.kind {
            Kind::Enum(cases) => {
                for case in cases {
                    options.push((case.clone(), Text::Plain(case.replace('_', " "))));
                    values.push((case.clone(), Value::String(case.clone())));
                }
            }
            Kind::Bool => {
                let question = Question::Yesno {
                    ask: format!("Is it {what}?"),
                    yes: Text::Plain(what.replace('_', " ")),
                    no: Text::Plain(format!("not {}", what.replace('_', " "))),
                };
                self.push(name.cloned(), id, question, Read::YesNo);
                return Ok(());
            }
            Kind::Number | Kind::Date | Kind::Text | Kind::User => {
                let kind = match scalar.kind {
                    Kind::Number => PickKind::Number,
                    Kind::Date => PickKind::Date,
                    _ => PickKind::Text,
                };
                for candidate in candidates_at(request.input, kind, dates::today(request.t_event)) {
                    let value = match &candidate.value {
                        PickValue::Number(n) => expresso_runtime::value::number(*n),
                        PickValue::Date(reading) => match dates::written(reading, request.t_event) {
                            Some(day) => Value::String(day),
                            None => continue,
                        },
                        PickValue::Text(t) => Value::String(t.clone()),
                        _ => continue,
                    };
                    options.push((candidate.span.key(), Text::Plain(candidate.span.text.clone())));
                    values.push((candidate.span.key(), value));
                }
                if options.is_empty() {
                    if scalar.optional {
                        self.reads.push((name.cloned(), id, Read::Null));
                        return Ok(());
                    }
                    return Err(Unanswerable::NoSpan { kind: kind.as_str(), what: what.clone() });
                }
            }
            Kind::List(_) => {
                return Err(Unanswerable::List { what: what.clone() });
            }
        }
        let otherwise = if scalar.optional {
            options.push((UNSTATED.into(), Text::Plain("The text does not say.".into())));
            values.push((UNSTATED.into(), Value::Null));
            Some(UNSTATED.to_string())
        } else {
            None
        };
        let question = Question::Choice { ask, options: Options(options), otherwise };
        self.push(name.cloned(), id, question, Read::Choice(values));
        Ok(())
    }

    /// The leaf's value from an engine's distributions: per question its most probable offered key.
    pub fn read(&self, raw: &Raw) -> Result<Value, Unanswerable> {
        let mut record = Map::new();
        let mut scalar = Value::Null;
        for (field, id, read) in &self.reads {
            let value = match read {
                Read::Null => Value::Null,
                Read::YesNo => {
                    let p = raw
                        .get(&id.to_string())
                        .and_then(|d| d.get("yes"))
                        .ok_or_else(|| Unanswerable::NotAnswered { id: id.clone() })?;
                    Value::Bool(*p >= 0.5)
                }
                Read::Choice(values) => {
                    let distribution =
                        raw.get(&id.to_string()).ok_or_else(|| Unanswerable::NotAnswered { id: id.clone() })?;
                    let mut best: Option<(&Value, f64)> = None;
                    for (key, value) in values {
                        let p = distribution.get(key).copied().unwrap_or(0.0);
                        if best.is_none_or(|(_, b)| p > b) {
                            best = Some((value, p));
                        }
                    }
                    best.map(|(v, _)| v.clone()).unwrap_or(Value::Null)
                }
            };
            match field {
                Some(name) => {
                    record.insert(name.clone(), value);
                }
                None => scalar = value,
            }
        }
        Ok(if self.reads.iter().any(|(f, _, _)| f.is_some()) { Value::Object(record) } else { scalar })
    }
}
