//! The keyed sites of a behavior: every model leaf call (declared, inline, `summarize`) and every action,
//! with what its keys are built from (`site/PART[:loops]/name`). The checker reads them to refuse two
//! sites with one key; `expresso check --against` reads them to find what an edited program still keys.

use crate::ast::*;
use crate::span::Span;

/// One leaf or action of a behavior, as its keys see it.
#[derive(Debug, Clone, PartialEq)]
pub struct KeySite<'a> {
    /// Its leaf ordinal in the behavior.
    pub ordinal: usize,
    /// The author's stable id, when it has one.
    pub id: Option<&'a Name>,
    /// How many `for` loops enclose it: the length of its keys' loop index chain.
    pub loops: usize,
    /// The leaf's name, `summarize`, or the action's verb as written.
    pub name: &'a str,
    /// The capability of an action (its idemKey's class); `None` for a model leaf.
    pub cap: Option<&'a str>,
    /// Where it is written: an action's verb, a leaf call's name, `summarize`.
    pub span: Span,
}

impl KeySite<'_> {
    pub fn part(&self) -> KeyPart<'_> {
        KeyPart::of(self.ordinal, self.id)
    }

    pub fn is_action(&self) -> bool {
        self.cap.is_some()
    }
}

/// Every keyed site of a behavior's body, in the order of their leaf ordinals.
pub fn key_sites(behavior: &Behavior) -> Vec<KeySite<'_>> {
    let mut out = Vec::new();
    block(&behavior.body, 0, &mut out);
    out.sort_by_key(|s| s.ordinal);
    out
}

fn block<'a>(stmts: &'a [Stmt], loops: usize, out: &mut Vec<KeySite<'a>>) {
    for stmt in stmts {
        match stmt {
            Stmt::Let { value, .. } | Stmt::Remember { value, .. } => expr(value, loops, out),
            Stmt::If { cond, then, otherwise, .. } => {
                expr(cond, loops, out);
                block(then, loops, out);
                if let Some(other) = otherwise {
                    block(other, loops, out);
                }
            }
            Stmt::For { list, body, .. } => {
                expr(list, loops, out);
                block(body, loops + 1, out);
            }
            Stmt::Action(action) => {
                for (_, arg) in &action.args {
                    expr(arg, loops, out);
                }
                out.push(KeySite {
                    ordinal: action.ordinal,
                    id: action.id.as_ref(),
                    loops,
                    name: &action.verb.text,
                    cap: Some(&action.cap),
                    span: action.verb.span,
                });
            }
        }
    }
}

fn expr<'a>(e: &'a Expr, loops: usize, out: &mut Vec<KeySite<'a>>) {
    match &e.kind {
        ExprKind::Str(parts) => {
            for part in parts {
                if let StrPart::Interp(inner) = part {
                    expr(inner, loops, out);
                }
            }
        }
        ExprKind::Field(base, _) => expr(base, loops, out),
        ExprKind::Binary(_, left, right) => {
            expr(left, loops, out);
            expr(right, loops, out);
        }
        ExprKind::Summarize { arg, ordinal, id } => {
            expr(arg, loops, out);
            out.push(KeySite { ordinal: *ordinal, id: id.as_ref(), loops, name: "summarize", cap: None, span: e.span });
        }
        ExprKind::Leaf { name, arg, ordinal, id } => {
            expr(arg, loops, out);
            out.push(KeySite {
                ordinal: *ordinal,
                id: id.as_ref(),
                loops,
                name: &name.text,
                cap: None,
                span: name.span,
            });
        }
        ExprKind::Num(_)
        | ExprKind::Bool(_)
        | ExprKind::Dur(_)
        | ExprKind::Tag(_)
        | ExprKind::Binding(_)
        | ExprKind::Var(_)
        | ExprKind::SpanOf(_) => {}
    }
}
