//! The lines a plan's run writes: one per step, the step-0 line of a playbook's plan, the one line of a
//! plan refused before it was made, and the plan whole as `evoke try --json` prints it.

use crate::drive::TraceEntry;
use crate::line::RanFields;
use evoke_core::decision::{Decision, Outcome, Value};
use evoke_core::weave::plan::{Plan, VerdictBecause};
use serde::Serialize;

/// How a step ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ran,
    Failed,
    Declined,
    Refused,
    Skipped,
    Unanswered,
}

/// Why a step stopped, or did not run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Why {
    EarlierStep,
    /// A step bound to an earlier step's result, which holds no value of the field it takes.
    NothingToTake {
        from: usize,
    },
    /// A step bound to an earlier step's result, whose field holds more than any value a call carries.
    TooLarge {
        from: usize,
    },
    /// A step whose words match nothing installed: the plan runs none of its steps.
    FoundNothing,
    /// A step of a plan file whose reflex is not installed and active here: the plan runs none of its steps.
    NoReflex,
    /// A step whose body Ctrl-C ended.
    Cancelled,
    /// A step whose words, written again with the value it takes, read as another reflex.
    ReadAs {
        reflex: String,
    },
    /// A step that runs only under a value an earlier step yields, that step having yielded another.
    NotChosen {
        from: usize,
        value: serde_json::Value,
    },
    Said {
        message: String,
    },
}

/// The line of one step: `step` and `steps` first, the decision's fields, `trace`, what the run added,
/// and `status` last with `why`.
#[derive(Serialize)]
pub struct StepLine<'a> {
    pub step: usize,
    pub steps: usize,
    #[serde(flatten)]
    pub decision: &'a Decision,
    pub trace: &'a [TraceEntry],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub bound: &'a [Bound],
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub shared: &'a std::collections::BTreeMap<String, evoke_core::weave::shared::Shared>,
    /// Per argument, the earlier step beside whose day a day of the month was read.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub beside: &'a std::collections::BTreeMap<String, usize>,
    #[serde(flatten)]
    pub ran: Option<RanFields<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pinned: Option<&'a Pinned>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub from: &'a [evoke_core::playbook::From],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub when: Option<&'a evoke_core::playbook::When>,
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<Why>,
}

/// A value a step took from another step's result. A whole result (`via: takes`) has no `value` here: it
/// stays on its source's line as `result.data`.
#[derive(Debug, Clone, Serialize)]
pub struct Bound {
    pub arg: String,
    pub from: usize,
    pub field: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
}

/// Which plan file a step ran from: the file as shown and the SHA-256 of what was read.
#[derive(Debug, Clone, Serialize)]
pub struct Pinned {
    pub file: String,
    pub id: String,
}

/// The sentence's own line of a plan a playbook wrote: `step` 0, the count, the decision that picked the
/// playbook, the playbook and its slots, and no `status`.
#[derive(Serialize)]
pub(super) struct HeadLine<'a> {
    pub(super) step: usize,
    pub(super) steps: usize,
    #[serde(flatten)]
    pub(super) decision: &'a Decision,
    pub(super) trace: &'a [TraceEntry],
    pub(super) playbook: &'a str,
    pub(super) slots: serde_json::Map<String, serde_json::Value>,
}

/// The one line of a plan refused before it was made: an abstain over the whole input.
#[derive(Serialize)]
pub(super) struct WholeLine<'a> {
    pub(super) input: &'a str,
    pub(super) outcome: Outcome,
    pub(super) judgments: [(); 0],
    pub(super) contenders: [(); 0],
    pub(super) because: &'a [VerdictBecause],
    pub(super) excluded: &'a [evoke_core::weave::plan::Excluded],
    pub(super) trace: &'a [TraceEntry],
}

/// The plan whole on one line, as `evoke try --json` prints it.
#[derive(Serialize)]
pub struct PlanLine<'a> {
    #[serde(flatten)]
    pub plan: &'a Plan,
    pub trace: &'a [TraceEntry],
}

impl<'a> PlanLine<'a> {
    pub fn of(woven: &'a crate::weave::PlanDecided, trace: &'a [TraceEntry]) -> Self {
        PlanLine { plan: &woven.plan, trace }
    }
}
