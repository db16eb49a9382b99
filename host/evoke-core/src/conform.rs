//! The core's functions as the conformance vectors call them: a function's name and its case input as
//! JSON, its output as JSON (vectors/README.md). The vector walker and `evoke conform` both go through here,
//! so there is one reading of the protocol.

use crate::diag::{Diagnostic, Reading};
use crate::identity::identity;
use crate::lint::lint;
use crate::manifest::{Manifest, read_manifest};
use crate::overlay::read_overlay;
use crate::vocab::read_vocab;
use serde_json::{Value, json};

/// The functions a vector folder may name.
pub const FUNCTIONS: [&str; 5] = ["identity", "manifest", "lint", "overlay", "vocab"];

/// Runs `function` on a case's `input`. An input of the wrong shape is an error, not a fault.
pub fn call(function: &str, input: &Value) -> Result<Value, String> {
    match function {
        "identity" => Ok(json!(identity(as_str(input, None)?))),
        "manifest" => Ok(reading_json(manifest_of(input)?, |m| m.to_canonical_json())),
        "lint" => {
            let reading = manifest_of(input)?;
            let Some(manifest) = reading.value else {
                return Ok(fault_json(reading.first_error()));
            };
            Ok(serde_json::to_value(lint(&manifest)).map_err(|e| e.to_string())?)
        }
        "overlay" => {
            let shipped = manifest_of(input)?;
            let Some(shipped) = shipped.value else {
                return Err("the case's shipped manifest does not read".into());
            };
            let overlay = as_str(input, Some("overlay"))?;
            Ok(reading_json(read_overlay("overlay.toml", overlay, &shipped), |m| m.to_canonical_json()))
        }
        "vocab" => {
            let name = as_str(input, Some("name"))?;
            let text = as_str(input, Some("toml"))?;
            let reading = read_vocab(name, &format!("vocab/{name}.toml"), text);
            match reading.value {
                Some(vocab) => Ok(vocab.to_canonical_json()),
                None => Ok(fault_json(reading.first_error())),
            }
        }
        other => Err(format!("no core function is named \"{other}\"")),
    }
}

fn as_str<'v>(input: &'v Value, key: Option<&str>) -> Result<&'v str, String> {
    let value = match key {
        Some(key) => input.get(key).ok_or_else(|| format!("the input has no \"{key}\""))?,
        None => input,
    };
    value.as_str().ok_or_else(|| format!("\"{}\" must be a string", key.unwrap_or("input")))
}

fn manifest_of(input: &Value) -> Result<Reading<Manifest>, String> {
    let text = as_str(input, Some(if input.get("manifest").is_some() { "manifest" } else { "toml" }))?;
    let files: Vec<String> = match input.get("files") {
        None => Vec::new(),
        Some(files) => serde_json::from_value(files.clone()).map_err(|e| format!("\"files\": {e}"))?,
    };
    let exists = move |path: &str| files.iter().any(|f| f.trim_start_matches("./") == path);
    Ok(read_manifest("reflex.toml", text, &exists))
}

fn reading_json(reading: Reading<Manifest>, canonical: impl Fn(&Manifest) -> Value) -> Value {
    match &reading.value {
        Some(manifest) => {
            let warnings: Vec<Value> = reading.warnings().map(|w| json!(w.fault())).collect();
            json!({ "manifest": canonical(manifest), "warnings": warnings })
        }
        None => fault_json(reading.first_error()),
    }
}

fn fault_json(error: Option<&Diagnostic>) -> Value {
    match error {
        Some(d) => json!({ "fault": d.fault() }),
        None => json!({ "fault": null }),
    }
}

/// Compares an output with a vector's `expected`: objects as objects, numbers by value, and arrays in
/// order unless `unordered` (a folder whose output is a set).
pub fn same(expected: &Value, actual: &Value, unordered: bool) -> bool {
    match (expected, actual) {
        (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len() && a.iter().all(|(k, v)| b.get(k).is_some_and(|w| same(v, w, unordered)))
        }
        (Value::Array(a), Value::Array(b)) if unordered => {
            let mut left: Vec<&Value> = b.iter().collect();
            a.len() == b.len()
                && a.iter().all(|v| match left.iter().position(|w| same(v, w, unordered)) {
                    Some(i) => {
                        left.swap_remove(i);
                        true
                    }
                    None => false,
                })
        }
        (Value::Array(a), Value::Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(v, w)| same(v, w, unordered)),
        _ => expected == actual,
    }
}

/// Folders whose expected output is a set.
pub fn is_unordered(function: &str) -> bool {
    function == "lint"
}
