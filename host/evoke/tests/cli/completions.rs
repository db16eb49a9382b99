//! `evoke completions SHELL`.

use crate::support::World;

#[test]
fn every_shell_gets_a_script_naming_the_commands() {
    let world = World::empty();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let run = world.evoke(&["completions", shell]);
        assert_eq!(run.code, 0, "{shell}: {}", run.seen());
        assert!(run.stderr.is_empty(), "{shell}: {}", run.stderr);
        for command in ["trust", "calibrate", "check", "why", "completions"] {
            assert!(run.stdout.contains(command), "{shell} lacks {command}");
        }
    }
}

#[test]
fn an_unknown_shell_is_a_usage_error() {
    let run = World::empty().evoke(&["completions", "tcsh"]);
    assert_eq!(run.code, 2, "{}", run.seen());
    insta::assert_snapshot!(run.seen());
}
