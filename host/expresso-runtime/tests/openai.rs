//! The OpenAI-compatible provider against a fake chat endpoint on 127.0.0.1: the request it sends, the
//! structured output it reads, and the faults when the answer misfits or the endpoint fails.

mod endpoint;
mod support;

use endpoint::serve;
use expresso_lang::compile;
use expresso_runtime::openai::OpenAi;
use expresso_runtime::{Error, MemoryStore, Runtime, Store};
use serde_json::{Value, json};
use support::{TRIAGE, message};

fn chat(value: Value) -> String {
    let content = json!({ "value": value }).to_string();
    json!({ "choices": [{ "message": { "role": "assistant", "content": content } }] }).to_string()
}

#[test]
fn a_leaf_is_asked_with_its_schema_and_the_answer_journaled() {
    let (url, requests) = serve(vec![(200, chat(json!({"kind": "bug", "urgency": "now"})))]);
    let provider = OpenAi::new(&format!("{url}/v1"), "test-model", Some("test-key".into()));
    let compiled = compile(TRIAGE).unwrap();
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &provider);
    rt.run(vec![message("m1", 1, "dana", "checkout 500 #bug")]).unwrap();
    assert_eq!(rt.into_outcome().new_effects, 3);
    assert_eq!(j.get("Triage#0|m1/Triage#0/0/classify"), Some(&json!({"kind": "bug", "urgency": "now"})));
    let (head, body) = requests.recv().unwrap();
    assert!(head.starts_with("POST /v1/chat/completions "), "{head}");
    assert!(head.to_ascii_lowercase().contains("authorization: bearer test-key"), "{head}");
    assert_eq!(body["model"], "test-model");
    assert_eq!(body["messages"][1]["content"], "checkout 500 #bug");
    let format = &body["response_format"];
    assert_eq!(format["type"], "json_schema");
    assert_eq!(format["json_schema"]["strict"], true);
    assert_eq!(
        format["json_schema"]["schema"]["properties"]["value"],
        json!({
            "type": "object",
            "properties": {
                "kind": { "type": "string", "enum": ["bug", "question", "churn"] },
                "urgency": { "type": "string", "enum": ["low", "soon", "now"] }
            },
            "required": ["kind", "urgency"],
            "additionalProperties": false
        })
    );
}

#[test]
fn a_misfit_from_the_model_is_a_fault_and_not_journaled() {
    let (url, _requests) = serve(vec![(200, chat(json!({"kind": "feature", "urgency": "now"})))]);
    let provider = OpenAi::new(&format!("{url}/v1"), "m", None);
    let compiled = compile(TRIAGE).unwrap();
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &provider);
    let err = rt.run(vec![message("m1", 1, "dana", "x")]).unwrap_err();
    assert!(matches!(err, Error::Misfit { .. }), "{err}");
    assert!(j.is_empty() && w.is_empty());
}

#[test]
fn an_endpoint_failure_fails_closed() {
    let (url, _requests) = serve(vec![(500, "{}".into()), (200, "not json".into())]);
    let provider = OpenAi::new(&format!("{url}/v1"), "m", None);
    let compiled = compile(TRIAGE).unwrap();
    for expected in ["the endpoint answered HTTP 500", "the answer is not JSON"] {
        let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
        let mut rt = Runtime::new(&compiled, &mut j, &mut w, &provider);
        match rt.run(vec![message("m1", 1, "dana", "x")]) {
            Err(Error::Provider { message, .. }) => assert!(message.starts_with(expected), "{message}"),
            other => panic!("expected a provider fault, got {other:?}"),
        }
        assert!(w.is_empty());
    }
}
