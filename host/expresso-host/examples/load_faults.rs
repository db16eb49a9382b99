//! Load through `serve` with faults: the worked example's agent, its leaf answered by the journal, every
//! effect to an HTTP receiver that honours `Idempotency-Key`. While events arrive at RATE per second, the
//! server is killed with SIGKILL and started again at once (at a third of the run), and the receiver is
//! down, answering 503, for DOWN_MS (from two thirds of the run). The figures: sustained throughput,
//! ingest-to-effect latency (from an event's first sending to its effect's first arrival), and the
//! effects applied at the receiver, which must equal the expected count exactly; and how many deliveries
//! the faults made the host send again.
//!
//! Runs the release `expresso-host` beside this example:
//! cargo build --release -p expresso-host --bin expresso-host --example load_faults
//! RATE=1000 SECONDS=12 target/release/examples/load_faults

mod common;

use common::{Receiver, TRIAGE, env, events, now_ms, send_open_loop};
use expresso_host::store::Db;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn spawn_serve(bin: &std::path::Path, dir: &std::path::Path, port: u16) -> Child {
    let mut child = Command::new(bin)
        .args(["serve", dir.join("triage.ex").to_str().unwrap()])
        .args(["--state", dir.join("state").to_str().unwrap(), "--sinks", dir.join("sinks.toml").to_str().unwrap()])
        .args(["--listen", &format!("127.0.0.1:{port}"), "--queue", "4096"])
        .env_remove("EXPRESSO_FAULT")
        .stderr(Stdio::piped())
        .spawn()
        .expect("run expresso-host (build it with --release first)");
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    assert!(line.contains("listening"), "{line}");
    std::thread::spawn(move || for _ in stderr.lines() {});
    child
}

fn main() {
    let rate = env("RATE", 1000);
    let seconds = env("SECONDS", 12);
    let clients = env("CLIENTS", 48);
    let down_ms = env("DOWN_MS", 2000) as u64;
    let n = rate * seconds;
    let bin = std::env::current_exe().unwrap().parent().unwrap().parent().unwrap().join("expresso-host");

    let dir = std::env::temp_dir().join(format!("expresso-load-faults-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("triage.ex"), TRIAGE).unwrap();

    // The receiver, on loopback, in this process.
    let (receiver, hook_url) = Receiver::start();
    std::fs::write(
        dir.join("sinks.toml"),
        format!("[sinks.s]\nkind = \"http\"\nurl = \"{hook_url}\"\ntimeout_ms = 2000\n{}", common::capabilities("s")),
    )
    .unwrap();

    let events = events(n, |_| "acme".into(), |i, _| format!("message {i}"));
    let (expected, seed) = (events.expected, events.seed);
    let bodies: Vec<String> = events.bodies.iter().map(|body| body.to_string()).collect();
    Db::open(&dir.join("state")).unwrap().seed_journal(&seed).unwrap();

    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let server = Arc::new(Mutex::new(spawn_serve(&bin, &dir, port)));
    let url = format!("http://127.0.0.1:{port}/events");
    let start = Instant::now();
    let start_ms = now_ms();

    // The faults, on their own clock.
    let faults = {
        let (server, receiver, dir, bin) = (server.clone(), receiver.clone(), dir.clone(), bin.clone());
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs_f64(seconds as f64 / 3.0));
            let mut child = server.lock().unwrap();
            child.kill().unwrap();
            child.wait().unwrap();
            let killed_at = start.elapsed();
            *child = spawn_serve(&bin, &dir, port);
            println!(
                "  fault: serve killed (SIGKILL) at {:.2}s, serving again after {:.0} ms",
                killed_at.as_secs_f64(),
                (start.elapsed() - killed_at).as_secs_f64() * 1000.0
            );
            drop(child);
            std::thread::sleep(
                Duration::from_secs_f64(seconds as f64 / 3.0).saturating_sub(start.elapsed() - killed_at),
            );
            receiver.down.store(true, Ordering::SeqCst);
            let down_at = start.elapsed();
            std::thread::sleep(Duration::from_millis(down_ms));
            receiver.down.store(false, Ordering::SeqCst);
            println!("  fault: receiver down (503) from {:.2}s for {down_ms} ms", down_at.as_secs_f64());
        })
    };

    let (sent_at, retried) = send_open_loop(bodies, vec![url], rate, clients, start, Duration::from_millis(20));
    faults.join().unwrap();
    receiver.wait_for(expected);
    {
        let mut child = server.lock().unwrap();
        // SAFETY: kill(2) on the child this example started.
        unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
        child.wait().unwrap();
    }

    println!("load with faults: {n} events at {rate}/s for {seconds}s, {clients} clients, one event per request");
    let ok = receiver.report(n, start_ms, &sent_at, expected);
    println!("  requests sent again by the clients after the kill: {}", retried);
    let _ = std::fs::remove_dir_all(&dir);
    if !ok {
        std::process::exit(1);
    }
}
