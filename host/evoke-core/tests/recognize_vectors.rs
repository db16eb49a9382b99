//! Walks `vectors/recognize/*.json`: `input` is `{ "text", "kind" }`, `expected` the candidates of that kind
//! in order, each `{ "span", "value" }`. JSON values compare as values; numbers by numeric value.

use evoke_core::recognize::{PickKind, candidates};
use serde_json::{Value, json};
use std::path::PathBuf;

fn same(expected: &Value, actual: &Value) -> bool {
    match (expected, actual) {
        (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
        (Value::Array(a), Value::Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y)),
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len() && a.iter().all(|(k, v)| b.get(k).is_some_and(|w| same(v, w)))
        }
        (a, b) => a == b,
    }
}

fn run(input: &Value) -> Result<Value, String> {
    let text = input["text"].as_str().ok_or("input.text is not a string")?;
    let kind: PickKind = input["kind"].as_str().ok_or("input.kind is not a string")?.parse().map_err(|e| format!("{e}"))?;
    let found: Vec<Value> = candidates(text, kind)
        .into_iter()
        .map(|c| json!({ "span": c.span, "value": c.value }))
        .collect();
    Ok(Value::Array(found))
}

#[test]
fn recognize_vectors() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../vectors/recognize");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("vectors/recognize exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let case: Value = match std::fs::read_to_string(file).map_err(|e| e.to_string()).and_then(|t| {
            serde_json::from_str(&t).map_err(|e| e.to_string())
        }) {
            Ok(case) => case,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        match run(&case["input"]) {
            Ok(actual) if same(&case["expected"], &actual) => {}
            Ok(actual) => failures.push(format!("{name}\n  expected {}\n  actual   {actual}", case["expected"])),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    eprintln!("recognize vectors: {} cases, {} failed", files.len(), failures.len());
    assert!(files.len() >= 40, "only {} recognize vectors", files.len());
    assert!(failures.is_empty(), "{} recognize vectors failed:\n{}", failures.len(), failures.join("\n"));
}
