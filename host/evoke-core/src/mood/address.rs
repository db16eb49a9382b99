//! Said to someone else, or to be sent: `Bob, turn off the den lights`, `guys turn off …`, `let the kids
//! turn off …`, `text mum I switched the lights off`. Each is a [`Mood::Remark`](super::Mood::Remark).

use super::asking;
use super::form::{is_command, opens_a_question};
use super::lists::{CALLED, GREETINGS, MESSAGING, NOT_NAMES};
use super::spelling::spelled;

/// Whether the sentence is said to someone other than evoke, leaves the act to someone, or is a message
/// to send.
pub(super) fn holds(text: &str, words: &[String]) -> bool {
    addressed(text)
        || said_to_someone(words, text)
        // `let the kids turn off …`: leave to someone else (`let me` is the speaker's, `let's` asks).
        || (words.first().is_some_and(|w| matches!(w.as_str(), "let" | "allow" | "permit"))
            && words.get(1).is_some_and(|w| !matches!(w.as_str(), "me" | "us"))
            && words.iter().skip(2).any(|w| is_command(w)))
        // `text mum I switched the bedroom lights off`, `email Tom to turn off …`: a message to send.
        || (words.len() > 2 && MESSAGING.contains(&words[0].as_str()) && !matches!(words[1].as_str(), "me" | "us"))
        // `John please turn off the den lights`: a name before `please` and a command, said to someone.
        || (words.len() >= 3 && words[1] == "please" && !is_command(&words[0]) && is_command(&words[2]))
}

/// Whether a word of `CALLED` names someone the sentence is said to (`guys`, `honey`, `mom`).
pub(super) fn is_called(word: &str) -> bool {
    CALLED.contains(&word)
}

/// Whether the sentence opens by calling someone: a word of `CALLED`, a greeting and a name set apart
/// by a comma (`hey bob, …`; `hey evoke, …` is this program's), or a name before `can you` and the like
/// (`bob can you …`).
fn said_to_someone(words: &[String], text: &str) -> bool {
    let first = words.first().map(String::as_str).unwrap_or("");
    let greeting_and_name = text.split_once(',').is_some_and(|(head, _)| {
        let w = spelled(head);
        greets_by_name(&w) && w[1] != "evoke"
    });
    let name_then_asking =
        words.len() > 3 && !asking::is_opener(first) && first != "evoke" && asking::asks_you(&words[1..]);
    let second = words.get(1).map(String::as_str).unwrap_or("");
    // `bob turn off the den lights`: a word no request opens with, then a command's verb.
    let named = words.len() > 3
        && is_command(second)
        && matches!(
            words[2].as_str(),
            "the" | "my" | "our" | "all" | "off" | "on" | "up" | "down" | "out" | "it" | "a"
        )
        && !is_command(first)
        && !asking::is_opener(first)
        && !first.ends_with("ly")
        && !NOT_NAMES.contains(&first)
        && !opens_a_question(first)
        && first.chars().all(|c| c.is_alphabetic())
        && !matches!(first, "evoke" | "and" | "then" | "or" | "but" | "to" | "lights" | "light");
    let called = named || is_called(first) && (is_command(second) || second == "please" || asking::asks(&words[1..]));
    called || greeting_and_name || name_then_asking
}

/// Whether the words are a greeting of `GREETINGS` and one name (`hey siri`, `ok google`).
pub(super) fn greets_by_name(words: &[String]) -> bool {
    words.len() == 2 && GREETINGS.contains(&words[0].as_str()) && !GREETINGS.contains(&words[1].as_str())
}

/// Whether the sentence is said to someone by name: one word, not a greeting or a polite closing, set
/// apart by a comma at its start or its end (`Bob, turn off the den lights`, `…, John`).
fn addressed(text: &str) -> bool {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() < 2 {
        return false;
    }
    let alone = |part: &str| {
        let w = spelled(part);
        w.len() == 1 && !asking::is_opener(&w[0]) && !NOT_NAMES.contains(&w[0].as_str()) && !asking::is_tail_word(&w[0])
    };
    alone(parts[0]) || parts.last().is_some_and(|last| alone(last))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_set_apart_is_someone_called_and_a_word_of_leave_taking_is_not() {
        assert!(addressed("Bob, turn off the den lights"));
        assert!(addressed("turn off the den lights, John"));
        assert!(!addressed("quick, turn off the den lights"));
        assert!(!addressed("turn off the den lights, please"));
    }

    #[test]
    fn someone_called_first_is_said_to() {
        let said = |s: &str| said_to_someone(&spelled(s), s);
        assert!(said("bob turn off the den lights"));
        assert!(said("honey can you turn off the den lights"));
        assert!(said("hey bob, turn off the den lights"));
        assert!(!said("hey evoke, turn off the den lights"));
        assert!(!said("quickly turn off the den lights"));
    }

    #[test]
    fn a_greeting_and_one_name_greet_by_name() {
        for said in ["hey siri", "OK Google", "hi bob"] {
            assert!(greets_by_name(&spelled(said)), "{said}");
        }
        for said in ["hey", "hey you there", "hey hi", "bob"] {
            assert!(!greets_by_name(&spelled(said)), "{said}");
        }
    }
}
