//! The durable host with `--provider anthropic` against a fake Messages API endpoint on 127.0.0.1 that
//! answers with recorded responses: an overloaded answer (529) is tried again by the host's firing retry,
//! and every effect lands once.

#[path = "../../expresso-runtime/tests/endpoint/mod.rs"]
mod endpoint;

use endpoint::{header, serve_with};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::Output;

const PROGRAM: &str = r#"leaf classify(s: Span) -> { kind: enum(bug, question, churn), urgency: enum(low, soon, now) }

agent "Triage" {
  grants { react.add, ai.classify }
  at most world
  lives in channel #support

  on message {
    let c = classify(.message)
    if c.kind == bug {
      react "🐞"
    }
  }
}
"#;

fn recorded(name: &str) -> (u16, String) {
    let path = format!("{}/../expresso-runtime/tests/recorded/anthropic/{name}.json", env!("CARGO_MANIFEST_DIR"));
    (200, std::fs::read_to_string(path).unwrap())
}

fn host(args: &[&str], url: &str) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_expresso-host"))
        .args(args)
        .env("ANTHROPIC_BASE_URL", url)
        .env("ANTHROPIC_API_KEY", "sk-ant-test")
        .env_remove("EXPRESSO_ANTHROPIC_MODEL")
        .output()
        .unwrap()
}

#[test]
fn drain_with_anthropic_tries_an_overloaded_answer_again_and_acts_once() {
    let dir: PathBuf = std::env::temp_dir().join(format!("expresso-host-anthropic-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let program = dir.join("triage.ex");
    std::fs::write(&program, PROGRAM).unwrap();
    let sinks = dir.join("sinks.toml");
    std::fs::write(
        &sinks,
        "[sinks.log]\nkind = \"file\"\npath = \"effects.jsonl\"\n\n[capabilities]\n\"react.add\" = \"log\"\n",
    )
    .unwrap();
    let message = |id: &str, t: u64, text: &str| {
        json!({
            "id": id, "partition": {"workspace": "acme", "room": "#support"}, "type": "message",
            "payload": {"speaker": "dana", "text": text}, "t_event": t
        })
        .to_string()
    };
    let events = dir.join("events.jsonl");
    let lines_text = ["Checkout returns a 500 every time I pay #bug".to_string(), "avatar?".to_string()];
    let lines = [message("m1", 1000, &lines_text[0]), message("m2", 2000, &lines_text[1])];
    std::fs::write(&events, lines.join("\n") + "\n").unwrap();
    let overloaded = std::fs::read_to_string(format!(
        "{}/../expresso-runtime/tests/recorded/anthropic/overloaded.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    // The first call is overloaded; then each event's text gets its recorded answer.
    let mut first = true;
    let (url, requests) = serve_with(3, move |body| {
        if std::mem::take(&mut first) {
            return (529, overloaded.clone());
        }
        let text = body["messages"][0]["content"].as_str().unwrap_or("");
        recorded(if text.contains("#bug") { "m1" } else { "m2" })
    });
    let state = dir.join("state");
    let (state_s, program_s, sinks_s) = (state.to_str().unwrap(), program.to_str().unwrap(), sinks.to_str().unwrap());

    let out = host(&["ingest", "--state", state_s, events.to_str().unwrap()], &url);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let drain =
        ["drain", program_s, "--state", state_s, "--sinks", sinks_s, "--provider", "anthropic", "--settle-ms", "5000"];
    let out = host(&drain, &url);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    let effects: Vec<Value> = std::fs::read_to_string(dir.join("effects.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let keys: Vec<&str> = effects.iter().filter_map(|e| e["idempotency_key"].as_str()).collect();
    assert_eq!(keys, ["m1|Triage#0/1/react|react.add"], "{effects:?}");
    let requests: Vec<(String, Value)> = requests.try_iter().collect();
    let asked = |needle: &str| requests.iter().filter(|(_, b)| b["messages"][0]["content"] == needle).count();
    assert_eq!(asked(&lines_text[0]), 2, "m1: overloaded, then answered on the firing's next try");
    assert_eq!(asked(&lines_text[1]), 1, "m2: its answer journaled, never asked twice");
    for (head, body) in &requests {
        assert!(head.starts_with("POST /v1/messages "), "{head}");
        assert_eq!(header(head, "anthropic-version"), Some("2023-06-01"));
        assert_eq!(body["tool_choice"], json!({ "type": "tool", "name": "answer" }));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
