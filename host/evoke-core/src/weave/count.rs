//! 003's `count`: whether a sentence that could be cut asks one thing. Its parts say so when one of them
//! finds a reflex and every other asks for nothing: an aside by its words alone (`can you tell me`, `do
//! you know`, `when's the`). The weaver then decides the sentence whole, and it stands as one input when
//! that decision acts on the same reflex.
//!
//! A part that matched nothing but points back at what another asks (`roll a die, tell me the result
//! of it`, `call me an uber, have it here at 7`) may add a detail to that step (003's `detail`): the
//! sentence stands as one too, but the call it comes to is held for a person, never run, since those
//! words are read by nothing. A part with words of its own that point at nothing (`order a large
//! pizza`) may ask for something else: a plan with such a part is refused whole rather than half done. Two parts that
//! find the same reflex stay two steps (`turn off the living room lights and lock the front door`, both
//! a home reflex's): with no value between them to tell them apart, the words may still ask two things.

use super::Part;
use crate::decision::{Decision, Outcome};
use crate::words::{is_stop, words};

/// Words that point back at a thing said elsewhere in the sentence.
const POINTING: &[&str] = &["it", "its", "them", "they", "that", "this", "those", "these", "one"];

/// A sentence read as asking one thing.
#[derive(Debug, Clone, PartialEq)]
pub struct One {
    /// The reflex its one acting part found.
    pub reflex: String,
    /// Whether a part may add a detail no call reads, so the call is held for a person.
    pub detail: bool,
}

/// The one reflex the parts find, when the sentence may ask only that.
pub fn one_reflex(parts: &[(&Part, &Decision)]) -> Option<One> {
    let acting: Vec<&Decision> = parts.iter().map(|(_, d)| *d).filter(|d| d.outcome != Outcome::Abstain).collect();
    let [one] = acting.as_slice() else { return None };
    let reflex = one.reflex.clone()?;
    let mut detail = false;
    for (part, _) in parts.iter().filter(|(_, d)| d.outcome == Outcome::Abstain) {
        if aside_by_words(&part.text) {
            continue;
        }
        if !points_back(&part.text) {
            return None;
        }
        detail = true;
    }
    Some(One { reflex, detail })
}

/// Whether a part's words point back at something said elsewhere (`have it here at 7`).
pub fn points_back(text: &str) -> bool {
    words(text).iter().any(|w| POINTING.contains(&w.lower.as_str()))
}

/// Whether a part's words all carry nothing of their own: the words a request is phrased in, never one
/// that names a thing or an act.
pub fn aside_by_words(text: &str) -> bool {
    words(text).iter().all(is_stop)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(text: &str) -> Part {
        Part { start: 0, end: text.chars().count(), text: text.into(), connective: None }
    }

    fn decided(outcome: Outcome, reflex: Option<&str>) -> Decision {
        super::super::tests::decision("", outcome, reflex, None, crate::decision::Args::default())
    }

    #[test]
    fn a_courtesy_beside_one_request_asks_one_thing() {
        let (a, b) = (part("can you tell me"), part("what is the meaning of life"));
        let (da, db) = (decided(Outcome::Abstain, None), decided(Outcome::Run, Some("meaning_of_life")));
        let one = One { reflex: "meaning_of_life".into(), detail: false };
        assert_eq!(one_reflex(&[(&a, &da), (&b, &db)]), Some(one));
    }

    #[test]
    fn a_part_with_a_word_of_its_own_is_never_set_aside() {
        let (a, b) = (part("turn off the den lights"), part("feed the cat"));
        let (da, db) = (decided(Outcome::Run, Some("lights")), decided(Outcome::Abstain, None));
        assert_eq!(one_reflex(&[(&a, &da), (&b, &db)]), None);
    }

    #[test]
    fn a_part_that_points_back_is_a_detail_held_for_a_person() {
        let (a, b) = (part("roll a 6 sided die"), part("tell me the result of it"));
        let (da, db) = (decided(Outcome::Run, Some("roll_dice")), decided(Outcome::Abstain, None));
        let one = One { reflex: "roll_dice".into(), detail: true };
        assert_eq!(one_reflex(&[(&a, &da), (&b, &db)]), Some(one));
    }

    #[test]
    fn two_reflexes_are_two_things() {
        let (a, b) = (part("turn off the den lights"), part("set a timer for 5 minutes"));
        let (da, db) = (decided(Outcome::Run, Some("lights")), decided(Outcome::Run, Some("timer")));
        assert_eq!(one_reflex(&[(&a, &da), (&b, &db)]), None);
    }

    #[test]
    fn one_reflex_found_twice_is_two_things() {
        let (a, b) = (part("turn off the living room lights"), part("lock the front door"));
        let da = decided(Outcome::Confirm, Some("smart_home"));
        let db = decided(Outcome::Run, Some("smart_home"));
        assert_eq!(one_reflex(&[(&a, &da), (&b, &db)]), None);
    }

    #[test]
    fn parts_that_find_nothing_ask_nothing_of_one() {
        let (a, b) = (part("can you"), part("do it"));
        let (da, db) = (decided(Outcome::Abstain, None), decided(Outcome::Abstain, None));
        assert_eq!(one_reflex(&[(&a, &da), (&b, &db)]), None);
    }
}
