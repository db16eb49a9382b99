//! A duration inside a string prints as a duration, in the shortest exact unit form, not as the
//! milliseconds it is held in.

mod support;

use expresso_lang::compile;
use expresso_runtime::provider::NoProvider;
use expresso_runtime::{MemoryStore, Runtime};
use support::message;

#[test]
fn a_duration_in_a_string_prints_in_its_shortest_exact_unit() {
    let source = r#"
agent "Clock" {
  grants { message.send }
  memory wait = 90s
  memory count = 300000
  on message {
    let d = 2h
    say "{5m} {300000ms} {wait} {d} {1.5h} {1500ms} {0s} {14d} {(1d)}"
    say "{count} {300000}"
  }
}
"#;
    let compiled = compile(source).unwrap();
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &NoProvider);
    rt.run(vec![message("m1", 1000, "dana", "hi")]).unwrap();
    let said: Vec<&str> = rt.outcome().effects.iter().map(|e| e["args"]["text"].as_str().unwrap()).collect();
    // Numbers stay numbers: only what the checker types a duration prints as one.
    assert_eq!(said, vec!["5m 5m 90s 2h 90m 1500ms 0s 2w 1d", "300000 300000"]);
}

#[test]
fn a_duration_appended_to_a_text_memory_is_written_as_a_duration() {
    let source = r#"
agent "Log" {
  grants { message.send }
  memory log = "waited "
  memory total = 0
  on message {
    remember log += 90s
    remember total += 90s
    say "{log} {total}"
  }
}
"#;
    let compiled = compile(source).unwrap();
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    let mut rt = Runtime::new(&compiled, &mut j, &mut w, &NoProvider);
    rt.run(vec![message("m1", 1000, "dana", "hi")]).unwrap();
    let said: Vec<&str> = rt.outcome().effects.iter().map(|e| e["args"]["text"].as_str().unwrap()).collect();
    // The text memory holds the duration as text; the number memory adds milliseconds and stays a number.
    assert_eq!(said, vec!["waited 90s 90000"]);
}
