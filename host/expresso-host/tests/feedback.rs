//! Effects that answer: what a sink answers for an action comes back into the log as a `receipt` event
//! its agent reacts to (once, a redelivery and a restart included); an agent's words come back as a
//! `message` other agents hear and it does not; a held receipt is listed, released by an operator and
//! delivered once.

mod common;

use common::temp_dir;
use expresso_host::feedback::MAX_FEEDBACK_DEPTH;
use expresso_host::held::{self, Released};
use expresso_host::metrics::Metrics;
use expresso_host::sinks::{Delivered, Sink, Sinks};
use expresso_host::store::{Db, Intent};
use expresso_host::{Host, LogStore};
use expresso_runtime::provider::NoProvider;
use expresso_runtime::{Event, read_log};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

const BIN: &str = env!("CARGO_BIN_EXE_expresso-host");

/// A receiver that honours the key: it answers each key with the same task id, made when first seen.
/// `held_first` refuses the first that many calls for good.
#[derive(Clone, Default)]
struct Recorder {
    /// Every call: the key and the receipt.
    calls: Arc<Mutex<Vec<(String, Value)>>>,
    ids: Arc<Mutex<BTreeMap<String, String>>>,
    answers: bool,
    held_first: usize,
}

impl Recorder {
    fn answering() -> Recorder {
        Recorder { answers: true, ..Recorder::default() }
    }
    fn calls(&self) -> Vec<(String, Value)> {
        self.calls.lock().unwrap().clone()
    }
    fn texts(&self) -> Vec<String> {
        self.calls().iter().map(|(_, r)| r["args"]["text"].as_str().unwrap_or("").to_string()).collect()
    }
}

impl Sink for Recorder {
    fn deliver(&mut self, items: &[&Intent]) -> Vec<Delivered> {
        items
            .iter()
            .map(|item| {
                let mut calls = self.calls.lock().unwrap();
                calls.push((item.key.clone(), item.receipt.clone()));
                if calls.len() <= self.held_first {
                    return Delivered::Held("HTTP 409: the board is locked".into());
                }
                if !self.answers {
                    return Delivered::Done;
                }
                let mut ids = self.ids.lock().unwrap();
                let next = format!("T-{}", ids.len() + 1);
                let id = ids.entry(item.key.clone()).or_insert(next).clone();
                Delivered::Answered(json!({ "id": id }))
            })
            .collect()
    }
}

fn program(source: &str) -> expresso_lang::Compiled {
    expresso_lang::compile(source).unwrap_or_else(|d| panic!("{d:?}"))
}

fn host(source: &str, state: &Path, tasks: &Recorder, chat: &Recorder) -> Host {
    let mut by_name: BTreeMap<String, Box<dyn Sink>> = BTreeMap::new();
    by_name.insert("tasks".into(), Box::new(tasks.clone()));
    by_name.insert("chat".into(), Box::new(chat.clone()));
    let caps = [("tasks.create", "tasks"), ("message.send", "chat"), ("react.add", "chat")]
        .into_iter()
        .map(|(c, s)| (c.to_string(), s.to_string()))
        .collect();
    Host::new(program(source), Db::open(state).unwrap(), Sinks::new(by_name, caps), Box::new(NoProvider))
}

fn message(id: &str, t: u64, room: &str, text: &str) -> Event {
    let line = json!({
        "id": id,
        "partition": {"workspace": "acme", "room": room},
        "type": "message",
        "payload": {"speaker": "dana", "text": text},
        "t_event": t,
    });
    read_log(&line.to_string()).unwrap().remove(0)
}

/// Every event of the log, in log order.
fn log(host: &mut Host) -> Vec<Event> {
    host.db_mut().events_after(0, 10_000).unwrap().into_iter().map(|(_, e)| e).collect()
}

const DESK: &str = r#"agent "Desk" {
  grants { tasks.create, message.send }
  at most world
  lives in channel #support

  on message /bug/ {
    create_task "Bug: {.message}"
  }

  on receipt "tasks.create" {
    reply "Filed as {.answer.id}."
  }
}
"#;

#[test]
fn a_receipt_event_reaches_its_agent_and_the_reaction_runs_once_after_a_redelivery_and_a_restart() {
    let dir = temp_dir("feedback-receipt");
    let state = dir.join("state");
    let (tasks, chat) = (Recorder::answering(), Recorder::answering());
    let mut first = host(DESK, &state, &tasks, &chat);
    first.db_mut().append(&[message("m1", 1_000, "#support", "the export has a bug")]).unwrap();
    assert_eq!(first.drain(2_000).unwrap(), 0);

    let created = tasks.calls();
    assert_eq!(created.len(), 1, "{created:?}");
    let task_key = created[0].0.clone();
    // The sink's answer reached the agent: its reaction says the id the receiver gave.
    assert_eq!(chat.texts(), vec!["Filed as T-1.".to_string()]);

    let events = log(&mut first);
    assert_eq!(events.len(), 2, "{events:?}");
    let receipt = &events[1];
    assert_eq!(serde_json::to_value(receipt.kind).unwrap(), json!("receipt"));
    assert_eq!(receipt.id, format!("receipt|{task_key}"));
    assert_eq!(receipt.partition, events[0].partition);
    assert_eq!(receipt.t_event, 1_000);
    assert_eq!(receipt.payload["agent"], "Desk");
    assert_eq!(receipt.payload["key"], task_key.as_str());
    assert_eq!(receipt.payload["capability"], "tasks.create");
    assert_eq!(receipt.payload["verb"], "create_task");
    assert_eq!(receipt.payload["event"], "m1");
    assert_eq!(receipt.payload["answer"], json!({ "id": "T-1" }));
    assert_eq!(receipt.payload["depth"], 1);
    // The receipt event is journaled like any event: the agent's dedup holds it.
    assert_eq!(first.db().dedup_of("Desk", &[receipt.id.as_str()]).unwrap().len(), 1);
    drop(first);

    // A crash between the append and the `done` mark: the receipt is `intent` again, and the restarted
    // host sends it again (the receiver answers the same id for the same key).
    let conn = rusqlite::Connection::open(state.join("expresso.db")).unwrap();
    assert_eq!(conn.execute("UPDATE world SET status = 'intent' WHERE key = ?1", [&task_key]).unwrap(), 1);
    drop(conn);
    let mut again = host(DESK, &state, &tasks, &chat);
    assert_eq!(again.drain(2_000).unwrap(), 0);
    assert_eq!(tasks.calls().len(), 2, "the receipt was sent again");
    assert_eq!(again.db().receipt_status(&task_key).unwrap().unwrap().0, "done");
    // The log kept the receipt event once, and the reaction ran once.
    assert_eq!(log(&mut again).len(), 2);
    assert_eq!(chat.texts(), vec!["Filed as T-1.".to_string()]);
    drop(again);

    // A plain restart adds nothing.
    let mut third = host(DESK, &state, &tasks, &chat);
    assert_eq!(third.drain(1_000).unwrap(), 0);
    assert_eq!((tasks.calls().len(), chat.calls().len(), log(&mut third).len()), (2, 1, 2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_receipt_filter_and_another_agents_receipts_do_not_fire_it() {
    let source = r#"agent "Desk" {
  grants { tasks.create, message.send }
  at most world
  lives in channel #support
  on message /bug/ { create_task "Bug: {.message}" }
  on receipt "message.send" { reply "a note" }
}

agent "Other" {
  grants { message.send }
  at most world
  lives in channel #support
  on receipt { reply "not mine" }
}
"#;
    let dir = temp_dir("feedback-filter");
    let (tasks, chat) = (Recorder::answering(), Recorder::answering());
    let mut h = host(source, &dir.join("state"), &tasks, &chat);
    h.db_mut().append(&[message("m1", 1_000, "#support", "a bug")]).unwrap();
    assert_eq!(h.drain(1_000).unwrap(), 0);
    assert_eq!(tasks.calls().len(), 1);
    // Desk listens for another capability's receipts, Other for its own: no receipt event is written,
    // and nobody replies.
    assert_eq!(log(&mut h).len(), 1);
    assert!(chat.calls().is_empty(), "{:?}", chat.calls());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_agents_own_reply_comes_back_into_the_log_and_it_does_not_answer_itself() {
    let source = r#"agent "Echo" {
  grants { message.send }
  at most world
  lives in channel #random
  on message { reply "echo: {.message}" }
}
"#;
    let dir = temp_dir("feedback-words");
    let (tasks, chat) = (Recorder::default(), Recorder::default());
    let mut h = host(source, &dir.join("state"), &tasks, &chat);
    h.feedback.words = true;
    h.db_mut().append(&[message("m1", 1_000, "#random", "hi")]).unwrap();
    assert_eq!(h.drain(1_000).unwrap(), 0);

    let events = log(&mut h);
    assert_eq!(events.len(), 2, "{events:?}");
    let said = &events[1];
    assert_eq!(said.id, format!("said|{}", chat.calls()[0].0));
    assert_eq!(serde_json::to_value(said.kind).unwrap(), json!("message"));
    assert_eq!(said.partition, events[0].partition);
    assert_eq!(said.payload["speaker"], "Echo");
    assert_eq!(said.payload["agent"], "Echo");
    assert_eq!(said.payload["text"], "echo: hi");
    // Its own words did not fire it: one reply, and the log ends there.
    assert_eq!(chat.texts(), vec!["echo: hi".to_string()]);
    assert!(h.db().dedup_of("Echo", &[said.id.as_str()]).unwrap().is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn two_agents_answering_each_other_stop_at_the_feedback_depth_bound() {
    let source = r#"agent "Ping" {
  grants { message.send }
  at most world
  lives in channel #random
  on message { reply "ping" }
}

agent "Pong" {
  grants { react.add }
  at most world
  lives in channel #random
  on message { react "🏓" }
}
"#;
    let dir = temp_dir("feedback-depth");
    let (tasks, chat) = (Recorder::default(), Recorder::default());
    let mut h = host(source, &dir.join("state"), &tasks, &chat);
    h.feedback.words = true;
    h.db_mut().append(&[message("m1", 1_000, "#random", "serve")]).unwrap();
    assert_eq!(h.drain(5_000).unwrap(), 0);

    let events = log(&mut h);
    // Each hears the other's words (and not its own). m1 gives Ping's reply and Pong's reaction (depth
    // 1); each of those gives the other's answer (depth 2), and so on up to the bound; the answers to
    // depth-8 events are not written.
    let depth = |e: &Event| e.payload.get("depth").and_then(Value::as_u64).unwrap_or(0);
    assert_eq!(events.iter().map(depth).max(), Some(MAX_FEEDBACK_DEPTH));
    assert_eq!(events.len() as u64, 1 + 2 * MAX_FEEDBACK_DEPTH, "{events:?}");
    assert_eq!(Metrics::get(&h.metrics.feedback_dropped), 2);
    let agent = |e: &Event| e.payload.get("agent").and_then(Value::as_str).unwrap_or("").to_string();
    assert!(events.iter().skip(1).all(|e| agent(e) == "Ping" || agent(e) == "Pong"), "{events:?}");
    let reaction = events.iter().find(|e| agent(e) == "Pong" && depth(e) == 1).unwrap();
    assert_eq!((reaction.payload["text"].as_str(), reaction.payload["reaction_to"].as_str()), (Some("🏓"), Some("m1")));
    std::fs::remove_dir_all(&dir).unwrap();
}

fn held_cli(state: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(BIN)
        .args(["held", "--state", state.to_str().unwrap()])
        .args(args)
        .env_remove("EXPRESSO_FAULT")
        .output()
        .unwrap()
}

#[test]
fn a_held_receipt_is_listed_released_by_command_and_delivered_once() {
    let dir = temp_dir("feedback-held");
    let state = dir.join("state");
    let tasks = Recorder { held_first: 1, ..Recorder::answering() };
    let chat = Recorder::answering();
    let mut h = host(DESK, &state, &tasks, &chat);
    h.db_mut().append(&[message("m1", 1_000, "#support", "a bug")]).unwrap();
    assert_eq!(h.drain(1_000).unwrap(), 0);
    assert_eq!(h.db().counts().unwrap().held, 1);
    let key = tasks.calls()[0].0.clone();
    // Held: no receipt event, no reaction.
    assert!(chat.calls().is_empty());
    drop(h);

    let out = held_cli(&state, &["list"]);
    assert!(out.status.success(), "{out:?}");
    let lines: Vec<Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["key"], key.as_str());
    assert_eq!(lines[0]["capability"], "tasks.create");
    assert_eq!(lines[0]["status"], "held");
    assert_eq!(lines[0]["reason"], "HTTP 409: the board is locked");

    let out = held_cli(&state, &["show", &key]);
    assert!(out.status.success(), "{out:?}");
    let shown: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(shown["receipt"]["args"]["title"], "Bug: a bug");

    let out = held_cli(&state, &["release", &key]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(serde_json::from_slice::<Value>(&out.stdout).unwrap(), json!({ "key": key, "status": "intent" }));

    // The next host delivers it, once, and its answer comes back to the agent.
    let mut h = host(DESK, &state, &tasks, &chat);
    assert_eq!(h.drain(1_000).unwrap(), 0);
    assert_eq!(tasks.calls().len(), 2);
    assert_eq!(h.db().receipt_status(&key).unwrap().unwrap().0, "done");
    assert_eq!(chat.texts(), vec!["Filed as T-1.".to_string()]);
    drop(h);

    // A second release does nothing and says so.
    let out = held_cli(&state, &["release", &key]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("is not held: it is done") && said.contains("nothing was changed"), "{said}");
    let mut db = Db::open(&state).unwrap();
    assert_eq!(held::release(&mut db, &key).unwrap(), Released::NotHeld("done".into()));
    assert_eq!(held::release(&mut db, "no-such-key").unwrap(), Released::Unknown);
    assert!(held::list(&mut db, 10).unwrap().is_empty());
    drop(db);
    let mut h = host(DESK, &state, &tasks, &chat);
    assert_eq!(h.drain(1_000).unwrap(), 0);
    assert_eq!((tasks.calls().len(), chat.calls().len()), (2, 1));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A receiver on a thread: it answers each request with `answer(n, key)` as a 2xx body (n from 0), and
/// records each request's `Idempotency-Key`.
fn answering_server(answer: fn(usize, &str) -> String) -> (String, Arc<Mutex<Vec<String>>>) {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    let keys = Arc::new(Mutex::new(Vec::new()));
    let seen = keys.clone();
    std::thread::spawn(move || {
        for (n, stream) in listener.incoming().enumerate() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let (mut key, mut length) = (String::new(), 0usize);
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                let lower = line.to_ascii_lowercase();
                if let Some(v) = lower.strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
                if lower.starts_with("idempotency-key:") {
                    key = line["idempotency-key:".len()..].trim().to_string();
                }
            }
            let mut body = vec![0u8; length];
            let _ = reader.read_exact(&mut body);
            seen.lock().unwrap().push(key.clone());
            let text = answer(n, &key);
            let _ = write!(
                stream,
                "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
                text.len()
            );
        }
    });
    (url, keys)
}

fn intent(key: &str) -> Intent {
    Intent {
        key: key.into(),
        capability: "tasks.create".into(),
        receipt: json!({ "idemKey": key, "effect": "tasks.create", "verb": "create_task", "args": {} }),
        attempts: 0,
        started: false,
    }
}

#[test]
fn an_http_sink_answers_with_its_2xx_body_as_json_else_as_text_and_nothing_when_empty() {
    let (url, keys) = answering_server(|n, _| match n {
        0 => r#"{"id":"T-42"}"#.to_string(),
        1 => "created".to_string(),
        _ => String::new(),
    });
    let dir = temp_dir("feedback-http-answer");
    let path = dir.join("sinks.toml");
    std::fs::write(
        &path,
        format!("[sinks.tasks]\nkind = \"http\"\nurl = \"{url}\"\nin_flight = 1\n\n[capabilities]\n\"tasks.create\" = \"tasks\"\n"),
    )
    .unwrap();
    let config = expresso_host::config::Config::read(&path).unwrap();
    let mut sinks = Sinks::from_config(&config).unwrap();
    let sink = sinks.get_mut("tasks").unwrap();
    let (a, b, c) = (intent("k1"), intent("k2"), intent("k3"));
    assert_eq!(
        sink.deliver(&[&a, &b, &c]),
        vec![Delivered::Answered(json!({ "id": "T-42" })), Delivered::Answered(json!("created")), Delivered::Done]
    );
    assert_eq!(*keys.lock().unwrap(), vec!["k1", "k2", "k3"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_answer_past_its_bound_is_not_carried_and_the_event_says_why() {
    let (url, _) = answering_server(|_, _| format!("\"{}\"", "x".repeat(expresso_host::feedback::MAX_ANSWER_BYTES)));
    let dir = temp_dir("feedback-http-large");
    let path = dir.join("sinks.toml");
    std::fs::write(
        &path,
        format!("[sinks.tasks]\nkind = \"http\"\nurl = \"{url}\"\n\n[sinks.chat]\nkind = \"file\"\npath = \"chat.jsonl\"\n\n[capabilities]\n\"tasks.create\" = \"tasks\"\n\"message.send\" = \"chat\"\n"),
    )
    .unwrap();
    let config = expresso_host::config::Config::read(&path).unwrap();
    let state = dir.join("state");
    let mut h =
        Host::new(program(DESK), Db::open(&state).unwrap(), Sinks::from_config(&config).unwrap(), Box::new(NoProvider));
    h.db_mut().append(&[message("m1", 1_000, "#support", "a bug")]).unwrap();
    assert_eq!(h.drain(2_000).unwrap(), 0);
    let events = log(&mut h);
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(events[1].payload["answer"], Value::Null);
    let why = events[1].payload["answer_dropped"].as_str().unwrap();
    assert!(why.contains("more than 16384"), "{why}");
    // The reaction still ran, with nothing in `.answer.id`.
    let lines = std::fs::read_to_string(dir.join("chat.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 1, "{lines}");
    assert!(lines.contains("Filed as"), "{lines}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sigkill_between_the_receipt_event_and_the_done_mark_appends_it_once_and_reacts_once() {
    let (url, keys) = answering_server(|_, _| r#"{"id":"T-7"}"#.to_string());
    let dir = temp_dir("feedback-sigkill");
    let program_path = dir.join("desk.ex");
    std::fs::write(&program_path, DESK).unwrap();
    let sinks = dir.join("sinks.toml");
    std::fs::write(
        &sinks,
        format!("[sinks.tasks]\nkind = \"http\"\nurl = \"{url}\"\n\n[sinks.chat]\nkind = \"file\"\npath = \"chat.jsonl\"\n\n[capabilities]\n\"tasks.create\" = \"tasks\"\n\"message.send\" = \"chat\"\n"),
    )
    .unwrap();
    let events = dir.join("events.jsonl");
    std::fs::write(
        &events,
        json!({"id": "m1", "partition": {"workspace": "acme", "room": "#support"}, "type": "message",
               "payload": {"speaker": "dana", "text": "a bug"}, "t_event": 1000})
        .to_string(),
    )
    .unwrap();
    let state = dir.join("state");
    let run = |args: &[&str], fault: Option<&str>| {
        let mut cmd = std::process::Command::new(BIN);
        cmd.args(args).env_remove("EXPRESSO_FAULT");
        if let Some(f) = fault {
            cmd.env("EXPRESSO_FAULT", f);
        }
        cmd.output().unwrap()
    };
    let (state_s, program_s, sinks_s) =
        (state.to_str().unwrap(), program_path.to_str().unwrap(), sinks.to_str().unwrap());
    let out = run(&["ingest", "--state", state_s, events.to_str().unwrap()], None);
    assert!(out.status.success(), "{out:?}");
    let drain = ["drain", program_s, "--state", state_s, "--sinks", sinks_s, "--settle-ms", "2000"];
    let out = run(&drain, Some("after-feedback"));
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(out.status.signal(), Some(9), "the drain was not killed after the append: {out:?}");
    {
        let db = Db::open(&state).unwrap();
        // Killed after the receipt event's append, before the `done` mark: the event is in the log, the
        // receipt still `intent`.
        assert_eq!(db.counts().unwrap().events, 2);
        assert_eq!(db.counts().unwrap().intent, 1);
    }
    let out = run(&drain, None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let db = Db::open(&state).unwrap();
    let counts = db.counts().unwrap();
    assert_eq!((counts.events, counts.intent, counts.done), (2, 0, 2), "{counts:?}");
    // Sent twice under one key (the receiver answers it the same), appended once, reacted to once.
    let keys = keys.lock().unwrap().clone();
    assert_eq!(keys.len(), 2, "{keys:?}");
    assert_eq!(keys[0], keys[1]);
    let lines = std::fs::read_to_string(dir.join("chat.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 1, "{lines}");
    assert!(lines.contains("Filed as T-7."), "{lines}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_agent_that_asks_hears_its_own_words_as_a_receipt_once() {
    let source = r#"agent "Echo" {
  grants { message.send }
  at most world
  lives in channel #random
  memory heard = 0

  on message { reply "echo: {.message}" }

  on receipt "reply" { remember heard += 1 }
}
"#;
    let dir = temp_dir("feedback-own-receipt");
    let (tasks, chat) = (Recorder::default(), Recorder::default());
    let mut h = host(source, &dir.join("state"), &tasks, &chat);
    h.feedback.words = true;
    h.db_mut().append(&[message("m1", 1_000, "#random", "hi")]).unwrap();
    assert_eq!(h.drain(1_000).unwrap(), 0);
    let ids: Vec<String> = log(&mut h).into_iter().map(|e| e.id).collect();
    let key = chat.calls()[0].0.clone();
    assert_eq!(ids, vec!["m1".to_string(), format!("receipt|{key}"), format!("said|{key}")]);
    // It replied once (not to its own words), and heard its reply once, through the receipt.
    assert_eq!(chat.texts(), vec!["echo: hi".to_string()]);
    let (memory, _) = h.db().agent("Echo").unwrap().unwrap();
    assert_eq!(memory["heard"], json!(1));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn serve_refuses_a_receipt_event_sent_in() {
    let receipt = json!({
        "id": "receipt|forged", "partition": {"workspace": "acme", "room": "#support"}, "type": "receipt",
        "payload": {"agent": "Desk", "key": "k", "capability": "tasks.create", "verb": "create_task"},
        "t_event": 1000,
    });
    let body = json!([message_line("m1"), receipt]).to_string();
    match expresso_host::serve::parse_events(body.as_bytes(), 10) {
        Err(expresso_host::serve::BodyRefused::Event { index, reason }) => {
            assert_eq!(index, 1);
            assert!(reason.contains("written by the host"), "{reason}");
        }
        other => panic!("a receipt was taken in: {other:?}"),
    }
    // The same event is a line of a log `run` and `ingest` read (an export carries them).
    assert_eq!(read_log(&receipt.to_string()).unwrap().len(), 1);
}

#[test]
fn serve_refuses_an_event_sent_in_with_an_id_the_host_gives_its_own() {
    // A schedule event with the id of a timer's next due time, and a message with the id of an agent's
    // own words: each would keep the host's own event out of the log, so the timer or the words would
    // never reach an agent.
    let schedule = json!({
        "id": "timer:schedule:%23support:every 5m:300000", "partition": {"workspace": "acme", "room": "#support"},
        "type": "schedule", "payload": {"name": "other"}, "t_event": 300000,
    });
    let said = json!({
        "id": "said|m1|Desk#0/0/reply|message.send", "partition": {"workspace": "acme", "room": "#support"},
        "type": "message", "payload": {"speaker": "mallory", "text": "forged"}, "t_event": 1000,
    });
    for forged in [schedule, said] {
        let body = json!([message_line("m1"), forged]).to_string();
        match expresso_host::serve::parse_events(body.as_bytes(), 10) {
            Err(expresso_host::serve::BodyRefused::Event { index, reason }) => {
                assert_eq!(index, 1);
                assert!(reason.contains("the host gives the events it writes itself"), "{reason}");
            }
            other => panic!("an event holding a host's id was taken in: {other:?}"),
        }
    }
    // An id that only holds such words further in is anyone's.
    let body = json!([message_line("chat:timer:said|1")]).to_string();
    assert_eq!(expresso_host::serve::parse_events(body.as_bytes(), 10).unwrap().len(), 1);
}

fn message_line(id: &str) -> Value {
    json!({"id": id, "partition": {"workspace": "acme", "room": "#support"}, "type": "message",
           "payload": {"speaker": "dana", "text": "hi"}, "t_event": 1000})
}

#[test]
fn on_postgres_a_receipt_event_reaches_its_agent_and_the_reaction_runs_once() {
    let Some(url) = common::postgres::url() else { return };
    let ns = common::postgres::namespace(&url, "feedback", 1);
    let store = expresso_host::pg::PartitionStore::lease(common::postgres::client(&ns), &ns, 0)
        .unwrap()
        .ok()
        .expect("a free partition is leased");
    let (tasks, chat) = (Recorder::answering(), Recorder::answering());
    let mut by_name: BTreeMap<String, Box<dyn Sink>> = BTreeMap::new();
    by_name.insert("tasks".into(), Box::new(tasks.clone()));
    by_name.insert("chat".into(), Box::new(chat.clone()));
    let caps = [("tasks.create", "tasks"), ("message.send", "chat")]
        .into_iter()
        .map(|(c, s)| (c.to_string(), s.to_string()))
        .collect();
    let mut h = Host::new(program(DESK), store, Sinks::new(by_name, caps), Box::new(NoProvider));
    h.db_mut().append(&[message("m1", 1_000, "#support", "the export has a bug")]).unwrap();
    assert_eq!(h.drain(2_000).unwrap(), 0);
    let task_key = tasks.calls()[0].0.clone();
    assert_eq!(chat.texts(), vec!["Filed as T-1.".to_string()]);
    let events: Vec<Event> = h.db_mut().events_after(0, 100).unwrap().into_iter().map(|(_, e)| e).collect();
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(events[1].id, format!("receipt|{task_key}"));
    assert_eq!(events[1].payload["answer"], json!({ "id": "T-1" }));
    // Sent again (as after a crash before its `done` mark): the log keeps the event once, no new reaction.
    let mut look = common::postgres::client(&ns);
    assert_eq!(look.execute("UPDATE world SET status = 'intent' WHERE key = $1", &[&task_key]).unwrap(), 1);
    assert_eq!(h.drain(2_000).unwrap(), 0);
    assert_eq!(tasks.calls().len(), 2);
    assert_eq!(h.db_mut().events_after(0, 100).unwrap().len(), 2);
    assert_eq!(chat.calls().len(), 1);
}

#[test]
fn many_agents_answering_each_other_stop_at_the_budget_of_the_outside_event() {
    let agent = |name: &str| {
        format!(
            "agent \"{name}\" {{\n  grants {{ message.send }}\n  at most world\n  lives in channel #random\n  on message {{ reply \"{name} here\" }}\n}}\n"
        )
    };
    let source: String = ["A", "B", "C", "D"].iter().map(|n| agent(n)).collect();
    let dir = temp_dir("feedback-budget");
    let (tasks, chat) = (Recorder::default(), Recorder::default());
    let mut h = host(&source, &dir.join("state"), &tasks, &chat);
    h.feedback.words = true;
    h.db_mut().append(&[message("m1", 1_000, "#random", "anyone?")]).unwrap();
    assert_eq!(h.drain(10_000).unwrap(), 0);
    let events = log(&mut h);
    // Without a budget, each reply is answered by the three others up to depth 8 (4·3⁷ at the last
    // level alone). With it: m1's 65 of fuel gives each of its 4 replies 16; each of those gives its 3
    // answers 5; each of those its 3 answers 1; their answers would have 0 and are not written.
    assert_eq!(events.len() - 1, 4 + 12 + 36, "{}", events.len());
    assert!(events.len() as u64 - 1 <= expresso_host::feedback::MAX_FEEDBACK_EVENTS);
    assert_eq!(Metrics::get(&h.metrics.feedback_dropped), 36 * 3);
    assert_eq!(chat.calls().len(), 4 + 12 + 36 + 36 * 3, "every reply is delivered; only its echo is cut");
    std::fs::remove_dir_all(&dir).unwrap();
}
