//! The reading of a decision, typed: what `evoke try` shows of a decision it just made, and what `evoke why`
//! shows of one read back from the log, so that a logged decision reads exactly as it did. `render::reading`
//! writes it.
//!
//! From the log every field is read leniently: a field of the wrong shape reads as absent, so a damaged
//! line is explained as far as it can be.

mod weave;
pub use weave::{LoggedPlan, LoggedStep};

use crate::drive::Decided;
use evoke_core::adapter::Raw;
use evoke_core::log_entry::LogEntry;
use evoke_core::question::QuestionId;
use evoke_core::weave::plan::VerdictBecause;
use serde_json::Value;

/// One decision as its reading shows it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reading {
    /// `run`, `confirm`, `ask` or `abstain`; empty when the line has none.
    pub outcome: String,
    pub call: String,
    pub judgments: Vec<Judged>,
    /// Each contender with its `fits`, in the decision's order.
    pub fits: Vec<(String, f64)>,
    /// The weakest judgment's question (absent when the line lacks it) and probability.
    pub weakest: Option<(Option<QuestionId>, f64)>,
    /// Why a confirm waits: each reason's kind.
    pub because: Vec<String>,
    /// The arguments an ask misses.
    pub missing: Vec<String>,
    /// Every question's raw answer.
    pub answers: Raw,
    /// The input's candidate spans: the key an answer names them by (`<start>-<end>`) and their text.
    pub spans: Vec<(String, String)>,
    /// Why a plan was refused whole, when the line is that plan's one abstain over the whole input.
    pub refused: Vec<VerdictBecause>,
}

/// One judgment: its question (absent when the line lacks it, or names none), the top answer and its
/// probability.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Judged {
    pub question: Option<QuestionId>,
    pub top: String,
    pub p: f64,
}

/// The `type` serde gives a tagged value: the one name the JSON line and the reading share.
fn tag<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_value(value).ok().map(|v| shown_because(&v)).unwrap_or_default()
}

/// A reason a call waits, as a reading lists it: its type, and for a reading of words that the reason
/// names alone, what they read (`one_view ("douse" reads on)`, `respelt ("xy0001")`).
fn shown_because(because: &Value) -> String {
    let kind = because.get("type").and_then(Value::as_str).unwrap_or_default();
    let quoted = |v: &Value| serde_json::to_string(v).unwrap_or_default();
    match (kind, because.get("reads"), because.get("text")) {
        ("one_view", Some(reads @ Value::String(_)), _) => {
            let words: Vec<String> =
                because.get("words").and_then(Value::as_array).into_iter().flatten().map(quoted).collect();
            format!("one_view ({} reads {})", words.join(" "), reads.as_str().unwrap_or_default())
        }
        ("respelt", _, Some(text)) => format!("respelt ({})", quoted(text)),
        _ => kind.to_string(),
    }
}

impl Reading {
    /// A decision as it was just decided.
    pub fn of_decided(decided: &Decided) -> Reading {
        let d = &decided.decision;
        Reading {
            outcome: d.outcome.as_str().to_string(),
            call: d.call.clone().unwrap_or_default(),
            judgments: d
                .judgments
                .iter()
                .map(|j| Judged { question: Some(j.question.clone()), top: j.top.clone(), p: j.p })
                .collect(),
            fits: d.contenders.iter().filter_map(|c| Some((c.reflex.clone(), c.fits?))).collect(),
            weakest: d.weakest.as_ref().map(|w| (Some(w.question.clone()), w.p)),
            because: d.because.iter().flatten().map(tag).collect(),
            missing: d.missing.iter().flatten().map(|m| m.arg.clone()).collect(),
            answers: decided.rounds.iter().flat_map(|r| r.raw.clone()).collect(),
            spans: decided
                .candidates
                .iter()
                .map(|c| (format!("{}-{}", c.span.start, c.span.end), c.span.text.clone()))
                .collect(),
            refused: Vec::new(),
        }
    }

    /// A decision read back from its line in the log.
    pub fn of_log(entry: &LogEntry) -> Reading {
        let line = &entry.line;
        let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or_default().to_string();
        let array = |key: &str| line.get(key).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        let question = |v: &Value| v.get("question").and_then(Value::as_str).and_then(|q| q.parse().ok());
        Reading {
            outcome: text(line.get("outcome")),
            call: text(line.get("call")),
            judgments: array("judgments")
                .iter()
                .map(|j| Judged {
                    question: question(j),
                    top: text(j.get("top")),
                    p: j.get("p").and_then(Value::as_f64).unwrap_or(0.0),
                })
                .collect(),
            fits: array("contenders")
                .iter()
                .filter_map(|c| Some((c.get("reflex")?.as_str()?.to_string(), c.get("fits")?.as_f64()?)))
                .collect(),
            weakest: line.get("weakest").map(|w| (question(w), w.get("p").and_then(Value::as_f64).unwrap_or(0.0))),
            because: array("because").iter().map(shown_because).collect(),
            missing: array("missing").iter().map(|r| text(r.get("arg"))).collect(),
            answers: entry.answers.clone(),
            spans: entry
                .candidates
                .iter()
                .filter_map(|c| {
                    let span = c.get("span")?;
                    let key = format!("{}-{}", span.get("start")?, span.get("end")?);
                    Some((key, text(span.get("text"))))
                })
                .collect(),
            // A decision's own reasons are for a confirm; an abstain's are a refused plan's.
            refused: match line.get("outcome").and_then(Value::as_str) {
                Some("abstain") => {
                    array("because").iter().filter_map(|b| serde_json::from_value(b.clone()).ok()).collect()
                }
                _ => Vec::new(),
            },
        }
    }

    /// The text of the candidate span an answer names by `key`.
    pub fn span_text(&self, key: &str) -> Option<&str> {
        self.spans.iter().find(|(k, _)| k == key).map(|(_, text)| text.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use evoke_core::log_entry::read_log_entry;

    #[test]
    fn a_damaged_line_reads_as_far_as_it_can() {
        let line = r#"{"outcome":"confirm","call":"lamp","judgments":[{"top":"lamp","p":0.9},{"question":"lamp.room","top":"den","p":"x"}],"contenders":[{"reflex":"lamp","fits":0.8},{"reflex":"mail"}],"because":[{"type":"under_floor"},{}],"candidates":[{"span":{"start":0,"end":3,"text":"den"}},{"span":{}}]}"#;
        let reading = Reading::of_log(&read_log_entry(line).unwrap());
        assert_eq!(reading.outcome, "confirm");
        assert_eq!(reading.judgments[0].question, None);
        assert_eq!(reading.judgments[1].p, 0.0, "a probability that is no number reads as 0");
        assert_eq!(reading.fits, [("lamp".to_string(), 0.8)], "a contender without fits is left out");
        assert_eq!(reading.because, ["under_floor", ""]);
        assert_eq!(reading.span_text("0-3"), Some("den"));
        assert_eq!(reading.spans.len(), 1, "a span without its ends is left out");
    }

    /// The one line of a plan refused whole, as the log keeps it.
    #[test]
    fn a_reason_from_words_read_alone_says_what_they_read() {
        let line = r#"{"outcome":"confirm","call":"lights","judgments":[],"because":[{"type":"one_view","arg":"state","words":["douse"],"reads":"on"},{"type":"respelt","arg":"id","text":"xy0001"},{"type":"one_view","arg":"room","words":["office"]}]}"#;
        let reading = Reading::of_log(&read_log_entry(line).unwrap());
        assert_eq!(reading.because, ["one_view (\"douse\" reads on)", "respelt (\"xy0001\")", "one_view"]);
    }

    #[test]
    fn what_words_named_alone_is_shown_under_their_argument() {
        let line = r#"{"outcome":"confirm","call":"lights room=\"den\" state=\"off\"","judgments":[{"question":"route","top":"lights","p":0.9},{"question":"lights.room","top":"den","p":0.85},{"question":"lights.state","top":"off","p":0.88}],"because":[{"type":"one_view","arg":"state","words":["douse"],"reads":"on"}],"answers":[{"questions":["lights.room","lights.state"],"raw":{"lights.room":{"den":0.85,"unstated":0.15},"lights.state":{"off":0.88,"on":0.12}}},{"questions":["weave.alone_0_5_lights__state"],"raw":{"weave.alone_0_5_lights__state":{"on":0.9,"off":0.1}}}]}"#;
        let said = crate::render::reading(&Reading::of_log(&read_log_entry(line).unwrap()));
        let rows: Vec<&str> = said.lines().collect();
        assert_eq!(
            rows[0..3],
            [
                "  room         den 0.85 · unstated 0.15",
                "  state        off 0.88 · on 0.12",
                "  state alone  on 0.90 · off 0.10"
            ],
            "{said}"
        );
    }

    fn refused(because: &str) -> Reading {
        let line = format!(
            r#"{{"input":"good night in the den and turn on the office lamp","outcome":"abstain","judgments":[],"contenders":[],"because":[{because}],"excluded":[],"trace":[]}}"#
        );
        Reading::of_log(&read_log_entry(&line).unwrap())
    }

    #[test]
    fn a_plan_try_printed_says_why_it_was_refused_or_held_in_evoke_s_words() {
        let line: serde_json::Value = serde_json::from_str(
            r#"{"input":"good night but leave the bedroom","steps":[],"binds":[],"stages":[],"verdict":{"outcome":"abstain","because":[{"type":"excluded","text":"good night but leave the bedroom"},{"type":"reviewed","playbook":"good_night","step":0,"text":"good night","prompt":"Run?"},{"type":"from_a_later_evoke"}]},"excluded":[],"splits":[]}"#,
        )
        .unwrap();
        let said = crate::render::plan_why(&crate::reading::LoggedPlan::of(&line));
        assert!(said.contains("refused: \"good night but leave the bedroom\" leaves out part of a playbook"), "{said}");
        assert!(said.contains("waits for a yes: the playbook good_night has not been reviewed"), "{said}");
        assert!(said.contains("stopped: from_a_later_evoke"), "a reason this evoke cannot read is named: {said}");
        assert!(!said.contains("stopped: excluded"), "{said}");
    }

    #[test]
    fn a_plan_refused_whole_reads_as_the_refusal_evoke_said() {
        let nested = refused(r#"{"type":"nested","playbook":"good_night"}"#);
        assert_eq!(nested.refused, [VerdictBecause::Nested { playbook: "good_night".into(), text: None }]);
        let said = crate::render::reading(&nested);
        assert_eq!(
            said.lines().last(),
            Some(
                "  abstain · the playbook good_night is asked for beside other things; say it alone, then the rest; nothing ran"
            )
        );
        let conditional = refused(r#"{"type":"conditional","text":"good night if it gets late"}"#);
        let said = crate::render::reading(&conditional);
        assert!(said.contains("\"good night if it gets late\" asks for a playbook on a condition"), "{said}");
        assert!(!said.contains("nothing is installed"), "{said}");
        let found_nothing = refused(r#"{"type":"found_nothing","text":"feed the cat"}"#);
        let said = crate::render::reading(&found_nothing);
        assert!(said.contains("abstain · nothing installed does \"feed the cat\""), "{said}");
    }

    #[test]
    fn a_decisions_own_reasons_are_no_refused_plan() {
        let line = r#"{"outcome":"confirm","call":"lamp","judgments":[],"because":[{"type":"two_things"}]}"#;
        assert_eq!(Reading::of_log(&read_log_entry(line).unwrap()).refused, []);
        // An abstain of one decision has no reasons: nothing was refused but the route.
        let line = r#"{"outcome":"abstain","judgments":[{"question":"route","top":"none","p":0.9}]}"#;
        let reading = Reading::of_log(&read_log_entry(line).unwrap());
        assert!(crate::render::reading(&reading).ends_with("  abstain · route: none 0.90\n"));
    }
}
