//! Tests across the kinds: the wire form, the two hiding rules, offsets, and a fuzz-ish run.

use super::*;
use serde_json::json;

fn wire(v: &PickValue) -> serde_json::Value {
    serde_json::to_value(v).unwrap()
}

#[test]
fn wire_form_of_values() {
    assert_eq!(wire(&PickValue::Number(30.0)), json!({"type": "number", "value": 30}));
    assert_eq!(serde_json::to_string(&PickValue::Number(30.0)).unwrap(), r#"{"type":"number","value":30}"#);
    assert_eq!(serde_json::to_string(&PickValue::Number(2.5)).unwrap(), r#"{"type":"number","value":2.5}"#);
    assert_eq!(serde_json::to_string(&PickValue::Number(-4.0)).unwrap(), r#"{"type":"number","value":-4}"#);
    assert_eq!(wire(&PickValue::Duration(600)), json!({"type": "duration", "value": 600}));
    assert_eq!(
        wire(&PickValue::Date(DateReading::Offset { days: 1 })),
        json!({"type": "date", "value": {"type": "offset", "days": 1}})
    );
    assert_eq!(
        wire(&PickValue::Date(DateReading::Weekday { weekday: "friday".into(), which: "next".into() })),
        json!({"type": "date", "value": {"type": "weekday", "weekday": "friday", "which": "next"}})
    );
    assert_eq!(
        wire(&PickValue::Date(DateReading::Day { day: 14 })),
        json!({"type": "date", "value": {"type": "day", "day": 14}})
    );
    assert_eq!(
        wire(&PickValue::Date(DateReading::Calendar { year: 2027, month: 5, day: 4 })),
        json!({"type": "date", "value": {"type": "calendar", "year": 2027, "month": 5, "day": 4}})
    );
    assert_eq!(wire(&PickValue::Time("17:30".into())), json!({"type": "time", "value": "17:30"}));
    assert_eq!(
        wire(&PickValue::Amount { amount: 1200, currency: "EUR".into() }),
        json!({"type": "amount", "value": {"amount": 1200, "currency": "EUR"}})
    );
    assert_eq!(wire(&PickValue::Code("AB-1234".into())), json!({"type": "code", "value": "AB-1234"}));
    assert_eq!(wire(&PickValue::Text("hi".into())), json!({"type": "text", "value": "hi"}));
}

#[test]
fn values_read_back() {
    for v in [
        PickValue::Number(30.0),
        PickValue::Number(2.5),
        PickValue::Duration(600),
        PickValue::Date(DateReading::Weekday { weekday: "friday".into(), which: "this".into() }),
        PickValue::Amount { amount: 1200, currency: "EUR".into() },
        PickValue::Text("x".into()),
    ] {
        let back: PickValue = serde_json::from_value(wire(&v)).unwrap();
        assert_eq!(back, v);
    }
}

#[test]
fn candidate_and_span_wire() {
    let c = &candidates("set a timer for 10 minutes", PickKind::Duration)[0];
    assert_eq!(
        serde_json::to_value(c).unwrap(),
        json!({"kind": "duration", "span": {"start": 16, "end": 26, "text": "10 minutes"}, "value": {"type": "duration", "value": 600}})
    );
    assert_eq!(c.span.key(), "16-26");
}

#[test]
fn kinds_parse() {
    for k in PickKind::ALL {
        assert_eq!(k.as_str().parse::<PickKind>().unwrap(), k);
        assert_eq!(serde_json::to_value(k).unwrap(), json!(k.as_str()));
    }
    assert!("Number".parse::<PickKind>().is_err());
    assert!("money".parse::<PickKind>().is_err());
}

#[test]
fn the_spec_example() {
    // The spec's worked example: { "start": 18, "end": 28, "text": "10 minutes" }
    let input = "remind me to call 10 minutes";
    let c = &candidates(input, PickKind::Duration)[0];
    assert_eq!((c.span.start, c.span.end, c.span.text.as_str()), (18, 28, "10 minutes"));
}

#[test]
fn quotes_hide() {
    let all = recognize("note \"call at 5pm in 10 minutes AB-12\" tomorrow");
    let kinds: Vec<(PickKind, &str)> = all.iter().map(|c| (c.kind, c.span.text.as_str())).collect();
    assert_eq!(kinds, vec![(PickKind::Text, "call at 5pm in 10 minutes AB-12"), (PickKind::Date, "tomorrow")]);
}

#[test]
fn typed_spans_hide_numbers() {
    let all = recognize("10 minutes");
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].kind, PickKind::Duration);
    let all = recognize("in 3 days");
    let kinds: Vec<PickKind> = all.iter().map(|c| c.kind).collect();
    assert_eq!(kinds, vec![PickKind::Date, PickKind::Duration]);
}

#[test]
fn sorted_by_start_end_kind() {
    let all = recognize("in 3 days pay $5 at 5pm, code X1, say 'hi' and 7");
    let keys: Vec<(usize, usize, PickKind)> = all.iter().map(|c| (c.span.start, c.span.end, c.kind)).collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    assert_eq!(all.len(), 7, "{all:?}");
}

#[test]
fn char_offsets() {
    let c = &candidates("café in 10 minutes", PickKind::Duration)[0];
    assert_eq!((c.span.start, c.span.end), (8, 18));
    let c = &candidates("🙂🙂 €12", PickKind::Amount)[0];
    assert_eq!((c.span.start, c.span.end, c.span.text.as_str()), (3, 6, "€12"));
    let c = &candidates("e\u{301}te\u{301} 7", PickKind::Number)[0];
    assert_eq!((c.span.start, c.span.end), (6, 7));
}

#[test]
fn reference_date_reads_yearless() {
    let today = CivilDate { year: 2026, month: 12, day: 31 };
    let c = &candidates_at("on May 4", PickKind::Date, today)[0];
    assert_eq!(c.value, PickValue::Date(DateReading::Calendar { year: 2027, month: 5, day: 4 }));
    assert!(candidates("on May 4", PickKind::Date).is_empty());
    // other readings do not depend on the date
    assert_eq!(
        candidates_at("May 4, 2027 and tomorrow", PickKind::Date, today),
        candidates("May 4, 2027 and tomorrow", PickKind::Date)
    );
}

/// A small deterministic generator (no external crates).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() as usize) % xs.len()]
    }
}

const PIECES: &[&str] = &[
    "10",
    "2.5",
    "1,000",
    "1,",
    ",000",
    ".",
    ",",
    "-",
    "−",
    "%",
    "$",
    "€",
    "£",
    "¥",
    "US",
    "C",
    "a",
    "an",
    "the",
    "and",
    "half",
    "quarter",
    "past",
    "to",
    "at",
    "in",
    "on",
    "of",
    "twenty",
    "one",
    "five",
    "thirty",
    "hundred",
    "thousand",
    "million",
    "minutes",
    "hour",
    "h",
    "m",
    "s",
    "90s",
    "1h30m",
    "pm",
    "a.m.",
    "p",
    "m.",
    "o'clock",
    "o",
    "'",
    "’",
    "‘",
    "\"",
    "“",
    "”",
    "«",
    "»",
    "today",
    "tomorrow",
    "next",
    "friday",
    "May",
    "march",
    "4th",
    "the 14th",
    "2027",
    "2027-05-04",
    "-05",
    ":",
    "17:30",
    "5:3",
    "noon",
    "midnight",
    "AB-1234",
    "x86",
    "dana's",
    "don't",
    "euros",
    "dollars",
    "EUR",
    "TRY",
    "cents",
    "🙂",
    "👍🏽",
    "e\u{301}",
    "\u{301}",
    "\u{200d}",
    "ß",
    "İ",
    "ﬁ",
    "٣",
    "½",
    "²",
    "99999999999999999999999",
    "0000000000000000000001",
    "4294967296",
    "18446744073709551616",
    "\t",
    "\n",
    "  ",
    "\u{FFFC}",
    "ago",
    "from",
    "now",
    "days",
    "weeks",
    "night",
    "tonight",
    "morning",
    "the day after",
];

#[test]
fn fuzz_never_panics_and_spans_hold() {
    let mut rng = Lcg(0x5eed);
    for round in 0..4000 {
        let n = (rng.next() % 14) as usize;
        let mut input = String::new();
        for _ in 0..n {
            input.push_str(rng.pick(PIECES));
            if rng.next() % 3 < 2 {
                input.push(' ');
            }
        }
        let chars: Vec<char> = input.chars().collect();
        let all = recognize(&input);
        let at = recognize_at(&input, CivilDate { year: 2026, month: 2, day: 28 });
        for c in all.iter().chain(at.iter()) {
            assert!(c.span.start < c.span.end && c.span.end <= chars.len(), "round {round}: {input:?} {c:?}");
            let text: String = chars[c.span.start..c.span.end].iter().collect();
            assert_eq!(text, c.span.text, "round {round}: {input:?}");
            assert_eq!(c.value.kind(), c.kind);
            assert_eq!(text.trim(), text, "round {round}: {input:?}");
        }
        let keys: Vec<_> = all.iter().map(|c| (c.span.start, c.span.end, c.kind)).collect();
        assert!(keys.windows(2).all(|w| w[0] <= w[1]), "{input:?}");
        for k in PickKind::ALL {
            let one = candidates(&input, k);
            assert!(one.iter().all(|c| c.kind == k));
            assert!(one.windows(2).all(|w| w[0].span.start <= w[1].span.start));
        }
    }
}

#[test]
fn edge_inputs() {
    assert!(recognize("").is_empty());
    assert!(recognize("   ").is_empty());
    let huge = "9".repeat(10_000);
    let _ = recognize(&huge);
    let long: String = "in 10 minutes ".repeat(500);
    assert_eq!(candidates(&long, PickKind::Duration).len(), 500);
    let _ = recognize(&"\"".repeat(1001));
    let _ = recognize(&"'a".repeat(1001));
}

#[test]
fn a_bound_is_no_value_and_hides_what_it_holds() {
    // Read as values, each would set 40 or 10 minutes where the person gave a limit.
    for input in [
        "volume to >40",
        "volume to < 40",
        "volume to 40+",
        "volume to ≤40",
        "set a timer for >10 minutes",
        "set a timer for 10 minutes+",
        "volume to >= 40",
        "volume to 40 +",
        "volume to 40-",
        "volume to 40\u{2013}",
        "volume +20%",
        "volume + 20 percent",
        "volume ^ 20%",
        "timer +5 minutes",
        "volume \u{2191} 10",
    ] {
        let found = recognize(input);
        assert!(found.is_empty(), "{input}: {found:?}");
    }
    assert_eq!(recognize("volume to 40").len(), 1);
    assert_eq!(recognize("set a timer for ~10 minutes").len(), 1, "about ten minutes, as `about` says it");
    assert_eq!(recognize("set a timer for 10 minutes, then 5").len(), 2);
}
