//! Slips of one letter: a word read as the one it was meant to be (`alwys`, `excpet`).

use super::lists::NOT_SLIPS;

/// Whether a word of `words` is one of `targets`, or one slip from it: a letter left out, added, changed
/// or two swapped.
/// A word of four letters is read against a target of five or more (`aftr`, `evry`); a shorter word is
/// too often another word.
pub(super) fn fuzzily_has(words: &[String], targets: &[&str]) -> bool {
    words.iter().any(|w| {
        let n = w.chars().count();
        n >= 4
            && !NOT_SLIPS.contains(&w.as_str())
            && targets.iter().any(|t| (n >= 5 || t.chars().count() >= 5) && (w == t || one_slip(w, t)))
    })
}

/// Whether `a` is `b` with one letter left out, added, changed, or two neighbours swapped.
fn one_slip(a: &str, b: &str) -> bool {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let (short, long) = if a.len() <= b.len() { (&a, &b) } else { (&b, &a) };
    match long.len() - short.len() {
        0 => {
            let differ: Vec<usize> = (0..short.len()).filter(|&i| short[i] != long[i]).collect();
            match differ.as_slice() {
                [_] => true,
                [i, j] => *j == i + 1 && short[*i] == long[*j] && short[*j] == long[*i],
                _ => false,
            }
        }
        1 => {
            let first = (0..short.len()).find(|&i| short[i] != long[i]).unwrap_or(short.len());
            short[first..] == long[first + 1..]
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mood::spelling::spelled;

    #[test]
    fn one_slip_is_one_letter_left_out_added_changed_or_two_swapped() {
        assert!(one_slip("alwys", "always") && one_slip("alwayss", "always"));
        assert!(one_slip("alwaes", "always") && one_slip("excpet", "except"));
        assert!(!one_slip("alwyas", "alwaysx") && !one_slip("xlwyas", "always"));
    }

    #[test]
    fn a_word_of_its_own_is_no_slip() {
        assert!(fuzzily_has(&spelled("turn off alwys"), &["always"]));
        assert!(!fuzzily_has(&spelled("the lamp beside the door"), &["besides"]), "`beside` is a word");
        assert!(!fuzzily_has(&spelled("aftr"), &["afte"]), "four letters against four are too often another word");
    }
}
