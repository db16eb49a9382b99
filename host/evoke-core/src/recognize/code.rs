//! `code`: a token that mixes letters and digits, with optional inner hyphens, read as written: `AB-1234`,
//! `x86`, `A1B2`, `covid-19`, `mp3`. Never a plain word or a plain number, never an ordinal (`3rd`), and
//! never part of a dotted or comma-joined run (`v1.2.3`, `a1,b2` stay unread). A code inside a duration,
//! date, time or amount span (`90s`, `5pm`, `10EUR`) gives way to it (see `super`).

use unicode_normalization::char::is_combining_mark;

use super::Hit;

fn is_part(c: char) -> bool {
    c.is_alphanumeric() || is_combining_mark(c)
}

fn is_hyphen(c: char) -> bool {
    matches!(c, '-' | '\u{2010}' | '\u{2011}')
}

fn is_ordinal(t: &[char]) -> bool {
    let digits = t.iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || t.len() != digits + 2 {
        return false;
    }
    let suffix: String = t[digits..].iter().flat_map(|c| c.to_lowercase()).collect();
    matches!(suffix.as_str(), "st" | "nd" | "rd" | "th")
}

pub(crate) fn find(chars: &[char]) -> Vec<Hit<String>> {
    let mut out = Vec::new();
    let n = chars.len();
    let mut i = 0;
    while i < n {
        if !is_part(chars[i]) {
            i += 1;
            continue;
        }
        // a run: parts, single hyphens between parts
        let start = i;
        let mut end = i;
        let mut k = i;
        loop {
            while k < n && is_part(chars[k]) {
                k += 1;
            }
            end = end.max(k);
            if k + 1 < n && is_hyphen(chars[k]) && is_part(chars[k + 1]) {
                k += 1;
                continue;
            }
            break;
        }
        i = end.max(start + 1);
        let joined = |at: usize, dir_next: bool| -> bool {
            // a `.`/`,` joining this run to another alphanumeric run
            let (p, q) = if dir_next {
                (at, at + 1)
            } else {
                if at < 2 {
                    return false;
                }
                (at - 1, at - 2)
            };
            p < n && q < n && matches!(chars[p], '.' | ',') && is_part(chars[q])
        };
        if joined(end, true) || joined(start, false) {
            continue;
        }
        // glued to a hyphen run on either side (`--x1`, `a1--`) is still fine; glued to an apostrophe
        // word (`rock'n'roll5`) too: the run itself is what is read
        let t = &chars[start..end];
        let has_digit = t.iter().any(|c| c.is_ascii_digit());
        let has_letter = t.iter().any(|c| c.is_alphabetic());
        if has_digit && has_letter && !is_ordinal(t) {
            out.push(Hit { start, end, value: t.iter().collect() });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::recognize::{PickKind, PickValue, candidates};

    fn codes(input: &str) -> Vec<String> {
        candidates(input, PickKind::Code)
            .into_iter()
            .map(|c| match c.value {
                PickValue::Code(v) => {
                    assert_eq!(v, c.span.text);
                    v
                }
                other => panic!("not a code: {other:?}"),
            })
            .collect()
    }

    #[test]
    fn codes_found() {
        assert_eq!(codes("ticket AB-1234 please"), vec!["AB-1234"]);
        assert_eq!(codes("an x86 box"), vec!["x86"]);
        assert_eq!(codes("A1B2"), vec!["A1B2"]);
        assert_eq!(codes("covid-19, mp3."), vec!["covid-19", "mp3"]);
        assert_eq!(codes("order 7X-99-Q3"), vec!["7X-99-Q3"]);
        assert_eq!(codes("code -AB12-"), vec!["AB12"]);
        assert_eq!(codes("x86's"), vec!["x86"]);
    }

    #[test]
    fn not_codes() {
        assert!(codes("hello world").is_empty());
        assert!(codes("1234 5678").is_empty());
        assert!(codes("the 3rd").is_empty());
        assert!(codes("well-known 12-34").is_empty());
        assert!(codes("v1.2.3").is_empty());
        assert!(codes("at 5pm").is_empty());
        assert!(codes("90s").is_empty());
        assert!(codes("10EUR").is_empty());
        assert!(codes("say \"AB12\"").is_empty());
    }
}
