//! Every line evoke shows a person is written here, so wording and colour live in one place.

use evoke_core::diag::Diagnostic;
use evoke_core::lint::Finding;
pub use evoke_core::text::escape_outside as shown;
pub use evoke_core::text::escape_outside_lines as shown_lines;
use evoke_core::text::escape_outside_lines;
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
    format!("{label}[lint:{kind}]: {}\n  --> {}\n   = key: {}\n", shown(&f.message), shown(file), shown(&f.key))
}

/// A body's result as shown at a terminal: its lines, every other control or bidi character escaped, so a
/// body can print text but never drive the terminal (a clipboard write, a cleared screen, a new title).
pub fn result(text: &str) -> String {
    format!("{}\n", escape_outside_lines(text))
}

/// Writes to stderr; a closed stream is not an error worth dying over.
pub fn err(text: &str) {
    let _ = io::stderr().write_all(text.as_bytes());
}

pub fn out(text: &str) {
    let held = HELD.with(|held| match held.borrow_mut().as_mut() {
        Some(buffer) => {
            buffer.extend_from_slice(text.as_bytes());
            true
        }
        None => false,
    });
    if !held {
        let _ = io::stdout().write_all(text.as_bytes());
    }
}

thread_local! {
    /// Standard output held back while the filter has more input waiting.
    static HELD: std::cell::RefCell<Option<Vec<u8>>> = const { std::cell::RefCell::new(None) };
}

/// From now on, hold what `out` writes until `release`.
pub fn hold() {
    HELD.with(|held| held.borrow_mut().get_or_insert_with(Vec::new).clear());
}

/// Writes out what was held, in one write, and flushes; `keep` goes on holding after.
pub fn release(keep: bool) {
    let buffer = HELD.with(|held| {
        let mut held = held.borrow_mut();
        let buffer = held.as_mut().map(std::mem::take).unwrap_or_default();
        if !keep {
            *held = None;
        }
        buffer
    });
    let mut stdout = io::stdout().lock();
    let _ = stdout.write_all(&buffer);
    let _ = stdout.flush();
}

/// The human reading of a decision, from its line and the answers behind it: the route, each
/// argument read with `unstated` among the choices, the fit per reflex, then the outcome and the weakest
/// judgment. `try` and `why` both print through here, so a logged decision reads exactly as it did.
pub fn reading(
    line: &serde_json::Value,
    answers: &std::collections::BTreeMap<String, std::collections::BTreeMap<String, f64>>,
    candidates: &serde_json::Value,
) -> String {
    use serde_json::Value;
    let span_text = |key: &str| -> Option<String> {
        candidates.as_array()?.iter().find_map(|c| {
            let span = c.get("span")?;
            let this = format!("{}-{}", span.get("start")?, span.get("end")?);
            (this == key)
                .then(|| format!("\"{}\"", shown(span.get("text").and_then(Value::as_str).unwrap_or_default())))
        })
    };
    let ranked = |question: &str| -> String {
        let Some(answer) = answers.get(question) else { return String::new() };
        // Keys that would print as 0.00 say nothing a reader can use.
        let mut keys: Vec<(&String, &f64)> = answer.iter().filter(|(_, p)| **p >= 0.005).collect();
        keys.sort_by(|a, b| b.1.total_cmp(a.1).then_with(|| a.0.cmp(b.0)));
        keys.iter()
            .map(|(k, p)| format!("{} {:.2}", span_text(k).unwrap_or_else(|| shown(k).into_owned()), p))
            .collect::<Vec<_>>()
            .join(" · ")
    };
    let judgments: Vec<&Value> =
        line.get("judgments").and_then(Value::as_array).map(|a| a.iter().collect()).unwrap_or_default();
    let contenders: Vec<&Value> =
        line.get("contenders").and_then(Value::as_array).map(|a| a.iter().collect()).unwrap_or_default();
    let arg_questions: Vec<&str> =
        judgments.iter().filter_map(|j| j.get("question").and_then(Value::as_str)).filter(|q| *q != "route").collect();
    let fits: Vec<String> = contenders
        .iter()
        .filter_map(|c| Some(format!("{} {:.2}", shown(c.get("reflex")?.as_str()?), c.get("fits")?.as_f64()?)))
        .collect();
    let label = |question: &str| shown(question.split_once('.').map_or(question, |(_, arg)| arg)).into_owned();
    let mut width = arg_questions.iter().map(|q| label(q).chars().count()).max().unwrap_or(0);
    if !fits.is_empty() {
        width = width.max("fits".len());
    }

    let mut out = String::new();
    if answers.contains_key("route") {
        out.push_str(&format!("  {}\n", ranked("route")));
    }
    for question in &arg_questions {
        out.push_str(&format!("  {:<width$}  {}\n", label(question), ranked(question)));
    }
    if !fits.is_empty() {
        out.push_str(&format!("  {:<width$}  {}\n", "fits", fits.join(" · ")));
    }
    out.push_str(&format!("  {}\n", outcome_line(line)));
    out
}

fn outcome_line(line: &serde_json::Value) -> String {
    use serde_json::Value;
    // Every string of a line came from a decision or from the log, so each is shown escaped.
    let text = |v: Option<&Value>| shown(v.and_then(Value::as_str).unwrap_or_default()).into_owned();
    let weakest = line.get("weakest").map(|w| {
        let question = text(w.get("question"));
        let label = question.split_once('.').map_or(question.as_str(), |(_, arg)| arg).to_string();
        format!(" · weakest: {label} {:.2}", w.get("p").and_then(Value::as_f64).unwrap_or(0.0))
    });
    let weakest = weakest.unwrap_or_default();
    match line.get("outcome").and_then(Value::as_str).unwrap_or_default() {
        "run" => format!("run {}{weakest}", text(line.get("call"))),
        "confirm" => {
            let because: Vec<String> = line
                .get("because")
                .and_then(Value::as_array)
                .map(|b| b.iter().map(|r| text(r.get("type"))).collect())
                .unwrap_or_default();
            format!("confirm {} · because: {}{weakest}", text(line.get("call")), because.join(", "))
        }
        "ask" => {
            let missing: Vec<String> = line
                .get("missing")
                .and_then(Value::as_array)
                .map(|m| m.iter().map(|r| text(r.get("arg"))).collect())
                .unwrap_or_default();
            format!("ask {}{weakest}", missing.join(", "))
        }
        "abstain" => {
            let route = line.get("judgments").and_then(Value::as_array).and_then(|j| j.first());
            match route {
                Some(r) => format!(
                    "abstain · route: {} {:.2}",
                    text(r.get("top")),
                    r.get("p").and_then(Value::as_f64).unwrap_or(0.0)
                ),
                None => "abstain · nothing is installed".to_string(),
            }
        }
        other => other.to_string(),
    }
}

/// The question of a missing value and its closed choices, numbered.
pub fn ask_choices(missing: &evoke_core::decision::Missing) -> String {
    use evoke_core::decision::Choices;
    let listed = |texts: &[(String, String)]| {
        let width = texts.iter().map(|(k, _)| k.chars().count()).max().unwrap_or(0);
        texts
            .iter()
            .enumerate()
            .map(|(i, (k, t))| format!("  {:>2}  {:<width$}  {}\n", i + 1, shown(k), shown(t)))
            .collect::<String>()
    };
    let ask = shown(&missing.ask);
    match &missing.choices {
        Choices::Vocab { words } => format!("{ask}\n{}", listed(&words.0)),
        Choices::Options { options } => format!("{ask}\n{}", listed(&options.0)),
        Choices::Pick { kind, range: Some([low, high]) } => format!("{ask} (a {kind}, from {low} to {high})\n"),
        Choices::Pick { kind, range: None } => format!("{ask} (a {kind})\n"),
    }
}

/// The literal command that makes a call by name: `evoke run lights room=den state=off`. A missing
/// value stands as its choices, `room=<den|office>`.
pub fn literal_call(
    project: Option<&std::path::Path>,
    line: &serde_json::Value,
    missing: &[evoke_core::decision::Missing],
) -> String {
    use evoke_core::decision::Choices;
    let quote = |s: &str| shlex::try_quote(s).map(|q| q.to_string()).unwrap_or_else(|_| format!("'{s}'"));
    let mut command = String::from("evoke");
    if let Some(dir) = project {
        command.push_str(&format!(" -C {}", quote(&dir.display().to_string())));
    }
    let reflex = line.get("reflex").and_then(serde_json::Value::as_str).unwrap_or_default();
    command.push_str(&format!(" run {reflex}"));
    if let Some(args) = line.get("args").and_then(serde_json::Value::as_object) {
        for (name, value) in args {
            let shown = match value.get("type").and_then(serde_json::Value::as_str) {
                Some("option") => value.get("key").and_then(serde_json::Value::as_str).unwrap_or_default().to_string(),
                Some("word") => value.get("word").and_then(serde_json::Value::as_str).unwrap_or_default().to_string(),
                Some("pick") => {
                    value.pointer("/span/text").and_then(serde_json::Value::as_str).unwrap_or_default().to_string()
                }
                _ => {
                    command.push_str(&format!(" {name}"));
                    continue;
                }
            };
            command.push_str(&format!(" {name}={}", quote(&shown)));
        }
    }
    for m in missing {
        let choices = match &m.choices {
            Choices::Vocab { words } => words.0.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>().join("|"),
            Choices::Options { options } => options.0.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>().join("|"),
            Choices::Pick { kind, .. } => (*kind).to_string(),
        };
        command.push_str(&format!(" {}=<{choices}>", m.arg));
    }
    // Values are clean text by the time they are here; escaping still keeps a stray one from the terminal.
    shown(&command).into_owned()
}

/// A body's failure for a person: the message, then its frames; both are the body's words, escaped.
pub fn failure(failure: &evoke_bodies::Failure) -> String {
    let mut out = format!("error: {}\n", escape_outside_lines(&failure.message));
    for frame in &failure.frames {
        out.push_str(&format!("    {}\n", shown(frame)));
    }
    out
}
