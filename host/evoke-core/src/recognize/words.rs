//! Numbers as people write them: digits (`30`, `2.5`, `1,000`) and English words (`forty`, `twenty-one`,
//! `a hundred`, `two and a half`, `twenty point five`), and ordinals (`14th`, `twenty first`). Shared by every recognizer.

use super::scan::Scan;

/// Digits before the decimal point beyond this are skipped: an f64 no longer holds them exactly.
const MAX_DIGITS: usize = 15;

pub(crate) fn unit_value(w: &str) -> Option<u64> {
    Some(match w {
        "zero" => 0,
        "one" => 1,
        "two" => 2,
        "three" => 3,
        "four" => 4,
        "five" => 5,
        "six" => 6,
        "seven" => 7,
        "eight" => 8,
        "nine" => 9,
        "ten" => 10,
        "eleven" => 11,
        "twelve" => 12,
        "thirteen" => 13,
        "fourteen" => 14,
        "fifteen" => 15,
        "sixteen" => 16,
        "seventeen" => 17,
        "eighteen" => 18,
        "nineteen" => 19,
        _ => return None,
    })
}

pub(crate) fn tens_value(w: &str) -> Option<u64> {
    Some(match w {
        "twenty" => 20,
        "thirty" => 30,
        "forty" => 40,
        "fourty" => 40,
        "fifty" => 50,
        "sixty" => 60,
        "seventy" => 70,
        "eighty" => 80,
        "ninety" => 90,
        _ => return None,
    })
}

fn scale_value(w: &str) -> Option<u64> {
    Some(match w {
        "thousand" => 1_000,
        "million" => 1_000_000,
        "billion" => 1_000_000_000,
        _ => return None,
    })
}

pub(crate) fn ordinal_word(w: &str) -> Option<u64> {
    Some(match w {
        "first" => 1,
        "second" => 2,
        "third" => 3,
        "fourth" => 4,
        "fifth" => 5,
        "sixth" => 6,
        "seventh" => 7,
        "eighth" => 8,
        "ninth" => 9,
        "tenth" => 10,
        "eleventh" => 11,
        "twelfth" => 12,
        "thirteenth" => 13,
        "fourteenth" => 14,
        "fifteenth" => 15,
        "sixteenth" => 16,
        "seventeenth" => 17,
        "eighteenth" => 18,
        "nineteenth" => 19,
        "twentieth" => 20,
        "thirtieth" => 30,
        _ => return None,
    })
}

/// `tens [-] unit`, a teen or a unit: 0..=99.
pub(crate) fn parse_small(s: &Scan, i: usize) -> Option<(u64, usize)> {
    let w = s.word(i)?;
    if let Some(t) = tens_value(w) {
        // twenty-one
        if s.is_punct(i + 1, '-')
            && s.adjacent(i, i + 1)
            && s.adjacent(i + 1, i + 2)
            && let Some(u) = s.word(i + 2).and_then(unit_value).filter(|u| (1..=9).contains(u))
        {
            return Some((t + u, i + 3));
        }
        // twenty one
        if let Some(u) = s.word(i + 1).and_then(unit_value).filter(|u| (1..=9).contains(u)) {
            return Some((t + u, i + 2));
        }
        return Some((t, i + 1));
    }
    unit_value(w).map(|u| (u, i + 1))
}

fn is_a(s: &Scan, i: usize) -> bool {
    s.is_any_word(i, &["a", "an"])
}

/// Up to `nine hundred and ninety nine` (and `a hundred`); `a`/`an` stands for one before a scale word.
fn parse_hundreds(s: &Scan, i: usize) -> Option<(u64, usize)> {
    let (v, j) = if is_a(s, i) {
        let next = s.word(i + 1)?;
        if next == "hundred" || scale_value(next).is_some() || next == "dozen" {
            (1, i + 1)
        } else {
            return None;
        }
    } else {
        parse_small(s, i)?
    };
    if s.is_word(j, "hundred") && v >= 1 {
        let h = v * 100;
        let j = j + 1;
        if s.is_word(j, "and") {
            if let Some((r, k)) = parse_small(s, j + 1) {
                return Some((h + r, k));
            }
            return Some((h, j));
        }
        if let Some((r, k)) = parse_small(s, j) {
            return Some((h + r, k));
        }
        return Some((h, j));
    }
    Some((v, j))
}

/// An integer in words: `forty`, `twenty-one`, `a hundred`, `two thousand and seventeen`, `a dozen`.
pub(crate) fn parse_int_words(s: &Scan, i: usize) -> Option<(u64, usize)> {
    let (mut cur, mut j) = parse_hundreds(s, i)?;
    let mut total: u64 = 0;
    let mut last_scale = u64::MAX;
    while let Some(scale) = s.word(j).and_then(scale_value) {
        if scale >= last_scale || cur == 0 {
            break;
        }
        total = total.checked_add(cur.checked_mul(scale)?)?;
        last_scale = scale;
        cur = 0;
        j += 1;
        let k = if s.is_word(j, "and") { j + 1 } else { j };
        match parse_hundreds(s, k) {
            Some((h, k2)) if !(is_a(s, k)) => {
                cur = h;
                j = k2;
            }
            _ => break,
        }
    }
    total = total.checked_add(cur)?;
    if s.is_word(j, "dozen") && (1..1000).contains(&total) {
        return Some((total * 12, j + 1));
    }
    Some((total, j))
}

/// `and a half` / `and a quarter` at `i`: the fraction and the index after it.
pub(crate) fn and_a_fraction(s: &Scan, i: usize) -> Option<(f64, usize)> {
    if s.is_word(i, "and") && is_a(s, i + 1) {
        match s.word(i + 2) {
            Some("half") => return Some((0.5, i + 3)),
            Some("quarter") => return Some((0.25, i + 3)),
            _ => {}
        }
    }
    None
}

/// A number in words, with `half`, `a half`, `a quarter` and `… and a half`.
pub(crate) fn parse_word_number(s: &Scan, i: usize) -> Option<(f64, usize)> {
    if s.is_word(i, "half") {
        return Some((0.5, i + 1));
    }
    if is_a(s, i) {
        match s.word(i + 1) {
            Some("half") => return Some((0.5, i + 2)),
            Some("quarter") => return Some((0.25, i + 2)),
            _ => {}
        }
    }
    let (v, j) = parse_int_words(s, i)?;
    if let Some((decimals, k)) = point_digits(s, j) {
        return Some((format!("{v}.{decimals}").parse().ok()?, k));
    }
    if let Some((f, k)) = and_a_fraction(s, j) {
        return Some((v as f64 + f, k));
    }
    Some((v as f64, j))
}

/// The most digit words read after `point`: more than an f64 holds exactly is not a reading.
const MAX_POINT_DIGITS: usize = 15;

/// `point five`, `point two five` at `i`: the decimals said as digit words (`zero` to `nine`, and `oh`),
/// as digits, and the index after them. `point` followed by anything else is not a decimal point.
fn point_digits(s: &Scan, i: usize) -> Option<(String, usize)> {
    if !s.is_word(i, "point") {
        return None;
    }
    let digit = |w: &str| if w == "oh" { Some(0) } else { unit_value(w).filter(|d| *d <= 9) };
    let mut digits = String::new();
    let mut j = i + 1;
    while let Some(d) = s.word(j).and_then(digit) {
        digits.push(char::from(b'0' + d as u8));
        j += 1;
    }
    if digits.is_empty() || digits.len() > MAX_POINT_DIGITS {
        return None;
    }
    Some((digits, j))
}

/// A fraction in digits, `1/2` or `3/4`, and a whole number before one (`1 1/2`): the value and the index
/// after it. The slash must be glued to both numbers, and the fraction be a proper one (`1/2`, not `2/1`),
/// so that a date or a ratio is not read as one.
pub(crate) fn parse_digit_fraction(s: &Scan, i: usize) -> Option<(f64, usize)> {
    let proper = |k: usize| -> Option<f64> {
        let a: u64 = s.digits(k)?.parse().ok()?;
        if !(s.is_punct(k + 1, '/') && s.adjacent(k, k + 1) && s.adjacent(k + 1, k + 2)) {
            return None;
        }
        let b: u64 = s.digits(k + 2)?.parse().ok()?;
        (a > 0 && a < b && b <= 100).then(|| a as f64 / b as f64)
    };
    if let Some(f) = proper(i) {
        return Some((f, i + 3));
    }
    let whole: u64 = s.digits(i)?.parse().ok()?;
    if whole >= 1_000_000 || s.adjacent(i, i + 1) {
        return None;
    }
    let f = proper(i + 1)?;
    Some((whole as f64 + f, i + 4))
}

/// Digits with optional thousands groups and decimals: `30`, `2.5`, `1,000`, `1,234.5`.
pub(crate) fn parse_digit_number(s: &Scan, i: usize) -> Option<(f64, usize)> {
    let first = s.digits(i)?;
    let mut int = first.to_string();
    let mut j = i + 1;
    if first.len() <= 3 {
        while s.is_punct(j, ',')
            && s.adjacent(j - 1, j)
            && s.adjacent(j, j + 1)
            && s.digits(j + 1).is_some_and(|d| d.len() == 3)
        {
            int.push_str(s.digits(j + 1).unwrap_or_default());
            j += 2;
        }
    }
    let mut frac = String::new();
    if s.is_punct(j, '.')
        && s.adjacent(j - 1, j)
        && s.adjacent(j, j + 1)
        && let Some(d) = s.digits(j + 1)
    {
        frac = d.to_string();
        j += 2;
    }
    let int_trim = int.trim_start_matches('0');
    if int_trim.len() > MAX_DIGITS || frac.len() > MAX_DIGITS {
        return None;
    }
    let text = if frac.is_empty() { int } else { format!("{int}.{frac}") };
    let v: f64 = text.parse().ok()?;
    v.is_finite().then_some((v, j))
}

/// A number in digits or words; digits may be followed by a scale word (`2 million`) or `and a half`.
pub(crate) fn parse_numeral(s: &Scan, i: usize) -> Option<(f64, usize)> {
    if s.digits(i).is_some() {
        let (mut v, mut j) = parse_digit_number(s, i)?;
        if let Some(scale) = s
            .word(j)
            .filter(|_| !s.adjacent(j - 1, j))
            .and_then(|w| if w == "hundred" { Some(100) } else { scale_value(w) })
        {
            v *= scale as f64;
            j += 1;
        } else if let Some((f, k)) = and_a_fraction(s, j)
            && v.fract() == 0.0
        {
            v += f;
            j = k;
        }
        if v.abs() >= 1e15 {
            return None;
        }
        return Some((v, j));
    }
    parse_word_number(s, i)
}

/// An ordinal: `14th`, `1st`, `twelfth`, `twenty first`, `twenty-first`.
pub(crate) fn parse_ordinal(s: &Scan, i: usize) -> Option<(u64, usize)> {
    if let Some(d) = s.digits(i) {
        if d.len() <= 3 && s.adjacent(i, i + 1) && s.is_any_word(i + 1, &["st", "nd", "rd", "th"]) {
            return Some((d.parse().ok()?, i + 2));
        }
        return None;
    }
    let w = s.word(i)?;
    if let Some(v) = ordinal_word(w) {
        return Some((v, i + 1));
    }
    let t = tens_value(w)?;
    if s.is_punct(i + 1, '-')
        && s.adjacent(i, i + 1)
        && s.adjacent(i + 1, i + 2)
        && let Some(u) = s.word(i + 2).and_then(ordinal_word).filter(|u| (1..=9).contains(u))
    {
        return Some((t + u, i + 3));
    }
    let u = s.word(i + 1).and_then(ordinal_word).filter(|u| (1..=9).contains(u))?;
    Some((t + u, i + 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(s: &str) -> Scan {
        Scan::new(s.chars().collect())
    }

    fn num(s: &str) -> Option<(f64, usize)> {
        parse_numeral(&scan(s), 0)
    }

    #[test]
    fn words() {
        assert_eq!(num("forty"), Some((40.0, 1)));
        assert_eq!(num("twenty one"), Some((21.0, 2)));
        assert_eq!(num("twenty-one"), Some((21.0, 3)));
        assert_eq!(num("a hundred"), Some((100.0, 2)));
        assert_eq!(num("two and a half"), Some((2.5, 4)));
        assert_eq!(num("half"), Some((0.5, 1)));
        assert_eq!(num("one hundred and thirty"), Some((130.0, 4)));
        assert_eq!(num("two thousand and seventeen"), Some((2017.0, 4)));
        assert_eq!(num("nine hundred and ninety seven"), Some((997.0, 5)));
        assert_eq!(num("three million two hundred thousand"), Some((3_200_000.0, 5)));
        assert_eq!(num("a dozen"), Some((12.0, 2)));
        assert_eq!(num("one hundred and"), Some((100.0, 2)));
        assert_eq!(num("a"), None);
        assert_eq!(num("a cat"), None);
        assert_eq!(num("twenty point five"), Some((20.5, 3)));
        assert_eq!(num("zero point oh five"), Some((0.05, 4)));
        assert_eq!(num("five point plan"), Some((5.0, 1)));
    }

    #[test]
    fn fractions_in_digits() {
        let s = scan("1/2 1 3/4 2/1 1 / 2 0/3");
        assert_eq!(parse_digit_fraction(&s, 0), Some((0.5, 3)));
        assert_eq!(parse_digit_fraction(&s, 3), Some((1.75, 7)));
        assert_eq!(parse_digit_fraction(&s, 7), None, "not a proper fraction");
        assert_eq!(parse_digit_fraction(&s, 10), None, "the slash is not glued");
        assert_eq!(parse_digit_fraction(&s, 13), None, "nothing over three");
    }

    #[test]
    fn digits() {
        assert_eq!(num("30"), Some((30.0, 1)));
        assert_eq!(num("2.5"), Some((2.5, 3)));
        assert_eq!(num("1,000"), Some((1000.0, 3)));
        assert_eq!(num("1,234,567.25"), Some((1_234_567.25, 7)));
        assert_eq!(num("1234,567"), Some((1234.0, 1)));
        assert_eq!(num("2 million"), Some((2e6, 2)));
        assert_eq!(num("2 and a half"), Some((2.5, 4)));
        assert_eq!(num("99999999999999999999999"), None);
        assert_eq!(num("000000000000000000000007"), Some((7.0, 1)));
    }

    #[test]
    fn ordinals() {
        let s = scan("14th twelfth twenty first thirty-first 2nd");
        assert_eq!(parse_ordinal(&s, 0), Some((14, 2)));
        assert_eq!(parse_ordinal(&s, 2), Some((12, 3)));
        assert_eq!(parse_ordinal(&s, 3), Some((21, 5)));
        assert_eq!(parse_ordinal(&s, 5), Some((31, 8)));
        assert_eq!(parse_ordinal(&s, 8), Some((2, 10)));
    }
}
