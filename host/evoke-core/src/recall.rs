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

    /// The decision with each missing pick's `choices.recent` filled from what was recalled.
    pub fn recall(&self, mut decision: Decision) -> Decision {
        for missing in decision.missing.iter_mut().flatten() {
            if let Choices::Pick { kind, recent, .. } = &mut missing.choices
                && let Some(kind) = PickKind::ALL.into_iter().find(|k| k.as_str() == *kind)
            {
                *recent = self.of(kind);
            }
        }
        decision
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
        for level in 0..20 {
            recalled.remember(probe, Some(&json!({ "level": level })));
        }
        assert_eq!(recalled.of(PickKind::Number), ["19", "18", "17", "16", "15"]);
    }
}
