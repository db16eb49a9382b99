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

/// What a refused fetch leaves: the add fails naming the limit, and neither the store nor the project
/// holds anything of it.
fn add_is_refused_over(world: &World, name: &str, tag: &str) -> evoke_files::limits::Over {
    let reference = parse_ref(&format!("https://example.test/{name}")).unwrap();
    let over = match world.fetcher().fetch(&reference, tag) {
        Err(FetchError::TooLarge(over)) => over,
        other => panic!("expected a refusal over a limit, got {:?}", other.map(|f| f.files.len())),
    };
    let places = Places::under(&world.root.join(format!("home-{name}")));
    let location = project(&world.root.join(format!("proj-{name}")), "[reflexes]\n");
    let error = evoke_files::install::add(
        &places,
        &location,
        &mut world.fetcher(),
        &location.root,
        name,
        &format!("https://example.test/{name}@{tag}"),
        None,
        None,
    )
    .unwrap_err();
    assert!(error.message.contains(over.limit()), "the refusal names the limit: {}", error.message);
    assert!(!places.data.join("store").exists(), "nothing was written to the store");
    assert_eq!(std::fs::read_to_string(location.root.join("evoke.toml")).unwrap(), "[reflexes]\n");
    assert!(!location.root.join("evoke.lock").exists());
    over
}

#[test]
fn a_file_over_16_mib_is_refused_before_anything_is_written() {
    use evoke_files::limits::Over;
    let world = World::new();
    let up = world.upstream("big");
    let reflex = manifest("Big.", "read", "read it");
    std::fs::create_dir_all(&up.work).unwrap();
    std::fs::write(up.work.join("blob.bin"), vec![0u8; 17 << 20]).unwrap();
    up.commit(&[("reflex.toml", &reflex)], "a 17 MiB file of zeros, a few KiB once packed");
    up.tag("v1.0.0", false);
    let over = add_is_refused_over(&world, "big", "v1.0.0");
    assert_eq!(over, Over::File { path: "blob.bin".into(), size: 17 << 20 });
}

#[test]
fn a_component_may_hold_more_than_16_mib_but_no_more_than_the_whole_reflex() {
    use evoke_files::limits::Over;
    let world = World::new();
    // A Python component carries its interpreter: about 18 MB before any code of its own.
    let up = world.upstream("python");
    std::fs::create_dir_all(&up.work).unwrap();
    std::fs::write(up.work.join("body.wasm"), vec![0u8; 18 << 20]).unwrap();
    up.commit(&[("reflex.toml", &manifest("Python.", "read", "read it"))], "an 18 MiB component");
    up.tag("v1.0.0", false);
    let reference = parse_ref("https://example.test/python").unwrap();
    let fetched = world.fetcher().fetch(&reference, "v1.0.0").unwrap();
    let body = fetched.files.iter().find(|(path, _)| path == "body.wasm").expect("the component is fetched");
    assert_eq!(body.1.len(), 18 << 20);

    // The same size under another name is still refused: only a component may be that large.
    let up = world.upstream("named");
    std::fs::create_dir_all(&up.work).unwrap();
    std::fs::write(up.work.join("body.wasm.bin"), vec![0u8; 18 << 20]).unwrap();
    up.commit(&[("reflex.toml", &manifest("Named.", "read", "read it"))], "18 MiB, not a component");
    up.tag("v1.0.0", false);
    let over = add_is_refused_over(&world, "named", "v1.0.0");
    assert_eq!(over, Over::File { path: "body.wasm.bin".into(), size: 18 << 20 });

    // A component past the whole reflex's 64 MiB is refused as a file, naming its own limit.
    let up = world.upstream("huge");
    std::fs::create_dir_all(&up.work).unwrap();
    std::fs::write(up.work.join("huge.wasm"), vec![0u8; 65 << 20]).unwrap();
    up.commit(&[("reflex.toml", &manifest("Huge.", "read", "read it"))], "a 65 MiB component");
    up.tag("v1.0.0", false);
    let over = add_is_refused_over(&world, "huge", "v1.0.0");
    assert_eq!(over, Over::File { path: "huge.wasm".into(), size: 65 << 20 });
    assert_eq!(over.limit(), "at most 64 MiB in a .wasm component");
}

#[test]
fn more_than_64_mib_in_all_is_refused_before_anything_is_written() {
    use evoke_files::limits::Over;
    let world = World::new();
    let up = world.upstream("heavy");
    up.commit(&[("reflex.toml", &manifest("Heavy.", "read", "read it"))], "one");
    // Five files of 15 MiB: each within the per-file limit, 75 MiB together.
    let parts: Vec<String> = (1..=5).map(|i| format!("data/part{i}.bin")).collect();
    up.stage_many(&parts, &vec![0u8; 15 << 20]);
    up.commit_staged("five parts");
    up.tag("v1.0.0", false);
    let over = add_is_refused_over(&world, "heavy", "v1.0.0");
    assert_eq!(over, Over::Total { path: "data/part5.bin".into() });
}

#[test]
fn ten_thousand_files_install_and_one_more_is_refused() {
    use evoke_files::limits::Over;
    let world = World::new();
    let up = world.upstream("many");
    up.commit(&[("reflex.toml", &manifest("Many.", "read", "read it"))], "one");
    // reflex.toml and 9,999 more: exactly the limit.
    let names: Vec<String> = (0..9_999).map(|i| format!("files/f{i:05}")).collect();
    up.stage_many(&names, b"x\n");
    up.commit_staged("9,999 files");
    up.tag("v1.0.0", false);
    up.stage_many(&["files/one-more".to_string()], b"y\n");
    up.commit_staged("one more");
    up.tag("v1.1.0", false);

    let reference = parse_ref("https://example.test/many").unwrap();
    let fetched = world.fetcher().fetch(&reference, "v1.0.0").unwrap();
    assert_eq!(fetched.files.len(), 10_000, "the limit itself is allowed");
    let over = add_is_refused_over(&world, "many", "v1.1.0");
    assert!(matches!(over, Over::Files { .. }), "{over:?}");
}

#[test]
fn a_tree_32_deep_installs_and_33_deep_is_refused() {
    use evoke_files::limits::Over;
    let world = World::new();
    let up = world.upstream("deep");
    up.commit(&[("reflex.toml", &manifest("Deep.", "read", "read it"))], "one");
    let nested = |n: usize| (0..n).map(|i| format!("d{i}")).collect::<Vec<_>>().join("/");
    up.stage_many(&[format!("{}/leaf", nested(32))], b"leaf\n");
    up.commit_staged("32 deep");
    up.tag("v1.0.0", false);
    up.stage_many(&[format!("{}/leaf", nested(33))], b"leaf\n");
    up.commit_staged("33 deep");
    up.tag("v1.1.0", false);

    let reference = parse_ref("https://example.test/deep").unwrap();
    let fetched = world.fetcher().fetch(&reference, "v1.0.0").unwrap();
    assert_eq!(fetched.files.len(), 2, "32 directories deep is allowed");
    let over = add_is_refused_over(&world, "deep", "v1.1.0");
    assert_eq!(over, Over::Depth { path: nested(33) });
}

#[test]
fn a_store_copy_grown_past_the_limits_is_a_miss_without_reading_it() {
    let world = World::new();
    let store = Store::new(&world.root.join("data"));
    let (h1, dir) = store.put(&[("reflex.toml".to_string(), b"reflex = 1\n".to_vec())]).unwrap();
    // Another hand adds a 17 MiB sparse file: the re-hash at start refuses it by its size, unread.
    let grown = dir.join("blob.bin");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::File::create(&grown).unwrap().set_len(17 << 20).unwrap();
    match store.verify(&h1) {
        Err(evoke_files::store::Miss::Unreadable(why)) => assert!(why.contains("at most 16 MiB per file"), "{why}"),
        other => panic!("expected a miss naming the limit, got {other:?}"),
    }
}

#[test]
fn a_commit_larger_than_a_file_may_be_is_refused_unread() {
    use evoke_files::limits::Over;
    let world = World::new();
    let up = world.upstream("wordy");
    std::fs::create_dir_all(&up.work).unwrap();
    std::fs::write(up.work.join("reflex.toml"), manifest("Wordy.", "read", "read it")).unwrap();
    // A commit object is read whole to find its tree: a 17 MiB message makes one larger than a file may be.
    let message = up.work.join("../wordy-message");
    std::fs::write(&message, "x".repeat(17 << 20)).unwrap();
    git(&up.work, &["add", "-A"]);
    git(&up.work, &["commit", "-q", "-F", message.to_str().unwrap()]);
    git(&up.work, &["push", "-q", "origin", "main"]);
    up.tag("v1.0.0", false);
    let over = add_is_refused_over(&world, "wordy", "v1.0.0");
    assert!(matches!(over, Over::File { ref path, .. } if path == "."), "{over:?}");
}
