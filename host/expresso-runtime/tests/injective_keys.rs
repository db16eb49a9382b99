//! Keys are injective: two different firings or effects never share a key, whatever characters an agent
//! name or an event id holds, so no effect is ever dropped as a duplicate of another.

mod support;

use expresso_lang::compile;
use expresso_runtime::provider::NoProvider;
use expresso_runtime::{MemoryStore, Runtime, Store};
use support::message;

// Two agents whose names differ only by a `|`: without escaping, agent "Z|Y" on `e1` and agent "Y" on
// `e1|Z` both made the key `e1|Z|Y#0/0/reply|message.send`.
const TWO: &str = r#"
agent "Z|Y" {
  grants { message.send }
  on message { reply "from Z|Y" }
}
agent "Y" {
  grants { message.send }
  on message { reply "from Y" }
}
"#;

#[test]
fn names_and_ids_holding_separators_never_share_an_idempotency_key() {
    let compiled = compile(TWO).unwrap();
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &NoProvider);
    rt.run(vec![message("e1", 1000, "dana", "hi"), message("e1|Z", 2000, "dana", "hi")]).unwrap();
    let outcome = rt.into_outcome();
    assert_eq!(outcome.firings, 4);
    assert_eq!((outcome.new_effects, outcome.deduped_effects), (4, 0), "every firing applies its own reply");
    let mut keys: Vec<&str> = outcome.effects.iter().map(|e| e["idemKey"].as_str().unwrap()).collect();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), 4, "{keys:?}");
    assert_eq!(w.len(), 4);
}

#[test]
fn only_separators_are_escaped_so_plain_names_and_ids_keep_their_keys() {
    let compiled = compile(TWO).unwrap();
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &NoProvider);
    rt.run(vec![message("transcript:m-1.2", 1000, "dana", "hi")]).unwrap();
    let outcome = rt.into_outcome();
    let keys: Vec<&str> = outcome.effects.iter().map(|e| e["idemKey"].as_str().unwrap()).collect();
    // `:`, `.` and `-` are no separators where they stand, so an id like `transcript:m-1.2` is verbatim.
    assert_eq!(
        keys,
        vec!["transcript:m-1.2|Z%7CY#0/0/reply|message.send", "transcript:m-1.2|Y#0/0/reply|message.send"]
    );
}
