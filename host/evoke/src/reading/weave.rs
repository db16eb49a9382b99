//! A woven plan's lines read back from the log, typed, for `evoke why`: a step's line, and the plan line
//! `try` writes or a plan refused whole writes. Every field is read leniently, as a decision's is.

use serde_json::Value;

fn text(value: &Value, key: &str) -> String {
    value.get(key).and_then(Value::as_str).unwrap_or_default().to_string()
}

fn array<'a>(value: &'a Value, key: &str) -> &'a [Value] {
    value.get(key).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default()
}

/// One step's line: its place in the plan, its call, how it ended and why, and what it took from others.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LoggedStep {
    pub step: Option<u64>,
    pub steps: Option<u64>,
    pub input: String,
    pub call: String,
    pub reflex: String,
    /// `ran`, `failed`, `declined`, `refused`, `skipped` or `unanswered`.
    pub status: String,
    /// Why it stopped or did not run: the kind, and the message when one was said.
    pub why: Option<(String, Option<String>)>,
    /// For a step passed by (`not_chosen`): the value its `when`'s source yielded.
    pub yielded: Option<String>,
    /// The value of an earlier step it runs only under: the step, the field, the value.
    pub when: Option<(u64, String, String)>,
    /// The playbooks that wrote it, outermost first, each with its step that did; empty for a step of a
    /// sentence's own.
    pub from: Vec<(String, u64)>,
    /// Each value taken from another step: the argument, the step, the field.
    pub bound: Vec<(String, u64, String)>,
}

impl LoggedStep {
    pub fn of(line: &Value) -> LoggedStep {
        LoggedStep {
            step: line.get("step").and_then(Value::as_u64),
            steps: line.get("steps").and_then(Value::as_u64),
            input: text(line, "input"),
            call: text(line, "call"),
            reflex: text(line, "reflex"),
            status: text(line, "status"),
            why: line
                .get("why")
                .map(|why| (text(why, "type"), why.get("message").and_then(Value::as_str).map(str::to_string))),
            yielded: line.pointer("/why/value").and_then(Value::as_str).map(str::to_string),
            when: line
                .get("when")
                .map(|w| (w.get("step").and_then(Value::as_u64).unwrap_or(0), text(w, "field"), text(w, "is"))),
            from: array(line, "from")
                .iter()
                .map(|f| (text(f, "playbook"), f.get("step").and_then(Value::as_u64).unwrap_or(0)))
                .collect(),
            bound: array(line, "bound")
                .iter()
                .map(|b| (text(b, "arg"), b.get("from").and_then(Value::as_u64).unwrap_or(0), text(b, "field")))
                .collect(),
        }
    }
}

/// The line of a whole plan: the one `try` writes, or one refused whole.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LoggedPlan {
    pub input: String,
    /// Each step: its number, its call (or its words when it has none), its outcome.
    pub steps: Vec<(u64, String, String)>,
    /// Why the plan was refused or held: each reason as the plan said it, or, for one this evoke cannot
    /// read, its kind and the text it names.
    pub because: Vec<Result<evoke_core::weave::plan::VerdictBecause, (String, String)>>,
    /// The parts left out, for saying what not to do.
    pub excluded: Vec<String>,
}

impl LoggedPlan {
    pub fn of(line: &Value) -> LoggedPlan {
        let because = line.pointer("/verdict/because").or_else(|| line.get("because")).and_then(Value::as_array);
        LoggedPlan {
            input: text(line, "input"),
            steps: array(line, "steps")
                .iter()
                .map(|s| {
                    let call = text(s, "call");
                    let shown = if call.is_empty() { text(s, "input") } else { call };
                    (s.get("step").and_then(Value::as_u64).unwrap_or(0), shown, text(s, "outcome"))
                })
                .collect(),
            because: because
                .into_iter()
                .flatten()
                .map(|b| serde_json::from_value(b.clone()).map_err(|_| (text(b, "type"), text(b, "text"))))
                .collect(),
            excluded: array(line, "excluded").iter().map(|e| text(e, "text")).collect(),
        }
    }
}
