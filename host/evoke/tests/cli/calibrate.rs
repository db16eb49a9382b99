//! `evoke calibrate`: every record and test decided and scored; a bar while it decides, at a terminal only.

use crate::support::World;
use std::io::Read;
use std::process::Command;
use std::time::Duration;

#[test]
fn through_a_pipe_the_report_comes_without_a_progress_bar() {
    let world = World::lamp();
    let run = world.evoke(&["--recording", "recording.toml", "calibrate"]);
    assert_eq!(run.code, 0, "{}", run.seen());
    assert!(run.stderr.is_empty(), "nothing but the report: {}", run.stderr);
    assert!(!run.stdout.contains("calibrating"), "{}", run.stdout);
}

#[test]
fn at_a_terminal_a_bar_counts_the_cases_and_is_cleared() {
    let world = World::lamp();
    let mut command = Command::new(env!("CARGO_BIN_EXE_evoke"));
    command
        .args(["--recording", "recording.toml", "calibrate"])
        .current_dir(world.root.path())
        .env("EVOKE_HOME", world.home.path())
        .env("LAMP_TOKEN", "lamp-token")
        .env("TERM", "xterm");
    let mut session = expectrl::Session::spawn(command).unwrap();
    session.set_expect_timeout(Some(Duration::from_secs(60)));
    let mut seen = Vec::new();
    session.read_to_end(&mut seen).unwrap();
    let seen = String::from_utf8_lossy(&seen);
    assert!(seen.contains("calibrating"), "the bar was drawn: {seen:?}");
    assert!(seen.contains("/3"), "it counts the three cases: {seen:?}");
}

#[test]
fn the_report_for_a_person_and_its_json_line() {
    let world = World::lamp();
    let run = world.evoke(&["--recording", "recording.toml", "calibrate", "--repeat", "2"]);
    assert_eq!(run.code, 0, "{}", run.seen());
    assert!(run.stdout.contains("outcomes   run 2 · confirm 0 · ask 0 · abstain 1"), "{}", run.stdout);
    insta::assert_snapshot!("human", run.seen());
    let run = world.evoke(&["--recording", "recording.toml", "--json", "calibrate", "--repeat", "2"]);
    assert_eq!(run.code, 0, "{}", run.seen());
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON line");
    assert_eq!(report["records"], 3, "{report}");
    insta::assert_snapshot!("json", run.seen());
}

#[test]
fn a_miss_is_named_with_what_differs() {
    let world = World::lamp();
    world.edit(
        "recording.toml",
        "\"lamp.room\"  = { office = 0.9, den = 0.05, unstated = 0.05 }",
        "\"lamp.room\"  = { den = 0.9, office = 0.05, unstated = 0.05 }",
    );
    let run = world.evoke(&["--recording", "recording.toml", "calibrate"]);
    assert_eq!(run.code, 0, "{}", run.seen());
    assert!(run.stdout.contains("misses:"), "{}", run.stdout);
    insta::assert_snapshot!(run.seen());
}
