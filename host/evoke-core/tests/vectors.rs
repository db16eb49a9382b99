//! Walks every case of every folder of `vectors/` whose function the core implements.

use evoke_core::conform::{FUNCTIONS, call, is_unordered, same};
use serde_json::Value;
use std::path::PathBuf;

#[test]
fn every_vector_case() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../vectors");
    let mut passed = 0;
    let mut failures = Vec::new();
    for function in FUNCTIONS {
        let dir = root.join(function);
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut files: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.retain(|p| p.extension().is_some_and(|e| e == "json"));
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let case: Value = match serde_json::from_str(&text) {
                Ok(case) => case,
                Err(e) => {
                    failures.push(format!("{}: not JSON: {e}", file.display()));
                    continue;
                }
            };
            let name = file.strip_prefix(&root).unwrap().display().to_string();
            match call(function, &case["input"]) {
                Ok(actual) if same(&case["expected"], &actual, is_unordered(function)) => passed += 1,
                Ok(actual) => failures.push(format!("{name}\n  expected {}\n  actual   {actual}", case["expected"])),
                Err(e) => failures.push(format!("{name}: {e}")),
            }
        }
    }
    eprintln!("vectors: {passed} passed, {} failed", failures.len());
    assert!(failures.is_empty(), "{} vector cases failed:\n{}", failures.len(), failures.join("\n"));
    assert!(passed >= 1, "no vector case ran");
}
