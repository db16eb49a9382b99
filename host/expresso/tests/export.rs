//! `expresso export` of `serve`'s log, replayed by `expresso run`, gives the effects `serve` gave, in the
//! order it gave them: on SQLite and on Postgres. The log `serve` took has an event sent out of order
//! (reordered within the window), a late one (fired in arrival order), a correction after its event
//! fired (refused) and a redelivery (counted once), so `run` over the raw log would differ.

use expresso_host::cli::{HostArgs, open, open_worker};
use expresso_host::serve::{Limits, start};
use expresso_host::watermark::Window;
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Each reply says which message came before it, so the order of firing shows in the effects; and what a
/// model leaf answered, so the replay needs the journal.
const ECHO: &str = "leaf classify(s: Span) -> { kind: enum(bug, question) }\n\nagent \"Echo\" {\n  grants { message.send, ai.classify }\n  lives in channel #support\n  memory prev = \"none\"\n  on message {\n    let c = classify(.message)\n    reply \"{.message} after {prev}\"\n    remember prev = \"{.message}\"\n  }\n}\n";

/// The rule of the host's tests for what a run may lack (tests/common/mod.rs there): with `CI` set the
/// test fails; otherwise one `skipped` line on stderr and the test is skipped.
fn lacking(reason: &str, fix: &str) {
    let test = std::thread::current().name().unwrap_or("a test").to_string();
    if std::env::var_os("CI").is_some_and(|v| !v.is_empty()) {
        panic!("{test}: {reason}, with CI set: {fix}");
    }
    let _ = writeln!(std::io::stderr(), "skipped ({reason}): {test}; {fix}");
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("expresso-export-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn message(id: &str, t: u64, rev: u64, text: &str) -> String {
    json!({
        "id": id, "partition": {"workspace": "acme", "room": "#support"}, "type": "message",
        "payload": {"speaker": "dana", "text": text}, "t_event": t, "rev": rev,
    })
    .to_string()
}

/// POST /events over a plain connection; the answer's JSON body.
fn post(addr: std::net::SocketAddr, body: &str) -> Value {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "POST /events HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    serde_json::from_str(answer.split("\r\n\r\n").nth(1).unwrap()).unwrap()
}

/// The receipts the file sink was given, in order.
fn delivered(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("out.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["receipt"].clone())
        .collect()
}

fn eventually(what: &str, mut f: impl FnMut() -> bool) {
    let start = Instant::now();
    while !f() {
        assert!(start.elapsed() < Duration::from_secs(30), "never: {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn expresso(args: &[&str], dir: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_expresso")).args(args).current_dir(dir).output().unwrap()
}

/// Serves the scenario on the store `store_toml` names (none: SQLite under `dir/state`), exports the
/// log, runs the export, and checks `run` gives what `serve` gave.
fn serve_export_run(dir: &Path, store_toml: &str) {
    std::fs::write(dir.join("echo.ex"), ECHO).unwrap();
    let answers: serde_json::Map<String, Value> = ["a", "b", "c"]
        .iter()
        .map(|id| (format!("Echo#0|{id}/Echo#0/0/classify"), json!({"kind": "question"})))
        .collect();
    std::fs::write(dir.join("recording.json"), json!({ "answers": answers }).to_string()).unwrap();
    std::fs::write(
        dir.join("sinks.toml"),
        format!("{store_toml}[sinks.log]\nkind = \"file\"\npath = \"out.jsonl\"\n[capabilities]\n\"message.send\" = \"log\"\n"),
    )
    .unwrap();
    let args = HostArgs {
        program: dir.join("echo.ex"),
        state: Some(dir.join("state")),
        sinks: dir.join("sinks.toml"),
        provider: format!("recording:{}", dir.join("recording.json").display()),
        batch: 64,
    };
    let limits = Limits { reorder: Window::new(2_000).unwrap(), ..Limits::default() };
    let at: std::net::SocketAddr = "127.0.0.1:0".parse().unwrap();
    let running = match open_worker(&args).unwrap() {
        Some(worker) => start(worker, at, limits, false).unwrap(),
        None => start(open(&args).unwrap(), at, limits, false).unwrap(),
    };
    let addr = running.addr;
    // `b` is sent before `a`, which happened first: within the window, `a` fires first.
    assert_eq!(post(addr, &message("b", 2000, 0, "b")), json!({"accepted": 1, "duplicate": 0}));
    assert_eq!(post(addr, &message("a", 1000, 0, "a")), json!({"accepted": 1, "duplicate": 0}));
    eventually("a and b fired", || delivered(dir).len() == 2);
    // `c` happened between them but comes after `b` fired: late, it fires in arrival order.
    assert_eq!(post(addr, &message("c", 1500, 0, "c")), json!({"accepted": 1, "duplicate": 0}));
    eventually("c fired", || delivered(dir).len() == 3);
    // A correction of `a` after it fired is refused; `b` delivered again is counted once.
    let refused = post(addr, &message("a", 1000, 1, "A"));
    assert_eq!((&refused["accepted"], &refused["duplicate"]), (&json!(0), &json!(0)), "{refused}");
    assert!(refused["refused"][0]["reason"].as_str().unwrap().contains("after rev 0 was released"), "{refused}");
    assert_eq!(post(addr, &message("b", 2000, 0, "b")), json!({"accepted": 0, "duplicate": 1}));
    std::thread::sleep(Duration::from_millis(400));
    running.stop().unwrap();
    // What `status` shows of the window: one late event, one correction refused, nothing staged.
    let counts = match open_worker(&args).unwrap() {
        None => expresso_host::store::Db::open(&dir.join("state")).unwrap().stage_counts().unwrap(),
        Some(_) => {
            let config = expresso_host::config::Config::read(&dir.join("sinks.toml")).unwrap();
            let ns = config.postgres().unwrap().unwrap();
            expresso_host::pg::stage::counts(&mut expresso_host::pg::connect(&ns).unwrap()).unwrap()
        }
    };
    assert_eq!((counts.staged, counts.late, counts.refused), (0, 1, 1), "{counts:?}");
    let served = delivered(dir);
    let texts: Vec<&str> = served.iter().map(|r| r["args"]["text"].as_str().unwrap()).collect();
    assert_eq!(texts, vec!["a after none", "b after a", "c after b"]);

    let mut export_args = vec!["export", "--out", "export.jsonl", "--journal", "journal.json"];
    if store_toml.is_empty() {
        export_args.extend(["--state", "state"]);
    } else {
        export_args.extend(["--sinks", "sinks.toml"]);
    }
    let exported = expresso(&export_args, dir);
    assert_eq!(exported.status.code(), Some(0), "{}", String::from_utf8_lossy(&exported.stderr));
    let file = std::fs::read_to_string(dir.join("export.jsonl")).unwrap();
    assert!(file.starts_with("#expresso-export {"), "{file}");
    let late: Vec<Value> = file
        .lines()
        .filter_map(|l| l.strip_prefix("#release "))
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|r| r["late"] == json!(true))
        .collect();
    assert_eq!(late.len(), 1, "{file}");
    let corrections: Vec<Value> =
        file.lines().filter_map(|l| l.strip_prefix("#correction ")).map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!((corrections.len(), &corrections[0]["fate"]), (1, &json!("refused")), "{file}");

    let replay = ["--journal", "journal.json", "--provider", "none"];
    let run = expresso(&[&["run", "echo.ex", "--events", "export.jsonl"][..], &replay].concat(), dir);
    assert_eq!(run.status.code(), Some(0), "{}", String::from_utf8_lossy(&run.stderr));
    // Every answer came from serve's journal: no provider was asked.
    assert!(String::from_utf8_lossy(&run.stderr).contains(" 0 provider calls · 3 journal hits"), "{run:?}");
    let replayed: Vec<Value> =
        String::from_utf8_lossy(&run.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(replayed, served, "run on the export gives serve's effects, in serve's order");

    // The same events as a plain log are run in event-time order: `c` before `b`, not what serve did.
    let plain: String = file.lines().filter(|l| !l.starts_with('#')).map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.join("plain.jsonl"), plain).unwrap();
    let run = expresso(&[&["run", "echo.ex", "--events", "plain.jsonl"][..], &replay].concat(), dir);
    let texts: Vec<String> = String::from_utf8_lossy(&run.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["args"]["text"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(texts, vec!["a after none", "c after a", "b after c"]);

    // A cut-off export is refused, naming the file and the fix.
    let cut: String = file.lines().take(3).map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.join("cut.jsonl"), cut).unwrap();
    let run = expresso(&[&["run", "echo.ex", "--events", "cut.jsonl"][..], &replay].concat(), dir);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cut off") && stderr.contains("cut.jsonl") && stderr.contains("expresso export"),
        "{stderr}"
    );
}

#[test]
fn run_on_an_export_of_serves_sqlite_log_gives_serves_effects() {
    let dir = temp_dir("sqlite");
    serve_export_run(&dir, "");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn run_on_an_export_of_serves_postgres_log_gives_serves_effects() {
    let Some(url) = std::env::var("EXPRESSO_TEST_PG_URL").ok().filter(|u| !u.is_empty()) else {
        lacking("postgres not running", "source .ci/postgres");
        return;
    };
    let dir = temp_dir("postgres");
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
    let schema = format!("t_export_{}_{nanos}", std::process::id());
    serve_export_run(&dir, &format!("[store]\npostgres = \"{url}\"\nschema = \"{schema}\"\npartitions = 2\n"));
    std::fs::remove_dir_all(&dir).unwrap();
}
