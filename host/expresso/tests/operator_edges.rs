//! The operator's commands at their edges: `held` on a place with no store names it and makes none,
//! `check --against` counts and advises right, and a `run` stopped in its retries has recorded what it
//! printed.

use std::process::Command;

#[path = "../../expresso-runtime/tests/endpoint/mod.rs"]
mod endpoint;

#[test]
fn held_on_a_place_without_a_store_says_so_and_makes_none() {
    let dir = std::env::temp_dir().join(format!("expresso-attack-held-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let typo = dir.join("stat");
    for args in [&["list"][..], &["show", "k"], &["release", "k"]] {
        let out = Command::new(env!("CARGO_BIN_EXE_expresso"))
            .arg("held")
            .args(args)
            .args(["--state", typo.to_str().unwrap()])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("no expresso.db") && stderr.contains(typo.to_str().unwrap()), "{stderr}");
        assert!(!typo.exists(), "{args:?} made a store at {}", typo.display());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A fuzzy trigger's journaled answers whose trigger is no longer fuzzy: the fix names the trigger, not
/// an id (a trigger takes none: `id "trigger"` would not even parse where it is told to go).
#[test]
fn check_against_a_fuzzy_trigger_gone_gives_a_fix_a_trigger_can_take() {
    let dir = std::env::temp_dir().join(format!("expresso-attack-fuzzy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("journal.json"),
        r#"{"expresso":"journal","version":1,"entries":{"Echo#0|m1/Echo#0/trigger":true}}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("edited.ex"),
        "agent \"Echo\" {\n  grants { message.send }\n  at most world\n  on message /help/ {\n    reply \"hi\"\n  }\n}\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_expresso"))
        .args(["check", "edited.ex", "--against", "journal.json"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("error[E_REKEY]"), "{stderr}");
    assert!(!stderr.contains("id \"trigger\""), "a fix no trigger can take: {stderr}");
    assert!(stderr.contains("fix: make this behavior's trigger a fuzzy match again"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An `on receipt "…"` naming a capability or verb none of its agent's actions has would never fire (a
/// receipt comes back only to the agent that acted): `check` refuses it at its line, with the names it
/// could take.
#[test]
fn check_refuses_an_on_receipt_that_names_nothing_its_agent_does() {
    let dir = std::env::temp_dir().join(format!("expresso-attack-receipt-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("desk.ex"),
        "agent \"Desk\" {\n  grants { tasks.create, message.send }\n  at most world\n  on message /bug/ { create_task \"Bug\" }\n  on receipt \"tasks.creat\" { reply \"Filed as {.answer.id}.\" }\n  on receipt \"create_task\" { reply \"Filed.\" }\n}\n",
    )
    .unwrap();
    let out =
        Command::new(env!("CARGO_BIN_EXE_expresso")).args(["check", "desk.ex"]).current_dir(&dir).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("error[E_RECEIPT]: no action of agent \"Desk\" has the capability or verb \"tasks.creat\""),
        "{stderr}"
    );
    assert!(stderr.contains("--> desk.ex:5:6"), "{stderr}");
    assert!(
        stderr.contains(
            "fix: name one of its actions' verbs or capabilities: create_task, tasks.create, reply, message.send"
        ),
        "{stderr}"
    );
    assert_eq!(stderr.matches("E_RECEIPT").count(), 1, "`create_task` names its action: {stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `check --against` a `serve` store counts each key once, even when its event's revisions lie far apart
/// in the log (a correction sent long after its event is read on another page).
#[test]
fn check_against_a_store_counts_a_corrected_event_s_keys_once() {
    use expresso_host::store::{BatchWrite, Db};
    use serde_json::json;
    let dir = std::env::temp_dir().join(format!("expresso-attack-count-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let state = dir.join("state");
    let mut db = Db::open(&state).unwrap();
    let line = |id: &str, rev: u64, text: &str| -> expresso_runtime::Event {
        serde_json::from_value(json!({
            "id": id, "rev": rev, "partition": {"workspace": "acme", "room": "#support"}, "type": "message",
            "payload": {"speaker": "dana", "text": text}, "t_event": 1_000,
        }))
        .unwrap()
    };
    db.append(&[line("m1", 0, "hi")]).unwrap();
    let key = "m1|Echo#0/0/reply|message.send".to_string();
    let receipt = json!({ "idemKey": key, "effect": "message.send", "verb": "reply", "args": { "text": "hello" } });
    let intents = vec![(key, "m1".to_string(), "message.send".to_string(), receipt)];
    db.commit_batch(&BatchWrite { intents, ..BatchWrite::default() }).unwrap();
    let filler: Vec<_> = (0..1_500).map(|i| line(&format!("f{i}"), 0, "more")).collect();
    db.append(&filler).unwrap();
    db.append(&[line("m1", 1, "hi, corrected")]).unwrap();
    drop(db);
    std::fs::write(
        dir.join("echo.ex"),
        "agent \"Echo\" {\n  grants { message.send }\n  at most world\n  on message { reply \"hello\" }\n}\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_expresso"))
        .args(["check", "echo.ex", "--against", "state"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("against state: 1 key of applied effects and journaled answers at 1 site"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `expresso run` stopped (Ctrl-C, a kill) while it asks a provider again: the effects it printed before
/// are in the world table, so the next run does not print (apply) them a second time. A provider's
/// retries can take minutes, which is a long time to hold effects handed out but not recorded.
#[test]
fn run_killed_while_a_provider_is_asked_again_has_recorded_what_it_printed() {
    use std::io::BufRead;
    let triage = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../transcripts/expresso-triage");
    let m1 = std::fs::read_to_string(format!(
        "{}/../expresso-runtime/tests/recorded/anthropic/m1.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let mut answered = false;
    let (url, _requests) = endpoint::serve_with(6, move |_| {
        if answered {
            (529, r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#.to_string())
        } else {
            answered = true;
            (200, m1.clone())
        }
    });
    let dir = std::env::temp_dir().join(format!("expresso-attack-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_expresso"))
        .args(["run", "triage.ex", "--events", "events.jsonl", "--provider", "anthropic", "--journal"])
        .arg(dir.join("journal.json"))
        .arg("--world")
        .arg(dir.join("world.json"))
        .current_dir(&triage)
        .env("ANTHROPIC_BASE_URL", &url)
        .env("ANTHROPIC_API_KEY", "sk-ant-test")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // m1's three effects are printed; then m2's leaf is overloaded and asked again, with pauses.
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let printed: Vec<String> = (0..3).map(|_| lines.next().unwrap().unwrap()).collect();
    assert!(printed.iter().all(|l| l.contains("\"event\":\"m1\"")), "{printed:?}");
    std::thread::sleep(std::time::Duration::from_millis(250));
    child.kill().unwrap();
    child.wait().unwrap();
    let world = std::fs::read_to_string(dir.join("world.json")).unwrap_or_default();
    for key in
        ["m1|Triage#0/1/react|react.add", "m1|Triage#0/2/create_task|tasks.create", "m1|Triage#0/3/reply|message.send"]
    {
        assert!(world.contains(key), "{key} was printed but not recorded: the next run prints it again");
    }
    // And the next run does not print them again.
    let out = Command::new(env!("CARGO_BIN_EXE_expresso"))
        .args(["run", "triage.ex", "--events", "events.jsonl", "--provider", "recording:recording.json", "--journal"])
        .arg(dir.join("journal.json"))
        .arg("--world")
        .arg(dir.join("world.json"))
        .current_dir(&triage)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let again = String::from_utf8_lossy(&out.stdout);
    assert!(!again.contains("\"event\":\"m1\""), "{again}");
    assert_eq!(again.lines().count(), 2, "{again}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `check --against … --allow-removed` after a behavior before another was removed: the later one moved
/// up a place, so its effects would be applied again. The warning says so and what keeps the places; the
/// store's line does not say every key is still made, and the warnings are counted.
#[test]
fn allow_removed_says_a_later_behavior_moved_up_when_an_earlier_one_went() {
    let dir = std::env::temp_dir().join(format!("expresso-attack-behavior-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let head = "agent \"E\" {\n  grants { message.send }\n  at most world\n";
    std::fs::write(
        dir.join("old.ex"),
        format!("{head}  on message /alpha/ {{ reply \"A\" }}\n  on message /beta/ {{ reply \"B\" }}\n}}\n"),
    )
    .unwrap();
    std::fs::write(dir.join("new.ex"), format!("{head}  on message /beta/ {{ reply \"B\" }}\n}}\n")).unwrap();
    let event = |id: &str, text: &str| {
        format!(
            "{{\"id\":\"{id}\",\"partition\":{{\"workspace\":\"a\",\"room\":\"r\"}},\"type\":\"message\",\"payload\":{{\"speaker\":\"d\",\"text\":\"{text}\"}},\"t_event\":1}}\n"
        )
    };
    std::fs::write(dir.join("events.jsonl"), event("m1", "alpha") + &event("m2", "beta")).unwrap();
    let expresso =
        |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_expresso")).args(args).current_dir(&dir).output().unwrap();
    let run = expresso(&["run", "old.ex", "--events", "events.jsonl", "--world", "world.json", "--provider", "none"]);
    assert_eq!(run.status.code(), Some(0), "{}", String::from_utf8_lossy(&run.stderr));
    let out = expresso(&["check", "new.ex", "--against", "world.json", "--allow-removed"]);
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("warning[W_REMOVED]") && stderr.contains("moved up"), "{stderr}");
    assert!(!stdout.contains("each still made by the program\n"), "{stdout}");
    assert!(stdout.contains("but at the 1 site --allow-removed accepts as removed"), "{stdout}");
    assert!(stdout.contains("new.ex: checks · 1 agent · 1 warning"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}
