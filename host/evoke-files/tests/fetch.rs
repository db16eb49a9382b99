//! Fetching from real repositories served on loopback by `git http-backend`: tags, a shallow fetch of
//! one tag, a reflex in a subdirectory, and the refusals (a symlink, a submodule, no version tag, a
//! tag that moved after locking).

mod support;

use evoke_core::refs::parse_ref;
use evoke_files::fetch::{FetchError, Fetcher};
use evoke_files::install::{Event, update};
use evoke_files::lock::Lock;
use evoke_files::places::Places;
use evoke_files::project::Location;
use evoke_files::store::{Store, hash_dir};
use std::path::Path;
use support::git_server::{GitServer, Upstream, git, manifest};

struct World {
    _dir: tempfile::TempDir,
    root: std::path::PathBuf,
    server: GitServer,
}

impl World {
    fn new() -> World {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        std::fs::create_dir_all(root.join("served")).unwrap();
        let server = GitServer::start(&root.join("served"));
        World { _dir: dir, root, server }
    }

    fn upstream(&self, name: &str) -> Upstream {
        Upstream::new(&self.root.join("served"), &self.root, name)
    }

    /// A fetcher whose refs `https://example.test/NAME` lead to the loopback server.
    fn fetcher(&self) -> Fetcher {
        let base = format!("http://127.0.0.1:{}", self.server.port);
        Fetcher::new(&self.root.join("scratch")).with_redirect(move |repository| {
            repository.strip_prefix("https://example.test/").map(|name| format!("{base}/{name}.git"))
        })
    }
}

#[test]
fn lists_version_tags_and_fetches_one_shallow() {
    let world = World::new();
    let up = world.upstream("lights");
    up.commit(&[("reflex.toml", &manifest("Lights.", "write", "lights on"))], "one");
    up.tag("v1.0.0", false);
    up.commit(&[("README.md", "later\n")], "two");
    up.tag("v1.1.0", false);
    git(&up.work, &["tag", "not-a-version"]);
    git(&up.work, &["push", "-q", "origin", "not-a-version"]);

    let reference = parse_ref("https://example.test/lights").unwrap();
    let fetcher = &mut world.fetcher();
    let mut tags: Vec<String> = fetcher.tags(&reference).unwrap().into_iter().map(|(t, _)| t).collect();
    tags.sort();
    assert_eq!(tags, ["v1.0.0", "v1.1.0"]);
    assert_eq!(fetcher.newest(&reference).unwrap().0.tag(), "v1.1.0");

    let fetched = fetcher.fetch(&reference, "v1.0.0").unwrap();
    let paths: Vec<&str> = fetched.files.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(paths, ["reflex.toml"], "the tree at v1.0.0, without what came later");
    let expected = git(&up.work, &["rev-parse", "v1.0.0^{commit}"]);
    assert_eq!(fetched.commit, expected);

    // Bare and shallow: one commit of history, the one tag, no work tree.
    fetcher.fetch(&reference, "v1.1.0").unwrap();
    let scratch = fetcher.fetched_repository(&reference.repository, "v1.1.0").unwrap();
    assert_eq!(git(scratch, &["rev-list", "--count", "refs/tags/v1.1.0"]), "1");
    assert_eq!(git(scratch, &["rev-parse", "--is-bare-repository"]), "true");
    assert!(scratch.join("shallow").is_file());
    assert_eq!(git(scratch, &["tag", "--list"]), "v1.1.0", "no other tag was fetched");
}

#[test]
fn reads_a_subdirectory_and_hashes_it_like_the_tree() {
    let world = World::new();
    let up = world.upstream("many");
    up.commit(
        &[
            ("home/lights/reflex.toml", &manifest("Lights.", "write", "lights on")),
            ("home/lights/lib/util.mjs", "export const x = 1;\n"),
            ("home/timer/reflex.toml", &manifest("Timer.", "write", "timer on")),
        ],
        "one",
    );
    up.tag("v2.0.0", false);
    let reference = parse_ref("https://example.test/many//home/lights").unwrap();
    let fetched = world.fetcher().fetch(&reference, "v2.0.0").unwrap();
    let store = Store::new(&world.root.join("data"));
    let (h1, dir) = store.put(&fetched.files).unwrap();
    assert_eq!(hash_dir(&up.work.join("home/lights")).unwrap(), h1, "the store holds exactly the reflex directory");
    assert_eq!(store.verify(&h1).unwrap(), dir);
}

#[test]
fn a_symlink_is_refused() {
    let world = World::new();
    let up = world.upstream("linked");
    std::fs::create_dir_all(&up.work).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", up.work.join("body.mjs")).unwrap();
    up.commit(&[("reflex.toml", &manifest("Linked.", "read", "read it"))], "one");
    up.tag("v1.0.0", false);
    let err = world.fetcher().fetch(&parse_ref("https://example.test/linked").unwrap(), "v1.0.0").unwrap_err();
    assert_eq!(err, FetchError::NotRegular { path: "body.mjs".into(), kind: "symlink" });
}

#[test]
fn a_submodule_is_refused() {
    let world = World::new();
    let up = world.upstream("nested");
    let head = up.commit(&[("reflex.toml", &manifest("Nested.", "read", "read it"))], "one");
    // A gitlink entry: what `git submodule add` records in the tree.
    git(&up.work, &["update-index", "--add", "--cacheinfo", &format!("160000,{head},vendor/dep")]);
    git(&up.work, &["commit", "-q", "-m", "submodule"]);
    git(&up.work, &["push", "-q", "origin", "main"]);
    up.tag("v1.0.0", false);
    let err = world.fetcher().fetch(&parse_ref("https://example.test/nested").unwrap(), "v1.0.0").unwrap_err();
    assert_eq!(err, FetchError::NotRegular { path: "vendor/dep".into(), kind: "submodule" });
}

#[test]
fn a_repository_without_a_version_tag_cannot_be_installed() {
    let world = World::new();
    let up = world.upstream("untagged");
    up.commit(&[("reflex.toml", &manifest("Untagged.", "read", "read it"))], "one");
    let reference = parse_ref("https://example.test/untagged").unwrap();
    assert_eq!(world.fetcher().newest(&reference).unwrap_err(), FetchError::NoVersionTag);
    assert_eq!(world.fetcher().fetch(&reference, "v1.0.0").unwrap_err(), FetchError::NoSuchTag("v1.0.0".into()));
}

fn project(root: &Path, body: &str) -> Location {
    std::fs::create_dir_all(root).unwrap();
    std::fs::write(root.join("evoke.toml"), body).unwrap();
    Location { root: root.to_path_buf(), home: false }
}

#[test]
fn a_tag_moved_after_locking_is_refused_and_the_lock_kept() {
    let world = World::new();
    let up = world.upstream("moving");
    up.commit(&[("reflex.toml", &manifest("Moving.", "write", "move it"))], "one");
    up.tag("v1.0.0", false);
    let places = Places::under(&world.root.join("home"));
    let location = project(&world.root.join("proj"), "[reflexes]\n");
    let cwd = location.root.clone();
    let added = evoke_files::install::add(
        &places,
        &location,
        &mut world.fetcher(),
        &cwd,
        "moving",
        "https://example.test/moving@v1.0.0",
        None,
        None,
    )
    .unwrap();
    let locked = added.locked.unwrap();
    let lock_before = std::fs::read_to_string(location.root.join("evoke.lock")).unwrap();

    up.commit(&[("reflex.toml", &manifest("Moving, changed.", "write", "move it"))], "two");
    up.tag("v1.0.0", true);
    let report = update(&places, &location, &mut world.fetcher(), false, None).unwrap();
    assert!(report.failed);
    assert!(
        report
            .events
            .iter()
            .any(|e| matches!(e, Event::Moved { tag, locked: l, .. } if tag == "v1.0.0" && *l == locked.commit)),
        "{:?}",
        report.events
    );
    assert_eq!(std::fs::read_to_string(location.root.join("evoke.lock")).unwrap(), lock_before);

    // Even with the store copy gone, the moved tag is never taken.
    evoke_files::store::remove_tree(&Store::new(&places.data).path_of(&locked.h1).unwrap());
    let report = update(&places, &location, &mut world.fetcher(), false, None).unwrap();
    assert!(report.events.iter().any(|e| matches!(e, Event::Moved { .. })), "{:?}", report.events);
    assert_eq!(Lock::load(&location.root).unwrap().reflexes["moving"], locked);
}
