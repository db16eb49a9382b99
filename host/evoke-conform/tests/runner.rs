//! The runner can fail: implementations that answer wrong, exit non-zero or hang, folders that go
//! missing, and a repository that is not found each make it report failures, never a pass or a skip.

use evoke_conform::{transcript, vectors};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// The fake implementations, written once before any test starts one (a script still open for writing
/// while another thread starts a process cannot be run).
fn fakes() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let scripts = [
            // Reads the case and answers a JSON line that no case expects.
            ("wrong", "#!/bin/sh\ncat >/dev/null\necho '{\"wrong\":true}'\n"),
            // Refuses every input.
            ("refuses", "#!/bin/sh\ncat >/dev/null\necho 'error: no' >&2\nexit 3\n"),
            // Never answers.
            ("hangs", "#!/bin/sh\nexec sleep 60\n"),
        ];
        for (name, text) in scripts {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        dir
    })
    .path()
}

fn fake(name: &str) -> PathBuf {
    fakes().join(name)
}

/// A `vectors/` holding `identity/` with its first case alone.
fn one_case() -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    std::fs::create_dir(root.path().join("identity")).unwrap();
    let first = vectors::cases(&repo().join("vectors/identity")).remove(0);
    std::fs::copy(first, root.path().join("identity/case.json")).unwrap();
    root
}

#[test]
fn a_wrong_implementation_fails_every_case() {
    let vectors_dir = repo().join("vectors");
    let total = vectors::cases(&vectors_dir.join("identity")).len();
    assert!(total > 0);
    let options = vectors::Options { only: Some("identity"), ..Default::default() };
    let report = vectors::run(&fake("wrong"), &vectors_dir, options);
    assert_eq!(report.passed, 0, "{:?}", report.failures);
    assert_eq!(report.failures.len(), total);
    assert!(
        report.failures.iter().all(|f| f.starts_with("identity/") && f.contains("expected")),
        "{:?}",
        report.failures
    );
}

#[test]
fn an_implementation_that_refuses_fails() {
    let root = one_case();
    let options = vectors::Options { only: Some("identity"), ..Default::default() };
    let report = vectors::run(&fake("refuses"), root.path(), options);
    assert_eq!(report.passed, 0);
    assert_eq!(report.failures.len(), 1, "{:?}", report.failures);
    assert!(report.failures[0].contains("exit Some(3): error: no"), "{}", report.failures[0]);
}

#[test]
fn a_case_that_hangs_times_out() {
    let root = one_case();
    let options = vectors::Options { only: Some("identity"), timeout: Duration::from_secs(1) };
    let report = vectors::run(&fake("hangs"), root.path(), options);
    assert_eq!(report.passed, 0);
    assert_eq!(report.failures, ["identity/case.json: timed out after 1 s"]);
}

#[test]
fn a_missing_empty_or_unknown_folder_fails() {
    let root = one_case();
    std::fs::create_dir(root.path().join("extra")).unwrap();
    std::fs::create_dir(root.path().join("gate")).unwrap();
    let report = vectors::run(&fake("wrong"), root.path(), vectors::Options::default());
    let failures = report.failures.join("\n");
    assert!(failures.contains("extra/: a folder of no function"), "{failures}");
    assert!(failures.contains("gate/: the folder holds no case"), "{failures}");
    for function in ["manifest", "decide", "versions"] {
        assert!(failures.contains(&format!("{function}/: the folder is missing")), "{failures}");
    }
    let only = vectors::Options { only: Some("nosuch"), ..Default::default() };
    let report = vectors::run(&fake("wrong"), root.path(), only);
    assert!(report.failures[0].starts_with("nosuch: no such function"), "{:?}", report.failures);
}

#[test]
fn a_transcript_step_that_hangs_times_out_and_a_folder_without_one_fails() {
    let root = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(root.path().join("stuck")).unwrap();
    std::fs::write(root.path().join("stuck/transcript"), "$ evoke try hello\n? 0\n").unwrap();
    std::fs::create_dir_all(root.path().join("empty")).unwrap();
    let report = transcript::run_within(&fake("hangs"), root.path(), Duration::from_secs(1));
    assert_eq!(report.passed, 0);
    let failures = report.failures.join("\n");
    assert!(failures.contains("empty: the folder has no `transcript`"), "{failures}");
    assert!(failures.contains("stuck/transcript:1 `evoke try hello`\n    timed out after 1 s"), "{failures}");
    let missing = transcript::run(&fake("wrong"), &root.path().join("nowhere"));
    assert_eq!(missing.failures.len(), 1, "{:?}", missing.failures);
}

#[test]
fn the_command_fails_on_a_wrong_implementation_and_says_when_no_repository_is_found() {
    let runner = env!("CARGO_BIN_EXE_evoke-conform");
    let out = Command::new(runner)
        .args(["--evoke", fake("wrong").to_str().unwrap(), "--only", "refs"])
        .current_dir(repo().join("host"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let cases = vectors::cases(&repo().join("vectors/refs")).len();
    assert_eq!(String::from_utf8_lossy(&out.stdout), format!("0 passed, {cases} failed\n"));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("FAIL refs/"));

    let nowhere = tempfile::tempdir().unwrap();
    let out = Command::new(runner)
        .args(["--evoke", fake("wrong").to_str().unwrap()])
        .current_dir(nowhere.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no folder holding vectors/ and transcripts/") && err.contains("--root DIR"), "{err}");
}
