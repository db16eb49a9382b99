//! A plan as the library hands it out: a sentence read as several steps, or a playbook picked.

use crate::drive::TraceEntry;
use crate::line::to_line;
use crate::weave::PlanDecided;
use evoke_core::weave::plan::{Step, Verdict};
use serde::Serialize;

/// The plan of a sentence read as several steps (or of a playbook it picked), made by
/// [`Evoke::plan`](super::Evoke::plan) and by nothing else: its fields are private.
///
/// Its `Serialize` (and [`Plan::to_json_line`]) writes exactly the plan line `evoke try --json` prints for
/// the same input and answers.
pub struct Plan {
    woven: Box<PlanDecided>,
    trace: Vec<TraceEntry>,
    /// The `Evoke` that made it: only that one runs it.
    pub(crate) origin: u64,
    /// Whether it has not run, runs now, or ran: a plan runs once.
    state: std::sync::atomic::AtomicU8,
}

/// A plan's [`Plan::state`]s.
const UNRUN: u8 = 0;
const RUNNING: u8 = 1;
const RAN: u8 = 2;

impl std::fmt::Debug for Plan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plan").field("plan", &self.woven.plan).field("trace", &self.trace).finish()
    }
}

impl Plan {
    /// Only `Evoke::plan` makes one.
    pub(crate) fn of(woven: Box<PlanDecided>, origin: u64) -> Plan {
        let trace = woven.all_trace();
        Plan { woven, trace, origin, state: std::sync::atomic::AtomicU8::new(UNRUN) }
    }

    /// Whether [`Evoke::run_plan`](super::Evoke::run_plan) ran it (or runs it now): a plan runs once.
    pub fn ran(&self) -> bool {
        self.state.load(std::sync::atomic::Ordering::Acquire) != UNRUN
    }

    /// Takes the plan for its one run: `false` when it ran, or runs now.
    pub(crate) fn begin(&self) -> bool {
        use std::sync::atomic::Ordering;
        self.state.compare_exchange(UNRUN, RUNNING, Ordering::AcqRel, Ordering::Acquire).is_ok()
    }

    /// Ends the run [`Plan::begin`] took: spent when it began its steps, else left to run again.
    pub(crate) fn end(&self, began: bool) {
        self.state.store(if began { RAN } else { UNRUN }, std::sync::atomic::Ordering::Release);
    }

    /// The sentence as planned.
    pub fn input(&self) -> &str {
        &self.woven.plan.input
    }

    /// Each step, in order: its words, what it runs after, and its decision.
    pub fn steps(&self) -> &[Step] {
        &self.woven.plan.steps
    }

    /// The plan's verdict: `abstain` when it is refused whole (with why), else its weakest step's outcome.
    pub fn verdict(&self) -> &Verdict {
        &self.woven.plan.verdict
    }

    /// The playbook that wrote the plan, when one did.
    pub fn playbook(&self) -> Option<&str> {
        self.woven.plan.playbook.as_deref()
    }

    /// Every adapter call the plan took: the sentence's own first, then each step's words' once.
    pub fn trace(&self) -> &[TraceEntry] {
        &self.trace
    }

    /// The JSON line, as `evoke try --json` prints it for the same input and answers; characters that
    /// could repaint a terminal are written as their escapes, as the command does.
    pub fn to_json_line(&self) -> String {
        to_line(self)
    }

    /// The plan as the runner holds it.
    pub(crate) fn woven(&self) -> &PlanDecided {
        &self.woven
    }

    /// Every round the plan took, as the command logs them beside its line.
    pub(crate) fn rounds(&self) -> Vec<crate::drive::Round> {
        self.woven.all_rounds()
    }
}

impl Serialize for Plan {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        crate::runner::PlanLine::of(&self.woven, &self.trace).serialize(serializer)
    }
}

/// How a plan's run ended: the exit the command would end with, and each line it wrote, as `evoke --json`
/// prints them (a playbook's step 0 first, then one line per step with its `status`).
#[derive(Debug, Clone)]
pub struct PlanRan {
    pub(crate) exit: crate::exit::Exit,
    pub(crate) lines: Vec<String>,
}

impl PlanRan {
    /// The exit class the command would end with: `Done` when every step ran and returned.
    pub fn exit(&self) -> crate::exit::Exit {
        self.exit
    }

    /// Each line of the run, in the order written.
    pub fn lines(&self) -> &[String] {
        &self.lines
    }
}
