//! `evoke add NAME PATH`: a local reflex installed, with what it is granted, its lint, and the theft test.

use crate::support::{LAMP, LAMP_BODY, World};

#[test]
fn a_local_reflex_is_added_with_its_effect_and_the_theft_test() {
    let world = World::lamp();
    world.write("reflexes/desk/reflex.toml", &LAMP.replace("lamp.mjs", "desk.mjs"));
    world.write("reflexes/desk/desk.mjs", LAMP_BODY);
    let run = world.evoke(&["--recording", "recording.toml", "add", "desk", "reflexes/desk"]);
    assert_eq!(run.code, 0, "{}", run.seen());
    assert!(run.stdout.starts_with("added desk: reflexes/desk · write"), "{}", run.stdout);
    insta::assert_snapshot!(run.seen());
}

#[test]
fn a_reflex_is_not_added_to_an_untrusted_project() {
    let world = World::unconfigured_lamp();
    let run = world.evoke(&["add", "desk", "reflexes/desk"]);
    assert_eq!(run.code, 3, "{}", run.seen());
    assert!(run.stderr.ends_with("  = fix: evoke trust\n"), "{}", run.stderr);
    insta::assert_snapshot!(run.seen());
}

#[test]
fn a_directory_without_a_manifest_is_refused() {
    let world = World::lamp();
    world.write("reflexes/empty/notes.txt", "nothing here\n");
    let run = world.evoke(&["add", "empty", "reflexes/empty"]);
    assert_eq!(run.code, 2, "{}", run.seen());
    insta::assert_snapshot!(run.seen());
}

#[test]
fn a_local_playbook_is_added_under_playbooks_with_its_steps_and_effect() {
    let world = World::lamp();
    world.write("playbooks/good_night/playbook.toml", crate::support::GOOD_NIGHT);
    let run = world.evoke(&["--recording", "recording.toml", "add", "good_night", "playbooks/good_night"]);
    assert_eq!(run.code, 0, "{}", run.seen());
    assert!(
        run.stdout.starts_with("added playbook good_night: playbooks/good_night · 2 steps · at most write\n"),
        "{}",
        run.stdout
    );
    assert!(
        world.read("evoke.toml").contains("[playbooks]\ngood_night = \"playbooks/good_night\"\n"),
        "{}",
        world.read("evoke.toml")
    );
    // evoke's own write keeps the project trusted, and the playbook is active in it.
    let list = world.evoke(&["list"]);
    assert!(list.stdout.contains("good_night  write  playbooks/good_night  active"), "{}", list.seen());
    insta::assert_snapshot!(run.seen());
}

#[test]
fn a_playbook_may_not_take_a_reflexs_name() {
    let world = World::lamp();
    world.write("playbooks/good_night/playbook.toml", crate::support::GOOD_NIGHT);
    let run = world.evoke(&["add", "lamp", "playbooks/good_night"]);
    assert_eq!(run.code, 2, "{}", run.seen());
    assert!(run.stderr.contains("`lamp` is already installed (reflexes/lamp)"), "{}", run.stderr);
    assert!(!world.read("evoke.toml").contains("playbooks"), "nothing was written");
    insta::assert_snapshot!(run.seen());
}
