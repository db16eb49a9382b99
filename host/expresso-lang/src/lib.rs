//! Expresso, the language (its grammar and its effect type system).
//!
//! Pure: source text in, a syntax tree and diagnostics out. Nothing here opens a file, reads a clock or
//! calls a model; the runtime crate does that with what this crate hands it.

pub mod ast;
pub mod bounds;
pub mod check;
pub mod diag;
pub mod effect;
pub mod fuzz;
pub mod lexer;
pub mod parser;
pub mod schedule;
pub mod schema;
pub mod sites;
pub mod span;
mod strings;
pub mod types;

pub use check::{AgentReport, Report, check};
pub use diag::{Code, Diagnostic, Severity};
pub use effect::Effect;
pub use parser::{Parsed, parse};
pub use span::Span;

/// A program that parsed and checked without an error, with the checker's report (warnings included).
#[derive(Debug, Clone)]
pub struct Compiled {
    pub program: ast::Program,
    pub report: Report,
}

/// Parses and checks: the compiled program, or every diagnostic (errors and warnings) in source order.
pub fn compile(source: &str) -> Result<Compiled, Vec<Diagnostic>> {
    let parsed = parse(source);
    if parsed.diagnostics.iter().any(Diagnostic::is_error) {
        return Err(parsed.diagnostics);
    }
    let report = check(&parsed.program);
    if report.diagnostics.iter().any(Diagnostic::is_error) {
        let mut all = parsed.diagnostics;
        all.extend(report.diagnostics);
        all.sort_by_key(|d| (d.span.start, d.span.end));
        return Err(all);
    }
    Ok(Compiled { program: parsed.program, report })
}
