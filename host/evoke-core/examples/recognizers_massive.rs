//! Measures the date, time and duration recognizers against the slot annotations of MASSIVE (en-US).
//!
//! ```text
//! cargo run --release -p evoke-core --example recognizers_massive -- /work/shared/data/massive-en-us/dev.jsonl
//! ```
//!
//! Each line is `{ "utt", "annot_utt", … }`; `annot_utt` marks slots as `[date : this week]`. MASSIVE has
//! no duration slot: timers and alarms put durations in `time` (`[time : five minutes]`). So:
//!
//! - `date` slots are `date`;
//! - `time` slots whose text names a unit (`second`, `minute`, `hour`, `day`, `week`, plural or `'s`) are
//!   `duration`; the other `time` slots are `time`;
//! - `timeofday` slots that are `noon`, `midday` or `midnight` are `time` too.
//!
//! For each kind it prints the gold spans, the spans found, exact-span matches with precision and recall,
//! and precision and recall where any overlap counts. Dates are read with a fixed reference date
//! (`recognize_at`, 2026-01-01), as a caller that knows the day would; the line `date (no reference)`
//! reads with `recognize`, where a month-day without a year gives no candidate. Then the throughput of
//! `recognize` over every input. With `--show`, it also lists each miss and each span found where no gold
//! span is (tune on `train.jsonl`, not on `dev.jsonl`).

use evoke_core::recognize::{CivilDate, PickKind, recognize, recognize_at};
use serde_json::Value;
use std::time::Instant;

struct Case {
    utt: String,
    gold: Vec<(PickKind, usize, usize)>,
}

/// Reads `annot_utt` into the plain text and its slots, in character offsets.
fn parse_annot(annot: &str) -> (String, Vec<(String, usize, usize, String)>) {
    let chars: Vec<char> = annot.chars().collect();
    let mut text: Vec<char> = Vec::new();
    let mut slots = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '['
            && let Some(close) = chars[i..].iter().position(|&c| c == ']').map(|p| i + p)
        {
            let inner: String = chars[i + 1..close].iter().collect();
            if let Some((ty, val)) = inner.split_once(" : ") {
                let start = text.len();
                text.extend(val.chars());
                slots.push((ty.trim().to_string(), start, text.len(), val.to_string()));
                i = close + 1;
                continue;
            }
        }
        text.push(chars[i]);
        i += 1;
    }
    (text.into_iter().collect(), slots)
}

fn is_duration_text(v: &str) -> bool {
    v.split(|c: char| !c.is_alphanumeric()).any(|w| {
        matches!(w, "second" | "seconds" | "minute" | "minutes" | "hour" | "hours" | "day" | "days" | "week" | "weeks")
    })
}

fn gold_kind(slot: &str, value: &str) -> Option<PickKind> {
    match slot {
        "date" => Some(PickKind::Date),
        "time" if is_duration_text(value) => Some(PickKind::Duration),
        "time" => Some(PickKind::Time),
        "timeofday" if matches!(value, "noon" | "midday" | "midnight") => Some(PickKind::Time),
        _ => None,
    }
}

#[derive(Default)]
struct Tally {
    gold: usize,
    found: usize,
    exact: usize,
    found_overlapping: usize,
    gold_overlapped: usize,
}

fn overlaps(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0 < b.1 && b.0 < a.1
}

fn ratio(a: usize, b: usize) -> String {
    if b == 0 { "   -  ".into() } else { format!("{:6.3}", a as f64 / b as f64) }
}

fn tally(cases: &[Case], kind: PickKind, found_of: &dyn Fn(&str) -> Vec<(usize, usize)>) -> Tally {
    let mut t = Tally::default();
    for case in cases {
        let gold: Vec<(usize, usize)> = case.gold.iter().filter(|g| g.0 == kind).map(|g| (g.1, g.2)).collect();
        let found = found_of(&case.utt);
        t.gold += gold.len();
        t.found += found.len();
        t.exact += found.iter().filter(|f| gold.contains(f)).count();
        t.found_overlapping += found.iter().filter(|f| gold.iter().any(|g| overlaps(**f, *g))).count();
        t.gold_overlapped += gold.iter().filter(|g| found.iter().any(|f| overlaps(*f, **g))).count();
    }
    t
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let show = args.iter().any(|a| a == "--show");
    let path = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .cloned()
        .unwrap_or_else(|| "/work/shared/data/massive-en-us/dev.jsonl".into());
    let data = match std::fs::read_to_string(&path) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            std::process::exit(2);
        }
    };
    let mut cases = Vec::new();
    let mut mismatched = 0;
    for line in data.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(_) => continue,
        };
        let (Some(utt), Some(annot)) = (v["utt"].as_str(), v["annot_utt"].as_str()) else { continue };
        let (text, slots) = parse_annot(annot);
        if text != utt {
            mismatched += 1;
        }
        let gold = slots.iter().filter_map(|(ty, s, e, val)| gold_kind(ty, val).map(|k| (k, *s, *e))).collect();
        cases.push(Case { utt: text, gold });
    }
    let today = CivilDate { year: 2026, month: 1, day: 1 };
    println!(
        "{} inputs from {path}{}",
        cases.len(),
        if mismatched > 0 {
            format!(" ({mismatched} whose annotation does not spell the utterance)")
        } else {
            String::new()
        }
    );
    println!();
    println!(
        "{:<20} {:>6} {:>6} {:>6} {:>9} {:>9} {:>9} {:>9}",
        "kind", "gold", "found", "exact", "P exact", "R exact", "P overlap", "R overlap"
    );
    let spans_at = |kind: PickKind| {
        move |utt: &str| -> Vec<(usize, usize)> {
            recognize_at(utt, today)
                .into_iter()
                .filter(|c| c.kind == kind)
                .map(|c| (c.span.start, c.span.end))
                .collect()
        }
    };
    type Finder = Box<dyn Fn(&str) -> Vec<(usize, usize)>>;
    let rows: Vec<(&str, PickKind, Finder)> = vec![
        ("date", PickKind::Date, Box::new(spans_at(PickKind::Date))),
        (
            "date (no reference)",
            PickKind::Date,
            Box::new(|utt: &str| {
                recognize(utt)
                    .into_iter()
                    .filter(|c| c.kind == PickKind::Date)
                    .map(|c| (c.span.start, c.span.end))
                    .collect()
            }),
        ),
        ("time", PickKind::Time, Box::new(spans_at(PickKind::Time))),
        ("duration", PickKind::Duration, Box::new(spans_at(PickKind::Duration))),
    ];
    for (label, kind, found_of) in &rows {
        let t = tally(&cases, *kind, found_of.as_ref());
        println!(
            "{:<20} {:>6} {:>6} {:>6} {:>9} {:>9} {:>9} {:>9}",
            label,
            t.gold,
            t.found,
            t.exact,
            ratio(t.exact, t.found),
            ratio(t.exact, t.gold),
            ratio(t.found_overlapping, t.found),
            ratio(t.gold_overlapped, t.gold)
        );
    }

    if show {
        for (label, kind, found_of) in rows.iter().filter(|r| r.0 != "date (no reference)") {
            println!();
            for case in &cases {
                let chars: Vec<char> = case.utt.chars().collect();
                let text = |(s, e): (usize, usize)| chars[s..e].iter().collect::<String>();
                let gold: Vec<(usize, usize)> = case.gold.iter().filter(|g| g.0 == *kind).map(|g| (g.1, g.2)).collect();
                let found = found_of(&case.utt);
                for g in gold.iter().filter(|g| !found.contains(g)) {
                    let near: Vec<String> = found.iter().filter(|f| overlaps(**f, *g)).map(|f| text(*f)).collect();
                    println!("{label} miss  [{}] found {near:?} | {}", text(*g), case.utt);
                }
                for f in found.iter().filter(|f| !gold.iter().any(|g| overlaps(**f, *g))) {
                    println!("{label} extra [{}] | {}", text(*f), case.utt);
                }
            }
        }
    }

    // throughput of the whole pass (every kind)
    let start = Instant::now();
    let mut passes = 0usize;
    let mut sink = 0usize;
    while passes < 3 || start.elapsed().as_secs_f64() < 1.0 {
        for case in &cases {
            sink += recognize(&case.utt).len();
        }
        passes += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    let inputs = passes * cases.len();
    println!();
    println!(
        "throughput: {:.0} inputs/s ({inputs} inputs in {secs:.3} s, {passes} passes, {sink} candidates)",
        inputs as f64 / secs
    );
}
