//! What `local` and `embed` both read of a round's route questions: which questions they answer as a
//! route, and a fit's texts as a route of its one reflex. `embed` routes by `local`'s rules; kept here
//! once, the two cannot drift apart.

use evoke_core::question::{NONE, Options, Question, QuestionId, Text};

/// What an option's text means: a plain text, or a rich one's `what`.
pub(crate) fn plain(text: &Text) -> &str {
    match text {
        Text::Plain(s) => s,
        Text::Rich { what, .. } => what,
    }
}

/// Whether a question is answered as a route: the route itself, or a choice whose sentinel is `none` over
/// options described with examples (a route asked under an id of its own).
pub(crate) fn answered_as_route(id: &QuestionId, question: &Question) -> bool {
    let Question::Choice { options, otherwise, .. } = question else { return false };
    *id == QuestionId::Route
        || (otherwise.as_deref() == Some(NONE) && options.0.iter().any(|(_, t)| matches!(t, Text::Rich { .. })))
}

/// A fit's own texts as the route of its one reflex, for when no route question at hand offered it: the
/// reflex described as the fit's yes, with the fit's no (its `not_for`, `; `-joined) against it, and
/// `none`.
pub(crate) fn fit_as_route(reflex: &str, description: &str, no: &Text) -> Question {
    let not_for: Vec<String> = plain(no).split("; ").filter(|s| !s.is_empty()).map(str::to_string).collect();
    Question::Choice {
        ask: String::new(),
        options: Options(vec![
            (reflex.to_string(), Text::Rich { what: description.to_string(), not_for, examples: Vec::new() }),
            (NONE.to_string(), Text::Plain(String::new())),
        ]),
        otherwise: Some(NONE.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choice(otherwise: Option<&str>, text: Text) -> Question {
        Question::Choice {
            ask: String::new(),
            options: Options(vec![("lights".into(), text), (NONE.into(), Text::Plain(String::new()))]),
            otherwise: otherwise.map(str::to_string),
        }
    }

    #[test]
    fn the_route_and_a_choice_over_described_reflexes_are_routes() {
        let rich = Text::Rich { what: "Lights.".into(), not_for: Vec::new(), examples: vec!["lights on".into()] };
        let plain = Text::Plain("Lights.".into());
        assert!(answered_as_route(&QuestionId::Route, &choice(Some(NONE), plain.clone())));
        assert!(answered_as_route(&QuestionId::Leaf { name: "pick".into() }, &choice(Some(NONE), rich.clone())));
        assert!(!answered_as_route(&QuestionId::arg("lights", "room"), &choice(Some(NONE), plain)));
        assert!(!answered_as_route(&QuestionId::arg("lights", "room"), &choice(Some("unstated"), rich)));
        let yesno =
            Question::Yesno { ask: String::new(), yes: Text::Plain(String::new()), no: Text::Plain(String::new()) };
        assert!(!answered_as_route(&QuestionId::Route, &yesno));
    }

    #[test]
    fn a_fit_as_a_route_offers_its_reflex_and_none() {
        let route = fit_as_route("lights", "Lights.", &Text::Plain("Timers; Music".into()));
        let Question::Choice { options, otherwise, .. } = &route else { panic!("a choice") };
        assert_eq!(otherwise.as_deref(), Some(NONE));
        assert_eq!(options.keys().collect::<Vec<_>>(), ["lights", NONE]);
        assert_eq!(
            options.0[0].1,
            Text::Rich { what: "Lights.".into(), not_for: vec!["Timers".into(), "Music".into()], examples: Vec::new() }
        );
    }
}
