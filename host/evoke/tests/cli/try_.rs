//! `evoke try`: the reading of a decision, judgment by judgment, with nothing run; and `evoke why`, which
//! reads a logged decision back the same way.

use crate::support::World;

#[test]
fn the_reading_of_a_complete_call_ranks_every_answer() {
    let world = World::lamp();
    let run = world.evoke(&["--recording", "recording.toml", "try", "turn off the den lamp"]);
    assert_eq!(run.code, 0, "{}", run.seen());
    assert!(run.stdout.contains("run lamp room=\"den\" state=\"off\""), "{}", run.stdout);
    insta::assert_snapshot!(run.seen());
}

#[test]
fn the_reading_of_an_abstain_names_the_route() {
    let world = World::lamp();
    let run = world.evoke(&["--recording", "recording.toml", "try", "order a pizza"]);
    assert_eq!(run.code, 0, "{}", run.seen());
    assert!(run.stdout.contains("abstain · route: none"), "{}", run.stdout);
    insta::assert_snapshot!(run.seen());
}

#[test]
fn why_reads_the_last_decision_as_try_did() {
    let world = World::lamp();
    let tried = world.evoke(&["--recording", "recording.toml", "try", "turn off the den lamp"]);
    assert_eq!(tried.code, 0, "{}", tried.seen());
    let run = world.evoke(&["why"]);
    assert_eq!(run.code, 0, "{}", run.seen());
    assert!(run.stdout.ends_with(&tried.stdout), "why:\n{}\ntry:\n{}", run.stdout, tried.stdout);
    insta::assert_snapshot!(run.seen());
}

#[test]
fn why_past_the_log_says_how_many_it_holds() {
    let world = World::lamp();
    let run = world.evoke(&["why", "3"]);
    assert_eq!(run.code, 2, "{}", run.seen());
    insta::assert_snapshot!(run.seen());
}

#[test]
fn a_sentence_no_recording_holds_is_refused() {
    let world = World::lamp();
    let run = world.evoke(&["--recording", "recording.toml", "try", "dim the hall"]);
    assert_eq!(run.code, 6, "{}", run.seen());
    assert!(run.stderr.starts_with("error: "), "{}", run.stderr);
    insta::assert_snapshot!(run.seen());
}

#[test]
fn an_engine_other_than_the_one_the_lock_pins_decides_nothing_until_update() {
    let world = World::lamp();
    world.write("evoke.lock", "[adapter]\nname = \"openai\"\nid = \"openai/some-model\"\n");
    world.trust();
    let run = world.evoke(&["try", "turn off the den lamp"]);
    assert_eq!(run.code, 3, "{}", run.seen());
    assert!(run.stderr.contains("[adapter] pins openai (openai/some-model)"), "{}", run.seen());
    assert!(run.stderr.contains("evoke update"), "the fix: {}", run.seen());
    // A recording answers in place of any engine: the pin does not hold it.
    let recorded = world.evoke(&["--recording", "recording.toml", "try", "turn off the den lamp"]);
    assert_eq!(recorded.code, 0, "{}", recorded.seen());
    let updated = world.evoke(&["update"]);
    assert_eq!(updated.code, 0, "{}", updated.seen());
    assert!(world.read("evoke.lock").contains("name = \"local\""), "{}", world.read("evoke.lock"));
    let run = world.evoke(&["try", "turn off the den lamp"]);
    assert_ne!(run.code, 3, "{}", run.seen());
    assert!(!run.stderr.contains("pins"), "{}", run.seen());
}
