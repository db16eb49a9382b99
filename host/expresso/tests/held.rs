//! `expresso held`: the receipts a sink held, listed, shown and released once from the `expresso` command.

use expresso_host::store::{BatchWrite, Db};
use serde_json::{Value, json};
use std::process::Command;

#[test]
fn held_lists_shows_and_releases_a_held_receipt_once() {
    let dir = std::env::temp_dir().join(format!("expresso-held-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let state = dir.join("state");
    let mut db = Db::open(&state).unwrap();
    let receipt = json!({ "idemKey": "m1|Desk#0/0/create_task|tasks.create", "effect": "tasks.create", "args": { "title": "Bug" } });
    let key = "m1|Desk#0/0/create_task|tasks.create".to_string();
    let intents = vec![(key.clone(), "m1".to_string(), "tasks.create".to_string(), receipt)];
    db.commit_batch(&BatchWrite { intents, ..BatchWrite::default() }).unwrap();
    db.mark_held(&key, "sink tasks: HTTP 422").unwrap();
    drop(db);
    let expresso = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_expresso"))
            .arg("held")
            .args(args)
            .args(["--state", state.to_str().unwrap()])
            .output()
            .unwrap()
    };
    let out = expresso(&["list"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let row: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((row["key"].as_str(), row["reason"].as_str()), (Some(key.as_str()), Some("sink tasks: HTTP 422")));
    let out = expresso(&["show", &key]);
    let shown: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(shown["receipt"]["args"]["title"], "Bug", "{shown}");
    assert_eq!(expresso(&["release", &key]).status.code(), Some(0));
    assert!(expresso(&["list"]).stdout.is_empty(), "a released receipt is no longer held");
    assert_eq!(Db::open(&state).unwrap().receipt_status(&key).unwrap().unwrap().0, "intent");
    let again = expresso(&["release", &key]);
    assert_eq!(again.status.code(), Some(1), "only a held receipt can be released");
    assert!(String::from_utf8_lossy(&again.stderr).contains("is not held: it is intent"));
    let unknown = expresso(&["show", "nope"]);
    assert_eq!(unknown.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("no receipt has the key nope"));
    std::fs::remove_dir_all(&dir).unwrap();
}
