//! Errors a person meets first, each with its fix.

use crate::support::World;

#[test]
fn an_untrusted_project_says_how_to_trust_it() {
    let world = World::empty();
    world.write("evoke.toml", "[reflexes]\n");
    let run = world.evoke(&["turn on the lights"]);
    assert_eq!(run.code, 3, "{}", run.seen());
    assert!(run.stderr.contains("= fix: evoke trust"), "{}", run.stderr);
    insta::assert_snapshot!(run.seen());
}

#[test]
fn a_project_file_that_does_not_read_names_its_line() {
    let world = World::empty();
    world.write("evoke.toml", "[reflexes]\nlamp = 3\n");
    let run = world.evoke(&["list"]);
    assert_eq!(run.code, 2, "{}", run.seen());
    assert!(run.stderr.contains("evoke.toml"), "{}", run.stderr);
    insta::assert_snapshot!(run.seen());
}

#[test]
fn an_unknown_flag_is_a_usage_error() {
    let run = World::empty().evoke(&["--loud", "hello"]);
    assert_eq!(run.code, 2, "{}", run.seen());
    insta::assert_snapshot!(run.seen());
}

#[test]
fn run_of_a_reflex_that_is_not_installed_is_a_usage_error() {
    let world = World::lamp();
    let run = world.evoke(&["run", "ghost", "room=den"]);
    assert_eq!(run.code, 2, "{}", run.seen());
    insta::assert_snapshot!(run.seen());
}

#[test]
fn a_missing_recording_names_the_file() {
    let world = World::lamp();
    let run = world.evoke(&["--recording", "nowhere.toml", "try", "turn off the den lamp"]);
    assert_ne!(run.code, 0, "{}", run.seen());
    assert!(run.stderr.contains("nowhere.toml"), "{}", run.stderr);
    insta::assert_snapshot!(run.seen());
}

#[test]
fn a_sentence_typed_without_quotes_that_starts_with_a_command_says_to_quote_it() {
    let run = World::empty().evoke(&["--json", "check", "the", "kitchen", "lights"]);
    assert_eq!(run.code, 2, "{}", run.seen());
    assert!(run.stderr.contains("unexpected argument"), "clap's own error first: {}", run.stderr);
    assert!(
        run.stderr.contains("`check` is one of evoke's commands")
            && run.stderr.contains("put the sentence in quotes: evoke --json 'check the kitchen lights'"),
        "{}",
        run.stderr
    );
    // A command given what it takes is no sentence, and an unknown flag is no command.
    let flag = World::empty().evoke(&["--loud", "hello"]);
    assert!(!flag.stderr.contains("in quotes"), "{}", flag.stderr);
}

#[test]
fn an_argument_that_is_not_utf8_is_a_usage_error_never_a_panic() {
    let run = World::empty().evoke_bytes(&[b"--json", b"turn off the den \xff lights"]);
    assert_eq!(run.code, 2, "{}", run.seen());
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(run.stderr.contains("invalid UTF-8"), "clap's own error: {}", run.stderr);
}

#[test]
fn under_json_an_untrusted_project_still_gives_every_input_its_line() {
    let world = World::empty();
    world.write("evoke.toml", "[reflexes]\n");
    let one = world.evoke(&["--json", "turn on the lights"]);
    assert_eq!(one.code, 3, "{}", one.seen());
    let line: serde_json::Value = serde_json::from_str(one.stdout.trim()).expect("one JSON line");
    assert_eq!(line["input"], "turn on the lights");
    assert_eq!(line["fault"]["type"], "project", "{line}");
    assert!(one.stderr.contains("= fix: evoke trust"), "the error is still said: {}", one.stderr);
    let filtered = world.evoke_with(&["--json"], Some("turn on the lights\n\nset a timer\n"), &[]);
    assert_eq!(filtered.code, 3, "{}", filtered.seen());
    let inputs: Vec<String> = filtered
        .stdout
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).expect("a JSON line")["input"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(inputs, ["turn on the lights", "set a timer"], "a line per input, the blank one skipped");
    let tried = world.evoke(&["--json", "try", "turn on the lights"]);
    assert_eq!(serde_json::from_str::<serde_json::Value>(tried.stdout.trim()).unwrap()["fault"]["type"], "project");
}

#[test]
fn a_decision_says_which_installed_reflex_takes_no_part_and_why() {
    let world = World::lamp();
    world.write("evoke.toml", "[reflexes]\nlamp = \"reflexes/lamp\"\nfan = \"reflexes/fan\"\n");
    world.write("reflexes/fan/reflex.toml", "reflex = 1\ndescription = \"A fan.\"\neffect = \"sideways\"\n");
    world.trust();
    let run = world.evoke(&["--recording", "recording.toml", "try", "turn off the den lamp"]);
    assert_eq!(run.code, 0, "the lamp is still decided: {}", run.seen());
    assert!(run.stderr.contains("warning: fan is inactive and takes no part in deciding"), "{}", run.stderr);
    assert!(run.stderr.contains("= fix: evoke check"), "{}", run.stderr);
}
