//! A text typed without quotes (003's basis `text`): what a reflex that takes a text may take when the
//! sentence quotes nothing. `draft a mail to dana@example.com` and `show my groceries note` say their text
//! plainly; quotes say it exactly, and where there are any, only they are texts.
//!
//! The words alone tell where such a text may stand: the read-back of the reflex with no value taken
//! ([`crate::readback`]) marks every word the reflex's own wording reads (`action`), every word a request
//! is phrased in (`nothing`), every key and typed span of its other arguments, and leaves the rest doing
//! `more`. Each run of such words, joined across the words a request is phrased in between them (`call
//! the dentist`), is one text it may take, as typed. The engine chooses among them, as among any pick's
//! spans; the runs it did not choose are the `others` the text could have been.

use crate::catalog::Reflex;
use crate::decision::Args;
use crate::manifest::Source;
use crate::readback::{Does, read_back};
use crate::recognize::{Candidate, PickKind, PickValue, Span};
use std::collections::HashSet;

/// The texts a reflex that takes one may take from an input that quotes nothing, in input order; none
/// where the reflex takes no text or the input quotes one. `candidates` are the input's typed spans;
/// `elsewhere` the words, lowercased, that name a value of another reflex's argument. A run that holds
/// such a word (not one a request is phrased in) asks another reflex for something (`set a timer for 5
/// minutes, den lights off`), and a run inside what the sentence spares (`…, skipping the office`) is
/// what the person spared: neither is a text.
pub fn texts(input: &str, reflex: &Reflex, candidates: &[Candidate], elsewhere: &HashSet<String>) -> Vec<Candidate> {
    let takes_text = reflex.manifest.args.iter().any(|a| a.source == Source::Pick(PickKind::Text));
    if !takes_text || candidates.iter().any(|c| c.kind == PickKind::Text) {
        return Vec::new();
    }
    let left = read_back(input, reflex, &Args::default(), candidates, &[]).left;
    let chars: Vec<char> = input.chars().collect();
    let mut runs: Vec<(usize, usize)> = Vec::new();
    // Whether the last run may go on: only words a request is phrased in stand since it ended.
    let mut goes_on = false;
    for run in &left {
        match run.does {
            Does::More if !run.typed => {
                match runs.last_mut() {
                    Some(last) if goes_on => last.1 = run.words.end,
                    _ => runs.push((run.words.start, run.words.end)),
                }
                goes_on = true;
            }
            Does::Nothing if !run.again => {}
            _ => goes_on = false,
        }
    }
    let spared = crate::mood::spared_ranges(input);
    let said = crate::words::words(input);
    let asks_elsewhere = |start: usize, end: usize| {
        said.iter()
            .filter(|w| start <= w.start && w.end <= end)
            .any(|w| elsewhere.contains(&w.lower) && !crate::words::is_stop(w))
    };
    runs.into_iter()
        .filter(|&(start, end)| !asks_elsewhere(start, end))
        .filter(|&(start, end)| !spared.iter().any(|(s, e)| *s < end && start < *e))
        .map(|(start, end)| {
            let text: String = chars[start..end].iter().collect();
            Candidate {
                kind: PickKind::Text,
                span: Span { start, end, text: text.clone() },
                value: PickValue::Text(text),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAIL: &str = r#"
reflex = 1
description = "Draft an email to someone."
effect = "write"
confirm = "Draft a mail to {to}?"
run = "mail.mjs"
[args.to]
ask = "To which address?"
pick = "text"
[examples]
"draft a mail" = {}
"#;

    const LIGHTS: &str = r#"
reflex = 1
description = "Turn the lights in one room on or off."
effect = "write"
confirm = "Set the lights {state}?"
run = "lights.mjs"
[args.state]
ask = "What should the lights do?"
options.on = "Switch on."
options.off = "Switch off."
"#;

    fn reflex(name: &str, text: &str) -> Reflex {
        let read = crate::manifest::read_manifest("reflex.toml", text, &|_: &str| true);
        let manifest = read.value.unwrap_or_else(|| panic!("{:?}", read.diagnostics));
        Reflex { name: name.into(), manifest, vocabs: Default::default() }
    }

    fn texts_of(input: &str, reflex: &Reflex) -> Vec<String> {
        let elsewhere: HashSet<String> = ["den".to_string(), "on".to_string()].into_iter().collect();
        texts(input, reflex, &crate::recognize::recognize(input), &elsewhere).into_iter().map(|c| c.span.text).collect()
    }

    #[test]
    fn the_words_the_reflex_does_not_read_are_its_text() {
        let mail = reflex("mail", MAIL);
        assert_eq!(texts_of("draft a mail to dana@example.com", &mail), ["dana@example.com"]);
        assert_eq!(texts_of("please draft a mail to the head of sales", &mail), ["head of sales"]);
    }

    #[test]
    fn words_the_reflex_reads_part_two_texts() {
        let mail = reflex("mail", MAIL);
        assert_eq!(texts_of("dana draft a mail to bob", &mail), ["dana", "bob"]);
    }

    #[test]
    fn quotes_say_the_text_and_nothing_else_is_one() {
        let mail = reflex("mail", MAIL);
        assert!(texts_of("draft a mail to \"dana\" from bob", &mail).is_empty());
    }

    #[test]
    fn a_typed_span_is_no_text() {
        let mail = reflex("mail", MAIL);
        assert!(texts_of("draft a mail at 5 pm", &mail).is_empty());
    }

    #[test]
    fn words_that_ask_another_reflex_or_that_are_spared_are_no_text() {
        let mail = reflex("mail", MAIL);
        assert!(texts_of("draft a mail, den lights off", &mail).is_empty());
        assert_eq!(texts_of("draft a mail to bob on the boat", &mail), ["bob on the boat"], "a small word is no value");
        assert!(texts_of("draft a mail, skipping the office", &mail).is_empty());
    }

    #[test]
    fn a_reflex_that_takes_no_text_takes_none() {
        assert!(texts_of("turn off the lights in the den", &reflex("lights", LIGHTS)).is_empty());
    }

    #[test]
    fn a_request_all_in_the_reflex_s_words_has_no_text() {
        assert!(texts_of("draft a mail please", &reflex("mail", MAIL)).is_empty());
    }
}
