//! The WASI WIT vendored beside the adapter world (`wit/adapter/v1/deps/`) is the WIT the host's wasmtime
//! crates bundle, file for file: `wasi:http` from wasmtime-wasi-http, every other package from
//! wasmtime-wasi's `p2`. The bindings are generated from the vendored copy but linked to wasmtime's own
//! (`with:` in `v1.rs`), so a copy that drifted from them would describe a world the host does not serve.
//! Where the copy comes from is said in `wit/adapter/v1/deps/README.md`.

use std::path::{Path, PathBuf};

/// Where the workspace's locked `package` keeps its source: its version from `Cargo.lock`, its folder in
/// cargo's registry. Read from the files, not asked of `cargo metadata`, which wants every package of the
/// lock on disk, other platforms' too, and a fresh machine has fetched only what its build needed.
fn source_of(package: &str) -> PathBuf {
    let lock = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.lock");
    let lock: toml::Table =
        std::fs::read_to_string(&lock).expect("Cargo.lock is there").parse().expect("Cargo.lock reads");
    let version = lock["package"]
        .as_array()
        .expect("a list of packages")
        .iter()
        .find(|p| p["name"].as_str() == Some(package))
        .and_then(|p| p["version"].as_str())
        .unwrap_or_else(|| panic!("{package} is not among the workspace's dependencies"))
        .to_string();
    assert!(
        version.starts_with("48."),
        "the vendored WASI WIT was taken from wasmtime 48; {package} is now {version}: copy its WIT again and \
         update the README",
    );
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").expect("HOME is set")).join(".cargo"));
    let registries = cargo_home.join("registry/src");
    std::fs::read_dir(&registries)
        .unwrap_or_else(|e| panic!("{} cannot be read: {e}", registries.display()))
        .map(|e| e.unwrap().path().join(format!("{package}-{version}")))
        .find(|dir| dir.join("Cargo.toml").is_file())
        .unwrap_or_else(|| panic!("{package} {version} is not in {}", registries.display()))
}

/// The `package wasi:cli@0.2.12;` line of a WIT file.
fn package_line(text: &str) -> &str {
    text.lines().find(|l| l.starts_with("package ")).unwrap_or("(no package line)")
}

#[test]
fn the_vendored_wasi_wit_is_what_wasmtime_bundles() {
    let vendored = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../wit/adapter/v1/deps");
    let wasi = source_of("wasmtime-wasi").join("src/p2/wit/deps");
    let http = source_of("wasmtime-wasi-http").join("wit/deps");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&vendored)
        .expect("wit/adapter/v1/deps is there")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "wit"))
        .collect();
    files.sort();
    let names: Vec<_> = files.iter().map(|f| f.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["cli.wit", "clocks.wit", "filesystem.wit", "http.wit", "io.wit", "random.wit", "sockets.wit"]);
    for (file, name) in files.iter().zip(&names) {
        let bundled = if name == "http.wit" { http.join(name) } else { wasi.join(name) };
        let ours = std::fs::read_to_string(file).unwrap();
        let theirs = std::fs::read_to_string(&bundled)
            .unwrap_or_else(|e| panic!("{} is not bundled by wasmtime ({e})", bundled.display()));
        assert_eq!(
            package_line(&ours),
            package_line(&theirs),
            "{name}: another WASI version than {}",
            bundled.display()
        );
        assert!(ours == theirs, "{name} differs from {}: copy it again", bundled.display());
    }
}
