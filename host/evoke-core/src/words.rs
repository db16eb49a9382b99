//! Words as the built-in engine and the gate compare them: lower-cased runs of letters and digits,
//! apostrophes dropped inside a word (`what's` → `whats`), each cut to a rough stem so that `lights`,
//! `lighting` and `light` meet.

/// One word of a text: where it is (character offsets, end exclusive), as written (lower-cased) and
/// stemmed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub start: usize,
    pub end: usize,
    pub lower: String,
    pub stem: String,
}

/// The words of `text`, in order.
pub fn words(text: &str) -> Vec<Word> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut start = 0;
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphanumeric() {
            if current.is_empty() {
                start = i;
            }
            current.extend(c.to_lowercase());
        } else if (c == '\'' || c == '’') && !current.is_empty() && chars.get(i + 1).is_some_and(|n| n.is_alphabetic())
        {
            // An apostrophe inside a word joins its two halves.
        } else if !current.is_empty() {
            push(&mut out, std::mem::take(&mut current), start, i);
        }
        i += 1;
    }
    if !current.is_empty() {
        push(&mut out, current, start, chars.len());
    }
    out
}

fn push(out: &mut Vec<Word>, lower: String, start: usize, end: usize) {
    let stem = stem(&lower);
    out.push(Word { start, end, lower, stem });
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
    use super::*;

    #[test]
    fn words_are_lowered_and_stemmed() {
        let w = words("Turn on the Kitchen lights, what's up?");
        let stems: Vec<&str> = w.iter().map(|w| w.stem.as_str()).collect();
        assert_eq!(stems, ["turn", "on", "the", "kitchen", "light", "what", "up"]);
        assert_eq!((w[3].start, w[3].end), (12, 19));
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
