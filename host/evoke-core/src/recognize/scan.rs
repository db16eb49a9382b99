//! The input as the recognizers see it: its characters, quoted regions masked, cut into tokens.
//!
//! A token is a run of ASCII digits, a run of other letters and numerals (combining marks included),
//! or one punctuation character. Whitespace separates tokens and is never part of one. Offsets are
//! character offsets, so a span found here is a span of the input.

use unicode_normalization::char::is_combining_mark;

/// What a quoted region is replaced with before the typed recognizers run: a punctuation character that
/// no recognizer reads, so nothing is found inside quotes and nothing bridges across them.
pub(crate) const MASK: char = '\u{FFFC}';

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokKind {
    /// A run of ASCII digits.
    Digits,
    /// A run of letters, other numerals and combining marks.
    Word,
    /// One character that is neither of the above nor whitespace.
    Punct,
}

#[derive(Debug, Clone)]
pub(crate) struct Tok {
    pub start: usize,
    pub end: usize,
    pub kind: TokKind,
    /// Lower-cased text (its length may differ from `end - start`; offsets never come from it).
    pub low: String,
}

pub(crate) struct Scan {
    pub chars: Vec<char>,
    pub toks: Vec<Tok>,
}

fn is_word_char(c: char) -> bool {
    (c.is_alphanumeric() && !c.is_ascii_digit()) || is_combining_mark(c)
}

impl Scan {
    pub fn new(chars: Vec<char>) -> Scan {
        let mut toks = Vec::new();
        let mut i = 0;
        let n = chars.len();
        while i < n {
            let c = chars[i];
            if c.is_whitespace() {
                i += 1;
                continue;
            }
            let start = i;
            let kind = if c.is_ascii_digit() {
                while i < n && chars[i].is_ascii_digit() {
                    i += 1;
                }
                TokKind::Digits
            } else if is_word_char(c) {
                while i < n && is_word_char(chars[i]) {
                    i += 1;
                }
                TokKind::Word
            } else {
                i += 1;
                TokKind::Punct
            };
            let low: String = chars[start..i].iter().flat_map(|c| c.to_lowercase()).collect();
            toks.push(Tok { start, end: i, kind, low });
        }
        Scan { chars, toks }
    }

    pub fn len(&self) -> usize {
        self.toks.len()
    }

    /// The lower-cased word at `i`, if token `i` is a word.
    pub fn word(&self, i: usize) -> Option<&str> {
        match self.toks.get(i) {
            Some(t) if t.kind == TokKind::Word => Some(t.low.as_str()),
            _ => None,
        }
    }

    pub fn is_word(&self, i: usize, w: &str) -> bool {
        self.word(i) == Some(w)
    }

    pub fn is_any_word(&self, i: usize, ws: &[&str]) -> bool {
        self.word(i).is_some_and(|w| ws.contains(&w))
    }

    pub fn digits(&self, i: usize) -> Option<&str> {
        match self.toks.get(i) {
            Some(t) if t.kind == TokKind::Digits => Some(t.low.as_str()),
            _ => None,
        }
    }

    pub fn punct(&self, i: usize) -> Option<char> {
        match self.toks.get(i) {
            Some(t) if t.kind == TokKind::Punct => self.chars.get(t.start).copied(),
            _ => None,
        }
    }

    pub fn is_punct(&self, i: usize, c: char) -> bool {
        self.punct(i) == Some(c)
    }

    pub fn is_alnum(&self, i: usize) -> bool {
        self.toks.get(i).is_some_and(|t| t.kind != TokKind::Punct)
    }

    /// Whether token `j` follows token `i` with nothing between them.
    pub fn adjacent(&self, i: usize, j: usize) -> bool {
        match (self.toks.get(i), self.toks.get(j)) {
            (Some(a), Some(b)) => a.end == b.start,
            _ => false,
        }
    }

    /// Whether a match may begin at token `i`: it is not glued to a letter or digit before it, nor to the
    /// `.`/`,` of a number (`1.5`, `1,000`).
    pub fn starts_ok(&self, i: usize) -> bool {
        if i >= self.len() {
            return false;
        }
        if i == 0 {
            return true;
        }
        if self.adjacent(i - 1, i) {
            if self.is_alnum(i - 1) {
                return false;
            }
            if i >= 2
                && matches!(self.punct(i - 1), Some('.' | ','))
                && self.adjacent(i - 2, i - 1)
                && self.is_alnum(i - 2)
                && self.is_alnum(i)
            {
                return false;
            }
            // Digits right after a point or a comma are a number's decimals (`.5`, `,5`), never a number of
            // their own: read alone, `.5 hours` would be five hours.
            if matches!(self.punct(i - 1), Some('.' | ',')) && self.digits(i).is_some() {
                return false;
            }
        }
        true
    }

    /// Whether a match may end before token `j` (exclusive end): the next token is not glued to it as a
    /// letter or digit, nor as the `.`/`,` of a number.
    pub fn ends_ok(&self, j: usize) -> bool {
        if j == 0 || j > self.len() {
            return false;
        }
        if j == self.len() || !self.adjacent(j - 1, j) {
            return true;
        }
        if self.is_alnum(j) {
            return false;
        }
        if matches!(self.punct(j), Some('.' | ','))
            && self.is_alnum(j - 1)
            && self.adjacent(j, j + 1)
            && self.is_alnum(j + 1)
        {
            return false;
        }
        true
    }

    /// Character offsets of tokens `i..j` (j exclusive, j > i).
    pub fn span(&self, i: usize, j: usize) -> (usize, usize) {
        (self.toks[i].start, self.toks[j - 1].end)
    }
}

/// A match found at tokens `start..end` (end exclusive) with its reading.
pub(crate) struct Found<T> {
    pub start: usize,
    pub end: usize,
    pub value: T,
}

/// Runs `parse` at every token where a match may begin, left to right, keeping each longest match and
/// continuing after it. `parse` returns the exclusive end token and the value; the end must be a
/// boundary.
/// Every match of `parse`, as hits in character offsets of the input: the one loop each recognizer of
/// words and numbers shares.
pub(crate) fn hits<T>(s: &Scan, parse: impl FnMut(&Scan, usize) -> Option<(usize, T)>) -> Vec<super::Hit<T>> {
    scan_all(s, parse)
        .into_iter()
        .map(|f| {
            let (start, end) = s.span(f.start, f.end);
            super::Hit { start, end, value: f.value }
        })
        .collect()
}

/// Words said for a minus sign.
pub(crate) const SIGN_WORDS: &[&str] = &["minus", "negative"];

/// Whether a character may stand for a minus sign glued to a number: the hyphen-minus, the minus sign,
/// and the dashes and hyphens typed or pasted for it (`–40`, `‐10 minutes`, a full-width `－40`). Read as
/// no sign, they would turn a negative value positive.
pub(crate) fn is_minus(c: char) -> bool {
    matches!(c, '-' | '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{FE58}' | '\u{FE63}' | '\u{FF0D}')
}

/// Whether token `i` is a minus sign of the number after it: a mark of [`is_minus`] glued to it (`-40`), or
/// set apart by spaces where no number stands before the mark (`to - 40`; `10 - 15` is a range).
pub(crate) fn signs(s: &Scan, i: usize) -> bool {
    s.punct(i).is_some_and(is_minus) && (s.adjacent(i, i + 1) || i == 0 || s.digits(i - 1).is_none())
}

/// The hits of a kind read unsigned (amounts, durations): one after a sign (`-$5`, `minus 10 minutes`) is
/// no hit at all, never the positive value after the sign.
pub(crate) fn unsigned_hits<T>(s: &Scan, parse: impl Fn(&Scan, usize) -> Option<(usize, T)>) -> Vec<super::Hit<T>> {
    let signed = |s: &Scan, i: usize| {
        let sign = signs(s, i) || s.is_any_word(i, SIGN_WORDS);
        if sign {
            return parse(s, i + 1).map(|(j, _)| (j, None));
        }
        parse(s, i).map(|(j, value)| (j, Some(value)))
    };
    hits(s, signed)
        .into_iter()
        .filter_map(|h| h.value.map(|value| super::Hit { start: h.start, end: h.end, value }))
        .collect()
}

fn scan_all<T>(s: &Scan, mut parse: impl FnMut(&Scan, usize) -> Option<(usize, T)>) -> Vec<Found<T>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if s.starts_ok(i)
            && let Some((j, value)) = parse(s, i)
            && j > i
            && j <= s.len()
            && s.ends_ok(j)
        {
            out.push(Found { start: i, end: j, value });
            i = j;
            continue;
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(s: &str) -> Scan {
        Scan::new(s.chars().collect())
    }

    #[test]
    fn tokens_and_offsets() {
        let s = scan("café 10min, x86");
        let v: Vec<(&str, usize, usize)> = s.toks.iter().map(|t| (t.low.as_str(), t.start, t.end)).collect();
        assert_eq!(v, vec![("café", 0, 4), ("10", 5, 7), ("min", 7, 10), (",", 10, 11), ("x", 12, 13), ("86", 13, 15)]);
    }

    #[test]
    fn boundaries() {
        let s = scan("1.5 x86 2,000");
        // tokens: 1 . 5 x 86 2 , 000
        assert!(s.starts_ok(0));
        assert!(!s.starts_ok(2));
        assert!(!s.starts_ok(4));
        assert!(!s.ends_ok(1));
        assert!(s.ends_ok(3));
        assert!(!s.ends_ok(6));
    }

    #[test]
    fn combining_marks_stay_in_words() {
        let s = scan("cafe\u{301} ok");
        assert_eq!(s.toks.len(), 2);
        assert_eq!(s.toks[0].end, 5);
    }
}
