//! `date`, read as one of four readings, resolved to a day only when the body runs (003, Values):
//!
//! - `offset`: `today` (0, also `today's`, `todays`), `tonight` (0), `tomorrow` (1), `yesterday` (-1), `the day after tomorrow` (2),
//!   `in 3 days` (3), `in 2 weeks` (14), `3 days ago` (-3), `a week from today` (7);
//! - `weekday`: `friday` and `this friday` (`this`), `next friday` (`next`), `last friday` (`last`);
//! - `day`: `the 14th`, `the fourteenth`, `on 3rd` (the span leaves `on` out), `the 14th of the month`;
//! - `calendar`: `4 May 2027`, `the 4th of May, 2027`, `May 4, 2027`, `2027-05-04`, `march twenty first
//!   two thousand and seventeen`.
//!
//! A month and day without a year (`May 4`) needs today's date, which the core never reads. With a
//! reference date (`recognize_at`) it reads as `calendar` in the year of its next occurrence on or after
//! that date. Without one (`recognize`) it yields no candidate, but its span is still a typed span: it
//! hides the bare numbers inside it. See `super` for the reasoning.

use super::scan::{Scan, hits};
use super::words::{parse_int_words, parse_numeral, parse_ordinal, parse_small};
use super::{CivilDate, DateReading, Hit};

pub(crate) fn month(w: &str) -> Option<u32> {
    Some(match w {
        "january" | "jan" => 1,
        "february" | "feb" => 2,
        "march" | "mar" => 3,
        "april" | "apr" => 4,
        "may" => 5,
        "june" | "jun" => 6,
        "july" | "jul" => 7,
        "august" | "aug" => 8,
        "september" | "sep" | "sept" => 9,
        "october" | "oct" => 10,
        "november" | "nov" => 11,
        "december" | "dec" => 12,
        _ => return None,
    })
}

pub(crate) fn weekday(w: &str) -> Option<&'static str> {
    Some(match w {
        "monday" => "monday",
        "tuesday" | "tues" => "tuesday",
        "wednesday" | "weds" => "wednesday",
        "thursday" | "thurs" => "thursday",
        "friday" => "friday",
        "saturday" => "saturday",
        "sunday" => "sunday",
        _ => return None,
    })
}

pub(crate) fn is_leap(y: i32) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

pub(crate) fn days_in_month(y: i32, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(y) => 29,
        2 => 28,
        _ => 0,
    }
}

/// The year in which `month`/`day` next falls on or after `today`.
pub(crate) fn next_occurrence(today: CivilDate, month: u32, day: u32) -> Option<i32> {
    let mut y = today.year;
    if (month, day) < (today.month, today.day) {
        y = y.checked_add(1)?;
    }
    for _ in 0..8 {
        if day <= days_in_month(y, month) {
            return Some(y);
        }
        y = y.checked_add(1)?;
    }
    None
}

/// A month name at `i` (an abbreviation may carry a glued `.`): (month, next index).
fn month_at(s: &Scan, i: usize) -> Option<(u32, usize)> {
    let w = s.word(i)?;
    let m = month(w)?;
    if w.len() <= 4 && w != "may" && w != "june" && w != "july" && s.is_punct(i + 1, '.') && s.adjacent(i, i + 1) {
        return Some((m, i + 2));
    }
    Some((m, i + 1))
}

/// A day of the month: an ordinal (`4th`, `fourth`, `twenty first`), 1–2 digits, or, unless `words` is
/// false, a cardinal in words (`twenty two`).
fn day_at(s: &Scan, i: usize, words: bool) -> Option<(u32, usize)> {
    let (d, j) = if let Some((d, j)) = parse_ordinal(s, i) {
        (d, j)
    } else if let Some(ds) = s.digits(i) {
        if ds.len() > 2 {
            return None;
        }
        (ds.parse().ok()?, i + 1)
    } else if words {
        parse_small(s, i)?
    } else {
        return None;
    };
    (1..=31).contains(&d).then_some((d as u32, j))
}

/// A year: four digits, or words (`two thousand and seventeen`, `twenty seventeen`).
fn year_at(s: &Scan, i: usize) -> Option<(i32, usize)> {
    if let Some(ds) = s.digits(i) {
        if ds.len() == 4 {
            return Some((ds.parse().ok()?, i + 1));
        }
        return None;
    }
    if let Some((v, j)) = parse_int_words(s, i)
        && (1000..=2999).contains(&v)
    {
        return Some((v as i32, j));
    }
    let (a, j) = parse_small(s, i)?;
    let (b, k) = parse_small(s, j)?;
    if (10..=29).contains(&a) && (10..=99).contains(&b) {
        return Some(((a * 100 + b) as i32, k));
    }
    None
}

/// An optional year after a month and day, with an optional comma before it.
fn opt_year(s: &Scan, j: usize) -> (Option<i32>, usize) {
    let k = if s.is_punct(j, ',') { j + 1 } else { j };
    match year_at(s, k) {
        Some((y, e)) if s.ends_ok(e) => (Some(y), e),
        _ => (None, j),
    }
}

/// A month-day read into a reading: `None` for an impossible date; `Some(None)` for a year-less one
/// when no reference date is known.
fn calendar(year: Option<i32>, m: u32, d: u32, today: Option<CivilDate>) -> Option<Option<DateReading>> {
    match year {
        Some(y) => (d <= days_in_month(y, m)).then_some(Some(DateReading::Calendar { year: y, month: m, day: d })),
        None => {
            if d > days_in_month(2000, m) {
                return None;
            }
            match today {
                Some(t) => {
                    let y = next_occurrence(t, m, d)?;
                    Some(Some(DateReading::Calendar { year: y, month: m, day: d }))
                }
                None => Some(None),
            }
        }
    }
}

type Reading = Option<DateReading>;

/// 2027-05-04
fn iso(s: &Scan, i: usize) -> Option<(usize, Reading)> {
    let y = s.digits(i).filter(|d| d.len() == 4)?;
    if !(s.is_punct(i + 1, '-') && s.is_punct(i + 3, '-') && (i..i + 4).all(|k| s.adjacent(k, k + 1))) {
        return None;
    }
    let m = s.digits(i + 2).filter(|d| d.len() <= 2)?;
    let d = s.digits(i + 4).filter(|d| d.len() <= 2)?;
    let (y, m, d): (i32, u32, u32) = (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
    if !(1..=12).contains(&m) || d == 0 {
        return None;
    }
    calendar(Some(y), m, d, None)?.map(|r| (i + 5, Some(r)))
}

/// [the] 4th [of] May [[,] 2027]
fn day_month(s: &Scan, i: usize, today: Option<CivilDate>) -> Option<(usize, Reading)> {
    let (k, ordinal_only) = if s.is_word(i, "the") { (i + 1, true) } else { (i, false) };
    let (d, j) = if ordinal_only {
        let (d, j) = parse_ordinal(s, k)?;
        ((1..=31).contains(&d).then_some(d as u32)?, j)
    } else {
        day_at(s, k, true)?
    };
    let j = if s.is_word(j, "of") { j + 1 } else { j };
    let (m, j) = month_at(s, j)?;
    // "one may …", "two may …": a cardinal in words before "may" is the verb
    if m == 5 && parse_ordinal(s, k).is_none() && s.digits(k).is_none() {
        return None;
    }
    let (y, j) = opt_year(s, j);
    calendar(y, m, d, today).map(|r| (j, r))
}

/// May [the] 4th [[,] 2027]
fn month_day(s: &Scan, i: usize, today: Option<CivilDate>) -> Option<(usize, Reading)> {
    let (m, j) = month_at(s, i)?;
    let (k, the) = if s.is_word(j, "the") { (j + 1, true) } else { (j, false) };
    let (d, j) = if the {
        let (d, j) = parse_ordinal(s, k)?;
        ((1..=31).contains(&d).then_some(d as u32)?, j)
    } else {
        day_at(s, k, m != 5)?
    };
    // May 5:30 is a time
    if s.is_punct(j, ':') {
        return None;
    }
    let (y, j) = opt_year(s, j);
    calendar(y, m, d, today).map(|r| (j, r))
}

/// the 14th [of the month]; on 14th
fn day_only(s: &Scan, i: usize) -> Option<(usize, Reading)> {
    let k = if s.is_word(i, "the") {
        i + 1
    } else if i > 0 && s.is_word(i - 1, "on") {
        i
    } else {
        return None;
    };
    let (d, mut j) = parse_ordinal(s, k)?;
    if !(1..=31).contains(&d) {
        return None;
    }
    if s.is_word(j, "of") && s.is_word(j + 1, "the") && s.is_word(j + 2, "month") {
        j += 3;
    }
    Some((j, Some(DateReading::Day { day: d as u32 })))
}

/// An integer count of days or weeks at `i` (`a`/`an` count one): (days, end).
fn count_of_days(s: &Scan, i: usize) -> Option<(i64, usize)> {
    let (n, j) = if s.is_any_word(i, &["a", "an"]) { (1.0, i + 1) } else { parse_numeral(s, i)? };
    if n.fract() != 0.0 || !(0.0..=100_000.0).contains(&n) {
        return None;
    }
    let n = n as i64;
    match s.word(j)? {
        "day" | "days" => Some((n, j + 1)),
        "week" | "weeks" => Some((n * 7, j + 1)),
        _ => None,
    }
}

fn relative(s: &Scan, i: usize) -> Option<(usize, Reading)> {
    let offset = |days: i64, j: usize| Some((j, Some(DateReading::Offset { days })));
    let w = s.word(i).unwrap_or("");
    match w {
        "today" | "todays" | "tonight" => return offset(0, i + 1),
        "tomorrow" | "tomorrows" | "tmrw" => return offset(1, i + 1),
        "yesterday" | "yesterdays" => return offset(-1, i + 1),
        _ => {}
    }
    let k = if w == "the" { i + 1 } else { i };
    if s.is_word(k, "day") {
        if s.is_word(k + 1, "after") && s.is_word(k + 2, "tomorrow") {
            return offset(2, k + 3);
        }
        if s.is_word(k + 1, "before") && s.is_word(k + 2, "yesterday") {
            return offset(-2, k + 3);
        }
    }
    if w == "in" {
        let (n, j) = count_of_days(s, i + 1)?;
        return offset(n, j);
    }
    let (n, j) = count_of_days(s, i)?;
    if s.is_word(j, "ago") {
        return offset(-n, j + 1);
    }
    if s.is_word(j, "from") && s.is_any_word(j + 1, &["now", "today"]) {
        return offset(n, j + 2);
    }
    None
}

fn weekday_at(s: &Scan, i: usize) -> Option<(usize, Reading)> {
    let (which, k) = match s.word(i)? {
        "next" => ("next", i + 1),
        "this" => ("this", i + 1),
        "last" => ("last", i + 1),
        _ => ("this", i),
    };
    let wd = weekday(s.word(k)?)?;
    Some((k + 1, Some(DateReading::Weekday { weekday: wd.to_string(), which: which.to_string() })))
}

fn parse(s: &Scan, i: usize, today: Option<CivilDate>) -> Option<(usize, Reading)> {
    let tries =
        [iso(s, i), day_month(s, i, today), month_day(s, i, today), day_only(s, i), relative(s, i), weekday_at(s, i)];
    // the longest reading that ends on a boundary
    tries.into_iter().flatten().filter(|(j, _)| s.ends_ok(*j)).max_by_key(|(j, _)| *j)
}

/// Every date span; a reading of `None` is a year-less month-day read without a reference date.
pub(crate) fn find(s: &Scan, today: Option<CivilDate>) -> Vec<Hit<Reading>> {
    hits(s, |s, i| parse(s, i, today))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recognize::{PickKind, PickValue, candidates, candidates_at};

    fn dates_at(input: &str, today: Option<CivilDate>) -> Vec<(String, DateReading)> {
        let cs = match today {
            Some(t) => candidates_at(input, PickKind::Date, t),
            None => candidates(input, PickKind::Date),
        };
        cs.into_iter()
            .map(|c| match c.value {
                PickValue::Date(d) => (c.span.text, d),
                other => panic!("not a date: {other:?}"),
            })
            .collect()
    }

    fn one(input: &str, text: &str, d: DateReading) {
        assert_eq!(dates_at(input, None), vec![(text.to_string(), d)], "{input}");
    }

    fn off(days: i64) -> DateReading {
        DateReading::Offset { days }
    }

    fn wd(w: &str, which: &str) -> DateReading {
        DateReading::Weekday { weekday: w.into(), which: which.into() }
    }

    fn cal(year: i32, month: u32, day: u32) -> DateReading {
        DateReading::Calendar { year, month, day }
    }

    #[test]
    fn offsets() {
        one("remind me today", "today", off(0));
        one("Tomorrow please", "Tomorrow", off(1));
        one("what happened yesterday?", "yesterday", off(-1));
        one("in 3 days", "in 3 days", off(3));
        one("in two weeks", "in two weeks", off(14));
        one("in a week", "in a week", off(7));
        one("3 days ago", "3 days ago", off(-3));
        one("a week from today", "a week from today", off(7));
        one("the day after tomorrow", "the day after tomorrow", off(2));
        one("today's weather", "today", off(0));
    }

    #[test]
    fn weekdays() {
        one("friday", "friday", wd("friday", "this"));
        one("next Friday", "next Friday", wd("friday", "next"));
        one("this friday", "this friday", wd("friday", "this"));
        one("last friday", "last friday", wd("friday", "last"));
        one("on tuesday at noon", "tuesday", wd("tuesday", "this"));
        assert!(dates_at("fridays", None).is_empty());
    }

    #[test]
    fn days() {
        one("the 14th", "the 14th", DateReading::Day { day: 14 });
        one("on the 3rd", "the 3rd", DateReading::Day { day: 3 });
        one("on 3rd", "3rd", DateReading::Day { day: 3 });
        one("the fifteenth", "the fifteenth", DateReading::Day { day: 15 });
        one("the 14th of the month", "the 14th of the month", DateReading::Day { day: 14 });
        assert!(dates_at("the 32nd", None).is_empty());
        assert!(dates_at("3rd", None).is_empty());
    }

    #[test]
    fn calendars() {
        one("4 May 2027", "4 May 2027", cal(2027, 5, 4));
        one("May 4, 2027", "May 4, 2027", cal(2027, 5, 4));
        one("the 4th of May 2027", "the 4th of May 2027", cal(2027, 5, 4));
        one("on 2027-05-04", "2027-05-04", cal(2027, 5, 4));
        one("Feb. 29, 2028", "Feb. 29, 2028", cal(2028, 2, 29));
        one(
            "march twenty first two thousand and seventeen",
            "march twenty first two thousand and seventeen",
            cal(2017, 3, 21),
        );
        one("twenty second of march twenty seventeen", "twenty second of march twenty seventeen", cal(2017, 3, 22));
        assert!(dates_at("Feb 29, 2027", None).is_empty());
        assert!(dates_at("February 30", None).is_empty());
    }

    #[test]
    fn yearless() {
        let t = CivilDate { year: 2026, month: 6, day: 1 };
        assert!(dates_at("May 4", None).is_empty());
        assert_eq!(dates_at("May 4", Some(t)), vec![("May 4".into(), cal(2027, 5, 4))]);
        assert_eq!(dates_at("4th of July", Some(t)), vec![("4th of July".into(), cal(2026, 7, 4))]);
        assert_eq!(dates_at("june 1", Some(t)), vec![("june 1".into(), cal(2026, 6, 1))]);
        assert_eq!(dates_at("Feb 29", Some(t)), vec![("Feb 29".into(), cal(2028, 2, 29))]);
        // the numbers stay hidden either way
        assert!(candidates("May 4", PickKind::Number).is_empty());
    }

    #[test]
    fn may_the_verb() {
        assert!(dates_at("one may argue", Some(CivilDate { year: 2026, month: 1, day: 1 })).is_empty());
        assert!(candidates("you may 2 times", PickKind::Date).is_empty());
    }
}
