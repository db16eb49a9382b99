//! The effect checker: every expression's type and effect, joined over the dataflow; `E_GRANT` for
//! a missing action or observation capability, `E_CEILING` above the declared ceiling, `E_DUP_AGENT`,
//! `E_TYPE`; and per agent the inferred effect, the minimal grant set and any over-grant.

use crate::ast::*;
use crate::diag::{Code, Diagnostic};
use crate::effect::Effect;
use crate::schema::Schema;
use crate::span::Span;
use crate::types::Ty;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// What the checker found: one report per agent and every diagnostic in source order.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub agents: Vec<AgentReport>,
    pub diagnostics: Vec<Diagnostic>,
    /// The span of every expression typed duration that is written as text (interpolated into a string,
    /// or appended to a text memory with `+=`): such a value is held in milliseconds and is written as a
    /// duration ([`crate::lexer::duration_text`]), which only its type tells apart from a number.
    pub durations: Vec<Span>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AgentReport {
    pub name: String,
    /// The join of every leaf's effect: what the agent can do at most.
    pub effect: Effect,
    /// The declared ceiling, `world` when `at most` is missing.
    pub ceiling: Effect,
    /// The minimal grant set: every capability a leaf of the agent needs, sorted.
    pub needs: Vec<String>,
    /// Granted but needed by nothing: permitted, and reported as a warning.
    pub over_granted: Vec<String>,
    /// The model leaves the agent calls and whether evoke's closed engines can answer each.
    pub leaves: Vec<LeafUse>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LeafUse {
    pub name: String,
    /// Every field a closed choice or a span of the input: answerable without minting a value.
    pub closed: bool,
}

/// The observation capability of a leaf: a namespaced name is its own capability, a plain one is
/// read under `ai.`.
pub fn obs(leaf: &str) -> String {
    if leaf.contains('.') { leaf.to_string() } else { format!("ai.{leaf}") }
}

/// The capability of `summarize(…)` and of a fuzzy match `~"…"`.
pub const SUMMARIZE_CAP: &str = "ai.summarize";
pub const MATCH_CAP: &str = "ai.match";

/// The frames bound per firing.
pub fn frame_type(name: &str) -> Option<Ty> {
    match name {
        "transcript" => Some(Ty::Text),
        "meeting" => Some(Ty::Record(vec![("title".into(), Ty::Text), ("host".into(), Ty::Text)])),
        _ => None,
    }
}

pub fn check(program: &Program) -> Report {
    let mut leaves: BTreeMap<&str, &LeafDecl> = BTreeMap::new();
    let mut ordered: Vec<&LeafDecl> = program.leaves.iter().collect();
    ordered.sort_by_key(|l| l.span.start);
    for leaf in ordered {
        leaves.entry(leaf.name.text.as_str()).or_insert(leaf);
    }
    let mut report = Report::default();
    let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
    for agent in &program.agents {
        if let Some(first) = seen.get(agent.name.text.as_str()) {
            let d = Diagnostic::new(
                Code::DupAgent,
                agent.name.span,
                format!("a second agent named \"{}\"", agent.name.text),
            )
            .expected("one agent per name: two would silently shadow each other's state")
            .fix("rename one of the agents")
            .note("the first is declared", *first);
            report.diagnostics.push(d);
        } else {
            seen.insert(&agent.name.text, agent.name.span);
        }
        let mut checker = AgentChecker {
            leaves: &leaves,
            agent,
            sites: Vec::new(),
            scopes: Vec::new(),
            diags: Vec::new(),
            uses: Vec::new(),
            durations: Vec::new(),
        };
        let agent_report = checker.run();
        for behavior in &agent.behaviors {
            if let Trigger::Schedule { name, span } = &behavior.trigger
                && let Err(refused) = crate::schedule::parse(name)
            {
                let d = Diagnostic::new(Code::Schedule, *span, format!("bad schedule: {}", refused.reason))
                    .expected("`every D` or `daily HH:MM`, or a name that starts with neither")
                    .fix(refused.fix);
                report.diagnostics.push(d);
            }
        }
        report.diagnostics.extend(receipt_filters(agent));
        report.diagnostics.extend(checker.diags);
        report.diagnostics.extend(stable_ids(agent));
        report.durations.extend(checker.durations);
        report.agents.push(agent_report);
    }
    report.diagnostics.sort_by_key(|d| (d.span.start, d.span.end));
    report
}

/// A place that raises the effect: a model leaf, a fuzzy match or a world action.
struct Site {
    effect: Effect,
    cap: String,
    span: Span,
    what: String,
}

struct AgentChecker<'a> {
    leaves: &'a BTreeMap<&'a str, &'a LeafDecl>,
    agent: &'a Agent,
    sites: Vec<Site>,
    /// Let and loop variables, innermost scope last.
    scopes: Vec<Vec<(String, Ty)>>,
    diags: Vec<Diagnostic>,
    uses: Vec<LeafUse>,
    durations: Vec<Span>,
}

impl AgentChecker<'_> {
    fn run(&mut self) -> AgentReport {
        let agent = self.agent;
        for behavior in &agent.behaviors {
            if let Some(Match::Fuzzy { span, .. }) = behavior.trigger.matcher() {
                self.site(Effect::Model, MATCH_CAP, *span, "the fuzzy trigger `~\"…\"`".into());
            }
            self.scopes.push(Vec::new());
            self.block(&behavior.body);
            self.scopes.pop();
        }
        let ceiling = agent.ceiling.map_or(Effect::World, |(g, _)| g);
        let granted: BTreeSet<&str> = agent.grants.iter().map(|g| g.text.as_str()).collect();
        let mut effect = Effect::Pure;
        let mut needs = BTreeSet::new();
        for site in &self.sites {
            effect = effect.join(site.effect);
            needs.insert(site.cap.clone());
            if site.effect > ceiling {
                let mut d = Diagnostic::new(
                    Code::Ceiling,
                    site.span,
                    format!(
                        "{} is {}, above the agent's ceiling `{}`",
                        site.what,
                        site.effect.as_str(),
                        ceiling.as_str()
                    ),
                )
                .expected(format!("only effects at or below `{}`", ceiling.as_str()))
                .fix(format!(
                    "raise the ceiling to `at most {}`, or take {} out",
                    site.effect.as_str(),
                    site.what
                ));
                if let Some((_, span)) = agent.ceiling {
                    d = d.note("the ceiling is declared", span);
                }
                self.diags.push(d);
            }
            if !granted.contains(site.cap.as_str()) {
                let d = Diagnostic::new(
                    Code::Grant,
                    site.span,
                    format!("{} needs the capability `{}`, which `grants` does not hold", site.what, site.cap),
                )
                .expected(format!("`{}` in the agent's `grants {{ … }}`", site.cap))
                .fix(format!("add `{}` to `grants {{ … }}`: no authority is ambient", site.cap));
                self.diags.push(d);
            }
        }
        let mut over_granted = Vec::new();
        for grant in &agent.grants {
            if !needs.contains(&grant.text) && !over_granted.contains(&grant.text) {
                over_granted.push(grant.text.clone());
                let d = Diagnostic::new(
                    Code::OverGrant,
                    grant.span,
                    format!("`{}` is granted but nothing needs it", grant.text),
                )
                .fix(format!("remove `{}` from `grants {{ … }}` unless a later edit needs it", grant.text));
                self.diags.push(d);
            }
        }
        AgentReport {
            name: agent.name.text.clone(),
            effect,
            ceiling,
            needs: needs.into_iter().collect(),
            over_granted,
            leaves: std::mem::take(&mut self.uses),
        }
    }

    fn site(&mut self, effect: Effect, cap: &str, span: Span, what: String) {
        self.sites.push(Site { effect, cap: cap.to_string(), span, what });
    }

    fn error(&mut self, span: Span, message: String, expected: &str, fix: &str) {
        self.diags.push(Diagnostic::new(Code::Type, span, message).expected(expected).fix(fix));
    }

    fn block(&mut self, block: &Block) -> Effect {
        self.scopes.push(Vec::new());
        let effect = block.iter().fold(Effect::Pure, |e, s| e.join(self.stmt(s)));
        self.scopes.pop();
        effect
    }

    fn bind(&mut self, name: &str, ty: Ty) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.push((name.to_string(), ty));
        }
    }

    fn stmt(&mut self, stmt: &Stmt) -> Effect {
        match stmt {
            Stmt::Let { name, value, .. } => {
                let (ty, effect) = self.value(value);
                self.bind(&name.text, ty);
                effect
            }
            Stmt::If { cond, then, otherwise, .. } => {
                let (ty, mut effect) = self.value(cond);
                if !matches!(ty, Ty::Bool | Ty::Unknown) {
                    self.error(
                        cond.span,
                        format!("a condition of type {}", ty.name()),
                        "a condition that is true or false",
                        "compare it: `x == y`, `x contains y`, `x > 0`",
                    );
                }
                effect = effect.join(self.block(then));
                if let Some(other) = otherwise {
                    effect = effect.join(self.block(other));
                }
                effect
            }
            Stmt::For { var, list, body, .. } => {
                let (ty, effect) = self.value(list);
                let item = match ty {
                    Ty::List(inner) => *inner,
                    Ty::Unknown => Ty::Unknown,
                    other => {
                        self.error(
                            list.span,
                            format!("`for` iterates a list, and this is {}", other.name()),
                            "a list, such as a leaf's `list<…>` answer",
                            "iterate over a value of list type",
                        );
                        Ty::Unknown
                    }
                };
                self.scopes.push(vec![(var.text.clone(), item)]);
                let inner = self.block(body);
                self.scopes.pop();
                effect.join(inner)
            }
            Stmt::Remember { name, add, value, .. } => {
                let (ty, effect) = self.value(value);
                match self.agent.memory.iter().find(|m| m.name.text == name.text) {
                    None => self.error(
                        name.span,
                        format!("no memory named `{}`", name.text),
                        "a memory the agent declares",
                        &format!("declare it in the agent: `memory {} = 0`", name.text),
                    ),
                    Some(memory) if *add => {
                        let ok = match memory.value {
                            Literal::Num(_) | Literal::Dur(_) => matches!(ty, Ty::Number | Ty::Duration | Ty::Unknown),
                            Literal::Str(_) => {
                                // Appended to text, a duration is written as one, as inside a string.
                                if ty == Ty::Duration {
                                    self.durations.push(value.span);
                                }
                                true
                            }
                            Literal::Bool(_) => false,
                        };
                        if !ok {
                            self.error(
                                value.span,
                                format!("`+=` adds {} to the memory `{}`", ty.name(), name.text),
                                "a number added to a number memory, or anything appended to a text memory",
                                "use `remember name = expr` to replace the value",
                            );
                        }
                    }
                    Some(_) => {}
                }
                effect
            }
            Stmt::Action(action) => {
                let mut effect = Effect::Pure;
                for (_, arg) in &action.args {
                    effect = effect.join(self.value(arg).1);
                }
                self.site(Effect::World, &action.cap, action.verb.span, format!("`{}`", action.verb.text));
                effect.join(Effect::World)
            }
        }
    }

    /// An expression used as a value: an unbound name is an error here.
    fn value(&mut self, expr: &Expr) -> (Ty, Effect) {
        let (ty, effect) = self.expr(expr);
        if let Ty::Symbol(name) = &ty {
            let name = name.clone();
            self.error(
                expr.span,
                format!("`{name}` is not a variable, a memory or a frame"),
                "a `let` variable, a loop variable, a memory, `transcript` or `meeting`",
                "bind it with `let`, declare it with `memory`, or compare it with an enum to name a case",
            );
            return (Ty::Unknown, effect);
        }
        (ty, effect)
    }

    fn lookup(&self, name: &str) -> Ty {
        for scope in self.scopes.iter().rev() {
            if let Some((_, ty)) = scope.iter().rev().find(|(n, _)| n == name) {
                return ty.clone();
            }
        }
        if let Some(memory) = self.agent.memory.iter().find(|m| m.name.text == name) {
            return match memory.value {
                Literal::Str(_) => Ty::Text,
                Literal::Num(_) => Ty::Number,
                Literal::Bool(_) => Ty::Bool,
                Literal::Dur(_) => Ty::Duration,
            };
        }
        frame_type(name).unwrap_or_else(|| Ty::Symbol(name.to_string()))
    }

    fn leaf_arg(&mut self, arg: &Expr) -> Effect {
        let (ty, effect) = self.value(arg);
        if !ty.is_textual() {
            self.error(
                arg.span,
                format!("a leaf reads a Span, and this is {}", ty.name()),
                "a span (`meeting`, `recent`, `last 10m`, `here..end_of_turn`) or text such as `.message`",
                "pass the text the model should read",
            );
        }
        effect
    }

    fn expr(&mut self, expr: &Expr) -> (Ty, Effect) {
        match &expr.kind {
            ExprKind::Str(parts) => {
                let mut effect = Effect::Pure;
                for part in parts {
                    if let StrPart::Interp(e) = part {
                        let (ty, e_effect) = self.value(e);
                        if ty == Ty::Duration {
                            self.durations.push(e.span);
                        }
                        effect = effect.join(e_effect);
                    }
                }
                (Ty::Text, effect)
            }
            ExprKind::Num(_) => (Ty::Number, Effect::Pure),
            ExprKind::Bool(_) => (Ty::Bool, Effect::Pure),
            ExprKind::Dur(_) => (Ty::Duration, Effect::Pure),
            ExprKind::Tag(_) => (Ty::Tag, Effect::Pure),
            ExprKind::Binding(_) => (Ty::Text, Effect::Pure),
            ExprKind::SpanOf(_) => (Ty::Span, Effect::Pure),
            ExprKind::Var(name) => (self.lookup(name), Effect::Pure),
            ExprKind::Field(base, field) => {
                let (ty, effect) = self.value(base);
                let out = match &ty {
                    Ty::Record(fields) => match fields.iter().find(|(n, _)| *n == field.text) {
                        Some((_, t)) => t.clone(),
                        None => {
                            let names: Vec<&str> = fields.iter().map(|(n, _)| n.as_str()).collect();
                            self.error(
                                field.span,
                                format!("no field `{}` on {}", field.text, ty.name()),
                                &format!("one of the fields: {}", names.join(", ")),
                                "use a field the schema declares",
                            );
                            Ty::Unknown
                        }
                    },
                    Ty::Unknown => Ty::Unknown,
                    other => {
                        self.error(
                            field.span,
                            format!("`.{}` reads a field, and this is {}", field.text, other.name()),
                            "a record, such as a leaf's `{ … }` answer or `meeting`",
                            "read fields of records only",
                        );
                        Ty::Unknown
                    }
                };
                (out, effect)
            }
            ExprKind::Binary(op, left, right) => self.binary(*op, left, right),
            ExprKind::Summarize { arg, .. } => {
                let effect = self.leaf_arg(arg);
                self.site(Effect::Model, SUMMARIZE_CAP, expr.span, "`summarize`".into());
                self.used("summarize", false);
                (Ty::Text, effect.join(Effect::Model))
            }
            ExprKind::Leaf { name, arg, .. } => {
                let effect = self.leaf_arg(arg);
                let Some(decl) = self.leaves.get(name.text.as_str()).copied() else {
                    self.error(
                        name.span,
                        format!("no leaf named `{}`", name.text),
                        "a leaf declared with `leaf name(s: Span) -> schema`, or an inline `leaf …`",
                        &format!("declare it: `leaf {}(s: Span) -> {{ … }}`", name.text),
                    );
                    return (Ty::Unknown, effect.join(Effect::Model));
                };
                self.site(Effect::Model, &obs(&name.text), expr.span, format!("the leaf `{}`", name.text));
                self.used(&name.text, decl.schema.is_closed());
                (Ty::of_schema(&decl.schema), effect.join(Effect::Model))
            }
        }
    }

    fn used(&mut self, name: &str, closed: bool) {
        if !self.uses.iter().any(|u| u.name == name) {
            self.uses.push(LeafUse { name: name.to_string(), closed });
        }
    }

    fn binary(&mut self, op: BinOp, left: &Expr, right: &Expr) -> (Ty, Effect) {
        match op {
            BinOp::Eq | BinOp::Ne => {
                let (lt, le) = self.expr(left);
                let (rt, re) = self.expr(right);
                self.case_of(&lt, &rt, right);
                self.case_of(&rt, &lt, left);
                if let (Ty::Symbol(_), Ty::Symbol(_)) = (&lt, &rt) {
                    self.value(left);
                }
                (Ty::Bool, le.join(re))
            }
            BinOp::And | BinOp::Or => {
                let (lt, le) = self.value(left);
                let (rt, re) = self.value(right);
                for (ty, e) in [(&lt, left), (&rt, right)] {
                    if !matches!(ty, Ty::Bool | Ty::Unknown) {
                        self.error(
                            e.span,
                            format!("`{}` joins conditions, and this is {}", op.as_str(), ty.name()),
                            "true or false",
                            "compare it first",
                        );
                    }
                }
                (Ty::Bool, le.join(re))
            }
            BinOp::Gt | BinOp::Lt | BinOp::Ge | BinOp::Le => {
                let (lt, le) = self.value(left);
                let (rt, re) = self.value(right);
                let ordered = |t: &Ty| matches!(t, Ty::Number | Ty::Duration | Ty::Date | Ty::Unknown);
                let same = lt == rt || lt == Ty::Unknown || rt == Ty::Unknown;
                if !ordered(&lt) || !ordered(&rt) || !same {
                    self.error(
                        left.span.to(right.span),
                        format!("`{}` compares {} with {}", op.as_str(), lt.name(), rt.name()),
                        "two numbers, two durations or two dates",
                        "compare values of one ordered type",
                    );
                }
                (Ty::Bool, le.join(re))
            }
            BinOp::Contains => {
                let (lt, le) = self.value(left);
                let (_, re) = self.value(right);
                if !matches!(lt, Ty::Text | Ty::User | Ty::Span | Ty::List(_) | Ty::Unknown) {
                    self.error(
                        left.span,
                        format!("`contains` looks inside text or a list, and this is {}", lt.name()),
                        "text or a list",
                        "use `==` to compare single values",
                    );
                }
                (Ty::Bool, le.join(re))
            }
        }
    }

    /// `c.kind == bug`: an unbound word compared with an enum must be one of its cases.
    fn case_of(&mut self, enum_ty: &Ty, other: &Ty, other_expr: &Expr) {
        let Ty::Enum(cases) = enum_ty else {
            if let Ty::Symbol(name) = other
                && !matches!(enum_ty, Ty::Unknown | Ty::Symbol(_))
            {
                let name = name.clone();
                self.error(
                    other_expr.span,
                    format!("`{name}` is not a variable, a memory or a frame"),
                    "a `let` variable, a loop variable, a memory, `transcript` or `meeting`",
                    "bind it with `let`, or write text in quotes: `\"…\"`",
                );
            }
            return;
        };
        let name = match other {
            Ty::Symbol(name) => name.clone(),
            _ => {
                if let ExprKind::Str(parts) = &other_expr.kind {
                    if let [StrPart::Lit(text)] = parts.as_slice() {
                        text.clone()
                    } else {
                        return;
                    }
                } else {
                    return;
                }
            }
        };
        if !cases.contains(&name) {
            self.error(
                other_expr.span,
                format!("`{name}` is not a case of enum({})", cases.join(", ")),
                &format!("one of: {}", cases.join(", ")),
                "compare with a case the schema declares",
            );
        }
    }
}

/// `E_RECEIPT`: an `on receipt` fires only on the receipts of its own agent's actions, so one that names a
/// capability or verb none of them has (a typo, an action since removed) would never fire, and neither
/// would one in an agent without actions.
fn receipt_filters(agent: &Agent) -> Vec<Diagnostic> {
    let mut names: Vec<&str> = Vec::new();
    for behavior in &agent.behaviors {
        for site in crate::sites::key_sites(behavior) {
            if let Some(cap) = site.cap {
                for name in [site.name, cap] {
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
            }
        }
    }
    let mut found = Vec::new();
    for behavior in &agent.behaviors {
        let Trigger::Receipt { filter, span } = &behavior.trigger else { continue };
        let what = match filter {
            Some(name) if !names.contains(&name.as_str()) => format!(
                "no action of agent \"{}\" has the capability or verb \"{name}\": this behavior would never fire",
                agent.name.text
            ),
            None if names.is_empty() => {
                format!("agent \"{}\" has no action: this behavior would never fire", agent.name.text)
            }
            _ => continue,
        };
        let fix = if names.is_empty() {
            "give the agent the action whose receipt it waits for, or remove this behavior".to_string()
        } else {
            format!("name one of its actions' verbs or capabilities: {}", names.join(", "))
        };
        found.push(
            Diagnostic::new(Code::Receipt, *span, what)
                .expected(
                    "a receipt of one of the agent's own actions: a receipt comes back only to the agent that acted",
                )
                .fix(fix),
        );
    }
    found
}

/// `E_DUP_ID`: an id names one site of its agent (a number, an ordinal pinned in place, names one of its
/// behavior), and no two sites of a behavior share a key: a pinned number must not be the ordinal another
/// site of the same name holds by its place.
fn stable_ids(agent: &Agent) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let mut named: BTreeMap<&str, Span> = BTreeMap::new();
    for behavior in &agent.behaviors {
        let sites = crate::sites::key_sites(behavior);
        let mut numbers: BTreeMap<&str, Span> = BTreeMap::new();
        let mut keyed: BTreeMap<(String, usize, &str), &crate::sites::KeySite> = BTreeMap::new();
        for site in &sites {
            let Some(id) = site.id else { continue };
            let pinned = id.text.bytes().all(|b| b.is_ascii_digit());
            let first = if pinned { numbers.get(id.text.as_str()) } else { named.get(id.text.as_str()) };
            if let Some(first) = first {
                let scope = if pinned { "behavior" } else { "agent" };
                found.push(
                    Diagnostic::new(
                        Code::DupId,
                        id.span,
                        format!("a second site of agent \"{}\" with the id \"{}\"", agent.name.text, id.text),
                    )
                    .expected(format!("each id once in its {scope}: two sites with one id would share their keys"))
                    .fix(format!("give this `{}` an id of its own, as in `id \"{}-2\"`", site.name, id.text))
                    .note("the id is first given", *first),
                );
            } else if pinned {
                numbers.insert(&id.text, id.span);
            } else {
                named.insert(&id.text, id.span);
            }
        }
        // Sites with an id first, so a positional site that takes a pinned one's key is the one reported.
        let mut ordered: Vec<&crate::sites::KeySite> = sites.iter().collect();
        ordered.sort_by_key(|s| (s.id.is_none(), s.ordinal));
        for site in ordered {
            let key = (site.part().to_string(), site.loops, site.name);
            match keyed.get(&key) {
                Some(other) if site.id.is_none() => {
                    let part = &key.0;
                    found.push(
                        Diagnostic::new(
                            Code::DupId,
                            site.span,
                            format!(
                                "this `{}` is keyed `{}#{}/{part}/{}` by its place, the key the id \"{part}\" gives another",
                                site.name, agent.name.text, behavior.ordinal, site.name
                            ),
                        )
                        .expected("one key per site of a behavior")
                        .fix(format!("give this `{}` an id of its own, as in `id \"{}-new\"`", site.name, site.name))
                        .note("the id is given", other.id.map_or(other.span, |id| id.span)),
                    );
                }
                Some(_) => {}
                None => {
                    keyed.insert(key, site);
                }
            }
        }
    }
    found
}

/// A leaf's schema by name, the first declaration (top-level or inline) winning.
pub fn leaf_schema<'a>(program: &'a Program, name: &str) -> Option<&'a Schema> {
    program.leaves.iter().filter(|l| l.name.text == name).min_by_key(|l| l.span.start).map(|l| &l.schema)
}

#[cfg(test)]
mod tests;
