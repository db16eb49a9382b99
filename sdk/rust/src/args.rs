//! The arguments of one call, with an accessor per kind of value.

use crate::{Amount, DateReading, Value};
use std::fmt;
use std::time::Duration;

/// Every argument that has a value, in manifest order. An unstated optional argument and a flag not
/// stated are absent.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Args {
    items: Vec<(String, Value)>,
}

/// Why an accessor found no value of the kind it reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgError {
    /// The argument has no value: it is optional and was not stated, or the manifest has no such name.
    Missing { name: String },
    /// The argument holds a value of another kind than the accessor reads.
    WrongKind { name: String, expected: &'static str, found: &'static str },
    /// A time that is not `HH:MM`.
    BadTime { name: String, text: String },
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgError::Missing { name } => write!(f, "the argument `{name}` has no value"),
            ArgError::WrongKind { name, expected, found } => {
                write!(f, "the argument `{name}` is {found}, not {expected}")
            }
            ArgError::BadTime { name, text } => {
                write!(f, "the argument `{name}` is not a time of day: \"{text}\"")
            }
        }
    }
}

impl std::error::Error for ArgError {}

impl From<ArgError> for String {
    fn from(e: ArgError) -> String {
        e.to_string()
    }
}

/// A time of day, 24-hour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time {
    pub hour: u8,
    pub minute: u8,
}

impl Time {
    /// Reads `HH:MM` (`H:MM` too), hours 0–23 and minutes 0–59.
    pub fn parse(text: &str) -> Option<Time> {
        let (h, m) = text.split_once(':')?;
        if h.is_empty() || h.len() > 2 || m.len() != 2 {
            return None;
        }
        let hour: u8 = h.parse().ok()?;
        let minute: u8 = m.parse().ok()?;
        (hour < 24 && minute < 60).then_some(Time { hour, minute })
    }

    /// Minutes since midnight.
    pub fn minutes(self) -> u32 {
        u32::from(self.hour) * 60 + u32::from(self.minute)
    }
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}:{:02}", self.hour, self.minute)
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Option(_) => "an option",
        Value::Word(_) => "a word",
        Value::Number(_) => "a number",
        Value::Duration(_) => "a duration",
        Value::Date(_) => "a date",
        Value::Time(_) => "a time",
        Value::Amount(_) => "an amount",
        Value::Code(_) => "a code",
        Value::Text(_) => "a text",
        Value::Flag => "a flag",
    }
}

impl Args {
    pub fn new(items: Vec<(String, Value)>) -> Args {
        Args { items }
    }

    /// The value of `name`, of whatever kind.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.items.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// Whether `name` has a value.
    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Every argument with its value, in manifest order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.items.iter().map(|(n, v)| (n.as_str(), v))
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    fn read<'a, T>(
        &'a self,
        name: &str,
        expected: &'static str,
        pick: impl FnOnce(&'a Value) -> Option<T>,
    ) -> Result<T, ArgError> {
        let value = self.get(name).ok_or_else(|| ArgError::Missing { name: name.into() })?;
        pick(value).ok_or_else(|| ArgError::WrongKind { name: name.into(), expected, found: kind(value) })
    }

    /// An option's key, one of those the manifest lists under `options`.
    pub fn option(&self, name: &str) -> Result<&str, ArgError> {
        self.read(name, "an option", |v| match v {
            Value::Option(key) => Some(key.as_str()),
            _ => None,
        })
    }

    /// A vocabulary word's value, or the word itself when the user gave it no value.
    pub fn word(&self, name: &str) -> Result<&str, ArgError> {
        self.read(name, "a word", |v| match v {
            Value::Word(word) => Some(word.as_str()),
            _ => None,
        })
    }

    /// A number read from the input (`pick = "number"`).
    pub fn number(&self, name: &str) -> Result<f64, ArgError> {
        self.read(name, "a number", |v| match v {
            Value::Number(n) => Some(*n),
            _ => None,
        })
    }

    /// A duration (`pick = "duration"`), read in whole seconds.
    pub fn duration(&self, name: &str) -> Result<Duration, ArgError> {
        self.seconds(name).map(Duration::from_secs)
    }

    /// A duration (`pick = "duration"`), in seconds.
    pub fn seconds(&self, name: &str) -> Result<u64, ArgError> {
        self.read(name, "a duration", |v| match v {
            Value::Duration(s) => Some(*s),
            _ => None,
        })
    }

    /// A date as it was read (`pick = "date"`); [`DateReading::resolve`] turns it into a day.
    pub fn date(&self, name: &str) -> Result<&DateReading, ArgError> {
        self.read(name, "a date", |v| match v {
            Value::Date(d) => Some(d),
            _ => None,
        })
    }

    /// A time of day (`pick = "time"`).
    pub fn time(&self, name: &str) -> Result<Time, ArgError> {
        let text = self.read(name, "a time", |v| match v {
            Value::Time(t) => Some(t.as_str()),
            _ => None,
        })?;
        Time::parse(text).ok_or_else(|| ArgError::BadTime { name: name.into(), text: text.into() })
    }

    /// An amount of money (`pick = "amount"`), in the currency's minor units.
    pub fn amount(&self, name: &str) -> Result<&Amount, ArgError> {
        self.read(name, "an amount", |v| match v {
            Value::Amount(a) => Some(a),
            _ => None,
        })
    }

    /// A code (`pick = "code"`), as its text.
    pub fn code(&self, name: &str) -> Result<&str, ArgError> {
        self.read(name, "a code", |v| match v {
            Value::Code(c) => Some(c.as_str()),
            _ => None,
        })
    }

    /// A text (`pick = "text"`), as typed.
    pub fn text(&self, name: &str) -> Result<&str, ArgError> {
        self.read(name, "a text", |v| match v {
            Value::Text(t) => Some(t.as_str()),
            _ => None,
        })
    }

    /// Whether a flag was stated. A flag not stated is absent, so this never fails.
    pub fn flag(&self, name: &str) -> bool {
        matches!(self.get(name), Some(Value::Flag))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args() -> Args {
        Args::new(vec![
            ("state".into(), Value::Option("off".into())),
            ("room".into(), Value::Word("group-7".into())),
            ("level".into(), Value::Number(30.0)),
            ("for".into(), Value::Duration(600)),
            ("at".into(), Value::Time("17:30".into())),
            ("cost".into(), Value::Amount(Amount { amount: 1200, currency: "EUR".into() })),
            ("loud".into(), Value::Flag),
        ])
    }

    #[test]
    fn accessors_read_their_kind() {
        let a = args();
        assert_eq!(a.option("state"), Ok("off"));
        assert_eq!(a.word("room"), Ok("group-7"));
        assert_eq!(a.number("level"), Ok(30.0));
        assert_eq!(a.duration("for"), Ok(Duration::from_secs(600)));
        assert_eq!(a.time("at"), Ok(Time { hour: 17, minute: 30 }));
        assert_eq!(a.amount("cost").map(|c| c.amount), Ok(1200));
        assert!(a.flag("loud"));
        assert!(!a.flag("quiet"));
    }

    #[test]
    fn errors_name_the_argument() {
        let a = args();
        assert_eq!(a.text("label").unwrap_err().to_string(), "the argument `label` has no value");
        assert_eq!(a.option("level").unwrap_err().to_string(), "the argument `level` is a number, not an option");
    }
}
