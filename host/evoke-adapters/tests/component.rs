//! Component adapters run directly: the example `keywords` answering, and the `quirks` fixture trying what
//! the sandbox denies (an environment, files, sockets, a host not allowed), looping past its signal,
//! trapping, and answering a question twice. Both are built by `.ci/build-components`.

use evoke_adapters::component::{AdapterOpenError, ComponentAdapter};
use evoke_components::ComponentError;
use evoke_core::adapter::{Adapter, Cancel, State};
use evoke_core::question::{Options, Question, Questions, Text};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

#[path = "../../evoke-bodies/tests/support/built.rs"]
mod built_rule;

/// The fixture's bytes when `.ci/build-components` has built it; otherwise `None`, or a failure in CI, as
/// [`built_rule::present`] decides.
fn built(name: &str) -> Option<Vec<u8>> {
    let file = root().join(format!("host/evoke-adapters/tests/{name}/{name}.wasm"));
    built_rule::present(&file).then(|| std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display())))
}

fn cache() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("evoke-adapter-cache")
}

fn open(name: &str, hosts: &[String]) -> Option<ComponentAdapter> {
    let bytes = built(name)?;
    Some(ComponentAdapter::from_bytes(name, &bytes, hosts, &cache()).unwrap_or_else(|e| panic!("{name} opens: {e}")))
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap()
}

/// A route over `timer` and `volume`, with `none` for the rest.
fn route() -> Questions {
    let option = |what: &str| Text::Rich { what: what.into(), not_for: Vec::new(), examples: Vec::new() };
    Questions(vec![(
        evoke_core::question::QuestionId::Route,
        Question::Choice {
            ask: "Which of these does the request ask for?".into(),
            options: Options(vec![
                ("timer".into(), option("Start a countdown timer.")),
                ("volume".into(), option("Set the speaker volume to a level in percent.")),
                ("none".into(), Text::Plain("None of these.".into())),
            ]),
            otherwise: Some("none".into()),
        },
    )])
}

fn ask(adapter: &ComponentAdapter, request: &str) -> Result<evoke_core::adapter::Raw, String> {
    let state = State { request: request.into() };
    runtime().block_on(adapter.answer(&state, &route(), &Cancel::new())).map_err(|e| e.message)
}

#[test]
fn keywords_describes_itself_and_answers_by_shared_words() {
    let Some(adapter) = open("keywords", &[]) else { return };
    assert!(adapter.id().starts_with("keywords/1 sha256:"), "{}", adapter.id());
    assert_eq!(adapter.id().len(), "keywords/1 sha256:".len() + 64);
    let gate = adapter.gate().expect("a declared gate");
    assert_eq!((gate.route, gate.read, gate.write), (0.5, 0.6, 0.8));
    assert_eq!(adapter.limits().options, Some(200));

    let raw = ask(&adapter, "start a countdown timer").unwrap();
    let route = &raw["route"];
    assert!(route["timer"] > 0.9, "{route:?}");
    assert!((route.values().sum::<f64>() - 1.0).abs() < 1e-9, "{route:?}");
    let raw = ask(&adapter, "order a pizza").unwrap();
    assert!(raw["route"]["none"] > raw["route"]["timer"], "{raw:?}");
}

#[test]
fn a_changed_component_is_another_id() {
    let (Some(keywords), Some(quirks)) = (open("keywords", &[]), open("quirks", &[])) else { return };
    assert_ne!(keywords.id().rsplit_once(' ').unwrap().1, quirks.id().rsplit_once(' ').unwrap().1);
}

#[test]
fn the_sandbox_holds_no_environment_no_files_no_sockets() {
    let Some(adapter) = open("quirks", &["127.0.0.1:9".to_string()]) else { return };
    let said = ask(&adapter, "quirk:env").unwrap_err();
    assert!(said.contains("env []"), "{said}");
    assert!(said.contains("args []"), "{said}");
    assert!(said.contains("root Err"), "no directory is preopened: {said}");
    // An allowed host is for wasi:http only: a socket to it is still refused.
    assert!(said.contains("tcp Err(\"Permission denied"), "{said}");
}

#[test]
fn a_trap_an_error_and_a_question_answered_twice_are_adapter_errors() {
    let Some(adapter) = open("quirks", &[]) else { return };
    let trapped = ask(&adapter, "quirk:trap").unwrap_err();
    assert!(trapped.contains("trapped") && trapped.contains("the engine fell over"), "{trapped}");
    let error = ask(&adapter, "quirk:error").unwrap_err();
    assert!(error.contains("the engine is out of order"), "{error}");
    let twice = ask(&adapter, "quirk:twice").unwrap_err();
    assert!(twice.contains("route twice"), "{twice}");
    // A malformed number is passed on as given, for the core to refuse.
    let raw = ask(&adapter, "quirk:nan").unwrap();
    assert!(raw["route"].values().any(|p| p.is_nan()), "{raw:?}");
    // And the adapter still answers after all that.
    assert_eq!(ask(&adapter, "plain").unwrap()["route"].len(), 3);
}

#[test]
fn an_adapter_that_spins_is_stopped_by_its_signal_and_by_the_deadline() {
    let Some(adapter) = open("quirks", &[]) else { return };
    let rt = runtime();
    let state = State { request: "quirk:spin".into() };
    let questions = route();

    // The signal: raised 100 ms in, the call ends at the next tick.
    let cancel = Cancel::new();
    let raiser = cancel.clone();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        raiser.cancel();
    });
    let stopped = rt.block_on(adapter.answer(&state, &questions, &cancel)).unwrap_err();
    assert!(stopped.message.contains("stopped"), "{}", stopped.message);

    // The deadline: the host drops the future without raising anything; the next call finds the
    // adapter's one worker free again.
    for _ in 0..3 {
        let timed = rt.block_on(async {
            tokio::time::timeout(Duration::from_millis(100), adapter.answer(&state, &questions, &Cancel::new())).await
        });
        assert!(timed.is_err());
    }
    let plain = State { request: "plain".into() };
    assert!(rt.block_on(adapter.answer(&plain, &questions, &Cancel::new())).is_ok());
}

/// A loopback HTTP server answering every request with `body`, counting the requests.
fn serve(body: &'static str) -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(AtomicUsize::new(0));
    let counted = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(50) {
            let Ok(mut stream) = stream else { continue };
            counted.fetch_add(1, Ordering::SeqCst);
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                line.clear();
            }
            let _ =
                write!(stream, "HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}", body.len());
        }
    });
    (port, seen)
}

#[test]
fn http_reaches_an_allowed_host_and_no_other() {
    let (allowed, allowed_seen) = serve("volume");
    let (other, other_seen) = serve("timer");
    let Some(adapter) = open("quirks", &[format!("127.0.0.1:{allowed}")]) else { return };

    let raw = ask(&adapter, &format!("quirk:http 127.0.0.1:{allowed}")).unwrap();
    assert_eq!(raw["route"]["volume"], 0.98, "{raw:?}");
    assert_eq!(allowed_seen.load(Ordering::SeqCst), 1);

    let denied = ask(&adapter, &format!("quirk:http 127.0.0.1:{other}")).unwrap_err();
    assert!(denied.contains("HttpRequestDenied"), "{denied}");
    // Another port of an allowed address, and another name for it, are other hosts.
    let denied = ask(&adapter, &format!("quirk:http localhost:{allowed}")).unwrap_err();
    assert!(denied.contains("HttpRequestDenied"), "{denied}");
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(other_seen.load(Ordering::SeqCst), 0, "nothing reached the host not allowed");
    assert_eq!(allowed_seen.load(Ordering::SeqCst), 1);
}

#[test]
fn what_is_not_an_adapter_is_refused_with_the_reason() {
    let cache = cache();
    let refused = ComponentAdapter::from_bytes("x", b"not wasm at all", &[], &cache).err().unwrap();
    assert!(matches!(refused, AdapterOpenError::Host(ComponentError::NotAComponent(_))), "{refused}");
    assert!(refused.to_string().contains("not a component"), "{refused}");
    let body = root().join("reflexes/convert/convert.wasm");
    if let Ok(bytes) = std::fs::read(&body) {
        let refused = ComponentAdapter::from_bytes("convert", &bytes, &[], &cache).err().unwrap();
        assert!(matches!(refused, AdapterOpenError::ABody { .. }), "{refused}");
        assert!(refused.to_string().contains("reflex's body, not an adapter"), "{refused}");
    }
    if let Some(bytes) = built("keywords") {
        let refused =
            ComponentAdapter::from_bytes("keywords", &bytes, &["https://example.com".into()], &cache).err().unwrap();
        assert!(
            matches!(&refused, AdapterOpenError::Host(ComponentError::NetGrant { pair }) if pair == "https://example.com"),
            "{refused}"
        );
        assert!(refused.to_string().contains("not a host:port pair"), "{refused}");
    }
}
