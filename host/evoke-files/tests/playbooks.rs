//! Remote playbooks, against repositories served on loopback by `git http-backend`: added, stored, locked
//! and hashed as a reflex is; updated with the level of each change (a new step or a stronger effect is
//! major); a review bound to the content it saw.

mod support;

use evoke_core::contract::Level;
use evoke_core::manifest::Effect;
use evoke_files::fetch::Fetcher;
use evoke_files::install::{Event, add, update};
use evoke_files::lock::Lock;
use evoke_files::places::Places;
use evoke_files::project::{Location, load_in};
use evoke_files::store::{Store, hash_dir};
use evoke_files::trust;
use support::git_server::{GitServer, Upstream, manifest};

struct World {
    _dir: tempfile::TempDir,
    root: std::path::PathBuf,
    server: GitServer,
    places: Places,
    location: Location,
}

impl World {
    /// A trusted project with two local reflexes: `lights` (write) and `alarm` (destructive).
    fn new() -> World {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        std::fs::create_dir_all(root.join("served")).unwrap();
        let server = GitServer::start(&root.join("served"));
        let places = Places::under(&root.join("home"));
        let project = root.join("proj");
        for (name, effect) in [("lights", "write"), ("alarm", "destructive")] {
            std::fs::create_dir_all(project.join("reflexes").join(name)).unwrap();
            let text = manifest(&format!("The {name}."), effect, &format!("{name} on"));
            std::fs::write(project.join("reflexes").join(name).join("reflex.toml"), text).unwrap();
        }
        std::fs::write(
            project.join("evoke.toml"),
            "[reflexes]\nlights = \"reflexes/lights\"\nalarm = \"reflexes/alarm\"\n",
        )
        .unwrap();
        let location = Location { root: project, home: false };
        trust::record(&places, &location).unwrap();
        World { _dir: dir, root, server, places, location }
    }

    fn upstream(&self, name: &str) -> Upstream {
        Upstream::new(&self.root.join("served"), &self.root, name)
    }

    fn fetcher(&self) -> Fetcher {
        let base = format!("http://127.0.0.1:{}", self.server.port);
        Fetcher::new(&self.places.cache).with_redirect(move |repository| {
            repository.strip_prefix("https://example.test/").map(|name| format!("{base}/{name}.git"))
        })
    }
}

/// A playbook whose steps call the given reflexes, each with `state = "on"`.
fn playbook(description: &str, calls: &[&str]) -> String {
    let mut text = format!("playbook = 1\ndescription = \"{description}\"\n\n[examples]\n\"good night\" = true\n");
    for call in calls {
        text.push_str(&format!("\n[[steps]]\ncall = \"{call}\"\nargs = {{ state = \"on\" }}\n"));
    }
    text
}

fn level_taken(events: &[Event], name: &str) -> Option<Level> {
    events.iter().find_map(|e| match e {
        Event::Taken { name: n, level, .. } if n == name => *level,
        _ => None,
    })
}

#[test]
fn a_remote_playbook_is_added_stored_locked_and_hashed_as_a_reflex() {
    let world = World::new();
    let up = world.upstream("night");
    up.commit(&[("playbook.toml", &playbook("Wind down.", &["lights"]))], "v1");
    up.tag("v1.0.0", false);

    let added = add(
        &world.places,
        &world.location,
        &mut world.fetcher(),
        &world.location.root,
        "night",
        "https://example.test/night@v1.0.0",
        None,
        None,
    )
    .unwrap();
    assert_eq!(added.playbook.as_ref().unwrap().steps.len(), 1);
    let locked = added.locked.clone().unwrap();
    assert_eq!(locked.effect, Effect::Write, "the strongest effect among its steps is consented to");
    let lock = Lock::load(&world.location.root).unwrap();
    assert!(lock.reflexes.is_empty(), "{lock:?}");
    assert_eq!(lock.playbooks["night"], locked);
    let toml = std::fs::read_to_string(world.location.root.join("evoke.toml")).unwrap();
    assert!(toml.contains("[playbooks]\nnight = { ref = \"https://example.test/night\", tag = \"v1.0.0\" }"), "{toml}");
    trust::check(&world.places, &world.location).unwrap();

    let project = load_in(world.location.clone(), &world.places).unwrap();
    let installed = project.playbook("night").unwrap();
    assert!(installed.status.is_ok(), "{:?}", installed.status);
    assert_eq!(installed.item, locked.h1);
    let store_copy = Store::new(&world.places.data).path_of(&locked.h1).unwrap();
    assert_eq!(hash_dir(&store_copy).unwrap(), locked.h1);
    assert!(project.catalog().playbook("night").is_some());
}

#[test]
fn an_update_classes_a_new_step_or_a_stronger_effect_as_major_and_unbinds_the_review() {
    let world = World::new();
    let up = world.upstream("night");
    up.commit(&[("playbook.toml", &playbook("Wind down.", &["lights"]))], "v1");
    up.tag("v1.0.0", false);
    let fetcher = &mut world.fetcher();
    let root = world.location.root.clone();
    add(&world.places, &world.location, fetcher, &root, "night", "https://example.test/night@v1.0.0", None, None)
        .unwrap();
    let first = Lock::load(&root).unwrap().playbooks["night"].clone();
    trust::record_review(&world.places, &world.location, "night", &first.h1).unwrap();

    // A wording change alone: a patch.
    up.commit(&[("playbook.toml", &playbook("Wind the house down.", &["lights"]))], "wording");
    up.tag("v1.0.1", false);
    let report = update(&world.places, &world.location, &mut world.fetcher(), false, None).unwrap();
    assert_eq!(level_taken(&report.events, "night"), Some(Level::Patch), "{:?}", report.events);

    // A new step, and a destructive one: major, and the lock takes the stronger effect at once.
    up.commit(&[("playbook.toml", &playbook("Wind the house down.", &["lights", "alarm"]))], "alarm");
    up.tag("v1.1.0", false);
    let report = update(&world.places, &world.location, &mut world.fetcher(), false, None).unwrap();
    assert_eq!(level_taken(&report.events, "night"), Some(Level::Major), "{:?}", report.events);
    assert!(
        report.events.iter().any(|e| matches!(e, Event::Tightened { to: Effect::Destructive, .. })),
        "{:?}",
        report.events
    );
    let now = Lock::load(&root).unwrap().playbooks["night"].clone();
    assert_eq!((now.tag.as_str(), now.effect), ("v1.1.0", Effect::Destructive));
    trust::check(&world.places, &world.location).unwrap();

    // What the person reviewed was the first version: the new content is not reviewed.
    let project = load_in(world.location.clone(), &world.places).unwrap();
    let item = &project.playbook("night").unwrap().item;
    assert_eq!(*item, now.h1);
    assert!(trust::reviewed(&world.places, &world.location, "night", &first.h1).unwrap());
    assert!(!trust::reviewed(&world.places, &world.location, "night", item).unwrap());

    // Nothing newer: unchanged, and the lock as it was.
    let report = update(&world.places, &world.location, &mut world.fetcher(), false, None).unwrap();
    assert!(report.events.contains(&Event::Unchanged { name: "night".into(), tag: "v1.1.0".into() }));
    assert_eq!(Lock::load(&root).unwrap().playbooks["night"], now);

    // Taken out of evoke.toml: its lock entry is dropped.
    std::fs::write(root.join("evoke.toml"), "[reflexes]\nlights = \"reflexes/lights\"\nalarm = \"reflexes/alarm\"\n")
        .unwrap();
    let report = update(&world.places, &world.location, &mut world.fetcher(), false, None).unwrap();
    assert!(report.events.contains(&Event::Dropped { name: "night".into() }), "{:?}", report.events);
    assert!(Lock::load(&root).unwrap().playbooks.is_empty());
}
