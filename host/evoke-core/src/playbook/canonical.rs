//! The canonical JSON of a playbook: what the `playbook` vectors pin (vectors/README.md).

use super::{Action, Playbook};
use crate::manifest::Effect;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

impl Playbook {
    /// Empty lists and tables and absent optionals are left out; slots and examples are written as a
    /// manifest writes its arguments and examples, an example written `true` as the empty table it means.
    pub fn to_canonical_json(&self) -> Value {
        // The synthetic reflex carries the slots and examples: one writer for both forms.
        let offered = self.as_reflex("", Effect::Read, BTreeMap::new()).manifest.to_canonical_json();
        let mut out = Map::new();
        out.insert("description".into(), json!(self.description));
        if !self.not_for.is_empty() {
            out.insert("not_for".into(), json!(self.not_for));
        }
        if let Some(slots) = offered.get("args") {
            out.insert("slots".into(), slots.clone());
        }
        if let Some(examples) = offered.get("examples") {
            out.insert("examples".into(), examples.clone());
        }
        let steps: Vec<Value> = self
            .steps
            .iter()
            .map(|step| {
                let mut entry = Map::new();
                match &step.action {
                    Action::Say(words) => {
                        entry.insert("say".into(), json!(words));
                    }
                    Action::Call { reflex, args } => {
                        entry.insert("call".into(), json!(reflex));
                        if !args.is_empty() {
                            let args: Map<String, Value> = args.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
                            entry.insert("args".into(), Value::Object(args));
                        }
                    }
                }
                if let Some(when) = &step.when {
                    entry.insert("when".into(), json!(when));
                }
                Value::Object(entry)
            })
            .collect();
        out.insert("steps".into(), Value::Array(steps));
        Value::Object(out)
    }
}
