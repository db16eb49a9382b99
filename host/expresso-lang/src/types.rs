//! The types the checker gives expressions. Optional fields type as their base: a null reads as absent
//! text, and comparisons against it are false rather than an error.

use crate::schema::{Kind, Schema};

#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    Text,
    Number,
    Bool,
    Date,
    User,
    Duration,
    Tag,
    /// A span of the conversation: what a leaf reads.
    Span,
    Enum(Vec<String>),
    List(Box<Ty>),
    Record(Vec<(String, Ty)>),
    /// An unbound word: one of an enum's cases where it is compared with that enum, an error elsewhere.
    Symbol(String),
    /// Nothing is known (an error already reported): accepted everywhere so one mistake is reported once.
    Unknown,
}

impl Ty {
    pub fn of_schema(schema: &Schema) -> Ty {
        match schema {
            Schema::Record { fields, .. } => {
                Ty::Record(fields.iter().map(|f| (f.name.clone(), Ty::of_kind(&f.scalar.kind))).collect())
            }
            Schema::Scalar(s) => Ty::of_kind(&s.kind),
        }
    }

    fn of_kind(kind: &Kind) -> Ty {
        match kind {
            Kind::Text => Ty::Text,
            Kind::Number => Ty::Number,
            Kind::Bool => Ty::Bool,
            Kind::Date => Ty::Date,
            Kind::User => Ty::User,
            Kind::Enum(cases) => Ty::Enum(cases.clone()),
            Kind::List(inner) => Ty::List(Box::new(Ty::of_schema(inner))),
        }
    }

    /// How a diagnostic names the type.
    pub fn name(&self) -> String {
        match self {
            Ty::Text => "text".into(),
            Ty::Number => "number".into(),
            Ty::Bool => "bool".into(),
            Ty::Date => "date".into(),
            Ty::User => "user".into(),
            Ty::Duration => "duration".into(),
            Ty::Tag => "tag".into(),
            Ty::Span => "Span".into(),
            Ty::Enum(cases) => format!("enum({})", cases.join(", ")),
            Ty::List(inner) => format!("list<{}>", inner.name()),
            Ty::Record(fields) => {
                let inner: Vec<String> = fields.iter().map(|(n, t)| format!("{n}: {}", t.name())).collect();
                format!("{{ {} }}", inner.join(", "))
            }
            Ty::Symbol(s) => format!("the unbound name `{s}`"),
            Ty::Unknown => "unknown".into(),
        }
    }

    /// Whether a leaf can read a value of this type as its span.
    pub fn is_textual(&self) -> bool {
        matches!(self, Ty::Text | Ty::User | Ty::Span | Ty::Unknown)
    }
}
