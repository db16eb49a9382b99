//! What the load examples share: their settings from the environment, the clock, the events of the worked
//! example's agent with their journaled answers, and the HTTP receiver that honours `Idempotency-Key`.

// Each example uses a part of this module.
#![allow(dead_code)]

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

pub const TRIAGE: &str = include_str!("../triage.ex");

/// A whole-number setting from the environment, or its default.
pub fn env(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Wall-clock milliseconds, the clock the host writes its effects' times with.
pub fn now_ms() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs_f64() * 1000.0
}

/// The `p` percentile of sorted figures (the nearest rank); NaN when there are none.
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// The `[capabilities]` table routing each of the agent's effects to the one sink.
pub fn capabilities(sink: &str) -> String {
    ["react.add", "tasks.create", "message.send", "notify.send"]
        .iter()
        .fold("[capabilities]\n".to_string(), |table, cap| format!("{table}\"{cap}\" = \"{sink}\"\n"))
}

/// N message events for the agent, the journal's answer to each one's leaf, and the effects they make.
pub struct Events {
    pub expected: usize,
    pub seed: Vec<(String, String, Value)>,
    pub bodies: Vec<Value>,
}

/// The events e0…e{n-1}, classified in turn as a bug (three effects), a question (none) and churn (two);
/// `workspace` and `text` give each event's workspace and text by its index and kind.
pub fn events(n: usize, workspace: impl Fn(usize) -> String, text: impl Fn(usize, &str) -> String) -> Events {
    let kinds = ["bug", "question", "churn"];
    let mut events = Events { expected: 0, seed: Vec::with_capacity(n), bodies: Vec::with_capacity(n) };
    for i in 0..n {
        let id = format!("e{i}");
        let kind = kinds[i % 3];
        events.expected += [3, 0, 2][i % 3];
        events.seed.push((
            format!("Triage#0|{id}/Triage#0/0/classify"),
            id.clone(),
            json!({"kind": kind, "urgency": "now"}),
        ));
        events.bodies.push(json!({
            "id": id,
            "partition": {"workspace": workspace(i), "room": "#support"},
            "type": "message",
            "payload": {"speaker": "dana", "text": text(i, kind)},
            "t_event": 1_000 + i as u64,
        }));
    }
    events
}

/// Sends each body once, open-loop at `rate` a second from `start`, from `clients` threads, until it is
/// acknowledged: body i goes to `urls[i % urls.len()]`, and one that is not acknowledged is sent again
/// after `pause`, to the next URL (a server killed with the answer in flight, or one that does not
/// answer; the log keeps one copy of an event sent twice). Returns when every body is acknowledged, with
/// the time each was first sent and how many times a body was sent again.
pub fn send_open_loop(
    bodies: Vec<String>,
    urls: Vec<String>,
    rate: usize,
    clients: usize,
    start: Instant,
    pause: Duration,
) -> (HashMap<usize, f64>, usize) {
    let (bodies, urls) = (Arc::new(bodies), Arc::new(urls));
    let sent_at: Arc<Mutex<HashMap<usize, f64>>> = Arc::new(Mutex::new(HashMap::new()));
    let next = Arc::new(AtomicUsize::new(0));
    let retried = Arc::new(AtomicUsize::new(0));
    let threads: Vec<_> = (0..clients)
        .map(|_| {
            let (bodies, sent_at, next, retried, urls) =
                (bodies.clone(), sent_at.clone(), next.clone(), retried.clone(), urls.clone());
            std::thread::spawn(move || {
                let agent = expresso_runtime::http::builder().timeout(Duration::from_secs(10)).build().unwrap();
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= bodies.len() {
                        return;
                    }
                    let due = Duration::from_secs_f64(i as f64 / rate as f64);
                    if let Some(wait) = due.checked_sub(start.elapsed()) {
                        std::thread::sleep(wait);
                    }
                    sent_at.lock().unwrap().insert(i, now_ms());
                    let mut w = i % urls.len();
                    let send = |url: &str| {
                        let request = agent.post(url).header("Content-Type", "application/json");
                        request.body(bodies[i].clone()).send().and_then(|r| r.error_for_status())
                    };
                    while send(&urls[w]).is_err() {
                        retried.fetch_add(1, Ordering::SeqCst);
                        w = (w + 1) % urls.len();
                        std::thread::sleep(pause);
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let sent_at = std::mem::take(&mut *sent_at.lock().unwrap());
    (sent_at, retried.load(Ordering::SeqCst))
}

/// An HTTP sink's receiver on loopback: counts every delivery, applies each key once, and answers 503
/// while it is down.
#[derive(Default)]
pub struct Receiver {
    pub down: AtomicBool,
    pub requests: AtomicUsize,
    /// First arrival of each key, by event index.
    pub applied: Mutex<HashMap<String, (usize, f64)>>,
}

impl Receiver {
    /// Starts a receiver on its own thread; returns it with the URL it answers at.
    pub fn start() -> (Arc<Receiver>, String) {
        let receiver = Arc::new(Receiver::default());
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let hook_url = format!("http://{}/hook", listener.local_addr().unwrap());
        let state = receiver.clone();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
            rt.block_on(async move {
                let app = Router::new().route("/hook", post(hook)).with_state(state);
                axum::serve(tokio::net::TcpListener::from_std(listener).unwrap(), app).await.unwrap();
            });
        });
        (receiver, hook_url)
    }

    /// Waits until `expected` effects are applied (two minutes at the most), then half a second more, so
    /// that a late delivery is counted.
    pub fn wait_for(&self, expected: usize) {
        let deadline = Instant::now() + Duration::from_secs(120);
        while self.applied.lock().unwrap().len() < expected && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(500));
    }

    /// Prints the sustained throughput of `n` events sent from `start_ms`, the latency from each event's
    /// first sending to its effect's first arrival, and the effects applied; whether exactly the
    /// `expected` ones were.
    pub fn report(&self, n: usize, start_ms: f64, sent_at: &HashMap<usize, f64>, expected: usize) -> bool {
        let applied = self.applied.lock().unwrap();
        let mut latencies: Vec<f64> = applied.values().filter_map(|(i, at)| sent_at.get(i).map(|s| at - s)).collect();
        latencies.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let last = applied.values().map(|(_, at)| *at).fold(0.0, f64::max);
        let pct = |p: f64| percentile(&latencies, p);
        println!(
            "  sustained: {:.0} events/s ingest to effect (last effect at {:.2}s)",
            n as f64 / ((last - start_ms) / 1000.0),
            (last - start_ms) / 1000.0
        );
        println!("  ingest-to-effect: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms", pct(0.5), pct(0.99), pct(1.0));
        let requests = self.requests.load(Ordering::SeqCst);
        println!(
            "  effects applied at the receiver: {} of {expected} expected: {}; {requests} deliveries (sent again by the faults, or refused while down: {})",
            applied.len(),
            if applied.len() == expected { "exact" } else { "MISMATCH" },
            requests.saturating_sub(applied.len())
        );
        applied.len() == expected
    }
}

impl Receiver {
    /// The `p` percentile of the ingest-to-effect latency of the effects applied, in milliseconds.
    pub fn percentile(&self, sent_at: &HashMap<usize, f64>, p: f64) -> f64 {
        let applied = self.applied.lock().unwrap();
        let mut latencies: Vec<f64> = applied.values().filter_map(|(i, at)| sent_at.get(i).map(|s| at - s)).collect();
        latencies.sort_by(|a, b| a.partial_cmp(b).unwrap());
        percentile(&latencies, p)
    }

    /// Notes an effect's key at `at`, the first time it is seen (keys start with their event's id, `eN`).
    fn note(&self, key: String, at: f64) {
        let event: usize =
            key.split('|').next().and_then(|e| e.strip_prefix('e')).and_then(|n| n.parse().ok()).unwrap_or(0);
        self.applied.lock().unwrap().entry(key).or_insert((event, at));
    }

    /// Reads a file sink's lines as they are appended until `stop`, noting each key's first appearance as
    /// the HTTP receiver does. Only whole lines are read; a line cut short by a crash does not parse, so it
    /// counts as a delivery and not as an effect.
    pub fn tail(&self, path: &Path, stop: &AtomicBool) {
        use std::io::{Read, Seek, SeekFrom};
        let mut at = 0u64;
        let mut pending = String::new();
        loop {
            let done = stop.load(Ordering::SeqCst);
            if let Ok(mut file) = std::fs::File::open(path) {
                let _ = file.seek(SeekFrom::Start(at));
                let mut chunk = String::new();
                if let Ok(n) = file.read_to_string(&mut chunk) {
                    at += n as u64;
                    pending.push_str(&chunk);
                }
            }
            let now = now_ms();
            while let Some(end) = pending.find('\n') {
                let line: String = pending.drain(..=end).collect();
                self.requests.fetch_add(1, Ordering::SeqCst);
                let key = serde_json::from_str::<serde_json::Value>(&line)
                    .ok()
                    .and_then(|v| v.get("idempotency_key").and_then(|k| k.as_str()).map(str::to_string));
                if let Some(key) = key {
                    self.note(key, now);
                }
            }
            if done {
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

async fn hook(State(r): State<Arc<Receiver>>, headers: HeaderMap) -> StatusCode {
    r.requests.fetch_add(1, Ordering::SeqCst);
    if r.down.load(Ordering::SeqCst) {
        return StatusCode::SERVICE_UNAVAILABLE;
    }
    let key = headers.get("idempotency-key").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
    r.note(key, now_ms());
    StatusCode::OK
}
