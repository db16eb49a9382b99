//! `time`, read as 24-hour `"HH:MM"`: `17:30`, `5:30 pm`, `5pm`, `5 p.m.`, `five pm`, `five thirty am`,
//! `ten o'clock`, `noon`, `midnight`, `twelve noon`, `half past five`, `quarter to six`, `six in the
//! morning`, `six hundred and forty five am`, and a bare hour after `at`/`until`/`before`… when what follows
//! cannot be a count (`at 5`, `at six tomorrow`, not `at 5 minutes`).
//!
//! An hour with neither `am`/`pm` nor a part of the day is read as said, on a 24-hour clock: `ten
//! o'clock` is `10:00`, `at 5` is `05:00`. A following `tonight`, `this evening` or `this morning` sets
//! the half of the day without entering the span (it stays a date word).

use super::Hit;
use super::scan::{Scan, hits};
use super::words::{parse_int_words, parse_small, unit_value};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mer {
    Am,
    Pm,
    /// `at night`: 1–4 stay small hours, 5–11 are the evening, 12 is midnight.
    Night,
    /// `tonight`, `tomorrow night`: the evening, 12 is midnight.
    Tonight,
}

fn apply(h: u32, m: u32, mer: Option<Mer>) -> Option<(u32, u32)> {
    if m > 59 {
        return None;
    }
    let h = match mer {
        None if h <= 23 => h,
        None => return None,
        Some(Mer::Am) => match h {
            0..=11 => h,
            12 => 0,
            _ => return None,
        },
        Some(Mer::Pm) => match h {
            1..=11 => h + 12,
            12 => 12,
            _ => return None,
        },
        Some(Mer::Night) => match h {
            1..=4 => h,
            5..=11 => h + 12,
            12 => 0,
            _ => return None,
        },
        Some(Mer::Tonight) => match h {
            1..=11 => h + 12,
            12 => 0,
            _ => return None,
        },
    };
    Some((h, m))
}

fn fmt(h: u32, m: u32) -> String {
    format!("{h:02}:{m:02}")
}

/// `am`, `pm`, `a.m.`, `p. m.` at `j`.
fn meridiem(s: &Scan, j: usize) -> Option<(Mer, usize)> {
    match s.word(j)? {
        "am" => Some((Mer::Am, j + 1)),
        "pm" => Some((Mer::Pm, j + 1)),
        w @ ("a" | "p") => {
            let mer = if w == "a" { Mer::Am } else { Mer::Pm };
            if !(s.is_punct(j + 1, '.') && s.adjacent(j, j + 1) && s.is_word(j + 2, "m")) {
                return None;
            }
            let end = if s.is_punct(j + 3, '.') && s.adjacent(j + 2, j + 3) { j + 4 } else { j + 3 };
            Some((mer, end))
        }
        _ => None,
    }
}

/// A part of the day that belongs to the span: `in the morning`, `in the afternoon`, `in the evening`,
/// `at night`.
fn daypart(s: &Scan, j: usize) -> Option<(Mer, usize)> {
    if s.is_word(j, "in") && s.is_word(j + 1, "the") {
        return match s.word(j + 2)? {
            "morning" => Some((Mer::Am, j + 3)),
            "afternoon" | "evening" => Some((Mer::Pm, j + 3)),
            _ => None,
        };
    }
    if s.is_word(j, "at") && s.is_word(j + 1, "night") {
        return Some((Mer::Night, j + 2));
    }
    None
}

/// A part of the day that follows the span without entering it: `tonight`, `this evening`.
fn peek_daypart(s: &Scan, j: usize) -> Option<Mer> {
    match s.word(j)? {
        "tonight" => Some(Mer::Tonight),
        "this" | "tomorrow" => match s.word(j + 1)? {
            "morning" => Some(Mer::Am),
            "afternoon" | "evening" => Some(Mer::Pm),
            "night" => Some(Mer::Tonight),
            _ => None,
        },
        _ => None,
    }
}

/// Meridiem or daypart at `j`, consumed.
fn suffix(s: &Scan, j: usize) -> Option<(Mer, usize)> {
    meridiem(s, j).or_else(|| daypart(s, j))
}

/// Reads `(h, m)` with whatever suffix follows; `required` says a suffix must be there.
fn finish(s: &Scan, h: u32, m: u32, j: usize, required: bool) -> Option<(usize, String)> {
    if let Some((mer, e)) = suffix(s, j) {
        if let Some((h, m)) = apply(h, m, Some(mer)) {
            return Some((e, fmt(h, m)));
        }
        if required {
            return None;
        }
    }
    if required {
        return None;
    }
    let mer = peek_daypart(s, j).filter(|_| h <= 12);
    let (h, m) = apply(h, m, mer)?;
    Some((j, fmt(h, m)))
}

/// An hour of the clock in words (`one` … `twelve`) or 1–2 digits (1–12).
fn hour12(s: &Scan, i: usize) -> Option<(u32, usize)> {
    let h = if let Some(d) = s.digits(i) {
        if d.len() > 2 {
            return None;
        }
        d.parse::<u32>().ok()?
    } else {
        unit_value(s.word(i)?)? as u32
    };
    (1..=12).contains(&h).then_some((h, i + 1))
}

/// Minutes in words after an hour: `thirty`, `forty five`, `fifteen`, `oh five`.
fn minute_words(s: &Scan, j: usize) -> Option<(u32, usize)> {
    if s.is_any_word(j, &["oh", "o"]) {
        let u = unit_value(s.word(j + 1)?).filter(|u| (1..=9).contains(u))?;
        return Some((u as u32, j + 2));
    }
    s.word(j)?;
    let (m, k) = parse_small(s, j)?;
    (10..=59).contains(&m).then_some((m as u32, k))
}

/// `o'clock`, `o’clock`, `oclock`, `o clock` at `j`: the index after it.
fn oclock(s: &Scan, j: usize) -> Option<usize> {
    if s.is_word(j, "oclock") {
        return Some(j + 1);
    }
    if s.is_word(j, "o") {
        if matches!(s.punct(j + 1), Some('\'' | '’')) && s.adjacent(j, j + 1) && s.is_word(j + 2, "clock") {
            return Some(j + 3);
        }
        if s.is_word(j + 1, "clock") {
            return Some(j + 2);
        }
    }
    None
}

/// 17:30, 5:30 pm, 5.30pm
fn colon(s: &Scan, i: usize) -> Option<(usize, String)> {
    let hd = s.digits(i).filter(|d| d.len() <= 2)?;
    let sep = s.punct(i + 1)?;
    if !(sep == ':' || sep == '.') || !s.adjacent(i, i + 1) || !s.adjacent(i + 1, i + 2) {
        return None;
    }
    let md = s.digits(i + 2).filter(|d| d.len() == 2)?;
    let (h, m): (u32, u32) = (hd.parse().ok()?, md.parse().ok()?);
    finish(s, h, m, i + 3, sep == '.')
}

/// 5pm, 5 p.m., 530pm, five pm, five thirty pm, six hundred and forty five am, six in the morning
fn with_suffix(s: &Scan, i: usize) -> Option<(usize, String)> {
    if let Some(d) = s.digits(i) {
        let n: u32 = d.parse().ok().filter(|_| d.len() <= 4)?;
        let (h, m) = if d.len() <= 2 { (n, 0) } else { (n / 100, n % 100) };
        if h == 0 || h > 12 {
            return None;
        }
        return finish(s, h, m, i + 1, true);
    }
    // "six hundred and forty five am"
    if let Some((v, j)) = parse_int_words(s, i)
        && (100..=1259).contains(&v)
        && meridiem(s, j).is_some()
    {
        let (h, m) = ((v / 100) as u32, (v % 100) as u32);
        if (1..=12).contains(&h) {
            return finish(s, h, m, j, true);
        }
    }
    let (h, j) = hour12(s, i)?;
    if let Some((m, k)) = minute_words(s, j)
        && let Some(r) = finish(s, h, m, k, true)
    {
        return Some(r);
    }
    finish(s, h, 0, j, true)
}

/// ten o'clock, 5 o'clock pm
fn with_oclock(s: &Scan, i: usize) -> Option<(usize, String)> {
    let (h, j) = hour12(s, i)?;
    let j = oclock(s, j)?;
    finish(s, h, 0, j, false)
}

/// noon, midday, midnight, twelve noon, 12 midnight
fn named(s: &Scan, i: usize) -> Option<(usize, String)> {
    let k = if s.is_word(i, "twelve") || s.digits(i) == Some("12") { i + 1 } else { i };
    match s.word(k)? {
        "noon" | "midday" => Some((k + 1, fmt(12, 0))),
        "midnight" => Some((k + 1, fmt(0, 0))),
        _ => None,
    }
}

/// half past five, quarter to six, ten past 5, twenty-five to seven
fn past_to(s: &Scan, i: usize) -> Option<(usize, String)> {
    let digits = s.digits(i).is_some();
    let (n, j, few) = match s.word(i) {
        Some("half") => (30, i + 1, false),
        Some("quarter") => (15, i + 1, true),
        Some("a") if s.is_word(i + 1, "quarter") => (15, i + 2, true),
        _ => {
            let (n, j) = if let Some(d) = s.digits(i) {
                (d.parse::<u32>().ok().filter(|_| d.len() <= 2)?, i + 1)
            } else {
                let (n, j) = parse_small(s, i)?;
                (n as u32, j)
            };
            let j = if s.is_any_word(j, &["minute", "minutes"]) { j + 1 } else { j };
            (n, j, matches!(n, 5 | 10 | 20 | 25))
        }
    };
    if !(1..=30).contains(&n) {
        return None;
    }
    let before = s.is_word(j, "to") || s.is_word(j, "till");
    if !(s.is_word(j, "past") || s.is_word(j, "after") && !digits || before) {
        return None;
    }
    if before && (!few || i > 0 && s.is_any_word(i - 1, &["from", "between"])) {
        return None;
    }
    let (h, k) = hour12(s, j + 1)?;
    let k = oclock(s, k).unwrap_or(k);
    let (mer, e) = match suffix(s, k) {
        Some((mer, e)) => (Some(mer), e),
        None => (peek_daypart(s, k), k),
    };
    let (h24, _) = apply(h, 0, mer)?;
    let total = if before { (h24 * 60 + 1440 - n) % 1440 } else { h24 * 60 + n };
    Some((e, fmt(total / 60, total % 60)))
}

const PREPOSITIONS: &[&str] = &["at", "until", "till", "til", "around", "before", "after"];
const FOLLOWERS: &[&str] = &[
    "today",
    "tomorrow",
    "tonight",
    "tmrw",
    "on",
    "this",
    "next",
    "then",
    "please",
    "for",
    "with",
    "at",
    "every",
    "sharp",
    "about",
    "if",
    "so",
    "instead",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];

/// at 5, at six, at six thirty, until 17, before eight tomorrow (not `by`: "divided by nine")
fn after_preposition(s: &Scan, i: usize) -> Option<(usize, String)> {
    if i == 0 || !s.is_any_word(i - 1, PREPOSITIONS) {
        return None;
    }
    let (h, j) = if let Some(d) = s.digits(i) {
        let h: u32 = d.parse().ok().filter(|_| d.len() <= 2)?;
        (h, i + 1)
    } else {
        hour12(s, i)?
    };
    let (h, m, j) = if s.digits(i).is_some() {
        (h, 0, j)
    } else if let Some((v, k)) = parse_int_words(s, i).filter(|(v, _)| (100..=2359).contains(v) && v % 100 < 60) {
        // "at eight hundred", "at five hundred and thirty"
        ((v / 100) as u32, (v % 100) as u32, k)
    } else {
        let (m, j) = minute_words(s, j).unwrap_or((0, j));
        (h, m, j)
    };
    if let Some((mer, e)) = daypart(s, j) {
        let (h, m) = apply(h, m, Some(mer))?;
        return Some((e, fmt(h, m)));
    }
    let follows_ok = j >= s.len()
        || s.punct(j).is_some_and(|c| !matches!(c, '%' | '$' | '€' | '£' | '¥' | '-' | ':' | '/'))
        || s.is_any_word(j, FOLLOWERS);
    if !follows_ok {
        return None;
    }
    finish(s, h, m, j, false)
}

fn parse(s: &Scan, i: usize) -> Option<(usize, String)> {
    let tries =
        [colon(s, i), with_suffix(s, i), with_oclock(s, i), named(s, i), past_to(s, i), after_preposition(s, i)];
    tries.into_iter().flatten().filter(|(j, _)| s.ends_ok(*j)).max_by_key(|(j, _)| *j)
}

pub(crate) fn find(s: &Scan) -> Vec<Hit<String>> {
    hits(s, parse)
}

#[cfg(test)]
mod tests {
    use crate::recognize::{PickKind, PickValue, candidates};

    fn times(input: &str) -> Vec<(String, String)> {
        candidates(input, PickKind::Time)
            .into_iter()
            .map(|c| match c.value {
                PickValue::Time(v) => (c.span.text, v),
                other => panic!("not a time: {other:?}"),
            })
            .collect()
    }

    fn one(input: &str, text: &str, v: &str) {
        assert_eq!(times(input), vec![(text.to_string(), v.to_string())], "{input}");
    }

    #[test]
    fn clock_forms() {
        one("at 5:30 pm", "5:30 pm", "17:30");
        one("at 5:30pm", "5:30pm", "17:30");
        one("17:30", "17:30", "17:30");
        one("9:05", "9:05", "09:05");
        one("5pm", "5pm", "17:00");
        one("5 PM", "5 PM", "17:00");
        one("5 p.m.", "5 p.m.", "17:00");
        one("three p. m.", "three p. m.", "15:00");
        one("12 am", "12 am", "00:00");
        one("12pm", "12pm", "12:00");
        one("5.30pm", "5.30pm", "17:30");
        one("1130am", "1130am", "11:30");
        one("17:30 pm", "17:30", "17:30");
    }

    #[test]
    fn words() {
        one("five pm", "five pm", "17:00");
        one("five thirty am", "five thirty am", "05:30");
        one("six forty five pm", "six forty five pm", "18:45");
        one("six hundred and forty five am", "six hundred and forty five am", "06:45");
        one("six in the morning", "six in the morning", "06:00");
        one("ten in the evening", "ten in the evening", "22:00");
        one("ten o'clock", "ten o'clock", "10:00");
        one("5 o’clock pm", "5 o’clock pm", "17:00");
    }

    #[test]
    fn named() {
        one("noon", "noon", "12:00");
        one("at midnight", "midnight", "00:00");
        one("twelve noon", "twelve noon", "12:00");
    }

    #[test]
    fn past_to() {
        one("half past five", "half past five", "05:30");
        one("half past five pm", "half past five pm", "17:30");
        one("quarter past 5", "quarter past 5", "05:15");
        one("quarter to six", "quarter to six", "05:45");
        one("ten to one", "ten to one", "00:50");
        one("twenty past seven in the evening", "twenty past seven in the evening", "19:20");
        assert!(times("from one to five").is_empty());
        assert!(times("count 1 to 10").is_empty());
    }

    #[test]
    fn after_preposition() {
        one("wake me up at six", "six", "06:00");
        one("at 5 tonight", "5", "17:00");
        one("at six thirty tomorrow", "six thirty", "06:30");
        one("at 17.", "17", "17:00");
        one("wake me up at five hundred and thirty", "five hundred and thirty", "05:30");
        assert!(times("look at 5 minutes").is_empty());
        assert!(times("at 5 percent").is_empty());
        assert!(times("at 25").is_empty());
        assert!(times("set 5").is_empty());
    }

    #[test]
    fn not_times() {
        assert!(times("5 apples").is_empty());
        assert!(times("25:00").is_empty());
        assert!(times("13pm").is_empty());
        assert!(times("1.5").is_empty());
    }
}
