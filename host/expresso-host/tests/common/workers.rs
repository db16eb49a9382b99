//! `expresso-host serve` workers as processes, on a shared Postgres deployment.

use super::postgres::store_toml;
use expresso_host::pg::Namespace;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A sink configuration sending every effect of the triage agent to one HTTP receiver, its store the
/// deployment's.
pub fn pg_sinks(dir: &Path, ns: &Namespace, url: &str) -> PathBuf {
    let path = dir.join("sinks.toml");
    std::fs::write(
        &path,
        format!(
            "{}[sinks.s]\nkind = \"http\"\nurl = \"{url}\"\ntimeout_ms = 1000\n[capabilities]\n\"react.add\" = \"s\"\n\"tasks.create\" = \"s\"\n\"message.send\" = \"s\"\n\"notify.send\" = \"s\"\n",
            store_toml(ns)
        ),
    )
    .unwrap();
    path
}

/// A worker process, killed when dropped (a failing test leaves none behind).
pub struct WorkerProcess(pub Child);

impl Drop for WorkerProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts a worker; returns it and the address it listens on. Its stderr goes to the test's, which the
/// harness shows when the test fails.
pub fn spawn_worker(program: &Path, recording: &Path, sinks: &Path, fault: Option<&str>) -> (WorkerProcess, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_expresso-host"));
    cmd.args(["serve", program.to_str().unwrap(), "--sinks", sinks.to_str().unwrap()])
        .args(["--provider", &format!("recording:{}", recording.display())])
        .args(["--listen", "127.0.0.1:0", "--batch", "2"])
        .env_remove("EXPRESSO_FAULT")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(f) = fault {
        cmd.env("EXPRESSO_FAULT", f);
    }
    let mut child = cmd.spawn().unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    // Lease messages may come before the address.
    while !line.contains("listening on") {
        line.clear();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "the worker ended before it listened");
    }
    let addr = line.trim().rsplit("http://").next().unwrap().to_string();
    let name = addr.clone();
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            eprintln!("[worker {name}] {line}");
        }
    });
    (WorkerProcess(child), addr)
}

pub fn eventually(what: &str, seconds: u64, mut f: impl FnMut() -> bool) {
    let start = Instant::now();
    while !f() {
        assert!(start.elapsed() < Duration::from_secs(seconds), "never: {what}");
        std::thread::sleep(Duration::from_millis(25));
    }
}

/// How many workers hold a lease of the deployment's partitions (each names its connections).
pub fn lease_holders(client: &mut postgres::Client, ns: &Namespace) -> i64 {
    client
        .query_one(
            "SELECT COUNT(DISTINCT a.application_name) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
             WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 AND l.classid = $1::int4::oid",
            &[&ns.lease_key()],
        )
        .map(|r| r.get(0))
        .unwrap_or(-1)
}

/// Posts events, retrying while the worker answers 503 or cannot be reached (a restart, a kill).
pub fn post(addr: &str, body: &str) -> bool {
    let client = expresso_runtime::http::builder().build().unwrap();
    matches!(client.post(format!("http://{addr}/events")).body(body.to_string()).send(), Ok(r) if r.status() == 200)
}

/// Stops a worker with SIGTERM, as an operator would; it must exit cleanly.
pub fn terminate(worker: &mut WorkerProcess) {
    // SAFETY: kill(2) on a child this test started.
    unsafe { libc::kill(worker.0.id() as i32, libc::SIGTERM) };
    let status = worker.0.wait().unwrap();
    assert!(status.success(), "the worker did not stop cleanly: {status:?}");
}
