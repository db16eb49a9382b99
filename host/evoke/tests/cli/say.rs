//! `evoke SENTENCE`: what a person is told when no one can answer, and when nothing does what was asked.

use crate::support::World;

#[test]
fn an_abstain_says_nothing_installed_does_that() {
    let world = World::lamp();
    let run = world.evoke(&["--recording", "recording.toml", "order a pizza"]);
    assert_eq!(run.code, 4, "{}", run.seen());
    insta::assert_snapshot!(run.seen());
}

#[test]
fn a_confirm_without_a_terminal_ends_with_the_literal_command() {
    let world = World::lamp();
    // Under a gate whose write bar the answers do not clear, the call confirms.
    world.edit("recording.toml", "write = 0.8", "write = 0.99");
    let run = world.evoke(&["--recording", "recording.toml", "turn off the den lamp"]);
    assert_eq!(run.code, 3, "{}", run.seen());
    assert!(run.stderr.contains("to answer, run: evoke run lamp room=den state=off"), "{}", run.stderr);
    insta::assert_snapshot!(run.seen());
}

#[test]
fn an_ask_without_a_terminal_names_the_choices() {
    let world = World::lamp();
    world.edit(
        "recording.toml",
        "\"lamp.room\"  = { den = 0.9, office = 0.05, unstated = 0.05 }",
        // `den lamp` asked alone names no room either: the room is still asked for.
        "\"lamp.room\"  = { den = 0.05, office = 0.05, unstated = 0.9 }\n\
         \"weave.alone_9_16_lamp__room\" = { den = 0.05, office = 0.05, unstated = 0.9 }",
    );
    let run = world.evoke(&["--recording", "recording.toml", "turn off the den lamp"]);
    assert_eq!(run.code, 3, "{}", run.seen());
    assert!(run.stderr.contains("room='<den|office>'"), "{}", run.stderr);
    insta::assert_snapshot!(run.seen());
}

#[test]
fn no_sentence_at_a_terminal_less_stdin_is_read_as_the_filter_and_an_empty_one_says_what_to_say() {
    let world = World::lamp();
    let run = world.evoke(&["--recording", "recording.toml", "try"]);
    // stdin is closed, not a terminal: the filter reads no line and is done.
    assert_eq!(run.code, 0, "{}", run.seen());
    insta::assert_snapshot!(run.seen());
}
