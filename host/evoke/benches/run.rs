//! The whole-process time of a trivial `.mjs` body run through `evoke run`, beside `node` importing the
//! same module and calling it directly, alternated in one loop so both see the same machine.
//!
//! Run: `cargo bench -p evoke --bench run`

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const RUNS: usize = 31;

fn time(mut command: Command) -> Duration {
    let started = Instant::now();
    let status = command.stdout(Stdio::null()).stderr(Stdio::null()).status().expect("the command starts");
    assert!(status.success(), "{command:?} failed");
    started.elapsed()
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let reflex = dir.path().join("hello");
    std::fs::create_dir_all(&reflex).unwrap();
    std::fs::write(reflex.join("hello.mjs"), "export default () => 'hello';\n").unwrap();
    std::fs::write(
        reflex.join("reflex.toml"),
        "reflex = 1\ndescription = \"Say hello.\"\neffect = \"read\"\nconfirm = \"Say hello?\"\nrun = \"hello.mjs\"\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("evoke.toml"), "[reflexes]\nhello = \"hello\"\n").unwrap();
    let home = dir.path().join("home");
    let evoke = |args: &[&str]| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_evoke"));
        command.args(args).current_dir(dir.path()).env("EVOKE_HOME", &home);
        command
    };
    assert!(evoke(&["trust"]).stdout(Stdio::null()).status().unwrap().success());
    // Node given a file that imports the module and prints what its default export returns.
    let direct = dir.path().join("direct.mjs");
    std::fs::write(&direct, "import body from './hello/hello.mjs';\nconsole.log(body());\n").unwrap();
    let node = |module: &Path| {
        // The same scrubbed environment a body gets, so neither pays for what the other skips (a
        // NODE_EXTRA_CA_CERTS bundle, say).
        let mut command = Command::new("node");
        command.arg(module).env_clear();
        for name in ["PATH", "HOME", "TMPDIR", "LANG", "TERM"] {
            if let Some(value) = std::env::var_os(name) {
                command.env(name, value);
            }
        }
        command
    };
    // Warm both: the first evoke run writes the runner into the cache.
    time(evoke(&["run", "hello"]));
    time(node(&direct));
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        ours.push(time(evoke(&["run", "hello"])));
        theirs.push(time(node(&direct)));
    }
    let (ours, theirs) = (median(ours), median(theirs));
    println!(
        "trivial .mjs body: `evoke run` {:.1} ms, `node` importing it directly {:.1} ms: {:.2}x (medians of {RUNS})",
        ours.as_secs_f64() * 1e3,
        theirs.as_secs_f64() * 1e3,
        ours.as_secs_f64() / theirs.as_secs_f64()
    );
}
