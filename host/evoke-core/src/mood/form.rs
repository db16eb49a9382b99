//! The sentence's form, read last: a verb after a subject or an opening subject makes a remark, an opening
//! auxiliary or a question word a question, and a command's verb the imperative these rules leave be.

use super::Mood;
use super::lists::{
    AFTER_A_SUBJECT, AUXILIARIES, BE, COMMANDS, DETERMINERS, NOT_PAST, QUESTION_WORDS, SUBJECTS, TAG_QUESTIONS,
};
use super::spelling::{ends_with, starts};

/// Whether a word is a verb of `COMMANDS`, one a command opens with (`turn`, `set`, `kill`).
pub(super) fn is_command(word: &str) -> bool {
    COMMANDS.contains(&word)
}

/// Whether a word stands as a subject or opens one (`i`, `the`, `mom`): a word of `SUBJECTS`.
pub(super) fn is_subject(word: &str) -> bool {
    SUBJECTS.contains(&word)
}

/// Whether a word is one of `QUESTION_WORDS` (`what`, `when`, `how`).
pub(super) fn is_question_word(word: &str) -> bool {
    QUESTION_WORDS.contains(&word)
}

/// Whether a word opens a question: a word of `QUESTION_WORDS`, `BE` or `AUXILIARIES`.
pub(super) fn opens_a_question(word: &str) -> bool {
    QUESTION_WORDS.contains(&word) || BE.contains(&word) || AUXILIARIES.contains(&word)
}

/// Whether the words end with a question of `TAG_QUESTIONS` (`…, do you think`), whatever comes before.
pub(super) fn tagged(words: &[String]) -> bool {
    TAG_QUESTIONS.iter().any(|t| ends_with(words, t))
}

/// Whether the words open with a question of `TAG_QUESTIONS` (`don't you think …`).
pub(super) fn opens_tagged(words: &[String]) -> bool {
    TAG_QUESTIONS.iter().any(|t| starts(words, t))
}

/// Whether the words are a question of `TAG_QUESTIONS` alone, an `and` before it joining nothing.
pub(super) fn only_tag(words: &[String]) -> bool {
    let words = if words.first().is_some_and(|w| w == "and") { &words[1..] } else { words };
    TAG_QUESTIONS.iter().any(|t| t.len() == words.len() && ends_with(words, t))
}

/// Whether the words are one statement by their form: a remark (see [`read`]) with a verb, a form of `be`,
/// a past tense or a verb of `AFTER_A_SUBJECT` (`this was fun`, `mom turned off the lights`), and no word
/// that joins another clause to it (`my card snapped so report it`). A bare thing (`the ac temperature`)
/// names what is asked about and states nothing.
pub(super) fn statement(words: &[String]) -> bool {
    // A subject with `be` run into it (`it's`, `we're`) holds the verb too; so does an opening word with it
    // (`volume's 30`), which opens a statement as a subject does.
    let contracted = |w: &String| SUBJECTS.contains(&w.as_str()) && ["'s", "'re", "'m"].iter().any(|e| w.ends_with(e));
    let verb =
        |w: &String| BE.contains(&w.as_str()) || AFTER_A_SUBJECT.contains(&w.as_str()) || past(w) || contracted(w);
    let run_in = opens_contracted(words);
    let opens = read(words, false) == Some(Mood::Remark) || run_in;
    opens
        && (run_in || words.iter().any(verb))
        && !words.iter().any(|w| matches!(w.as_str(), "so" | "and" | "then" | "but" | "please"))
}

/// Whether the words open with a word that has `be` run into it (`volume's 30`, `the den's at 30`): a
/// statement the form rules read as a bare thing. The word stands first, or after a determiner, and a
/// number, a preposition or a word of degree follows it, as after `is`: `the den's lights` and `look up
/// dana's address` are whose, not what is.
pub(super) fn opens_contracted(words: &[String]) -> bool {
    let at = usize::from(words.first().is_some_and(|w| DETERMINERS.contains(&w.as_str())));
    let Some(word) = words.get(at) else { return false };
    let after = words.get(at + 1).map(String::as_str);
    ["'s", "'re"].iter().any(|e| word.ends_with(e))
        && after.is_some_and(|a| {
            a.chars().all(|c| c.is_ascii_digit())
                || matches!(a, "at" | "on" | "in" | "off" | "up" | "down" | "too" | "so" | "very" | "still" | "already")
        })
}

/// Whether a word is a past tense by its ending (`turned`), and none of `NOT_PAST` (`bed`, `need`).
fn past(w: &String) -> bool {
    w.chars().count() > 4 && w.ends_with("ed") && !NOT_PAST.contains(&w.as_str())
}

/// The mood the sentence's form gives it, or `None` for a request. `words` are its words after its
/// openers and its polite closing; `question_mark` whether a question mark is left once they are gone.
pub(super) fn read(words: &[String], question_mark: bool) -> Option<Mood> {
    // A verb after a subject (`den lights have been turned off`, `kitchen lights switching on`); an
    // infinitive alone (`to turn off the den lights`); the speaker's own act (`let me turn off …`).
    if words.iter().skip(1).take(3).any(|w| AFTER_A_SUBJECT.contains(&w.as_str()))
        || (1..words.len().min(3)).any(|i| {
            // After a determiner, a word in -ing names a thing: `turn the living room lights off`. So it does
            // after a command's verb, and its particle: `dim living room to 30`, `turn on living room lights`.
            let object = DETERMINERS.contains(&words[i - 1].as_str()) || is_command(&words[0]);
            words[i].chars().count() > 5 && words[i].ends_with("ing") && !object
        })
        || words.first().is_some_and(|w| w == "to")
        || starts(words, &["let", "me"])
    {
        return Some(Mood::Remark);
    }
    let first = words.first().map(String::as_str).unwrap_or("");
    let second = words.get(1).map(String::as_str).unwrap_or("");
    if words.iter().any(|w| QUESTION_WORDS.contains(&w.as_str()))
        // `turn off the den lights, do you think`: what the person thinks is asked, not the act.
        || tagged(words)
        || BE.contains(&first)
        // `any lights on in the den`: a question with its `are there` left out.
        || first == "any"
        || (AUXILIARIES.contains(&first) && SUBJECTS.contains(&second))
        // `does turn off the den lights work`: a command asked about.
        || (matches!(first, "does" | "did" | "do") && COMMANDS.contains(&second))
        // `can den lights be turned off`: a passive asked about, not a request of someone.
        || (AUXILIARIES.contains(&first)
            && words.windows(2).any(|w| w[0] == "be" && w[1].chars().count() > 4 && w[1].ends_with("ed")))
        || question_mark
    {
        return Some(Mood::Question);
    }
    // `lights are off`, `Mom turned off the lights`, `turning off the lights`: a noun and a form of `be`,
    // a past tense or a gerund near the start.
    if SUBJECTS.contains(&first)
        // `too dark in the den`, `kitchen's too bright`: a state said to be too much, not an act asked for.
        || (!is_command(first) && words.windows(2).any(|w| w[0] == "too"))
        || (first.chars().count() >= 6 && first.ends_with("ing") && first != "string")
        || words.iter().skip(1).take(2).any(|w| BE.contains(&w.as_str()))
        || words.iter().take(3).any(past)
        // `lights in the den were turned off`: a form of `be` before a past participle, wherever it stands.
        || words.windows(2).any(|w| BE.contains(&w[0].as_str()) && past(&w[1]))
    {
        return Some(Mood::Remark);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mood::spelling::spelled;

    #[test]
    fn the_form_makes_a_remark_a_question_or_leaves_a_request() {
        let form = |s: &str| read(&spelled(s), false);
        assert_eq!(form("den lights have been turned off"), Some(Mood::Remark));
        assert_eq!(form("the den lights are off"), Some(Mood::Remark));
        assert_eq!(form("bread is good"), Some(Mood::Remark), "a form of `be` second");
        assert_eq!(form("add bread to my list"), None, "`bread` is no past tense");
        assert_eq!(form("did I turn off the den lights"), Some(Mood::Question));
        assert_eq!(form("turn the living room lights off"), None);
        assert_eq!(form("turn on living room lights"), None);
        assert_eq!(form("dim living room to 30"), None);
        assert_eq!(form("kitchen lights switching on"), Some(Mood::Remark));
        assert_eq!(read(&spelled("turn off the den lights"), true), Some(Mood::Question));
        assert_eq!(form("turn off the den lights, do you think"), Some(Mood::Question));
        assert_eq!(form("turn off the den lights, don't you think"), Some(Mood::Question));
        assert_eq!(form("turn off the den lights, think"), None);
        assert_eq!(form("too dark in the den"), Some(Mood::Remark));
        assert_eq!(form("kitchen's too bright"), Some(Mood::Remark));
        assert_eq!(form("turn off the den too"), None, "`too` last is `also`");
        assert_eq!(form("turn it down, too loud"), None, "a command opens it");
    }

    #[test]
    fn a_statement_has_a_verb_and_joins_no_clause() {
        for said in ["this was fun", "mom turned off the lights", "the den is dark", "it's at 50", "volume's 30"] {
            assert!(statement(&spelled(said)), "{said}");
        }
        for said in [
            "the ac temperature",
            "my card snapped in half so report it",
            "turn off the den lights",
            "the den's lights",
        ] {
            assert!(!statement(&spelled(said)), "{said}");
        }
    }
}
