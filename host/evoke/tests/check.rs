//! `evoke check`: a shipped reflex reads; a copy with a bidi control inside `confirm` is refused, naming
//! the key, the line and the fix, and exits 2.

use std::path::Path;
use std::process::Command;

fn check(dir: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_evoke")).arg("check").arg(dir).env("NO_COLOR", "1").output().unwrap()
}

#[test]
fn the_lights_of_001_read() {
    let lights = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../reflexes/lights");
    let out = check(&lights);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_bidi_control_in_confirm_is_refused_with_its_line() {
    let lights = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../reflexes/lights");
    let copy = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(lights.join("reflex.toml")).unwrap();
    let line = text.lines().position(|l| l.starts_with("confirm")).unwrap() + 1;
    let broken = text.replacen("Set the {room}", "Set the \u{202E}{room}", 1);
    assert_ne!(broken, text);
    std::fs::write(copy.path().join("reflex.toml"), broken).unwrap();
    std::fs::copy(lights.join("lights.mts"), copy.path().join("lights.mts")).unwrap();
    let out = check(copy.path());
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("error[bidi_control]"), "{said}");
    assert!(said.contains(&format!("reflex.toml:{line}:")), "names line {line}: {said}");
    assert!(said.contains("= key: confirm"), "{said}");
    assert!(said.contains("= fix:"), "{said}");
    // The report itself never carries the character it refuses.
    assert!(!said.contains('\u{202E}'), "{said}");
}
