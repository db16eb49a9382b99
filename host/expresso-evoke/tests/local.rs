//! A closed leaf answered by evoke's `local` engine, offline, end to end: planned as closed questions,
//! answered, validated, journaled, and replayed from the journal without the engine.

use expresso_evoke::{Evoke, Unanswerable, plan};
use expresso_lang::compile;
use expresso_lang::schema::Schema;
use expresso_runtime::provider::NoProvider;
use expresso_runtime::{Event, LeafRequest, MemoryStore, Provider, RequestKind, Runtime, Store};
use serde_json::{Value, json};

const DESK: &str = r#"
leaf triage(s: Span) -> { kind: enum(bug, question, billing), tickets: number?, urgent: bool }
agent "Desk" {
  grants { ai.triage, tasks.create, message.send }
  lives in channel #support
  on message {
    let t = triage(.message)
    if t.kind == bug { create_task "Bug from {.speaker}" }
    if t.kind == billing { reply "Billing will write to you." }
  }
}
"#;

fn message(id: &str, t: u64, text: &str) -> Event {
    serde_json::from_value(json!({
        "id": id, "partition": {"workspace": "acme", "room": "#support"}, "type": "message",
        "payload": {"speaker": "dana", "text": text}, "t_event": t
    }))
    .unwrap()
}

#[test]
fn a_closed_leaf_runs_offline_through_the_local_engine_and_replays_without_it() {
    let compiled = compile(DESK).unwrap();
    assert!(compiled.report.agents[0].leaves[0].closed);
    let evoke = Evoke::local();
    let log = vec![
        message("m1", 1_000, "found a bug: the export crashes on 3 tickets"),
        message("m2", 2_000, "my billing invoice charged me twice"),
    ];
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &evoke);
    rt.run(log.clone()).unwrap();
    let first = rt.into_outcome();
    assert_eq!(first.provider_calls, 2);
    let m1 = j.get("Desk#0|m1/Desk#0/0/triage").unwrap().clone();
    let m2 = j.get("Desk#0|m2/Desk#0/0/triage").unwrap().clone();
    eprintln!("m1 {m1}\nm2 {m2}");
    assert_eq!(m1["kind"], "bug");
    assert_eq!(m2["kind"], "billing");
    // A number is never minted: it is null or the span `3` of the text.
    assert!(m1["tickets"] == json!(3) || m1["tickets"].is_null(), "{m1}");
    assert!(m2["tickets"].is_null(), "{m2}");
    let keys: Vec<&str> = first.effects.iter().map(|e| e["idemKey"].as_str().unwrap()).collect();
    assert_eq!(keys, vec!["m1|Desk#0/1/create_task|tasks.create", "m2|Desk#0/2/reply|message.send"]);

    let mut fresh = MemoryStore::new();
    let mut replay = Runtime::new(&compiled, &mut j, &mut fresh, &NoProvider);
    replay.run(log).unwrap();
    let again = replay.into_outcome();
    assert_eq!(again.provider_calls, 0);
    assert_eq!(again.effects, first.effects);
}

fn request<'a>(schema: &'a Schema, kind: RequestKind, input: &'a str) -> LeafRequest<'a> {
    LeafRequest { key: "k", leaf: "l", kind, schema, prompt: None, input, t_event: 0 }
}

#[test]
fn open_leaves_are_refused_with_the_reason() {
    let program = compile(
        "leaf l(s: Span) -> list<text>\nleaf d(s: Span) -> date\nagent \"A\" { grants { ai.l, ai.d } on message { let x = l(.text) let y = d(.text) } }",
    )
    .unwrap();
    let list = &program.program.leaves[0].schema;
    let refused = plan(&request(list, RequestKind::Leaf, "a b")).unwrap_err();
    assert_eq!(refused, Unanswerable::List { what: "l".into() });
    assert_eq!(refused.to_string(), "`l` is a list, which needs a generative provider (openai)");
    let date = &program.program.leaves[1].schema;
    let refused = plan(&request(date, RequestKind::Leaf, "no date here")).unwrap_err();
    assert_eq!(refused, Unanswerable::NoSpan { kind: "date", what: "l".into() });
    assert_eq!(refused.to_string(), "the text holds no date for `l`, and a closed engine cannot make one up");
    let text = Schema::Scalar(expresso_lang::schema::Scalar {
        kind: expresso_lang::schema::Kind::Text,
        optional: false,
        span: Default::default(),
    });
    let refused = plan(&request(&text, RequestKind::Summarize, "x")).unwrap_err();
    assert_eq!(refused, Unanswerable::Summarize);
    assert!(refused.to_string().contains("generative provider"));
    // A date is the span's reading, resolved against the event's time: 1970-01-01 plus one day.
    let evoke = Evoke::local();
    assert_eq!(evoke.answer(&request(date, RequestKind::Leaf, "due tomorrow")), Ok(Value::String("1970-01-02".into())));
}

#[test]
fn a_fuzzy_trigger_is_a_yes_no_of_the_local_engine_journaled_either_way() {
    let source = "agent \"Billing\" {\n  grants { ai.match, message.send }\n  on message ~\"billing invoice charge\" { reply \"Billing will write to you.\" }\n}\n";
    let compiled = compile(source).unwrap();
    let evoke = Evoke::local();
    let log = vec![message("m1", 1_000, "my billing invoice charged me twice"), message("m2", 2_000, "hello there")];
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &evoke);
    rt.run(log.clone()).unwrap();
    let first = rt.into_outcome();
    let keys: Vec<&str> = j.entries().iter().map(|(k, _)| *k).collect();
    assert_eq!(keys, vec!["Billing#0|m1/Billing#0/trigger", "Billing#0|m2/Billing#0/trigger"]);
    assert!(j.entries().iter().all(|(_, v)| v.is_boolean()));
    let mut fresh = MemoryStore::new();
    let mut replay = Runtime::new(&compiled, &mut j, &mut fresh, &NoProvider);
    replay.run(log).unwrap();
    let again = replay.into_outcome();
    assert_eq!((again.provider_calls, &again.effects), (0, &first.effects));
}
