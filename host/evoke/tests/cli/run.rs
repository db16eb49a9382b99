//! `evoke run NAME key=value…`: every way a call by name is refused, each with what to write instead.

use crate::support::World;

fn refused(args: &[&str], code: i32) -> String {
    let world = World::lamp();
    let run = world.evoke(args);
    assert_eq!(run.code, code, "{}", run.seen());
    assert!(run.stderr.starts_with("error: "), "{}", run.stderr);
    run.seen()
}

#[test]
fn an_argument_the_reflex_does_not_take() {
    insta::assert_snapshot!(refused(&["run", "lamp", "colour=red"], 2));
}

#[test]
fn a_value_that_is_not_an_option() {
    insta::assert_snapshot!(refused(&["run", "lamp", "room=attic", "state=on"], 2));
}

#[test]
fn a_missing_value() {
    insta::assert_snapshot!(refused(&["run", "lamp", "room=den"], 2));
}

#[test]
fn a_value_given_twice() {
    insta::assert_snapshot!(refused(&["run", "lamp", "room=den", "room=office", "state=on"], 2));
}

#[test]
fn a_value_holding_a_control_character_is_refused_with_its_fix() {
    insta::assert_snapshot!(refused(&["run", "lamp", "room=de\u{7}n", "state=on"], 6));
}

#[test]
fn an_inactive_reflex_says_why_and_the_fix() {
    let world = World::unconfigured_lamp();
    world.trust();
    let run = world.evoke(&["run", "lamp", "room=den", "state=on"]);
    assert_eq!(run.code, 2, "{}", run.seen());
    assert!(run.stderr.contains("= fix: "), "{}", run.stderr);
    insta::assert_snapshot!(run.seen());
}

#[test]
fn a_plan_file_that_is_not_there() {
    insta::assert_snapshot!(refused(&["run", "nowhere.plan.json"], 2));
}

#[test]
fn resume_with_no_plan_left() {
    insta::assert_snapshot!(refused(&["--recording", "recording.toml", "resume"], 2));
}

#[test]
fn a_call_by_name_refused_before_its_body_still_prints_its_line_under_json() {
    let world = World::lamp();
    // The secret is read from a variable no one set: the call is refused before its body starts.
    let set = world.evoke(&["config", "lamp", "token", "--env", "EVOKE_TEST_NEVER_SET"]);
    assert_eq!(set.code, 0, "{}", set.seen());
    world.trust();
    let run = world.evoke(&["--json", "run", "lamp", "room=den", "state=off"]);
    assert_ne!(run.code, 0, "{}", run.seen());
    let lines: Vec<serde_json::Value> = run.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 1, "its one line: {}", run.seen());
    assert_eq!(lines[0]["call"], "lamp room=\"den\" state=\"off\"", "{}", lines[0]);
    assert!(lines[0]["error"].as_str().unwrap_or_default().contains("EVOKE_TEST_NEVER_SET"), "{}", lines[0]);
    assert!(lines[0].get("contained").is_none(), "no body ran: {}", lines[0]);
    // The error is said on stderr too, as for a decided call.
    assert!(run.stderr.contains("EVOKE_TEST_NEVER_SET"), "{}", run.seen());
}
