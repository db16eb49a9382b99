//! `expresso run` with an HTTP provider against a fake endpoint on 127.0.0.1: the worked example answered
//! by `--provider anthropic` from recorded Messages API responses; a transient fault asked again with
//! `serve`'s backoff until it passes; one that never passes bounded, then the run fails closed naming the
//! key; a fault that would repeat not asked again.

#[path = "../../expresso-runtime/tests/endpoint/mod.rs"]
mod endpoint;

use endpoint::{header, serve};
use expresso_runtime::retry::TRIES;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn triage() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../transcripts/expresso-triage")
}

fn recorded(name: &str) -> (u16, String) {
    let path = format!("{}/../expresso-runtime/tests/recorded/anthropic/{name}.json", env!("CARGO_MANIFEST_DIR"));
    (200, std::fs::read_to_string(path).unwrap())
}

/// `expresso run` of the worked example with `provider`, its endpoint at `url`, a journal and a world file
/// in `work`.
fn run(provider: &str, url: &str, work: &std::path::Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_expresso"))
        .args(["run", "triage.ex", "--events", "events.jsonl", "--provider", provider, "--journal"])
        .arg(work.join("journal.json"))
        .arg("--world")
        .arg(work.join("world.json"))
        .current_dir(triage())
        .env_remove("OPENAI_API_KEY")
        .env_remove("EXPRESSO_OPENAI_MODEL")
        .env_remove("EXPRESSO_ANTHROPIC_MODEL")
        .env("OPENAI_BASE_URL", format!("{url}/v1"))
        .env("ANTHROPIC_BASE_URL", url)
        .env("ANTHROPIC_API_KEY", "sk-ant-test")
        .output()
        .unwrap()
}

fn workdir(name: &str) -> PathBuf {
    let work = std::env::temp_dir().join(format!("expresso-providers-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    work
}

const WORKED_EXAMPLE_KEYS: [&str; 5] = [
    "m1|Triage#0/1/react|react.add",
    "m1|Triage#0/2/create_task|tasks.create",
    "m1|Triage#0/3/reply|message.send",
    "m3|Triage#0/4/notify|notify.send",
    "m3|Triage#0/5/reply|message.send",
];

fn effect_keys(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap()["idemKey"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn run_answers_the_worked_example_with_anthropic() {
    let (url, requests) = serve(vec![recorded("m1"), recorded("m2"), recorded("m3")]);
    let work = workdir("worked");
    let out = run("anthropic", &url, &work);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(effect_keys(&out), WORKED_EXAMPLE_KEYS);
    let (head, body) = requests.recv().unwrap();
    assert!(head.starts_with("POST /v1/messages "), "{head}");
    assert_eq!(header(&head, "x-api-key"), Some("sk-ant-test"));
    assert_eq!(header(&head, "anthropic-version"), Some("2023-06-01"));
    assert_eq!(body["model"], "claude-haiku-4-5", "the default model");
    assert_eq!(body["tool_choice"], serde_json::json!({ "type": "tool", "name": "answer" }));
    std::fs::remove_dir_all(&work).unwrap();
}

#[test]
fn run_asks_again_after_a_transient_fault_with_backoff() {
    let overloaded = (529, recorded("overloaded").1);
    let (url, requests) = serve(vec![overloaded, (429, "{}".into()), recorded("m1"), recorded("m2"), recorded("m3")]);
    let work = workdir("transient");
    let started = Instant::now();
    let out = run("anthropic", &url, &work);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(effect_keys(&out), WORKED_EXAMPLE_KEYS, "every effect once, as without the faults");
    assert_eq!(requests.try_iter().count(), 5, "two faults, then one call per event");
    // serve's pauses: 100 ms after the first try, 200 ms after the second.
    assert!(started.elapsed() >= Duration::from_millis(300), "{:?}", started.elapsed());
    let retries: Vec<&str> = stderr.lines().filter(|l| l.starts_with("retry: ")).collect();
    assert_eq!(retries.len(), 2, "{stderr}");
    assert!(retries[0].contains("HTTP 529: Overloaded; asking again in 100 ms (try 2 of 5)"), "{}", retries[0]);
    assert!(retries[1].contains("HTTP 429; asking again in 200 ms (try 3 of 5)"), "{}", retries[1]);
    assert!(retries[0].starts_with("retry: `Triage#0|m1/Triage#0/0/classify`: "), "{}", retries[0]);
    std::fs::remove_dir_all(&work).unwrap();
}

#[test]
fn run_fails_closed_naming_the_key_when_the_provider_keeps_failing() {
    // More failures than tries, so a run that asked past the bound would be seen.
    let (url, requests) = serve(vec![(503, "{}".into()); 2 * TRIES as usize]);
    let work = workdir("lasting");
    let out = run("anthropic", &url, &work);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(requests.try_iter().count(), TRIES as usize, "asked {TRIES} times, then stopped");
    assert!(
        stderr.contains(
            "error: no answer for `Triage#0|m1/Triage#0/0/classify`: the endpoint answered HTTP 503 (after 5 tries)"
        ),
        "{stderr}"
    );
    assert_eq!(stderr.lines().filter(|l| l.starts_with("retry: ")).count(), TRIES as usize - 1, "{stderr}");
    assert!(out.stdout.is_empty(), "no effect applied");
    std::fs::remove_dir_all(&work).unwrap();
}

#[test]
fn run_does_not_ask_again_after_a_fault_that_would_repeat() {
    let misfit = r#"{"id":"msg_t","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_t","name":"answer","input":{"value":{"kind":"feature","urgency":"now"}}}],"stop_reason":"tool_use","stop_sequence":null}"#;
    let invalid = (400, recorded("invalid_request").1);
    for (reply, expected) in [
        (invalid, "the endpoint answered HTTP 400: tools.0.input_schema: JSON schema is invalid"),
        ((401, "{}".to_string()), "the endpoint answered HTTP 401"),
        ((200, misfit.to_string()), "does not fit its schema"),
    ] {
        let (url, requests) = serve(vec![reply.clone(), recorded("m1")]);
        let work = workdir("repeat");
        let out = run("anthropic", &url, &work);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains(expected), "{stderr}");
        assert!(!stderr.contains("retry: "), "{stderr}");
        assert_eq!(requests.try_iter().count(), 1, "HTTP {} asked once", reply.0);
        std::fs::remove_dir_all(&work).unwrap();
    }
}

#[test]
fn openai_faults_are_asked_again_too() {
    let chat = |kind: &str, urgency: &str| {
        let content = serde_json::json!({ "value": { "kind": kind, "urgency": urgency } }).to_string();
        (
            200,
            serde_json::json!({ "choices": [{ "message": { "role": "assistant", "content": content } }] }).to_string(),
        )
    };
    let (url, requests) =
        serve(vec![(500, "{}".into()), chat("bug", "now"), chat("question", "low"), chat("churn", "now")]);
    let work = workdir("openai");
    let out = run("openai", &url, &work);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(effect_keys(&out), WORKED_EXAMPLE_KEYS);
    assert_eq!(requests.try_iter().count(), 4);
    std::fs::remove_dir_all(&work).unwrap();
}

#[test]
fn anthropic_without_its_key_is_refused_before_anything_runs() {
    let out = Command::new(env!("CARGO_BIN_EXE_expresso"))
        .args(["run", "triage.ex", "--events", "events.jsonl", "--provider", "anthropic"])
        .current_dir(triage())
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("ANTHROPIC_BASE_URL")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("error: --provider anthropic: ANTHROPIC_API_KEY is not set"), "{stderr}");
    assert!(out.stdout.is_empty());
}

/// A leaf whose answer is a list: open, so `auto` gives it to a generative provider.
const NOTES: &str = r#"leaf todos(s: Span) -> list<text>

agent "Notes" {
  grants { tasks.create, ai.todos }
  at most world
  lives in channel #support

  on message {
    let items = todos(.message)
    for item in items {
      create_task item
    }
  }
}
"#;

/// `expresso run` of NOTES over one message, with `--provider auto` (the default) and `env` set.
fn run_notes(name: &str, env: &[(&str, &str)]) -> Output {
    let work = workdir(name);
    std::fs::write(work.join("notes.ex"), NOTES).unwrap();
    let event = r##"{"id":"m1","partition":{"workspace":"acme","room":"#support"},"type":"message","payload":{"speaker":"dana","text":"ship it, then test it"},"t_event":1000,"rev":0}"##;
    std::fs::write(work.join("events.jsonl"), format!("{event}\n")).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_expresso"));
    command.args(["run", "notes.ex", "--events", "events.jsonl", "--provider", "auto"]).current_dir(&work);
    for name in
        ["OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "EXPRESSO_ANTHROPIC_MODEL"]
    {
        command.env_remove(name);
    }
    command.envs(env.iter().copied());
    let out = command.output().unwrap();
    std::fs::remove_dir_all(&work).unwrap();
    out
}

#[test]
fn auto_gives_an_open_leaf_to_anthropic_when_only_its_environment_is_set() {
    let answer = r#"{"id":"msg_t","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_t","name":"answer","input":{"value":["ship it","test it"]}}],"stop_reason":"tool_use","stop_sequence":null}"#;
    let (url, requests) = serve(vec![(503, "{}".into()), (200, answer.into())]);
    let out = run_notes("auto", &[("ANTHROPIC_BASE_URL", &url), ("ANTHROPIC_API_KEY", "sk-ant-test")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let effects: Vec<serde_json::Value> =
        String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(effects.len(), 2, "{effects:?}");
    assert!(effects.iter().all(|e| e["effect"] == "tasks.create"), "{effects:?}");
    assert!(stderr.contains("retry: "), "auto's generative provider is asked again too: {stderr}");
    let (head, body) = requests.recv().unwrap();
    assert!(head.starts_with("POST /v1/messages "), "{head}");
    let schema = &body["tools"][0]["input_schema"]["properties"]["value"];
    assert_eq!(schema, &serde_json::json!({ "type": "array", "items": { "type": "string" } }));
}

#[test]
fn auto_without_a_generative_provider_names_both_variables() {
    let out = run_notes("auto-none", &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("`todos` is open and needs a generative provider"), "{stderr}");
    assert!(stderr.contains("OPENAI_API_KEY") && stderr.contains("ANTHROPIC_API_KEY"), "{stderr}");
}

#[test]
fn a_run_that_failed_closed_resumes_without_asking_or_acting_twice() {
    let mut replies = vec![recorded("m1"), recorded("m2")];
    replies.extend(vec![(503, "{}".to_string()); TRIES as usize]);
    let (url, requests) = serve(replies);
    let work = workdir("resume");
    let out = run("anthropic", &url, &work);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no answer for `Triage#0|m3/Triage#0/0/classify`"));
    assert_eq!(effect_keys(&out), WORKED_EXAMPLE_KEYS[..3], "m1's effects, applied before m3 faulted");
    assert_eq!(requests.try_iter().count(), 2 + TRIES as usize);

    let (url, requests) = serve(vec![recorded("m3")]);
    let out = run("anthropic", &url, &work);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(effect_keys(&out), WORKED_EXAMPLE_KEYS[3..], "only m3's effects are new");
    let asked: Vec<(String, serde_json::Value)> = requests.try_iter().collect();
    assert_eq!(asked.len(), 1, "m1 and m2 answered from the journal");
    assert_eq!(asked[0].1["messages"][0]["content"], "I'm furious, this keeps breaking and we are cancelling our plan");
    std::fs::remove_dir_all(&work).unwrap();
}
