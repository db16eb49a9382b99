//! Walks every case of every folder of `vectors/`, each through the core function it names. The folders
//! are listed here by name: a folder that goes missing or empty fails, and so does a folder no function reads.

use evoke_core::conform::{FUNCTIONS, call, is_unordered, same};
use serde_json::Value;
use std::path::PathBuf;

/// The folders of `vectors/`, one per function of the core.
const FOLDERS: [&str; 17] = [
    "identity",
    "manifest",
    "lint",
    "overlay",
    "vocab",
    "recognize",
    "mentions",
    "questions",
    "validate",
    "gate",
    "decide",
    "refs",
    "h1",
    "versions",
    "weave",
    "playbook",
    "mood",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../vectors")
}

#[test]
fn the_folders_are_the_functions() {
    assert_eq!(FUNCTIONS, FOLDERS, "conform::FUNCTIONS and the folders listed here differ");
    let mut on_disk: Vec<String> = std::fs::read_dir(root())
        .expect("vectors/ reads")
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().to_string())
        // The Expresso suite's folders are its own, walked by the tests of host/expresso-runtime.
        .filter(|name| !name.starts_with("expresso-"))
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = FOLDERS.iter().map(|f| f.to_string()).collect();
    listed.sort();
    assert_eq!(on_disk, listed, "the folders of vectors/ but Expresso's are exactly the listed ones");
}

#[test]
fn every_vector_case() {
    let root = root();
    let mut passed = 0;
    let mut failures = Vec::new();
    for function in FOLDERS {
        let dir = root.join(function);
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) => {
                failures.push(format!("{function}/: the folder does not read: {e}"));
                continue;
            }
        };
        let mut files: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.retain(|p| p.extension().is_some_and(|e| e == "json"));
        files.sort();
        if files.is_empty() {
            failures.push(format!("{function}/: the folder holds no case"));
        }
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
}
