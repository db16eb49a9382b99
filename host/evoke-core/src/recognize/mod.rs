//! The pick recognizers: code that finds the candidate spans of a
//! `pick` argument in the input. The classifier later chooses among them; it never invents one.
//!
//! Seven kinds: `number`, `duration`, `date`, `time`, `amount`, `code`, `text`, one file each. Every
//! recognizer reads the whole input, case-insensitively, on word boundaries, left to right, keeping the
//! longest match at each place. Spans are character offsets (Unicode scalar values), end exclusive, and
//! leave out surrounding spaces and punctuation.
//!
//! Two rules join the kinds:
//!
//! - **Quotes hide what they enclose.** A quoted region (see [`text`](self) for the pairs) is masked
//!   before the other recognizers run: nothing is found inside it and no match reaches across it. Its
//!   inside is the `text` candidate.
//! - **A typed span hides the bare numbers inside it.** A `number` candidate that lies inside, or
//!   reaches into, a `duration`, `date`, `time`, `amount` or `code` span is dropped: `10 minutes` gives
//!   a duration and no number. In the same way a `code` candidate inside a `duration`, `date`, `time` or
//!   `amount` span is dropped (`90s`, `5pm`, `10EUR` are not codes).
//!
//! Where the behaviour was open, this module reads it so:
//!
//! - **A date without a year** (`May 4`, `the 4th of July`). The core never reads the clock, and 003
//!   has no year-less reading. [`recognize`] and [`candidates`] find its span, which hides the numbers
//!   inside it, but give no `date` candidate for it: the pick reads as unstated and the user is asked.
//!   A caller that knows today's date hands it in through [`recognize_at`] / [`candidates_at`], and the
//!   month-day then reads as `calendar` in the year of its next occurrence on or after that date
//!   (29 February: the next leap year).
//! - **A time without `am`/`pm`** is read as said on a 24-hour clock (`ten o'clock` → `10:00`), unless
//!   `tonight`, `this evening` or `this morning` follows.
//! - **A bare weekday** is `{ "which": "this" }`.
//! - **`$`** is USD, **`¥`** is JPY, **`pounds`** is GBP.

mod amount;
mod code;
mod date;
mod duration;
mod number;
mod scan;
mod text;
mod time;
mod words;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize, Serializer};

/// The kinds of pick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PickKind {
    Number,
    Duration,
    Date,
    Time,
    Amount,
    Code,
    Text,
}

impl PickKind {
    pub const ALL: [PickKind; 7] = [
        PickKind::Number,
        PickKind::Duration,
        PickKind::Date,
        PickKind::Time,
        PickKind::Amount,
        PickKind::Code,
        PickKind::Text,
    ];

    pub fn as_str(&self) -> &'static str {
        match self {
            PickKind::Number => "number",
            PickKind::Duration => "duration",
            PickKind::Date => "date",
            PickKind::Time => "time",
            PickKind::Amount => "amount",
            PickKind::Code => "code",
            PickKind::Text => "text",
        }
    }
}

impl fmt::Display for PickKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of parsing a [`PickKind`]: the text that is not one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownPickKind(pub String);

impl fmt::Display for UnknownPickKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{}\" is not a pick kind", self.0)
    }
}

impl std::error::Error for UnknownPickKind {}

impl FromStr for PickKind {
    type Err = UnknownPickKind;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PickKind::ALL.into_iter().find(|k| k.as_str() == s).ok_or_else(|| UnknownPickKind(s.to_string()))
    }
}

/// Where a candidate was read: character offsets of the input, end exclusive, and the text there.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

impl Span {
    /// The candidate's key in a question: `<start>-<end>`.
    pub fn key(&self) -> String {
        format!("{}-{}", self.start, self.end)
    }
}

/// A date as read, resolved to a day only when the body runs (003, Values).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum DateReading {
    /// Days from today: `tomorrow` is 1.
    Offset { days: i64 },
    /// A weekday, lower-case English, and `which`: `this`, `next` or `last`.
    Weekday { weekday: String, which: String },
    /// A day of the month: `the 14th`.
    Day { day: u32 },
    /// A full date.
    Calendar { year: i32, month: u32, day: u32 },
}

/// What a recognizer read (003, Values): `{ "type": "duration", "value": 600 }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "lowercase")]
pub enum PickValue {
    /// A whole number prints without `.0`.
    #[serde(serialize_with = "whole_as_integer")]
    Number(f64),
    /// Seconds.
    Duration(u64),
    Date(DateReading),
    /// `"HH:MM"`, 24-hour.
    Time(String),
    /// In the currency's minor units (`€12` is 1200), with its ISO 4217 code.
    Amount {
        amount: i64,
        currency: String,
    },
    Code(String),
    Text(String),
}

fn whole_as_integer<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    if v.fract() == 0.0 && v.abs() < 9_007_199_254_740_992.0 { s.serialize_i64(*v as i64) } else { s.serialize_f64(*v) }
}

impl PickValue {
    /// The number a `range` compares: a number as is, a duration in seconds; `None` for every other kind.
    pub fn comparable(&self) -> Option<f64> {
        match self {
            PickValue::Number(n) => Some(*n),
            PickValue::Duration(seconds) => Some(*seconds as f64),
            _ => None,
        }
    }

    pub fn kind(&self) -> PickKind {
        match self {
            PickValue::Number(_) => PickKind::Number,
            PickValue::Duration(_) => PickKind::Duration,
            PickValue::Date(_) => PickKind::Date,
            PickValue::Time(_) => PickKind::Time,
            PickValue::Amount { .. } => PickKind::Amount,
            PickValue::Code(_) => PickKind::Code,
            PickValue::Text(_) => PickKind::Text,
        }
    }
}

/// One candidate span of a pick.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    pub kind: PickKind,
    pub span: Span,
    pub value: PickValue,
}

/// A day of the proleptic Gregorian calendar, handed in by a caller that knows today's date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CivilDate {
    pub year: i32,
    pub month: u32,
    pub day: u32,
}

/// A match of one recognizer, in character offsets.
pub(crate) struct Hit<T> {
    pub start: usize,
    pub end: usize,
    pub value: T,
}

fn overlaps(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0 < b.1 && b.0 < a.1
}

fn read(input: &str, today: Option<CivilDate>) -> Vec<Candidate> {
    let chars: Vec<char> = input.chars().collect();
    let quotes = text::regions(&chars);
    let mut masked = chars.clone();
    for q in &quotes {
        for c in &mut masked[q.open..=q.close] {
            *c = scan::MASK;
        }
    }
    let s = scan::Scan::new(masked);

    let numbers = number::find(&s);
    let durations = duration::find(&s);
    let dates = date::find(&s, today);
    let times = time::find(&s);
    let amounts = amount::find(&s);
    let codes = code::find(&s.chars);
    let texts = text::find(&chars, &quotes);

    // spans that hide: every typed span, a year-less date without a reading included
    let mut typed: Vec<(usize, usize)> = Vec::new();
    typed.extend(durations.iter().map(|h| (h.start, h.end)));
    typed.extend(dates.iter().map(|h| (h.start, h.end)));
    typed.extend(times.iter().map(|h| (h.start, h.end)));
    typed.extend(amounts.iter().map(|h| (h.start, h.end)));
    let codes: Vec<Hit<String>> =
        codes.into_iter().filter(|h| !typed.iter().any(|t| overlaps(*t, (h.start, h.end)))).collect();
    typed.extend(codes.iter().map(|h| (h.start, h.end)));
    let numbers = numbers.into_iter().filter(|h| !typed.iter().any(|t| overlaps(*t, (h.start, h.end))));

    let mut out = Vec::new();
    let mut push = |kind: PickKind, start: usize, end: usize, value: PickValue| {
        // A bound is no value: `>40`, `≤ 10 minutes`, `40+` say where a measure may lie, not what it is. It
        // still hides what it holds, so its number is not read alone. A code or a text has no bounds.
        let measured = matches!(kind, PickKind::Number | PickKind::Duration | PickKind::Amount | PickKind::Time);
        if measured && bounded(&chars, start, end) {
            return;
        }
        let text = chars[start..end].iter().collect();
        out.push(Candidate { kind, span: Span { start, end, text }, value });
    };
    for h in numbers {
        push(PickKind::Number, h.start, h.end, PickValue::Number(h.value));
    }
    for h in durations {
        push(PickKind::Duration, h.start, h.end, PickValue::Duration(h.value));
    }
    for h in dates {
        if let Some(d) = h.value {
            push(PickKind::Date, h.start, h.end, PickValue::Date(d));
        }
    }
    for h in times {
        push(PickKind::Time, h.start, h.end, PickValue::Time(h.value));
    }
    for h in amounts {
        let (amount, currency) = h.value;
        push(PickKind::Amount, h.start, h.end, PickValue::Amount { amount, currency });
    }
    for h in codes {
        push(PickKind::Code, h.start, h.end, PickValue::Code(h.value));
    }
    for h in texts {
        push(PickKind::Text, h.start, h.end, PickValue::Text(h.value));
    }
    out.sort_by_key(|c| (c.span.start, c.span.end, c.kind));
    out
}

/// Marks that make the value after them a bound, less or more than it, or a change from what is there
/// (`volume +20%`, `volume ^ 20%`, `↑ 10`). (`~` and `≈` say about it, as the word `about` does, and leave
/// it a value.)
const BOUNDS: &[char] = &['<', '>', '≤', '≥', '≦', '≧', '⩽', '⩾', '±', '+', '^', '↑', '↓'];

/// Whether the span `start..end` is a bound or a change rather than a value: a mark of [`BOUNDS`] before it
/// (spaces and an `=` between allowed: `>= 40`), a `+` after it (`40+`, `40 +`), or a minus glued after it
/// with no digit following (`40-`, `40–`).
fn bounded(chars: &[char], start: usize, end: usize) -> bool {
    let before = chars[..start].iter().rev().find(|c| !matches!(c, ' ' | '='));
    let after = chars[end..].iter().find(|c| **c != ' ');
    let trailing_minus =
        chars.get(end).is_some_and(|c| scan::is_minus(*c)) && !chars.get(end + 1).is_some_and(|c| c.is_ascii_digit());
    before.is_some_and(|c| BOUNDS.contains(c)) || after == Some(&'+') || trailing_minus
}

/// Whether a lower-case word is a number said in words (`ten`, `twenty`, `hundred`, `half`).
pub(crate) fn is_number_word(w: &str) -> bool {
    words::unit_value(w).is_some()
        || words::tens_value(w).is_some()
        || matches!(w, "hundred" | "thousand" | "million" | "billion" | "dozen" | "half")
}

/// Every candidate of every kind, sorted by (start, end, kind). A date without a year gives no
/// candidate here (see the module notes); use [`recognize_at`] to read one.
pub fn recognize(input: &str) -> Vec<Candidate> {
    read(input, None)
}

/// As [`recognize`], with today's date handed in, so that a month and day without a year
/// (`May 4`) reads as the `calendar` date of its next occurrence on or after `today`.
pub fn recognize_at(input: &str, today: CivilDate) -> Vec<Candidate> {
    read(input, Some(today))
}

/// The candidates of one kind, sorted by start.
pub fn candidates(input: &str, kind: PickKind) -> Vec<Candidate> {
    recognize(input).into_iter().filter(|c| c.kind == kind).collect()
}

/// As [`candidates`], with today's date handed in (see [`recognize_at`]).
pub fn candidates_at(input: &str, kind: PickKind, today: CivilDate) -> Vec<Candidate> {
    recognize_at(input, today).into_iter().filter(|c| c.kind == kind).collect()
}

#[cfg(test)]
mod tests;
