//! Pick recognizers (000 §4.2). Minimal until the recognizers land: the kinds only.

use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PickKind { Number, Duration, Date, Time, Amount, Code, Text }

impl PickKind {
    pub fn as_str(self) -> &'static str {
        match self {
            PickKind::Number => "number", PickKind::Duration => "duration", PickKind::Date => "date",
            PickKind::Time => "time", PickKind::Amount => "amount", PickKind::Code => "code", PickKind::Text => "text",
        }
    }
}

impl FromStr for PickKind {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        Ok(match s {
            "number" => PickKind::Number, "duration" => PickKind::Duration, "date" => PickKind::Date,
            "time" => PickKind::Time, "amount" => PickKind::Amount, "code" => PickKind::Code, "text" => PickKind::Text,
            _ => return Err(()),
        })
    }
}
