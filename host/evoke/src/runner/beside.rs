//! A day of the month read beside an earlier step's day (003's `beside`): `look up my flight and book a
//! hotel from that day until the 7th` means the 7th after the day the flight lands. The plan says which
//! step's day; the day itself is known only once that step ran, so it is read here, at the step's turn.

use super::Bound;
use evoke_bodies::dates::{Today, day_beside};
use evoke_core::decision::{Decision, Value};
use evoke_core::recognize::{DateReading, PickValue};
use evoke_core::weave::plan::Plan;

/// Step `i`'s decision with each day of the month its plan reads beside an earlier step's day written as
/// the date it names: the first such day on or after that step's day. The earlier step's day is the date
/// step `i` took from it, or else the date its own words say. A day with no day beside it stays as read,
/// and is read from today at the body's edge. A day that names no date beside the earlier one (past the
/// calendar's end) is no value: the step says which argument, and never falls back to today.
pub fn read_beside(
    plan: &Plan,
    i: usize,
    bounds: &[Bound],
    mut decision: Decision,
    today: Today,
) -> Result<Decision, String> {
    for (arg, &from) in &plan.steps[i].beside {
        let taken = bounds.iter().filter(|b| b.from == from).find_map(|b| day_of(b.value.as_ref()?));
        let said = || plan.steps.get(from - 1)?.decision.args.as_ref()?.0.iter().find_map(|(_, v)| day_of(v));
        let Some(base) = taken.or_else(said) else { continue };
        let Some(args) = decision.args.as_mut() else { continue };
        for (_, value) in args.0.iter_mut().filter(|(name, _)| name == arg) {
            let Value::Pick { value: PickValue::Date(reading), .. } = value else { continue };
            match day_beside(reading, &base, today) {
                Some(day) => *reading = day,
                None if matches!(reading, DateReading::Day { .. }) => {
                    return Err(format!("{arg} names no day after step {from}'s"));
                }
                None => {}
            }
        }
    }
    Ok(decision)
}

/// A date that names a day of its own (not a day of the month alone, which needs one beside it).
fn day_of(value: &Value) -> Option<DateReading> {
    match value {
        Value::Pick { value: PickValue::Date(reading), .. } if !matches!(reading, DateReading::Day { .. }) => {
            Some(reading.clone())
        }
        _ => None,
    }
}
