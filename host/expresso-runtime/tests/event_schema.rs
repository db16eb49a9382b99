//! `schemas/expresso-event.schema.json` agrees with the event reader: every event line the repository
//! ships passes both, and every line the reader refuses (on its own) fails the schema too.

use expresso_runtime::read_log;
use serde_json::Value;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("schemas/expresso-event.schema.json")).unwrap();
    jsonschema::draft202012::new(&serde_json::from_str::<Value>(&text).unwrap()).unwrap()
}

/// Every event line of the transcripts, the examples and the vectors.
fn shipped() -> Vec<String> {
    let mut lines = Vec::new();
    for dir in ["transcripts/expresso-triage", "transcripts/expresso-bad-input", "docs/examples/expresso"] {
        for entry in std::fs::read_dir(root().join(dir)).unwrap().flatten() {
            if entry.path().extension().is_some_and(|e| e == "jsonl") && !entry.path().ends_with("bad-events.jsonl") {
                lines.extend(std::fs::read_to_string(entry.path()).unwrap().lines().map(str::to_string));
            }
        }
    }
    for folder in ["expresso-keys", "expresso-route"] {
        for entry in std::fs::read_dir(root().join("vectors").join(folder)).unwrap().flatten() {
            let case: Value = serde_json::from_str(&std::fs::read_to_string(entry.path()).unwrap()).unwrap();
            let input = &case["input"];
            let events = input["events"].as_array().cloned().unwrap_or_else(|| vec![input["event"].clone()]);
            lines.extend(events.iter().map(Value::to_string));
        }
    }
    lines
}

#[test]
fn shipped_events_pass_the_schema_and_the_reader() {
    let validator = validator();
    let lines = shipped();
    assert!(lines.len() >= 30, "only {} event lines found", lines.len());
    for line in &lines {
        let value: Value = serde_json::from_str(line).unwrap();
        assert!(validator.is_valid(&value), "the schema refuses {line}");
        assert!(read_log(line).is_ok(), "the reader refuses {line}");
    }
}

#[test]
fn a_partition_by_channel_passes_the_schema_and_the_reader() {
    let validator = validator();
    let line = r##"{"id":"c1","partition":{"workspace":"a","channel":"#support"},"type":"message","payload":{"speaker":"lee","text":"hi"},"t_event":2}"##;
    assert!(validator.is_valid(&serde_json::from_str::<Value>(line).unwrap()), "the schema refuses {line}");
    assert!(read_log(line).is_ok(), "the reader refuses {line}");
}

#[test]
fn what_the_reader_refuses_the_schema_refuses() {
    let validator = validator();
    let refused = [
        r#"{"id":"m2","partition":{"workspace":"a","room":"r"},"type":"message","payload":{"speaker":"lee"},"t_event":2}"#,
        r#"{"id":"m4","partition":{"workspace":"a","room":"r"},"type":"shout","payload":{},"t_event":4}"#,
        r#"{"id":"a","partition":{"workspace":"w","room":"r"},"type":"message","payload":{"speaker":"s","text":"t"},"t_event":1,"when":"now"}"#,
        r#"{"id":"","partition":{"workspace":"w","room":"r"},"type":"meeting_end","t_event":1}"#,
        r#"{"id":"a\r\nX: 1","partition":{"workspace":"w","room":"r"},"type":"meeting_end","t_event":1}"#,
        r#"{"id":"caf\u00e9","partition":{"workspace":"w","room":"r"},"type":"meeting_end","t_event":1}"#,
        r#"{"id":"m1 ","partition":{"workspace":"w","room":"r"},"type":"meeting_end","t_event":1}"#,
        r#"{"id":"s","partition":{"workspace":"w","room":"r"},"type":"silence","payload":{"millis":1.5},"t_event":1}"#,
        r#"{"id":"s","partition":{"workspace":"w","room":"r"},"type":"schedule","t_event":1}"#,
        r#"{"id":"s","partition":{"workspace":"w"},"type":"meeting_end","t_event":1}"#,
        r#"{"id":"s","partition":{"workspace":"w","room":"r","channel":"c"},"type":"meeting_end","t_event":1}"#,
        r#"{"id":"s","partition":{"workspace":"w","room":"r"},"type":"meeting_end","t_event":-1}"#,
        r#"{"id":"s","partition":{"workspace":"w","room":"r"},"type":"meeting_start","payload":{"title":"t"},"t_event":1}"#,
    ];
    for line in refused {
        assert!(read_log(line).is_err(), "the reader takes {line}");
        assert!(!validator.is_valid(&serde_json::from_str::<Value>(line).unwrap()), "the schema takes {line}");
    }
}
