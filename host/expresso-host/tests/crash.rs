//! SIGKILL at every step of the write-ahead protocol, then recovery: exactly one effect at a receiver
//! that honours `Idempotency-Key`, at least one at a receiver that does not, nothing lost.

mod common;

use common::*;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_expresso-host");

struct World {
    tasks: Receiver,
    notify: Receiver,
    chat: Receiver,
}

fn sinks_toml(dir: &Path, w: &World) -> std::path::PathBuf {
    let path = dir.join("sinks.toml");
    let text = format!(
        r#"
[sinks.tasks]
kind = "http"
url = "{}"
timeout_ms = 2000

[sinks.notify]
kind = "slack"
url = "{}"

[sinks.chat]
kind = "http"
url = "{}"

[sinks.log]
kind = "file"
path = "effects.jsonl"

[capabilities]
"tasks.create" = "tasks"
"notify.send" = "notify"
"message.send" = "chat"
"react.add" = "log"
"#,
        w.tasks.url(),
        w.notify.url(),
        w.chat.url()
    );
    std::fs::write(&path, text).unwrap();
    path
}

fn host(args: &[&str], fault: Option<&str>) -> Output {
    let mut cmd = Command::new(BIN);
    cmd.args(args).env_remove("EXPRESSO_FAULT");
    if let Some(f) = fault {
        cmd.env("EXPRESSO_FAULT", f);
    }
    cmd.output().expect("run expresso-host")
}

fn killed(out: &Output) -> bool {
    out.status.signal() == Some(libc_sigkill())
}

fn libc_sigkill() -> i32 {
    9
}

/// One scenario: kill at `fault`, recover, check every receiver.
fn scenario(name: &str, fault: &str) -> usize {
    let dir = temp_dir(&format!("crash-{name}"));
    let (program, events, recording, expected) = triage_fixture(&dir, 9);
    let w =
        World { tasks: Receiver::start(true, 0), notify: Receiver::start(true, 0), chat: Receiver::start(false, 0) };
    let sinks = sinks_toml(&dir, &w);
    let state = dir.join("state");
    let state_s = state.to_str().unwrap();
    let provider = format!("recording:{}", recording.display());
    let drain_args = [
        "drain",
        program.to_str().unwrap(),
        "--state",
        state_s,
        "--sinks",
        sinks.to_str().unwrap(),
        "--provider",
        &provider,
        "--batch",
        "2",
        "--settle-ms",
        "10000",
    ];

    let ingest_fault = fault.starts_with("after-append").then_some(fault);
    let out = host(&["ingest", "--state", state_s, events.to_str().unwrap()], ingest_fault);
    if ingest_fault.is_some() {
        assert!(killed(&out), "{fault}: ingest was not killed: {out:?}");
    } else {
        assert!(out.status.success(), "{out:?}");
        let out = host(&drain_args, Some(fault));
        assert!(killed(&out), "{fault}: the drain was not killed at its point: {out:?}");
    }

    let out = host(&drain_args, None);
    assert!(out.status.success(), "{fault}: recovery failed: {}", String::from_utf8_lossy(&out.stderr));
    let status: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let total: usize = expected.values().map(Vec::len).sum();
    assert_eq!(status["done"], total, "{fault}: {status}");
    assert_eq!(status["intent"], 0, "{fault}: {status}");
    assert_eq!(status["cursor"], 9, "{fault}: {status}");

    // Exactly once where the receiver honours the key.
    assert_eq!(sorted(w.tasks.applied()), sorted(expected["tasks.create"].clone()), "{fault}: tasks");
    assert_eq!(sorted(w.notify.applied()), sorted(expected["notify.send"].clone()), "{fault}: notify");
    // At least once, nothing lost, where it does not.
    let chat = w.chat.applied();
    assert!(chat.len() >= expected["message.send"].len(), "{fault}: chat lost an effect");
    assert_eq!(dedup_sorted(chat.clone()), sorted(expected["message.send"].clone()), "{fault}: chat");
    let lines = file_keys(&dir.join("effects.jsonl"));
    assert_eq!(dedup_sorted(lines.clone()), sorted(expected["react.add"].clone()), "{fault}: file");

    // How many deliveries were sent again because of the crash.
    let sent = w.tasks.requests().len() + w.notify.requests().len() + chat.len() + lines.len();
    std::fs::remove_dir_all(&dir).unwrap();
    sent - total
}

#[test]
fn sigkill_at_every_point_of_the_protocol_loses_nothing_and_double_acts_on_nothing() {
    let cases: &[&str] = &[
        "after-append",
        "after-step:1",
        "after-step:3",
        "after-intent:1",
        "after-intent:3",
        "after-dispatch:1",
        "after-dispatch:2",
        "after-dispatch:4",
        "after-dispatch:7",
        "after-done:1",
        "after-done:4",
    ];
    for point in expresso_host::fault::POINTS {
        assert!(cases.iter().any(|c| c.split(':').next() == Some(*point)), "no case kills at {point}");
    }
    for case in cases {
        let resent = scenario(&case.replace(':', "-"), case);
        // A kill between a sink's success and its `done` mark must re-send (the window is real and
        // closed by the receiver's key); anywhere else nothing is sent twice.
        if case.starts_with("after-dispatch") {
            assert!(resent >= 1, "{case}: nothing was sent again, so the kill missed the window");
        } else if !case.starts_with("after-intent") {
            assert_eq!(resent, 0, "{case}: sent {resent} again");
        }
    }
}
