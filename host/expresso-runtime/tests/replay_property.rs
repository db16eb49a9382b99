//! The property behind T2 and T3: for random logs, a replay with the journal gives the same effects and
//! makes no provider call; a replay with the journal and the world table applies nothing. The programs are
//! the worked example, a fixed one with loops, and random ones built from statement templates.

mod support;

use expresso_lang::compile;
use expresso_runtime::provider::NoProvider;
use expresso_runtime::{Event, MemoryStore, Runtime};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::json;
use support::{Oracle, TRIAGE};

const SCRIBE: &str = r#"
leaf ai.extract(s: Span) -> list<{ title: text, done: bool }>
agent "Scribe" {
  grants { tasks.create, message.send, ai.extract, ai.match, ai.summarize }
  memory seen = 0
  on message /todo|fix/ {
    let items = ai.extract(.text)
    for item in items {
      if item.done == false { create_task item.title }
    }
    remember seen += 1
  }
  on message ~"sounds urgent" { reply "On it ({seen})." }
  on message /recap/ { say summarize(recent) }
}
"#;

fn event(id: u8, t: u64, rev: u8, room: u8, text: u8) -> Event {
    const TEXTS: [&str; 6] =
        ["todo: ship it", "fix the build", "recap please", "hello", "#bug on checkout", "cancel plan"];
    serde_json::from_value(json!({
        "id": format!("e{id}"), "partition": {"workspace": "w", "room": if room == 0 { "#support" } else { "#general" }},
        "type": "message", "payload": {"speaker": "p", "text": TEXTS[text as usize % TEXTS.len()]},
        "t_event": t, "rev": rev
    }))
    .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn replay_with_the_journal_is_the_same_run_without_a_provider(
        raw in proptest::collection::vec((0u8..12, 0u64..50, 0u8..2, 0u8..2, 0u8..6), 0..30),
        which in 0usize..2,
    ) {
        let source = [TRIAGE, SCRIBE][which];
        let compiled = compile(source).unwrap();
        let log: Vec<Event> = raw.iter().map(|(id, t, rev, room, text)| event(*id, *t, *rev, *room, *text)).collect();
        let oracle = Oracle::default();
        let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
        let mut first = Runtime::new(&compiled, &mut j, &mut w, &oracle);
        first.run(log.clone()).unwrap();
        let first = first.into_outcome();
        prop_assert_eq!(first.provider_calls, oracle.calls.get());

        let mut fresh_world = MemoryStore::new();
        let mut replay = Runtime::new(&compiled, &mut j, &mut fresh_world, &NoProvider);
        replay.run(log.clone()).unwrap();
        let replay = replay.into_outcome();
        prop_assert_eq!(replay.provider_calls, 0);
        prop_assert_eq!(&replay.effects, &first.effects);

        let (j_before, w_before) = (j.clone(), w.clone());
        let mut again = Runtime::new(&compiled, &mut j, &mut w, &NoProvider);
        again.run(log).unwrap();
        let again = again.into_outcome();
        prop_assert_eq!((again.provider_calls, again.new_effects), (0, 0));
        prop_assert_eq!((j, w), (j_before, w_before));
    }
}

/// Statement templates a random program is built from; `{i}` names its own variable.
const PIECES: [&str; 6] = [
    "let v{i} = ai.kind(.text)\n    if v{i} == a { reply \"A {n}\" } else { say \"B\" }",
    "for it in ai.items(.text) { create_task it\n      for sub in ai.items(it) { notify \"x\" sub } }",
    "remember n += 1",
    "say \"{n} {.speaker}\"",
    "say summarize(recent)",
    "if .text contains \"fix\" and ai.kind(.text) == b { create_task \"fix {n}\" }",
];
const TRIGGERS: [&str; 3] = ["on message", "on message /todo|fix/", "on message ~\"sounds urgent\""];

fn program(behaviors: &[(usize, Vec<usize>)]) -> String {
    let mut source = String::from(
        "leaf ai.kind(s: Span) -> enum(a, b)\nleaf ai.items(s: Span) -> list<text>\nagent \"Any\" {\n  grants { tasks.create, message.send, notify.send, ai.kind, ai.items, ai.match, ai.summarize }\n  memory n = 0\n",
    );
    for (trigger, pieces) in behaviors {
        source.push_str(&format!("  {} {{\n", TRIGGERS[*trigger]));
        for (i, piece) in pieces.iter().enumerate() {
            source.push_str(&format!("    {}\n", PIECES[*piece].replace("{i}", &i.to_string())));
        }
        source.push_str("  }\n");
    }
    source.push_str("}\n");
    source
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn any_program_replays_with_the_journal_without_a_provider(
        behaviors in proptest::collection::vec((0usize..3, proptest::collection::vec(0usize..6, 1..5)), 1..4),
        raw in proptest::collection::vec((0u8..10, 0u64..40, 0u8..2, 0u8..2, 0u8..6), 0..25),
    ) {
        let source = program(&behaviors);
        let compiled = match compile(&source) {
            Ok(c) => c,
            Err(d) => return Err(TestCaseError::fail(format!("{source}\n{:?}", d[0].message))),
        };
        let log: Vec<Event> = raw.iter().map(|(id, t, rev, room, text)| event(*id, *t, *rev, *room, *text)).collect();
        let oracle = Oracle::default();
        let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
        let mut first = Runtime::new(&compiled, &mut j, &mut w, &oracle);
        first.run(log.clone()).unwrap();
        let first = first.into_outcome();

        let mut fresh_world = MemoryStore::new();
        let mut replay = Runtime::new(&compiled, &mut j, &mut fresh_world, &NoProvider);
        replay.run(log.clone()).unwrap();
        let replay = replay.into_outcome();
        prop_assert_eq!(replay.provider_calls, 0);
        prop_assert_eq!(&replay.effects, &first.effects);
        prop_assert_eq!(&fresh_world, &w);

        let (j_before, w_before) = (j.clone(), w.clone());
        let mut again = Runtime::new(&compiled, &mut j, &mut w, &NoProvider);
        again.run(log).unwrap();
        prop_assert_eq!(again.into_outcome().new_effects, 0);
        prop_assert_eq!((j, w), (j_before, w_before));
    }
}
