//! What a component body costs, for the pure `reflexes/convert`: starting a host, the first run (compile),
//! a run from the compiled cache in a new host (as a new `evoke` process has it), and a warm run (already
//! pre-instantiated in this host); beside a trivial file body under Node, when `node` is on PATH.
//!
//! Every figure is printed beside a baseline measured in the same run: spawning `true` and waiting for it,
//! the least an argv body costs on this machine. The ratio is what to compare across machines and runs.
//!
//! `cargo bench -p evoke-bodies --bench component` (after `.ci/build-components`). Prints figures; asserts
//! nothing about time.

use evoke_bodies::component::{ComponentHost, Source};
use evoke_bodies::node::{self, Node};
use evoke_bodies::{BodyValue, Call, Ran};
use evoke_core::manifest::Grants;
use evoke_core::recognize::PickValue;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn call(dir: &Path) -> Call {
    let args = [
        ("quantity", BodyValue::Pick(PickValue::Number(10.0))),
        ("from", BodyValue::Option("km".into())),
        ("to", BodyValue::Option("mi".into())),
    ];
    Call {
        dir: dir.to_path_buf(),
        args: args.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        today: evoke_bodies::dates::today(),
        input: String::new(),
        config: Vec::new(),
        grants: Grants::default(),
        deadline: Instant::now() + Duration::from_secs(30),
    }
}

fn check(ran: &Ran) {
    if let Err(f) = &ran.result {
        panic!("the body failed: {}", f.message);
    }
}

/// The median and the 90th percentile of some timings.
struct Figures {
    median: Duration,
    p90: Duration,
    runs: usize,
}

impl Figures {
    fn of(mut times: Vec<Duration>) -> Figures {
        times.sort();
        let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
        Figures { median: at(0.5), p90: at(0.9), runs: times.len() }
    }
}

/// Times `runs` runs of `one`, each given a fresh `setup` made outside the timing.
fn time<S>(runs: usize, mut setup: impl FnMut(usize) -> S, mut one: impl FnMut(S)) -> Figures {
    let times = (0..runs)
        .map(|i| {
            let prepared = setup(i);
            let started = Instant::now();
            one(prepared);
            started.elapsed()
        })
        .collect();
    Figures::of(times)
}

fn report(what: &str, figures: &Figures, baseline: &Figures) {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{what:<48} median {:>8.3} ms  p90 {:>8.3} ms  {:>7.3}x baseline  ({} runs)",
        ms(figures.median),
        ms(figures.p90),
        figures.median.as_secs_f64() / baseline.median.as_secs_f64(),
        figures.runs
    );
}

fn scratch(name: &str) -> PathBuf {
    let dir = root().join("target/tmp").join(format!("bench-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn main() {
    let dir = root().join("reflexes/convert");
    let wasm = dir.join("convert.wasm");
    if !wasm.is_file() {
        println!("skipped: {} is not built; run .ci/build-components first", wasm.display());
        return;
    }
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let size = std::fs::metadata(&wasm).unwrap().len();
    println!("reflexes/convert/convert.wasm, {size} bytes; wasmtime 48, Cranelift");

    let spawn = || assert!(std::process::Command::new("true").status().unwrap().success());
    let baseline = time(200, |_| (), |()| spawn());
    report("baseline: spawn `true` and wait", &baseline, &baseline);

    let cache = scratch("host");
    let host = time(20, |_| (), |()| drop(ComponentHost::new(&cache).unwrap()));
    report("start a host (engine, linker, ticker)", &host, &baseline);

    let run = |host: &ComponentHost, expected: Source| {
        let (ran, source) = rt.block_on(host.run_traced(&call(&dir), &wasm));
        check(&ran);
        assert_eq!(source, Some(expected));
    };

    let first =
        time(5, |i| ComponentHost::new(&scratch(&format!("first-{i}"))).unwrap(), |host| run(&host, Source::Compiled));
    report("first run (compile, cache, instantiate, call)", &first, &baseline);

    // A new host each time, as a new `evoke` process has: the compiled file is read, its seal checked,
    // the component loaded and pre-instantiated, then instantiated and called.
    let cache = scratch("cached");
    ComponentHost::new(&cache).unwrap().preload(&wasm).unwrap();
    let cached = time(200, |_| ComponentHost::new(&cache).unwrap(), |host| run(&host, Source::Disk));
    report("cached run, new host (load, instantiate, call)", &cached, &baseline);

    // Warm: already pre-instantiated in this host; each run reads and hashes the file, makes a store,
    // instantiates and calls.
    let warm_host = ComponentHost::new(&cache).unwrap();
    warm_host.preload(&wasm).unwrap();
    let warm = time(2000, |_| (), |()| run(&warm_host, Source::Memory));
    report("warm run (pre-instantiated: instantiate, call)", &warm, &baseline);

    // Beside it: a trivial file body under Node.
    let body_dir = scratch("node");
    std::fs::write(body_dir.join("body.mjs"), "export default (args) => `10 km is ${args.quantity * 0.621} mi`;\n")
        .unwrap();
    match Node::find(&scratch("node-cache")) {
        Err(why) => println!("{:<48} skipped: {why}", "file body under node"),
        Ok(node) => {
            let figures = time(
                20,
                |_| call(&body_dir),
                |c| check(&rt.block_on(node::run(&c, "body.mjs", &node, std::future::pending()))),
            );
            report("file body under node (spawn, import, call)", &figures, &baseline);
        }
    }
}
