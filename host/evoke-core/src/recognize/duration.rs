//! `duration`, read in seconds: `10 minutes`, `90s`, `1h30m`, `2 hours 15 minutes`, `an hour and a half`,
//! `half an hour`, `1/2 an hour`, `1 1/2 hours`, `a minute`, `one and a half hours`, `a quarter of an hour`,
//! `3 days`, `2 weeks`, and pieces joined by commas and `and` (`1 hour, 15 minutes, and 30 seconds`).
//!
//! Months and years are not durations here: their length in seconds depends on the calendar.

use super::Hit;
use super::scan::{Scan, unsigned_hits};
use super::words::{and_a_fraction, parse_digit_fraction, parse_numeral, parse_word_number};

pub(crate) const SECOND: u64 = 1;
pub(crate) const MINUTE: u64 = 60;
pub(crate) const HOUR: u64 = 3_600;
pub(crate) const DAY: u64 = 86_400;
pub(crate) const WEEK: u64 = 604_800;

/// A unit word: its length in seconds, and whether it must be glued to digits (`90s`, `10m`, `2h`).
pub(crate) fn unit(w: &str) -> Option<(u64, bool)> {
    Some(match w {
        "second" | "seconds" | "sec" | "secs" => (SECOND, false),
        "s" => (SECOND, true),
        "minute" | "minutes" | "min" | "mins" => (MINUTE, false),
        "m" => (MINUTE, true),
        "hour" | "hours" | "hr" | "hrs" => (HOUR, false),
        "h" => (HOUR, true),
        "day" | "days" => (DAY, false),
        "week" | "weeks" | "wk" | "wks" => (WEEK, false),
        _ => return None,
    })
}

fn is_a(s: &Scan, i: usize) -> bool {
    s.is_any_word(i, &["a", "an"])
}

fn month_follows(s: &Scan, j: usize) -> bool {
    s.is_word(j, "of") || s.word(j).is_some_and(|w| super::date::month(w).is_some())
}

/// A unit word at `j` (spaced or glued) after a numeral that ended at `j`; `digits` says whether the
/// numeral was written in digits (single-letter units need that, and glue).
fn unit_at(s: &Scan, j: usize, digits: bool) -> Option<u64> {
    let (u, glued) = unit(s.word(j)?)?;
    if glued && !(digits && s.adjacent(j - 1, j)) {
        return None;
    }
    Some(u)
}

/// Where the unit word after a quantity ending at `j` stands: at `j`, or past a hyphen that joins the
/// two with no space (`20-minute`, `half-hour`).
fn past_hyphen(s: &Scan, j: usize) -> usize {
    if j > 0 && s.is_punct(j, '-') && s.adjacent(j - 1, j) && s.adjacent(j, j + 1) { j + 1 } else { j }
}

/// One `<quantity> <unit>` piece: (seconds, unit, end).
fn segment(s: &Scan, i: usize) -> Option<(f64, u64, usize)> {
    // half an hour, half a minute, half hour
    if s.is_word(i, "half") {
        let k = if is_a(s, i + 1) { i + 2 } else { past_hyphen(s, i + 1) };
        let u = unit_at(s, k, false)?;
        return Some((0.5 * u as f64, u, k + 1));
    }
    // a/one quarter (of an) hour, three quarters of an hour, quarter of an hour
    {
        let (n, k) = if s.is_word(i, "quarter") || s.is_word(i, "quarters") {
            (1.0, i)
        } else if is_a(s, i) || s.is_word(i, "one") {
            (1.0, i + 1)
        } else if s.is_word(i, "three") {
            (3.0, i + 1)
        } else {
            (0.0, i)
        };
        if n > 0.0 && s.is_any_word(k, &["quarter", "quarters"]) {
            let mut m = k + 1;
            if s.is_word(m, "of") && is_a(s, m + 1) {
                m += 2;
            }
            if s.is_word(m, "hour") {
                return Some((n * 0.25 * HOUR as f64, HOUR, m + 1));
            }
        }
    }
    // a half hour
    if is_a(s, i)
        && s.is_word(i + 1, "half")
        && let Some(u) = unit_at(s, i + 2, false)
    {
        return Some((0.5 * u as f64, u, i + 3));
    }
    // an hour (and a half); not "a days"
    if is_a(s, i)
        && !s.word(i + 1).is_some_and(|w| w.ends_with('s') && w.len() > 1)
        && let Some(u) = unit_at(s, i + 1, false)
    {
        let mut q = 1.0;
        let mut j = i + 2;
        if let Some((f, k)) = and_a_fraction(s, j) {
            q += f;
            j = k;
        }
        return Some((q * u as f64, u, j));
    }
    // 1/2 an hour, 1/2 hour, 3/4 of an hour, 1 1/2 hours
    if let Some((q, mut k)) = parse_digit_fraction(s, i) {
        if s.is_word(k, "of") && is_a(s, k + 1) {
            k += 2;
        } else if is_a(s, k) {
            k += 1;
        }
        if let Some(u) = unit_at(s, k, true) {
            return Some((q * u as f64, u, k + 1));
        }
    }
    // 10 minutes, ten minutes, 1.5 hours, one and a half hours, 90s, 10min
    let digits = s.digits(i).is_some();
    let (mut q, j) = if digits { parse_numeral(s, i)? } else { parse_word_number(s, i)? };
    let j = past_hyphen(s, j);
    let u = unit_at(s, j, digits)?;
    let mut end = j + 1;
    // "the 90s" is a decade
    if digits && s.is_word(j, "s") && i > 0 && s.is_word(i - 1, "the") {
        return None;
    }
    // "twenty second of May", "the twenty second" are dates, not twenty seconds: a singular "second"
    // after tens in words is the ordinal
    if u == SECOND && s.is_word(j, "second") {
        let tens_word = !digits && j == i + 1 && s.word(i).and_then(super::words::tens_value).is_some();
        if tens_word || month_follows(s, end) {
            return None;
        }
    }
    if q.fract() == 0.0
        && let Some((f, k)) = and_a_fraction(s, end)
    {
        q += f;
        end = k;
    }
    Some((q * u as f64, u, end))
}

/// A duration from `i`: its end, and its seconds where they are whole (`None` where they are not, so that
/// the words are read as no duration at all rather than as a shorter one inside them: `half a second` is
/// not `a second`).
fn parse(s: &Scan, i: usize) -> Option<(usize, Option<u64>)> {
    let (mut total, mut last, mut j) = segment(s, i)?;
    // 2 hours 15 minutes, 2 hours and 15 minutes, 1h30m, 1 hour, 30 minutes
    loop {
        // joined by nothing, `and`, a comma, or a comma and `and` (`1 hour, 15 minutes, and 30 seconds`)
        let k = if s.is_punct(j, ',') && s.is_word(j + 1, "and") {
            j + 2
        } else if s.is_word(j, "and") || s.is_punct(j, ',') {
            j + 1
        } else {
            j
        };
        match segment(s, k) {
            Some((secs, u, end)) if u < last => {
                total += secs;
                last = u;
                j = end;
            }
            _ => break,
        }
    }
    // A duration's value is whole seconds: one that is not (`0.5 seconds`, `24.0001 hours`) is no duration
    // evoke can pass on without changing what was said. The tolerance only absorbs the binary fractions of
    // `0.1 hours` or `0.3 minutes`.
    let secs = total.round();
    if !(0.0..1e15).contains(&secs) {
        return None;
    }
    Some((j, ((total - secs).abs() <= 1e-6).then_some(secs as u64)))
}

/// Durations are read unsigned: `minus 10 minutes` is no duration, never ten minutes.
pub(crate) fn find(s: &Scan) -> Vec<Hit<u64>> {
    unsigned_hits(s, parse)
        .into_iter()
        .filter_map(|h| h.value.map(|value| Hit { start: h.start, end: h.end, value }))
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::recognize::{PickKind, PickValue, candidates};

    fn durs(input: &str) -> Vec<(String, u64)> {
        candidates(input, PickKind::Duration)
            .into_iter()
            .map(|c| match c.value {
                PickValue::Duration(v) => (c.span.text, v),
                other => panic!("not a duration: {other:?}"),
            })
            .collect()
    }

    fn one(input: &str, text: &str, secs: u64) {
        assert_eq!(durs(input), vec![(text.to_string(), secs)], "{input}");
    }

    #[test]
    fn simple() {
        one("set a timer for 10 minutes", "10 minutes", 600);
        one("Ten Minutes", "Ten Minutes", 600);
        one("a minute", "a minute", 60);
        one("90s", "90s", 90);
        one("wait 45 sec", "45 sec", 45);
        one("10min", "10min", 600);
        one("3 days", "3 days", 259_200);
        one("2 weeks", "2 weeks", 1_209_600);
        one("one hour's time", "one hour", 3600);
        // A hyphen between the number and its unit, as an adjective is written.
        one("set a 20-minute timer", "20-minute", 1200);
        one("a twenty-minute timer", "twenty-minute", 1200);
        one("a half-hour timer", "a half-hour", 1800);
        one("half-hour timer", "half-hour", 1800);
        one("a 90-second break", "90-second", 90);
        assert!(durs("10-15 people").is_empty());
    }

    #[test]
    fn fractions() {
        one("an hour and a half", "an hour and a half", 5400);
        one("half an hour", "half an hour", 1800);
        one("a half hour", "a half hour", 1800);
        one("one and a half hours", "one and a half hours", 5400);
        one("1.5 hours", "1.5 hours", 5400);
        one("2 and a half minutes", "2 and a half minutes", 150);
        one("two hours and a half", "two hours and a half", 9000);
        one("a quarter of an hour", "a quarter of an hour", 900);
        one("three quarters of an hour", "three quarters of an hour", 2700);
        one("1.5h", "1.5h", 5400);
        one("set a timer for 1/2 an hour", "1/2 an hour", 1800);
        one("1/2 hour", "1/2 hour", 1800);
        one("3/4 of an hour", "3/4 of an hour", 2700);
        one("in 1 1/2 hours", "1 1/2 hours", 5400);
        one("two point five hours", "two point five hours", 9000);
    }

    #[test]
    fn compound() {
        one("1h30m", "1h30m", 5400);
        one("1h 30m", "1h 30m", 5400);
        one("2 hours 15 minutes", "2 hours 15 minutes", 8100);
        one("2 hours and 15 minutes", "2 hours and 15 minutes", 8100);
        one("an hour and 15 minutes", "an hour and 15 minutes", 4500);
        one("1 hour, 30 minutes", "1 hour, 30 minutes", 5400);
        one("set timer for 1 hour, 15 minutes, and 30 seconds", "1 hour, 15 minutes, and 30 seconds", 4530);
        one("1 hour, 15 minutes and 30 seconds", "1 hour, 15 minutes and 30 seconds", 4530);
        assert_eq!(durs("5 minutes and 10 minutes").len(), 2);
    }

    #[test]
    fn a_duration_after_a_sign_is_not_read_as_positive() {
        assert!(durs("set a timer for minus 10 minutes").is_empty());
        assert!(durs("set a timer for -10 minutes").is_empty());
        assert!(durs("negative five seconds").is_empty());
        assert_eq!(durs("10 minutes"), vec![("10 minutes".to_string(), 600)]);
    }

    #[test]
    fn not_durations() {
        assert!(durs("10 m").is_empty());
        assert!(durs("ten h").is_empty());
        assert!(durs("the second one").is_empty());
        assert!(durs("minutes").is_empty());
        assert!(durs("twenty second of may").is_empty());
        assert!(durs("the twenty second").is_empty());
        assert!(durs("a days notice").is_empty());
        assert!(durs("the 90s were fun").is_empty());
        assert_eq!(durs("twenty seconds"), vec![("twenty seconds".to_string(), 20)]);
        assert!(durs("10 months").is_empty());
        assert!(durs("99999999999999999999 hours").is_empty());
        assert!(durs("9999999999999 weeks").is_empty());
    }

    #[test]
    fn a_duration_of_no_whole_number_of_seconds_is_not_read() {
        // Rounding would pass on a value the person never said (`0.5 seconds` as 1, `24.0001 hours` as a day).
        assert!(durs("set a timer for 0.5 seconds").is_empty());
        assert!(durs("half a second").is_empty());
        assert!(durs("set a timer for 24.0001 hours").is_empty());
        assert!(durs("86400.4 seconds").is_empty());
        assert!(durs("1.5 seconds").is_empty());
        one("0.1 hours", "0.1 hours", 360);
        one("0.3 minutes", "0.3 minutes", 18);
        one("1.5 minutes", "1.5 minutes", 90);
    }

    #[test]
    fn a_duration_after_a_dash_or_a_bare_point_is_not_read() {
        assert!(durs("set a timer for \u{2013}10 minutes").is_empty());
        assert!(durs("set a timer for \u{2010}10 minutes").is_empty());
        assert!(durs("set a timer for .5 hours").is_empty());
        assert!(durs("remind me in .5 minutes").is_empty());
    }

    #[test]
    fn offsets_are_chars() {
        let c = &crate::recognize::candidates("café in 10 minutes", PickKind::Duration)[0];
        assert_eq!((c.span.start, c.span.end), (8, 18));
    }
}
