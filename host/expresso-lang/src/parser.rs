//! The parser of Expresso's grammar: recursive descent over the whole EBNF, spans on every node, and recovery
//! that skips to the next statement, member or item so one parse reports several errors.
//!
//! Every recursion goes through [`Parser::enter`], which refuses nesting deeper than
//! [`MAX_DEPTH`](crate::bounds::MAX_DEPTH): 10,000 parentheses are one error, not a stack overflow.

use crate::ast::*;
use crate::bounds::{MAX_DEPTH, MAX_ERRORS, MAX_ID_BYTES, MAX_REGEX_BYTES, MAX_SOURCE_BYTES};
use crate::diag::{Code, Diagnostic};
use crate::lexer::{Tok, Token, lex};
use crate::schema::{Field, Kind, Scalar, Schema};
use crate::span::Span;
use crate::strings::{Piece, pieces, plain};
use std::collections::BTreeMap;

/// A parse: the program as far as it could be read, and every diagnostic in source order.
#[derive(Debug, Clone)]
pub struct Parsed {
    pub program: Program,
    pub diagnostics: Vec<Diagnostic>,
}

/// The parse stopped at an error; the caller recovers.
struct Stop;

type PResult<T> = Result<T, Stop>;

const MEMBER_STARTS: [&str; 7] = ["grants", "at", "voice", "avatar", "lives", "memory", "on"];
const STMT_STARTS: [&str; 14] = [
    "let",
    "if",
    "for",
    "remember",
    "create_task",
    "create_note",
    "say",
    "reply",
    "react",
    "notify",
    "tasks",
    "notes",
    "notify",
    "message",
];
const DOTTED_ACTIONS: [&str; 4] = ["tasks.create", "notes.create", "notify.send", "message.send"];
/// The verbs followed by an expression, which may be a binding (`say .message`).
const EXPR_VERBS: [&str; 4] = ["create_task", "say", "reply", "notify"];
const OPT_KEYS: [&str; 7] = ["title", "body", "to", "text", "assignee", "due", "target"];

pub fn parse(source: &str) -> Parsed {
    if source.len() > MAX_SOURCE_BYTES {
        let d = Diagnostic::new(Code::TooLarge, Span::new(0, 0), format!("the source is {} bytes", source.len()))
            .expected(format!("at most {MAX_SOURCE_BYTES} bytes"))
            .fix("split the agents over several files");
        return Parsed { program: Program::default(), diagnostics: vec![d] };
    }
    let (tokens, errors) = lex(source, 0, source.len());
    let mut parser =
        Parser { source, tokens, pos: 0, diags: errors, depth: 0, halted: false, ordinal: 0, leaves: Vec::new() };
    let mut program = parser.program();
    program.leaves = std::mem::take(&mut parser.leaves);
    parser.check_leaf_schemas(&program);
    let mut diagnostics = parser.diags;
    diagnostics.sort_by_key(|d| (d.span.start, d.span.end));
    diagnostics.truncate(MAX_ERRORS);
    Parsed { program, diagnostics }
}

struct Parser<'a> {
    source: &'a str,
    tokens: Vec<Token>,
    pos: usize,
    diags: Vec<Diagnostic>,
    depth: usize,
    /// Set when the error budget or the depth bound is spent: everything stops, nothing more is reported.
    halted: bool,
    /// The next leaf ordinal of the behavior being read (`agent#behavior/leafOrdinal`).
    ordinal: usize,
    /// Every leaf declaration, top-level and inline, in the order read.
    leaves: Vec<LeafDecl>,
}

/// What is wrong with an author's stable id, if anything: it must be 1 to [`MAX_ID_BYTES`] bytes of
/// letters, digits, `_`, `-` and `.`, so that it holds none of the separators of a key (`|`, `#`, `/`,
/// `:`) nor the escape `%`, and a key that holds it reads one way only.
pub fn id_problem(id: &str) -> Option<String> {
    if id.is_empty() {
        return Some("is empty".into());
    }
    if id.len() > MAX_ID_BYTES {
        return Some(format!("is {} bytes long", id.len()));
    }
    let bad = id.chars().find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))?;
    Some(format!("holds {}", if bad == ' ' { "a space".to_string() } else { format!("`{}`", bad.escape_debug()) }))
}

fn describe(tok: &Tok) -> String {
    match tok {
        Tok::Ident(w) => format!("`{w}`"),
        Tok::Str { .. } => "a string".into(),
        Tok::Num(_) => "a number".into(),
        Tok::Dur(_) => "a duration".into(),
        Tok::Tag(t) => format!("the tag `#{t}`"),
        Tok::Regex(_) => "a regex".into(),
        Tok::Sym(s) => format!("`{s}`"),
        Tok::Eof => "the end of the file".into(),
    }
}

impl Parser<'_> {
    // ---- tokens ----

    fn peek(&self) -> &Tok {
        &self.tokens[self.pos.min(self.tokens.len() - 1)].tok
    }

    fn peek_at(&self, n: usize) -> &Tok {
        &self.tokens[(self.pos + n).min(self.tokens.len() - 1)].tok
    }

    fn span(&self) -> Span {
        self.tokens[self.pos.min(self.tokens.len() - 1)].span
    }

    fn span_at(&self, n: usize) -> Span {
        self.tokens[(self.pos + n).min(self.tokens.len() - 1)].span
    }

    /// The end of the last token read, where a span that ends "here" ends.
    fn last_end(&self) -> usize {
        if self.pos == 0 { 0 } else { self.tokens[(self.pos - 1).min(self.tokens.len() - 1)].span.end }
    }

    fn bump(&mut self) -> Token {
        let token = self.tokens[self.pos.min(self.tokens.len() - 1)].clone();
        if self.pos < self.tokens.len() - 1 {
            self.pos += 1;
        }
        token
    }

    fn is_sym(&self, sym: &str) -> bool {
        matches!(self.peek(), Tok::Sym(s) if *s == sym)
    }

    /// A `.` written right after the token before it, with no space: it continues that token (`c.kind`,
    /// `.match.1`, `tasks.create`). After a space a `.` starts a binding instead, so an action's argument
    /// may be one (`say .message`, `notify .speaker .message`).
    fn joined_dot(&self) -> bool {
        self.is_sym(".") && self.pos > 0 && self.span().start == self.last_end()
    }

    fn is_word(&self, word: &str) -> bool {
        matches!(self.peek(), Tok::Ident(w) if w == word)
    }

    fn eat_sym(&mut self, sym: &str) -> bool {
        let hit = self.is_sym(sym);
        if hit {
            self.bump();
        }
        hit
    }

    fn eat_word(&mut self, word: &str) -> bool {
        let hit = self.is_word(word);
        if hit {
            self.bump();
        }
        hit
    }

    // ---- errors ----

    fn report(&mut self, diagnostic: Diagnostic) {
        if self.halted {
            return;
        }
        self.diags.push(diagnostic);
        if self.diags.iter().filter(|d| d.is_error()).count() >= MAX_ERRORS {
            self.halted = true;
        }
    }

    /// "expected X, found Y" at the current token.
    fn expected<T>(&mut self, what: &str, fix: &str) -> PResult<T> {
        let found = describe(self.peek());
        let d = Diagnostic::new(Code::Parse, self.span(), format!("expected {what}, found {found}"))
            .expected(what)
            .fix(fix);
        self.report(d);
        Err(Stop)
    }

    fn expect_sym(&mut self, sym: &str, fix: &str) -> PResult<Span> {
        if self.halted {
            return Err(Stop);
        }
        if self.is_sym(sym) { Ok(self.bump().span) } else { self.expected(&format!("`{sym}`"), fix) }
    }

    fn expect_word(&mut self, word: &str, fix: &str) -> PResult<Span> {
        if self.halted {
            return Err(Stop);
        }
        if self.is_word(word) { Ok(self.bump().span) } else { self.expected(&format!("`{word}`"), fix) }
    }

    fn ident(&mut self, what: &str, fix: &str) -> PResult<Name> {
        if self.halted {
            return Err(Stop);
        }
        match self.peek().clone() {
            Tok::Ident(text) => Ok(Name { text, span: self.bump().span }),
            _ => self.expected(what, fix),
        }
    }

    /// `ident { "." ident }`, as one name.
    fn dotted(&mut self, what: &str, fix: &str) -> PResult<Name> {
        let first = self.ident(what, fix)?;
        let mut text = first.text;
        let mut span = first.span;
        while self.is_sym(".") && matches!(self.peek_at(1), Tok::Ident(_)) {
            self.bump();
            let part = self.ident(what, fix)?;
            text.push('.');
            text.push_str(&part.text);
            span = span.to(part.span);
        }
        Ok(Name { text, span })
    }

    /// A plain string (no interpolation) and its span.
    fn plain_string(&mut self, what: &str, fix: &str) -> PResult<(String, Span)> {
        if self.halted {
            return Err(Stop);
        }
        match self.peek().clone() {
            Tok::Str { raw, start } => {
                let span = self.bump().span;
                match plain(&raw, start) {
                    Ok(text) => Ok((text, span)),
                    Err(d) => {
                        self.report(d);
                        Err(Stop)
                    }
                }
            }
            _ => self.expected(what, fix),
        }
    }

    /// One level deeper; refuses past the bound and halts the parse, since the rest would only echo it.
    fn enter(&mut self) -> PResult<()> {
        if self.halted {
            return Err(Stop);
        }
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let d = Diagnostic::new(Code::TooDeep, self.span(), format!("nesting deeper than {MAX_DEPTH} levels"))
                .expected(format!("at most {MAX_DEPTH} nested expressions, blocks or schemas"))
                .fix("name an inner part with `let`, or flatten the nesting");
            self.report(d);
            self.halted = true;
            return Err(Stop);
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Skips to a token that can start what the caller reads next (one of `starts` at the same brace
    /// level) or to the `}` that closes the level. Always moves at least one token unless at either.
    fn recover(&mut self, starts: &[&str]) {
        let mut level = 0usize;
        let from = self.pos;
        loop {
            match self.peek() {
                Tok::Eof => return,
                Tok::Sym("{") => level += 1,
                Tok::Sym("}") if level == 0 => return,
                Tok::Sym("}") => {
                    level -= 1;
                    if level == 0 {
                        self.bump();
                        if self.at_start(starts) {
                            return;
                        }
                        continue;
                    }
                }
                Tok::Ident(_) if level == 0 && self.pos > from && self.at_start(starts) => return,
                _ => {}
            }
            self.bump();
        }
    }

    fn at_start(&self, starts: &[&str]) -> bool {
        matches!(self.peek(), Tok::Ident(w) if starts.contains(&w.as_str()))
    }

    // ---- items ----

    fn program(&mut self) -> Program {
        let mut program = Program::default();
        while !self.halted && *self.peek() != Tok::Eof {
            let at = self.pos;
            let result = if self.is_word("leaf") {
                self.leaf_decl().map(|leaf| self.leaves.push(leaf))
            } else if self.is_word("agent") {
                self.agent().map(|agent| program.agents.push(agent))
            } else {
                self.expected("`leaf` or `agent`", "a file holds leaf declarations and agents only")
            };
            if result.is_err() {
                self.recover(&["leaf", "agent"]);
                if self.pos == at || self.is_sym("}") {
                    self.bump();
                }
            }
        }
        program
    }

    /// `leaf name(param: Span) -> schema [{ prompt "…" }]`.
    fn leaf_decl(&mut self) -> PResult<LeafDecl> {
        let start = self.expect_word("leaf", "")?;
        let name = self.dotted("a leaf name", "name the leaf, e.g. `leaf classify(s: Span) -> …`")?;
        self.expect_sym("(", "a leaf takes one parameter: `(s: Span)`")?;
        let param = self.ident("a parameter name", "a leaf takes one parameter: `(s: Span)`")?;
        self.expect_sym(":", "write the parameter's type: `(s: Span)`")?;
        self.expect_word("Span", "a leaf reads a span of the conversation: `(s: Span)`")?;
        self.expect_sym(")", "close the parameter list with `)`")?;
        self.expect_sym("->", "write the leaf's answer schema after `->`")?;
        let schema = self.schema()?;
        let mut prompt = None;
        if self.is_sym("{") && matches!(self.peek_at(1), Tok::Ident(w) if w == "prompt") {
            self.bump();
            self.bump();
            prompt = Some(self.plain_string("the prompt as a string", "write `{ prompt \"…\" }`")?.0);
            self.expect_sym("}", "close the prompt block with `}`")?;
        }
        let span = start.to(Span::new(self.last_end(), self.last_end()));
        Ok(LeafDecl { name, param: Some(param), schema, prompt, span, inline: false })
    }

    fn schema(&mut self) -> PResult<Schema> {
        self.enter()?;
        let result = self.schema_inner();
        self.leave();
        result
    }

    fn schema_inner(&mut self) -> PResult<Schema> {
        if !self.is_sym("{") {
            return Ok(Schema::Scalar(self.scalar()?));
        }
        let open = self.bump().span;
        let mut fields: Vec<Field> = Vec::new();
        loop {
            let name = self.ident("a field name", "a record schema is `{ name: type, … }`")?;
            self.expect_sym(":", "write the field's type after `:`")?;
            let scalar = self.scalar()?;
            if fields.iter().any(|f| f.name == name.text) {
                let d = Diagnostic::new(Code::Parse, name.span, format!("the field `{}` is declared twice", name.text))
                    .fix("give each field of a schema its own name");
                self.report(d);
            }
            fields.push(Field { name: name.text, span: name.span, scalar });
            self.eat_sym(",");
            if self.is_sym("}") {
                break;
            }
        }
        let close = self.bump().span;
        Ok(Schema::Record { fields, span: open.to(close) })
    }

    fn scalar(&mut self) -> PResult<Scalar> {
        let word = self.ident("a type", "use text, number, bool, date, user, enum(…) or list<…>")?;
        let kind = match word.text.as_str() {
            "text" | "string" => Kind::Text,
            "number" | "int" | "integer" | "float" => Kind::Number,
            "bool" | "boolean" => Kind::Bool,
            "date" => Kind::Date,
            "user" => Kind::User,
            "enum" => {
                self.expect_sym("(", "list the cases: `enum(a, b)`")?;
                let mut cases = vec![self.ident("a case name", "list the cases: `enum(a, b)`")?.text];
                while self.eat_sym(",") {
                    cases.push(self.ident("a case name", "list the cases: `enum(a, b)`")?.text);
                }
                self.expect_sym(")", "close the cases with `)`")?;
                let mut seen = cases.clone();
                seen.sort();
                seen.dedup();
                if seen.len() != cases.len() {
                    let d = Diagnostic::new(Code::Parse, word.span, "an enum names one case twice")
                        .fix("name each case once");
                    self.report(d);
                }
                Kind::Enum(cases)
            }
            "list" => {
                let close = if self.eat_sym("(") {
                    ")"
                } else if self.eat_sym("<") {
                    ">"
                } else {
                    return self.expected("`(` or `<`", "write the item schema: `list<{…}>` or `list(text)`");
                };
                let inner = self.schema()?;
                self.expect_sym(close, &format!("close the item schema with `{close}`"))?;
                Kind::List(Box::new(inner))
            }
            other => {
                let d = Diagnostic::new(Code::Parse, word.span, format!("`{other}` is not a type"))
                    .expected("text, number, bool, date, user, enum(…) or list<…>")
                    .fix("use one of the schema types (aliases: string, int, integer, float, boolean)");
                self.report(d);
                return Err(Stop);
            }
        };
        let optional = self.eat_sym("?");
        Ok(Scalar { kind, optional, span: word.span.to(Span::new(self.last_end(), self.last_end())) })
    }

    // ---- agents ----

    fn agent(&mut self) -> PResult<Agent> {
        let start = self.expect_word("agent", "")?;
        let (name, name_span) = self.plain_string("the agent's name as a string", "write `agent \"Name\" { … }`")?;
        self.expect_sym("{", "open the agent's body with `{`")?;
        let mut agent = Agent {
            name: Name { text: name, span: name_span },
            grants: Vec::new(),
            grants_span: None,
            ceiling: None,
            voice: None,
            avatar: None,
            home: None,
            memory: Vec::new(),
            behaviors: Vec::new(),
            span: start,
        };
        while !self.halted && !self.is_sym("}") && *self.peek() != Tok::Eof {
            let at = self.pos;
            if self.member(&mut agent).is_err() {
                self.recover(&MEMBER_STARTS);
                if self.pos == at {
                    self.bump();
                }
            }
        }
        let end = self.expect_sym("}", "close the agent with `}`")?;
        agent.span = start.to(end);
        Ok(agent)
    }

    fn member(&mut self, agent: &mut Agent) -> PResult<()> {
        let start = self.span();
        let Tok::Ident(word) = self.peek().clone() else {
            return self
                .expected("an agent member", "members are grants, at most, voice, avatar, lives in, memory, on");
        };
        match word.as_str() {
            "grants" => {
                self.bump();
                self.expect_sym("{", "list the capabilities: `grants { tasks.create, ai.classify }`")?;
                while !self.is_sym("}") {
                    let cap = self.dotted("a capability", "capabilities are dotted names such as `tasks.create`")?;
                    agent.grants.push(cap);
                    self.eat_sym(",");
                }
                let end = self.bump().span;
                agent.grants_span = Some(agent.grants_span.map_or(start.to(end), |s| s.to(end)));
            }
            "at" => {
                self.bump();
                self.expect_word("most", "write `at most pure`, `at most model` or `at most world`")?;
                let grade_word =
                    self.ident("`pure`, `model` or `world`", "the ceiling is one of pure, model, world")?;
                let grade = match grade_word.text.as_str() {
                    "pure" => Grade::Pure,
                    "model" => Grade::Model,
                    "world" => Grade::World,
                    _ => {
                        let d = Diagnostic::new(
                            Code::Parse,
                            grade_word.span,
                            format!("`{}` is not a grade", grade_word.text),
                        )
                        .expected("`pure`, `model` or `world`")
                        .fix("the ceiling is one of pure, model, world");
                        self.report(d);
                        return Err(Stop);
                    }
                };
                let span = start.to(grade_word.span);
                if agent.ceiling.is_some() {
                    self.report(
                        Diagnostic::new(Code::Parse, span, "`at most` is declared twice").fix("keep one ceiling"),
                    );
                }
                agent.ceiling = Some((grade, span));
            }
            "voice" => {
                self.bump();
                let (voice, span) = self.plain_string("the voice as a string", "write `voice \"…\"`")?;
                agent.voice = Some((voice, start.to(span)));
            }
            "avatar" => {
                self.bump();
                let avatar = if self.eat_word("initials") {
                    Avatar::Initials
                } else {
                    Avatar::Image(
                        self.plain_string("`initials` or a string", "write `avatar initials` or `avatar \"…\"`")?.0,
                    )
                };
                agent.avatar = Some((avatar, start.to(Span::new(self.last_end(), self.last_end()))));
            }
            "lives" => {
                self.bump();
                self.expect_word("in", "write `lives in meeting` or `lives in channel #tag`")?;
                let place_word =
                    self.ident("`meeting`, `meetings` or `channel`", "an agent lives in meetings or a channel")?;
                let place = match place_word.text.as_str() {
                    "meeting" | "meetings" => Place::Meeting,
                    "channel" => Place::Channel,
                    _ => {
                        let d = Diagnostic::new(
                            Code::Parse,
                            place_word.span,
                            format!("`{}` is not a home", place_word.text),
                        )
                        .expected("`meeting`, `meetings` or `channel`")
                        .fix("an agent lives in meetings or a channel");
                        self.report(d);
                        return Err(Stop);
                    }
                };
                let tag = match self.peek().clone() {
                    Tok::Tag(t) => {
                        self.bump();
                        Some(t)
                    }
                    _ => None,
                };
                let span = start.to(Span::new(self.last_end(), self.last_end()));
                if agent.home.is_some() {
                    self.report(
                        Diagnostic::new(Code::Parse, span, "`lives in` is declared twice").fix("keep one home"),
                    );
                }
                agent.home = Some(Home { place, tag, span });
            }
            "memory" => {
                self.bump();
                let name = self.ident("a memory name", "write `memory name = literal`")?;
                self.expect_sym("=", "give the memory its first value: `memory n = 0`")?;
                let value = self.literal()?;
                if agent.memory.iter().any(|m| m.name.text == name.text) {
                    let d = Diagnostic::new(
                        Code::Parse,
                        name.span,
                        format!("the memory `{}` is declared twice", name.text),
                    )
                    .fix("declare each memory once");
                    self.report(d);
                }
                let span = start.to(Span::new(self.last_end(), self.last_end()));
                agent.memory.push(Memory { name, value, span });
            }
            "on" => {
                self.bump();
                self.ordinal = 0;
                let trigger = self.trigger()?;
                let body = self.block()?;
                let span = start.to(Span::new(self.last_end(), self.last_end()));
                agent.behaviors.push(Behavior { ordinal: agent.behaviors.len(), trigger, body, span });
            }
            _ => {
                return self
                    .expected("an agent member", "members are grants, at most, voice, avatar, lives in, memory, on");
            }
        }
        Ok(())
    }

    fn literal(&mut self) -> PResult<Literal> {
        match self.peek().clone() {
            Tok::Num(n) => {
                self.bump();
                Ok(Literal::Num(n))
            }
            Tok::Dur(d) => {
                self.bump();
                Ok(Literal::Dur(d))
            }
            Tok::Ident(w) if w == "true" || w == "false" => {
                self.bump();
                Ok(Literal::Bool(w == "true"))
            }
            Tok::Str { .. } => Ok(Literal::Str(self.plain_string("a literal", "")?.0)),
            _ => self.expected("a literal (a number, a duration, a string, true or false)", "write `memory n = 0`"),
        }
    }

    fn trigger(&mut self) -> PResult<Trigger> {
        let start = self.span();
        let word = self.ident(
            "a trigger",
            "triggers are `someone says`, `message`, `silence for`, `meeting starts|ends`, `schedule`",
        )?;
        let trigger = match word.text.as_str() {
            "someone" => {
                self.expect_word("says", "write `on someone says /regex/` or `on someone says ~\"…\"`")?;
                let matcher = self.matcher()?;
                Trigger::Says { matcher, span: start.to(Span::new(self.last_end(), self.last_end())) }
            }
            "message" => {
                let mut tag = None;
                if self.eat_word("in") {
                    match self.peek().clone() {
                        Tok::Tag(t) => {
                            self.bump();
                            tag = Some(t);
                        }
                        _ => return self.expected("a tag", "write `on message in #channel`"),
                    }
                }
                let matcher =
                    if matches!(self.peek(), Tok::Regex(_)) || self.is_sym("~") { Some(self.matcher()?) } else { None };
                Trigger::Message { tag, matcher, span: start.to(Span::new(self.last_end(), self.last_end())) }
            }
            "silence" => {
                self.expect_word("for", "write `on silence for 5m`")?;
                match self.peek().clone() {
                    Tok::Dur(millis) => {
                        let span = self.span();
                        self.bump();
                        if millis == 0 {
                            // Due as the message that starts it is said: no silence at all, and a host's
                            // clock never sends one.
                            let d = Diagnostic::new(Code::SilenceDuration, span, "a silence of no time never comes")
                                .expected("a duration of at least 1ms, such as `30s`, `5m` or `1h`")
                                .fix("write how long the silence must last: `on silence for 5m`");
                            self.report(d);
                        }
                        Trigger::Silence { millis, span: start.to(Span::new(self.last_end(), self.last_end())) }
                    }
                    other => {
                        let span = self.span();
                        let d = Diagnostic::new(
                            Code::SilenceDuration,
                            span,
                            format!("`silence for` takes a duration, found {}", describe(&other)),
                        )
                        .expected("a duration such as `30s`, `5m` or `1h`")
                        .fix("write the silence as a number with a unit: `on silence for 5m`");
                        self.report(d);
                        if !self.is_sym("{") {
                            self.bump();
                        }
                        Trigger::Silence { millis: 0, span: start.to(span) }
                    }
                }
            }
            "meeting" => {
                let phase_span = self.span();
                let phase = match self.peek().clone() {
                    Tok::Ident(w) if w == "starts" => Some(Phase::Starts),
                    Tok::Ident(w) if w == "ends" || w == "ended" => Some(Phase::Ends),
                    _ => None,
                };
                match phase {
                    Some(phase) => {
                        self.bump();
                        Trigger::Meeting { phase, span: start.to(phase_span) }
                    }
                    None => {
                        let found = describe(self.peek());
                        let d =
                            Diagnostic::new(Code::MeetingPhase, phase_span, format!("{found} is not a meeting phase"))
                                .expected("`starts`, `ends` or `ended`")
                                .fix("write `on meeting starts` or `on meeting ends`");
                        self.report(d);
                        if matches!(self.peek(), Tok::Ident(_)) {
                            self.bump();
                        }
                        Trigger::Meeting { phase: Phase::Starts, span: start.to(phase_span) }
                    }
                }
            }
            "schedule" => {
                let (name, span) =
                    self.plain_string("the schedule's name as a string", "write `on schedule \"daily\"`")?;
                Trigger::Schedule { name, span: start.to(span) }
            }
            "receipt" => {
                // Optional: the capability or verb whose receipts fire it (`on receipt "tasks.create"`).
                if matches!(self.peek(), Tok::Str { .. }) {
                    let (name, span) =
                        self.plain_string("a capability or verb as a string", "write `on receipt \"tasks.create\"`")?;
                    Trigger::Receipt { filter: Some(name), span: start.to(span) }
                } else {
                    Trigger::Receipt { filter: None, span: start.to(Span::new(self.last_end(), self.last_end())) }
                }
            }
            other => {
                let d = Diagnostic::new(Code::Parse, word.span, format!("`{other}` is not a trigger"))
                    .expected(
                        "`someone says`, `message`, `silence for`, `meeting starts|ends`, `schedule` or `receipt`",
                    )
                    .fix("start the behavior with one of the triggers");
                self.report(d);
                return Err(Stop);
            }
        };
        Ok(trigger)
    }

    fn matcher(&mut self) -> PResult<Match> {
        match self.peek().clone() {
            Tok::Regex(pattern) => {
                let span = self.bump().span;
                let built = regex::RegexBuilder::new(&pattern).size_limit(MAX_REGEX_BYTES).build();
                if let Err(e) = built {
                    let first = e.to_string().lines().last().unwrap_or("").trim().to_string();
                    let d = Diagnostic::new(Code::Regex, span, format!("the pattern does not compile: {first}"))
                        .expected("a regular expression")
                        .fix("escape the character, or simplify the pattern");
                    self.report(d);
                }
                Ok(Match::Regex { pattern, span })
            }
            Tok::Sym("~") => {
                let start = self.bump().span;
                let (phrase, span) = self.plain_string("the phrase as a string", "write `~\"the user is upset\"`")?;
                Ok(Match::Fuzzy { phrase, span: start.to(span) })
            }
            _ => self.expected(
                "`/regex/` or `~\"phrase\"`",
                "match with a pattern `/…/` (pure) or a phrase `~\"…\"` (model)",
            ),
        }
    }

    // ---- statements ----

    fn block(&mut self) -> PResult<Block> {
        self.enter()?;
        let result = self.block_inner();
        self.leave();
        result
    }

    fn block_inner(&mut self) -> PResult<Block> {
        self.expect_sym("{", "open the block with `{`")?;
        let mut stmts = Vec::new();
        while !self.halted && !self.is_sym("}") && *self.peek() != Tok::Eof {
            let at = self.pos;
            match self.stmt() {
                Ok(stmt) => stmts.push(stmt),
                Err(Stop) => {
                    self.recover(&STMT_STARTS);
                    if self.pos == at {
                        self.bump();
                    }
                }
            }
        }
        self.expect_sym("}", "close the block with `}`")?;
        Ok(stmts)
    }

    fn next_ordinal(&mut self) -> usize {
        let ordinal = self.ordinal;
        self.ordinal += 1;
        ordinal
    }

    fn stmt(&mut self) -> PResult<Stmt> {
        let start = self.span();
        let Tok::Ident(word) = self.peek().clone() else {
            return self.expected("a statement", "statements are let, if, for, remember, or an action");
        };
        match word.as_str() {
            "let" => {
                self.bump();
                let name = self.ident("a name", "write `let name = expr`")?;
                self.expect_sym("=", "write `let name = expr`")?;
                let value = self.expr()?;
                Ok(Stmt::Let { name, span: start.to(value.span), value })
            }
            "if" => self.if_stmt(),
            "for" => {
                self.bump();
                let var = self.ident("a loop variable", "write `for x in xs { … }`")?;
                self.expect_word("in", "write `for x in xs { … }`")?;
                let list = self.expr()?;
                let body = self.block()?;
                Ok(Stmt::For { var, list, body, span: start.to(Span::new(self.last_end(), self.last_end())) })
            }
            "remember" => {
                self.bump();
                let name = self.ident("a memory name", "write `remember name = expr` or `remember name += expr`")?;
                let add = if self.eat_sym("+=") {
                    true
                } else if self.eat_sym("=") {
                    false
                } else {
                    return self.expected("`=` or `+=`", "write `remember name = expr` or `remember name += expr`");
                };
                let value = self.expr()?;
                Ok(Stmt::Remember { name, add, span: start.to(value.span), value })
            }
            _ => self.action().map(Stmt::Action),
        }
    }

    fn if_stmt(&mut self) -> PResult<Stmt> {
        let start = self.expect_word("if", "")?;
        let cond = self.expr()?;
        let then = self.block()?;
        let otherwise = if self.eat_word("else") {
            // `else if` reads as an `else` block holding one `if`.
            if self.is_word("if") {
                self.enter()?;
                let nested = self.if_stmt();
                self.leave();
                Some(vec![nested?])
            } else {
                Some(self.block()?)
            }
        } else {
            None
        };
        Ok(Stmt::If { cond, then, otherwise, span: start.to(Span::new(self.last_end(), self.last_end())) })
    }

    /// An action's verb: a word, joined with `.word` only where no space comes between (`tasks.create`),
    /// since the dotted verbs are single names. So `say .message` is `say` with the binding `.message`.
    fn verb(&mut self) -> PResult<Name> {
        let first = self.ident("a statement", "statements are let, if, for, remember, or an action")?;
        let (mut text, mut span) = (first.text, first.span);
        while self.joined_dot() && matches!(self.peek_at(1), Tok::Ident(_)) && self.span_at(1).start == self.span().end
        {
            self.bump();
            let part = self.ident("a statement", "")?;
            text.push('.');
            text.push_str(&part.text);
            span = span.to(part.span);
        }
        Ok(Name { text, span })
    }

    fn action(&mut self) -> PResult<Action> {
        let start = self.span();
        let verb = self.verb()?;
        let mut args: Vec<(Name, Expr)> = Vec::new();
        let key = |text: &str, span: Span| Name { text: text.into(), span };
        let cap = match verb.text.as_str() {
            "create_task" => {
                args.push((key("title", verb.span), self.expr()?));
                self.options(&mut args, &["assignee", "due"])?;
                "tasks.create"
            }
            "create_note" => {
                let title = self.expect_word("title", "write `create_note title: … body: …`")?;
                self.expect_sym(":", "write `create_note title: … body: …`")?;
                args.push((key("title", title), self.expr()?));
                let body = self.expect_word("body", "write `create_note title: … body: …`")?;
                self.expect_sym(":", "write `create_note title: … body: …`")?;
                args.push((key("body", body), self.expr()?));
                "notes.create"
            }
            "say" | "reply" => {
                args.push((key("text", verb.span), self.expr()?));
                "message.send"
            }
            "react" => {
                let (emoji, span) = self.plain_string("the reaction as a string", "write `react \"🐞\"`")?;
                args.push((key("emoji", verb.span), Expr { kind: ExprKind::Str(vec![StrPart::Lit(emoji)]), span }));
                "react.add"
            }
            "notify" => {
                args.push((key("to", verb.span), self.expr()?));
                args.push((key("text", verb.span), self.expr()?));
                "notify.send"
            }
            dotted if DOTTED_ACTIONS.contains(&dotted) => {
                self.options(&mut args, &OPT_KEYS)?;
                DOTTED_ACTIONS.iter().find(|d| **d == dotted).copied().unwrap_or_default()
            }
            "id" if matches!(self.peek(), Tok::Str { .. }) => {
                let d = Diagnostic::new(Code::Parse, verb.span, "`id \"…\"` here names nothing")
                    .expected("an id right after the action or the leaf call it names")
                    .fix("write it after the action's last argument (`say \"hi\" id \"greet\"`) or the leaf call's `)` (`classify(.message) id \"kind\"`), before any `.field`");
                self.report(d);
                return Err(Stop);
            }
            other => {
                // `say.message`: a verb that takes an expression, run into a binding.
                let fix = match other.split_once('.') {
                    Some((verb, rest)) if EXPR_VERBS.contains(&verb) => {
                        format!("put a space between the verb and the binding: `{verb} .{rest}`")
                    }
                    _ => "use one of the statements of the grammar".to_string(),
                };
                let d = Diagnostic::new(Code::Parse, verb.span, format!("`{other}` is not a statement"))
                    .expected("let, if, for, remember, or an action (create_task, create_note, say, reply, react, notify, tasks.create, notes.create, notify.send, message.send)")
                    .fix(fix);
                self.report(d);
                return Err(Stop);
            }
        };
        let id = self.stable_id()?;
        let ordinal = self.next_ordinal();
        let span = start.to(Span::new(self.last_end(), self.last_end()));
        Ok(Action { verb, cap: cap.to_string(), args, ordinal, id, span })
    }

    /// An optional `id "…"` after an action or a leaf call: the author's stable id, which takes the leaf
    /// ordinal's place in the site's keys. Only `id` followed by a string is one: nothing else in the
    /// grammar writes a string right after a word there, so `id` stays free as a name.
    fn stable_id(&mut self) -> PResult<Option<Name>> {
        if !(self.is_word("id") && matches!(self.peek_at(1), Tok::Str { .. })) {
            return Ok(None);
        }
        self.bump();
        let (text, span) = self.plain_string("the id as a string", "write `id \"create-bug\"`")?;
        if let Some(problem) = id_problem(&text) {
            let d = Diagnostic::new(Code::Id, span, format!("the id \"{}\" {problem}", text.escape_debug()))
                .expected(format!(
                    "1 to {MAX_ID_BYTES} letters, digits, `_`, `-` or `.`: an id is written into keys as it is, and `|`, `#`, `/`, `:` and `%` separate their parts"
                ))
                .fix("name the action with letters, digits and dashes, as in `id \"create-bug\"`");
            self.report(d);
        }
        Ok(Some(Name { text, span }))
    }

    /// `{ key ":" expr }` for the keys allowed; a key given twice is an error.
    fn options(&mut self, args: &mut Vec<(Name, Expr)>, allowed: &[&str]) -> PResult<()> {
        loop {
            let is_key = matches!(self.peek(), Tok::Ident(w) if allowed.contains(&w.as_str()))
                && matches!(self.peek_at(1), Tok::Sym(":"));
            if !is_key {
                return Ok(());
            }
            let name = self.ident("a key", "")?;
            self.bump();
            if args.iter().any(|(k, _)| k.text == name.text) {
                let d = Diagnostic::new(Code::Parse, name.span, format!("`{}:` is given twice", name.text))
                    .fix("give each key once");
                self.report(d);
            }
            let value = self.expr()?;
            args.push((name, value));
        }
    }

    // ---- expressions ----

    pub(crate) fn expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let result = self.binary(0);
        self.leave();
        result
    }

    /// Precedence climbing over three levels: `or`, `and`, then the comparisons, all left-associative.
    /// A chain of operators builds a tree as deep as it is long, so each operator counts as a level of
    /// nesting until the chain ends: `a == a == …` ten thousand times is refused like ten thousand `(`.
    fn binary(&mut self, level: usize) -> PResult<Expr> {
        if level == 3 {
            return self.postfix();
        }
        let mut left = self.binary(level + 1)?;
        let mut entered = 0;
        let result = loop {
            let op = match (level, self.peek()) {
                (0, Tok::Ident(w)) if w == "or" => BinOp::Or,
                (1, Tok::Ident(w)) if w == "and" => BinOp::And,
                (2, Tok::Ident(w)) if w == "contains" => BinOp::Contains,
                (2, Tok::Sym("==")) => BinOp::Eq,
                (2, Tok::Sym("!=")) => BinOp::Ne,
                (2, Tok::Sym(">")) => BinOp::Gt,
                (2, Tok::Sym("<")) => BinOp::Lt,
                (2, Tok::Sym(">=")) => BinOp::Ge,
                (2, Tok::Sym("<=")) => BinOp::Le,
                _ => break Ok(left),
            };
            self.bump();
            if let Err(stop) = self.enter() {
                break Err(stop);
            }
            entered += 1;
            match self.binary(level + 1) {
                Ok(right) => {
                    let span = left.span.to(right.span);
                    left = Expr { kind: ExprKind::Binary(op, Box::new(left), Box::new(right)), span };
                }
                Err(stop) => break Err(stop),
            }
        };
        self.depth -= entered;
        result
    }

    fn postfix(&mut self) -> PResult<Expr> {
        let mut expr = self.primary()?;
        let mut links = 0;
        while self.joined_dot() && matches!(self.peek_at(1), Tok::Ident(_)) {
            self.bump();
            let field = self.ident("a field name", "")?;
            links += 1;
            if links > MAX_DEPTH {
                // A field chain nests like parentheses do; past the bound it is refused the same way.
                let d =
                    Diagnostic::new(Code::TooDeep, field.span, format!("more than {MAX_DEPTH} fields in one chain"))
                        .expected(format!("at most {MAX_DEPTH} `.field` steps"))
                        .fix("name an inner part with `let`");
                self.report(d);
                self.halted = true;
                return Err(Stop);
            }
            let span = expr.span.to(field.span);
            expr = Expr { kind: ExprKind::Field(Box::new(expr), field), span };
        }
        Ok(expr)
    }

    fn primary(&mut self) -> PResult<Expr> {
        if self.halted {
            return Err(Stop);
        }
        let start = self.span();
        let kind = match self.peek().clone() {
            Tok::Str { raw, start: at } => {
                self.bump();
                ExprKind::Str(self.interpolated(&raw, at)?)
            }
            Tok::Num(n) => {
                self.bump();
                ExprKind::Num(n)
            }
            Tok::Dur(d) => {
                self.bump();
                ExprKind::Dur(d)
            }
            Tok::Tag(t) => {
                self.bump();
                ExprKind::Tag(t)
            }
            Tok::Sym("(") => {
                self.bump();
                let inner = self.expr()?;
                let end = self.expect_sym(")", "close the parenthesis with `)`")?;
                return Ok(Expr { kind: inner.kind, span: start.to(end) });
            }
            Tok::Sym(".") => {
                self.bump();
                let mut path =
                    vec![self.ident("a binding name", "bindings are `.speaker`, `.message`, `.match.1`, …")?.text];
                while self.joined_dot() && matches!(self.peek_at(1), Tok::Ident(_) | Tok::Num(_)) {
                    self.bump();
                    match self.bump().tok {
                        Tok::Ident(w) => path.push(w),
                        Tok::Num(n) => path.push(format!("{}", n as u64)),
                        _ => {}
                    }
                    if path.len() > MAX_DEPTH {
                        return self.expected("a shorter binding path", "");
                    }
                }
                ExprKind::Binding(path)
            }
            Tok::Ident(w) if w == "true" || w == "false" => {
                self.bump();
                ExprKind::Bool(w == "true")
            }
            Tok::Ident(w) if w == "summarize" && self.peek_at(1) == &Tok::Sym("(") => {
                self.bump();
                self.bump();
                let arg = self.leaf_arg()?;
                self.expect_sym(")", "close the call with `)`")?;
                let id = self.stable_id()?;
                ExprKind::Summarize { arg: Box::new(arg), ordinal: self.next_ordinal(), id }
            }
            Tok::Ident(w) if w == "leaf" => return self.inline_leaf(),
            Tok::Ident(_) if self.is_call() => {
                let name = self.dotted("a leaf name", "")?;
                self.expect_sym("(", "")?;
                let arg = self.leaf_arg()?;
                self.expect_sym(")", "close the call with `)`")?;
                let id = self.stable_id()?;
                ExprKind::Leaf { name, arg: Box::new(arg), ordinal: self.next_ordinal(), id }
            }
            Tok::Ident(w) => {
                self.bump();
                ExprKind::Var(w)
            }
            _ => {
                return self.expected(
                    "an expression",
                    "write a string, a number, a binding like `.message`, a name or a leaf call",
                );
            }
        };
        Ok(Expr { kind, span: start.to(Span::new(self.last_end(), self.last_end())) })
    }

    /// Whether the name at hand (`a` or `a.b.c`) is followed by `(`: a leaf call.
    fn is_call(&self) -> bool {
        let mut n = 0;
        while matches!(self.peek_at(n + 1), Tok::Sym(".")) && matches!(self.peek_at(n + 2), Tok::Ident(_)) {
            n += 2;
        }
        matches!(self.peek_at(n + 1), Tok::Sym("("))
    }

    /// A leaf's or `summarize`'s argument: a span (`meeting`, `recent`, `last 10m`, `here..end_of_turn`)
    /// or any expression that gives text.
    fn leaf_arg(&mut self) -> PResult<Expr> {
        let start = self.span();
        let span_ref = match self.peek().clone() {
            Tok::Ident(w) if w == "meeting" && self.peek_at(1) == &Tok::Sym(")") => {
                self.bump();
                SpanRef::Meeting
            }
            Tok::Ident(w) if w == "recent" => {
                self.bump();
                SpanRef::Recent
            }
            Tok::Ident(w) if w == "last" && matches!(self.peek_at(1), Tok::Dur(_)) => {
                self.bump();
                let Tok::Dur(d) = self.bump().tok else { return Err(Stop) };
                SpanRef::Last(d)
            }
            Tok::Ident(w) if w == "here" => {
                self.bump();
                self.expect_sym("..", "write `here..end_of_turn`")?;
                self.expect_word("end_of_turn", "write `here..end_of_turn`")?;
                SpanRef::HereToEndOfTurn
            }
            _ => return self.expr(),
        };
        Ok(Expr { kind: ExprKind::SpanOf(span_ref), span: start.to(Span::new(self.last_end(), self.last_end())) })
    }

    /// `leaf name(arg) -> schema`: declares the leaf where it is called.
    fn inline_leaf(&mut self) -> PResult<Expr> {
        let start = self.expect_word("leaf", "")?;
        let name = self.dotted("a leaf name", "write `leaf name(arg) -> schema`")?;
        self.expect_sym("(", "write `leaf name(arg) -> schema`")?;
        let arg = self.leaf_arg()?;
        self.expect_sym(")", "close the call with `)`")?;
        self.expect_sym("->", "an inline leaf states its schema: `leaf name(arg) -> schema`")?;
        let schema = self.schema()?;
        let span = start.to(Span::new(self.last_end(), self.last_end()));
        self.leaves.push(LeafDecl { name: name.clone(), param: None, schema, prompt: None, span, inline: true });
        let id = self.stable_id()?;
        let ordinal = self.next_ordinal();
        let span = start.to(Span::new(self.last_end(), self.last_end()));
        Ok(Expr { kind: ExprKind::Leaf { name, arg: Box::new(arg), ordinal, id }, span })
    }

    /// A string in expression position: its literal text and its `{expr}` interpolations, each parsed with
    /// its own spans by this same parser (so leaf ordinals and the depth bound carry through).
    fn interpolated(&mut self, raw: &str, at: usize) -> PResult<Vec<StrPart>> {
        let pieces = match pieces(raw, at, true) {
            Ok(p) => p,
            Err(d) => {
                self.report(d);
                return Err(Stop);
            }
        };
        let mut parts = Vec::new();
        for piece in pieces {
            match piece {
                Piece::Lit(text) => parts.push(StrPart::Lit(text)),
                Piece::Interp { start, end } => {
                    let (tokens, errors) = lex(self.source, start, end);
                    for e in errors {
                        self.report(e);
                    }
                    let saved_tokens = std::mem::replace(&mut self.tokens, tokens);
                    let saved_pos = std::mem::replace(&mut self.pos, 0);
                    let result = self.enter().and_then(|_| {
                        let r = self.expr();
                        self.leave();
                        r
                    });
                    let result = result.and_then(|e| {
                        if *self.peek() == Tok::Eof {
                            Ok(e)
                        } else {
                            self.expected(
                                "`}` ending the interpolation",
                                "an interpolation holds one expression: `{.speaker}`",
                            )
                        }
                    });
                    self.tokens = saved_tokens;
                    self.pos = saved_pos;
                    parts.push(StrPart::Interp(result?));
                }
            }
        }
        Ok(parts)
    }

    // ---- the static errors found while parsing ----

    /// A leaf redeclared, top-level or inline, with another schema: call-site types must never lie.
    fn check_leaf_schemas(&mut self, program: &Program) {
        let mut first: BTreeMap<&str, &LeafDecl> = BTreeMap::new();
        let mut leaves: Vec<&LeafDecl> = program.leaves.iter().collect();
        leaves.sort_by_key(|l| l.span.start);
        let mut found = Vec::new();
        for leaf in leaves {
            match first.get(leaf.name.text.as_str()) {
                None => {
                    first.insert(&leaf.name.text, leaf);
                }
                Some(earlier) if earlier.schema.shape() != leaf.schema.shape() => {
                    let d = Diagnostic::new(
                        Code::LeafSchema,
                        leaf.name.span,
                        format!("the leaf `{}` is redeclared with another schema", leaf.name.text),
                    )
                    .expected(format!("the schema it was first declared with, `{}`", earlier.schema.shape()))
                    .fix("give both declarations one schema, or name the new leaf differently")
                    .note("first declared", earlier.name.span);
                    found.push(d);
                }
                Some(_) => {}
            }
        }
        for d in found {
            self.report(d);
        }
    }
}

#[cfg(test)]
mod tests;
