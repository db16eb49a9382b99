//! The canonical JSON of a manifest: what the `manifest` and `overlay` vectors pin (vectors/README.md).

use super::{Access, Asserted, Manifest, Record, Run, Source};
use serde_json::{Map, Value, json};

impl Manifest {
    /// Empty lists and tables, `false` booleans and absent optionals are left out.
    pub fn to_canonical_json(&self) -> Value {
        let mut out = Map::new();
        out.insert("description".into(), json!(self.description));
        if !self.not_for.is_empty() {
            out.insert("not_for".into(), json!(self.not_for));
        }
        if !self.tags.is_empty() {
            out.insert("tags".into(), json!(self.tags));
        }
        out.insert("effect".into(), json!(self.effect.as_str()));
        out.insert("confirm".into(), json!(self.confirm));
        out.insert(
            "run".into(),
            match &self.run {
                Run::File(path) => json!({ "file": path }),
                Run::Argv(argv) => json!({ "argv": argv }),
                Run::Code => json!({ "code": true }),
            },
        );
        if !self.yields.is_empty() {
            let yields: Map<String, Value> = self
                .yields
                .iter()
                .map(|y| {
                    let mut entry = Map::new();
                    entry.insert("kind".into(), json!(y.kind.as_str()));
                    if let Some(about) = &y.about {
                        entry.insert("about".into(), json!(about));
                    }
                    (y.field.clone(), Value::Object(entry))
                })
                .collect();
            out.insert("yields".into(), Value::Object(yields));
        }
        if let Some(returns) = &self.returns {
            out.insert("returns".into(), json!(returns));
        }
        if !self.config.is_empty() {
            let config: Map<String, Value> = self
                .config
                .iter()
                .map(|c| {
                    let mut entry = Map::new();
                    entry.insert("about".into(), json!(c.about));
                    if c.secret {
                        entry.insert("secret".into(), json!(true));
                    }
                    (c.name.clone(), Value::Object(entry))
                })
                .collect();
            out.insert("config".into(), Value::Object(config));
        }
        if self.grants != Default::default() {
            let mut grants = Map::new();
            if !self.grants.files.is_empty() {
                let files: Map<String, Value> = self
                    .grants
                    .files
                    .iter()
                    .map(|(path, access)| {
                        let access = match access {
                            Access::Read => "read",
                            Access::Write => "write",
                        };
                        (path.clone(), json!(access))
                    })
                    .collect();
                grants.insert("files".into(), Value::Object(files));
            }
            if !self.grants.net.is_empty() {
                grants.insert("net".into(), json!(self.grants.net));
            }
            out.insert("grants".into(), Value::Object(grants));
        }
        if !self.args.is_empty() {
            let args: Map<String, Value> = self
                .args
                .iter()
                .map(|arg| {
                    let mut entry = Map::new();
                    entry.insert("ask".into(), json!(arg.ask));
                    match &arg.source {
                        Source::Options(options) => {
                            let options: Map<String, Value> =
                                options.iter().map(|(k, m)| (k.clone(), json!(m))).collect();
                            entry.insert("options".into(), Value::Object(options));
                        }
                        Source::Vocab(name) => {
                            entry.insert("vocab".into(), json!(name));
                        }
                        Source::Pick(kind) => {
                            entry.insert("pick".into(), json!(kind.as_str()));
                        }
                        Source::Flag => {
                            entry.insert("flag".into(), json!(true));
                        }
                        Source::Takes(name) => {
                            entry.insert("takes".into(), json!(name));
                        }
                    }
                    if let Some((min, max)) = arg.range {
                        entry.insert("range".into(), json!([number(min), number(max)]));
                    }
                    if arg.optional {
                        entry.insert("optional".into(), json!(true));
                    }
                    if !arg.was.is_empty() {
                        entry.insert("was".into(), json!(arg.was));
                    }
                    (arg.name.clone(), Value::Object(entry))
                })
                .collect();
            out.insert("args".into(), Value::Object(args));
        }
        for (key, records) in [("examples", &self.examples), ("tests", &self.tests)] {
            if !records.is_empty() {
                out.insert(key.into(), records_json(records));
            }
        }
        Value::Object(out)
    }
}

/// A whole number prints as an integer, so `[1, 100]` reads back as written.
pub(crate) fn number(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 9.0e15 { json!(n as i64) } else { json!(n) }
}

fn records_json(records: &[Record]) -> Value {
    let map: Map<String, Value> = records
        .iter()
        .map(|record| {
            let value = match &record.asserts {
                None => json!(false),
                Some(asserts) => Value::Object(
                    asserts
                        .iter()
                        .map(|(arg, value)| {
                            let value = match value {
                                Asserted::Text(text) => json!(text),
                                Asserted::Flag(flag) => json!(flag),
                            };
                            (arg.clone(), value)
                        })
                        .collect(),
                ),
            };
            (record.utterance.clone(), value)
        })
        .collect();
    Value::Object(map)
}
