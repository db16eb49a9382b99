//! Every line evoke shows a person is written here, so wording and colour live in one place.

use evoke_core::diag::Diagnostic;
use evoke_core::lint::Finding;
use std::io::{self, IsTerminal, Write};

/// Whether to colour the error stream: only on a terminal, and never under `NO_COLOR`.
pub fn colour_stderr() -> bool {
    io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

fn paint(text: &str, code: &str, colour: bool) -> String {
    if colour { format!("\x1b[{code}m{text}\x1b[0m") } else { text.to_string() }
}

pub fn diagnostic(d: &Diagnostic) -> String {
    let shown = d.render();
    if !colour_stderr() {
        return shown;
    }
    let (label, code) = if d.is_error() { ("error", "1;31") } else { ("warning", "1;33") };
    shown.replacen(label, &paint(label, code, true), 1)
}

pub fn lint_finding(file: &str, f: &Finding) -> String {
    let label = paint("warning", "1;33", colour_stderr());
    let kind = serde_json::to_value(f.kind).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
    format!("{label}[lint:{kind}]: {}\n  --> {file}\n   = key: {}\n", f.message, f.key)
}

/// Writes to stderr; a closed stream is not an error worth dying over.
pub fn err(text: &str) {
    let _ = io::stderr().write_all(text.as_bytes());
}

pub fn out(text: &str) {
    let _ = io::stdout().write_all(text.as_bytes());
}
