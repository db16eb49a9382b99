//! What a body receives for one argument, typed from the decision to the body's edge: the kind is the
//! manifest's, carried by the decision, so no edge reads a manifest again to learn it. Each edge converts
//! only there: to JSON for a file body, to one argv element, to a WIT `value` for a component.

use crate::dates::resolve;
use evoke_core::decision::Value;
use evoke_core::recognize::PickValue;
use jiff::civil::Date;
use serde_json::json;

/// One argument as the body receives it.
#[derive(Debug, Clone, PartialEq)]
pub enum BodyValue {
    /// An option's key.
    Option(String),
    /// A vocabulary word's value, or the word itself when it has none.
    Word(String),
    /// What a recognizer read: a number, seconds, a date reading (resolved to a day at the edge), a
    /// time, an amount, a code or a text.
    Pick(PickValue),
    /// A flag that was stated; an unstated one is absent.
    Flag,
    /// The whole result an earlier step of a plan returned (`takes`), as its body gave it.
    Whole(serde_json::Value),
}

impl From<&Value> for BodyValue {
    fn from(value: &Value) -> BodyValue {
        match value {
            Value::Option { key } => BodyValue::Option(key.clone()),
            Value::Word { word, value } => BodyValue::Word(value.clone().unwrap_or_else(|| word.clone())),
            Value::Pick { value, .. } => BodyValue::Pick(value.clone()),
            Value::Flag => BodyValue::Flag,
        }
    }
}

impl BodyValue {
    /// A text pick, the commonest value a caller builds by hand.
    pub fn text(text: impl Into<String>) -> BodyValue {
        BodyValue::Pick(PickValue::Text(text.into()))
    }

    /// The value as a file body's JSON: a key, word or text as a string, a number without `.0` when
    /// whole, seconds as a number, a date as the day it names from `today` (`"2026-12-04"`; `null` when
    /// it names none), an amount as `{ amount, currency }`, `true` for a flag.
    pub fn json(&self, today: Date) -> serde_json::Value {
        match self {
            BodyValue::Option(text) | BodyValue::Word(text) => json!(text),
            BodyValue::Flag => json!(true),
            BodyValue::Whole(data) => data.clone(),
            BodyValue::Pick(value) => match value {
                PickValue::Number(n) => number(*n),
                PickValue::Duration(seconds) => json!(seconds),
                PickValue::Date(reading) => {
                    resolve(reading, today).map_or(serde_json::Value::Null, |d| json!(d.to_string()))
                }
                PickValue::Time(text) | PickValue::Code(text) | PickValue::Text(text) => json!(text),
                PickValue::Amount { amount, currency } => json!({ "amount": amount, "currency": currency }),
            },
        }
    }

    /// The value as one argv element: numbers and seconds as digits, a date as `YYYY-MM-DD`, an amount
    /// in its minor units followed by its currency (`1200 EUR`), text as is.
    pub fn argv_text(&self, today: Date) -> String {
        match self {
            BodyValue::Pick(PickValue::Amount { amount, currency }) => format!("{amount} {currency}"),
            other => match other.json(today) {
                serde_json::Value::String(s) => s,
                json => json.to_string(),
            },
        }
    }
}

fn number(n: f64) -> serde_json::Value {
    if n.fract() == 0.0 && n.abs() < 9.0e15 { json!(n as i64) } else { json!(n) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use evoke_core::recognize::DateReading;
    use jiff::civil::date;

    #[test]
    fn each_kind_reads_at_the_json_and_argv_edges() {
        let today = date(2026, 11, 30);
        let word = Value::Word { word: "group seven".into(), value: Some("group-7".into()) };
        assert_eq!(BodyValue::from(&word), BodyValue::Word("group-7".into()));
        let bare = Value::Word { word: "home".into(), value: None };
        assert_eq!(BodyValue::from(&bare).json(today), json!("home"));
        assert_eq!(BodyValue::Pick(PickValue::Number(10.0)).json(today), json!(10));
        assert_eq!(BodyValue::Pick(PickValue::Number(2.5)).argv_text(today), "2.5");
        let friday = PickValue::Date(DateReading::Weekday { weekday: "friday".into(), which: "this".into() });
        assert_eq!(BodyValue::Pick(friday.clone()).json(today), json!("2026-12-04"));
        assert_eq!(BodyValue::Pick(friday).argv_text(today), "2026-12-04");
        let nowhere = PickValue::Date(DateReading::Calendar { year: 2027, month: 2, day: 30 });
        assert_eq!(BodyValue::Pick(nowhere).json(today), serde_json::Value::Null);
        let amount = BodyValue::Pick(PickValue::Amount { amount: 1200, currency: "EUR".into() });
        assert_eq!(amount.json(today), json!({"amount": 1200, "currency": "EUR"}));
        assert_eq!(amount.argv_text(today), "1200 EUR");
        assert_eq!(BodyValue::Flag.argv_text(today), "true");
        assert_eq!(BodyValue::Option("km".into()).argv_text(today), "km");
    }
}
