//! A decision as the library hands it out: one variant per outcome, each with exactly its fields, which
//! serializes to the JSON line `evoke try --json` prints, plus `values`.

use super::Error;
use crate::drive::{Decided, TraceEntry};
use crate::error::CommandError;
use crate::line::{Line, to_line};
use evoke_core::decision::{Args, Because, Contender, Decision as Core, Missing, Outcome, Prompt};
use evoke_core::manifest::Effect;
use evoke_core::recognize::Candidate;
use serde::Serialize;
use serde::ser::SerializeMap;

/// One decision of a sentence, made by [`Evoke::decide`](super::Evoke::decide): run it, confirm it, ask
/// for what it misses, or abstain. Only `decide` makes one, and [`Evoke::run`](super::Evoke::run) takes
/// back only one its own `Evoke` made.
///
/// Its `Serialize` writes the JSON line of the spec (the same object `evoke try --json` prints for the
/// same input and answers) with `values` after it: each argument as the body would receive it.
#[derive(Debug, Clone)]
pub enum Decision {
    /// Confident, and the gate lets it run as it is.
    Run(Run),
    /// A call that waits for a person's yes: destructive, or under a bar of the gate.
    Confirm(Confirm),
    /// A reflex was chosen but values are missing: the person is asked for each.
    Ask(Ask),
    /// Nothing installed does what was asked.
    Abstain(Abstain),
}

/// What only `decide` holds: the core's decision as it was made, the adapter calls behind it, the
/// candidates an answer is read against, and which `Evoke` made it. Private, so no caller can make one.
#[derive(Debug, Clone)]
pub(crate) struct Made {
    pub(crate) origin: u64,
    pub(crate) core: Core,
    pub(crate) trace: Vec<TraceEntry>,
    pub(crate) candidates: Vec<Candidate>,
    values: Vec<(String, serde_json::Value)>,
}

/// A complete call, as a run and a confirm both hold it.
#[derive(Debug, Clone)]
pub struct Call {
    reflex: String,
    args: Args,
    line: String,
    effect: Effect,
    confidence: f64,
}

/// A call that runs as it is.
#[derive(Debug, Clone)]
pub struct Run {
    call: Call,
    made: Made,
}

/// A call that runs only after a person's yes.
#[derive(Debug, Clone)]
pub struct Confirm {
    call: Call,
    prompt: Prompt,
    because: Vec<Because>,
    made: Made,
}

/// A chosen reflex whose call misses values.
#[derive(Debug, Clone)]
pub struct Ask {
    reflex: String,
    args: Args,
    confidence: f64,
    missing: Vec<Missing>,
    made: Made,
}

/// No reflex here does what was asked.
#[derive(Debug, Clone)]
pub struct Abstain {
    contenders: Vec<Contender>,
    made: Made,
}

impl Call {
    /// The reflex's local name.
    pub fn reflex(&self) -> &str {
        &self.reflex
    }
    /// Each argument's typed value.
    pub fn args(&self) -> &Args {
        &self.args
    }
    /// The call on one line: `lights room="kitchen" state="on"`.
    pub fn line(&self) -> &str {
        &self.line
    }
    /// What the call does to the world.
    pub fn effect(&self) -> Effect {
        self.effect
    }
    /// The weakest judgment's probability.
    pub fn confidence(&self) -> f64 {
        self.confidence
    }
}

impl Run {
    /// The call that runs.
    pub fn call(&self) -> &Call {
        &self.call
    }
}

impl Confirm {
    /// The call that waits for a yes.
    pub fn call(&self) -> &Call {
        &self.call
    }
    /// What the person is asked: evoke's own line, why the call waits, and the reflex's question.
    pub fn prompt(&self) -> &Prompt {
        &self.prompt
    }
    /// Why the call waits, in order.
    pub fn because(&self) -> &[Because] {
        &self.because
    }
}

impl Ask {
    /// The reflex's local name.
    pub fn reflex(&self) -> &str {
        &self.reflex
    }
    /// The values read so far.
    pub fn args(&self) -> &Args {
        &self.args
    }
    /// The weakest judgment's probability.
    pub fn confidence(&self) -> f64 {
        self.confidence
    }
    /// Each value missing, with its question and closed choices.
    pub fn missing(&self) -> &[Missing] {
        &self.missing
    }
}

impl Abstain {
    /// The reflexes ranked, none of which was chosen.
    pub fn contenders(&self) -> &[Contender] {
        &self.contenders
    }
}

impl Decision {
    /// The decision of a sentence read as one call, as the library hands it out: every field its outcome
    /// has must be there, since a variant holds each as a value, not an option.
    pub(crate) fn of(origin: u64, decided: Decided) -> Result<Decision, Error> {
        let Decided { decision: core, trace, candidates, .. } = decided;
        let today = evoke_bodies::dates::today();
        let values = core
            .args
            .iter()
            .flat_map(|args| args.0.iter())
            .map(|(name, value)| (name.clone(), evoke_bodies::BodyValue::from(value).json(today)))
            .collect();
        let lacks = |field: &str| {
            Error::from(CommandError::failed(format!("the {:?} decision came without its `{field}`", core.outcome)))
        };
        let reflex = core.reflex.clone().ok_or_else(|| lacks("reflex"));
        let args = core.args.clone().ok_or_else(|| lacks("args"));
        let line = core.call.clone().ok_or_else(|| lacks("call"));
        let effect = core.effect.ok_or_else(|| lacks("effect"));
        let confidence = core.confidence.ok_or_else(|| lacks("confidence"));
        let complete = || -> Result<Call, Error> {
            Ok(Call {
                reflex: reflex.clone()?,
                args: args.clone()?,
                line: line.clone()?,
                effect: effect.clone()?,
                confidence: confidence.clone()?,
            })
        };
        let prompt = core.prompt.clone().ok_or_else(|| lacks("prompt"));
        let missing = core.missing.clone().ok_or_else(|| lacks("missing"));
        let because = core.because.clone().unwrap_or_default();
        let contenders = core.contenders.clone();
        let outcome = core.outcome;
        let made = Made { origin, core, trace, candidates, values };
        Ok(match outcome {
            Outcome::Run => Decision::Run(Run { call: complete()?, made }),
            Outcome::Confirm => Decision::Confirm(Confirm { call: complete()?, prompt: prompt?, because, made }),
            Outcome::Ask => {
                Decision::Ask(Ask { reflex: reflex?, args: args?, confidence: confidence?, missing: missing?, made })
            }
            Outcome::Abstain => Decision::Abstain(Abstain { contenders, made }),
        })
    }

    pub(crate) fn made(&self) -> &Made {
        match self {
            Decision::Run(d) => &d.made,
            Decision::Confirm(d) => &d.made,
            Decision::Ask(d) => &d.made,
            Decision::Abstain(d) => &d.made,
        }
    }

    /// The sentence as decided.
    pub fn input(&self) -> &str {
        &self.made().core.input
    }

    /// Which of the four outcomes this is.
    pub fn outcome(&self) -> Outcome {
        self.made().core.outcome
    }

    /// The adapter calls made for it, one per round of questions.
    pub fn trace(&self) -> &[TraceEntry] {
        &self.made().trace
    }

    /// Each argument as the body would receive it (a vocabulary word as the value its entry delivers, a
    /// date as the day it names), in the call's order.
    pub fn values(&self) -> &[(String, serde_json::Value)] {
        &self.made().values
    }

    /// The JSON line, as `evoke try --json` prints it for the same input and answers, with `values` after
    /// it; characters that could repaint a terminal are written as their escapes, as the command does.
    pub fn to_json_line(&self) -> String {
        to_line(self)
    }
}

/// The values as a JSON object, in the call's order.
struct Values<'a>(&'a [(String, serde_json::Value)]);

impl Serialize for Values<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

#[derive(Serialize)]
struct SdkLine<'a> {
    #[serde(flatten)]
    line: Line<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    values: Option<Values<'a>>,
}

impl Serialize for Decision {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let made = self.made();
        let line = Line { decision: &made.core, trace: &made.trace, ran: None, error: None };
        let values = made.core.args.is_some().then_some(Values(&made.values));
        SdkLine { line, values }.serialize(serializer)
    }
}
