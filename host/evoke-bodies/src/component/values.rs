//! A call's arguments, from the JSON values of [`Call::args`](crate::Call) to the WIT `value` a body receives.
//!
//! The JSON alone does not say which kind a string is (an option's key, a word, a time, a code or a
//! text), so the kinds come from the reflex's own `reflex.toml` beside the body: an argument's source is
//! a contract key, the same in every overlay. Without a readable manifest, or for a name it does not
//! list, the kind is read from the value's shape: `true` a flag, a number a number, `{ amount, currency }`
//! an amount, `{ type, … }` a date, any other string a text. A date may come as its reading
//! (`{ "type": "weekday", … }`) or as the day the caller resolved it to (`"2026-12-04"`), which the body
//! receives as a calendar date.

use super::world::latest::evoke::reflex::types as wit;
use evoke_core::manifest::{Source, read_manifest};
use evoke_core::recognize::{DateReading, PickKind};
use serde_json::Value as Json;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Option,
    Word,
    Pick(PickKind),
    Flag,
}

type Kinds = Arc<HashMap<String, Kind>>;

/// A manifest's modification time and length, and the kinds read from it.
type Stamped = (Option<SystemTime>, u64, Kinds);

/// The kinds of each reflex directory's arguments, read once per version of its manifest.
#[derive(Default)]
pub(crate) struct ManifestKinds {
    read: Mutex<HashMap<PathBuf, Stamped>>,
}

impl ManifestKinds {
    pub(crate) fn of(&self, dir: &Path) -> Kinds {
        let file = dir.join("reflex.toml");
        let Ok(meta) = std::fs::metadata(&file) else { return Kinds::default() };
        let stamp = (meta.modified().ok(), meta.len());
        if let Some((modified, len, kinds)) = self.read.lock().unwrap().get(&file)
            && (*modified, *len) == stamp
        {
            return kinds.clone();
        }
        let kinds: Kinds = Arc::new(read_kinds(dir, &file).unwrap_or_default());
        self.read.lock().unwrap().insert(file, (stamp.0, stamp.1, kinds.clone()));
        kinds
    }
}

fn read_kinds(dir: &Path, file: &Path) -> Option<HashMap<String, Kind>> {
    let text = std::fs::read_to_string(file).ok()?;
    let has_file = |p: &str| dir.join(p).is_file();
    let manifest = read_manifest("reflex.toml", &text, &has_file).value?;
    Some(
        manifest
            .args
            .into_iter()
            .map(|arg| {
                let kind = match arg.source {
                    Source::Options(_) => Kind::Option,
                    Source::Vocab(_) => Kind::Word,
                    Source::Pick(k) => Kind::Pick(k),
                    Source::Flag => Kind::Flag,
                };
                (arg.name, kind)
            })
            .collect(),
    )
}

fn shape(json: &Json) -> Kind {
    match json {
        Json::Bool(_) => Kind::Flag,
        Json::Number(_) => Kind::Pick(PickKind::Number),
        Json::Object(o) if o.contains_key("currency") => Kind::Pick(PickKind::Amount),
        Json::Object(_) => Kind::Pick(PickKind::Date),
        _ => Kind::Pick(PickKind::Text),
    }
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Option => "option",
        Kind::Word => "word",
        Kind::Flag => "flag",
        Kind::Pick(k) => k.as_str(),
    }
}

/// The arguments as the body receives them, in the call's order. A flag that is `false` is left out,
/// as an unstated one is.
pub(crate) fn convert(
    args: &[(String, Json)],
    kinds: &HashMap<String, Kind>,
) -> Result<Vec<(String, wit::Value)>, String> {
    let mut out = Vec::with_capacity(args.len());
    for (name, json) in args {
        let kind = kinds.get(name).copied().unwrap_or_else(|| shape(json));
        let bad = || format!("refused: the argument `{name}` is not a {} value: {json}", kind_name(kind));
        let text = || json.as_str().map(str::to_string).ok_or_else(bad);
        let value = match kind {
            Kind::Option => wit::Value::Option(text()?),
            Kind::Word => wit::Value::Word(text()?),
            Kind::Flag => match json {
                Json::Bool(true) => wit::Value::Flag,
                Json::Bool(false) => continue,
                _ => return Err(bad()),
            },
            Kind::Pick(PickKind::Number) => wit::Value::Number(json.as_f64().ok_or_else(bad)?),
            Kind::Pick(PickKind::Duration) => wit::Value::Duration(
                json.as_u64()
                    .or_else(|| json.as_f64().filter(|s| *s >= 0.0 && s.fract() == 0.0).map(|s| s as u64))
                    .ok_or_else(bad)?,
            ),
            Kind::Pick(PickKind::Date) => {
                let reading = match json {
                    // A day the caller resolved already (`2026-12-04`) is a calendar date.
                    Json::String(day) => calendar(day).ok_or_else(bad)?,
                    _ => serde_json::from_value(json.clone()).map_err(|_| bad())?,
                };
                wit::Value::Date(date(reading).ok_or_else(bad)?)
            }
            Kind::Pick(PickKind::Time) => wit::Value::Time(text()?),
            Kind::Pick(PickKind::Amount) => {
                let amount = json.get("amount").and_then(Json::as_i64).ok_or_else(bad)?;
                let currency = json.get("currency").and_then(Json::as_str).ok_or_else(bad)?;
                wit::Value::Amount(wit::Amount { amount, currency: currency.to_string() })
            }
            Kind::Pick(PickKind::Code) => wit::Value::Code(text()?),
            Kind::Pick(PickKind::Text) => wit::Value::Text(text()?),
        };
        out.push((name.clone(), value));
    }
    Ok(out)
}

/// `YYYY-MM-DD`.
fn calendar(text: &str) -> Option<DateReading> {
    let mut parts = text.splitn(3, '-');
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    if y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return None;
    }
    Some(DateReading::Calendar { year: y.parse().ok()?, month: m.parse().ok()?, day: d.parse().ok()? })
}

fn date(reading: DateReading) -> Option<wit::DateReading> {
    Some(match reading {
        DateReading::Offset { days } => wit::DateReading::Offset(days),
        DateReading::Weekday { weekday, which } => wit::DateReading::Weekday(wit::WeekdayReading {
            weekday: match weekday.as_str() {
                "monday" => wit::Weekday::Monday,
                "tuesday" => wit::Weekday::Tuesday,
                "wednesday" => wit::Weekday::Wednesday,
                "thursday" => wit::Weekday::Thursday,
                "friday" => wit::Weekday::Friday,
                "saturday" => wit::Weekday::Saturday,
                "sunday" => wit::Weekday::Sunday,
                _ => return None,
            },
            which: match which.as_str() {
                "this" => wit::Which::This,
                "next" => wit::Which::Next,
                "last" => wit::Which::Last,
                _ => return None,
            },
        }),
        DateReading::Day { day } => wit::DateReading::Day(u8::try_from(day).ok()?),
        DateReading::Calendar { year, month, day } => wit::DateReading::Calendar(wit::CalendarDate {
            year,
            month: u8::try_from(month).ok()?,
            day: u8::try_from(day).ok()?,
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn one(kind: Option<Kind>, json: Json) -> Result<Vec<(String, wit::Value)>, String> {
        let kinds = kind.map(|k| HashMap::from([("a".to_string(), k)])).unwrap_or_default();
        convert(&[("a".into(), json)], &kinds)
    }

    #[test]
    fn every_kind_converts() {
        let v = |kind, json| one(Some(kind), json).unwrap().remove(0).1;
        assert!(matches!(v(Kind::Option, json!("off")), wit::Value::Option(k) if k == "off"));
        assert!(matches!(v(Kind::Word, json!("group-7")), wit::Value::Word(w) if w == "group-7"));
        assert!(matches!(v(Kind::Pick(PickKind::Number), json!(2.5)), wit::Value::Number(n) if n == 2.5));
        assert!(matches!(v(Kind::Pick(PickKind::Duration), json!(600)), wit::Value::Duration(600)));
        assert!(matches!(
            v(Kind::Pick(PickKind::Date), json!({"type": "weekday", "weekday": "friday", "which": "next"})),
            wit::Value::Date(wit::DateReading::Weekday(wit::WeekdayReading {
                weekday: wit::Weekday::Friday,
                which: wit::Which::Next
            }))
        ));
        assert!(matches!(
            v(Kind::Pick(PickKind::Date), json!({"type": "calendar", "year": 2027, "month": 5, "day": 4})),
            wit::Value::Date(wit::DateReading::Calendar(wit::CalendarDate { year: 2027, month: 5, day: 4 }))
        ));
        assert!(matches!(
            v(Kind::Pick(PickKind::Date), json!("2026-12-04")),
            wit::Value::Date(wit::DateReading::Calendar(wit::CalendarDate { year: 2026, month: 12, day: 4 }))
        ));
        assert!(matches!(v(Kind::Pick(PickKind::Time), json!("17:30")), wit::Value::Time(t) if t == "17:30"));
        assert!(matches!(
            v(Kind::Pick(PickKind::Amount), json!({"amount": 1200, "currency": "EUR"})),
            wit::Value::Amount(wit::Amount { amount: 1200, .. })
        ));
        assert!(matches!(v(Kind::Pick(PickKind::Code), json!("A-12")), wit::Value::Code(c) if c == "A-12"));
        assert!(matches!(v(Kind::Pick(PickKind::Text), json!("tea")), wit::Value::Text(t) if t == "tea"));
        assert!(matches!(v(Kind::Flag, json!(true)), wit::Value::Flag));
        assert!(one(Some(Kind::Flag), json!(false)).unwrap().is_empty());
    }

    #[test]
    fn a_value_of_the_wrong_shape_is_refused() {
        let e = one(Some(Kind::Pick(PickKind::Number)), json!("ten")).unwrap_err();
        assert_eq!(e, "refused: the argument `a` is not a number value: \"ten\"");
        assert!(one(Some(Kind::Pick(PickKind::Duration)), json!(-3)).is_err());
    }

    #[test]
    fn without_a_manifest_the_shape_decides() {
        assert!(matches!(one(None, json!(true)).unwrap()[0].1, wit::Value::Flag));
        assert!(matches!(one(None, json!(3)).unwrap()[0].1, wit::Value::Number(_)));
        assert!(matches!(one(None, json!("x")).unwrap()[0].1, wit::Value::Text(_)));
        assert!(matches!(one(None, json!({"amount": 5, "currency": "USD"})).unwrap()[0].1, wit::Value::Amount(_)));
        assert!(matches!(one(None, json!({"type": "offset", "days": 1})).unwrap()[0].1, wit::Value::Date(_)));
    }
}
