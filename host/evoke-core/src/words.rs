//! Words as the built-in engine and the gate compare them: lower-cased runs of letters and digits,
//! apostrophes dropped inside a word (`what's` → `whats`), each cut to a rough stem so that `lights`,
//! `lighting` and `light` meet. The mood reads the same runs with their apostrophes kept.

/// One word of a text: where it is (character offsets, end exclusive), as written (lower-cased) and
/// stemmed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// The offset of its first character.
    pub start: usize,
    /// The offset after its last character.
    pub end: usize,
    /// The word as written, lower-cased, its apostrophes dropped.
    pub lower: String,
    /// Its rough stem ([`stem`]).
    pub stem: String,
}

/// The words of `text`, in order.
pub fn words(text: &str) -> Vec<Word> {
    split(text, |c| c == '\'' || c == '’', false)
        .into_iter()
        .map(|(start, end, lower)| {
            let stem = stem(&lower);
            Word { start, end, lower, stem }
        })
        .collect()
}

/// The words of `text` as the mood reads them, lower-cased with their apostrophes kept (`don't`, `it's`):
/// its lists tell `its` from `it's`. Every apostrophe-like mark, quotes and backticks too, joins a word as
/// `'`, since a slip of the keyboard types any of them for it (`don"t`, `don´t`).
pub fn with_apostrophes(text: &str) -> Vec<String> {
    let apostrophe =
        |c: char| matches!(c, '\'' | '’' | '‘' | 'ʼ' | '´' | '`' | 'ʹ' | '′' | '‛' | 'ˈ' | '"' | '“' | '”');
    split(text, apostrophe, true).into_iter().map(|(_, _, word)| word).collect()
}

/// Cuts `text` into lower-cased runs of letters and digits, each with its character offsets (end
/// exclusive). A mark `apostrophe` accepts, between a letter or digit and a letter, joins the run, written
/// as `'` where `keep` and dropped otherwise; any other character ends it.
fn split(text: &str, apostrophe: impl Fn(char) -> bool, keep: bool) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut start = 0;
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_alphanumeric() {
            if current.is_empty() {
                start = i;
            }
            current.extend(c.to_lowercase());
        } else if !current.is_empty() && unicode_normalization::char::is_combining_mark(c) {
            // A combining mark (`do\u{301}use`, typed decomposed) is part of the letter before it.
            current.push(c);
        } else if apostrophe(c) && !current.is_empty() && chars.get(i + 1).is_some_and(|n| n.is_alphabetic()) {
            // An apostrophe inside a word joins its two halves.
            if keep {
                current.push('\'');
            }
        } else if !current.is_empty() {
            out.push((start, i, std::mem::take(&mut current)));
        }
    }
    if !current.is_empty() {
        out.push((start, chars.len(), current));
    }
    out
}

/// A light suffix stripper: plurals, `-ing`, `-ed`, `-ly`, `-er`. Crude, and the same for every text,
/// which is all a match needs.
pub fn stem(word: &str) -> String {
    let w = word.strip_suffix("s'").unwrap_or(word);
    let n = w.chars().count();
    if n <= 3 || w.chars().any(|c| c.is_ascii_digit()) {
        return w.to_string();
    }
    for (suffix, keep, min) in [
        ("ies", "y", 5),
        ("sses", "ss", 5),
        ("ches", "ch", 5),
        ("shes", "sh", 5),
        ("xes", "x", 4),
        ("ings", "", 6),
        ("ing", "", 6),
        ("edly", "", 7),
        ("ed", "", 5),
        ("ly", "", 6),
        ("ers", "", 6),
        ("er", "", 6),
    ] {
        if n >= min
            && let Some(base) = w.strip_suffix(suffix)
        {
            let mut base = base.to_string();
            // `running` → `run`, `stopped` → `stop`.
            let b: Vec<char> = base.chars().collect();
            if keep.is_empty() && b.len() >= 3 && b[b.len() - 1] == b[b.len() - 2] && !"lsz".contains(b[b.len() - 1]) {
                base.pop();
            }
            return base + keep;
        }
    }
    if let Some(base) = w.strip_suffix('s')
        && !base.ends_with('s')
        && !base.ends_with('u')
        && !base.ends_with('i')
    {
        return base.to_string();
    }
    w.to_string()
}

/// Words that carry little on their own. They still count, at a fraction of their weight.
pub fn is_stop(word: &Word) -> bool {
    STOP.binary_search(&word.stem.as_str()).is_ok() || STOP.binary_search(&word.lower.as_str()).is_ok()
}

/// Sorted, stemmed.
const STOP: &[&str] = &[
    "a", "about", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by",
    "can", "could", "did", "do", "doe", "does", "don", "for", "from", "get", "give", "go", "ha", "had", "has", "have",
    "he", "her", "here", "hi", "him", "his", "how", "i", "if", "im", "in", "into", "is", "it", "its", "just", "know",
    "let", "lets", "like", "me", "my", "need", "now", "of", "ok", "okay", "on", "or", "our", "out", "please", "so",
    "some", "tell", "than", "that", "thats", "the", "their", "them", "then", "there", "these", "they", "thi", "this",
    "to", "too", "u", "up", "us", "wa", "want", "was", "we", "what", "whats", "when", "where", "which", "who", "why",
    "will", "with", "would", "you", "your",
];

#[cfg(test)]
mod tests {

    #[test]
    fn a_combining_mark_stays_in_its_word() {
        let said = words("do\u{301}use the den");
        let spans: Vec<(usize, usize)> = said.iter().map(|w| (w.start, w.end)).collect();
        assert_eq!(spans, [(0, 6), (7, 10), (11, 14)]);
    }

    use super::*;

    #[test]
    fn words_are_lowered_and_stemmed() {
        let w = words("Turn on the Kitchen lights, what's up?");
        let stems: Vec<&str> = w.iter().map(|w| w.stem.as_str()).collect();
        assert_eq!(stems, ["turn", "on", "the", "kitchen", "light", "what", "up"]);
        assert_eq!((w[3].start, w[3].end), (12, 19));
    }

    #[test]
    fn the_mood_s_words_keep_their_apostrophes_however_typed() {
        assert_eq!(with_apostrophes("Don’t  turn it's, OFF?"), ["don't", "turn", "it's", "off"]);
        assert_eq!(with_apostrophes("don\"t 'quoted' 10pm"), ["don't", "quoted", "10pm"]);
        assert_eq!(with_apostrophes("don't"), ["don't"]);
        let engine: Vec<String> = words("don't").into_iter().map(|w| w.lower).collect();
        assert_eq!(engine, ["dont"], "the engine's words drop them");
        assert!(with_apostrophes("").is_empty());
    }

    #[test]
    fn stems_meet() {
        assert_eq!(stem("lights"), stem("light"));
        assert_eq!(stem("running"), "run");
        assert_eq!(stem("stopped"), "stop");
        assert_eq!(stem("batteries"), "battery");
        assert_eq!(stem("minutes"), "minute");
    }

    #[test]
    fn the_stop_list_is_sorted() {
        assert!(STOP.windows(2).all(|w| w[0] < w[1]), "{:?}", STOP.windows(2).find(|w| w[0] >= w[1]));
    }
}
