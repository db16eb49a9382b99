//! `serve` fires in event-time order within its reorder window, as `run` does; a correction after its
//! event fired is refused with the reason the sender and `status` see; a late event fires in arrival
//! order with its schedule row saying so; and `expresso export` writes the log as `run` replays it.

mod common;

use common::*;
use expresso_host::cli::{HostArgs, open};
use expresso_host::serve::{Limits, Running, start};
use expresso_host::store::Db;
use expresso_host::watermark::Window;
use serde_json::{Value, json};
use std::path::Path;
use std::time::{Duration, Instant};

pub const ECHO: &str = "agent \"Echo\" {\n  grants { message.send }\n  lives in channel #support\n  on message {\n    reply \"{.message}\"\n  }\n}\n";

fn post(url: &str, body: &str) -> Value {
    let client = expresso_runtime::http::builder().build().unwrap();
    match client.post(url).header("Content-Type", "application/json").body(body.to_string()).send() {
        Ok(r) if r.status().is_success() => serde_json::from_str(&r.text().unwrap()).unwrap(),
        Ok(r) => panic!("HTTP {}", r.status()),
        Err(e) => panic!("{e}"),
    }
}

fn eventually(what: &str, mut f: impl FnMut() -> bool) {
    let start = Instant::now();
    while !f() {
        assert!(start.elapsed() < Duration::from_secs(30), "never: {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn message(id: &str, t: u64, rev: u64, text: &str) -> String {
    json!({
        "id": id, "partition": {"workspace": "acme", "room": "#support"}, "type": "message",
        "payload": {"speaker": "dana", "text": text}, "t_event": t, "rev": rev,
    })
    .to_string()
}

fn setup(dir: &Path) -> HostArgs {
    let program = dir.join("echo.ex");
    std::fs::write(&program, ECHO).unwrap();
    let sinks = dir.join("sinks.toml");
    std::fs::write(
        &sinks,
        "[sinks.log]\nkind = \"file\"\npath = \"out.jsonl\"\n[capabilities]\n\"message.send\" = \"log\"\n",
    )
    .unwrap();
    HostArgs { program, state: Some(dir.join("state")), sinks, provider: "none".into(), batch: 64 }
}

fn serve(args: &HostArgs, window_ms: u64) -> (Running, String) {
    let limits = Limits { reorder: Window::new(window_ms).unwrap(), ..Limits::default() };
    let running = start(open(args).unwrap(), "127.0.0.1:0".parse().unwrap(), limits, false).unwrap();
    let url = format!("http://{}/events", running.addr);
    (running, url)
}

/// Each effect written, in the order written: `(event id, the text replied)`.
fn written(dir: &Path) -> Vec<(String, String)> {
    std::fs::read_to_string(dir.join("out.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            let key = v["idempotency_key"].as_str().unwrap();
            (key.split('|').next().unwrap().to_string(), v["receipt"]["args"]["text"].as_str().unwrap().to_string())
        })
        .collect()
}

fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
    items.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

#[test]
fn serve_fires_events_sent_out_of_order_in_event_time_order() {
    let dir = temp_dir("order-time");
    let args = setup(&dir);
    let (running, url) = serve(&args, 5_000);
    // `b` happened after `a` but is sent first, in a request of its own.
    assert_eq!(post(&url, &message("b", 2000, 0, "second")), json!({"accepted": 1, "duplicate": 0}));
    assert_eq!(post(&url, &message("a", 1000, 0, "first")), json!({"accepted": 1, "duplicate": 0}));
    eventually("both fired", || written(&dir).len() == 2);
    running.stop().unwrap();
    assert_eq!(written(&dir), pairs(&[("a", "first"), ("b", "second")]));
    // The log holds them in the order they fired, each with the watermark schedule that released it.
    let db = Db::open(&dir.join("state")).unwrap();
    let ids: Vec<String> = db.events_after(0, 10).unwrap().into_iter().map(|(_, e)| e.id).collect();
    assert_eq!(ids, vec!["a", "b"]);
    let schedule = db.schedule_after(0, 10).unwrap();
    assert_eq!(schedule.len(), 2);
    assert!(schedule.values().all(|row| row["late"] == json!(false)), "{schedule:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_correction_before_its_event_is_released_takes_its_place() {
    let dir = temp_dir("order-fix");
    let args = setup(&dir);
    let (running, url) = serve(&args, 5_000);
    assert_eq!(post(&url, &message("a", 1000, 0, "helo")), json!({"accepted": 1, "duplicate": 0}));
    assert_eq!(post(&url, &message("a", 1000, 1, "hello")), json!({"accepted": 1, "duplicate": 0}));
    // A second delivery of the superseded revision is counted once, and runs never.
    assert_eq!(post(&url, &message("a", 1000, 0, "helo")), json!({"accepted": 0, "duplicate": 1}));
    eventually("fired", || written(&dir).len() == 1);
    std::thread::sleep(Duration::from_millis(300));
    running.stop().unwrap();
    assert_eq!(written(&dir), pairs(&[("a", "hello")]));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_correction_after_its_event_fired_is_refused_with_the_reason_the_sender_and_status_see() {
    let dir = temp_dir("order-late-fix");
    let args = setup(&dir);
    let (running, url) = serve(&args, 0);
    post(&url, &message("a", 1000, 0, "helo"));
    eventually("fired", || written(&dir).len() == 1);
    let answer = post(&url, &message("a", 1000, 1, "hello"));
    assert_eq!((answer["accepted"].clone(), answer["duplicate"].clone()), (json!(0), json!(0)), "{answer}");
    let reason = answer["refused"][0]["reason"].as_str().unwrap_or_default().to_string();
    assert!(reason.contains("correction of `a` (rev 1) arrived after rev 0 was released"), "{answer}");
    // Sent again, it is refused again with the same reason, and not run.
    let again = post(&url, &message("a", 1000, 1, "hello"));
    assert_eq!(again, json!({"accepted": 0, "duplicate": 0, "refused": [{"index": 0, "reason": reason}]}));
    let client = expresso_runtime::http::builder().build().unwrap();
    let metrics = client.get(url.replace("/events", "/metrics")).send().unwrap().text().unwrap();
    assert!(metrics.contains("\nexpresso_corrections_refused_total 2\n"), "{metrics}");
    std::thread::sleep(Duration::from_millis(300));
    running.stop().unwrap();
    assert_eq!(written(&dir), pairs(&[("a", "helo")]));
    let db = Db::open(&dir.join("state")).unwrap();
    let refused = db.corrections(false, 10).unwrap();
    assert_eq!(refused.len(), 1);
    assert_eq!((refused[0].id.as_str(), refused[0].rev, refused[0].fate.as_str()), ("a", 1, "refused"));
    assert_eq!(refused[0].reason, reason);
    assert_eq!(db.stage_counts().unwrap().refused, 1);
    // The operator sees it in `status`, with its reason.
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_expresso-host"))
        .args(["status", "--state"])
        .arg(dir.join("state"))
        .output()
        .unwrap();
    let status: Value = serde_json::from_slice(&status.stdout).unwrap();
    assert_eq!(status["corrections_refused"], json!(1), "{status}");
    assert_eq!(status["refused_corrections"][0]["reason"], json!(reason), "{status}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_late_event_fires_in_arrival_order_and_its_schedule_row_says_late() {
    let dir = temp_dir("order-late");
    let args = setup(&dir);
    let (running, url) = serve(&args, 0);
    post(&url, &message("b", 2000, 0, "second"));
    eventually("b fired", || written(&dir).len() == 1);
    post(&url, &message("a", 1000, 0, "first"));
    eventually("a fired", || written(&dir).len() == 2);
    running.stop().unwrap();
    assert_eq!(written(&dir), pairs(&[("b", "second"), ("a", "first")]));
    let db = Db::open(&dir.join("state")).unwrap();
    let schedule = db.schedule_after(0, 10).unwrap();
    assert_eq!(schedule[&1]["late"], json!(false));
    assert_eq!((schedule[&2]["late"].clone(), schedule[&2]["why"].clone()), (json!(true), json!("late")));
    assert_eq!(db.stage_counts().unwrap().late, 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_quiet_partition_is_released_after_the_settle_time() {
    let dir = temp_dir("order-settle");
    let args = setup(&dir);
    let (running, url) = serve(&args, 400);
    let sent = Instant::now();
    post(&url, &message("a", 1000, 0, "alone"));
    eventually("fired", || written(&dir).len() == 1);
    // Held for the window (no later event came to pass the watermark), then released by the clock.
    assert!(sent.elapsed() >= Duration::from_millis(400), "released after {:?}", sent.elapsed());
    running.stop().unwrap();
    let db = Db::open(&dir.join("state")).unwrap();
    assert_eq!(db.schedule_after(0, 10).unwrap()[&1]["why"], json!("settle"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_window_past_its_bound_is_refused_naming_the_bound() {
    let refused = Window::new(expresso_host::watermark::MAX_REORDER_MS + 1).unwrap_err().to_string();
    assert!(refused.contains("--reorder-ms") && refused.contains("at most 60000"), "{refused}");
}

#[test]
fn ingest_of_a_file_appends_it_in_event_time_order_with_its_corrections_decided() {
    let dir = temp_dir("order-ingest");
    let log = dir.join("events.jsonl");
    let lines = [message("b", 2000, 0, "second"), message("a", 1000, 0, "helo"), message("a", 1000, 1, "hello")];
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_expresso-host"))
        .args(["ingest", "--state"])
        .arg(dir.join("state"))
        .arg(&log)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), r#"{"accepted":3,"duplicate":0,"refused":0}"#);
    let db = Db::open(&dir.join("state")).unwrap();
    let log: Vec<(String, u64)> = db.events_after(0, 10).unwrap().into_iter().map(|(_, e)| (e.id, e.rev)).collect();
    assert_eq!(log, vec![("a".to_string(), 1), ("b".to_string(), 0)]);
    assert_eq!(db.stage_counts().unwrap().staged, 0);
    std::fs::remove_dir_all(&dir).unwrap();
}
