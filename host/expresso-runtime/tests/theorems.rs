//! Expresso's three guarantees, each as a test that can fail, and the properties behind them.

mod support;

use expresso_lang::schema::{Misfit, MisfitFault};
use expresso_lang::{Effect, compile};
use expresso_runtime::provider::NoProvider;
use expresso_runtime::recording::Recording;
use expresso_runtime::{Error, MemoryStore, Runtime, Step, Store};
use serde_json::{Value, json};
use support::{TRIAGE, message, utterance};

fn triage_recording() -> Recording {
    Recording::from_json(include_str!("../../../transcripts/expresso-triage/recording.json")).unwrap()
}

fn triage_log() -> Vec<expresso_runtime::Event> {
    vec![
        message("m1", 1000, "dana", "Checkout returns a 500 every time I pay #bug"),
        message("m2", 2000, "lee", "where do I change my avatar?"),
        message("m3", 3000, "sam", "I'm furious, this keeps breaking and we are cancelling our plan"),
    ]
}

fn effect_keys(outcome: &expresso_runtime::Outcome) -> Vec<String> {
    outcome.effects.iter().map(|e| e["idemKey"].as_str().unwrap().to_string()).collect()
}

#[test]
fn t1_a_pure_agent_is_a_function_of_the_log_alone() {
    let source = "agent \"Counter\" {\n  at most pure\n  memory n = 0\n  memory last = \"\"\n  on someone says /order (\\d+)/ {\n    remember n += 1\n    remember last = .match.1\n  }\n}\n";
    let compiled = compile(source).unwrap();
    assert_eq!(compiled.report.agents[0].effect, Effect::Pure);
    let log = vec![
        utterance("u1", 10, "standup", "ana", "order 12 please"),
        utterance("u2", 20, "standup", "bo", "no order here"),
        utterance("u3", 30, "standup", "ana", "and order 7"),
        utterance("u3", 30, "standup", "ana", "and order 7"),
    ];
    let mut states = Vec::new();
    for _ in 0..2 {
        let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
        let mut rt = Runtime::new(&compiled, &mut j, &mut w, &NoProvider);
        rt.run(log.clone()).unwrap();
        states.push(rt.state(0).unwrap().memory.clone());
        let outcome = rt.into_outcome();
        assert_eq!((outcome.provider_calls, outcome.new_effects), (0, 0));
        assert!(j.is_empty() && w.is_empty(), "a pure agent realizes nothing in J or W");
    }
    // Two matching utterances (u3 redelivered is skipped by dedup); the last capture is "7".
    assert_eq!(states[0].get("n"), Some(&json!(2)));
    assert_eq!(states[0].get("last"), Some(&json!("7")));
    assert_eq!(states[0], states[1]);
}

#[test]
fn t2_replay_with_the_journal_calls_no_provider_and_decides_the_same() {
    let compiled = compile(TRIAGE).unwrap();
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    let recording = triage_recording();
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &recording);
    rt.run(triage_log()).unwrap();
    let first = rt.into_outcome();
    assert_eq!(first.provider_calls, 3);
    // With the journal and a fresh world table, no provider is even configured, and the same effects follow.
    let mut fresh_world = MemoryStore::new();
    let mut replay = Runtime::new(&compiled, &mut j, &mut fresh_world, &NoProvider);
    replay.run(triage_log()).unwrap();
    let second = replay.into_outcome();
    assert_eq!(second.provider_calls, 0);
    assert_eq!(second.journal_hits, 3);
    assert_eq!(second.effects, first.effects);
    assert_eq!(fresh_world, w);
}

#[test]
fn t3_redelivery_applies_no_new_effect() {
    let compiled = compile(TRIAGE).unwrap();
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    let recording = triage_recording();
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &recording);
    rt.run(triage_log()).unwrap();
    let first = rt.into_outcome();
    assert_eq!(
        effect_keys(&first),
        vec![
            "m1|Triage#0/1/react|react.add",
            "m1|Triage#0/2/create_task|tasks.create",
            "m1|Triage#0/3/reply|message.send",
            "m3|Triage#0/4/notify|notify.send",
            "m3|Triage#0/5/reply|message.send",
        ]
    );
    let (j_before, w_before) = (j.clone(), w.clone());
    let mut again = Runtime::new(&compiled, &mut j, &mut w, &NoProvider);
    let mut log = triage_log();
    log.push(message("m1", 4000, "dana", "Checkout returns a 500 every time I pay #bug"));
    again.run(log).unwrap();
    let second = again.into_outcome();
    assert_eq!((second.provider_calls, second.new_effects, second.deduped_effects), (0, 0, 5));
    assert_eq!((j, w), (j_before, w_before), "replay writes nothing: bit-identical J and W");
}

#[test]
fn t3_a_run_stopped_by_a_fault_resumes_without_double_acting() {
    let compiled = compile(TRIAGE).unwrap();
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    // A recording that lacks m3's answer: the run stops there, failing closed.
    let partial = Recording::from_json(
        r#"{"Triage#0|m1/Triage#0/0/classify":{"kind":"bug","urgency":"now"},"Triage#0|m2/Triage#0/0/classify":{"kind":"question","urgency":"low"}}"#,
    )
    .unwrap();
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &partial);
    let err = rt.run(triage_log()).unwrap_err();
    assert!(matches!(&err, Error::Provider { key, .. } if key == "Triage#0|m3/Triage#0/0/classify"), "{err}");
    assert_eq!(w.len(), 3);
    let recording = triage_recording();
    let mut resumed = Runtime::new(&compiled, &mut j, &mut w, &recording);
    resumed.run(triage_log()).unwrap();
    let outcome = resumed.into_outcome();
    assert_eq!(outcome.provider_calls, 1);
    assert_eq!(effect_keys(&outcome), vec!["m3|Triage#0/4/notify|notify.send", "m3|Triage#0/5/reply|message.send"]);
    let tasks = w.entries().iter().filter(|(k, _)| k.ends_with("|tasks.create")).count();
    assert_eq!(tasks, 1, "exactly one task survives the stop");
}

const EXTRACT: &str = r#"
leaf ai.extract(s: Span) -> list<{ title: text, subtasks: list<text> }>
agent "Scribe" {
  grants { tasks.create, ai.extract }
  lives in meeting
  on someone says /todo/ {
    let items = ai.extract(.text)
    for item in items {
      create_task item.title
      for sub in item.subtasks { create_task sub }
    }
  }
}
"#;

#[test]
fn loop_index_chains_key_each_fanned_out_action() {
    let compiled = compile(EXTRACT).unwrap();
    let answers = json!({
        "Scribe#0|u1/Scribe#0/0/ai.extract": [
            { "title": "ship", "subtasks": [] },
            { "title": "test", "subtasks": ["unit", "e2e", "load"] }
        ]
    });
    let recording = Recording::new(answers.as_object().unwrap().clone());
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &recording);
    rt.run(vec![utterance("u1", 5, "standup", "ana", "todo: ship and test")]).unwrap();
    assert_eq!(
        effect_keys(&rt.into_outcome()),
        vec![
            "u1|Scribe#0/1:0/create_task|tasks.create",
            "u1|Scribe#0/1:1/create_task|tasks.create",
            "u1|Scribe#0/2:1.0/create_task|tasks.create",
            "u1|Scribe#0/2:1.1/create_task|tasks.create",
            "u1|Scribe#0/2:1.2/create_task|tasks.create",
        ]
    );
}

#[test]
fn a_for_over_a_list_past_the_bound_is_refused_before_it_starts() {
    let compiled = compile(EXTRACT).unwrap();
    let list = |n: usize| -> Value { (0..n).map(|i| json!({ "title": format!("t{i}"), "subtasks": [] })).collect() };
    // 257 items fit the leaf's answer (up to 1,000) and are journaled, but no `for` fans out over more than 256.
    let recording =
        Recording::new(json!({ "Scribe#0|u1/Scribe#0/0/ai.extract": list(257) }).as_object().unwrap().clone());
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &recording);
    let err = rt.run(vec![utterance("u1", 5, "standup", "ana", "todo")]).unwrap_err();
    assert_eq!(err, Error::ForBound { at: "Scribe#0|u1".into(), items: 257, bound: 256 });
    assert_eq!((j.len(), w.len()), (1, 0), "the answer is journaled, and no item's task applied");
    // 1,001 items do not fit the leaf at all: a misfit, not journaled.
    let recording =
        Recording::new(json!({ "Scribe#0|u1/Scribe#0/0/ai.extract": list(1001) }).as_object().unwrap().clone());
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &recording);
    let err = rt.run(vec![utterance("u1", 5, "standup", "ana", "todo")]).unwrap_err();
    assert!(matches!(err, Error::Misfit { .. }), "{err}");
    assert!(j.is_empty() && w.is_empty());
}

#[test]
fn a_misfit_answer_is_a_fault_and_nothing_runs_on_it() {
    let compiled = compile(TRIAGE).unwrap();
    let recording =
        Recording::from_json(r#"{"Triage#0|m1/Triage#0/0/classify":{"kind":"feature","urgency":"now"}}"#).unwrap();
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &recording);
    let err = rt.run(triage_log()).unwrap_err();
    let Error::Misfit { key, reason } = &err else { panic!("a misfit: {err}") };
    assert_eq!(key, "Triage#0|m1/Triage#0/0/classify");
    let cases = vec!["bug".to_string(), "question".into(), "churn".into()];
    assert_eq!(reason, &Misfit { at: "answer.kind".into(), fault: MisfitFault::NotACase(cases) });
    assert_eq!(reason.to_string(), "answer.kind is not one of bug, question, churn");
    assert!(j.is_empty() && w.is_empty());
}

#[test]
fn a_fuzzy_trigger_is_journaled_even_when_it_does_not_fire() {
    let source = "agent \"Calm\" {\n  grants { ai.match, message.send }\n  on someone says ~\"someone is upset\" { say \"breathe\" }\n}\n";
    let compiled = compile(source).unwrap();
    let recording =
        Recording::from_json(r#"{"Calm#0|u1/Calm#0/trigger": false, "Calm#0|u2/Calm#0/trigger": true}"#).unwrap();
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &recording);
    rt.run(vec![utterance("u1", 1, "r", "a", "fine"), utterance("u2", 2, "r", "b", "ugh!!")]).unwrap();
    let outcome = rt.into_outcome();
    assert_eq!(
        j.entries().iter().map(|(k, _)| *k).collect::<Vec<_>>(),
        vec!["Calm#0|u1/Calm#0/trigger", "Calm#0|u2/Calm#0/trigger"]
    );
    assert_eq!(effect_keys(&outcome), vec!["u2|Calm#0/0/say|message.send"]);
}

#[test]
fn time_comes_from_t_event_and_frames_are_bound_per_firing() {
    let source = "agent \"Echo\" {\n  grants { message.send }\n  lives in meeting #standup\n  on someone says /recap/ { say transcript }\n  on meeting starts { say \"{meeting.title} by {meeting.host}\" }\n}\n";
    let compiled = compile(source).unwrap();
    let start = serde_json::from_value(json!({
        "id": "s1", "partition": {"workspace": "acme", "room": "standup"}, "type": "meeting_start",
        "payload": {"title": "Daily", "host": "ana"}, "t_event": 0
    }))
    .unwrap();
    let log = vec![
        start,
        utterance("u1", 1000, "standup", "ana", "hello"),
        utterance("u2", 2000, "other", "bo", "recap elsewhere"),
        utterance("u3", 3000, "standup", "bo", "recap please"),
    ];
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &NoProvider);
    rt.run(log).unwrap();
    let texts: Vec<&str> = rt.outcome().effects.iter().map(|e| e["args"]["text"].as_str().unwrap()).collect();
    assert_eq!(texts, vec!["Daily by ana", "ana: hello\nbo: recap please"]);
}

#[test]
fn a_redelivered_event_is_in_a_later_transcript_once() {
    let source = "agent \"Echo\" {\n  grants { message.send }\n  lives in meeting #standup\n  on someone says /recap/ { say transcript }\n}\n";
    let compiled = compile(source).unwrap();
    let hello = utterance("u1", 1000, "standup", "ana", "hello");
    // `u1` delivered twice (same id, same rev), as serve's log would store it once.
    let log = vec![hello.clone(), hello, utterance("u2", 2000, "standup", "bo", "recap")];
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &NoProvider);
    rt.run(log).unwrap();
    let outcome = rt.into_outcome();
    let texts: Vec<&str> = outcome.effects.iter().map(|e| e["args"]["text"].as_str().unwrap()).collect();
    assert_eq!(texts, vec!["ana: hello\nbo: recap"]);
    assert_eq!((outcome.events, outcome.redelivered), (2, 1));
}

#[test]
fn every_step_is_recorded_in_order() {
    let compiled = compile(TRIAGE).unwrap();
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    let recording = triage_recording();
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &recording);
    rt.run(triage_log()[1..2].to_vec()).unwrap();
    assert_eq!(
        rt.outcome().steps,
        vec![Step::Leaf {
            event: "m2".into(),
            key: "Triage#0|m2/Triage#0/0/classify".into(),
            fresh: true,
            value: json!({"kind": "question", "urgency": "low"})
        }]
    );
}

#[test]
fn each_effect_is_dispatched_as_it_is_applied_and_a_failing_port_fails_closed() {
    let compiled = compile(TRIAGE).unwrap();
    let recording = triage_recording();
    let mut seen = Vec::new();
    let mut port = |receipt: &Value| {
        seen.push(receipt["idemKey"].as_str().unwrap().to_string());
        Ok(())
    };
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &recording);
    rt.dispatch_to(&mut port);
    rt.run(triage_log()).unwrap();
    drop(rt);
    assert_eq!(seen.len(), 5);
    assert_eq!(seen[0], "m1|Triage#0/1/react|react.add");

    let mut refuse = |_: &Value| Err("the port is down".to_string());
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &recording);
    rt.dispatch_to(&mut refuse);
    let err = rt.run(triage_log()).unwrap_err();
    assert_eq!(err, Error::Port { key: "m1|Triage#0/1/react|react.add".into(), message: "the port is down".into() });
    assert!(w.is_empty(), "an effect the port refused is not recorded as done");
}
