//! Sinks against loopback receivers: an outage, a 500 that recovers, Slack's format, secrets by variable,
//! the file sink, and the reflex sink through a stub `evoke`.

mod common;

use common::*;
use expresso_host::cli::{HostArgs, open};
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

/// Every capability of the worked example to one sink section.
fn all_to(dir: &Path, section: &str) -> PathBuf {
    let path = dir.join("sinks.toml");
    let text = format!(
        "{section}\n[capabilities]\n\"react.add\" = \"s\"\n\"tasks.create\" = \"s\"\n\"message.send\" = \"s\"\n\"notify.send\" = \"s\"\n"
    );
    std::fs::write(&path, text).unwrap();
    path
}

fn args(dir: &Path, program: PathBuf, recording: &Path, sinks: PathBuf) -> HostArgs {
    HostArgs {
        program,
        state: Some(dir.join("state")),
        sinks,
        provider: format!("recording:{}", recording.display()),
        batch: 8,
    }
}

/// A new store, the events appended and drained until no receipt waits (at most 30 s).
fn drained_afresh(
    dir: &Path,
    program: &Path,
    events: &Path,
    recording: &Path,
    sinks: PathBuf,
) -> expresso_host::host::Host {
    let _ = std::fs::remove_dir_all(dir.join("state"));
    let mut host = open(&args(dir, program.to_path_buf(), recording, sinks)).unwrap();
    host.db_mut().append(&expresso_runtime::read_log(&std::fs::read_to_string(events).unwrap()).unwrap()).unwrap();
    assert_eq!(host.drain(30_000).unwrap(), 0, "receipts still waiting");
    host
}

fn all_keys(expected: &std::collections::BTreeMap<String, Vec<String>>) -> Vec<String> {
    sorted(expected.values().flatten().cloned().collect())
}

#[test]
fn a_receiver_down_for_a_while_gets_everything_once_it_is_back() {
    let dir = temp_dir("outage");
    let (program, events, recording, expected) = triage_fixture(&dir, 6);
    let addr = free_addr();
    let sinks = all_to(&dir, &format!("[sinks.s]\nkind = \"http\"\nurl = \"http://{addr}/hook\"\ntimeout_ms = 500"));
    let mut host = open(&args(&dir, program, &recording, sinks)).unwrap();
    host.db_mut().append(&expresso_runtime::read_log(&std::fs::read_to_string(events).unwrap()).unwrap()).unwrap();
    let metrics = host.metrics.clone();
    let drain = std::thread::spawn(move || {
        let waiting = host.drain(30_000).unwrap();
        (waiting, host)
    });
    // The receiver comes up once the host has failed to reach it.
    while metrics.sink_errors.load(Ordering::SeqCst) == 0 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let receiver = Receiver::start_on(addr, true, 0);
    let (waiting, host) = drain.join().unwrap();
    assert_eq!(waiting, 0);
    assert_eq!(sorted(receiver.applied()), all_keys(&expected));
    assert!(metrics.sink_errors.load(Ordering::SeqCst) >= 1);
    let first = &expected["react.add"][0];
    let (status, attempts) = host.db().receipt_status(first).unwrap().unwrap();
    assert_eq!(status, "done");
    assert!(attempts >= 2, "the first receipt was tried {attempts} time(s)");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_receiver_answering_500_then_recovering_gets_each_effect_once_by_its_key() {
    let dir = temp_dir("five-hundred");
    let (program, events, recording, expected) = triage_fixture(&dir, 3);
    // Two 500s are absorbed by the sink's own retries; seven more outlast them and need the sweep.
    for fail in [2usize, 9] {
        let receiver = Receiver::start(true, fail);
        // One at a time, so the order of the requests is the order of the receipts.
        let sinks = all_to(
            &dir,
            &format!("[sinks.s]\nkind = \"http\"\nurl = \"{}\"\nattempts = 3\nin_flight = 1", receiver.url()),
        );
        let host = drained_afresh(&dir, &program, &events, &recording, sinks);
        assert_eq!(sorted(receiver.applied()), all_keys(&expected), "after {fail} failures");
        let requests = receiver.requests();
        assert_eq!(requests.len(), all_keys(&expected).len() + fail);
        // The first receipt was sent until it went through, each time with its own key.
        let first = &requests[0].0;
        assert!(requests.iter().take(fail.min(3)).all(|(k, _)| k == first));
        // A sink error is a dispatch that used up its three tries.
        assert_eq!(host.metrics.sink_errors.load(Ordering::SeqCst) as usize, fail / 3);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn slack_format_and_a_secret_read_from_the_variable_the_config_names() {
    let dir = temp_dir("slack");
    let (program, events, recording, _) = triage_fixture(&dir, 3);
    let receiver = Receiver::start(true, 0);
    let var = format!("EXPRESSO_TEST_SLACK_TOKEN_{}", std::process::id());
    // SAFETY: set before any thread of this test reads the environment; the name is this test's own.
    unsafe { std::env::set_var(&var, "s3cret") };
    let sinks =
        all_to(&dir, &format!("[sinks.s]\nkind = \"slack\"\nurl = \"{}\"\nsecret_env = \"{var}\"", receiver.url()));
    assert!(!std::fs::read_to_string(&sinks).unwrap().contains("s3cret"));
    let mut host = open(&args(&dir, program, &recording, sinks)).unwrap();
    host.db_mut().append(&expresso_runtime::read_log(&std::fs::read_to_string(events).unwrap()).unwrap()).unwrap();
    assert_eq!(host.drain(5_000).unwrap(), 0);
    let texts: Vec<Value> = receiver.requests().into_iter().map(|(_, b)| b).collect();
    assert_eq!(
        texts,
        vec![
            serde_json::json!({"text": "[Triage] 🐞"}),
            serde_json::json!({"text": "[Triage] New task: Bug: message 0 about a bug (assignee oncall) (due +1d)"}),
            serde_json::json!({"text": "[Triage] Logged. Open bugs: 1."}),
            serde_json::json!({"text": "[Triage] @oncall: Churn risk from dana"}),
            serde_json::json!({"text": "[Triage] Escalating now."}),
        ]
    );
    assert!(receiver.seen.auth.lock().unwrap().iter().all(|a| a == "Bearer s3cret"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_configurations_are_refused_naming_the_file_and_the_fix() {
    let dir = temp_dir("config");
    let (program, _, recording, _) = triage_fixture(&dir, 0);
    let refusal = |text: &str| {
        let sinks = dir.join("bad.toml");
        std::fs::write(&sinks, text).unwrap();
        match open(&args(&dir, program.clone(), &recording, sinks)) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("accepted: {text}"),
        }
    };
    let e = refusal("[sinks.a]\nkind = \"file\"\npath = \"x\"\n[capabilities]\n\"react.add\" = \"b\"\n");
    assert!(e.contains("bad.toml") && e.contains("`react.add` names the sink `b`") && e.contains("fix:"), "{e}");
    let e = refusal("[sinks.a]\nkind = \"file\"\npath = \"x\"\n[capabilities]\n\"react.add\" = \"a\"\n");
    assert!(e.contains("maps no sink for message.send, notify.send, tasks.create"), "{e}");
    let e = refusal("[sinks.a]\nkind = \"http\"\nurl = \"http://127.0.0.1:1/\"\nsecret = \"inline\"\n");
    assert!(e.contains("unknown field `secret`") && e.contains("[sinks.a]") && e.contains("secret_env"), "{e}");
    let e = refusal(
        "[sinks.a]\nkind = \"http\"\nurl = \"http://127.0.0.1:1/\"\nsecret_env = \"EXPRESSO_TEST_NOT_SET_ANYWHERE\"\n[capabilities]\n\"react.add\" = \"a\"\n\"tasks.create\" = \"a\"\n\"message.send\" = \"a\"\n\"notify.send\" = \"a\"\n",
    );
    assert!(e.contains("EXPRESSO_TEST_NOT_SET_ANYWHERE, which is not set"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A stub `evoke` that records its argv and its idempotency key, then exits with `code`.
fn stub_evoke(dir: &Path, code: i32) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let path = bin.join("evoke");
    let log = dir.join("argv.log");
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$EXPRESSO_IDEMPOTENCY_KEY $*\" >> '{}'\n[ -t 0 ] && echo 'stdin is a terminal' >&2\necho 'needs a person to confirm' >&2\nexit {code}\n",
            log.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

#[test]
fn the_reflex_sink_runs_evoke_by_name_from_path_with_the_receipts_values() {
    let dir = temp_dir("reflex-path");
    let (program, events, recording, _) = triage_fixture(&dir, 1);
    let bin = stub_evoke(&dir, 0);
    let sinks = dir.join("sinks.toml");
    std::fs::write(
        &sinks,
        "[sinks.todo]\nkind = \"reflex\"\nreflex = \"todo\"\nargs = { title = \"title\", who = \"assignee\" }\n\
         [sinks.log]\nkind = \"file\"\npath = \"out.jsonl\"\n\
         [capabilities]\n\"tasks.create\" = \"todo\"\n\"react.add\" = \"log\"\n\"message.send\" = \"log\"\n\"notify.send\" = \"log\"\n",
    )
    .unwrap();
    let state = dir.join("state");
    let run = |cmd: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_expresso-host"))
            .args(cmd)
            .env("PATH", format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default()))
            .output()
            .unwrap()
    };
    assert!(run(&["ingest", "--state", state.to_str().unwrap(), events.to_str().unwrap()]).status.success());
    let drain = drain_args(&program, &state, &sinks, &recording);
    let drain: Vec<&str> = drain.iter().map(String::as_str).collect();
    let out = run(&drain);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let argv = std::fs::read_to_string(dir.join("argv.log")).unwrap();
    assert_eq!(argv, "m0|Triage#0/2/create_task|tasks.create run todo title=Bug: message 0 about a bug who=oncall\n");
    // Done: a second drain does not run it again.
    assert!(run(&drain).status.success());
    assert_eq!(std::fs::read_to_string(dir.join("argv.log")).unwrap(), argv);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_reflex_that_needs_a_person_is_held_and_not_run_again() {
    let dir = temp_dir("reflex-held");
    let (program, events, recording, _) = triage_fixture(&dir, 1);
    let bin = stub_evoke(&dir, 3);
    let sinks = dir.join("sinks.toml");
    std::fs::write(
        &sinks,
        format!(
            "[sinks.todo]\nkind = \"reflex\"\nreflex = \"wipe\"\nevoke = \"{}\"\n[sinks.log]\nkind = \"file\"\npath = \"out.jsonl\"\n\
             [capabilities]\n\"tasks.create\" = \"todo\"\n\"react.add\" = \"log\"\n\"message.send\" = \"log\"\n\"notify.send\" = \"log\"\n",
            bin.join("evoke").display()
        ),
    )
    .unwrap();
    let a = args(&dir, program, &recording, sinks);
    let mut host = open(&a).unwrap();
    host.db_mut().append(&expresso_runtime::read_log(&std::fs::read_to_string(events).unwrap()).unwrap()).unwrap();
    assert_eq!(host.drain(2_000).unwrap(), 0);
    let key = "m0|Triage#0/2/create_task|tasks.create";
    assert_eq!(host.db().receipt_status(key).unwrap().unwrap(), ("held".to_string(), 1));
    assert_eq!(host.metrics.effects_held.load(Ordering::SeqCst), 1);
    let argv = std::fs::read_to_string(dir.join("argv.log")).unwrap();
    assert_eq!(argv, format!("{key} run wipe title=Bug: message 0 about a bug assignee=oncall due=+1d\n"));
    drop(host);
    let mut host = open(&a).unwrap();
    assert_eq!(host.drain(2_000).unwrap(), 0);
    assert_eq!(std::fs::read_to_string(dir.join("argv.log")).unwrap(), argv);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn receipts_put_off_behind_a_failing_one_are_not_counted_as_tried() {
    // The receiver is down: the first receipt is tried (three times, one dispatch) and fails; the others
    // for the same sink wait without a try counted against them.
    let dir = temp_dir("deferred");
    let (program, events, recording, expected) = triage_fixture(&dir, 3);
    let addr = free_addr();
    let sinks = all_to(
        &dir,
        &format!("[sinks.s]\nkind = \"http\"\nurl = \"http://{addr}/hook\"\ntimeout_ms = 300\nin_flight = 1"),
    );
    let mut host = open(&args(&dir, program, &recording, sinks)).unwrap();
    host.db_mut().append(&expresso_runtime::read_log(&std::fs::read_to_string(events).unwrap()).unwrap()).unwrap();
    host.recover().unwrap();
    assert_eq!(host.step_batch().unwrap(), 3);
    assert_eq!(host.db().counts().unwrap().intent, 5);
    let first = &expected["react.add"][0];
    assert_eq!(host.db().receipt_status(first).unwrap().unwrap(), ("intent".to_string(), 1));
    let task = &expected["tasks.create"][0];
    assert_eq!(host.db().receipt_status(task).unwrap().unwrap(), ("intent".to_string(), 0));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_http_sink_sends_a_batch_several_at_a_time_but_no_more_than_in_flight() {
    let dir = temp_dir("in-flight");
    let (program, events, recording, expected) = triage_fixture(&dir, 6);
    for in_flight in [1usize, 3] {
        let receiver = Receiver::start(true, 0);
        receiver.seen.delay_ms.store(100, Ordering::SeqCst);
        let sinks =
            all_to(&dir, &format!("[sinks.s]\nkind = \"http\"\nurl = \"{}\"\nin_flight = {in_flight}", receiver.url()));
        drained_afresh(&dir, &program, &events, &recording, sinks);
        assert_eq!(sorted(receiver.applied()), all_keys(&expected), "in_flight = {in_flight}");
        assert_eq!(receiver.requests().len(), all_keys(&expected).len(), "each receipt sent once");
        let most = receiver.seen.most_at_once.load(Ordering::SeqCst);
        if in_flight == 1 {
            assert_eq!(most, 1);
        } else {
            assert!((2..=in_flight).contains(&most), "{most} requests at once with in_flight = {in_flight}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_receiver_that_is_down_is_tried_once_per_lane_and_the_rest_are_put_off_untried() {
    let dir = temp_dir("down-lanes");
    let (program, events, recording, expected) = triage_fixture(&dir, 6);
    let addr = free_addr();
    let sinks = all_to(
        &dir,
        &format!("[sinks.s]\nkind = \"http\"\nurl = \"http://{addr}/hook\"\ntimeout_ms = 300\nin_flight = 2"),
    );
    let mut host = open(&args(&dir, program, &recording, sinks)).unwrap();
    host.db_mut().append(&expresso_runtime::read_log(&std::fs::read_to_string(events).unwrap()).unwrap()).unwrap();
    host.recover().unwrap();
    while host.step_batch().unwrap() > 0 {}
    let keys = all_keys(&expected);
    let statuses: Vec<(String, i64)> = keys.iter().map(|k| host.db().receipt_status(k).unwrap().unwrap()).collect();
    assert!(statuses.iter().all(|(status, _)| status == "intent"), "{statuses:?}");
    let tried = statuses.iter().filter(|(_, attempts)| *attempts > 0).count();
    // Each batch's two lanes stop at the first failure: at most two receipts a batch are tried.
    let batches = 6usize.div_ceil(8);
    assert!((1..=2 * batches).contains(&tried), "{tried} of {} tried", keys.len());
    assert!(tried < keys.len());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn in_flight_out_of_range_is_refused_naming_the_key_and_the_range() {
    let dir = temp_dir("in-flight-bad");
    let (program, _events, recording, _expected) = triage_fixture(&dir, 1);
    for bad in ["0", "65"] {
        let sinks =
            all_to(&dir, &format!("[sinks.s]\nkind = \"http\"\nurl = \"http://127.0.0.1:9/hook\"\nin_flight = {bad}"));
        let err = open(&args(&dir, program.clone(), &recording, sinks)).err().expect("refused").to_string();
        assert!(err.contains("[sinks.s] in_flight must be 1..=64"), "{err}");
        assert!(err.contains("sinks.toml"), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_reflex_sink_whose_project_holds_no_evoke_toml_is_refused_naming_the_key() {
    let dir = temp_dir("reflex-no-project");
    let (program, _events, recording, _expected) = triage_fixture(&dir, 1);
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    for project in ["missing", "empty"] {
        let sinks = all_to(&dir, &format!("[sinks.s]\nkind = \"reflex\"\nreflex = \"todo\"\nproject = \"{project}\""));
        let err = open(&args(&dir, program.clone(), &recording, sinks)).err().expect("refused").to_string();
        assert!(err.contains("[sinks.s] project names") && err.contains("holds no evoke.toml"), "{err}");
        assert!(err.contains("sinks.toml"), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn receipts_put_off_behind_a_failure_reach_an_in_order_sink_after_it_and_in_their_order() {
    let dir = temp_dir("in-order");
    let (program, events, recording, expected) = triage_fixture(&dir, 3);
    // The order the effects were made in: by event, then by the action's place in the behaviour.
    let place = |key: &str| -> (usize, usize) {
        let event = key.split('|').next().unwrap().trim_start_matches('m').parse().unwrap();
        let ordinal = key.split('/').nth(1).unwrap().parse().unwrap();
        (event, ordinal)
    };
    let mut made: Vec<String> = expected.values().flatten().cloned().collect();
    made.sort_by_key(|k| place(k));
    for _ in 0..4 {
        // The first receipt's three tries fail; the others are put off behind it.
        let receiver = Receiver::start(true, 3);
        let sinks = all_to(
            &dir,
            &format!("[sinks.s]\nkind = \"http\"\nurl = \"{}\"\nattempts = 3\nin_flight = 1", receiver.url()),
        );
        drained_afresh(&dir, &program, &events, &recording, sinks);
        assert_eq!(receiver.applied(), made);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_receipt_whose_key_cannot_be_a_header_is_held_not_retried() {
    // An event whose id holds CR LF, stored as an older ingest let it through (ingest now refuses it).
    let dir = temp_dir("bad-key");
    let (program, events, _, _) = triage_fixture(&dir, 1);
    let mut line: Value = serde_json::from_str(std::fs::read_to_string(events).unwrap().trim()).unwrap();
    let id = "m0\r\nX-Injected: 1";
    line["id"] = Value::from(id);
    let event: expresso_runtime::Event = serde_json::from_value(line).unwrap();
    let recording = dir.join("bad-key-recording.json");
    let answer = serde_json::json!({"kind": "bug", "urgency": "now"});
    std::fs::write(
        &recording,
        serde_json::json!({"answers": {format!("Triage#0|{id}/Triage#0/0/classify"): answer}}).to_string(),
    )
    .unwrap();
    let receiver = Receiver::start(true, 0);
    let sinks = all_to(&dir, &format!("[sinks.s]\nkind = \"http\"\nurl = \"{}\"\nattempts = 2", receiver.url()));
    let mut host = open(&args(&dir, program, &recording, sinks)).unwrap();
    host.db_mut().append(&[event]).unwrap();
    assert_eq!(host.drain(2_000).unwrap(), 0, "a receipt that can never be sent still waits");
    let counts = host.db().counts().unwrap();
    assert_eq!((counts.held, counts.done), (3, 0));
    let key = format!("{id}|Triage#0/1/react|react.add");
    assert_eq!(host.db().receipt_status(&key).unwrap().unwrap(), ("held".to_string(), 1));
    assert!(receiver.requests().is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

fn intent(key: &str) -> expresso_host::store::Intent {
    expresso_host::store::Intent {
        key: key.to_string(),
        capability: "react.add".to_string(),
        receipt: serde_json::json!({"effect": "react.add", "args": {"emoji": "x".repeat(200)}}),
        attempts: 0,
        started: false,
    }
}

/// Every line of a file sink's file parses on its own; its keys, in order.
fn parsed_keys(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut keys = Vec::new();
    for line in text.lines().filter(|l| !l.is_empty()) {
        let value: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("a line does not parse ({e}): {line}"));
        keys.push(value["idempotency_key"].as_str().unwrap().to_string());
    }
    keys
}

#[test]
fn a_full_disk_mid_line_leaves_no_fragment_before_the_retried_line() {
    use expresso_host::sinks::{Delivered, FileSink, Sink};
    // The file size limit is the process's: the disk filling up is replayed in a process of its own.
    const CHILD: &str = "EXPRESSO_TEST_FULL_DISK_CHILD";
    let Some(dir) = std::env::var_os(CHILD).map(PathBuf::from) else {
        let dir = temp_dir("full-disk");
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "a_full_disk_mid_line_leaves_no_fragment_before_the_retried_line", "--nocapture"])
            .env(CHILD, &dir)
            .output()
            .unwrap();
        let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "{said}");
        assert!(said.contains("1 passed"), "{said}");
        std::fs::remove_dir_all(&dir).unwrap();
        return;
    };
    let path = dir.join("out.jsonl");
    let mut sink = FileSink::new(path.clone());
    let (first, second) = (intent("k1"), intent("k2"));
    assert_eq!(sink.deliver(&[&first]), vec![Delivered::Done]);
    let len = std::fs::metadata(&path).unwrap().len();
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: plain system calls on this process's own limits and signal disposition, with valid pointers.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_FSIZE, &mut limit), 0);
        // Past the limit a write fails with EFBIG instead of the process being killed by SIGXFSZ.
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        let full = libc::rlimit { rlim_cur: len + 100, rlim_max: limit.rlim_max };
        assert_eq!(libc::setrlimit(libc::RLIMIT_FSIZE, &full), 0);
    }
    // The disk fills 100 bytes into the line.
    let refused = sink.deliver(&[&second]);
    assert!(matches!(&refused[..], [Delivered::Retry(_)]), "{refused:?}");
    assert_eq!(parsed_keys(&path), vec!["k1"]);
    // SAFETY: as above; the limit goes back to what it was.
    unsafe { assert_eq!(libc::setrlimit(libc::RLIMIT_FSIZE, &limit), 0) };
    assert_eq!(sink.deliver(&[&second]), vec![Delivered::Done]);
    assert_eq!(parsed_keys(&path), vec!["k1", "k2"]);
}

#[test]
fn a_torn_line_left_in_the_file_does_not_swallow_the_next_one() {
    use expresso_host::sinks::{Delivered, FileSink, Sink};
    let dir = temp_dir("torn-line");
    let path = dir.join("out.jsonl");
    // What a crash in the middle of a write leaves.
    std::fs::write(&path, "{\"idempotency_key\":\"k0\",\"capab").unwrap();
    let mut sink = FileSink::new(path.clone());
    assert_eq!(sink.deliver(&[&intent("k1")]), vec![Delivered::Done]);
    let text = std::fs::read_to_string(&path).unwrap();
    let last: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(last["idempotency_key"], "k1");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_webhook_address_from_url_env_is_never_written_into_the_store() {
    let dir = temp_dir("url-secret");
    let (program, events, recording, expected) = triage_fixture(&dir, 1);
    let token = "T0SECRET/B0SECRET/XoXoWebhookSecret";
    let var = format!("EXPRESSO_TEST_WEBHOOK_URL_{}", std::process::id());
    // Nothing listens there: every try fails with the address in the client's error.
    let url = format!("http://{}/services/{token}", free_addr());
    // SAFETY: set before any thread of this test reads the environment; the name is this test's own.
    unsafe { std::env::set_var(&var, &url) };
    let sinks =
        all_to(&dir, &format!("[sinks.s]\nkind = \"slack\"\nurl_env = \"{var}\"\ntimeout_ms = 300\nattempts = 1"));
    let mut host = open(&args(&dir, program, &recording, sinks)).unwrap();
    host.db_mut().append(&expresso_runtime::read_log(&std::fs::read_to_string(events).unwrap()).unwrap()).unwrap();
    assert!(host.drain(500).unwrap() > 0, "the receiver is down");
    let first = &expected["react.add"][0];
    let error: String = rusqlite::Connection::open(dir.join("state").join("expresso.db"))
        .unwrap()
        .query_row("SELECT last_error FROM world WHERE key = ?1", [first], |r| r.get(0))
        .unwrap();
    assert!(error.starts_with("sink s: "), "{error}");
    assert!(!error.contains("XoXoWebhookSecret") && !error.contains("/services/"), "{error}");
    drop(host);
    // Nor anywhere else in the store's files.
    for entry in std::fs::read_dir(dir.join("state")).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        assert!(!bytes.windows(token.len()).any(|w| w == token.as_bytes()));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A stub `evoke` at `dir/bin/evoke` running `script` (sh) after it records each run in `dir/runs.log`.
fn stub_evoke_script(dir: &Path, script: &str) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let path = bin.join("evoke");
    let runs = dir.join("runs.log");
    std::fs::write(&path, format!("#!/bin/sh\nRUNS='{}'\necho run >> \"$RUNS\"\n{script}\n", runs.display())).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn runs(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("runs.log")).map(|t| t.lines().count()).unwrap_or(0)
}

/// The worked example's task effect to a reflex sink (the others to a file); one bug event in the store.
fn reflex_host(dir: &Path, evoke: &Path, timeout_ms: u64) -> (HostArgs, String) {
    let (program, events, recording, expected) = triage_fixture(dir, 1);
    let sinks = dir.join("sinks.toml");
    std::fs::write(
        &sinks,
        format!(
            "[sinks.todo]\nkind = \"reflex\"\nreflex = \"todo\"\nevoke = \"{}\"\ntimeout_ms = {timeout_ms}\n\
             [sinks.log]\nkind = \"file\"\npath = \"out.jsonl\"\n\
             [capabilities]\n\"tasks.create\" = \"todo\"\n\"react.add\" = \"log\"\n\"message.send\" = \"log\"\n\"notify.send\" = \"log\"\n",
            evoke.display()
        ),
    )
    .unwrap();
    let a = args(dir, program, &recording, sinks);
    let mut db = expresso_host::Db::open(a.state.as_ref().unwrap()).unwrap();
    db.append(&expresso_runtime::read_log(&std::fs::read_to_string(events).unwrap()).unwrap()).unwrap();
    (a, expected["tasks.create"][0].clone())
}

#[test]
fn a_reflex_whose_body_prints_much_runs_once_and_is_done() {
    let dir = temp_dir("reflex-loud");
    // 200 KB on stderr, more than a pipe holds, after acting.
    let evoke = stub_evoke_script(&dir, "head -c 200000 /dev/zero | tr '\\0' x >&2\nexit 0");
    let (a, key) = reflex_host(&dir, &evoke, 2_000);
    let mut host = open(&a).unwrap();
    assert_eq!(host.drain(4_000).unwrap(), 0);
    assert_eq!(host.db().receipt_status(&key).unwrap().unwrap(), ("done".to_string(), 1));
    assert_eq!(runs(&dir), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_reflex_that_may_have_acted_is_held_and_never_run_again() {
    // Failed after acting; stopped at its time bound.
    for (name, script) in [("fails", "exit 1"), ("hangs", "sleep 30\nexit 0")] {
        let dir = temp_dir(&format!("reflex-maybe-{name}"));
        let evoke = stub_evoke_script(&dir, script);
        let (a, key) = reflex_host(&dir, &evoke, 500);
        let mut host = open(&a).unwrap();
        assert_eq!(host.drain(2_000).unwrap(), 0, "{name}");
        assert_eq!(host.db().receipt_status(&key).unwrap().unwrap().0, "held", "{name}");
        drop(host);
        assert_eq!(open(&a).unwrap().drain(1_000).unwrap(), 0, "{name}");
        assert_eq!(runs(&dir), 1, "{name}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn a_reflex_refused_before_anything_ran_is_tried_again() {
    let dir = temp_dir("reflex-refused");
    // Refused (exit 6) the first time, done the second.
    let evoke = stub_evoke_script(&dir, "[ \"$(wc -l < \"$RUNS\")\" -ge 2 ] && exit 0\necho 'refused' >&2\nexit 6");
    let (a, key) = reflex_host(&dir, &evoke, 2_000);
    let mut host = open(&a).unwrap();
    assert_eq!(host.drain(10_000).unwrap(), 0);
    assert_eq!(host.db().receipt_status(&key).unwrap().unwrap(), ("done".to_string(), 2));
    assert_eq!(runs(&dir), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_reflex_run_cut_short_by_a_crash_is_held_at_recovery_not_run_again() {
    let dir = temp_dir("reflex-crash");
    // The host is killed while the reflex runs (after it acted); only on the first run, so a host that
    // ran it again (in this test's process) is not killed.
    let evoke = stub_evoke_script(&dir, "[ \"$(wc -l < \"$RUNS\")\" -eq 1 ] && kill -9 $PPID\nexit 0");
    let (a, key) = reflex_host(&dir, &evoke, 5_000);
    let drain = drain_args(&a.program, a.state.as_ref().unwrap(), &a.sinks, &dir.join("recording.json"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_expresso-host")).args(&drain).output().unwrap();
    assert_eq!(out.status.code(), None, "killed: {}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(runs(&dir), 1);
    let mut host = open(&a).unwrap();
    assert_eq!(host.drain(1_000).unwrap(), 0);
    assert_eq!(host.db().receipt_status(&key).unwrap().unwrap().0, "held");
    assert_eq!(runs(&dir), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A loopback receiver answering every request with `status` and a `Location` (to `to`), as a moved
/// webhook or a load balancer in front of one does. It reads each request whole before answering, so
/// the client sees the answer rather than a reset.
struct Redirector {
    addr: std::net::SocketAddr,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<usize>>,
}

impl Redirector {
    fn start(status: u16, to: &str) -> Redirector {
        use std::io::{BufRead, BufReader, Read, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (to, stopping) = (to.to_string(), stop.clone());
        let thread = std::thread::spawn(move || {
            let mut answered = 0;
            // Bounded: the test stops it, and it never outlives a minute.
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
            while !stopping.load(Ordering::SeqCst) && std::time::Instant::now() < deadline {
                let Ok((stream, _)) = listener.accept() else {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                    continue;
                };
                stream.set_nonblocking(false).unwrap();
                stream.set_read_timeout(Some(std::time::Duration::from_secs(5))).unwrap();
                let mut reader = BufReader::new(stream);
                let mut length = 0usize;
                let mut line = String::new();
                while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line != "\r\n" {
                    if let Some((name, value)) = line.split_once(':')
                        && name.eq_ignore_ascii_case("content-length")
                    {
                        length = value.trim().parse().unwrap_or(0);
                    }
                    line.clear();
                }
                let mut body = vec![0u8; length];
                let _ = reader.read_exact(&mut body);
                let answer = format!(
                    "HTTP/1.1 {status} Moved\r\nlocation: {to}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                );
                let _ = reader.get_mut().write_all(answer.as_bytes());
                answered += 1;
            }
            answered
        });
        Redirector { addr, stop, thread: Some(thread) }
    }

    /// Stops it; how many requests it answered.
    fn stop(mut self) -> usize {
        self.stop.store(true, Ordering::SeqCst);
        self.thread.take().unwrap().join().unwrap()
    }
}

#[test]
fn a_redirect_is_not_a_delivery_the_receipt_is_held_naming_the_status() {
    // The client follows no redirect here and returns a 3xx as an answer; counted as done, the effect was lost.
    let dir = temp_dir("redirect");
    let (program, events, recording, expected) = triage_fixture(&dir, 1);
    let receipts = all_keys(&expected).len();
    // Where the redirects point: it must never be asked (a redirect is not followed).
    let elsewhere = Receiver::start(true, 0);
    let token = "T0SECRET/B0SECRET/RedirectWebhookSecret";
    let var = format!("EXPRESSO_TEST_REDIRECT_URL_{}", std::process::id());
    for status in [301u16, 302, 303, 307, 308] {
        let redirector = Redirector::start(status, &elsewhere.url());
        // An `http` sink by `url`, and a `slack` sink by `url_env` whose address is a secret.
        let url = format!("http://{}/services/{token}", redirector.addr);
        // SAFETY: set before the host that reads it is opened; the name is this test's own.
        unsafe { std::env::set_var(&var, &url) };
        let sections = [
            format!("[sinks.s]\nkind = \"http\"\nurl = \"http://{}/hook\"\nattempts = 2", redirector.addr),
            format!("[sinks.s]\nkind = \"slack\"\nurl_env = \"{var}\"\nattempts = 2"),
        ];
        for section in sections {
            let _ = std::fs::remove_dir_all(dir.join("state"));
            let mut host = open(&args(&dir, program.clone(), &recording, all_to(&dir, &section))).unwrap();
            host.db_mut()
                .append(&expresso_runtime::read_log(&std::fs::read_to_string(&events).unwrap()).unwrap())
                .unwrap();
            assert_eq!(host.drain(5_000).unwrap(), 0, "HTTP {status}: a held receipt does not wait");
            let counts = host.db().counts().unwrap();
            assert_eq!((counts.held, counts.done), (receipts as i64, 0), "HTTP {status}, {section}");
            for key in all_keys(&expected) {
                // Held at the first answer: a redirect is not tried again by itself.
                assert_eq!(host.db().receipt_status(&key).unwrap().unwrap(), ("held".to_string(), 1));
            }
            let first = &expected["react.add"][0];
            let error: String = rusqlite::Connection::open(dir.join("state").join("expresso.db"))
                .unwrap()
                .query_row("SELECT last_error FROM world WHERE key = ?1", [first], |r| r.get(0))
                .unwrap();
            assert!(error.starts_with(&format!("sink s: HTTP {status}, a redirect")), "{error}");
            assert!(!error.contains("RedirectWebhookSecret") && !error.contains("/services/"), "{error}");
        }
        assert_eq!(redirector.stop(), 2 * receipts, "HTTP {status}: each receipt sent once per sink");
    }
    assert!(elsewhere.requests().is_empty(), "a redirect was followed");
    std::fs::remove_dir_all(&dir).unwrap();
}
