//! [`Mood::TakenBack`](super::Mood::TakenBack): a request taken back, corrected or laughed off.

use super::lists::{CLOSING_TAKEN_BACK, TAKEN_BACK};
use super::spelling::{has, spelled};

/// Whether the sentence takes back what it asks: a word or phrase of `TAKEN_BACK` anywhere, laughter, a
/// closing `/s`, or a closing word of `CLOSING_TAKEN_BACK` (alone, or opening the last clause).
pub(super) fn holds(text: &str, words: &[String]) -> bool {
    has(words, &TAKEN_BACK)
        || closing(text, words)
        || text.trim_end().ends_with("/s")
        || words.iter().any(|w| laughter(w))
}

/// `…, cancel`, `…, cancel it`, `…, abort that`: a closing word, or a closing clause that opens with one.
/// Alone (`cancel`) it is a request of a reflex that cancels.
fn closing(text: &str, all: &[String]) -> bool {
    let closes = |w: &String| CLOSING_TAKEN_BACK.contains(&w.as_str());
    (all.len() > 1 && all.last().is_some_and(closes))
        || text
            .rsplit_once(',')
            .is_some_and(|(head, last)| !spelled(head).is_empty() && spelled(last).first().is_some_and(closes))
}

/// Whether a word is laughter: `haha`, `hahah`, `ahaha`, `hehe` (two `ha` or `he` at least), `lolol`,
/// `lmaoo`, `jaja`.
fn laughter(word: &str) -> bool {
    let runs = |w: &str, pairs: &[&[u8]], tail: u8| {
        let w = w.as_bytes();
        let body = if w.len() % 2 == 1 && w.last() == Some(&tail) { &w[..w.len() - 1] } else { w };
        body.len() >= 4 && body.len() % 2 == 0 && body.chunks(2).all(|c| pairs.contains(&c))
    };
    let w = word.strip_prefix('a').filter(|rest| rest.starts_with('h')).unwrap_or(word);
    runs(w, &[b"ha", b"he"], b'h')
        || runs(word, &[b"ja", b"je"], b'j')
        || word.strip_suffix('l').is_some_and(|body| word.len() >= 5 && runs(body, &[b"lo"], b'l'))
        || (word.starts_with("lmao") || word.starts_with("lmfao"))
            && word.trim_start_matches("lmf").trim_start_matches("lm").chars().all(|c| c == 'a' || c == 'o')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn laughter_is_two_runs_at_least() {
        for word in ["haha", "hahah", "ahaha", "hehe", "lolol", "lmaoo", "jaja"] {
            assert!(laughter(word), "{word}");
        }
        for word in ["ha", "hah", "lol", "hello", "lmfa", "jam", "привет", "ありがとう"] {
            assert!(!laughter(word), "{word}");
        }
    }
}
