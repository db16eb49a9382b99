//! A call's arguments as the WIT `value`s a component receives: each [`BodyValue`] already says its kind,
//! so the conversion reads nothing but the value. A date reading is resolved to the day it names from
//! the call's `today` and arrives as a calendar date, as a file body receives `"2026-12-04"`.

use super::world::latest::evoke::reflex::types as wit;
use crate::body_value::BodyValue;
use crate::dates::resolve;
use evoke_components::ComponentError;
use evoke_core::recognize::PickValue;
use jiff::civil::Date;

/// The arguments as the body receives them, in the call's order.
pub(crate) fn wit_values(
    args: &[(String, BodyValue)],
    today: Date,
) -> Result<Vec<(String, wit::Value)>, ComponentError> {
    args.iter().map(|(name, value)| Ok((name.clone(), wit_value(name, value, today)?))).collect()
}

fn wit_value(name: &str, value: &BodyValue, today: Date) -> Result<wit::Value, ComponentError> {
    Ok(match value {
        BodyValue::Option(key) => wit::Value::Option(key.clone()),
        BodyValue::Word(word) => wit::Value::Word(word.clone()),
        BodyValue::Flag => wit::Value::Flag,
        // Version 1 of the interface has no value for a whole result: it arrives as its JSON text.
        BodyValue::Whole(data) => wit::Value::Text(data.to_string()),
        BodyValue::Pick(pick) => match pick {
            PickValue::Number(n) => wit::Value::Number(*n),
            PickValue::Duration(seconds) => wit::Value::Duration(*seconds),
            PickValue::Date(reading) => {
                let day = resolve(reading, today)
                    .and_then(calendar)
                    .ok_or_else(|| ComponentError::NoDay { name: name.to_string(), reading: reading.clone() })?;
                wit::Value::Date(day)
            }
            PickValue::Time(text) => wit::Value::Time(text.clone()),
            PickValue::Amount { amount, currency } => {
                wit::Value::Amount(wit::Amount { amount: *amount, currency: currency.clone() })
            }
            PickValue::Code(text) => wit::Value::Code(text.clone()),
            PickValue::Text(text) => wit::Value::Text(text.clone()),
        },
    })
}

fn calendar(day: Date) -> Option<wit::DateReading> {
    Some(wit::DateReading::Calendar(wit::CalendarDate {
        year: i32::from(day.year()),
        month: u8::try_from(day.month()).ok()?,
        day: u8::try_from(day.day()).ok()?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use evoke_core::recognize::DateReading;
    use jiff::civil::date;

    fn one(value: BodyValue) -> Result<wit::Value, ComponentError> {
        wit_value("a", &value, date(2026, 11, 30))
    }

    #[test]
    fn every_kind_converts() {
        let pick = |p| one(BodyValue::Pick(p)).unwrap();
        assert!(matches!(one(BodyValue::Option("off".into())).unwrap(), wit::Value::Option(k) if k == "off"));
        assert!(matches!(one(BodyValue::Word("group-7".into())).unwrap(), wit::Value::Word(w) if w == "group-7"));
        assert!(matches!(one(BodyValue::Flag).unwrap(), wit::Value::Flag));
        assert!(matches!(pick(PickValue::Number(2.5)), wit::Value::Number(n) if n == 2.5));
        assert!(matches!(pick(PickValue::Duration(600)), wit::Value::Duration(600)));
        let friday = DateReading::Weekday { weekday: "friday".into(), which: "next".into() };
        assert!(matches!(
            pick(PickValue::Date(friday)),
            wit::Value::Date(wit::DateReading::Calendar(wit::CalendarDate { year: 2026, month: 12, day: 4 }))
        ));
        assert!(matches!(
            pick(PickValue::Date(DateReading::Calendar { year: 2027, month: 5, day: 4 })),
            wit::Value::Date(wit::DateReading::Calendar(wit::CalendarDate { year: 2027, month: 5, day: 4 }))
        ));
        assert!(matches!(pick(PickValue::Time("17:30".into())), wit::Value::Time(t) if t == "17:30"));
        assert!(matches!(
            pick(PickValue::Amount { amount: 1200, currency: "EUR".into() }),
            wit::Value::Amount(wit::Amount { amount: 1200, .. })
        ));
        assert!(matches!(pick(PickValue::Code("A-12".into())), wit::Value::Code(c) if c == "A-12"));
        assert!(matches!(pick(PickValue::Text("tea".into())), wit::Value::Text(t) if t == "tea"));
    }

    #[test]
    fn a_date_that_names_no_day_is_refused() {
        let e = one(BodyValue::Pick(PickValue::Date(DateReading::Calendar { year: 2027, month: 2, day: 30 })));
        let e = e.unwrap_err();
        assert!(matches!(&e, ComponentError::NoDay { name, .. } if name == "a"), "{e}");
        assert!(e.to_string().starts_with("refused: the argument `a` names no day"));
    }
}
