//! Load through `serve` on each store, with faults: SQLite in one process, or Postgres shared by
//! WORKERS processes. The worked example's agent, its leaf answered by the journal, every effect to an
//! HTTP receiver on loopback that honours `Idempotency-Key`. Events (one per request, spread over
//! WORKSPACES partition keys) are sent open-loop at RATE per second for SECONDS by CLIENTS threads, each
//! request to the next worker (another one when a worker does not answer).
//!
//! With SINK=file every effect goes to a file sink instead (JSON lines, synced; both workers append to one
//! file), which a thread here reads as it grows: an effect counts when its line is read back, and a key
//! written twice (sent again after a crash) counts once. The receiver's outage is then not injected.
//!
//! With FAULTS=1 (the default): at a quarter of the run a worker is killed with SIGKILL and started again;
//! at half the run Postgres is restarted (STORE=pg); at three quarters the receiver answers 503 for
//! DOWN_MS. The figures: sustained throughput, ingest-to-effect latency (an event's first sending to its
//! effect's first arrival), the effects applied, which must equal the expected count exactly, and where
//! the workers' time went, from their own counters.
//!
//! With POISON=1 the load is run twice in one invocation, the second time with one poison event sent
//! at half the run: a message in workspace w0 whose leaf the journal does not answer (the provider is
//! `none`), so its firing faults on every try and is parked. The figures of the other events' effects
//! are printed for both runs, with the ratio of the poisoned run's p99 to the clean one's; the run fails
//! unless the poison's firing is parked and every other effect lands exactly once.
//!
//! cargo build --release -p expresso-host --bin expresso-host --example load_scale
//! STORE=sqlite target/release/examples/load_scale
//! STORE=pg WORKERS=1 EXPRESSO_TEST_PG_URL=postgres://... EXPRESSO_TEST_PG_CTL="pg_ctl -D ..." target/release/examples/load_scale
//! STORE=pg WORKERS=2 ...

mod common;

use common::{Receiver, TRIAGE, env, events, now_ms, send_open_loop};
use expresso_host::pg::Namespace;
use expresso_host::store::Db;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

struct Setup {
    bin: PathBuf,
    dir: PathBuf,
}

fn spawn_serve(setup: &Setup, port: u16) -> Child {
    let dir = &setup.dir;
    let mut child = Command::new(&setup.bin)
        .args(["serve", dir.join("triage.ex").to_str().unwrap()])
        .args(["--state", dir.join("state").to_str().unwrap(), "--sinks", dir.join("sinks.toml").to_str().unwrap()])
        .args(["--listen", &format!("127.0.0.1:{port}"), "--queue", "4096"])
        .env_remove("EXPRESSO_FAULT")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run expresso-host (build it with --release first)");
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.contains("listening") {
        line.clear();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "serve ended before it listened");
    }
    // SERVE_LOG=FILE keeps the workers' stderr (their faults, leases and recoveries), appended to FILE.
    let log = std::env::var("SERVE_LOG")
        .ok()
        .and_then(|path| std::fs::OpenOptions::new().create(true).append(true).open(path).ok());
    std::thread::spawn(move || {
        use std::io::Write;
        let mut log = log;
        for line in stderr.lines().map_while(Result::ok) {
            if let Some(file) = log.as_mut() {
                let _ = writeln!(file, "{line}");
            }
        }
    });
    child
}

fn restart_postgres() {
    let ctl = std::env::var("EXPRESSO_TEST_PG_CTL").expect("EXPRESSO_TEST_PG_CTL: the pg_ctl command of the server");
    let mut words = ctl.split_whitespace();
    let status = Command::new(words.next().unwrap())
        .args(words)
        .args(["restart", "-m", "fast"])
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "pg_ctl restart failed");
}

fn metric(text: &str, name: &str) -> f64 {
    text.lines().find_map(|l| l.strip_prefix(&format!("{name} "))).and_then(|v| v.trim().parse().ok()).unwrap_or(0.0)
}

/// What one run measured: whether the effects were exactly the expected ones (and a poison parked), and
/// the ingest-to-effect percentiles of the effects.
struct Outcome {
    ok: bool,
    p50: f64,
    p99: f64,
}

fn main() {
    let poison = env("POISON", 0) == 1;
    if !poison {
        std::process::exit(if run(None).ok { 0 } else { 1 });
    }
    let clean = run(None);
    let poisoned = run(Some("poison"));
    println!(
        "poison: the other events' effects p50 {:.1} / p99 {:.1} ms without, {:.1} / {:.1} ms with one poison event: p99 ratio {:.2}",
        clean.p50,
        clean.p99,
        poisoned.p50,
        poisoned.p99,
        poisoned.p99 / clean.p99
    );
    std::process::exit(if clean.ok && poisoned.ok { 0 } else { 1 });
}

/// One run of the load; with `poison`, an event of that id whose firing faults is sent at half the run.
fn run(poison: Option<&str>) -> Outcome {
    let store = std::env::var("STORE").unwrap_or_else(|_| "sqlite".into());
    let pg = store == "pg";
    let workers = if pg { env("WORKERS", 2).max(1) } else { 1 };
    let rate = env("RATE", 1000);
    let seconds = env("SECONDS", 12);
    let clients = env("CLIENTS", 48);
    let workspaces = env("WORKSPACES", 16).max(1);
    let partitions = env("PARTITIONS", 4) as u32;
    let faults = env("FAULTS", 1) == 1 && env("POISON", 0) != 1;
    let file_sink = std::env::var("SINK").is_ok_and(|s| s == "file");
    let down_ms = env("DOWN_MS", 2000) as u64;
    let n = rate * seconds;
    let bin = std::env::current_exe().unwrap().parent().unwrap().parent().unwrap().join("expresso-host");

    let tag = if poison.is_some() { "-poison" } else { "" };
    let dir = std::env::temp_dir().join(format!("expresso-load-scale-{}{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("triage.ex"), TRIAGE).unwrap();

    let (receiver, hook_url) = Receiver::start();
    let ns = pg.then(|| Namespace {
        url: std::env::var("EXPRESSO_TEST_PG_URL").expect("STORE=pg needs EXPRESSO_TEST_PG_URL"),
        schema: format!("load_{}{}", std::process::id(), tag.replace('-', "_")),
        partitions,
    });
    let store_toml = ns.as_ref().map_or(String::new(), |ns| {
        format!("[store]\npostgres = \"{}\"\nschema = \"{}\"\npartitions = {}\n", ns.url, ns.schema, ns.partitions)
    });
    let sink_toml = if file_sink {
        "kind = \"file\"\npath = \"effects.jsonl\"".to_string()
    } else {
        format!("kind = \"http\"\nurl = \"{hook_url}\"\ntimeout_ms = 2000")
    };
    let tail_stop = Arc::new(AtomicBool::new(false));
    let tailing = file_sink.then(|| {
        let (path, receiver, stop) = (dir.join("effects.jsonl"), receiver.clone(), tail_stop.clone());
        std::thread::spawn(move || receiver.tail(&path, &stop))
    });
    std::fs::write(
        dir.join("sinks.toml"),
        format!(
            "{store_toml}[sinks.s]
{sink_toml}
{}",
            common::capabilities("s")
        ),
    )
    .unwrap();

    let events = events(n, |i| format!("w{}", i % workspaces), |i, _| format!("message {i}"));
    let (expected, seed) = (events.expected, events.seed);
    let bodies: Vec<String> = events.bodies.iter().map(|body| body.to_string()).collect();
    match &ns {
        Some(ns) => {
            let mut client = expresso_host::pg::connect(ns).unwrap();
            expresso_host::pg::partition_store::seed_journal(&mut client, &seed).unwrap();
        }
        None => Db::open(&dir.join("state")).unwrap().seed_journal(&seed).unwrap(),
    }

    let setup = Arc::new(Setup { bin, dir: dir.clone() });
    let ports: Vec<u16> = (0..workers)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port())
        .collect();
    let servers: Arc<Vec<Mutex<Child>>> = Arc::new(ports.iter().map(|p| Mutex::new(spawn_serve(&setup, *p))).collect());
    let urls: Vec<String> = ports.iter().map(|p| format!("http://127.0.0.1:{p}/events")).collect();
    // Every worker holds its share before the clock starts.
    std::thread::sleep(Duration::from_millis(if pg { 1_000 } else { 100 }));
    let start = Instant::now();
    let start_ms = now_ms();

    let fault_thread = faults.then(|| {
        let (servers, receiver, setup, ports) = (servers.clone(), receiver.clone(), setup.clone(), ports.clone());
        std::thread::spawn(move || {
            let quarter = Duration::from_secs_f64(seconds as f64 / 4.0);
            let at = |k: u32| (quarter * k).saturating_sub(start.elapsed());
            std::thread::sleep(at(1));
            {
                let mut child = servers[0].lock().unwrap();
                child.kill().unwrap();
                child.wait().unwrap();
                let killed = start.elapsed();
                *child = spawn_serve(&setup, ports[0]);
                println!(
                    "  fault: worker 0 killed (SIGKILL) at {:.2}s, serving again after {:.0} ms",
                    killed.as_secs_f64(),
                    (start.elapsed() - killed).as_secs_f64() * 1000.0
                );
            }
            if pg {
                std::thread::sleep(at(2));
                let t = start.elapsed();
                restart_postgres();
                println!(
                    "  fault: Postgres restarted at {:.2}s, in {:.0} ms",
                    t.as_secs_f64(),
                    (start.elapsed() - t).as_secs_f64() * 1000.0
                );
            }
            if file_sink {
                return;
            }
            std::thread::sleep(at(3));
            receiver.down.store(true, Ordering::SeqCst);
            let down_at = start.elapsed();
            std::thread::sleep(Duration::from_millis(down_ms));
            receiver.down.store(false, Ordering::SeqCst);
            println!("  fault: receiver down (503) from {:.2}s for {down_ms} ms", down_at.as_secs_f64());
        })
    });

    // The poison, on its own clock: a message whose leaf no one answers.
    let poison_thread = poison.map(|id| {
        let body = serde_json::json!({
            "id": id,
            "partition": {"workspace": "w0", "room": "#support"},
            "type": "message",
            "payload": {"speaker": "dana", "text": "nobody can classify this"},
            "t_event": 1_000 + n as u64 / 2,
        })
        .to_string();
        let url = urls[0].clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs_f64(seconds as f64 / 2.0).saturating_sub(start.elapsed()));
            let t = start.elapsed();
            let client = expresso_runtime::http::builder().build().unwrap();
            let send = || {
                let request = client.post(&url).header("Content-Type", "application/json");
                request.body(body.clone()).send().and_then(|r| r.error_for_status())
            };
            while send().is_err() {
                std::thread::sleep(Duration::from_millis(10));
            }
            println!("  fault: one poison event sent at {:.2}s", t.as_secs_f64());
        })
    });
    let (sent_at, retried) = send_open_loop(bodies, urls, rate, clients, start, Duration::from_millis(10));
    if let Some(f) = fault_thread {
        f.join().unwrap();
    }
    if let Some(p) = poison_thread {
        p.join().unwrap();
    }
    receiver.wait_for(expected);
    // The poison's firing, parked in the store (tried five times, about 1.5 s of pauses, before that).
    let parked = poison.map(|id| {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let rows = match &ns {
                Some(ns) => expresso_host::pg::connect(ns)
                    .and_then(|mut c| expresso_host::pg::partition_store::parked(&mut c, false, 10)),
                None => Db::open(&dir.join("state")).and_then(|db| db.parked(false, 10)),
            }
            .unwrap_or_default();
            if let Some(row) = rows.iter().find(|r| r.event == id) {
                break Some(row.clone());
            }
            if Instant::now() >= deadline {
                break None;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    });
    let texts: Vec<String> = ports
        .iter()
        .map(|p| {
            expresso_runtime::http::builder()
                .build()
                .ok()
                .and_then(|client| client.get(format!("http://127.0.0.1:{p}/metrics")).send().ok())
                .and_then(|r| r.error_for_status().ok())
                .and_then(|r| r.text().ok())
                .unwrap_or_default()
        })
        .collect();
    for server in servers.iter() {
        let mut child = server.lock().unwrap();
        // SAFETY: kill(2) on a child this example started.
        unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
        child.wait().unwrap();
    }

    tail_stop.store(true, Ordering::SeqCst);
    if let Some(t) = tailing {
        t.join().unwrap();
    }
    let label = if pg {
        format!("Postgres, {workers} worker(s), {partitions} partitions")
    } else {
        "SQLite, one process".into()
    };
    println!(
        "load ({label}, {} sink): {n} events at {rate}/s for {seconds}s, {clients} clients, one event per request, faults {}{}",
        if file_sink { "file" } else { "HTTP" },
        if faults { "on" } else { "off" },
        if poison.is_some() { ", one poison event" } else { "" }
    );
    let mut ok = receiver.report(n, start_ms, &sent_at, expected);
    if let Some(parked) = &parked {
        match parked {
            Some(row) => println!("  poison: parked after {} tries ({})", row.tries, row.reason),
            None => {
                println!("  poison: NOT parked");
                ok = false;
            }
        }
    }
    let (p50, p99) = (receiver.percentile(&sent_at, 0.5), receiver.percentile(&sent_at, 0.99));
    println!("  requests the clients sent again (a worker killed or refusing): {}", retried);
    // Where the time went, summed over the workers still running at the end (the killed one's counters
    // died with it).
    let sum = |name: &str| texts.iter().map(|t| metric(t, name)).sum::<f64>();
    let batches = sum("expresso_batches_total").max(1.0);
    let commits = sum("expresso_ingest_commits_total").max(1.0);
    println!(
        "  log: {:.0} group commits, {:.1} events each, {:.2} ms each",
        commits,
        sum("expresso_events_in_total") / commits,
        sum("expresso_ingest_commit_microseconds_total") / commits / 1000.0
    );
    println!(
        "  protocol: {:.0} batches, {:.1} events each; per batch: read {:.2} ms, run {:.2} ms, commit intents {:.2} ms, deliver + done {:.2} ms",
        batches,
        sum("expresso_events_processed_total") / batches,
        sum("expresso_read_microseconds_total") / batches / 1000.0,
        sum("expresso_run_microseconds_total") / batches / 1000.0,
        sum("expresso_commit_microseconds_total") / batches / 1000.0,
        sum("expresso_deliver_microseconds_total") / batches / 1000.0
    );
    if let Some(ns) = &ns
        && let Ok(mut client) = postgres::Client::connect(&ns.url, postgres::NoTls)
    {
        let _ = client.batch_execute(&format!("DROP SCHEMA IF EXISTS {} CASCADE", ns.schema));
    }
    let _ = std::fs::remove_dir_all(&dir);
    Outcome { ok, p50, p99 }
}
