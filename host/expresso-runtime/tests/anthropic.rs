//! Anthropic's Messages API provider against a fake endpoint on 127.0.0.1 that answers with recorded
//! Messages API responses (`tests/recorded/anthropic`): the worked example's three events answered through
//! a forced tool call, the request's shape, every odd answer failing closed, and which faults may pass.

mod endpoint;
mod support;

use endpoint::{header, serve};
use expresso_lang::compile;
use expresso_runtime::anthropic::Anthropic;
use expresso_runtime::retry::Retrying;
use expresso_runtime::{Error, MemoryStore, Provider, Runtime, Store, read_log};
use serde_json::{Value, json};
use support::{TRIAGE, message};

fn recorded(name: &str) -> String {
    let path = format!("{}/tests/recorded/anthropic/{name}.json", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).unwrap()
}

fn worked_example_events() -> Vec<expresso_runtime::Event> {
    let path = format!("{}/../../transcripts/expresso-triage/events.jsonl", env!("CARGO_MANIFEST_DIR"));
    read_log(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A Messages API answer that calls the tool with `input`, stopping as `stop_reason` says.
fn tool_answer(input: Value, stop_reason: &str) -> String {
    json!({
        "id": "msg_test", "type": "message", "role": "assistant", "model": "claude-haiku-4-5",
        "content": [{ "type": "tool_use", "id": "toolu_test", "name": "answer", "input": input }],
        "stop_reason": stop_reason, "stop_sequence": null, "usage": { "input_tokens": 1, "output_tokens": 1 }
    })
    .to_string()
}

#[test]
fn the_worked_example_is_answered_through_a_forced_tool_call() {
    let replies = ["m1", "m2", "m3"].iter().map(|m| (200, recorded(m))).collect();
    let (url, requests) = serve(replies);
    let provider = Anthropic::new(&url, "claude-test", Some("sk-ant-test".into()));
    let compiled = compile(TRIAGE).unwrap();
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &provider);
    rt.run(worked_example_events()).unwrap();
    let outcome = rt.into_outcome();
    assert_eq!((outcome.provider_calls, outcome.new_effects), (3, 5));
    // The journal holds the three answers of the worked example, the world table its five effects.
    assert_eq!(j.get("Triage#0|m1/Triage#0/0/classify"), Some(&json!({"kind": "bug", "urgency": "now"})));
    assert_eq!(j.get("Triage#0|m2/Triage#0/0/classify"), Some(&json!({"kind": "question", "urgency": "low"})));
    assert_eq!(j.get("Triage#0|m3/Triage#0/0/classify"), Some(&json!({"kind": "churn", "urgency": "now"})));
    let keys: Vec<&str> = w.entries().into_iter().map(|(k, _)| k).collect();
    assert_eq!(
        keys,
        [
            "m1|Triage#0/1/react|react.add",
            "m1|Triage#0/2/create_task|tasks.create",
            "m1|Triage#0/3/reply|message.send",
            "m3|Triage#0/4/notify|notify.send",
            "m3|Triage#0/5/reply|message.send",
        ]
    );

    let texts = [
        "Checkout returns a 500 every time I pay #bug",
        "where do I change my avatar?",
        "I'm furious, this keeps breaking and we are cancelling our plan",
    ];
    for text in texts {
        let (head, body) = requests.recv().unwrap();
        assert!(head.starts_with("POST /v1/messages HTTP/1.1\r\n"), "{head}");
        assert_eq!(header(&head, "x-api-key"), Some("sk-ant-test"));
        assert_eq!(header(&head, "anthropic-version"), Some("2023-06-01"));
        assert_eq!(header(&head, "content-type"), Some("application/json"));
        assert_eq!(header(&head, "authorization"), None, "the key goes in x-api-key only");
        assert_eq!(body["model"], "claude-test");
        assert_eq!(body["max_tokens"], 8192);
        assert_eq!(body["temperature"], 0);
        assert_eq!(body["messages"], json!([{ "role": "user", "content": text }]));
        assert!(body["system"].as_str().unwrap().contains("`classify`"), "{}", body["system"]);
        assert_eq!(body["tool_choice"], json!({ "type": "tool", "name": "answer" }));
        let tools = body["tools"].as_array().unwrap();
        assert_eq!(tools.len(), 1);
        assert_eq!(tools[0]["name"], "answer");
        assert_eq!(
            tools[0]["input_schema"],
            json!({
                "type": "object",
                "properties": { "value": {
                    "type": "object",
                    "properties": {
                        "kind": { "type": "string", "enum": ["bug", "question", "churn"] },
                        "urgency": { "type": "string", "enum": ["low", "soon", "now"] }
                    },
                    "required": ["kind", "urgency"],
                    "additionalProperties": false
                } },
                "required": ["value"],
                "additionalProperties": false
            })
        );
    }
}

#[test]
fn replay_of_the_worked_example_asks_the_endpoint_nothing() {
    let replies = ["m1", "m2", "m3"].iter().map(|m| (200, recorded(m))).collect();
    let (url, requests) = serve(replies);
    let provider = Anthropic::new(&url, "m", Some("k".into()));
    let compiled = compile(TRIAGE).unwrap();
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    Runtime::new(&compiled, &mut j, &mut w, &provider).run(worked_example_events()).unwrap();
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &provider);
    rt.run(worked_example_events()).unwrap();
    let outcome = rt.into_outcome();
    assert_eq!((outcome.provider_calls, outcome.new_effects), (0, 0));
    assert_eq!(requests.try_iter().count(), 3, "three calls in all, none on replay");
}

#[test]
fn every_odd_answer_fails_closed_and_nothing_is_journaled() {
    let text_only = json!({
        "id": "msg_t", "type": "message", "role": "assistant", "model": "m",
        "content": [{ "type": "text", "text": "{\"value\": {\"kind\": \"bug\", \"urgency\": \"now\"}}" }],
        "stop_reason": "end_turn", "stop_sequence": null
    });
    let two_calls = {
        let mut v: Value = serde_json::from_str(&recorded("m1")).unwrap();
        let call = v["content"][0].clone();
        v["content"].as_array_mut().unwrap().push(call);
        v
    };
    let other_tool = {
        let mut v: Value = serde_json::from_str(&recorded("m1")).unwrap();
        v["content"][0]["name"] = json!("classify");
        v
    };
    let cases: Vec<(String, &str)> = vec![
        (text_only.to_string(), "the model stopped for `end_turn`, not to call the tool"),
        (tool_answer(json!({"value": {"kind": "bug"}}), "max_tokens"), "the answer was cut at max_tokens (8192)"),
        (tool_answer(json!({"value": {"kind": "bug", "urgency": "now"}}), "refusal"), "the model refused"),
        (two_calls.to_string(), "the answer calls a tool more than once"),
        (other_tool.to_string(), "the answer calls `classify`, not `answer`"),
        (tool_answer(json!({"kind": "bug", "urgency": "now"}), "tool_use"), "the tool call's input has no `value`"),
        (
            tool_answer(json!({"value": {"kind": "bug", "urgency": "now"}, "note": "x"}), "tool_use"),
            "the tool call's input has fields other than `value`",
        ),
        (recorded("overloaded"), "the answer is not an assistant message"),
        ("[]".into(), "the answer is not an assistant message"),
        ("not json".into(), "the answer is not JSON"),
        (
            tool_answer(json!({"value": {"kind": "bug", "urgency": "now"}}), "tool_use")
                .replace("\"content\"", "\"contents\""),
            "the answer has no content list",
        ),
    ];
    let (url, _requests) = serve(cases.iter().map(|(body, _)| (200, body.clone())).collect());
    let provider = Anthropic::new(&url, "m", None);
    let compiled = compile(TRIAGE).unwrap();
    for (_, expected) in &cases {
        let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
        let mut rt = Runtime::new(&compiled, &mut j, &mut w, &provider);
        match rt.run(vec![message("m1", 1, "dana", "checkout 500 #bug")]) {
            Err(Error::Provider { key, message }) => {
                assert_eq!(key, "Triage#0|m1/Triage#0/0/classify");
                assert!(message.starts_with(expected), "{message} (expected {expected})");
            }
            other => panic!("expected a provider fault for `{expected}`, got {other:?}"),
        }
        assert!(j.is_empty() && w.is_empty(), "nothing journaled or applied for `{expected}`");
    }
}

#[test]
fn an_answer_out_of_the_leafs_type_is_a_misfit_and_not_journaled() {
    let (url, _requests) =
        serve(vec![(200, tool_answer(json!({"value": {"kind": "feature", "urgency": "now"}}), "tool_use"))]);
    let provider = Anthropic::new(&url, "m", None);
    let compiled = compile(TRIAGE).unwrap();
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &provider);
    let err = rt.run(vec![message("m1", 1, "dana", "x")]).unwrap_err();
    assert!(matches!(err, Error::Misfit { .. }), "{err}");
    assert!(j.is_empty() && w.is_empty());
}

#[test]
fn an_empty_span_is_sent_as_a_placeholder_the_api_accepts() {
    let (url, requests) = serve(vec![(200, recorded("m2"))]);
    let provider = Anthropic::new(&url, "m", None);
    let compiled = compile(TRIAGE).unwrap();
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    Runtime::new(&compiled, &mut j, &mut w, &provider).run(vec![message("m1", 1, "dana", "")]).unwrap();
    let (_, body) = requests.recv().unwrap();
    assert_eq!(body["messages"][0]["content"], "(no text)");
}

/// Which faults may pass if asked again: 429 and 5xx (Anthropic's 529 `overloaded_error` among them) and an
/// endpoint that cannot be reached; not a 4xx, a redirect, or a body that is not JSON.
#[test]
fn faults_say_whether_asking_again_may_help() {
    let cases = [
        (429, "{}".to_string(), true, "the endpoint answered HTTP 429"),
        (529, recorded("overloaded"), true, "the endpoint answered HTTP 529: Overloaded"),
        (500, "{}".to_string(), true, "the endpoint answered HTTP 500"),
        (
            400,
            recorded("invalid_request"),
            false,
            "the endpoint answered HTTP 400: tools.0.input_schema: JSON schema is invalid",
        ),
        (401, "{}".to_string(), false, "the endpoint answered HTTP 401"),
        (301, "{}".to_string(), false, "the endpoint answered HTTP 301, not 200"),
        (200, "<html>".to_string(), false, "the answer is not JSON"),
    ];
    let (url, _requests) = serve(cases.iter().map(|(status, body, ..)| (*status, body.clone())).collect());
    let provider = Anthropic::new(&url, "m", None);
    let schema = expresso_lang::schema::Schema::Scalar(expresso_lang::schema::Scalar {
        kind: expresso_lang::schema::Kind::Bool,
        optional: false,
        span: expresso_lang::span::Span::default(),
    });
    let request = expresso_runtime::LeafRequest {
        key: "k",
        leaf: "match",
        kind: expresso_runtime::RequestKind::Match,
        schema: &schema,
        prompt: Some("angry"),
        input: "hello",
        t_event: 0,
    };
    for (status, _, transient, expected) in cases {
        let fault = provider.try_answer(&request).unwrap_err();
        assert_eq!(fault.transient, transient, "HTTP {status}: {}", fault.message);
        assert!(fault.message.starts_with(expected), "{} (expected {expected})", fault.message);
    }
    // An endpoint that takes the request and hangs up without an answer: that may pass.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let hangs_up = Anthropic::new(&format!("http://{}", listener.local_addr().unwrap()), "m", None);
    std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        endpoint::read_request(&mut std::io::BufReader::new(stream));
    });
    let fault = hangs_up.try_answer(&request).unwrap_err();
    assert!(fault.transient && fault.message.starts_with("the endpoint cannot be reached"), "{fault:?}");
    // An answer cut off in its body: that may pass too.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let cut = Anthropic::new(&format!("http://{}", listener.local_addr().unwrap()), "m", None);
    std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut reader = std::io::BufReader::new(stream);
        endpoint::read_request(&mut reader);
        let mut stream = reader.into_inner();
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"type\":";
        let _ = std::io::Write::write_all(&mut stream, head.as_bytes());
    });
    let fault = cut.try_answer(&request).unwrap_err();
    assert!(fault.transient && fault.message.starts_with("the answer cannot be read"), "{fault:?}");
    // Nothing listens on a port just freed: the connection is refused, which may pass.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let gone = Anthropic::new(&format!("http://127.0.0.1:{port}"), "m", None);
    let fault = gone.try_answer(&request).unwrap_err();
    assert!(fault.transient && fault.message.starts_with("the endpoint cannot be reached"), "{fault:?}");
}

#[test]
fn retrying_asks_again_after_a_transient_fault_but_not_after_a_lasting_one() {
    let (url, requests) = serve(vec![(529, recorded("overloaded")), (429, "{}".into()), (200, recorded("m1"))]);
    let provider = Retrying::new(Anthropic::new(&url, "m", None));
    let compiled = compile(TRIAGE).unwrap();
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &provider);
    rt.run(vec![message("m1", 1, "dana", "checkout 500 #bug")]).unwrap();
    assert_eq!(rt.into_outcome().new_effects, 3);
    assert_eq!(requests.try_iter().count(), 3);

    let (url, requests) = serve(vec![(400, recorded("invalid_request")), (200, recorded("m1"))]);
    let provider = Retrying::new(Anthropic::new(&url, "m", None));
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &provider);
    let err = rt.run(vec![message("m1", 1, "dana", "checkout 500 #bug")]).unwrap_err();
    assert!(err.to_string().contains("HTTP 400"), "{err}");
    assert_eq!(requests.try_iter().count(), 1, "a 400 is not asked again");
    assert!(w.is_empty());
}
