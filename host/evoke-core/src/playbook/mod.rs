//! `playbook.toml`: a person's routine, written as steps that evoke plans from one sentence.
//!
//! A playbook is offered by the route beside the reflexes, under its local name. Its slots are declared
//! as a reflex's arguments are and read from the sentence under the same rules. Each step is a sentence
//! written with slots (`say`), decided as typed words are, or a call by name (`call` with `args`),
//! checked against that reflex's manifest. A step with `when` runs only when an earlier step yielded
//! that value. Nothing here touches the world: reading the file is evoke-files'.

mod canonical;
mod check;
mod read;

pub use check::{check, strongest_effect};
pub use read::read_playbook;

use crate::catalog::Reflex;
use crate::manifest::{Arg, Effect, Grants, Manifest, Record, Run};
use crate::vocab::Vocabulary;
use std::collections::BTreeMap;

/// At most this many steps in all, a nested playbook's counted in its parent's.
pub const MAX_STEPS: usize = 16;

/// A playbook as read, before it is checked against the project's reflexes.
#[derive(Debug, Clone, PartialEq)]
pub struct Playbook {
    pub description: String,
    pub not_for: Vec<String>,
    /// Declared as a reflex's arguments are: read from the sentence that picks the playbook.
    pub slots: Vec<Arg>,
    /// Sentences that pick the playbook, with the slots they state.
    pub examples: Vec<Record>,
    pub steps: Vec<Step>,
}

/// What a step does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Words written with `{slot}` placeholders, decided as typed words are, under the same gate.
    Say(String),
    /// A call of a reflex by its local name: each argument's text, which may hold `{slot}` placeholders.
    Call { reflex: String, args: Vec<(String, String)> },
}

/// A step runs only when an earlier step (from 1) yielded `field` holding `is`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct When {
    pub step: usize,
    pub field: String,
    pub is: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub action: Action,
    pub when: Option<When>,
}

/// What a plan's step says of the playbook that wrote it: `from`, outermost first.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct From {
    pub playbook: String,
    /// The playbook's own step, from 1.
    pub step: usize,
    /// The slots' values as the step was written, in the playbook's order.
    #[serde(serialize_with = "crate::question::serialize_pairs")]
    pub slots: Vec<(String, String)>,
}

impl Playbook {
    /// The synthetic reflex the route offers under the playbook's name: its description, examples and
    /// slots (with the vocabularies they name), judged under `effect`, the strongest effect among its
    /// steps as far as is known before they are decided. Its `run` is never a body: a decision that picks it is planned, never run.
    pub fn as_reflex(&self, name: &str, effect: Effect, vocabs: BTreeMap<String, Vocabulary>) -> Reflex {
        Reflex {
            name: name.to_string(),
            manifest: Manifest {
                description: self.description.clone(),
                not_for: self.not_for.clone(),
                tags: Vec::new(),
                // A destructive step confirms at its own turn, every time; the pick itself meets the write
                // bar, the highest bar there is, so a reviewed routine need not confirm whole each time.
                effect: effect.min(Effect::Write),
                confirm: format!("Run the playbook {name}?"),
                run: Run::Argv(Vec::new()),
                config: Vec::new(),
                grants: Grants::default(),
                args: self.slots.clone(),
                examples: self.examples.clone(),
                tests: Vec::new(),
                yields: Vec::new(),
                returns: None,
            },
            vocabs,
        }
    }
}

#[cfg(test)]
mod offered {
    use super::*;

    fn playbook() -> Playbook {
        Playbook {
            description: "Wind the house down.".into(),
            not_for: Vec::new(),
            slots: Vec::new(),
            examples: Vec::new(),
            steps: vec![Step { action: Action::Say("turn off the den lights".into()), when: None }],
        }
    }

    #[test]
    fn a_destructive_step_leaves_the_pick_under_the_write_bar_and_its_own_confirm() {
        let reflex = playbook().as_reflex("good_night", Effect::Destructive, BTreeMap::new());
        assert_eq!(reflex.manifest.effect, Effect::Write);
    }

    #[test]
    fn a_routine_of_reads_is_picked_under_the_read_bar() {
        let reflex = playbook().as_reflex("morning", Effect::Read, BTreeMap::new());
        assert_eq!(reflex.manifest.effect, Effect::Read);
    }
}
