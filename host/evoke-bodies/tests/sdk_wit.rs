//! The Rust SDK carries its own copy of the body world's WIT (`sdk/rust/wit/`), so that the crate builds
//! outside this repository. The copy must be the world this host runs, `wit/reflex/v1`, byte for byte.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// Every file of `dir` (not recursing), by name, with its bytes. A missing or empty folder fails.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{} cannot be read: {e}", dir.display()));
    let mut files = BTreeMap::new();
    for entry in entries {
        let entry = entry.unwrap();
        let path = entry.path();
        assert!(path.is_file(), "{} holds {}, which is not a file: the world is flat", dir.display(), path.display());
        files.insert(entry.file_name().to_string_lossy().into_owned(), std::fs::read(&path).unwrap());
    }
    assert!(!files.is_empty(), "{} holds no file", dir.display());
    files
}

/// The names that differ between two folders' listings, and the files that differ in their bytes.
fn differences(a: &BTreeMap<String, Vec<u8>>, b: &BTreeMap<String, Vec<u8>>) -> Vec<String> {
    let mut out = Vec::new();
    for (name, bytes) in a {
        match b.get(name) {
            None => out.push(format!("{name} is missing from the SDK's copy")),
            Some(other) if other != bytes => out.push(format!("{name} differs")),
            Some(_) => {}
        }
    }
    for name in b.keys().filter(|n| !a.contains_key(*n)) {
        out.push(format!("{name} is in the SDK's copy only"));
    }
    out
}

#[test]
fn the_sdk_carries_the_body_world_byte_for_byte() {
    let world = files(&root().join("wit/reflex/v1"));
    let copy = files(&root().join("sdk/rust/wit"));
    assert!(world.contains_key("body.wit") && world.contains_key("types.wit"), "{:?}", world.keys());
    let diff = differences(&world, &copy);
    assert!(
        diff.is_empty(),
        "sdk/rust/wit is not wit/reflex/v1: {}; fix: cp wit/reflex/v1/*.wit sdk/rust/wit/",
        diff.join(", ")
    );
}

#[test]
fn a_changed_byte_or_a_missing_file_is_a_difference() {
    let world = files(&root().join("wit/reflex/v1"));
    let mut changed = world.clone();
    changed.get_mut("types.wit").unwrap().push(b'\n');
    assert_eq!(differences(&world, &changed), vec!["types.wit differs".to_string()]);
    let mut fewer = world.clone();
    fewer.remove("body.wit");
    assert_eq!(differences(&world, &fewer), vec!["body.wit is missing from the SDK's copy".to_string()]);
    let mut more = world.clone();
    more.insert("extra.wit".into(), Vec::new());
    assert_eq!(differences(&world, &more), vec!["extra.wit is in the SDK's copy only".to_string()]);
}
