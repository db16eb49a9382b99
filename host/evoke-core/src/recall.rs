//! 003's `choices.recent`: values a session's results gave, recalled for an ask that picks their kind. A
//! session is one run of evoke (a sentence, or every line of a filter) or one embedding program's handle.
//! Only what a result declares under `[yields.<field>]` is kept, by the field's kind, and read as a bound
//! value is ([`crate::weave::plan::taken`]): a field that would not bind is never offered.

use crate::catalog::Reflex;
use crate::decision::{Choices, Decision, Value};
use crate::recognize::PickKind;

/// The most values kept of one kind: the latest, each once.
pub const RECALLED_PER_KIND: usize = 5;

/// The values recalled so far, the latest first.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Recalled {
    values: Vec<(PickKind, String)>,
}

impl Recalled {
    /// Keeps what `data`, the result of a body of `reflex`, yields: each declared field of a kind a value
    /// may take, as its text.
    pub fn remember(&mut self, reflex: &Reflex, data: Option<&serde_json::Value>) {
        let Some(data) = data else { return };
        for field in &reflex.manifest.yields {
            let Ok(Value::Pick { span, .. }) = crate::weave::plan::taken(field.kind, data.get(&field.field)) else {
                continue;
            };
            if !reads_back(field.kind, &span.text) {
                continue;
            }
            self.values.retain(|(kind, text)| !(*kind == field.kind && *text == span.text));
            self.values.insert(0, (field.kind, span.text));
            let mut seen = 0;
            self.values.retain(|(kind, _)| {
                seen += usize::from(*kind == field.kind);
                *kind != field.kind || seen <= RECALLED_PER_KIND
            });
        }
    }

    /// The values of `kind` recalled, the latest first.
    pub fn of(&self, kind: PickKind) -> Vec<String> {
        self.values.iter().filter(|(k, _)| *k == kind).map(|(_, text)| text.clone()).collect()
    }

    /// The decision with each missing pick's `choices.recent` filled from what was recalled: the values
    /// within the argument's range, where it has one.
    pub fn recall(&self, mut decision: Decision) -> Decision {
        for missing in decision.missing.iter_mut().flatten() {
            if let Choices::Pick { kind, recent, range, .. } = &mut missing.choices
                && let Ok(kind) = kind.parse::<PickKind>()
            {
                let within = |text: &String| match range {
                    Some([low, high]) => {
                        read_as(kind, text).and_then(|v| v.comparable()).is_none_or(|n| (*low..=*high).contains(&n))
                    }
                    None => true,
                };
                *recent = self.of(kind).into_iter().filter(within).collect();
            }
        }
        decision
    }
}

/// Letters that print as nothing: the Hangul fillers and the blank braille pattern.
const BLANK_LETTERS: [char; 5] = ['\u{115F}', '\u{1160}', '\u{3164}', '\u{FFA0}', '\u{2800}'];

/// What `text` reads as, read whole as a value of `kind`: the value a person typing it back would give.
fn read_as(kind: PickKind, text: &str) -> Option<crate::recognize::PickValue> {
    let whole = crate::recognize::candidates(text, kind).into_iter().find(|c| c.span.text == text)?;
    Some(whole.value)
}

/// Whether a value may be offered to be typed back: a text that shows something (a letter or a digit, no
/// character that prints as nothing), or a value of a shape that reads whole as its kind (`1e+21` is no
/// number evoke reads, and offered it would be read as another).
fn reads_back(kind: PickKind, text: &str) -> bool {
    match kind {
        PickKind::Text => {
            text.chars().any(|c| c.is_alphanumeric() && !BLANK_LETTERS.contains(&c))
                && !text.chars().any(crate::text::is_format)
        }
        _ => read_as(kind, text).is_some(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn probe() -> Reflex {
        let manifest = "reflex = 1\ndescription = \"Read a level.\"\neffect = \"read\"\nconfirm = \"Read?\"\n\
                        run = \"probe.mjs\"\n\n[yields.level]\nkind = \"number\"\n\n[yields.note]\nkind = \"text\"\n";
        let manifest = crate::manifest::read_manifest("reflex.toml", manifest, &|_: &str| true).value.unwrap();
        Reflex { name: "probe".into(), manifest, vocabs: Default::default() }
    }

    #[test]
    fn a_result_s_declared_fields_are_recalled_by_kind_latest_first_each_once() {
        let probe = &probe();
        let mut recalled = Recalled::default();
        recalled.remember(probe, Some(&json!({ "level": 40, "note": "hi", "other": 7 })));
        recalled.remember(probe, Some(&json!({ "level": 55 })));
        recalled.remember(probe, Some(&json!({ "level": 40 })));
        assert_eq!(recalled.of(PickKind::Number), ["40", "55"]);
        assert_eq!(recalled.of(PickKind::Text), ["hi"]);
        assert!(recalled.of(PickKind::Duration).is_empty());
    }

    #[test]
    fn a_field_that_would_not_bind_is_never_recalled_and_each_kind_keeps_a_bounded_few() {
        let probe = &probe();
        let mut recalled = Recalled::default();
        recalled.remember(probe, Some(&json!({ "level": "high", "note": "bell\u{7}" })));
        recalled.remember(probe, None);
        assert_eq!(recalled, Recalled::default());
        // A number that reads back as another, and a text that shows nothing or hides a character.
        recalled.remember(probe, Some(&json!({ "level": 1e21, "note": "A1\u{200d}B2" })));
        recalled.remember(probe, Some(&json!({ "note": "\u{3164}" })));
        assert_eq!(recalled, Recalled::default());
        for level in 0..20 {
            recalled.remember(probe, Some(&json!({ "level": level })));
        }
        assert_eq!(recalled.of(PickKind::Number), ["19", "18", "17", "16", "15"]);
    }

    #[test]
    fn an_ask_is_offered_only_the_values_within_its_range() {
        let probe = &probe();
        let mut recalled = Recalled::default();
        for level in [5, 500, 50] {
            recalled.remember(probe, Some(&json!({ "level": level })));
        }
        let pick = |range: Option<[f64; 2]>| crate::decision::Missing {
            arg: "level".into(),
            ask: "What level?".into(),
            because: crate::decision::MissingBecause::Unstated,
            words: None,
            choices: Choices::Pick { kind: "number", range, readings: Vec::new(), recent: Vec::new() },
            likely: None,
        };
        let mut decision = crate::weave::tests::decision(
            "set the level",
            crate::decision::Outcome::Ask,
            Some("probe"),
            None,
            crate::decision::Args::default(),
        );
        decision.missing = Some(vec![pick(Some([0.0, 100.0])), pick(None)]);
        let recalled = recalled.recall(decision);
        let recent = |m: &crate::decision::Missing| match &m.choices {
            Choices::Pick { recent, .. } => recent.clone(),
            _ => Vec::new(),
        };
        let missing = recalled.missing.expect("asked");
        assert_eq!(recent(&missing[0]), ["50", "5"]);
        assert_eq!(recent(&missing[1]), ["50", "500", "5"]);
    }
}
