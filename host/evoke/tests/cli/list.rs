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
