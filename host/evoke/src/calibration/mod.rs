//! Calibration: how far an engine's confidence can be trusted, from decisions whose right answer is known
//! (a reflex's examples and tests). Each decision is scored into a [`Scored`]; the statistics turn the
//! scores into a typed [`Report`], which serde writes as `evoke calibrate --json` and `Display` as the
//! report for a person. Nothing here decides or reads a terminal: the command does.

mod human;
mod log;
mod report;
mod stats;

pub use log::summary as log_summary;
pub use report::*;
pub use stats::{report, wilson};

use evoke_core::decision::Outcome;
use evoke_core::manifest::Effect;

/// One decision of a case, scored against what its record asserts.
#[derive(Debug, Clone)]
pub struct Scored {
    pub outcome: Outcome,
    pub reflex: Option<String>,
    pub confidence: Option<f64>,
    pub effect: Option<Effect>,
    /// A run or a confirm: a call with every value.
    pub complete: bool,
    /// Whether the decision met the record; `None` when it cannot be judged (a complete call on a `false`
    /// record that names another reflex).
    pub right: Option<bool>,
    /// What differs from the record, in words; empty when it met it.
    pub mismatch: String,
    pub route_top: Option<(String, f64)>,
    /// Per argument judged: (kind, p, right).
    pub questions: Vec<(&'static str, f64, bool)>,
    /// How far the call holds all the input says, where the read-back found it holds less than all.
    pub whole: Option<f64>,
}

/// A case's decision: scored, or the failure that refused it.
pub type Run = Result<Scored, crate::drive::Failure>;

/// What the statistics need of the setting the cases were decided in.
pub struct Setting<'a> {
    pub adapter: AdapterName,
    pub reflexes: usize,
    /// The playbooks among the choices the route offers, whose examples are cases too.
    pub playbooks: usize,
    /// The read and write bars of the engine's gate, when it has one.
    pub bars: Option<(f64, f64)>,
    pub repeats: usize,
    /// The log's text, for what it says of past decisions.
    pub log: &'a str,
}
