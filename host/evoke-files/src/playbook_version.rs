//! How far a playbook's new version reaches past the one installed: the contract diff of the two as the
//! route offers them (slots, description, examples, as a reflex's), and above it a new step or a
//! stronger effect among its steps, each a major change: the plan a person reviewed no longer says what
//! would run.

use evoke_core::contract::{Level, diff};
use evoke_core::manifest::Effect;
use evoke_core::playbook::{Playbook, Step};

/// The level of the change from `old` (under `old_effect`, the strongest among its steps) to `new`.
pub fn level(old: &Playbook, old_effect: Effect, new: &Playbook, new_effect: Effect) -> Level {
    // Counted as a multiset: a step repeated runs once more, so it is a new step though equal to another.
    let count = |steps: &[Step], step: &Step| steps.iter().filter(|s| *s == step).count();
    let new_step = new.steps.iter().any(|step| count(&new.steps, step) > count(&old.steps, step));
    if new_step || new_effect > old_effect {
        return Level::Major;
    }
    // Both offered under one effect: a playbook's effect is judged here, not as a reflex's is.
    let offered = |playbook: &Playbook| playbook.as_reflex("playbook", old_effect, Default::default()).manifest;
    // A slot renamed back to a name it had (a `was` fault) is a break, as for a reflex's argument.
    let slots = diff(&offered(old), &offered(new)).map_or(Level::Major, |d| d.next);
    // A step left out or moved, or a weaker effect, changes what runs, though nothing new runs.
    let runs = if new.steps == old.steps && new_effect == old_effect { Level::None } else { Level::Minor };
    slots.max(runs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use evoke_core::playbook::Action;

    fn say(words: &str) -> Step {
        Step { action: Action::Say(words.into()), when: None }
    }

    fn playbook(steps: Vec<Step>) -> Playbook {
        Playbook {
            description: "Wind the house down.".into(),
            not_for: Vec::new(),
            slots: Vec::new(),
            examples: Vec::new(),
            steps,
        }
    }

    #[test]
    fn a_new_step_or_a_stronger_effect_is_major() {
        let old = playbook(vec![say("lights off")]);
        let added = playbook(vec![say("lights off"), say("lock the door")]);
        assert_eq!(level(&old, Effect::Write, &added, Effect::Write), Level::Major);
        let changed = playbook(vec![say("lights out")]);
        assert_eq!(level(&old, Effect::Write, &changed, Effect::Write), Level::Major);
        assert_eq!(level(&old, Effect::Write, &old, Effect::Destructive), Level::Major);
        let repeated = playbook(vec![say("lights off"), say("lights off")]);
        assert_eq!(level(&old, Effect::Write, &repeated, Effect::Write), Level::Major, "a step run twice");
    }

    #[test]
    fn a_step_left_out_is_minor_and_wording_a_patch() {
        let old = playbook(vec![say("lights off"), say("lock the door")]);
        let fewer = playbook(vec![say("lights off")]);
        assert_eq!(level(&old, Effect::Write, &fewer, Effect::Write), Level::Minor);
        let mut worded = old.clone();
        worded.description = "Wind the whole house down.".into();
        assert_eq!(level(&old, Effect::Write, &worded, Effect::Write), Level::Patch);
        assert_eq!(level(&old, Effect::Write, &old, Effect::Write), Level::None);
        assert_eq!(level(&old, Effect::Write, &old, Effect::Read), Level::Minor);
        let moved = playbook(vec![say("lock the door"), say("lights off")]);
        assert_eq!(level(&old, Effect::Write, &moved, Effect::Write), Level::Minor);
    }
}
