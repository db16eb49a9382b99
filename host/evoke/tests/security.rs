//! The security page (`docs/security.md`) against the suite: every test it names exists where it says,
//! every vector it names is there, and the claims that have no home of their own are tried here.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// The tests a page names: in each `- Test:`/`- Tests:` item, the names written after a
/// `host/…/tests/….rs` path belong to that file, up to the next path.
fn named_tests(page: &str) -> Vec<(String, String)> {
    let mut items: Vec<String> = Vec::new();
    let mut open = false;
    for line in page.lines() {
        if line.starts_with("- Test:") || line.starts_with("- Tests:") {
            items.push(line.to_string());
            open = true;
        } else if open && line.starts_with("  ") {
            items.last_mut().unwrap().push_str(line);
        } else {
            open = false;
        }
    }
    let mut named = Vec::new();
    for item in items {
        let mut file: Option<String> = None;
        for token in item.split('`').skip(1).step_by(2) {
            if token.starts_with("host/") && token.ends_with(".rs") {
                file = Some(token.to_string());
            } else if let Some(file) = &file
                && token.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            {
                named.push((file.clone(), token.to_string()));
            }
        }
    }
    named
}

#[test]
fn the_security_page_names_only_tests_that_exist() {
    let root = repo();
    let page = std::fs::read_to_string(root.join("docs/security.md")).unwrap();
    let named = named_tests(&page);
    assert!(named.len() >= 40, "the page names a test for every claim: {named:?}");
    let mut missing = Vec::new();
    for (file, test) in &named {
        let source = std::fs::read_to_string(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let declared = [format!("fn {test}("), format!("fn {test} (")];
        if !declared.iter().any(|d| source.contains(d.as_str())) {
            missing.push(format!("{file} {test}"));
        }
    }
    assert!(missing.is_empty(), "named on the security page but not in the suite: {missing:?}");

    let vectors: Vec<&str> = page.split('`').skip(1).step_by(2).filter(|t| t.starts_with("vectors/")).collect();
    assert!(vectors.len() >= 5, "{vectors:?}");
    for vector in vectors {
        let path = root.join(vector);
        assert!(path.exists(), "named on the security page but absent: {vector}");
        if path.is_dir() {
            assert!(std::fs::read_dir(&path).unwrap().count() > 0, "{vector} is empty");
        }
    }
}

#[test]
fn the_page_check_sees_a_missing_test() {
    // The check above must be able to fail: a name that no file declares is reported.
    let named = named_tests("- Tests: `host/evoke/tests/security.rs` `no_such_test_anywhere`, `there_is_no_yes`.");
    assert_eq!(
        named,
        vec![
            ("host/evoke/tests/security.rs".to_string(), "no_such_test_anywhere".to_string()),
            ("host/evoke/tests/security.rs".to_string(), "there_is_no_yes".to_string()),
        ]
    );
    let source = std::fs::read_to_string(repo().join("host/evoke/tests/security.rs")).unwrap();
    assert!(!source.contains(&format!("fn {}(", "no_such_test_anywhere")));
}

/// A destructive call always confirms, and nothing on the command line can skip that.
#[test]
fn there_is_no_yes() {
    let home = tempfile::tempdir().unwrap();
    for flag in ["--yes", "-y", "--force", "--no-confirm"] {
        let out = Command::new(env!("CARGO_BIN_EXE_evoke"))
            .args([flag, "try", "turn off the lights"])
            .env("EVOKE_HOME", home.path())
            .current_dir(repo().join("docs/examples/home"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{flag} is a usage error");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(flag), "{flag}: {err}");
    }
}
