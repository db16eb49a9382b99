//! `expresso check --against STORE`: an edit that would re-key an effect already applied (or an answer
//! already journaled) is refused, naming the site and the stable id that keeps its key; with the id the
//! edit passes. And `check` says per agent whether it is certified replayable (T1).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn triage() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../transcripts/expresso-triage")
}

/// A fresh folder holding the worked example's journal and world table after its first run.
fn first_run(name: &str) -> PathBuf {
    let work = std::env::temp_dir().join(format!("expresso-against-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_expresso"))
        .args(["run", "triage.ex", "--events", "events.jsonl", "--provider", "recording:recording.json", "--journal"])
        .arg(work.join("journal.json"))
        .arg("--world")
        .arg(work.join("world.json"))
        .current_dir(triage())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    work
}

fn triage_source() -> String {
    std::fs::read_to_string(triage().join("triage.ex")).unwrap()
}

fn check(work: &Path, source: &str, args: &[&str]) -> Output {
    std::fs::write(work.join("edited.ex"), source).unwrap();
    Command::new(env!("CARGO_BIN_EXE_expresso"))
        .arg("check")
        .arg("edited.ex")
        .args(args)
        .current_dir(work)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The 1-based line of the first line of `source` holding `needle`.
fn line_of(source: &str, needle: &str) -> usize {
    source.lines().position(|l| l.contains(needle)).unwrap() + 1
}

const REPLY: &str = "      reply \"Escalating now.\"\n";
const INSERTED: &str = "      if c.urgency == low { say \"Filed for later.\" }\n";

#[test]
fn an_edit_that_re_keys_an_applied_effect_is_refused_and_its_stable_id_passes() {
    let work = first_run("rekey");
    let source = triage_source();
    // Unedited, the program keys every effect it applied.
    let same = check(&work, &source, &["--against", "world.json"]);
    assert_eq!(same.status.code(), Some(0), "{}", text(&same.stderr));
    assert!(
        text(&same.stdout)
            .contains("against world.json: 5 keys of applied effects at 5 sites, each still made by the program"),
        "{}",
        text(&same.stdout)
    );

    // A statement inserted before the last reply moves it from ordinal 5 to 6.
    let unpinned = source.replace(REPLY, &format!("{INSERTED}{REPLY}"));
    let refused = check(&work, &unpinned, &["--against", "world.json"]);
    assert_eq!(refused.status.code(), Some(2));
    let err = text(&refused.stderr);
    let line = line_of(&unpinned, "reply \"Escalating now.\"");
    assert!(err.contains("error[E_REKEY]: this `reply` is keyed `Triage#0/6/reply` now"), "{err}");
    assert!(err.contains("1 effect applied at `Triage#0/5/reply` (as `m3|Triage#0/5/reply|message.send`)"), "{err}");
    assert!(err.contains(&format!("--> edited.ex:{line}:7")), "{err}");
    assert!(
        err.contains("fix: give this `reply` its old place as its stable id: `id \"5\"` after its arguments"),
        "{err}"
    );
    assert!(err.contains("edited.ex: refused against world.json (1 site re-keyed or gone)"), "{err}");
    assert!(refused.stdout.is_empty(), "nothing is reported as checked: {}", text(&refused.stdout));

    // The fix the diagnostic gives passes.
    let pinned = source.replace(REPLY, &format!("{INSERTED}      reply \"Escalating now.\" id \"5\"\n"));
    let passes = check(&work, &pinned, &["--against", "world.json"]);
    assert_eq!(passes.status.code(), Some(0), "{}", text(&passes.stderr));
    assert!(text(&passes.stdout).contains("each still made by the program"));
    std::fs::remove_dir_all(&work).unwrap();
}

#[test]
fn a_leaf_call_moved_from_its_journaled_answers_is_refused_against_the_journal() {
    let work = first_run("journal");
    let source = triage_source();
    let inserted = "    let first = classify(here..end_of_turn) id \"first-look\"\n";
    let unpinned =
        source.replace("    let c = classify(.message) ", &format!("{inserted}    let c = classify(.message) "));
    let refused = check(&work, &unpinned, &["--against", "journal.json"]);
    assert_eq!(refused.status.code(), Some(2));
    let err = text(&refused.stderr);
    assert!(
        err.contains(
            "this `classify` is keyed `Triage#0/1/classify` now: 3 answers journaled at `Triage#0/0/classify`"
        ),
        "{err}"
    );
    assert!(err.contains("would ask the provider again"), "{err}");
    assert!(err.contains(&format!("--> edited.ex:{}:", line_of(&unpinned, "let c = classify"))), "{err}");
    assert!(err.contains("`id \"0\"`"), "{err}");
    let pinned = source
        .replace("    let c = classify(.message) ", &format!("{inserted}    let c = classify(.message) id \"0\" "));
    let passes = check(&work, &pinned, &["--against", "journal.json"]);
    assert_eq!(passes.status.code(), Some(0), "{}", text(&passes.stderr));
    // The same edit moves every action after it too: against the world table it is refused at each.
    let world = check(&work, &pinned, &["--against", "journal.json", "--against", "world.json"]);
    assert_eq!(world.status.code(), Some(2));
    assert_eq!(text(&world.stderr).matches("error[E_REKEY]").count(), 5, "{}", text(&world.stderr));
    std::fs::remove_dir_all(&work).unwrap();
}

#[test]
fn a_removed_action_is_refused_unless_removal_is_allowed() {
    let work = first_run("removed");
    let source = triage_source();
    let removed = source.replace("      notify \"oncall\" \"Churn risk from {.speaker}\"\n", "");
    assert_ne!(removed, source);
    // The notify at 4 is gone; the reply after it moved to 4, and its old key is refused first of all.
    let pinned = removed.replace(REPLY, "      reply \"Escalating now.\" id \"5\"\n");
    let refused = check(&work, &pinned, &["--against", "world.json"]);
    assert_eq!(refused.status.code(), Some(2));
    let err = text(&refused.stderr);
    assert!(
        err.contains("error[E_REKEY]: 1 effect applied at `Triage#0/4/notify` (as `m3|Triage#0/4/notify|notify.send`) is made by nothing in the program now: this behavior has no `notify` left"),
        "{err}"
    );
    assert!(err.contains("if it was removed on purpose, check with --allow-removed"), "{err}");
    let allowed = check(&work, &pinned, &["--against", "world.json", "--allow-removed"]);
    assert_eq!(allowed.status.code(), Some(0), "{}", text(&allowed.stderr));
    assert!(text(&allowed.stderr).contains("warning[W_REMOVED]"), "{}", text(&allowed.stderr));
    // The first reply removed, the sites after it pinned: the other reply keeps its own key, so the
    // removed one's is made by nothing.
    let first_reply = source
        .replace(
            "      reply \"Logged. Open bugs: {open_bugs}.\"                       // ! WORLD cap message.send\n",
            "",
        )
        .replace("\"Churn risk from {.speaker}\"", "\"Churn risk from {.speaker}\" id \"4\"")
        .replace(REPLY, "      reply \"Escalating now.\" id \"5\"\n");
    assert_eq!(first_reply.matches("reply").count(), 1, "{first_reply}");
    let refused = check(&work, &first_reply, &["--against", "world.json"]);
    assert_eq!(refused.status.code(), Some(2));
    let err = text(&refused.stderr);
    assert!(
        err.contains("1 effect applied at `Triage#0/3/reply` (as `m1|Triage#0/3/reply|message.send`) is made by nothing in the program now: each `reply` of this behavior makes keys of its own that the store holds"),
        "{err}"
    );
    assert_eq!(err.matches("error[E_REKEY]").count(), 1, "{err}");
    // A renamed agent keys nothing it applied: every site is refused, naming the old name.
    let renamed = source.replace("agent \"Triage\"", "agent \"Triager\"");
    let refused = check(&work, &renamed, &["--against", "world.json"]);
    assert_eq!(refused.status.code(), Some(2));
    let err = text(&refused.stderr);
    assert_eq!(
        err.matches("no agent is named \"Triage\" (renaming an agent re-keys every effect it applied)").count(),
        5,
        "{err}"
    );
    std::fs::remove_dir_all(&work).unwrap();
}

#[test]
fn a_store_that_is_not_one_is_refused_naming_it() {
    let work = first_run("bad");
    let source = triage_source();
    std::fs::write(work.join("other.json"), r#"{"answers":{}}"#).unwrap();
    let out = check(&work, &source, &["--against", "other.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("other.json is not a journal or world file"), "{}", text(&out.stderr));
    std::fs::write(work.join("odd.json"), r#"{"expresso":"world","version":1,"entries":{"m1|no key":{}}}"#).unwrap();
    let out = check(&work, &source, &["--against", "odd.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("holds the key \"m1|no key\", which is not an idemKey"),
        "{}",
        text(&out.stderr)
    );
    let out = check(&work, &source, &["--against", "missing-dir/"]);
    assert_eq!(out.status.code(), Some(2));
    std::fs::create_dir_all(work.join("empty-state")).unwrap();
    let out = check(&work, &source, &["--against", "empty-state"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no expresso.db in empty-state"), "{}", text(&out.stderr));
    assert!(!work.join("empty-state/expresso.db").exists(), "checking creates no store");
    std::fs::remove_dir_all(&work).unwrap();
}

/// `serve`'s SQLite store, holding what the first run applied and journaled, read like the files.
#[test]
fn the_state_directory_of_serve_is_read_too() {
    let work = first_run("sqlite");
    let read = |name: &str| -> serde_json::Map<String, Value> {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(work.join(name)).unwrap()).unwrap();
        v["entries"].as_object().unwrap().clone()
    };
    let state = work.join("state");
    {
        let mut db = expresso_host::Db::open(&state).unwrap();
        let log = std::fs::read_to_string(triage().join("events.jsonl")).unwrap();
        let events: Vec<expresso_runtime::Event> = log.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        db.append(&events).unwrap();
        let mut batch = expresso_host::store::BatchWrite::default();
        for (key, value) in read("journal.json") {
            let event = key.split_once('|').unwrap().1.split_once('/').unwrap().0.to_string();
            batch.journal.push((key, event, value));
        }
        for (key, receipt) in read("world.json") {
            let event = receipt["event"].as_str().unwrap().to_string();
            let cap = receipt["effect"].as_str().unwrap().to_string();
            batch.intents.push((key, event, cap, receipt));
        }
        batch.cursor = 3;
        db.commit_batch(&batch).unwrap();
    }
    let source = triage_source();
    let ok = check(&work, &source, &["--against", "state"]);
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok.stderr));
    assert!(
        text(&ok.stdout).contains("against state: 8 keys of applied effects and journaled answers at 6 sites"),
        "{}",
        text(&ok.stdout)
    );
    let unpinned = source.replace(REPLY, &format!("{INSERTED}{REPLY}"));
    let refused = check(&work, &unpinned, &["--against", "state/expresso.db"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(text(&refused.stderr).contains("`id \"5\"`"), "{}", text(&refused.stderr));
    std::fs::remove_dir_all(&work).unwrap();
}

#[test]
fn check_says_which_agents_are_certified_replayable() {
    let work = std::env::temp_dir().join(format!("expresso-certified-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    let source = "leaf tone(s: Span) -> enum(calm, upset)\nagent \"Counter\" {\n  at most pure\n  memory n = 0\n  on message /order/ { remember n += 1 }\n}\nagent \"Reader\" {\n  grants { ai.tone }\n  on message { let t = tone(.message) }\n}\nagent \"Greeter\" {\n  grants { message.send }\n  on message { say \"hi\" }\n}\n";
    let out = check(&work, source, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("agent \"Counter\": effect pure (at most pure) · needs {}\n  certified replayable (T1): pure, a function of the log alone\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("agent \"Reader\": effect model (at most world) · needs {ai.tone}\n  not certified replayable: effect model; a replay decides the same only from its journal (T2)\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("agent \"Greeter\": effect world (at most world) · needs {message.send}\n  not certified replayable: effect world; a replay acts the same only with its journal and world table (T2, T3)\n"),
        "{stdout}"
    );
    assert_eq!(stdout.matches("certified replayable (T1)").count(), 1, "{stdout}");
    std::fs::remove_dir_all(&work).unwrap();
}
