//! Loopback receivers and the fixtures the host's tests share.
#![allow(dead_code)]

pub mod postgres;
pub mod workers;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use serde_json::Value;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The one rule for a test that needs something this run may lack (a Postgres server, the evoke binary):
/// with `CI` set (and not empty) the test fails; otherwise one line, `skipped (REASON): TEST; FIX`, goes to
/// the process's stderr directly (the harness would swallow `eprintln!` of a passing test, and a skip
/// nobody sees passes quietly), and the caller skips the test. `.ci/run` counts these lines.
pub fn lacking(reason: &str, fix: &str) {
    use std::io::Write;
    let test = std::thread::current().name().unwrap_or("a test").to_string();
    if std::env::var_os("CI").is_some_and(|v| !v.is_empty()) {
        panic!("{test}: {reason}, with CI set: {fix}");
    }
    let _ = writeln!(std::io::stderr(), "skipped ({reason}): {test}; {fix}");
}

/// `expresso-host drain` over a state place, the leaf answered by a recording.
pub fn drain_args(program: &Path, state: &Path, sinks: &Path, recording: &Path) -> Vec<String> {
    let path = |p: &Path| p.to_str().unwrap().to_string();
    vec![
        "drain".into(),
        path(program),
        "--state".into(),
        path(state),
        "--sinks".into(),
        path(sinks),
        "--provider".into(),
        format!("recording:{}", recording.display()),
    ]
}

/// What a receiver saw.
#[derive(Default)]
pub struct Seen {
    /// Every request: its Idempotency-Key and body.
    pub requests: Mutex<Vec<(String, Value)>>,
    /// Effects applied: once per key when the receiver honours the key, once per request when not.
    pub applied: Mutex<Vec<String>>,
    /// Answer 500 to this many requests first.
    pub fail_first: AtomicUsize,
    pub idempotent: bool,
    /// Every request's Authorization header.
    pub auth: Mutex<Vec<String>>,
    /// Answer each request only after this many milliseconds.
    pub delay_ms: std::sync::atomic::AtomicU64,
    /// Requests being answered now, and the most there ever were at once.
    pub open: AtomicUsize,
    pub most_at_once: AtomicUsize,
}

pub struct Receiver {
    pub addr: SocketAddr,
    pub seen: Arc<Seen>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Receiver {
    pub fn start(idempotent: bool, fail_first: usize) -> Receiver {
        Receiver::start_on("127.0.0.1:0".parse().unwrap(), idempotent, fail_first)
    }

    pub fn start_on(addr: SocketAddr, idempotent: bool, fail_first: usize) -> Receiver {
        let seen = Arc::new(Seen { idempotent, fail_first: AtomicUsize::new(fail_first), ..Seen::default() });
        let listener = std::net::TcpListener::bind(addr).expect("bind a loopback receiver");
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let state = seen.clone();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            rt.block_on(async move {
                let app = Router::new().route("/hook", post(hook)).with_state(state);
                let listener = tokio::net::TcpListener::from_std(listener).unwrap();
                axum::serve(listener, app)
                    .with_graceful_shutdown(async move {
                        let _ = rx.await;
                    })
                    .await
                    .unwrap();
            });
        });
        Receiver { addr, seen, stop: Some(tx), thread: Some(thread) }
    }

    pub fn url(&self) -> String {
        format!("http://{}/hook", self.addr)
    }

    pub fn applied(&self) -> Vec<String> {
        self.seen.applied.lock().unwrap().clone()
    }

    pub fn requests(&self) -> Vec<(String, Value)> {
        self.seen.requests.lock().unwrap().clone()
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

async fn hook(State(seen): State<Arc<Seen>>, headers: HeaderMap, body: Bytes) -> StatusCode {
    let now_open = seen.open.fetch_add(1, Ordering::SeqCst) + 1;
    seen.most_at_once.fetch_max(now_open, Ordering::SeqCst);
    let status = answer(&seen, headers, body).await;
    seen.open.fetch_sub(1, Ordering::SeqCst);
    status
}

async fn answer(seen: &Seen, headers: HeaderMap, body: Bytes) -> StatusCode {
    let delay = seen.delay_ms.load(Ordering::SeqCst);
    if delay > 0 {
        tokio::time::sleep(std::time::Duration::from_millis(delay)).await;
    }
    let key = headers.get("idempotency-key").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
    let value: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    seen.requests.lock().unwrap().push((key.clone(), value));
    let auth = headers.get("authorization").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
    seen.auth.lock().unwrap().push(auth);
    if seen.fail_first.load(Ordering::SeqCst) > 0 {
        seen.fail_first.fetch_sub(1, Ordering::SeqCst);
        return StatusCode::INTERNAL_SERVER_ERROR;
    }
    let mut applied = seen.applied.lock().unwrap();
    if !(seen.idempotent && applied.contains(&key)) {
        applied.push(key);
    }
    StatusCode::OK
}

/// A free loopback port, released (a receiver that is down until started on it).
pub fn free_addr() -> SocketAddr {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap()
}

pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("expresso-host-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The worked example's agent.
pub const TRIAGE: &str = r#"leaf classify(s: Span) -> { kind: enum(bug, question, churn), urgency: enum(low, soon, now) }

agent "Triage" {
  grants { react.add, tasks.create, notify.send, message.send, ai.classify }
  at most world
  lives in channel #support
  memory open_bugs = 0

  on message {
    let c = classify(.message)
    if c.kind == bug {
      react "🐞"
      create_task "Bug: {.message}" assignee: "oncall" due: "+1d"
      remember open_bugs += 1
      reply "Logged. Open bugs: {open_bugs}."
    }
    if c.kind == churn {
      notify "oncall" "Churn risk from {.speaker}"
      reply "Escalating now."
    }
  }
}
"#;

pub fn event(id: &str, t: u64, text: &str) -> String {
    serde_json::json!({
        "id": id,
        "partition": {"workspace": "acme", "room": "#support"},
        "type": "message",
        "payload": {"speaker": "dana", "text": text},
        "t_event": t,
    })
    .to_string()
}

/// `n` events cycling bug, question, churn; the recording that classifies them; and the idemKeys of the
/// effects they must give, by capability.
pub fn triage_fixture(dir: &Path, n: usize) -> (PathBuf, PathBuf, PathBuf, BTreeMap<String, Vec<String>>) {
    let program = dir.join("triage.ex");
    std::fs::write(&program, TRIAGE).unwrap();
    let mut lines = Vec::new();
    let mut answers = serde_json::Map::new();
    let mut expected: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut push = |cap: &str, key: String| expected.entry(cap.to_string()).or_default().push(key);
    for i in 0..n {
        let id = format!("m{i}");
        let kind = ["bug", "question", "churn"][i % 3];
        lines.push(event(&id, 1000 + i as u64, &format!("message {i} about a {kind}")));
        answers
            .insert(format!("Triage#0|{id}/Triage#0/0/classify"), serde_json::json!({"kind": kind, "urgency": "now"}));
        match kind {
            "bug" => {
                push("react.add", format!("{id}|Triage#0/1/react|react.add"));
                push("tasks.create", format!("{id}|Triage#0/2/create_task|tasks.create"));
                push("message.send", format!("{id}|Triage#0/3/reply|message.send"));
            }
            "churn" => {
                push("notify.send", format!("{id}|Triage#0/4/notify|notify.send"));
                push("message.send", format!("{id}|Triage#0/5/reply|message.send"));
            }
            _ => {}
        }
    }
    let events = dir.join("events.jsonl");
    std::fs::write(&events, lines.join("\n") + "\n").unwrap();
    let recording = dir.join("recording.json");
    std::fs::write(&recording, serde_json::json!({ "answers": answers }).to_string()).unwrap();
    (program, events, recording, expected)
}

/// The keys of the lines of a JSON-lines file sink.
pub fn file_keys(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["idempotency_key"].as_str().unwrap().to_string())
        .collect()
}

pub fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

pub fn dedup_sorted(v: Vec<String>) -> Vec<String> {
    let mut v = sorted(v);
    v.dedup();
    v
}
