//! `expresso-host serve` as a process: SIGTERM stops it cleanly; SIGKILL between a sink's success and
//! `done`, then a restart, re-delivers by key and loses nothing.

mod common;

use common::*;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn spawn(dir: &Path, program: &Path, recording: &Path, sinks: &Path, fault: Option<&str>) -> (Child, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_expresso-host"));
    cmd.args(["serve", program.to_str().unwrap(), "--state", dir.join("state").to_str().unwrap()])
        .args(["--sinks", sinks.to_str().unwrap(), "--provider", &format!("recording:{}", recording.display())])
        .args(["--listen", "127.0.0.1:0", "--batch", "2"])
        .env_remove("EXPRESSO_FAULT")
        .stderr(Stdio::piped());
    if let Some(f) = fault {
        cmd.env("EXPRESSO_FAULT", f);
    }
    let mut child = cmd.spawn().unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    let addr = line.trim().rsplit("http://").next().unwrap().to_string();
    assert!(line.contains("listening on"), "{line}");
    // Keep reading stderr so the child never blocks on a full pipe.
    std::thread::spawn(move || for _ in stderr.lines() {});
    (child, addr)
}

fn eventually(what: &str, mut f: impl FnMut() -> bool) {
    let start = Instant::now();
    while !f() {
        assert!(start.elapsed() < Duration::from_secs(30), "never: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn sinks(dir: &Path, receiver: &Receiver) -> std::path::PathBuf {
    let path = dir.join("sinks.toml");
    std::fs::write(
        &path,
        format!(
            "[sinks.s]\nkind = \"http\"\nurl = \"{}\"\n[capabilities]\n\"react.add\" = \"s\"\n\"tasks.create\" = \"s\"\n\"message.send\" = \"s\"\n\"notify.send\" = \"s\"\n",
            receiver.url()
        ),
    )
    .unwrap();
    path
}

#[test]
fn sigterm_stops_serve_cleanly_after_what_it_accepted() {
    let dir = temp_dir("proc-term");
    let (program, events, recording, expected) = triage_fixture(&dir, 6);
    let receiver = Receiver::start(true, 0);
    let sinks = sinks(&dir, &receiver);
    let (mut child, addr) = spawn(&dir, &program, &recording, &sinks, None);
    let lines: Vec<String> = std::fs::read_to_string(events).unwrap().lines().map(str::to_string).collect();
    let client = expresso_runtime::http::builder().build().unwrap();
    let r = client.post(format!("http://{addr}/events")).body(format!("[{}]", lines.join(","))).send().unwrap();
    assert_eq!(r.status(), 200);
    let total: usize = expected.values().map(Vec::len).sum();
    eventually("every effect", || receiver.applied().len() == total);
    // SAFETY: kill(2) on a child this test started.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    let db = expresso_host::Db::open(&dir.join("state")).unwrap();
    let counts = db.counts().unwrap();
    assert_eq!((counts.events, counts.done as usize, counts.intent), (6, total, 0));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sigkill_of_serve_between_a_delivery_and_done_then_a_restart_loses_nothing_and_acts_once() {
    let dir = temp_dir("proc-kill");
    let (program, events, recording, expected) = triage_fixture(&dir, 9);
    let receiver = Receiver::start(true, 0);
    let sinks = sinks(&dir, &receiver);
    let (mut child, addr) = spawn(&dir, &program, &recording, &sinks, Some("after-dispatch:4"));
    let lines: Vec<String> = std::fs::read_to_string(events).unwrap().lines().map(str::to_string).collect();
    // The answer is sent once the events are committed; the kill may come before it is on the wire, so
    // only a 200 or a dropped connection is expected here, and the count of events is checked at the end.
    let client = expresso_runtime::http::builder().build().unwrap();
    match client.post(format!("http://{addr}/events")).body(format!("[{}]", lines.join(","))).send() {
        Ok(r) => assert_eq!(r.status(), 200),
        // A dropped connection (the kill); the client's own setup would be a builder error.
        Err(e) => assert!(!e.is_builder(), "{e}"),
    }
    let status = child.wait().unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(9), "serve was not killed at its point");
    // The accepted events survived the kill; the restart re-sends the intents and runs the rest.
    let (mut child, addr) = spawn(&dir, &program, &recording, &sinks, None);
    let all = sorted(expected.values().flatten().cloned().collect());
    eventually("every effect after the restart", || sorted(receiver.applied()) == all);
    eventually("nothing left waiting", || {
        let client = expresso_runtime::http::builder().build().unwrap();
        client
            .get(format!("http://{addr}/metrics"))
            .send()
            .unwrap()
            .text()
            .unwrap()
            .contains("expresso_backlog_events 0\n")
    });
    assert!(receiver.requests().len() > all.len(), "the kill did not fall between a delivery and its done mark");
    // SAFETY: kill(2) on a child this test started.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    assert!(child.wait().unwrap().success());
    let counts = expresso_host::Db::open(&dir.join("state")).unwrap().counts().unwrap();
    assert_eq!((counts.events, counts.done as usize, counts.intent), (9, all.len(), 0));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn serve_under_a_small_file_limit_keeps_answering_while_half_sent_requests_pile_up() {
    use std::io::Write;
    use std::os::unix::process::CommandExt;
    let dir = temp_dir("proc-flood");
    let (program, events, recording, _) = triage_fixture(&dir, 1);
    let receiver = Receiver::start(true, 0);
    let sinks = sinks(&dir, &receiver);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_expresso-host"));
    cmd.args(["serve", program.to_str().unwrap(), "--state", dir.join("state").to_str().unwrap()])
        .args(["--sinks", sinks.to_str().unwrap(), "--provider", &format!("recording:{}", recording.display())])
        .args(["--listen", "127.0.0.1:0", "--header-timeout-ms", "2000"])
        .env_remove("EXPRESSO_FAULT")
        .stderr(Stdio::piped());
    // SAFETY: setrlimit(2) is async-signal-safe; it runs in the child between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let files = libc::rlimit { rlim_cur: 128, rlim_max: 128 };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &files) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    let mut child = cmd.spawn().unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    assert!(line.contains("listening on"), "{line}");
    let addr = line.trim().rsplit("http://").next().unwrap().to_string();
    std::thread::spawn(move || for _ in stderr.lines() {});
    // More half-sent requests than the server has descriptors (and fewer than it has descriptors and
    // backlog together, so that every one connects), all held open by this test.
    let flood: Vec<_> = (0..200)
        .map(|_| {
            let mut s = std::net::TcpStream::connect(&addr).unwrap();
            s.write_all(b"POST /events HTTP/1.1\r\nHost: x\r\n").unwrap();
            s
        })
        .collect();
    let event = std::fs::read_to_string(events).unwrap().lines().next().unwrap().to_string();
    let agent = expresso_runtime::http::builder().timeout(Duration::from_secs(3)).build().unwrap();
    let start = Instant::now();
    let answered = loop {
        if start.elapsed() > Duration::from_secs(30) {
            break None;
        }
        match agent.post(format!("http://{addr}/events")).body(event.clone()).send() {
            Ok(r) if r.status().as_u16() < 400 => break Some(r.text().unwrap()),
            // Pushed back (503), or a connection over every bound closed unanswered: try again.
            Ok(r) if r.status() == 503 => {
                assert_eq!(r.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("1"))
            }
            Ok(r) => panic!("{}: {}", r.status().as_u16(), r.text().unwrap_or_default()),
            Err(_) => {}
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let running = child.try_wait().unwrap().is_none();
    drop(flood);
    // SAFETY: kill(2) on a child this test started (stopped before any assertion, so none is left behind).
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let stopped = child.wait().unwrap();
    assert_eq!(answered.as_deref(), Some(r#"{"accepted":1,"duplicate":0}"#), "a valid request never got through");
    assert!(running, "serve stopped");
    assert!(stopped.success(), "{stopped:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
