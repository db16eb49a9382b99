//! The command line beyond the transcripts: replay leaves the journal and world files byte for byte as
//! they were, and `conform` answers a vector case from stdin.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn triage() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../transcripts/expresso-triage")
}

#[test]
fn replay_with_the_journal_is_bit_identical() {
    let work = std::env::temp_dir().join(format!("expresso-cli-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    let (journal, world) = (work.join("journal.json"), work.join("world.json"));
    let expresso = |verb: &str, provider: &str| {
        Command::new(env!("CARGO_BIN_EXE_expresso"))
            .args([verb, "triage.ex", "--events", "events.jsonl", "--provider", provider, "--journal"])
            .arg(&journal)
            .arg("--world")
            .arg(&world)
            .current_dir(triage())
            .output()
            .unwrap()
    };
    let first = expresso("run", "recording:recording.json");
    assert_eq!(first.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&first.stdout).lines().count(), 5);
    let before = (std::fs::read(&journal).unwrap(), std::fs::read(&world).unwrap());
    let replay = expresso("replay", "none");
    assert_eq!(replay.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&replay.stdout),
        "replay: 0 provider calls · 0 new effects · journal unchanged · world unchanged\n"
    );
    assert_eq!(before, (std::fs::read(&journal).unwrap(), std::fs::read(&world).unwrap()));
    std::fs::remove_dir_all(&work).unwrap();
}

#[test]
fn conform_answers_a_case_from_stdin() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_expresso"))
        .args(["conform", "expresso-parse"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(br#"{"source":"agent \"X\" { on meeting over { } }"}"#).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value, serde_json::json!({"error": {"code": "E_MEETING_PHASE", "line": 1, "column": 24}}));
}

#[test]
fn serve_refuses_a_sink_configuration_that_leaves_an_effect_nowhere_to_go() {
    let dir = std::env::temp_dir().join(format!("expresso-serve-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let program = dir.join("a.ex");
    std::fs::write(&program, "agent \"A\" {\n  grants { message.send }\n  on message /hi/ { say \"hello\" }\n}\n")
        .unwrap();
    let sinks = dir.join("sinks.toml");
    std::fs::write(&sinks, "[sinks.log]\nkind = \"file\"\npath = \"out.jsonl\"\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_expresso"))
        .args(["serve", program.to_str().unwrap(), "--state", dir.join("state").to_str().unwrap()])
        .args(["--sinks", sinks.to_str().unwrap(), "--listen", "127.0.0.1:0"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("sinks.toml: [capabilities] maps no sink for message.send"), "{stderr}");
    assert!(stderr.contains("fix: add `\"message.send\" = \"SINK\"` under [capabilities]"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_that_cannot_be_read_is_named_with_a_fix_in_plain_words() {
    let out = Command::new(env!("CARGO_BIN_EXE_expresso"))
        .args(["run", "triage.ex", "--events", "no-such-events.jsonl"])
        .current_dir(triage())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("error: cannot read the event log no-such-events.jsonl: "), "{stderr}");
    assert!(stderr.contains("= fix: name a readable event log\n"), "{stderr}");
}

#[test]
fn status_lists_a_parked_firing_and_parked_skip_ends_it_once() {
    use expresso_host::store::{BatchWrite, Db};
    let dir = std::env::temp_dir().join(format!("expresso-parked-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let state = dir.join("state");
    let mut db = Db::open(&state).unwrap();
    let line = r##"{"id":"p1","partition":{"workspace":"acme","room":"#support"},"type":"message","payload":{"speaker":"dana","text":"?"},"t_event":1}"##;
    db.append(&expresso_runtime::read_log(line).unwrap()).unwrap();
    let parked = vec![("Triage".into(), "p1".into(), 1, 5, "no answer for `k`: none".into())];
    db.commit_batch(&BatchWrite { parked, cursor: 1, ..BatchWrite::default() }).unwrap();
    drop(db);
    let expresso = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_expresso"))
            .args(args)
            .args(["--state", state.to_str().unwrap()])
            .output()
            .unwrap()
    };
    let out = expresso(&["status"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let status: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(status["parked"], 1, "{status}");
    assert_eq!(status["parked_firings"][0]["agent"], "Triage", "{status}");
    assert_eq!(status["parked_firings"][0]["reason"], "no answer for `k`: none", "{status}");
    let out = expresso(&["parked", "list"]);
    let row: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let id = row["id"].to_string();
    assert_eq!(expresso(&["parked", "skip", &id]).status.code(), Some(0));
    assert!(expresso(&["parked", "list"]).stdout.is_empty(), "a skipped firing is no longer parked");
    let again = expresso(&["parked", "skip", &id]);
    assert_eq!(again.status.code(), Some(1), "only a parked firing can be skipped");
    assert!(String::from_utf8_lossy(&again.stderr).contains(&format!("no firing {id} is parked")));
    std::fs::remove_dir_all(&dir).unwrap();
}
