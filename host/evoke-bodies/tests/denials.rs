//! Every grant a component does not have, tried by a real component (`tests/probe`), and refused with
//! the reason: files outside the grant, writes under a read-only grant, TCP and HTTP to pairs not
//! granted, name lookups, the deadline, the memory ceiling, and a stray stdout.

mod support;

use evoke_bodies::component::{Captured, ComponentHost, ENVIRONMENT, Options};
use evoke_core::manifest::{Access, Grants};
use std::os::unix::fs::OpenOptionsExt;
use std::time::{Duration, Instant};
use support::*;

#[tokio::test]
async fn reading_outside_the_grant_is_refused() {
    let Some((dir, wasm)) = probe() else { return };
    let granted = scratch("read-granted");
    let outside = scratch("read-outside");
    std::fs::write(granted.join("mine.txt"), "mine").unwrap();
    std::fs::write(outside.join("secret.txt"), "the hidden words").unwrap();
    let grants = files(&[(&granted, Access::Read)]);

    let inside = ok(host()
        .run(&probe_call(&dir, "read", &granted.join("mine.txt").display().to_string(), grants.clone()), &wasm)
        .await);
    assert_eq!(inside.text, "mine");

    std::os::unix::fs::symlink(outside.join("secret.txt"), granted.join("link.txt")).unwrap();

    let mut reasons = Vec::new();
    for target in [
        outside.join("secret.txt"),
        granted.join("../").join(outside.file_name().unwrap()).join("secret.txt"),
        granted.join("link.txt"),
    ] {
        let target = target.display().to_string();
        let f = failed(host().run(&probe_call(&dir, "read", &target, grants.clone()), &wasm).await);
        assert!(f.message.starts_with(&format!("read {target}: ")), "{}", f.message);
        assert!(!f.message.contains("the hidden words"), "{}", f.message);
        reasons.push(f.message);
    }
    // Outside every granted directory there is nothing: the path is not there for the body. A `..` or a
    // symlink out of a granted directory is refused.
    assert!(reasons[0].contains("No such file or directory"), "{}", reasons[0]);
    assert!(reasons[1].contains("Operation not permitted"), "{}", reasons[1]);
    assert!(reasons[2].contains("Operation not permitted"), "{}", reasons[2]);
}

#[tokio::test]
async fn writing_under_a_read_only_grant_is_refused() {
    let Some((dir, wasm)) = probe() else { return };
    let granted = scratch("write-ro");
    let target = granted.join("new.txt").display().to_string();

    let f = failed(host().run(&probe_call(&dir, "write", &target, files(&[(&granted, Access::Read)])), &wasm).await);
    assert!(f.message.starts_with(&format!("write {target}: Operation not permitted")), "{}", f.message);
    assert!(!granted.join("new.txt").exists());

    let wrote = ok(host().run(&probe_call(&dir, "write", &target, files(&[(&granted, Access::Write)])), &wasm).await);
    assert_eq!(wrote.text, format!("wrote {target}"));
    assert_eq!(std::fs::read_to_string(granted.join("new.txt")).unwrap(), "written by a body\n");
}

#[tokio::test]
async fn tcp_to_a_pair_not_granted_is_refused() {
    let Some((dir, wasm)) = probe() else { return };
    let granted = silent_listener();
    let other = silent_listener();
    let g = granted.local_addr().unwrap();
    let o = other.local_addr().unwrap();
    let grants = net(&[g.to_string()]);

    // Another port of a granted address, and any address at all without a net grant.
    for grants in [grants.clone(), Grants::default()] {
        let f = failed(host().run(&probe_call(&dir, "tcp", &o.to_string(), grants), &wasm).await);
        assert!(f.message.starts_with(&format!("tcp {o}: Permission denied")), "{}", f.message);
        assert!(other.accept().is_err(), "a connection reached the port not granted");
    }

    let out = ok(host().run(&probe_call(&dir, "tcp", &g.to_string(), grants), &wasm).await);
    assert_eq!(out.text, format!("connected to {g}"));
}

#[tokio::test]
async fn http_to_a_pair_not_granted_is_refused() {
    let Some((dir, wasm)) = probe() else { return };
    let granted = serve("127.0.0.1:0", 1, |path| format!(r#"{{"path":"{path}"}}"#));
    let other = silent_listener();
    let o = other.local_addr().unwrap();
    let grants = net(&[granted.to_string()]);

    let url = format!("http://{o}/steal");
    let f = failed(host().run(&probe_call(&dir, "http", &url, grants.clone()), &wasm).await);
    assert_eq!(f.message, format!("http {url}: the request failed: HttpRequestDenied"));
    assert!(other.accept().is_err(), "a connection reached the port not granted");

    let url = format!("http://{granted}/ok");
    let out = ok(host().run(&probe_call(&dir, "http", &url, grants), &wasm).await);
    assert_eq!(out.text, r#"200 {"path":"/ok"}"#);
}

#[tokio::test]
async fn names_not_granted_are_not_looked_up() {
    let Some((dir, wasm)) = probe() else { return };
    let grants = net(&["localhost:8080".into()]);
    let f = failed(host().run(&probe_call(&dir, "lookup", "example.com", grants.clone()), &wasm).await);
    assert!(f.message.starts_with("lookup example.com: Permission denied"), "{}", f.message);
    let out = ok(host().run(&probe_call(&dir, "lookup", "localhost", grants), &wasm).await);
    assert!(out.text.contains("127.0.0.1") || out.text.contains("::1"), "{}", out.text);
}

#[tokio::test]
async fn a_loop_is_stopped_at_the_deadline() {
    let Some((dir, wasm)) = probe() else { return };
    warm(&dir, &wasm).await;
    let mut c = probe_call(&dir, "spin", "", Grants::default());
    c.deadline = Instant::now() + Duration::from_millis(500);
    let f = failed(host().run(&c, &wasm).await);
    assert_eq!(f.message, "stopped at the deadline: the body was still running when the decision's time ran out");
}

#[tokio::test]
async fn endless_allocation_is_stopped_at_the_memory_limit() {
    let Some((dir, wasm)) = probe() else { return };
    let f = failed(host().run(&probe_call(&dir, "hoard", "", Grants::default()), &wasm).await);
    assert_eq!(f.message, "stopped at the memory limit: the body asked for more than its 256 MiB of memory");
}

#[tokio::test]
async fn printing_to_stdout_leaves_the_result_intact() {
    let Some((dir, wasm)) = probe() else { return };
    let captured = Captured::new(1 << 16);
    let options = Options { capture: Some(captured.clone()), ..Options::default() };
    let host = ComponentHost::with_options(&cache_dir(), options).unwrap();
    let out = ok(host.run(&probe_call(&dir, "print", "", Grants::default()), &wasm).await);
    assert_eq!(out.text, "the result");
    assert_eq!(out.data, Some(serde_json::json!({"clean": true})));
    assert_eq!(captured.text(), "a stray line on stdout\na line on stderr\n");
}

#[tokio::test]
async fn the_environment_is_the_scrubbed_five() {
    let Some((dir, wasm)) = probe() else { return };
    let out = ok(host().run(&probe_call(&dir, "env", "", Grants::default()), &wasm).await);
    for name in out.text.split_whitespace() {
        assert!(ENVIRONMENT.contains(&name), "{name} reached the body");
    }
}

#[tokio::test]
async fn failures_say_what_happened() {
    let Some((dir, wasm)) = probe() else { return };
    let run = |action: &'static str| {
        let (dir, wasm) = (dir.clone(), wasm.clone());
        async move { failed(host().run(&probe_call(&dir, action, "", Grants::default()), &wasm).await).message }
    };
    assert_eq!(run("fail").await, "the body says no");
    let panicked = run("panic").await;
    assert!(
        panicked
            .starts_with("the body trapped: wasm trap: wasm `unreachable` instruction executed; its stderr ended: "),
        "{panicked}"
    );
    assert!(panicked.ends_with(" | the body panicked"), "{panicked}");
    assert!(run("data").await.starts_with("the body returned data that is not JSON: "));
}

#[tokio::test]
async fn holding_more_than_ten_thousand_host_resources_is_stopped() {
    let Some((dir, wasm)) = probe() else { return };
    // 20,000 sets of header fields, small ones: the count alone passes the cap.
    let f = failed(host().run(&probe_call(&dir, "headers", "20000:1", Grants::default()), &wasm).await);
    assert_eq!(f.message, "stopped at the resource limit: the body held more than 10000 host resources");
    // Under the cap the same body runs.
    let out = ok(host().run(&probe_call(&dir, "headers", "100:1", Grants::default()), &wasm).await);
    assert_eq!(out.text, "kept 100 sets of fields");
}

#[tokio::test]
async fn a_header_value_of_100_kib_is_stopped() {
    let Some((dir, wasm)) = probe() else { return };
    // The attack held 50,000 of these; one is already past what a set of fields may hold.
    let f = failed(host().run(&probe_call(&dir, "headers", "1:102400", Grants::default()), &wasm).await);
    assert_eq!(
        f.message,
        "stopped at the resource limit: the body put more than 16 KiB of headers in one set of fields"
    );
}

#[tokio::test]
async fn a_flood_of_stderr_is_stopped_at_one_mebibyte() {
    let Some((dir, wasm)) = probe() else { return };
    let captured = Captured::new(4 << 20);
    let options = Options { capture: Some(captured.clone()), ..Options::default() };
    let host = ComponentHost::with_options(&cache_dir(), options).unwrap();
    let f = failed(host.run(&probe_call(&dir, "shout", "", Grants::default()), &wasm).await);
    assert_eq!(f.message, "the body's stderr passed 1 MiB, the most evoke reads of it; the body was stopped");
    assert!(captured.text().len() <= 1 << 20, "{} bytes got through", captured.text().len());
}

#[tokio::test]
async fn a_result_over_one_mebibyte_is_refused() {
    let Some((dir, wasm)) = probe() else { return };
    let f = failed(host().run(&probe_call(&dir, "big", "", Grants::default()), &wasm).await);
    assert_eq!(f.message, "the body's result passed 1 MiB, the most evoke reads of it; the body was stopped");
}

#[test]
fn a_read_blocked_on_a_fifo_does_not_hold_evoke_past_the_deadline() {
    let Some((dir, wasm)) = probe() else { return };
    let warming = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    warming.block_on(warm(&dir, &wasm));
    let granted = scratch("fifo");
    let fifo = granted.join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let mut c = probe_call(&dir, "read", &fifo.display().to_string(), files(&[(&granted, Access::Read)]));
    c.deadline = Instant::now() + Duration::from_secs(1);
    // As the CLI runs a body: a current-thread runtime of its own, and a host made for the run; both are
    // dropped on the way out, and the process can only end once they are.
    let (ended, end) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let host = ComponentHost::new(&cache_dir()).unwrap();
        let ran = runtime.block_on(host.run(&c, &wasm));
        drop(host);
        drop(runtime);
        let _ = ended.send(ran);
    });
    let outcome = end.recv_timeout(Duration::from_secs(10));
    // Whatever happened, a writer frees the stuck read, so that no thread of the test outlives it.
    let _ = std::fs::OpenOptions::new().write(true).custom_flags(libc::O_NONBLOCK).open(&fifo);
    let ran = outcome.expect("the run and its runtimes did not end within 10 s of a 1 s deadline");
    let f = failed(ran);
    assert_eq!(f.message, "stopped at the deadline: the body was still running when the decision's time ran out");
}
