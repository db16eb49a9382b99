//! `evoke list`: every installed reflex, and why one is inactive with the fix.

use crate::support::World;

#[test]
fn the_active_and_the_inactive_with_why_and_fix() {
    let world = World::lamp();
    let file = world.read("evoke.toml").replace("[reflexes]\n", "[reflexes]\nghost = \"reflexes/ghost\"\n");
    world.write("evoke.toml", &file);
    world.trust();
    let run = world.evoke(&["list"]);
    assert_eq!(run.code, 0, "{}", run.seen());
    assert!(run.stdout.contains("lamp   write  reflexes/lamp   active"), "{}", run.stdout);
    assert!(run.stdout.contains("ghost") && run.stdout.contains("= fix:"), "{}", run.stdout);
    insta::assert_snapshot!(run.seen());
}

#[test]
fn a_playbook_is_listed_as_one_with_its_steps_and_strongest_effect() {
    let world = World::lamp();
    world.write("playbooks/good_night/playbook.toml", crate::support::GOOD_NIGHT);
    world.write("playbooks/broken/playbook.toml", &crate::support::GOOD_NIGHT.replace("\"lamp\"", "\"heater\""));
    world.edit(
        "evoke.toml",
        "[reflexes]\n",
        "[playbooks]\ngood_night = \"playbooks/good_night\"\nbroken = \"playbooks/broken\"\n\n[reflexes]\n",
    );
    world.trust();
    let run = world.evoke(&["list"]);
    assert_eq!(run.code, 0, "{}", run.seen());
    assert!(
        run.stdout.contains(
            "good_night  write  playbooks/good_night  active    playbook, 2 steps: Wind the house down for the night."
        ),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("broken      -      playbooks/broken      inactive"), "{}", run.stdout);
    assert!(run.stdout.contains("heater"), "the reason names what is not installed: {}", run.stdout);
    insta::assert_snapshot!(run.seen());
}
