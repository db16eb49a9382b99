//! The syntax tree of Expresso's grammar. Every node carries the span of the source it was read from.

use crate::schema::Schema;
use crate::span::Span;

/// A word or dotted name as written, with its span.
#[derive(Debug, Clone, PartialEq)]
pub struct Name {
    pub text: String,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Program {
    pub leaves: Vec<LeafDecl>,
    pub agents: Vec<Agent>,
}

/// `leaf name(param: Span) -> schema { prompt "…" }`, or an inline `leaf` in an expression.
#[derive(Debug, Clone, PartialEq)]
pub struct LeafDecl {
    pub name: Name,
    pub param: Option<Name>,
    pub schema: Schema,
    pub prompt: Option<String>,
    pub span: Span,
    pub inline: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Agent {
    pub name: Name,
    pub grants: Vec<Name>,
    /// The `grants { … }` block, when there is one.
    pub grants_span: Option<Span>,
    pub ceiling: Option<(Grade, Span)>,
    pub voice: Option<(String, Span)>,
    pub avatar: Option<(Avatar, Span)>,
    pub home: Option<Home>,
    pub memory: Vec<Memory>,
    pub behaviors: Vec<Behavior>,
    pub span: Span,
}

/// A ceiling (`at most pure|model|world`) is a point of the effect lattice.
pub use crate::effect::Effect as Grade;

#[derive(Debug, Clone, PartialEq)]
pub enum Avatar {
    Initials,
    Image(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Meeting,
    Channel,
}

/// `lives in meeting|meetings|channel [#tag]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Home {
    pub place: Place,
    pub tag: Option<String>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    Str(String),
    Num(f64),
    Bool(bool),
    Dur(u64),
}

/// `memory name = literal`.
#[derive(Debug, Clone, PartialEq)]
pub struct Memory {
    pub name: Name,
    pub value: Literal,
    pub span: Span,
}

/// `on trigger { … }`; `ordinal` is its place among the agent's behaviors, from 0.
#[derive(Debug, Clone, PartialEq)]
pub struct Behavior {
    pub ordinal: usize,
    pub trigger: Trigger,
    pub body: Block,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Starts,
    Ends,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Trigger {
    Says {
        matcher: Match,
        span: Span,
    },
    Message {
        tag: Option<String>,
        matcher: Option<Match>,
        span: Span,
    },
    Silence {
        millis: u64,
        span: Span,
    },
    Meeting {
        phase: Phase,
        span: Span,
    },
    Schedule {
        name: String,
        span: Span,
    },
    /// `on receipt ["capability or verb"]`: what came back of the agent's own action.
    Receipt {
        filter: Option<String>,
        span: Span,
    },
}

impl Trigger {
    pub fn span(&self) -> Span {
        match self {
            Trigger::Says { span, .. }
            | Trigger::Message { span, .. }
            | Trigger::Silence { span, .. }
            | Trigger::Meeting { span, .. }
            | Trigger::Schedule { span, .. }
            | Trigger::Receipt { span, .. } => *span,
        }
    }

    pub fn matcher(&self) -> Option<&Match> {
        match self {
            Trigger::Says { matcher, .. } => Some(matcher),
            Trigger::Message { matcher, .. } => matcher.as_ref(),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Match {
    /// `/re/`: PURE.
    Regex { pattern: String, span: Span },
    /// `~"phrase"`: MODEL, journaled at `<site>/trigger`.
    Fuzzy { phrase: String, span: Span },
}

pub type Block = Vec<Stmt>;

#[derive(Debug, Clone, PartialEq)]
pub enum Stmt {
    Let { name: Name, value: Expr, span: Span },
    If { cond: Expr, then: Block, otherwise: Option<Block>, span: Span },
    For { var: Name, list: Expr, body: Block, span: Span },
    Remember { name: Name, add: bool, value: Expr, span: Span },
    Action(Action),
}

/// A world effect. `ordinal` is its leaf ordinal in the behavior (as the identities are built); `id`,
/// when the author gave one (`id "create-bug"`), takes the ordinal's place in its keys.
#[derive(Debug, Clone, PartialEq)]
pub struct Action {
    pub verb: Name,
    /// The capability it needs (`create_task` → `tasks.create`).
    pub cap: String,
    /// The arguments, keyed: positional ones by the key they stand for (`create_task` → `title`).
    pub args: Vec<(Name, Expr)>,
    pub ordinal: usize,
    pub id: Option<Name>,
    pub span: Span,
}

impl Action {
    /// The part of its leaf path that names it in its behavior: its stable id, else its ordinal.
    pub fn key_part(&self) -> KeyPart<'_> {
        KeyPart::of(self.ordinal, self.id.as_ref())
    }
}

/// The part of a leaf path that names a leaf or an action in its behavior (`site/PART/name`): the
/// author's stable id when there is one (`id "create-bug"`), else the leaf ordinal. It prints as the key
/// writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyPart<'a> {
    Ordinal(usize),
    Id(&'a str),
}

impl<'a> KeyPart<'a> {
    pub fn of(ordinal: usize, id: Option<&'a Name>) -> KeyPart<'a> {
        match id {
            Some(id) => KeyPart::Id(&id.text),
            None => KeyPart::Ordinal(ordinal),
        }
    }
}

impl std::fmt::Display for KeyPart<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeyPart::Ordinal(n) => write!(f, "{n}"),
            KeyPart::Id(id) => f.write_str(id),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum StrPart {
    Lit(String),
    Interp(Expr),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Gt,
    Lt,
    Ge,
    Le,
    Contains,
}

impl BinOp {
    pub fn as_str(self) -> &'static str {
        match self {
            BinOp::Or => "or",
            BinOp::And => "and",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Gt => ">",
            BinOp::Lt => "<",
            BinOp::Ge => ">=",
            BinOp::Le => "<=",
            BinOp::Contains => "contains",
        }
    }
}

/// A span of the conversation a model reads (`span` in the grammar).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpanRef {
    Meeting,
    Recent,
    Last(u64),
    HereToEndOfTurn,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    Str(Vec<StrPart>),
    Num(f64),
    Bool(bool),
    Dur(u64),
    Tag(String),
    /// `.speaker`, `.match.1`: the path after the leading dot.
    Binding(Vec<String>),
    /// A let-variable, a memory, a frame (`transcript`, `meeting`), a loop variable, or, compared with an
    /// enum, one of its cases.
    Var(String),
    Field(Box<Expr>, Name),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// A span as a leaf's or `summarize`'s argument.
    SpanOf(SpanRef),
    /// `summarize(span)`: MODEL, leaf name `summarize`. `id` as on [`Action`].
    Summarize {
        arg: Box<Expr>,
        ordinal: usize,
        id: Option<Name>,
    },
    /// A typed leaf call, declared at the top or inline (`leaf name(arg) -> schema`). `id` as on
    /// [`Action`].
    Leaf {
        name: Name,
        arg: Box<Expr>,
        ordinal: usize,
        id: Option<Name>,
    },
}
