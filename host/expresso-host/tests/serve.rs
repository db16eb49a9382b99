//! `serve` over loopback: events in, effects out; bad input refused with nothing written; push-back;
//! health, readiness, metrics; a graceful stop that finishes the batch in progress.

mod common;

use common::*;
use expresso_host::cli::{HostArgs, open};
use expresso_host::serve::{Limits, Running, start};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn post(url: &str, body: &str) -> (u16, String, Option<String>) {
    let client = expresso_runtime::http::builder().build().unwrap();
    match client.post(url).header("Content-Type", "application/json").body(body.to_string()).send() {
        // Only an error answer's retry-after is read, as the tests ask of a refusal.
        Ok(r) => {
            let code = r.status().as_u16();
            let retry = r.headers().get("retry-after").and_then(|v| v.to_str().ok()).map(str::to_string);
            (code, r.text().unwrap_or_default(), retry.filter(|_| code >= 400))
        }
        Err(e) => panic!("{e}"),
    }
}

fn get(url: &str) -> (u16, String) {
    match expresso_runtime::http::builder().build().unwrap().get(url).send() {
        Ok(r) => (r.status().as_u16(), r.text().unwrap_or_default()),
        Err(e) => panic!("{e}"),
    }
}

/// Waits for a condition, failing the test after a generous bound (not a speed assertion).
fn eventually(what: &str, mut f: impl FnMut() -> bool) {
    let start = Instant::now();
    while !f() {
        assert!(start.elapsed() < Duration::from_secs(30), "never: {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn file_sinks(dir: &Path) -> PathBuf {
    let path = dir.join("sinks.toml");
    std::fs::write(
        &path,
        "[sinks.log]\nkind = \"file\"\npath = \"out.jsonl\"\n[capabilities]\n\"react.add\" = \"log\"\n\"tasks.create\" = \"log\"\n\"message.send\" = \"log\"\n\"notify.send\" = \"log\"\n",
    )
    .unwrap();
    path
}

fn serve(dir: &Path, n: usize, provider: Option<String>, limits: Limits) -> (Running, Vec<String>, usize) {
    let (program, events, recording, expected) = triage_fixture(dir, n);
    let args = HostArgs {
        program,
        state: Some(dir.join("state")),
        sinks: file_sinks(dir),
        provider: provider.unwrap_or_else(|| format!("recording:{}", recording.display())),
        batch: 64,
    };
    let host = open(&args).unwrap();
    let running = start(host, "127.0.0.1:0".parse().unwrap(), limits, false).unwrap();
    let lines = std::fs::read_to_string(events).unwrap().lines().map(str::to_string).collect();
    (running, lines, expected.values().map(Vec::len).sum())
}

#[test]
fn events_in_single_and_batched_give_each_effect_once_with_health_and_metrics() {
    let dir = temp_dir("serve-ok");
    let (running, lines, total) = serve(&dir, 6, None, Limits::default());
    let base = format!("http://{}", running.addr);
    assert_eq!(get(&format!("{base}/healthz")).0, 200);
    eventually("ready", || get(&format!("{base}/readyz")).0 == 200);
    let (code, body, _) = post(&format!("{base}/events"), &lines[0]);
    assert_eq!((code, body.as_str()), (200, r#"{"accepted":1,"duplicate":0}"#));
    let batch = format!("[{}]", lines[1..].join(","));
    let (code, body, _) = post(&format!("{base}/events"), &batch);
    assert_eq!((code, body.as_str()), (200, r#"{"accepted":5,"duplicate":0}"#));
    // The same event again is in the log already.
    let (code, body, _) = post(&format!("{base}/events"), &lines[0]);
    assert_eq!((code, body.as_str()), (200, r#"{"accepted":0,"duplicate":1}"#));
    eventually("every effect written", || file_keys(&dir.join("out.jsonl")).len() == total);
    eventually("metrics", || {
        get(&format!("{base}/metrics")).1.contains(&format!("expresso_effects_applied_total {total}\n"))
    });
    let metrics = get(&format!("{base}/metrics")).1;
    for line in [
        "expresso_events_in_total 6\n",
        "expresso_events_duplicate_total 1\n",
        "expresso_events_processed_total 6\n",
        "expresso_firings_total 6\n",
        "expresso_provider_calls_total 6\n",
        "expresso_effects_deduplicated_total 0\n",
        "expresso_sink_errors_total 0\n",
        "expresso_backlog_events 0\n",
    ] {
        assert!(metrics.contains(line), "{line} not in\n{metrics}");
    }
    running.stop().unwrap();
    let keys = file_keys(&dir.join("out.jsonl"));
    assert_eq!(dedup_sorted(keys.clone()).len(), keys.len());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_refused_with_the_reason_and_nothing_is_written() {
    let dir = temp_dir("serve-bad");
    let limits = Limits { max_body: 4096, ..Limits::default() };
    let (running, lines, _) = serve(&dir, 2, None, limits);
    let url = format!("http://{}/events", running.addr);
    let cases: Vec<(String, u16, &str)> = vec![
        ("{\"id\": ".into(), 400, "the body is not JSON"),
        (lines[0].replace("\"message\"", "\"shout\""), 400, "unknown variant `shout`"),
        (lines[0].replace("\"id\":\"m0\",", ""), 400, "missing field `id`"),
        (
            format!("[{},{}]", lines[1], lines[0].replace("\"speaker\":\"dana\",", "")),
            400,
            "event 1: a message event needs payload.speaker",
        ),
        ("[]".into(), 400, "the array holds no event"),
        ("42".into(), 400, "neither an event object nor an array"),
        (format!("[{}]", vec![lines[0].clone(); 60].join(",")), 413, "larger than 4096 bytes"),
    ];
    for (body, code, reason) in &cases {
        let (got, text, _) = post(&url, body);
        assert_eq!(got, *code, "{body:.80}: {text}");
        assert!(text.contains(reason), "{body:.80}: {text}");
    }
    running.stop().unwrap();
    let db = expresso_host::Db::open(&dir.join("state")).unwrap();
    assert_eq!(db.counts().unwrap().events, 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_log_too_far_ahead_of_the_agents_is_pushed_back_with_429_and_readiness_drops() {
    // With no provider the first event faults, and with no bound on its tries it is never parked, so the
    // agents stay behind the log.
    let dir = temp_dir("serve-429");
    let limits = Limits { max_backlog: 0, ..Limits::default() };
    let (program, events, _, _) = triage_fixture(&dir, 2);
    let args = HostArgs {
        program,
        state: Some(dir.join("state")),
        sinks: file_sinks(&dir),
        provider: "none".into(),
        batch: 64,
    };
    let mut host = open(&args).unwrap();
    host.firing_tries = u32::MAX;
    let running = start(host, "127.0.0.1:0".parse().unwrap(), limits, false).unwrap();
    let lines: Vec<String> = std::fs::read_to_string(events).unwrap().lines().map(str::to_string).collect();
    let base = format!("http://{}", running.addr);
    assert_eq!(post(&format!("{base}/events"), &lines[0]).0, 200);
    eventually("not ready with the backlog past its bound", || get(&format!("{base}/readyz")).0 == 503);
    let (code, text, retry) = post(&format!("{base}/events"), &lines[1]);
    assert_eq!(code, 429, "{text}");
    assert!(text.contains("1 events wait for the agents"), "{text}");
    assert_eq!(retry.as_deref(), Some("1"));
    assert!(get(&format!("{base}/metrics")).1.contains("expresso_runtime_faults_total "));
    running.stop().unwrap();
    let db = expresso_host::Db::open(&dir.join("state")).unwrap();
    assert_eq!(db.counts().unwrap().events + db.stage_counts().unwrap().staged, 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_graceful_stop_finishes_the_batch_in_progress() {
    let dir = temp_dir("serve-stop");
    let (running, lines, _) = serve(&dir, 60, None, Limits::default());
    let url = format!("http://{}/events", running.addr);
    for chunk in lines.chunks(10) {
        assert_eq!(post(&url, &format!("[{}]", chunk.join(","))).0, 200);
    }
    running.stop().unwrap();
    // Whatever the processor reached, it finished: no receipt is left `intent`, and the effects written
    // are exactly those of the events up to the cursor.
    let dir_state = dir.join("state");
    let db = expresso_host::Db::open(&dir_state).unwrap();
    let counts = db.counts().unwrap();
    // Every accepted event is in the log, or staged in the reorder window to be released there.
    assert_eq!(counts.events + db.stage_counts().unwrap().staged, 60);
    assert_eq!(counts.intent, 0);
    let (_, cursor) = db.agent("Triage").unwrap().unwrap_or_default();
    let expected: i64 = (0..cursor).map(|i| [3, 0, 2][(i % 3) as usize]).sum();
    assert_eq!(counts.done, expected);
    assert_eq!(file_keys(&dir.join("out.jsonl")).len() as i64, expected);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_full_queue_is_pushed_back_with_503_and_nothing_of_it_is_written() {
    // The store's thread is held in recovery by a receipt whose receiver answers slowly, so the queue
    // (one request) fills: of two requests sent meanwhile, one waits and one is refused.
    let dir = temp_dir("serve-503");
    let (program, events, recording, _) = triage_fixture(&dir, 2);
    let slow = Receiver::start(true, 0);
    slow.seen.delay_ms.store(4_000, std::sync::atomic::Ordering::SeqCst);
    let sinks = dir.join("sinks.toml");
    std::fs::write(
        &sinks,
        format!(
            "[sinks.s]\nkind = \"http\"\nurl = \"{}\"\ntimeout_ms = 3000\nattempts = 1\n[capabilities]\n\"react.add\" = \"s\"\n\"tasks.create\" = \"s\"\n\"message.send\" = \"s\"\n\"notify.send\" = \"s\"\n",
            slow.url()
        ),
    )
    .unwrap();
    let args = HostArgs {
        program,
        state: Some(dir.join("state")),
        sinks,
        provider: format!("recording:{}", recording.display()),
        batch: 8,
    };
    let mut host = open(&args).unwrap();
    let pending = expresso_host::store::BatchWrite {
        intents: vec![(
            "x|A#0/1/react|react.add".into(),
            "x".into(),
            "react.add".into(),
            serde_json::json!({"args": {}}),
        )],
        ..Default::default()
    };
    host.db_mut().commit_batch(&pending).unwrap();
    let limits = Limits { queue: 1, ..Limits::default() };
    let running = start(host, "127.0.0.1:0".parse().unwrap(), limits, false).unwrap();
    let url = format!("http://{}/events", running.addr);
    let lines: Vec<String> = std::fs::read_to_string(events).unwrap().lines().map(str::to_string).collect();
    let sends: Vec<_> = lines
        .iter()
        .map(|line| {
            let (url, line) = (url.clone(), line.clone());
            std::thread::spawn(move || post(&url, &line))
        })
        .collect();
    let mut answers: Vec<(u16, String, Option<String>)> = sends.into_iter().map(|t| t.join().unwrap()).collect();
    answers.sort();
    assert_eq!(answers[0].0, 200, "{answers:?}");
    assert_eq!(answers[1].0, 503, "{answers:?}");
    assert!(answers[1].1.contains("the ingest queue is full"), "{answers:?}");
    assert_eq!(answers[1].2.as_deref(), Some("1"));
    running.stop().unwrap();
    let db = expresso_host::Db::open(&dir.join("state")).unwrap();
    assert_eq!(db.counts().unwrap().events + db.stage_counts().unwrap().staged, 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Reads until the server closes the connection (or 15 s pass); what it sent, and whether it closed.
fn read_until_closed(stream: &mut std::net::TcpStream) -> (String, bool) {
    use std::io::Read;
    stream.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return (String::from_utf8_lossy(&got).into_owned(), true),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {
                return (String::from_utf8_lossy(&got).into_owned(), true);
            }
            Err(_) => return (String::from_utf8_lossy(&got).into_owned(), false),
        }
    }
}

fn half_sent(addr: std::net::SocketAddr, text: &str) -> std::net::TcpStream {
    use std::io::Write;
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.write_all(text.as_bytes()).unwrap();
    stream
}

/// `POST /events`, written whole before the answer is read: the server answers a connection past its limit
/// as soon as it is accepted, before the request arrives, and reqwest's connection takes an answer before
/// its request for a protocol error, where a client that writes first and then reads takes it as the answer.
fn post_whole(addr: std::net::SocketAddr, body: &str) -> (u16, String, Option<String>) {
    let request = format!(
        "POST /events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let (text, _) = read_until_closed(&mut half_sent(addr, &request));
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let code = head.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let retry = head.lines().find_map(|l| l.to_ascii_lowercase().strip_prefix("retry-after: ").map(str::to_string));
    (code, body.to_string(), retry)
}

#[test]
fn a_request_whose_headers_or_body_stall_is_cut_off_at_its_timeout() {
    let dir = temp_dir("serve-stall");
    let limits = Limits {
        header_timeout: Duration::from_millis(500),
        body_timeout: Duration::from_millis(500),
        ..Limits::default()
    };
    let (running, lines, _) = serve(&dir, 1, None, limits);
    // Half the headers, then nothing.
    let mut headers = half_sent(running.addr, "POST /events HTTP/1.1\r\nHost: x\r\nContent-Type: applic");
    let (_, closed) = read_until_closed(&mut headers);
    assert!(closed, "a connection with half its headers is kept open");
    // Nothing at all.
    let mut idle = half_sent(running.addr, "");
    assert!(read_until_closed(&mut idle).1, "an idle connection is kept open");
    // The headers, then part of the body.
    let body = &lines[0];
    let mut stalled = half_sent(
        running.addr,
        &format!("POST /events HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{}", body.len(), &body[..10]),
    );
    let (answer, closed) = read_until_closed(&mut stalled);
    assert!(answer.starts_with("HTTP/1.1 408 "), "{answer}");
    assert!(closed, "a connection whose body stalled is kept open");
    // Nothing of it was written; a whole request still goes through.
    let (code, text, _) = post(&format!("http://{}/events", running.addr), body);
    assert_eq!((code, text.as_str()), (200, r#"{"accepted":1,"duplicate":0}"#));
    running.stop().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn past_the_connection_limit_a_connection_is_pushed_back_with_503_until_slots_free() {
    let dir = temp_dir("serve-connections");
    let limits = Limits { max_connections: 4, header_timeout: Duration::from_secs(1), ..Limits::default() };
    let (running, lines, _) = serve(&dir, 1, None, limits);
    let url = format!("http://{}/events", running.addr);
    // Four connections holding every slot with half a request each (taken in the order they came).
    let mut idle: Vec<_> = (0..4).map(|_| half_sent(running.addr, "POST /events HTTP/1.1\r\nHo")).collect();
    let (code, text, retry) = post_whole(running.addr, &lines[0]);
    assert_eq!((code, retry.as_deref()), (503, Some("1")), "{text}");
    assert!(text.contains("too many open connections"), "{text}");
    // Once the header timeout has cut them, the request goes through.
    for stream in &mut idle {
        assert!(read_until_closed(stream).1, "a connection with half a request is kept open");
    }
    let (code, text, _) = post(&url, &lines[0]);
    assert_eq!((code, text.as_str()), (200, r#"{"accepted":1,"duplicate":0}"#));
    assert!(get(&format!("http://{}/metrics", running.addr)).1.contains("expresso_requests_refused_total 1\n"));
    running.stop().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A connection that pipelines `requests` copies of `request` and never reads an answer, with a small
/// receive buffer so the answers back up into the server at once.
fn never_reading(addr: std::net::SocketAddr, request: &str, requests: usize) -> std::net::TcpStream {
    use std::io::Write;
    use std::os::fd::AsRawFd;
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    let small: libc::c_int = 4_096;
    // SAFETY: a plain system call on this socket, with a valid pointer to an int and its size.
    unsafe {
        libc::setsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_RCVBUF,
            (&small as *const libc::c_int).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        );
    }
    // Once the server stops reading (it is stuck writing), the rest cannot be sent: that is the point.
    stream.set_write_timeout(Some(Duration::from_millis(100))).unwrap();
    let _ = stream.write_all(request.repeat(requests).as_bytes());
    stream
}

/// A new client's `GET /healthz`: the status line it gets, or what became of it.
fn new_client_gets(addr: std::net::SocketAddr) -> String {
    let mut stream = half_sent(addr, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    let (answer, closed) = read_until_closed(&mut stream);
    match answer.lines().next() {
        Some(status) => status.to_string(),
        None if closed => "closed unanswered".to_string(),
        None => "no answer".to_string(),
    }
}

#[test]
fn clients_that_never_read_their_answers_lose_their_slots_within_the_write_timeout() {
    // The attack: every slot taken by a connection that pipelines requests and reads no answer. hyper
    // does not read the next request while an answer waits to be written, so no read timeout applies;
    // without a write timeout the slots were held for as long as the clients liked.
    let dir = temp_dir("serve-unread");
    let write_timeout = Duration::from_secs(3);
    let limits =
        Limits { max_connections: 4, header_timeout: Duration::from_secs(2), write_timeout, ..Limits::default() };
    let (running, _, _) = serve(&dir, 1, None, limits);
    let held: Vec<_> =
        (0..4).map(|_| never_reading(running.addr, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 20_000)).collect();
    // The attack took every slot: a new client is pushed back.
    let now = new_client_gets(running.addr);
    assert!(now.starts_with("HTTP/1.1 503 "), "the non-reading clients did not take the slots: {now}");
    // Within the write timeout and a generous margin (a bound, not a speed claim), they are cut off and
    // a new client is answered.
    let start = Instant::now();
    loop {
        let now = new_client_gets(running.addr);
        if now.starts_with("HTTP/1.1 200 ") {
            break;
        }
        assert!(
            start.elapsed() < write_timeout + Duration::from_secs(15),
            "connections that read no answer still hold the slots after {:?}: a new client gets {now}",
            start.elapsed()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(held);
    running.stop().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}
