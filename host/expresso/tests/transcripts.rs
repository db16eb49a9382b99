//! Runs every `transcripts/expresso-*/expresso.transcript` against the built `expresso`, word for word.
//!
//! The file is not named `transcript`: evoke's conformance runner takes every folder holding one as its
//! own. A transcript is evoke's format with `expresso` as the command word: `$ expresso …` runs a command
//! (split on whitespace) in a fresh copy of the transcript's folder; the lines after it are its stdout, a
//! line starting `! ` is a line of its stderr, and `? N` its exit code. `#` lines between steps and blank
//! lines are comments.

use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Default, Debug)]
struct Step {
    args: Vec<String>,
    stdout: Vec<String>,
    stderr: Vec<String>,
    exit: Option<i32>,
    line: usize,
}

fn parse(text: &str) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if let Some(command) = line.strip_prefix("$ ") {
            let mut words = command.split_whitespace().map(str::to_string);
            assert_eq!(words.next().as_deref(), Some("expresso"), "line {}: a command starts with `expresso`", n + 1);
            steps.push(Step { args: words.collect(), line: n + 1, ..Step::default() });
            continue;
        }
        let open = steps.last().is_some_and(|s| s.exit.is_none());
        if !open {
            assert!(line.trim().is_empty() || line.starts_with('#'), "line {}: output outside a step", n + 1);
            continue;
        }
        let step = steps.last_mut().unwrap();
        if let Some(code) = line.strip_prefix("? ") {
            step.exit = Some(code.trim().parse().expect("`? N` takes a number"));
        } else if let Some(err) = line.strip_prefix("! ") {
            step.stderr.push(err.to_string());
        } else if line == "!" {
            step.stderr.push(String::new());
        } else {
            step.stdout.push(line.to_string());
        }
    }
    steps
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn every_expresso_transcript() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../transcripts");
    let mut folders: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("expresso-")))
        .collect();
    folders.sort();
    assert!(folders.iter().any(|f| f.ends_with("expresso-triage")), "the worked example's transcript is missing");
    let mut failures = Vec::new();
    let mut ran = 0;
    for folder in folders {
        let text = std::fs::read_to_string(folder.join("expresso.transcript")).expect("an expresso.transcript file");
        let work = std::env::temp_dir().join(format!(
            "expresso-transcript-{}-{}",
            folder.file_name().unwrap().to_string_lossy(),
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&work);
        copy_dir(&folder, &work);
        for step in parse(&text) {
            let out = Command::new(env!("CARGO_BIN_EXE_expresso"))
                .args(&step.args)
                .current_dir(&work)
                .env("NO_COLOR", "1")
                .env_remove("OPENAI_API_KEY")
                .output()
                .unwrap();
            let stdout: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect();
            let stderr: Vec<String> = String::from_utf8_lossy(&out.stderr).lines().map(str::to_string).collect();
            let at = format!("{}:{}", folder.display(), step.line);
            if stdout != step.stdout {
                failures.push(format!("{at}: stdout\n  expected {:#?}\n  actual   {stdout:#?}", step.stdout));
            }
            if stderr != step.stderr {
                failures.push(format!("{at}: stderr\n  expected {:#?}\n  actual   {stderr:#?}", step.stderr));
            }
            if out.status.code() != step.exit {
                failures.push(format!("{at}: exit {:?}, expected {:?}", out.status.code(), step.exit));
            }
            ran += 1;
        }
        std::fs::remove_dir_all(&work).unwrap();
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(ran >= 6, "only {ran} steps ran");
}
