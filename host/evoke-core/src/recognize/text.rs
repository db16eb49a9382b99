//! `text`: what a pair of quotes encloses, read as written. The span is the inside, without the marks
//! and without spaces at its edges; an empty pair gives nothing.
//!
//! Pairs: `"…"`, `“…”` (also `“…“`), `„…“`, `«…»`, `「…」`, `『…』`, `'…'`, `‘…’`. A single quote opens
//! only where a word does not go on before it, and closes only where a word does not go on after it, so
//! apostrophes inside words (`dana's`, `don't`, `don’t`) are never quotes. An opening mark with no
//! closing mark is an ordinary character. The first pair opened wins: quotes inside it are its text.

use unicode_normalization::char::is_combining_mark;

use super::Hit;

/// A quoted region: the offsets of its opening and closing marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Quote {
    pub open: usize,
    pub close: usize,
}

fn is_part(c: char) -> bool {
    c.is_alphanumeric() || is_combining_mark(c)
}

/// The closing marks for an opening mark at `i`, or `None` when `chars[i]` does not open here.
fn closers(chars: &[char], i: usize) -> Option<&'static [char]> {
    let single = |chars: &[char], i: usize| {
        (i == 0 || !is_part(chars[i - 1])) && chars.get(i + 1).is_some_and(|c| !c.is_whitespace())
    };
    match chars[i] {
        '"' => Some(&['"']),
        '“' => Some(&['”', '“']),
        '„' => Some(&['“', '”']),
        '«' => Some(&['»']),
        '「' => Some(&['」']),
        '『' => Some(&['』']),
        '\'' if single(chars, i) => Some(&['\'']),
        '‘' if single(chars, i) => Some(&['’']),
        _ => None,
    }
}

fn closes(chars: &[char], j: usize, single: bool) -> bool {
    if !single {
        return true;
    }
    j > 0 && !chars[j - 1].is_whitespace() && chars.get(j + 1).is_none_or(|c| !is_part(*c))
}

/// Every quoted region, left to right, none inside another.
pub(crate) fn regions(chars: &[char]) -> Vec<Quote> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if let Some(cl) = closers(chars, i) {
            let single = matches!(chars[i], '\'' | '‘');
            if let Some(j) = (i + 1..chars.len()).find(|&j| cl.contains(&chars[j]) && closes(chars, j, single)) {
                out.push(Quote { open: i, close: j });
                i = j + 1;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// The text candidates: the inside of each region, spaces at its edges left out.
pub(crate) fn find(chars: &[char], quotes: &[Quote]) -> Vec<Hit<String>> {
    let mut out = Vec::new();
    for q in quotes {
        let mut s = q.open + 1;
        let mut e = q.close;
        while s < e && chars[s].is_whitespace() {
            s += 1;
        }
        while e > s && chars[e - 1].is_whitespace() {
            e -= 1;
        }
        if s < e {
            out.push(Hit { start: s, end: e, value: chars[s..e].iter().collect() });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::recognize::{PickKind, PickValue, candidates};

    fn texts(input: &str) -> Vec<(usize, usize, String)> {
        candidates(input, PickKind::Text)
            .into_iter()
            .map(|c| match c.value {
                PickValue::Text(v) => {
                    assert_eq!(v, c.span.text);
                    (c.span.start, c.span.end, v)
                }
                other => panic!("not a text: {other:?}"),
            })
            .collect()
    }

    #[test]
    fn pairs() {
        assert_eq!(texts("note \"buy milk\""), vec![(6, 14, "buy milk".into())]);
        assert_eq!(texts("note 'buy milk'"), vec![(6, 14, "buy milk".into())]);
        assert_eq!(texts("note “buy milk”"), vec![(6, 14, "buy milk".into())]);
        assert_eq!(texts("note ‘buy milk’"), vec![(6, 14, "buy milk".into())]);
        assert_eq!(texts("« salut »"), vec![(2, 7, "salut".into())]);
        assert_eq!(texts("\"a\" and \"b\""), vec![(1, 2, "a".into()), (9, 10, "b".into())]);
    }

    #[test]
    fn apostrophes_are_not_quotes() {
        assert!(texts("dana's car").is_empty());
        assert!(texts("don't stop, don’t").is_empty());
        assert_eq!(texts("tell dana's mom 'don't wait'"), vec![(17, 27, "don't wait".into())]);
        assert!(texts("the kids' toys and the dogs' bowls").is_empty());
    }

    #[test]
    fn edges() {
        assert!(texts("\"\"").is_empty());
        assert!(texts("\"   \"").is_empty());
        assert!(texts("an \"unclosed quote").is_empty());
        assert_eq!(texts("say \" hi \""), vec![(6, 8, "hi".into())]);
        assert_eq!(texts("\"he said 'no'\""), vec![(1, 13, "he said 'no'".into())]);
    }
}
