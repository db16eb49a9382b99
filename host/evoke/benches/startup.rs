//! Whole-process start-up of `evoke try` in a project with 20 fetched reflexes (each re-hashed against
//! the lock at start) beside one with none, the same sentence and the default engine. The reflexes are
//! fetched once, through the library, from a repository served on loopback by `git http-backend`.
//!
//! `cargo bench -p evoke --bench startup` prints the median and the fastest of 30 runs of each, and the
//! re-hash of the 20 store copies alone, in process.

#[path = "../../evoke-files/tests/support/git_server.rs"]
mod git_server;

use evoke_files::fetch::Fetcher;
use evoke_files::places::Places;
use evoke_files::project::{Location, load_in};
use evoke_files::store::Store;
use evoke_files::trust;
use git_server::{GitServer, Upstream};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const REFLEXES: usize = 20;
const RUNS: usize = 30;

fn reflex(i: usize) -> String {
    format!(
        "reflex = 1\ndescription = \"Switch lamp number {i} on or off.\"\nnot_for = [\"lamps other than number {i}\"]\neffect = \"write\"\nconfirm = \"Lamp {i} {{state}}?\"\nrun = \"lamp.mjs\"\n\n[args.state]\nask = \"On or off?\"\noptions.on = \"Switch on.\"\noptions.off = \"Switch off.\"\n\n[examples]\n\"turn on lamp {i}\" = {{ state = \"on\" }}\n\"lamp {i} off\" = {{ state = \"off\" }}\n"
    )
}

fn project(places: &Places, root: &Path, body: &str) -> Location {
    std::fs::create_dir_all(root).unwrap();
    std::fs::write(root.join("evoke.toml"), body).unwrap();
    let location = Location { root: root.to_path_buf(), home: false };
    trust::record(places, &location).unwrap();
    location
}

fn time(home: &Path, project: &Path) -> Vec<Duration> {
    (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            let status = Command::new(env!("CARGO_BIN_EXE_evoke"))
                .arg("-C")
                .arg(project)
                .args(["try", "turn on lamp 7"])
                .env("EVOKE_HOME", home)
                .env("NO_COLOR", "1")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .unwrap();
            let elapsed = start.elapsed();
            assert!(status.success(), "evoke try failed: {status}");
            elapsed
        })
        .collect()
}

fn summary(mut runs: Vec<Duration>) -> String {
    runs.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    format!("median {:7.2} ms   fastest {:7.2} ms", ms(runs[runs.len() / 2]), ms(runs[0]))
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        println!("startup: bench");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("served")).unwrap();
    let server = GitServer::start(&root.join("served"));
    let up = Upstream::new(&root.join("served"), root, "lamps");
    let body = "export default function lamp(args) {\n  return `lamp ${args.state}`;\n}\n".repeat(40);
    let files: Vec<(String, String)> = (0..REFLEXES)
        .flat_map(|i| [(format!("lamp{i}/reflex.toml"), reflex(i)), (format!("lamp{i}/lamp.mjs"), body.clone())])
        .collect();
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, c)| (p.as_str(), c.as_str())).collect();
    up.commit(&refs, "lamps");
    up.tag("v1.0.0", false);

    let home = root.join("home");
    let places = Places::under(&home);
    let empty = project(&places, &root.join("none"), "adapter = \"local\"\n[reflexes]\n");
    let full = project(&places, &root.join("twenty"), "adapter = \"local\"\n[reflexes]\n");
    let base = format!("http://127.0.0.1:{}", server.port);
    let mut fetcher = Fetcher::new(&places.cache).with_redirect(move |repository| {
        repository.strip_prefix("https://example.test/").map(|n| format!("{base}/{n}.git"))
    });
    for i in 0..REFLEXES {
        let source = format!("https://example.test/lamps//lamp{i}@v1.0.0");
        evoke_files::install::add(&places, &full, &mut fetcher, &full.root, &format!("lamp{i}"), &source, None, None)
            .unwrap();
    }
    let loaded = load_in(full.clone(), &places).unwrap();
    assert_eq!(
        loaded.installed.iter().filter(|i| i.status.is_ok()).count(),
        REFLEXES,
        "every fetched reflex is active"
    );

    // Warm the caches both ways before timing.
    time(&home, &empty.root);
    time(&home, &full.root);
    let none = time(&home, &empty.root);
    let twenty = time(&home, &full.root);
    let store = Store::new(&places.data);
    let rehash: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            for locked in loaded.lock.reflexes.values() {
                store.verify(&locked.h1).unwrap();
            }
            start.elapsed()
        })
        .collect();
    println!("evoke try, whole process, {RUNS} runs each (default engine, the same sentence):");
    println!("  no reflexes                   {}", summary(none));
    println!("  {REFLEXES} fetched reflexes (re-hashed) {}", summary(twenty));
    println!("  re-hash of the {REFLEXES} store copies alone, in process: {}", summary(rehash));
}
