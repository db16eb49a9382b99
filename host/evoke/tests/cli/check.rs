//! `evoke check`: a manifest's refusals in rustc's shape, its lint findings, and a directory that is no
//! reflex.

use crate::support::World;

#[test]
fn a_refused_manifest_shows_each_diagnostic_with_its_line_key_and_fix() {
    let world = World::empty();
    // An argument with no `ask`, an unknown effect: each refused with its line.
    let broken = crate::support::LAMP.replace("effect = \"write\"", "effect = \"sometimes\"");
    assert_ne!(broken, crate::support::LAMP, "the manifest was changed");
    world.write("reflexes/lamp/reflex.toml", &broken);
    world.write("reflexes/lamp/lamp.mjs", crate::support::LAMP_BODY);
    let run = world.evoke(&["check", "reflexes/lamp"]);
    assert_eq!(run.code, 2, "{}", run.seen());
    assert!(run.stderr.contains("reflex.toml:3:"), "{}", run.stderr);
    insta::assert_snapshot!(run.seen());
}

#[test]
fn a_manifest_that_reads_says_what_it_holds() {
    let world = World::empty();
    // One example only and no description of the word it needs: lint speaks, the manifest still reads.
    let thin = crate::support::LAMP.replace(
        "[tests]\n\"switch the office lamp on\" = { room = \"office\", state = \"on\" }\n\"order a pizza\" = false\n",
        "",
    );
    assert_ne!(thin, crate::support::LAMP, "the manifest was changed");
    world.write("reflexes/lamp/reflex.toml", &thin);
    world.write("reflexes/lamp/lamp.mjs", crate::support::LAMP_BODY);
    let run = world.evoke(&["check", "reflexes/lamp"]);
    assert_eq!(run.code, 0, "{}", run.seen());
    assert!(run.stdout.contains("reads · write · 2 arguments"), "{}", run.stdout);
    insta::assert_snapshot!(run.seen());
}

#[test]
fn a_directory_without_a_manifest_says_where_to_run_it() {
    let world = World::empty();
    world.write("notes.txt", "not a reflex\n");
    let run = world.evoke(&["check"]);
    assert_eq!(run.code, 2, "{}", run.seen());
    assert!(run.stderr.contains("holds neither reflex.toml nor playbook.toml"), "{}", run.stderr);
    assert!(run.stderr.contains("= fix: `evoke check` takes a reflex or playbook directory"), "{}", run.stderr);
    insta::assert_snapshot!(run.seen());
}

#[test]
fn a_playbook_is_checked_against_the_project_with_every_refusal_at_its_line() {
    let world = World::lamp();
    // Step 1 calls what is not installed; step 2 gives the lamp a state it has no option for; step 3 asks
    // for a field step 2 never yields.
    let broken = "playbook = 1\ndescription = \"Wind the house down.\"\n\n[examples]\n\"good night\" = true\n\n\
                  [[steps]]\ncall = \"heater\"\n\n\
                  [[steps]]\ncall = \"lamp\"\nargs = { room = \"den\", state = \"dim\" }\n\n\
                  [[steps]]\nsay = \"switch the office lamp off\"\nwhen = { step = 2, field = \"state\", is = \"on\" }\n";
    world.write("playbooks/good_night/playbook.toml", broken);
    let run = world.evoke(&["check", "playbooks/good_night"]);
    assert_eq!(run.code, 2, "{}", run.seen());
    for line in [8, 12, 16] {
        assert!(run.stderr.contains(&format!("playbook.toml:{line}:")), "line {line}: {}", run.stderr);
    }
    assert!(run.stderr.contains("refused (3 errors)"), "{}", run.stderr);
    insta::assert_snapshot!(run.seen());
}

#[test]
fn a_playbook_that_passes_says_its_steps_and_strongest_effect() {
    let world = World::lamp();
    world.write("playbooks/good_night/playbook.toml", crate::support::GOOD_NIGHT);
    world.edit("evoke.toml", "[reflexes]\n", "[playbooks]\nnight = \"playbooks/good_night\"\n\n[reflexes]\n");
    let run = world.evoke(&["check", "playbooks/good_night"]);
    assert_eq!(run.code, 0, "{}", run.seen());
    // Its local name is the one evoke.toml gives it, not its directory's.
    assert!(run.stdout.contains("reads · playbook night · 2 steps · 0 slots · at most write"), "{}", run.stdout);
    insta::assert_snapshot!(run.seen());
}

#[test]
fn a_call_of_a_playbook_installed_but_inactive_says_so_and_why() {
    let world = World::lamp();
    // Each calls the other: both are inactive, and checking one names the other as inactive, not unknown.
    let calling =
        |other: &str| format!("playbook = 1\ndescription = \"Call {other}.\"\n[[steps]]\ncall = \"{other}\"\n");
    world.write("playbooks/x/playbook.toml", &calling("y"));
    world.write("playbooks/y/playbook.toml", &calling("x"));
    world.edit("evoke.toml", "[reflexes]\n", "[playbooks]\nx = \"playbooks/x\"\ny = \"playbooks/y\"\n\n[reflexes]\n");
    let run = world.evoke(&["check", "playbooks/x"]);
    assert_eq!(run.code, 2, "{}", run.seen());
    assert!(run.stderr.contains("step 1 calls \"y\", which is installed but inactive: "), "{}", run.stderr);
    assert!(run.stderr.contains("playbooks nest one level only"), "{}", run.stderr);
    assert!(!run.stderr.contains("no installed reflex or playbook"), "{}", run.stderr);
}
