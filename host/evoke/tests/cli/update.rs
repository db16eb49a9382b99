//! `evoke update`: one line per event, in the words a person reads, and a project with nothing fetched.

use crate::support::World;
use evoke::commands::update::line;
use evoke_core::contract::{Level, Widened};
use evoke_core::manifest::Effect;
use evoke_files::install::Event;

#[test]
fn a_project_with_nothing_fetched_has_nothing_to_update() {
    let world = World::lamp();
    let run = world.evoke(&["update"]);
    assert_eq!(run.code, 0, "{}", run.seen());
    assert_eq!(run.stdout, "nothing to update: no reflex or playbook of this project is fetched\n");
    insta::assert_snapshot!(run.seen());
}

#[test]
fn a_local_playbook_is_never_fetched_nor_locked() {
    let world = World::lamp();
    world.write("playbooks/good_night/playbook.toml", crate::support::GOOD_NIGHT);
    world.edit("evoke.toml", "[reflexes]\n", "[playbooks]\ngood_night = \"playbooks/good_night\"\n\n[reflexes]\n");
    world.trust();
    let run = world.evoke(&["update"]);
    assert_eq!(run.code, 0, "{}", run.seen());
    assert_eq!(run.stdout, "nothing to update: no reflex or playbook of this project is fetched\n");
    // The lock pins the engine, and nothing of the playbook.
    let lock = std::fs::read_to_string(world.root.path().join("evoke.lock")).unwrap_or_default();
    assert!(!lock.contains("playbooks") && !lock.contains("good_night"), "{lock}");
}

#[test]
fn an_untrusted_project_is_not_updated() {
    let world = World::unconfigured_lamp();
    let run = world.evoke(&["update"]);
    assert_eq!(run.code, 3, "{}", run.seen());
    insta::assert_snapshot!(run.seen());
}

#[test]
fn every_event_reads_as_one_line() {
    let name = || "lamp".to_string();
    let grants = vec![
        Widened::File { path: "~/notes".into(), access: "write", was: Some("read") },
        Widened::Host { host: "api.example.com:443".into() },
    ];
    let events = [
        Event::Taken { name: name(), from: None, to: "v1.0.0".into(), level: None },
        Event::Taken { name: name(), from: Some("v1.0.0".into()), to: "v1.0.0".into(), level: None },
        Event::Taken { name: name(), from: Some("v1.0.0".into()), to: "v1.1.0".into(), level: Some(Level::Minor) },
        Event::Taken { name: name(), from: Some("v1.0.0".into()), to: "v1.0.1".into(), level: Some(Level::None) },
        Event::Unchanged { name: name(), tag: "v1.0.0".into() },
        Event::Rewritten { name: name(), file: "overlays/lamp.toml".into(), from: "colour".into(), to: "color".into() },
        Event::Stale {
            name: name(),
            file: "overlays/lamp.toml".into(),
            line: 3,
            message: "`hue` is no argument of lamp".into(),
            fix: "remove [args.hue]".into(),
        },
        Event::Orphaned { file: "vocab/rooms.toml".into(), why: "no reflex uses it".into() },
        Event::Loosened { name: name(), consented: Effect::Write, upstream: Effect::Destructive },
        Event::Accepted { name: name(), from: Effect::Write, to: Effect::Destructive },
        Event::Widened { name: name(), tag: "v1.2.0".into(), kept: "v1.1.0".into(), grants: grants.clone() },
        Event::GrantsAccepted { name: name(), tag: "v1.2.0".into(), grants },
        Event::Tightened { name: name(), from: Effect::Write, to: Effect::Read },
        Event::Major { name: name(), tag: "v2.0.0".into() },
        Event::Moved {
            name: name(),
            tag: "v1.0.0".into(),
            locked: "0123456789abcdef0123".into(),
            now: "fedcba9876543210fedc".into(),
        },
        Event::Failed { name: name(), why: "the remote sent \u{1b}[2J".into() },
        Event::Dropped { name: name() },
    ];
    let shown: String = events.iter().map(line).collect();
    assert!(shown.contains("\\u{1B}[2J"), "a remote's words are escaped: {shown}");
    insta::assert_snapshot!(shown);
}
