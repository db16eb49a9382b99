//! A typed answer to an ask, taken only as one of its closed choices. The asking itself is the `Ui`'s
//! (`ui::Person`).

use evoke_core::decision::{Choices, Missing, Value};
use evoke_core::identity::identity;
use evoke_core::recognize::{PickKind, PickValue, candidates};

/// Why a typed answer is not taken; each says what to answer instead.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NotAChoice {
    #[error("\"{answer}\" is not one of your words; answer with one of the list")]
    NotAWord { answer: String },
    #[error("\"{answer}\" is not one of the choices; answer with one of the list")]
    NotAnOption { answer: String },
    /// The argument's kind is none the recognizers know.
    #[error("an unknown kind")]
    UnknownKind { kind: String },
    #[error("\"{answer}\" does not read as a {kind}")]
    NotRead { answer: String, kind: &'static str },
    /// The span read is a number outside the argument's range.
    #[error("{text} is outside {low}–{high}")]
    OutOfRange { text: String, low: f64, high: f64 },
}

/// A typed answer, accepted only as one of the closed choices: a listed key or its number, or a span the
/// recognizers read of the argument's kind (and within its range).
pub fn accept(missing: &Missing, answer: &str) -> Result<Value, NotAChoice> {
    // A yes takes the value the words of the input named, where the ask made one ready.
    if let Some(likely) = &missing.likely
        && matches!(identity(answer).as_str(), "yes" | "y")
        && !missing.choices.offers(&identity(answer))
    {
        return accept(&Missing { likely: None, ..missing.clone() }, likely);
    }
    let listed = |texts: &[(String, String)]| -> Option<String> {
        if let Ok(n) = answer.parse::<usize>()
            && let Some((key, _)) = n.checked_sub(1).and_then(|i| texts.get(i))
        {
            return Some(key.clone());
        }
        let wanted = identity(answer);
        texts.iter().find(|(key, _)| identity(key) == wanted).map(|(key, _)| key.clone())
    };
    match &missing.choices {
        Choices::Vocab { words } => listed(&words.0)
            .map(|word| Value::Word { word, value: None })
            .ok_or_else(|| NotAChoice::NotAWord { answer: answer.to_string() }),
        Choices::Options { options } => listed(&options.0)
            .map(|key| Value::Option { key })
            .ok_or_else(|| NotAChoice::NotAnOption { answer: answer.to_string() }),
        Choices::Pick { kind, range, .. } => {
            let kind: PickKind = kind.parse().map_err(|_| NotAChoice::UnknownKind { kind: kind.to_string() })?;
            // A value of a shape reads from the whole answer: `1e+2` holds a `2`, and is no number.
            let whole = |c: &evoke_core::recognize::Candidate| kind == PickKind::Text || c.span.text == answer.trim();
            let found = candidates(answer, kind)
                .into_iter()
                .find(whole)
                .ok_or_else(|| NotAChoice::NotRead { answer: answer.to_string(), kind: kind.as_str() })?;
            let comparable = match &found.value {
                PickValue::Number(n) => Some(*n),
                PickValue::Duration(s) => Some(*s as f64),
                _ => None,
            };
            if let (Some([low, high]), Some(n)) = (range, comparable)
                && (n < *low || n > *high)
            {
                return Err(NotAChoice::OutOfRange { text: found.span.text, low: *low, high: *high });
            }
            Ok(Value::Pick { span: found.span, value: found.value })
        }
    }
}

/// A value a person handed in typed (a library caller's answer), admitted only as one of the closed
/// choices, as a typed answer is: an option key listed, a word of the vocabulary, or a span whose text
/// reads as the argument's kind within its range. A pick's value is read again from its text, never
/// taken as given.
pub fn admit(missing: &Missing, value: &Value) -> Result<Value, NotAChoice> {
    let listed = |texts: &[(String, String)], wanted: &str| texts.iter().any(|(key, _)| key == wanted);
    match (&missing.choices, value) {
        (Choices::Options { options }, Value::Option { key }) if listed(&options.0, key) => {
            Ok(Value::Option { key: key.clone() })
        }
        (Choices::Vocab { words }, Value::Word { word, .. }) if listed(&words.0, word) => {
            Ok(Value::Word { word: word.clone(), value: None })
        }
        (Choices::Pick { .. }, Value::Pick { span, .. }) => accept(missing, &span.text),
        (Choices::Vocab { .. }, other) => Err(NotAChoice::NotAWord { answer: other.shown().to_string() }),
        (Choices::Options { .. }, other) => Err(NotAChoice::NotAnOption { answer: other.shown().to_string() }),
        (Choices::Pick { kind, .. }, other) => {
            let kind: PickKind = kind.parse().map_err(|_| NotAChoice::UnknownKind { kind: kind.to_string() })?;
            Err(NotAChoice::NotRead { answer: other.shown().to_string(), kind: kind.as_str() })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use evoke_core::decision::{MissingBecause, Texts};

    fn missing(choices: Choices) -> Missing {
        Missing {
            arg: "a".into(),
            ask: "Which?".into(),
            because: MissingBecause::Unstated,
            words: None,
            choices,
            likely: None,
        }
    }

    #[test]
    fn an_answer_not_taken_says_why_and_what_to_answer() {
        let options = missing(Choices::Options { options: Texts(vec![("dim".into(), "dimmed".into())]) });
        assert_eq!(accept(&options, "1"), Ok(Value::Option { key: "dim".into() }));
        let refused = accept(&options, "bright").unwrap_err();
        assert_eq!(refused, NotAChoice::NotAnOption { answer: "bright".into() });
        assert_eq!(refused.to_string(), "\"bright\" is not one of the choices; answer with one of the list");
        let number = missing(Choices::Pick {
            kind: "number",
            range: Some([1.0, 10.0]),
            readings: Vec::new(),
            recent: Vec::new(),
        });
        let refused = accept(&number, "40").unwrap_err();
        assert!(matches!(&refused, NotAChoice::OutOfRange { text, .. } if text == "40"), "{refused}");
        assert!(matches!(accept(&number, "none"), Err(NotAChoice::NotRead { kind: "number", .. })));
        // A number is read from the whole answer, never from a piece of it.
        for piece in ["1e+2", "2 or 3", "v2"] {
            assert!(matches!(accept(&number, piece), Err(NotAChoice::NotRead { kind: "number", .. })), "{piece}");
        }
        assert_eq!(accept(&number, " 2 ").map(|v| v.shown().to_string()), Ok("2".to_string()));
    }

    #[test]
    fn a_yes_takes_the_likely_value_and_nothing_without_one() {
        let rooms =
            Choices::Vocab { words: Texts(vec![("den".into(), "TV".into()), ("office".into(), "study".into())]) };
        let unread = Missing { likely: Some("office".into()), ..missing(rooms.clone()) };
        assert_eq!(accept(&unread, "yes"), Ok(Value::Word { word: "office".into(), value: None }));
        assert_eq!(accept(&unread, "den"), Ok(Value::Word { word: "den".into(), value: None }));
        assert_eq!(accept(&missing(rooms), "yes"), Err(NotAChoice::NotAWord { answer: "yes".into() }));
        // Where `yes` is a choice of its own, it is that choice.
        let flag =
            Choices::Options { options: Texts(vec![("yes".into(), "Yes.".into()), ("no".into(), "No.".into())]) };
        let flag = Missing { likely: Some("no".into()), ..missing(flag) };
        assert_eq!(accept(&flag, "yes"), Ok(Value::Option { key: "yes".into() }));
    }

    #[test]
    fn a_value_handed_in_is_admitted_only_as_a_choice_and_a_pick_is_read_again_from_its_text() {
        let options = missing(Choices::Options { options: Texts(vec![("dim".into(), "dimmed".into())]) });
        assert_eq!(admit(&options, &Value::Option { key: "dim".into() }), Ok(Value::Option { key: "dim".into() }));
        // A number picks from a typed list; a key handed in must be the key itself.
        assert!(admit(&options, &Value::Option { key: "1".into() }).is_err());
        assert!(admit(&options, &Value::Word { word: "dim".into(), value: None }).is_err());
        let count = missing(Choices::Pick {
            kind: "number".into(),
            range: Some([1.0, 10.0]),
            readings: Vec::new(),
            recent: Vec::new(),
        });
        let forged = Value::Pick {
            span: evoke_core::recognize::Span { start: 0, end: 1, text: "5".into() },
            value: evoke_core::recognize::PickValue::Number(9999.0),
        };
        let Ok(Value::Pick { value, .. }) = admit(&count, &forged) else { panic!("5 is in range") };
        assert_eq!(value, evoke_core::recognize::PickValue::Number(5.0));
        let out = Value::Pick {
            span: evoke_core::recognize::Span { start: 0, end: 2, text: "99".into() },
            value: evoke_core::recognize::PickValue::Number(5.0),
        };
        assert!(matches!(admit(&count, &out), Err(NotAChoice::OutOfRange { .. })));
    }
}
