//! A fault is the firing's, not the log's: a firing the provider cannot answer is tried again up to its
//! bound, then parked with its reason in the store, while every other agent, every other event of the same
//! agent and every other room goes on. An operator lists, retries and skips it; a restart keeps it parked.

mod common;

use common::*;
use expresso_host::cli::{HostArgs, open};
use expresso_host::host::FIRING_TRIES;
use expresso_host::serve::{Limits, start};
use expresso_host::store::Db;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

/// Triage (a model leaf, in #support), Watch (no leaf, in #support, so it sees every event Triage sees)
/// and Echo (no leaf, in #random).
const PROGRAM: &str = r#"leaf classify(s: Span) -> { kind: enum(bug, question, churn), urgency: enum(low, soon, now) }

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

agent "Watch" {
  grants { react.add }
  at most world
  lives in channel #support

  on message {
    react "👀"
  }
}

agent "Echo" {
  grants { message.send }
  at most world
  lives in channel #random

  on message {
    reply "echo: {.message}"
  }
}
"#;

fn message(id: &str, t: u64, room: &str, text: &str) -> String {
    json!({
        "id": id,
        "partition": {"workspace": "acme", "room": room},
        "type": "message",
        "payload": {"speaker": "dana", "text": text},
        "t_event": t,
    })
    .to_string()
}

/// The log: m0 a bug, p1 a poison (no answer), e2 in #random, m3 a churn, p4 a second poison, e5 in
/// #random. Returns the lines.
fn log() -> Vec<String> {
    vec![
        message("m0", 1000, "#support", "the export is broken"),
        message("p1", 1001, "#support", "nobody can answer this"),
        message("e2", 1002, "#random", "lunch?"),
        message("m3", 1003, "#support", "we are leaving"),
        message("p4", 1004, "#support", "nor this, until later"),
        message("e5", 1005, "#random", "coffee?"),
    ]
}

fn classify_key(id: &str) -> String {
    format!("Triage#0|{id}/Triage#0/0/classify")
}

/// A recording answering m0 (bug) and m3 (churn), and with `p4` also p4 (bug): p1 never.
fn recording(dir: &Path, name: &str, p4: bool) -> PathBuf {
    let mut answers = serde_json::Map::new();
    answers.insert(classify_key("m0"), json!({"kind": "bug", "urgency": "now"}));
    answers.insert(classify_key("m3"), json!({"kind": "churn", "urgency": "now"}));
    if p4 {
        answers.insert(classify_key("p4"), json!({"kind": "bug", "urgency": "now"}));
    }
    let path = dir.join(name);
    std::fs::write(&path, json!({ "answers": answers }).to_string()).unwrap();
    path
}

/// The effects that must land whatever the poisons do: Triage's on m0 and m3, Watch's on every #support
/// event (the poisons included), Echo's on both #random events.
fn expected_besides_poison() -> Vec<String> {
    let mut keys = vec![
        "m0|Triage#0/1/react|react.add".to_string(),
        "m0|Triage#0/2/create_task|tasks.create".into(),
        "m0|Triage#0/3/reply|message.send".into(),
        "m3|Triage#0/4/notify|notify.send".into(),
        "m3|Triage#0/5/reply|message.send".into(),
        "e2|Echo#0/0/reply|message.send".into(),
        "e5|Echo#0/0/reply|message.send".into(),
    ];
    for id in ["m0", "p1", "m3", "p4"] {
        keys.push(format!("{id}|Watch#0/0/react|react.add"));
    }
    sorted(keys)
}

fn setup(name: &str) -> (PathBuf, HostArgs) {
    let dir = temp_dir(name);
    let program = dir.join("isolation.ex");
    std::fs::write(&program, PROGRAM).unwrap();
    let sinks = dir.join("sinks.toml");
    std::fs::write(
        &sinks,
        "[sinks.log]\nkind = \"file\"\npath = \"out.jsonl\"\n[capabilities]\n\"react.add\" = \"log\"\n\"tasks.create\" = \"log\"\n\"message.send\" = \"log\"\n\"notify.send\" = \"log\"\n",
    )
    .unwrap();
    let provider = format!("recording:{}", recording(&dir, "recording.json", false).display());
    let args = HostArgs { program, state: Some(dir.join("state")), sinks, provider, batch: 64 };
    (dir, args)
}

fn host_cli(args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_expresso-host")).args(args).output().unwrap()
}

fn status(state: &Path) -> Value {
    let out = host_cli(&["status", "--state", state.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `parked list` (`--all` with `all`): one JSON object per line.
fn listed(state: &Path, all: bool) -> Vec<Value> {
    let mut args = vec!["parked", "list", "--state", state.to_str().unwrap()];
    if all {
        args.push("--all");
    }
    let out = host_cli(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn id_of(rows: &[Value], event: &str) -> i64 {
    rows.iter().find(|r| r["event"] == event).unwrap_or_else(|| panic!("{event} not in {rows:?}"))["id"]
        .as_i64()
        .unwrap()
}

/// Ingests the log and drains it with `args`' provider.
fn drain(args: &HostArgs) {
    let mut host = open(args).unwrap();
    let events: Vec<_> = log().iter().map(|l| expresso_runtime::read_log(l).unwrap().remove(0)).collect();
    host.db_mut().append(&events).unwrap();
    let waiting = host.drain(10_000).expect("a poison firing does not stop the drain");
    assert_eq!(waiting, 0);
}

#[test]
fn a_poison_firing_is_parked_while_every_other_agent_and_event_lands() {
    let (dir, args) = setup("isolation-park");
    drain(&args);
    let keys = file_keys(&dir.join("out.jsonl"));
    assert_eq!(sorted(keys.clone()), expected_besides_poison(), "each effect once, every one but the poisons'");
    let state = args.state.clone().unwrap();
    let db = Db::open(&state).unwrap();
    let parked = db.parked(false, 10).unwrap();
    assert_eq!(
        parked.iter().map(|p| (p.agent.as_str(), p.event.as_str())).collect::<Vec<_>>(),
        [("Triage", "p1"), ("Triage", "p4")]
    );
    for p in &parked {
        assert_eq!(p.status, "parked");
        assert_eq!(p.tries, i64::from(FIRING_TRIES), "tried up to the bound, then parked");
        assert!(p.reason.contains("no answer for"), "the reason is kept: {}", p.reason);
    }
    // The agent's memory went on without the poison: one bug (m0) counted.
    assert_eq!(db.agent("Triage").unwrap().unwrap().0["open_bugs"], json!(1));
    let s = status(&state);
    assert_eq!(s["parked"], 2, "{s}");
    assert_eq!(s["parked_firings"][0]["event"], "p1", "{s}");
    assert_eq!(s["parked_firings"][0]["reason"].as_str().map(|r| r.contains("no answer")), Some(true), "{s}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_parked_firing_is_retried_and_skipped_by_command_and_a_restart_keeps_it_parked() {
    let (dir, mut args) = setup("isolation-retry");
    drain(&args);
    let state = args.state.clone().unwrap();
    let rows = listed(&state, false);
    let (p1, p4) = (id_of(&rows, "p1"), id_of(&rows, "p4"));

    // A restart (a host opened again over the same store) keeps both parked and fires neither.
    drain(&args);
    assert_eq!(listed(&state, false).len(), 2);
    assert_eq!(sorted(file_keys(&dir.join("out.jsonl"))), expected_besides_poison());

    // Retried while the provider still cannot answer p1: it runs once more and stays parked.
    let out = host_cli(&["parked", "retry", &p1.to_string(), "--state", state.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(listed(&state, false).iter().find(|r| r["id"] == p1).unwrap()["status"], "retry");
    // Retried once the provider answers p4: its effects land.
    assert!(host_cli(&["parked", "retry", &p4.to_string(), "--state", state.to_str().unwrap()]).status.success());
    args.provider = format!("recording:{}", recording(&dir, "later.json", true).display());
    drain(&args);
    let rows = listed(&state, false);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!((rows[0]["event"].as_str(), rows[0]["status"].as_str()), (Some("p1"), Some("parked")));
    assert_eq!(rows[0]["tries"], i64::from(FIRING_TRIES) + 1, "the retry counted a try");
    let mut expected = expected_besides_poison();
    expected.extend(["p4|Triage#0/1/react|react.add", "p4|Triage#0/2/create_task|tasks.create"].map(String::from));
    expected.push("p4|Triage#0/3/reply|message.send".into());
    let keys = file_keys(&dir.join("out.jsonl"));
    assert_eq!(sorted(keys), sorted(expected.clone()), "p4's effects landed once; p1's none");
    let all = listed(&state, true);
    assert_eq!(all.iter().find(|r| r["id"] == p4).unwrap()["status"], "retried");

    // Skipped: no longer parked, and neither a run nor a retry fires it.
    let out = host_cli(&["parked", "skip", &p1.to_string(), "--state", state.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(listed(&state, false).is_empty());
    assert_eq!(status(&state)["parked"], 0);
    let again = host_cli(&["parked", "retry", &p1.to_string(), "--state", state.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(1), "a skipped firing cannot be retried");
    let mut answered = serde_json::Map::new();
    answered.insert(classify_key("p1"), json!({"kind": "bug", "urgency": "now"}));
    let file = dir.join("all.json");
    std::fs::write(&file, json!({ "answers": answered }).to_string()).unwrap();
    args.provider = format!("recording:{}", file.display());
    drain(&args);
    assert_eq!(sorted(file_keys(&dir.join("out.jsonl"))), sorted(expected), "a skipped firing never fires");
    assert_eq!(listed(&state, true).iter().find(|r| r["id"] == p1).unwrap()["status"], "skipped");
    // The skip is in Triage's dedup set, which keeps any later run of p1 (a replay) from firing it.
    let db = Db::open(&state).unwrap();
    assert!(db.dedup_of("Triage", &["p1"]).unwrap().contains("p1"));
    assert_eq!(db.agent("Triage").unwrap().unwrap().0["open_bugs"], json!(2), "m0 and the retried p4");
    std::fs::remove_dir_all(&dir).unwrap();
}

fn get(url: &str) -> (u16, String) {
    match expresso_runtime::http::builder().build().unwrap().get(url).send() {
        Ok(r) => (r.status().as_u16(), r.text().unwrap_or_default()),
        Err(e) => panic!("{e}"),
    }
}

/// Waits for a condition, failing the test after a generous bound (not a speed assertion).
fn eventually(what: &str, mut f: impl FnMut() -> bool) {
    let start = Instant::now();
    while !f() {
        assert!(start.elapsed() < Duration::from_secs(30), "never: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn under_serve_a_poison_event_holds_no_other_room_and_leaves_the_server_ready() {
    let (dir, args) = setup("isolation-serve");
    let running = start(open(&args).unwrap(), "127.0.0.1:0".parse().unwrap(), Limits::default(), false).unwrap();
    let base = format!("http://{}", running.addr);
    eventually("ready", || get(&format!("{base}/readyz")).0 == 200);
    for line in log() {
        let client = expresso_runtime::http::builder().build().unwrap();
        let response =
            client.post(format!("{base}/events")).header("Content-Type", "application/json").body(line).send();
        assert_eq!(response.map(|r| r.status().as_u16()).ok(), Some(200));
    }
    let expected = expected_besides_poison();
    eventually("every effect but the poisons' written", || sorted(file_keys(&dir.join("out.jsonl"))) == expected);
    eventually("both poisons parked", || {
        get(&format!("{base}/metrics")).1.contains("expresso_firings_parked_total 2\n")
    });
    eventually("the backlog drained", || get(&format!("{base}/metrics")).1.contains("expresso_backlog_events 0\n"));
    assert_eq!(get(&format!("{base}/readyz")).0, 200, "a parked firing does not make the server unready");
    running.stop().unwrap();
    assert_eq!(sorted(file_keys(&dir.join("out.jsonl"))), expected, "each effect once");
    assert_eq!(Db::open(args.state.as_deref().unwrap()).unwrap().parked(false, 10).unwrap().len(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}
