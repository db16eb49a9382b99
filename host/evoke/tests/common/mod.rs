//! What the tests that run evoke as a process share: the repository, trusting and copying a project,
//! reading an output, a line without its timings, waiting for a body's mark, and killing evoke with the
//! body it left behind. Each test file takes what it needs.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The repository's root.
pub fn repo() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// `evoke trust` of `project` under `home`, as a person runs it.
pub fn trust(home: &Path, project: &Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_evoke"))
        .args(["-C".as_ref(), project.as_os_str(), "trust".as_ref()])
        .env("EVOKE_HOME", home)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// A line with every `"ms"` of its trace at 0: timings differ from run to run, nothing else may.
pub fn without_ms(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find("\"ms\":") {
        out.push_str(&rest[..at + 5]);
        rest = rest[at + 5..].trim_start_matches(|c: char| c.is_ascii_digit());
        out.push('0');
    }
    out + rest
}

/// Copies a directory tree of small files.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A process's stdout and stderr as text.
pub fn text(output: &Output) -> (String, String) {
    (String::from_utf8_lossy(&output.stdout).into_owned(), String::from_utf8_lossy(&output.stderr).into_owned())
}

/// Waits until the file `marks` holds a line starting with `word` (a body writes `word PID`), and gives
/// the pid on it; fails when `child` ends first or after a minute.
pub fn wait_for(marks: &Path, word: &str, child: &mut Child) -> i32 {
    let read = || std::fs::read_to_string(marks).unwrap_or_default();
    let started = Instant::now();
    loop {
        if let Some(line) = read().lines().find(|l| l.starts_with(word)) {
            return line.split(' ').nth(1).and_then(|p| p.parse().ok()).unwrap_or(0);
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("evoke ended ({status}) before {word}: {}", read());
        }
        assert!(started.elapsed() < Duration::from_secs(60), "{word} never came: {}", read());
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// SIGKILL for evoke and for the body it left behind (its own process group).
pub fn kill(child: &mut Child, body: i32) {
    child.kill().unwrap();
    child.wait().unwrap();
    if body > 0 {
        for target in [format!("-{body}"), body.to_string()] {
            let _ = Command::new("kill").args(["-9", "--", &target]).stderr(Stdio::null()).status();
        }
    }
}
