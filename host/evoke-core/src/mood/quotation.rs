//! Words to write or a note, not a request: `print turn off the kitchen lights`, `todo: turn off …`,
//! `reminder turn off …`. Each is a [`Mood::Remark`](super::Mood::Remark).

use super::asking;
use super::form::is_command;
use super::lists::{LABELS, QUOTING};

/// Whether the sentence quotes or notes a command rather than asking for it: a label or a speaker before
/// a colon, a word of `LABELS` before a command (`note "dune"` asks), a list item or a mention (`[ ]`,
/// `@bob`, `#`, `- `, `1. `), a quoted line (`> `), or a verb of `QUOTING` before a command.
pub(super) fn holds(text: &str, words: &[String]) -> bool {
    labelled(text)
        // `reminder turn off …`, `steps to turn off …`: a label before a command.
        || (0..words.len().min(2)).any(|i| {
            LABELS.contains(&words[i].as_str()) && words.get(i + 1).is_some_and(|w| w == "to" || is_command(w))
        })
        || text.trim_start().starts_with(['[', '@', '#'])
        || listed_or_quoted(text)
        || quotes_a_command(words)
}

/// Whether the line opens as a quoted line or an item of a list: a `>` (`> turn off the den lights`), a
/// bullet (`*`, `-`, `•`, `+`) before a space, or a number and `.` or `)` before a space (`1. turn off …`).
/// Such a line is copied from somewhere, not said.
fn listed_or_quoted(text: &str) -> bool {
    let line = text.trim_start();
    let mut chars = line.chars();
    let spaced = |rest: &str| rest.starts_with(char::is_whitespace);
    match chars.next() {
        Some('>') => true,
        Some('*' | '-' | '•' | '+') => spaced(chars.as_str()),
        Some(c) if c.is_ascii_digit() => {
            let rest = line.trim_start_matches(|c: char| c.is_ascii_digit());
            (rest.starts_with('.') || rest.starts_with(')')) && spaced(&rest[1..])
        }
        _ => false,
    }
}

/// Whether the words open with a verb of writing and then a command's verb, a particle (`print out`) or
/// the words themselves (`print the words`) between them, after a polite opening (`can you print …`).
fn quotes_a_command(words: &[String]) -> bool {
    let rest = &words[asking::asking_len(words)..];
    if !rest.first().is_some_and(|w| QUOTING.contains(&w.as_str())) {
        return false;
    }
    let mut at = 1;
    while rest.get(at).is_some_and(|w| {
        matches!(w.as_str(), "out" | "in" | "back" | "then" | "this" | "these") || QUOTING.contains(&w.as_str())
    }) {
        at += 1;
    }
    if rest.get(at).is_some_and(|w| w == "the") && rest.get(at + 1).is_some_and(|w| w == "words") {
        at += 2;
    }
    // `translate to french turn off …`, `print in bold turn off …`: a language or a manner first.
    if rest.get(at).is_some_and(|w| matches!(w.as_str(), "to" | "into" | "in"))
        && rest.get(at + 1).is_some_and(|w| !is_command(w))
    {
        at += 2;
    }
    rest.len() > at + 1 && is_command(&rest[at])
}

/// Whether a label or a speaker stands before a colon (`todo: …`, `Mary: …`, `ignore this: …`): what
/// follows is quoted, noted or said to someone else. A colon between digits is a time (`7:30`).
fn labelled(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    chars.iter().enumerate().any(|(i, c)| {
        let time = i > 0 && chars[i - 1].is_ascii_digit() && chars.get(i + 1).is_some_and(|n| n.is_ascii_digit());
        // `:)`, `:-)`, `:D`: a face, closing the sentence.
        let face = chars.get(i + 1).is_some_and(|n| matches!(n, ')' | '(' | 'D' | 'P' | 'p' | '-' | '3' | '/'))
            && chars[i + 2..].iter().all(|n| !n.is_alphabetic() || matches!(n, 'D' | 'P' | 'p'));
        *c == ':' && !time && !face
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mood::spelling::spelled;

    #[test]
    fn a_colon_labels_unless_it_is_a_time_or_a_face() {
        assert!(labelled("todo: turn off the den lights"));
        assert!(!labelled("set an alarm for 7:30"));
        assert!(!labelled("turn off the den lights :)"));
    }

    #[test]
    fn a_verb_of_writing_quotes_the_command_after_it() {
        assert!(quotes_a_command(&spelled("print out turn off the kitchen lights")));
        assert!(quotes_a_command(&spelled("can you print turn off the kitchen lights")));
        assert!(quotes_a_command(&spelled("translate to french turn off the kitchen lights")));
        assert!(!quotes_a_command(&spelled("print the report")));
    }
}
