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

#[test]
fn trusting_a_changed_project_again_keeps_the_reviews_of_its_playbooks() {
    use evoke_files::{places::Places, project::Location, store::hash_dir, trust};
    let world = World::lamp();
    world.write("playbooks/good_night/playbook.toml", crate::support::GOOD_NIGHT);
    world.edit("evoke.toml", "[reflexes]\n", "[playbooks]\ngood_night = \"playbooks/good_night\"\n\n[reflexes]\n");
    world.trust();
    let places = Places::under(world.home.path());
    let location = Location { root: world.root.path().to_path_buf(), home: false };
    let item = hash_dir(&world.root.path().join("playbooks/good_night")).unwrap();
    trust::record_review(&places, &location, "good_night", &item).unwrap();
    // A review is no change to the project: it still decides.
    let list = world.evoke(&["list"]);
    assert!(list.stderr.is_empty(), "{}", list.seen());

    world.edit("evoke.toml", "[reflexes]\n", "# the lamp\n[reflexes]\n");
    let run = world.evoke(&["trust"]);
    assert_eq!(run.code, 0, "{}", run.seen());
    assert!(trust::reviewed(&places, &location, "good_night", &item).unwrap(), "the review was kept");
    // The playbook changed: the same review no longer covers it.
    world.edit("playbooks/good_night/playbook.toml", "Wind the house", "Wind the whole house");
    let changed = hash_dir(&world.root.path().join("playbooks/good_night")).unwrap();
    assert_ne!(changed, item);
    assert!(!trust::reviewed(&places, &location, "good_night", &changed).unwrap());
}
