//! On Postgres as on SQLite (`tests/isolation.rs`): a fault is the firing's, not the partition's. A
//! firing the provider cannot answer is tried again up to its bound, then parked with its reason in the
//! shared store while every other agent and partition goes on and the worker stays ready; an operator
//! lists, retries and skips it with `--sinks` naming the deployment. And each agent keeps one memory,
//! whichever partition its events fall in.

mod common;

use common::postgres::{client, namespace, url};
use common::workers::*;
use common::*;
use expresso_host::host::FIRING_TRIES;
use expresso_host::pg::{Namespace, partition_of};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Output;

/// Triage (a model leaf, in #support), Watch (no leaf, in #support) and Echo (no leaf, in #random).
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

fn message(id: &str, t: u64, workspace: &str, room: &str, text: &str) -> Value {
    json!({
        "id": id,
        "partition": {"workspace": workspace, "room": room},
        "type": "message",
        "payload": {"speaker": "dana", "text": text},
        "t_event": t,
    })
}

/// The log, over two workspaces: p1 and p4 (poisons, no answer) in acme's #support among m0 (a bug) and
/// m3 (churn); e2 and e5 in acme's #random; m6 (a bug) in globex's #support.
fn log() -> Vec<Value> {
    vec![
        message("m0", 1000, "acme", "#support", "the export is broken"),
        message("p1", 1001, "acme", "#support", "nobody can answer this"),
        message("e2", 1002, "acme", "#random", "lunch?"),
        message("m3", 1003, "acme", "#support", "we are leaving"),
        message("p4", 1004, "acme", "#support", "nor this, until later"),
        message("e5", 1005, "acme", "#random", "coffee?"),
        message("m6", 1006, "globex", "#support", "the login is broken"),
    ]
}

fn classify_key(id: &str) -> String {
    format!("Triage#0|{id}/Triage#0/0/classify")
}

/// A recording answering m0 and m6 (bugs) and m3 (churn), and with `p4` also p4 (a bug): p1 never.
fn recording(dir: &Path, name: &str, p4: bool) -> PathBuf {
    let mut answers = serde_json::Map::new();
    answers.insert(classify_key("m0"), json!({"kind": "bug", "urgency": "now"}));
    answers.insert(classify_key("m3"), json!({"kind": "churn", "urgency": "now"}));
    answers.insert(classify_key("m6"), json!({"kind": "bug", "urgency": "now"}));
    if p4 {
        answers.insert(classify_key("p4"), json!({"kind": "bug", "urgency": "now"}));
    }
    let path = dir.join(name);
    std::fs::write(&path, json!({ "answers": answers }).to_string()).unwrap();
    path
}

/// The effects that must land whatever the poisons do.
fn expected_besides_poison() -> Vec<String> {
    let mut keys: Vec<String> = [
        "m0|Triage#0/1/react|react.add",
        "m0|Triage#0/2/create_task|tasks.create",
        "m0|Triage#0/3/reply|message.send",
        "m3|Triage#0/4/notify|notify.send",
        "m3|Triage#0/5/reply|message.send",
        "m6|Triage#0/1/react|react.add",
        "m6|Triage#0/2/create_task|tasks.create",
        "m6|Triage#0/3/reply|message.send",
        "e2|Echo#0/0/reply|message.send",
        "e5|Echo#0/0/reply|message.send",
    ]
    .map(String::from)
    .to_vec();
    for id in ["m0", "p1", "m3", "p4", "m6"] {
        keys.push(format!("{id}|Watch#0/0/react|react.add"));
    }
    sorted(keys)
}

fn host_cli(args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_expresso-host")).args(args).output().unwrap()
}

/// `status --sinks`: the deployment's counts and parked firings.
fn status(sinks: &Path) -> Value {
    let out = host_cli(&["status", "--sinks", sinks.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `parked list --sinks` (`--all` with `all`): one JSON object per line.
fn listed(sinks: &Path, all: bool) -> Vec<Value> {
    let mut args = vec!["parked", "list", "--sinks", sinks.to_str().unwrap()];
    if all {
        args.push("--all");
    }
    let out = host_cli(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn parked_cmd(sinks: &Path, action: &str, id: i64) -> Output {
    host_cli(&["parked", action, &id.to_string(), "--sinks", sinks.to_str().unwrap()])
}

fn id_of(rows: &[Value], event: &str) -> i64 {
    rows.iter().find(|r| r["event"] == event).unwrap_or_else(|| panic!("{event} not in {rows:?}"))["id"]
        .as_i64()
        .unwrap()
}

fn get(url: &str) -> (u16, String) {
    match expresso_runtime::http::builder().build().unwrap().get(url).send() {
        Ok(r) => (r.status().as_u16(), r.text().unwrap_or_default()),
        Err(e) => panic!("{e}"),
    }
}

struct Fixture {
    dir: PathBuf,
    ns: Namespace,
    program: PathBuf,
    sinks: PathBuf,
    receiver: Receiver,
}

fn fixture(url: &str, name: &str) -> Fixture {
    let ns = namespace(url, name, 4);
    let dir = temp_dir(&format!("pg-{name}"));
    let program = dir.join("isolation.ex");
    std::fs::write(&program, PROGRAM).unwrap();
    let receiver = Receiver::start(true, 0);
    let sinks = pg_sinks(&dir, &ns, &receiver.url());
    Fixture { dir, ns, program, sinks, receiver }
}

fn post_log(addr: &str) {
    for event in log() {
        assert!(post(addr, &event.to_string()), "the worker refused an event");
    }
}

#[test]
fn on_postgres_a_poison_firing_is_parked_while_every_other_agent_and_partition_lands() {
    let Some(url) = url() else { return };
    let f = fixture(&url, "park");
    // acme's two rooms and globex's room: the poisons' partition is not the only one.
    let parts: Vec<i32> = log()
        .iter()
        .map(|v| partition_of(&serde_json::from_value::<expresso_runtime::Event>(v.clone()).unwrap(), 4))
        .collect();
    assert!(parts.iter().any(|p| *p != parts[1]), "the fixture's events all fall in one partition: {parts:?}");
    let (mut worker, addr) = spawn_worker(&f.program, &recording(&f.dir, "r.json", false), &f.sinks, None);
    eventually("ready", 20, || get(&format!("http://{addr}/readyz")).0 == 200);
    post_log(&addr);
    let expected = expected_besides_poison();
    eventually("every effect but the poisons'", 30, || sorted(f.receiver.applied()) == expected);
    eventually("both poisons parked", 30, || {
        get(&format!("http://{addr}/metrics")).1.contains("expresso_firings_parked_total 2\n")
    });
    assert_eq!(get(&format!("http://{addr}/readyz")).0, 200, "a parked firing leaves the worker ready");
    // Each effect once: nothing was sent twice while the poisons were tried again.
    assert_eq!(sorted(f.receiver.requests().into_iter().map(|(k, _)| k).collect()), expected);

    let rows = listed(&f.sinks, false);
    assert_eq!(
        rows.iter().map(|r| (r["agent"].as_str().unwrap(), r["event"].as_str().unwrap())).collect::<Vec<_>>(),
        [("Triage", "p1"), ("Triage", "p4")]
    );
    for row in &rows {
        assert_eq!(row["status"], "parked");
        assert_eq!(row["tries"], i64::from(FIRING_TRIES), "tried up to the bound, then parked");
        assert!(row["reason"].as_str().unwrap().contains("no answer for"), "the reason is kept: {row}");
    }
    let s = status(&f.sinks);
    assert_eq!((s["parked"].as_i64(), s["events"].as_i64(), s["intent"].as_i64()), (Some(2), Some(7), Some(0)), "{s}");
    assert_eq!(s["parked_firings"][0]["event"], "p1", "{s}");
    // The agent's memory went on without the poisons: two bugs (m0, m6), in two partitions, one count.
    let memory: String =
        client(&f.ns).query_one("SELECT memory FROM memory WHERE name = 'Triage'", &[]).unwrap().get(0);
    assert_eq!(serde_json::from_str::<Value>(&memory).unwrap()["open_bugs"], 2, "{memory}");
    terminate(&mut worker);
    std::fs::remove_dir_all(&f.dir).unwrap();
}

#[test]
fn on_postgres_a_parked_firing_is_retried_and_skipped_by_command_and_a_restart_keeps_it_parked() {
    let Some(url) = url() else { return };
    let f = fixture(&url, "retry");
    let (mut worker, addr) = spawn_worker(&f.program, &recording(&f.dir, "r.json", false), &f.sinks, None);
    post_log(&addr);
    eventually("both poisons parked", 30, || listed(&f.sinks, false).len() == 2);
    terminate(&mut worker);
    let rows = listed(&f.sinks, false);
    let (p1, p4) = (id_of(&rows, "p1"), id_of(&rows, "p4"));

    // Retried while the provider still cannot answer p1, and once it answers p4; a worker started again
    // (the parked ones stay parked across it) runs both.
    for id in [p1, p4] {
        let out = parked_cmd(&f.sinks, "retry", id);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), format!("{{\"id\":{id},\"status\":\"retry\"}}"));
    }
    let (mut worker, _) = spawn_worker(&f.program, &recording(&f.dir, "later.json", true), &f.sinks, None);
    let mut expected = expected_besides_poison();
    expected.extend(
        ["p4|Triage#0/1/react|react.add", "p4|Triage#0/2/create_task|tasks.create", "p4|Triage#0/3/reply|message.send"]
            .map(String::from),
    );
    let expected = sorted(expected);
    eventually("p4's effects", 30, || sorted(f.receiver.applied()) == expected);
    eventually("p1 parked again", 30, || {
        listed(&f.sinks, false).iter().any(|r| r["id"] == p1 && r["status"] == "parked")
    });
    let rows = listed(&f.sinks, false);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["tries"], i64::from(FIRING_TRIES) + 1, "the retry counted a try");
    let all = listed(&f.sinks, true);
    assert_eq!(all.iter().find(|r| r["id"] == p4).unwrap()["status"], "retried");
    // The retried bug counted in the agent's one memory: m0, m6 and p4.
    let memory: String =
        client(&f.ns).query_one("SELECT memory FROM memory WHERE name = 'Triage'", &[]).unwrap().get(0);
    assert_eq!(serde_json::from_str::<Value>(&memory).unwrap()["open_bugs"], 3, "{memory}");

    // Skipped: no longer parked, put in the agent's dedup set, and no retry can run it.
    let out = parked_cmd(&f.sinks, "skip", p1);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(listed(&f.sinks, false).is_empty());
    assert_eq!(status(&f.sinks)["parked"], 0);
    let again = parked_cmd(&f.sinks, "retry", p1);
    assert_eq!(again.status.code(), Some(1), "a skipped firing cannot be retried");
    assert!(String::from_utf8_lossy(&again.stderr).contains(&format!("no firing {p1} is parked")));
    let dedup: i64 = client(&f.ns)
        .query_one("SELECT COUNT(*) FROM dedup WHERE agent = 'Triage' AND event = 'p1'", &[])
        .unwrap()
        .get(0);
    assert_eq!(dedup, 1, "the skip is in Triage's dedup set");
    terminate(&mut worker);
    assert_eq!(sorted(f.receiver.applied()), expected, "a skipped firing never fires");
    std::fs::remove_dir_all(&f.dir).unwrap();
}

/// `n` bug reports spread over `workspaces` workspaces of the triage agent, with their recording.
fn bugs(dir: &Path, n: usize, workspaces: usize) -> (Vec<Value>, PathBuf) {
    let mut answers = serde_json::Map::new();
    let events = (0..n)
        .map(|i| {
            let id = format!("b{i}");
            answers.insert(classify_key(&id), json!({"kind": "bug", "urgency": "now"}));
            message(&id, 1000 + i as u64, &format!("w{}", i % workspaces), "#support", &format!("bug {i}"))
        })
        .collect();
    let path = dir.join("bugs.json");
    std::fs::write(&path, json!({ "answers": answers }).to_string()).unwrap();
    (events, path)
}

#[test]
fn on_postgres_an_agent_keeps_one_memory_across_partitions_and_workers() {
    let Some(url) = url() else { return };
    let ns = namespace(&url, "memory", 4);
    let dir = temp_dir("pg-memory");
    let program = dir.join("triage.ex");
    std::fs::write(&program, TRIAGE).unwrap();
    let receiver = Receiver::start(true, 0);
    let sinks = pg_sinks(&dir, &ns, &receiver.url());
    let n = 24;
    let (events, recording) = bugs(&dir, n, 8);
    let parts: std::collections::BTreeSet<i32> = events
        .iter()
        .map(|v| partition_of(&serde_json::from_value::<expresso_runtime::Event>(v.clone()).unwrap(), 4))
        .collect();
    assert!(parts.len() >= 3, "the bugs fall in too few partitions: {parts:?}");
    let (mut a, addr_a) = spawn_worker(&program, &recording, &sinks, None);
    let (mut b, addr_b) = spawn_worker(&program, &recording, &sinks, None);
    let mut look = client(&ns);
    eventually("both workers hold partitions", 20, || lease_holders(&mut look, &ns) == 2);
    for (i, chunk) in events.chunks(4).enumerate() {
        let body = Value::Array(chunk.to_vec()).to_string();
        assert!(post(if i % 2 == 0 { &addr_a } else { &addr_b }, &body), "a worker refused events");
    }
    eventually("every bug's reply", 30, || {
        receiver.requests().iter().filter(|(k, _)| k.ends_with("/reply|message.send")).count() == n
    });
    terminate(&mut a);
    terminate(&mut b);
    // Each reply says the count the agent's one memory held after its bug: every count from 1 to n once.
    // (Per partition, counts would repeat and none would reach n.)
    let mut counts: Vec<usize> = receiver
        .requests()
        .iter()
        .filter(|(k, _)| k.ends_with("/reply|message.send"))
        .map(|(_, body)| {
            let text = body.to_string();
            let at = text.find("Open bugs: ").unwrap_or_else(|| panic!("no count in {text}")) + "Open bugs: ".len();
            text[at..].chars().take_while(char::is_ascii_digit).collect::<String>().parse().unwrap()
        })
        .collect();
    counts.sort();
    assert_eq!(counts, (1..=n).collect::<Vec<_>>(), "every count once, up to the number of bugs");
    let memory: String = look.query_one("SELECT memory FROM memory WHERE name = 'Triage'", &[]).unwrap().get(0);
    assert_eq!(serde_json::from_str::<Value>(&memory).unwrap()["open_bugs"], n, "{memory}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A version 1 deployment (memory per partition, no `parked` table) as the earlier expresso made it.
fn version_1(ns: &Namespace, memories: &[(i32, &str, &str)]) {
    let mut c = ::postgres::Client::connect(&ns.url, ::postgres::NoTls).unwrap();
    let s = &ns.schema;
    c.batch_execute(&format!(
        "CREATE SCHEMA {s};
         CREATE TABLE {s}.meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
         INSERT INTO {s}.meta VALUES ('version', '1');
         CREATE TABLE {s}.agents (part INTEGER NOT NULL, name TEXT NOT NULL, memory TEXT NOT NULL, PRIMARY KEY (part, name));"
    ))
    .unwrap();
    for (part, name, memory) in memories {
        c.execute(&format!("INSERT INTO {s}.agents VALUES ($1, $2, $3)"), &[part, name, memory]).unwrap();
    }
}

#[test]
fn a_version_1_deployment_is_upgraded_when_each_agent_has_one_memory_and_refused_by_name_when_not() {
    let Some(url) = url() else { return };
    let ns = namespace(&url, "upgrade", 4);
    version_1(&ns, &[(0, "Triage", r#"{"open_bugs":3}"#), (2, "Triage", r#"{"open_bugs":3}"#), (1, "Watch", "{}")]);
    let mut c = expresso_host::pg::connect(&ns).expect("a version 1 store whose agents agree is upgraded");
    let memory: String = c.query_one("SELECT memory FROM memory WHERE name = 'Triage'", &[]).unwrap().get(0);
    assert_eq!(memory, r#"{"open_bugs":3}"#);
    let version: String = c.query_one("SELECT value FROM meta WHERE key = 'version'", &[]).unwrap().get(0);
    assert_eq!(version, "2");
    let parked: i64 = c.query_one("SELECT COUNT(*) FROM parked", &[]).unwrap().get(0);
    assert_eq!(parked, 0, "the parked table is made");

    let split = namespace(&url, "upgrade_split", 4);
    version_1(&split, &[(0, "Triage", r#"{"open_bugs":3}"#), (2, "Triage", r#"{"open_bugs":5}"#)]);
    let refused = expresso_host::pg::connect(&split).err().expect("agents whose partitions disagree are refused");
    let text = refused.to_string();
    assert!(text.contains("Triage") && text.contains("version 1") && text.contains("fix:"), "{text}");
    let mut look = ::postgres::Client::connect(&url, ::postgres::NoTls).unwrap();
    let version: String =
        look.query_one(&format!("SELECT value FROM {}.meta WHERE key = 'version'", split.schema), &[]).unwrap().get(0);
    assert_eq!(version, "1", "a refused upgrade changes nothing");
}
