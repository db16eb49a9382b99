//! Runs every vector case through `IMPL conform FUNCTION`.

use crate::{CASE_TIMEOUT, Report, run_for};
use evoke_core::conform::{FUNCTIONS, is_unordered, same};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Which cases to run, and for how long each may run.
#[derive(Debug, Clone, Copy)]
pub struct Options<'a> {
    /// One function's folder alone (`--only`); every function's when `None`.
    pub only: Option<&'a str>,
    /// How long one case may take before it fails as timed out.
    pub timeout: Duration,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options { only: None, timeout: CASE_TIMEOUT }
    }
}

/// Every case of every function's folder under `root`. A function whose folder is missing or holds no
/// case, a folder no function reads, and an `only` that names no function are failures too.
pub fn run(implementation: &Path, root: &Path, options: Options) -> Report {
    let mut report = Report::default();
    let functions: Vec<&str> = match options.only {
        Some(only) if FUNCTIONS.contains(&only) => vec![only],
        Some(only) => {
            report.failures.push(format!("{only}: no such function; the functions are {}", FUNCTIONS.join(", ")));
            return report;
        }
        None => FUNCTIONS.to_vec(),
    };
    if options.only.is_none() {
        for folder in unknown_folders(root) {
            report.failures.push(format!("{folder}/: a folder of no function the runner knows; its cases cannot run"));
        }
    }
    for function in functions {
        let dir = root.join(function);
        if !dir.is_dir() {
            report.failures.push(format!("{function}/: the folder is missing from {}", root.display()));
            continue;
        }
        let files = cases(&dir);
        if files.is_empty() {
            report.failures.push(format!("{function}/: the folder holds no case"));
        }
        for file in files {
            let name = file.strip_prefix(root).unwrap_or(&file).display().to_string();
            match one(implementation, function, &file, options.timeout) {
                Ok(()) => report.passed += 1,
                Err(why) => report.failures.push(format!("{name}: {why}")),
            }
        }
    }
    report
}

/// The folders of `root` that are not a function's.
fn unknown_folders(root: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(root) else { return Vec::new() };
    let mut unknown: Vec<String> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().to_string()))
        .filter(|n| !FUNCTIONS.contains(&n.as_str()) && crate::is_evokes(n))
        .collect();
    unknown.sort();
    unknown
}

/// The case files of one folder, in name order.
pub fn cases(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

/// Runs one case. An `Err` is the case's failure as the report prints it (often the expected and actual
/// output side by side), not a fault of the runner.
fn one(implementation: &Path, function: &str, file: &Path, timeout: Duration) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
    let case: Value = serde_json::from_str(&text).map_err(|e| format!("not JSON: {e}"))?;
    let mut command = Command::new(implementation);
    command.args(["conform", function]);
    let output = run_for(command, Some(case["input"].to_string().as_bytes()), timeout).map_err(|e| e.to_string())?;
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
