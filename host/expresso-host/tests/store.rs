//! The store: one SQLite file in WAL mode; writes that belong together commit together.

mod common;

use common::*;
use expresso_host::store::{BatchWrite, Db};
use expresso_runtime::{Store, read_log};
use serde_json::json;

#[test]
fn the_store_is_one_wal_file_that_survives_reopening() {
    let dir = temp_dir("store-reopen");
    let events = read_log(&[event("a", 1, "x"), event("b", 2, "y"), event("a", 3, "again")].join("\n")).unwrap();
    {
        let mut db = Db::open(&dir).unwrap();
        // The second `a` has the same (id, rev): it is not appended again.
        assert_eq!(db.append(&events).unwrap(), vec![true, true, false]);
    }
    let conn = rusqlite::Connection::open(dir.join("expresso.db")).unwrap();
    let mode: String = conn.query_row("PRAGMA journal_mode", [], |r| r.get(0)).unwrap();
    assert_eq!(mode, "wal");
    let db = Db::open(&dir).unwrap();
    let read = db.events_after(0, 10).unwrap();
    assert_eq!(read.iter().map(|(_, e)| e.id.as_str()).collect::<Vec<_>>(), vec!["a", "b"]);
    assert_eq!(db.events_after(read[0].0, 10).unwrap().len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_batch_commits_whole_or_not_at_all() {
    let dir = temp_dir("store-atomic");
    let mut db = Db::open(&dir).unwrap();
    let good = BatchWrite {
        journal: vec![("A#0|e1/A#0/0/l".into(), "e1".into(), json!(1))],
        intents: vec![("e1|A#0/1/say|message.send".into(), "e1".into(), "message.send".into(), json!({"k": 1}))],
        dedup: vec![("A".into(), "e1".into())],
        memory: vec![("A".into(), serde_json::Map::from_iter([("n".to_string(), json!(1))]))],
        cursor: 1,
        parked: Vec::new(),
    };
    db.commit_batch(&good).unwrap();
    // A batch whose second intent repeats a key fails at that row: its cursor, memory, dedup and first
    // intent must not be written either.
    let bad = BatchWrite {
        journal: vec![("A#0|e2/A#0/0/l".into(), "e2".into(), json!(2))],
        intents: vec![
            ("e2|A#0/1/say|message.send".into(), "e2".into(), "message.send".into(), json!({})),
            ("e1|A#0/1/say|message.send".into(), "e1".into(), "message.send".into(), json!({})),
        ],
        dedup: vec![("A".into(), "e2".into())],
        memory: vec![("A".into(), serde_json::Map::from_iter([("n".to_string(), json!(2))]))],
        cursor: 2,
        parked: Vec::new(),
    };
    assert!(db.commit_batch(&bad).is_err());
    drop(db);
    let db = Db::open(&dir).unwrap();
    let (memory, cursor) = db.agent("A").unwrap().unwrap();
    assert_eq!((memory["n"].clone(), cursor), (json!(1), 1));
    assert!(db.dedup_of("A", &["e2"]).unwrap().is_empty());
    assert_eq!(db.dedup_of("A", &["e1", "e2"]).unwrap().len(), 1);
    assert!(db.journal_of(&["e2"]).unwrap().is_empty());
    assert!(db.world_of(&["e2"]).unwrap().is_empty());
    let counts = db.counts().unwrap();
    assert_eq!((counts.intent, counts.journal), (1, 1));
    let due = db.due_intents(i64::MAX, 10).unwrap();
    assert_eq!(due.len(), 1);
    assert_eq!(due[0].key, "e1|A#0/1/say|message.send");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn agent_memory_and_cursor_carry_across_restarts() {
    // Two bugs, a restart, a third bug: the reply counts three, so memory came back from the store; and
    // the first two are not run again, so the cursor did.
    let dir = temp_dir("store-memory");
    let (program, _, _, _) = triage_fixture(&dir, 0);
    let mut answers = serde_json::Map::new();
    for id in ["b1", "b2", "b3"] {
        answers.insert(format!("Triage#0|{id}/Triage#0/0/classify"), json!({"kind": "bug", "urgency": "now"}));
    }
    let recording = dir.join("recording.json");
    std::fs::write(&recording, json!({ "answers": answers }).to_string()).unwrap();
    std::fs::write(
        dir.join("sinks.toml"),
        "[sinks.log]\nkind = \"file\"\npath = \"out.jsonl\"\n[capabilities]\n\"react.add\" = \"log\"\n\"tasks.create\" = \"log\"\n\"message.send\" = \"log\"\n\"notify.send\" = \"log\"\n",
    )
    .unwrap();
    let args = expresso_host::cli::HostArgs {
        program,
        state: Some(dir.join("state")),
        sinks: dir.join("sinks.toml"),
        provider: format!("recording:{}", recording.display()),
        batch: 16,
    };
    let first = read_log(&[event("b1", 1, "one"), event("b2", 2, "two")].join("\n")).unwrap();
    let second = read_log(&event("b3", 3, "three")).unwrap();
    {
        let mut host = expresso_host::cli::open(&args).unwrap();
        host.db_mut().append(&first).unwrap();
        assert_eq!(host.drain(1_000).unwrap(), 0);
    }
    let mut host = expresso_host::cli::open(&args).unwrap();
    host.db_mut().append(&second).unwrap();
    assert_eq!(host.drain(1_000).unwrap(), 0);
    assert_eq!(host.cursor(), 3);
    let text = std::fs::read_to_string(dir.join("out.jsonl")).unwrap();
    let replies: Vec<String> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["capability"] == "message.send")
        .map(|v| v["receipt"]["args"]["text"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(replies, vec!["Logged. Open bugs: 1.", "Logged. Open bugs: 2.", "Logged. Open bugs: 3."]);
    // A third start has nothing to run and nothing to send: done receipts never fire again.
    let mut host = expresso_host::cli::open(&args).unwrap();
    assert_eq!(host.drain(1_000).unwrap(), 0);
    assert_eq!(std::fs::read_to_string(dir.join("out.jsonl")).unwrap(), text);
    assert_eq!(host.db().counts().unwrap().done, 9);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_store_defaults_to_the_state_place_and_is_private() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("store-place");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_expresso-host"))
        .arg("status")
        .env_remove("EXPRESSO_HOME")
        .env("XDG_STATE_HOME", &dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        r#"{"events":0,"journal":0,"intent":0,"done":0,"held":0,"parked":0,"parked_firings":[],"staged":0,"late":0,"corrections_refused":0,"refused_corrections":[]}"#
    );
    let place = dir.join("expresso");
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&place), 0o700);
    assert_eq!(mode(&place.join("expresso.db")), 0o600);
    // EXPRESSO_HOME comes first.
    let home = dir.join("home");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_expresso-host"))
        .arg("status")
        .env("EXPRESSO_HOME", &home)
        .env("XDG_STATE_HOME", &dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(home.join("state/expresso.db").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}
