//! Leaf schemas (`schema` in the grammar): their canonical shape, the check of a model's answer against them, the
//! JSON Schema a structured-output provider is given, and whether evoke's closed engines can answer them.

use crate::span::Span;
use serde_json::{Map, Value, json};

/// The largest list a leaf may answer. A longer answer is a misfit, refused before it is journaled.
pub const MAX_LIST_ITEMS: usize = 1_000;

/// Where a model's answer does not fit its leaf's schema: the place (`answer.kind`, `answer.items[2]`) and
/// what is wrong there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{at} {fault}")]
pub struct Misfit {
    pub at: String,
    pub fault: MisfitFault,
}

/// What is wrong at one place of an answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MisfitFault {
    #[error("is not an object")]
    NotAnObject,
    #[error("has a field `{0}` the schema does not declare")]
    Undeclared(String),
    #[error("lacks the field `{0}`")]
    Lacks(String),
    #[error("is null but not optional")]
    Null,
    #[error("is not text")]
    NotText,
    #[error("is not a number")]
    NotANumber,
    #[error("is not true or false")]
    NotABool,
    #[error("is not a date written YYYY-MM-DD")]
    NotADate,
    /// Not one of the enum's cases, listed.
    #[error("is not one of {}", .0.join(", "))]
    NotACase(Vec<String>),
    #[error("is not a list")]
    NotAList,
    #[error("has {0} items, more than {MAX_LIST_ITEMS}")]
    TooManyItems(usize),
}

fn misfit(at: &str, fault: MisfitFault) -> Misfit {
    Misfit { at: at.to_string(), fault }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Schema {
    Record { fields: Vec<Field>, span: Span },
    Scalar(Scalar),
}

/// `name: type` in a record schema; `span` is the name's.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub name: String,
    pub span: Span,
    pub scalar: Scalar,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Scalar {
    pub kind: Kind,
    pub optional: bool,
    pub span: Span,
}

/// The scalar kinds after aliasing: `string` → text, `int`/`integer`/`float` → number, `boolean` → bool.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Text,
    Number,
    Bool,
    Date,
    User,
    Enum(Vec<String>),
    List(Box<Schema>),
}

impl Schema {
    pub fn span(&self) -> Span {
        match self {
            Schema::Record { span, .. } => *span,
            Schema::Scalar(s) => s.span,
        }
    }

    /// One text per shape, spans and aliases aside: two declarations agree exactly when these are equal.
    pub fn shape(&self) -> String {
        match self {
            Schema::Record { fields, .. } => {
                let inner: Vec<String> = fields.iter().map(|f| format!("{}:{}", f.name, f.scalar.shape())).collect();
                format!("{{{}}}", inner.join(","))
            }
            Schema::Scalar(s) => s.shape(),
        }
    }

    /// Checks a model's answer. The error says what does not fit, for the fault the runtime raises.
    pub fn validate(&self, value: &Value) -> Result<(), Misfit> {
        self.validate_at(value, "answer")
    }

    fn validate_at(&self, value: &Value, at: &str) -> Result<(), Misfit> {
        match self {
            Schema::Scalar(s) => s.validate_at(value, at),
            Schema::Record { fields, .. } => {
                let Value::Object(map) = value else { return Err(misfit(at, MisfitFault::NotAnObject)) };
                for key in map.keys() {
                    if !fields.iter().any(|f| f.name == *key) {
                        return Err(misfit(at, MisfitFault::Undeclared(key.clone())));
                    }
                }
                for Field { name, scalar, .. } in fields {
                    match map.get(name) {
                        None if scalar.optional => {}
                        None => return Err(misfit(at, MisfitFault::Lacks(name.clone()))),
                        Some(v) => scalar.validate_at(v, &format!("{at}.{name}"))?,
                    }
                }
                Ok(())
            }
        }
    }

    /// The JSON Schema of this leaf's answer, strict: every field required, no others allowed (an optional
    /// field is required but may be null, the form strict structured output asks for).
    pub fn json_schema(&self) -> Value {
        match self {
            Schema::Scalar(s) => s.json_schema(),
            Schema::Record { fields, .. } => {
                let mut properties = Map::new();
                for Field { name, scalar, .. } in fields {
                    properties.insert(name.clone(), scalar.json_schema());
                }
                let required: Vec<&String> = fields.iter().map(|f| &f.name).collect();
                json!({ "type": "object", "properties": properties, "required": required, "additionalProperties": false })
            }
        }
    }

    /// Whether every field is a closed choice or a span of the input, so evoke's engines can answer it
    /// without minting a value. A list is not: how many items there are is itself a generated answer.
    pub fn is_closed(&self) -> bool {
        match self {
            Schema::Scalar(s) => s.is_closed(),
            Schema::Record { fields, .. } => fields.iter().all(|f| f.scalar.is_closed()),
        }
    }
}

impl Scalar {
    pub fn shape(&self) -> String {
        let base = match &self.kind {
            Kind::Text => "text".to_string(),
            Kind::Number => "number".to_string(),
            Kind::Bool => "bool".to_string(),
            Kind::Date => "date".to_string(),
            Kind::User => "user".to_string(),
            Kind::Enum(cases) => format!("enum({})", cases.join(",")),
            Kind::List(inner) => format!("list<{}>", inner.shape()),
        };
        if self.optional { format!("{base}?") } else { base }
    }

    fn is_closed(&self) -> bool {
        !matches!(self.kind, Kind::List(_))
    }

    fn validate_at(&self, value: &Value, at: &str) -> Result<(), Misfit> {
        if value.is_null() {
            return if self.optional { Ok(()) } else { Err(misfit(at, MisfitFault::Null)) };
        }
        match &self.kind {
            Kind::Text | Kind::User => value.as_str().map(|_| ()).ok_or_else(|| misfit(at, MisfitFault::NotText)),
            Kind::Number => match value.as_f64() {
                Some(n) if n.is_finite() => Ok(()),
                _ => Err(misfit(at, MisfitFault::NotANumber)),
            },
            Kind::Bool => value.as_bool().map(|_| ()).ok_or_else(|| misfit(at, MisfitFault::NotABool)),
            Kind::Date => match value.as_str() {
                Some(text) if is_date(text) => Ok(()),
                _ => Err(misfit(at, MisfitFault::NotADate)),
            },
            Kind::Enum(cases) => match value.as_str() {
                Some(text) if cases.iter().any(|c| c == text) => Ok(()),
                _ => Err(misfit(at, MisfitFault::NotACase(cases.clone()))),
            },
            Kind::List(inner) => {
                let Value::Array(items) = value else { return Err(misfit(at, MisfitFault::NotAList)) };
                if items.len() > MAX_LIST_ITEMS {
                    return Err(misfit(at, MisfitFault::TooManyItems(items.len())));
                }
                for (i, item) in items.iter().enumerate() {
                    inner.validate_at(item, &format!("{at}[{i}]"))?;
                }
                Ok(())
            }
        }
    }

    fn json_schema(&self) -> Value {
        let base = match &self.kind {
            Kind::Text | Kind::User => json!({ "type": "string" }),
            Kind::Number => json!({ "type": "number" }),
            Kind::Bool => json!({ "type": "boolean" }),
            Kind::Date => json!({ "type": "string", "description": "a date, YYYY-MM-DD" }),
            Kind::Enum(cases) => json!({ "type": "string", "enum": cases }),
            Kind::List(inner) => json!({ "type": "array", "items": inner.json_schema() }),
        };
        if self.optional { json!({ "anyOf": [base, { "type": "null" }] }) } else { base }
    }
}

/// `YYYY-MM-DD` with a month and a day that exist in that month.
fn is_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
        return false;
    }
    let num =
        |r: std::ops::Range<usize>| text.get(r).filter(|s| s.bytes().all(|b| b.is_ascii_digit()))?.parse::<u32>().ok();
    let (Some(year), Some(month), Some(day)) = (num(0..4), num(5..7), num(8..10)) else { return false };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scalar(kind: Kind, optional: bool) -> Scalar {
        Scalar { kind, optional, span: Span::default() }
    }

    fn classify() -> Schema {
        let kind = scalar(Kind::Enum(vec!["bug".into(), "question".into(), "churn".into()]), false);
        let due = scalar(Kind::Date, true);
        let field = |name: &str, scalar| Field { name: name.into(), span: Span::default(), scalar };
        Schema::Record { fields: vec![field("kind", kind), field("due", due)], span: Span::default() }
    }

    #[test]
    fn an_answer_that_fits_passes() {
        assert_eq!(classify().validate(&json!({"kind": "bug"})), Ok(()));
        assert_eq!(classify().validate(&json!({"kind": "churn", "due": "2024-02-29"})), Ok(()));
    }

    #[test]
    fn a_misfit_names_what_does_not_fit() {
        let not_a_case = classify().validate(&json!({"kind": "feature"})).unwrap_err();
        let cases = vec!["bug".to_string(), "question".into(), "churn".into()];
        assert_eq!(not_a_case, misfit("answer.kind", MisfitFault::NotACase(cases)));
        assert_eq!(not_a_case.to_string(), "answer.kind is not one of bug, question, churn");
        let not_a_date = classify().validate(&json!({"kind": "bug", "due": "2023-02-29"})).unwrap_err();
        assert_eq!(not_a_date, misfit("answer.due", MisfitFault::NotADate));
        assert_eq!(not_a_date.to_string(), "answer.due is not a date written YYYY-MM-DD");
        let undeclared = classify().validate(&json!({"kind": "bug", "x": 1})).unwrap_err();
        assert_eq!(undeclared, misfit("answer", MisfitFault::Undeclared("x".into())));
        assert_eq!(undeclared.to_string(), "answer has a field `x` the schema does not declare");
        let lacks = classify().validate(&json!({})).unwrap_err();
        assert_eq!(lacks, misfit("answer", MisfitFault::Lacks("kind".into())));
        assert_eq!(lacks.to_string(), "answer lacks the field `kind`");
    }

    #[test]
    fn shapes_ignore_spans_and_aliases_are_resolved_before() {
        assert_eq!(classify().shape(), "{kind:enum(bug,question,churn),due:date?}");
        let list = Schema::Scalar(scalar(Kind::List(Box::new(classify())), false));
        assert_eq!(list.shape(), "list<{kind:enum(bug,question,churn),due:date?}>");
        assert!(classify().is_closed());
        assert!(!list.is_closed());
    }
}
