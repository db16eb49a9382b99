//! `number`: digits (`30`, `2.5`, `1,000`, `-4`), number words (`forty`, `twenty one`, `a hundred`,
//! `two and a half`, `half`, `twenty point five`), signed by a word (`minus 10`, `negative five`: the word in
//! the span, so a volume of `minus 10` is never read as 10) and percentages (`30%`, `30 percent`, read as 30,
//! the sign in the span).

use super::Hit;
use super::scan::{SIGN_WORDS, Scan, hits};
use super::words::parse_numeral;

fn parse(s: &Scan, i: usize) -> Option<(usize, f64)> {
    let (neg, k) = match s.punct(i) {
        Some(_) if super::scan::signs(s, i) && s.digits(i + 1).is_some() => (true, i + 1),
        _ if s.is_any_word(i, SIGN_WORDS) && parse_numeral(s, i + 1).is_some() => (true, i + 1),
        _ => (false, i),
    };
    let (v, mut j) = parse_numeral(s, k)?;
    if j == k + 1 && s.is_word(k, "one") && names_a_thing(s, k) {
        return None;
    }
    // 30% / 30 % / 30 percent / 30 per cent
    if s.is_punct(j, '%') || s.is_word(j, "percent") {
        j += 1;
    } else if s.is_word(j, "per") && s.is_word(j + 1, "cent") {
        j += 2;
    }
    Some((j, if neg { -v } else { v }))
}

/// Words that point at a thing: a `one` right after one, or after one and a word, is that thing.
const POINTING: &[&str] =
    &["the", "this", "that", "which", "each", "every", "another", "any", "no", "my", "your", "our"];

/// Whether the `one` at `k` names a thing rather than a count: `this one`, `the kitchen one`, `which one`.
fn names_a_thing(s: &Scan, k: usize) -> bool {
    let before = |n: usize| k.checked_sub(n);
    before(1).is_some_and(|i| s.is_any_word(i, POINTING))
        || (before(2).is_some_and(|i| s.is_any_word(i, POINTING))
            && before(1).is_some_and(|i| s.word(i).is_some() && parse_numeral(s, i).is_none()))
}

pub(crate) fn find(s: &Scan) -> Vec<Hit<f64>> {
    hits(s, parse)
}

#[cfg(test)]
mod tests {
    use crate::recognize::{PickKind, PickValue, candidates};

    fn nums(input: &str) -> Vec<(String, f64)> {
        candidates(input, PickKind::Number)
            .into_iter()
            .map(|c| match c.value {
                PickValue::Number(v) => (c.span.text, v),
                other => panic!("not a number: {other:?}"),
            })
            .collect()
    }

    fn one(input: &str, text: &str, v: f64) {
        assert_eq!(nums(input), vec![(text.to_string(), v)], "{input}");
    }

    #[test]
    fn digits() {
        one("set it to 30", "30", 30.0);
        one("2.5 please", "2.5", 2.5);
        one("about 1,000 people", "1,000", 1000.0);
        one("it is -4 outside", "-4", -4.0);
        one("turn it to 30.", "30", 30.0);
        assert_eq!(nums("1 and 2"), vec![("1".into(), 1.0), ("2".into(), 2.0)]);
    }

    #[test]
    fn words() {
        one("forty", "forty", 40.0);
        one("give me twenty one", "twenty one", 21.0);
        one("twenty-one of them", "twenty-one", 21.0);
        one("A Hundred times", "A Hundred", 100.0);
        one("two and a half", "two and a half", 2.5);
        one("cut it in half", "half", 0.5);
        one("twenty point five degrees", "twenty point five", 20.5);
        one("three point one two", "three point one two", 3.12);
    }

    #[test]
    fn a_one_that_names_a_thing_is_no_number() {
        assert!(nums("dim the den lights, this one").is_empty());
        assert!(nums("turn on the kitchen one").is_empty());
        assert!(nums("which one is on").is_empty());
        one("set the volume to one", "one", 1.0);
        one("the 1 in the den", "1", 1.0);
        one("twenty one of them", "twenty one", 21.0);
    }

    #[test]
    fn a_sign_said_as_a_word_is_read_with_the_number() {
        one("set the volume to minus 10", "minus 10", -10.0);
        one("it is negative five outside", "negative five", -5.0);
        one("Minus 2.5", "Minus 2.5", -2.5);
        // A `minus` with no number after it is no sign.
        one("minus the 3 of them", "3", 3.0);
    }

    #[test]
    fn a_dash_typed_for_a_minus_sign_is_read_as_one() {
        // En dash, hyphen, full-width hyphen-minus: read as no sign, each would make -40 a volume of 40.
        one("volume to \u{2013}40", "\u{2013}40", -40.0);
        one("volume to \u{2010}40", "\u{2010}40", -40.0);
        one("volume to \u{FF0D}40", "\u{FF0D}40", -40.0);
        // Set apart by a space where no number stands before it, a dash is still the sign.
        one("set the volume to - 40", "- 40", -40.0);
    }

    #[test]
    fn digits_after_a_point_or_a_comma_are_no_number_of_their_own() {
        // `.5` read as 5 would pass on ten times what was said.
        assert!(nums("volume to .5").is_empty());
        assert!(nums("volume to ,25").is_empty());
        one("volume to 0.5", "0.5", 0.5);
    }

    #[test]
    fn percent() {
        one("set volume to 30 percent", "30 percent", 30.0);
        one("dim to 30%", "30%", 30.0);
        one("thirty per cent", "thirty per cent", 30.0);
    }

    #[test]
    fn boundaries() {
        assert!(nums("x86").is_empty());
        assert!(nums("version 1.2.3").is_empty());
        assert!(nums("a cat").is_empty());
        assert!(nums("99999999999999999999999").is_empty());
        one("café 7", "7", 7.0);
    }

    #[test]
    fn hidden_by_typed_spans() {
        assert!(nums("in 10 minutes").is_empty());
        assert!(nums("at 5pm").is_empty());
        assert!(nums("pay €12").is_empty());
        assert!(nums("ticket AB-1234").is_empty());
        assert!(nums("on May 4, 2027").is_empty());
        assert!(nums("say \"10\"").is_empty());
        one("10 people in 10 minutes", "10", 10.0);
    }
}
