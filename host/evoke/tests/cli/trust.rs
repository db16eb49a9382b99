//! `evoke trust`: the files a project's trust binds to, each with its hash, as they are recorded.

use crate::support::World;

#[test]
fn a_project_is_trusted_bound_to_its_files() {
    let world = World::unconfigured_lamp();
    let run = world.evoke(&["trust"]);
    assert_eq!(run.code, 0, "{}", run.seen());
    assert!(run.stdout.starts_with("trusting ., bound to"), "{}", run.stdout);
    insta::assert_snapshot!(run.seen());
}

#[test]
fn a_project_changed_since_it_was_trusted_names_what_changed() {
    let world = World::lamp();
    world.edit("evoke.toml", "[reflexes]\n", "[reflexes]\nghost = \"reflexes/ghost\"\n");
    let run = world.evoke(&["trust"]);
    assert_eq!(run.code, 0, "{}", run.seen());
    assert!(run.stdout.contains("changed since you trusted it (evoke.toml)"), "{}", run.stdout);
    insta::assert_snapshot!(run.seen());
}

#[test]
fn an_empty_project_lists_nothing_and_says_how_to_add() {
    let world = World::empty();
    world.write("evoke.toml", "[reflexes]\n");
    world.trust();
    let run = world.evoke(&["list"]);
    assert_eq!(run.code, 0, "{}", run.seen());
    insta::assert_snapshot!(run.seen());
}
