//! Load through `serve`: the worked example's agent, its leaf answered by the journal, every effect to a
//! file sink. Events are sent open-loop at RATE per second for SECONDS by CLIENTS threads, PER_REQUEST
//! events a request; the figures are sustained throughput, ingest-to-effect latency (from the moment a
//! request is sent to the moment its effects' line is written, synced), and the effects written, which
//! must equal the expected count exactly. Then where the time went, from the server's own counters.
//!
//! cargo run --release -p expresso-host --example load
//! RATE=2000 SECONDS=10 CLIENTS=16 PER_REQUEST=1 cargo run --release -p expresso-host --example load

mod common;

use common::{TRIAGE, env, events, now_ms, percentile};
use expresso_host::cli::{HostArgs, open};
use expresso_host::metrics::Metrics;
use expresso_host::serve::{Limits, start};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn main() {
    let rate = env("RATE", 1000);
    let seconds = env("SECONDS", 10);
    let clients = env("CLIENTS", 16);
    let per_request = env("PER_REQUEST", 1).max(1);
    let batch = env("BATCH", 256);
    let n = rate * seconds;

    let dir = std::env::temp_dir().join(format!("expresso-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("triage.ex"), TRIAGE).unwrap();
    std::fs::write(
        dir.join("sinks.toml"),
        format!("[sinks.log]\nkind = \"file\"\npath = \"effects.jsonl\"\n{}", common::capabilities("log")),
    )
    .unwrap();
    let args = HostArgs {
        program: dir.join("triage.ex"),
        state: Some(dir.join("state")),
        sinks: dir.join("sinks.toml"),
        provider: "none".into(),
        batch,
    };

    // The leaf is answered by the journal: every event's classification is journaled before the run, and
    // the provider is `none`, so a miss would stop the run.
    let events = events(n, |_| "acme".into(), |i, kind| format!("message {i}: something about a {kind}"));
    let (expected, seed, bodies) = (events.expected, events.seed, events.bodies);
    let mut host = open(&args).unwrap();
    host.db_mut().seed_journal(&seed).unwrap();
    let limits = Limits { queue: 4096, ..Limits::default() };
    let running = start(host, "127.0.0.1:0".parse().unwrap(), limits, false).unwrap();
    let url = format!("http://{}/events", running.addr);
    let metrics = running.metrics.clone();
    while !running.ready.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(5));
    }

    let requests: Vec<String> = bodies
        .chunks(per_request)
        .map(|c| if per_request == 1 { c[0].to_string() } else { Value::Array(c.to_vec()).to_string() })
        .collect();
    let requests = Arc::new(requests);
    let sent_at: Arc<Mutex<HashMap<usize, f64>>> = Arc::new(Mutex::new(HashMap::new()));
    let next = Arc::new(AtomicUsize::new(0));
    let refused = Arc::new(AtomicUsize::new(0));
    let start_clock = Instant::now();
    let start_ms = now_ms();
    let per_second = rate as f64 / per_request as f64;
    let threads: Vec<_> = (0..clients)
        .map(|_| {
            let (requests, sent_at, next, refused, url) =
                (requests.clone(), sent_at.clone(), next.clone(), refused.clone(), url.clone());
            std::thread::spawn(move || {
                let agent = expresso_runtime::http::builder().timeout(Duration::from_secs(30)).build().unwrap();
                loop {
                    let r = next.fetch_add(1, Ordering::SeqCst);
                    if r >= requests.len() {
                        return;
                    }
                    let due = Duration::from_secs_f64(r as f64 / per_second);
                    if let Some(wait) = due.checked_sub(start_clock.elapsed()) {
                        std::thread::sleep(wait);
                    }
                    let at = now_ms();
                    loop {
                        let request = agent.post(&url).header("Content-Type", "application/json");
                        match request.body(requests[r].clone()).send().and_then(|r| r.error_for_status()) {
                            Ok(_) => break,
                            Err(e) if matches!(e.status().map(|s| s.as_u16()), Some(429 | 503)) => {
                                refused.fetch_add(1, Ordering::SeqCst);
                                std::thread::sleep(Duration::from_millis(10));
                            }
                            Err(e) => panic!("request {r}: {e}"),
                        }
                    }
                    sent_at.lock().unwrap().insert(r, at);
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let sent_ms = now_ms() - start_ms;

    // Wait for every effect (bounded), reading the sink's lines as they come.
    let effects = dir.join("effects.jsonl");
    let deadline = Instant::now() + Duration::from_secs(120);
    while Instant::now() < deadline {
        let written = std::fs::read_to_string(&effects).unwrap_or_default().lines().count();
        if written >= expected {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    running.stop().unwrap();
    let text = std::fs::read_to_string(&effects).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();

    let sent_at = sent_at.lock().unwrap();
    let mut keys = std::collections::HashSet::new();
    let mut latencies = Vec::with_capacity(lines.len());
    let mut last_written = 0f64;
    for line in &lines {
        let v: Value = serde_json::from_str(line).unwrap();
        keys.insert(v["idempotency_key"].as_str().unwrap().to_string());
        let event = v["receipt"]["event"].as_str().unwrap();
        let i: usize = event[1..].parse().unwrap();
        let written = v["written_ms"].as_f64().unwrap();
        last_written = last_written.max(written);
        if let Some(at) = sent_at.get(&(i / per_request)) {
            latencies.push(written - at);
        }
    }
    latencies.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let elapsed_s = (last_written - start_ms) / 1000.0;
    let m = &metrics;
    let g = Metrics::get;
    println!(
        "load: {n} events at {rate}/s for {seconds}s, {clients} clients, {per_request} per request, batch {batch}"
    );
    println!(
        "  sent in {:.2}s ({:.0} events/s offered); {} requests pushed back",
        sent_ms / 1000.0,
        n as f64 / (sent_ms / 1000.0),
        refused.load(Ordering::SeqCst)
    );
    println!(
        "  sustained: {:.0} events/s ingest to effect ({n} events, last effect at {elapsed_s:.2}s)",
        n as f64 / elapsed_s
    );
    println!(
        "  ingest-to-effect: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms (millisecond clock)",
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        latencies.last().copied().unwrap_or(f64::NAN)
    );
    println!(
        "  effects: {} lines, {} distinct keys, expected {expected}: {}",
        lines.len(),
        keys.len(),
        if lines.len() == expected && keys.len() == expected { "exact" } else { "MISMATCH" }
    );
    let per = |us: u64, count: u64| if count == 0 { 0.0 } else { us as f64 / count as f64 / 1000.0 };
    let batches = g(&m.batches);
    println!(
        "  log: {} group commits, {:.1} events each, {:.2} ms each",
        g(&m.ingest_commits),
        g(&m.events_in) as f64 / g(&m.ingest_commits).max(1) as f64,
        per(g(&m.ingest_commit_us), g(&m.ingest_commits))
    );
    println!(
        "  protocol: {batches} batches, {:.1} events each; per batch: read {:.2} ms, run {:.2} ms, commit intents {:.2} ms, deliver + done {:.2} ms",
        g(&m.events_processed) as f64 / batches.max(1) as f64,
        per(g(&m.read_us), batches),
        per(g(&m.run_us), batches),
        per(g(&m.commit_us), batches),
        per(g(&m.deliver_us), batches)
    );
    println!(
        "  provider calls: {} (each of the {} leaves was answered by the journal)",
        g(&m.provider_calls),
        g(&m.events_processed)
    );
    let _ = std::fs::remove_dir_all(&dir);
    if lines.len() != expected || keys.len() != expected {
        std::process::exit(1);
    }
}
