//! The calibration report, typed: serde writes it as one JSON line, field by field in this order.

use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub adapter: AdapterName,
    /// The cases: every example and test of the installed reflexes.
    pub records: usize,
    pub reflexes: usize,
    /// The playbooks whose examples are among the cases; absent when there are none.
    #[serde(skip_serializing_if = "is_zero")]
    pub playbooks: usize,
    pub inputs: usize,
    pub repeats: usize,
    pub outcomes: Outcomes,
    /// Complete calls in bins of claimed confidence, a tenth wide; a bin with no call is left out.
    pub bins: Vec<Bin>,
    /// Complete calls that cannot be judged.
    pub unknown: usize,
    pub abstained: Share,
    /// Per bar of the gate (`read`, `write`): the wrong runs it lets through; and `whole`'s.
    pub bars: Bars,
    /// Per kind of question (route, options, vocab, pick, flag).
    pub questions: Vec<Question>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub brier: Option<Brier>,
    pub misses: Vec<Miss>,
    /// Under `--repeat`: how far the answers move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variance: Option<Variance>,
    pub log: LogSummary,
}

#[derive(Debug, Clone, Serialize)]
pub struct AdapterName {
    pub name: String,
    pub id: String,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Outcomes {
    pub run: usize,
    pub confirm: usize,
    pub ask: usize,
    pub abstain: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct Bin {
    pub lo: f64,
    pub hi: f64,
    pub calls: usize,
    pub right: usize,
    /// The Wilson interval of the share right, at 95%.
    pub interval: [f64; 2],
    pub claimed: f64,
    /// Fewer than ten calls: the interval is wide.
    pub thin: bool,
    /// The claimed confidence is over the interval's top.
    pub over_confident: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct Share {
    pub count: usize,
    pub right: usize,
    pub interval: [f64; 2],
}

#[derive(Debug, Clone, Serialize)]
pub struct Bar {
    pub bar: f64,
    pub wrong: usize,
    pub calls: usize,
    pub per_thousand: f64,
    pub at_most: f64,
    /// The same count at bars a little lower and higher.
    pub near: Vec<Near>,
}

/// The gate's bars, each where a call was judged against it.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Bars {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read: Option<Bar>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write: Option<Bar>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub whole: Option<WholeBar>,
}

/// The read-back's bar: of the writes over the write bar, those that hold all the input says run.
#[derive(Debug, Clone, Serialize)]
pub struct WholeBar {
    /// The share of the input a call must hold to run: all of it.
    pub bar: f64,
    /// Writes over the write bar, read back against their input.
    pub calls: usize,
    /// Of them, those that held all the input says, and so run.
    pub run: usize,
    /// Of those run, the wrong ones.
    pub wrong: usize,
    pub per_thousand: f64,
    pub at_most: f64,
    /// Calls the read-back held for a person that were right: what the bar costs.
    pub held_right: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct Near {
    pub at: f64,
    pub run: usize,
    pub wrong: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct Question {
    pub kind: &'static str,
    pub judgments: usize,
    pub right: usize,
    pub interval: [f64; 2],
    pub claimed: f64,
}

/// The Brier score and its decomposition: reliability − resolution + uncertainty.
#[derive(Debug, Clone, Serialize)]
pub struct Brier {
    pub brier: f64,
    pub reliability: f64,
    pub resolution: f64,
    pub uncertainty: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Miss {
    pub case: String,
    /// The decision's outcome, or `refused`.
    pub outcome: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reflex: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence: Option<f64>,
    pub mismatch: String,
    /// It ran, and ran wrong.
    pub wrong: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct Variance {
    pub flips: usize,
    pub verdict_flips: usize,
    pub spread: Spread,
    pub straddling: usize,
    pub wrong_at_bar: usize,
    pub moved: Vec<Moved>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Spread {
    pub median: f64,
    pub p90: f64,
    pub max: f64,
}

/// A case whose answers moved between repeats.
#[derive(Debug, Clone, Serialize)]
pub struct Moved {
    pub utterance: String,
    pub route: Vec<f64>,
    pub winners: Vec<String>,
    pub outcomes: Vec<&'static str>,
    pub wrong: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence: Option<Vec<f64>>,
}

/// What the log says of past decisions.
#[derive(Debug, Clone, Serialize)]
pub struct LogSummary {
    pub adapter: String,
    pub decisions: usize,
    pub ran: usize,
    pub confirmed_ran: usize,
    pub confirmed_stopped: usize,
    pub asked: usize,
    pub abstained: usize,
    pub failed: usize,
    pub skipped: usize,
    pub stopped_by_confidence: Vec<Stopped>,
    pub records: Share,
    pub unread: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct Stopped {
    pub lo: f64,
    pub hi: f64,
    pub count: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}
