//! Walks every case of the four Expresso vector folders; a folder that is missing fails the test.

use expresso_runtime::conform::{FUNCTIONS, call};
use serde_json::Value;
use std::path::PathBuf;

/// JSON values compared as values: numbers by value, object key order aside.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

#[test]
fn every_expresso_vector_case() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../vectors");
    let mut failures = Vec::new();
    let mut passed = 0;
    for function in FUNCTIONS {
        let dir = root.join(function);
        let entries =
            std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("the folder {} is missing: {e}", dir.display()));
        let mut files: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.retain(|p| p.extension().is_some_and(|e| e == "json"));
        files.sort();
        assert!(!files.is_empty(), "{function} has no case");
        for file in files {
            let name = file.strip_prefix(&root).unwrap().display().to_string();
            let case: Value = match serde_json::from_str(&std::fs::read_to_string(&file).unwrap()) {
                Ok(case) => case,
                Err(e) => {
                    failures.push(format!("{name}: not JSON: {e}"));
                    continue;
                }
            };
            match call(function, &case["input"]) {
                Ok(actual) if same(&case["expected"], &actual) => passed += 1,
                Ok(actual) => failures.push(format!("{name}\n  expected {}\n  actual   {actual}", case["expected"])),
                Err(e) => failures.push(format!("{name}: {e}")),
            }
        }
    }
    eprintln!("expresso vectors: {passed} passed, {} failed", failures.len());
    assert!(failures.is_empty(), "{} cases failed:\n{}", failures.len(), failures.join("\n"));
}
