//! `evoke test [NAME]`: the held-out `[tests]` of every reflex, decided through the adapter.

use crate::support::World;

#[test]
fn every_test_passes_when_the_answers_meet_what_it_asserts() {
    let world = World::lamp();
    let run = world.evoke(&["--recording", "recording.toml", "test"]);
    assert_eq!(run.code, 0, "{}", run.seen());
    assert!(run.stdout.ends_with("2 passed, 0 failed\n"), "{}", run.stdout);
    insta::assert_snapshot!(run.seen());
}

#[test]
fn a_test_the_answers_miss_fails_and_the_exit_says_so() {
    let world = World::lamp();
    // The office sentence read as the den: the test asserts room = "office".
    world.edit(
        "recording.toml",
        "\"lamp.room\"  = { office = 0.9, den = 0.05, unstated = 0.05 }",
        "\"lamp.room\"  = { den = 0.9, office = 0.05, unstated = 0.05 }",
    );
    let run = world.evoke(&["--recording", "recording.toml", "test"]);
    assert_eq!(run.code, 1, "{}", run.seen());
    assert!(run.stdout.contains("FAIL  lamp  \"switch the office lamp on\""), "{}", run.stdout);
    insta::assert_snapshot!(run.seen());
}

#[test]
fn naming_a_reflex_that_is_not_installed_is_a_usage_error() {
    let world = World::lamp();
    let run = world.evoke(&["--recording", "recording.toml", "test", "ghost"]);
    assert_eq!(run.code, 2, "{}", run.seen());
    insta::assert_snapshot!(run.seen());
}
