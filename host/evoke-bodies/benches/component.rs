//! What a component body costs, for the pure `reflexes/convert`: the first run (compile), a run from the
//! compiled cache (map, instantiate, call), and a warm run (already loaded: instantiate, call); beside a
//! trivial file body under Node, when `node` is on PATH.
//!
//! `cargo bench -p evoke-bodies --bench component` (after `.ci/build-components`). Prints figures; asserts
//! nothing about time.

use evoke_bodies::component::{ComponentHost, Source};
use evoke_bodies::node::{self, Node};
use evoke_bodies::{Call, Ran};
use evoke_core::manifest::Grants;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn call(dir: &Path, args: Vec<(String, serde_json::Value)>) -> Call {
    Call {
        dir: dir.to_path_buf(),
        args,
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

/// Median and 90th percentile.
fn report(what: &str, mut times: Vec<Duration>) {
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "{what:<44} median {:>9.3} ms   p90 {:>9.3} ms   ({} runs)",
        at(0.5).as_secs_f64() * 1e3,
        at(0.9).as_secs_f64() * 1e3,
        times.len()
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
    let args =
        vec![("quantity".to_string(), json!(10)), ("from".to_string(), json!("km")), ("to".to_string(), json!("mi"))];
    let size = std::fs::metadata(&wasm).unwrap().len();
    println!("reflexes/convert/convert.wasm, {size} bytes; wasmtime 48, Cranelift");

    // A host: the engine, the linker with WASI and wasi:http, the ticker.
    let mut times = Vec::new();
    let cache = scratch("host");
    for _ in 0..20 {
        let t = Instant::now();
        let host = ComponentHost::new(&cache).unwrap();
        times.push(t.elapsed());
        drop(host);
    }
    report("start a host (engine, linker, ticker)", times);

    // First run: compile, write the cache, instantiate, call.
    let mut times = Vec::new();
    for i in 0..5 {
        let host = ComponentHost::new(&scratch(&format!("first-{i}"))).unwrap();
        let c = call(&dir, args.clone());
        let t = Instant::now();
        let (ran, source) = rt.block_on(host.run_traced(&c, &wasm));
        times.push(t.elapsed());
        check(&ran);
        assert_eq!(source, Some(Source::Compiled));
    }
    report("first run (compile, cache, instantiate, call)", times);

    // From the compiled cache: a new host each time, as a new `evoke` process would have.
    let cache = scratch("cached");
    ComponentHost::new(&cache).unwrap().preload(&wasm).unwrap();
    let mut times = Vec::new();
    for _ in 0..200 {
        let host = ComponentHost::new(&cache).unwrap();
        let c = call(&dir, args.clone());
        let t = Instant::now();
        let (ran, source) = rt.block_on(host.run_traced(&c, &wasm));
        times.push(t.elapsed());
        check(&ran);
        assert_eq!(source, Some(Source::Disk));
    }
    report("cached run (map, instantiate, call)", times);

    // Warm: loaded in this host already; each run reads and hashes the file, makes a store, instantiates
    // from the pre-instantiated component and calls.
    let host = ComponentHost::new(&cache).unwrap();
    host.preload(&wasm).unwrap();
    let mut times = Vec::new();
    for _ in 0..2000 {
        let c = call(&dir, args.clone());
        let t = Instant::now();
        let (ran, source) = rt.block_on(host.run_traced(&c, &wasm));
        times.push(t.elapsed());
        check(&ran);
        assert_eq!(source, Some(Source::Memory));
    }
    report("warm run (pre-instantiated: instantiate, call)", times);

    // Beside it: a trivial file body under Node.
    let body_dir = scratch("node");
    std::fs::write(body_dir.join("body.mjs"), "export default (args) => `10 km is ${args.quantity * 0.621} mi`;\n")
        .unwrap();
    let node_cache = scratch("node-cache");
    match Node::find(&node_cache) {
        Err(why) => println!("{:<44} skipped: {why}", "file body under node"),
        Ok(node) => {
            let mut times = Vec::new();
            for _ in 0..20 {
                let c = call(&body_dir, args.clone());
                let t = Instant::now();
                let ran = rt.block_on(node::run(&c, "body.mjs", &node, std::future::pending()));
                times.push(t.elapsed());
                check(&ran);
            }
            report("file body under node (spawn, import, call)", times);
        }
    }
}
