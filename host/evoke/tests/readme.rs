//! README's main command, as a person runs it: in a copy of the ready example project, decided by the
//! embedded `local` engine: run at once when every part is said in full, and confirmed at a terminal when
//! the engine is less sure.

use expectrl::{Eof, Session};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            if entry.file_name() != "state" {
                copy(&entry.path(), &target);
            }
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn turn_on_the_kitchen_lights_runs_and_a_less_sure_call_is_confirmed() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let root = tempfile::tempdir().unwrap();
    copy(&repo.join("docs/examples/home"), &root.path().join("docs/examples/home"));
    for reflex in ["timer", "volume"] {
        copy(&repo.join("reflexes").join(reflex), &root.path().join("reflexes").join(reflex));
    }
    let project = root.path().join("docs/examples/home");
    let home = root.path().join("evoke-home");
    let evoke = || {
        let mut command = Command::new(env!("CARGO_BIN_EXE_evoke"));
        command.current_dir(&project).env("EVOKE_HOME", &home).env("NO_COLOR", "1");
        command
    };
    let trusted = evoke().arg("trust").output().unwrap();
    assert!(trusted.status.success(), "{}", String::from_utf8_lossy(&trusted.stderr));

    // Every part said in full: the call runs, and the body answers.
    let ran = evoke().arg("turn on the kitchen lights").output().unwrap();
    assert_eq!(ran.status.code(), Some(0), "{}", String::from_utf8_lossy(&ran.stderr));
    assert!(String::from_utf8_lossy(&ran.stdout).contains("kitchen lights on"));

    // A call the engine is less sure of waits; without a terminal it says how to give the answer.
    let unattended = evoke().arg("kill the lights in the den").output().unwrap();
    assert_eq!(unattended.status.code(), Some(3));
    let said = String::from_utf8_lossy(&unattended.stderr);
    assert!(said.contains("evoke run lights room=den state=off"), "{said}");

    // At a terminal: evoke's own line, the reflex's question, a yes, and the body's answer.
    let mut command = evoke();
    command.arg("kill the lights in the den");
    let mut session = Session::spawn(command).unwrap();
    session.set_expect_timeout(Some(Duration::from_secs(30)));
    session.expect("evoke will run: lights room=\"den\" state=\"off\"").unwrap();
    session.expect("Set the den lights off? [y/N] ").unwrap();
    session.send_line("y").unwrap();
    session.expect("den lights off").unwrap();
    session.expect(Eof).unwrap();
    assert_eq!(session.wait().unwrap(), expectrl::WaitStatus::Exited(session.pid(), 0));
    let state = std::fs::read_to_string(project.join("reflexes/lights/state/lights.json")).unwrap();
    let state: serde_json::Value = serde_json::from_str(&state).unwrap();
    assert_eq!(state["kitchen"]["on"], true);
    assert_eq!(state["den"]["on"], false);
}
