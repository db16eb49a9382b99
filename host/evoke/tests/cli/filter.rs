//! Filter mode: no sentence and stdin not a terminal, one decision per line; the exit is the worst line's.

use crate::support::World;

#[test]
fn each_line_is_decided_and_the_exit_is_the_worst() {
    let world = World::lamp();
    let lines = "turn off the den lamp\n\norder a pizza\n";
    let run = world.evoke_with(&["--recording", "recording.toml", "--json"], Some(lines), &[]);
    let decided: Vec<serde_json::Value> = run.stdout.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(decided.len(), 2, "the blank line is skipped: {}", run.seen());
    assert_eq!(decided[0]["outcome"], "run", "{}", decided[0]);
    assert_eq!(decided[1]["outcome"], "abstain", "{}", decided[1]);
    // A run (0) and an abstention (4): the worst is the abstention.
    assert_eq!(run.code, 4, "{}", run.seen());
}

#[test]
fn a_line_that_needs_a_person_outranks_an_abstention() {
    let world = World::lamp();
    // Under the write bar, so the first line needs a person, who is not at a terminal here.
    world.edit("recording.toml", "write = 0.8", "write = 0.99");
    let lines = "order a pizza\nturn off the den lamp\n";
    let run = world.evoke_with(&["--recording", "recording.toml"], Some(lines), &[]);
    assert_eq!(run.code, 3, "{}", run.seen());
    insta::assert_snapshot!(run.seen());
}

#[test]
fn a_call_refused_before_its_body_still_prints_its_line_for_every_input() {
    let world = World::lamp();
    // The secret is read from a variable no one set: each call is refused before its body starts.
    let set = world.evoke(&["config", "lamp", "token", "--env", "EVOKE_TEST_NEVER_SET"]);
    assert_eq!(set.code, 0, "{}", set.seen());
    world.trust();
    let lines = "turn off the den lamp\nswitch the office lamp on\n";
    let run = world.evoke_with(&["--recording", "recording.toml", "--json"], Some(lines), &[]);
    let decided: Vec<serde_json::Value> = run.stdout.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(decided.len(), 2, "one line per input: {}", run.seen());
    for line in &decided {
        assert_eq!(line["outcome"], "run", "{line}");
        assert!(line["error"].as_str().unwrap_or_default().contains("EVOKE_TEST_NEVER_SET"), "{line}");
        assert!(line.get("result").is_none(), "no body ran: {line}");
    }
    assert_ne!(run.code, 0, "{}", run.seen());
    // Said alone, the same: the error on stderr and the line on stdout.
    let one = world.evoke(&["--recording", "recording.toml", "--json", "turn off the den lamp"]);
    assert_eq!(one.stdout.lines().count(), 1, "{}", one.seen());
    assert!(one.stderr.contains("EVOKE_TEST_NEVER_SET"), "{}", one.seen());
}
