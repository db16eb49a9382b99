//! Runs every vector case through `IMPL conform FUNCTION`.

use crate::Report;
use evoke_core::conform::{FUNCTIONS, is_unordered, same};
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub fn run(implementation: &Path, root: &Path) -> Report {
    let mut report = Report::default();
    for function in FUNCTIONS {
        for file in cases(&root.join(function)) {
            let name = file.strip_prefix(root).unwrap_or(&file).display().to_string();
            match one(implementation, function, &file) {
                Ok(()) => report.passed += 1,
                Err(why) => report.failures.push(format!("{name}: {why}")),
            }
        }
    }
    report
}

fn cases(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

fn one(implementation: &Path, function: &str, file: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
    let case: Value = serde_json::from_str(&text).map_err(|e| format!("not JSON: {e}"))?;
    let mut child = Command::new(implementation)
        .args(["conform", function])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", implementation.display()))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(case["input"].to_string().as_bytes()).map_err(|e| e.to_string())?;
    }
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    if !output.status.success() {
        return Err(format!("exit {:?}: {}", output.status.code(), String::from_utf8_lossy(&output.stderr).trim()));
    }
    let actual: Value = serde_json::from_slice(&output.stdout).map_err(|e| format!("output is not JSON: {e}"))?;
    if same(&case["expected"], &actual, is_unordered(function)) {
        Ok(())
    } else {
        Err(format!("\n  expected {}\n  actual   {actual}", case["expected"]))
    }
}
