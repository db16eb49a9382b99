//! `evoke man`: the manual page, in roff.

use crate::support::World;

#[test]
fn the_manual_names_evoke_and_every_command() {
    let run = World::empty().evoke(&["man"]);
    assert_eq!(run.code, 0, "{}", run.seen());
    assert!(run.stdout.contains(".TH evoke 1"), "a section 1 page");
    for section in [".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION"] {
        assert!(run.stdout.contains(section), "lacks {section}");
    }
    for command in ["check", "try", "run", "config", "test", "calibrate", "add", "adapter", "update", "list"] {
        assert!(run.stdout.contains(command), "lacks {command}");
    }
}
