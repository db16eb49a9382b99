//! A log with receipt events, exported from the durable host, replays under `expresso run` to the same
//! effects: the reaction to a receipt needs the receipt event, not the sink's answer again.

use expresso_host::Host;
use expresso_host::sinks::{Delivered, Sink, Sinks};
use expresso_host::store::{Db, Intent};
use expresso_runtime::provider::NoProvider;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

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

/// Takes every receipt, answering a task id.
struct Answers;

impl Sink for Answers {
    fn deliver(&mut self, items: &[&Intent]) -> Vec<Delivered> {
        items.iter().map(|_| Delivered::Answered(json!({ "id": "T-9" }))).collect()
    }
}

#[test]
fn run_on_the_export_of_a_log_with_receipt_events_gives_the_same_effects() {
    let dir = std::env::temp_dir().join(format!("expresso-feedback-export-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let state = dir.join("state");
    let compiled = expresso_lang::compile(DESK).unwrap();
    let mut by_name: BTreeMap<String, Box<dyn Sink>> = BTreeMap::new();
    by_name.insert("all".into(), Box::new(Answers));
    let caps = [("tasks.create", "all"), ("message.send", "all")].map(|(c, s)| (c.to_string(), s.to_string()));
    let mut host =
        Host::new(compiled, Db::open(&state).unwrap(), Sinks::new(by_name, caps.into()), Box::new(NoProvider));
    let line = json!({"id": "m1", "partition": {"workspace": "acme", "room": "#support"}, "type": "message",
                      "payload": {"speaker": "dana", "text": "a bug"}, "t_event": 1000});
    host.db_mut().append(&expresso_runtime::read_log(&line.to_string()).unwrap()).unwrap();
    assert_eq!(host.drain(2_000).unwrap(), 0);
    drop(host);

    let served = world_keys(&state);
    assert_eq!(served.len(), 2, "the task and the reply to its receipt: {served:?}");
    let export = dir.join("export.jsonl");
    let mut db = Db::open(&state).unwrap();
    expresso_host::export::write(&mut db, &export).unwrap();
    let text = std::fs::read_to_string(&export).unwrap();
    assert!(text.contains("\"type\":\"receipt\""), "{text}");

    let program = dir.join("desk.ex");
    std::fs::write(&program, DESK).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_expresso"))
        .args(["run", program.to_str().unwrap(), "--events", export.to_str().unwrap(), "--provider", "none"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let effects: Vec<Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let keys: BTreeSet<String> = effects.iter().map(|e| e["idemKey"].as_str().unwrap().to_string()).collect();
    assert_eq!(keys, served);
    let reply = effects.iter().find(|e| e["effect"] == "message.send").unwrap();
    assert_eq!(reply["args"]["text"], "Filed as T-9.");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The keys of the store's world table: every effect of every event of its log.
fn world_keys(state: &std::path::Path) -> BTreeSet<String> {
    use expresso_runtime::Store;
    let db = Db::open(state).unwrap();
    let events = db.events_after(0, 1_000).unwrap();
    let ids: Vec<&str> = events.iter().map(|(_, e)| e.id.as_str()).collect();
    db.world_of(&ids).unwrap().entries().into_iter().map(|(k, _)| k.to_string()).collect()
}
