//! A file sink shared by several writers at once (each partition of a Postgres worker has its own sinks,
//! and workers on one machine may name one file): every line lands whole, once, none cut off by another
//! writer's check of its own write.

use expresso_host::sinks::{Delivered, FileSink, Sink};
use expresso_host::store::Intent;
use serde_json::{Value, json};

#[test]
fn writers_appending_to_one_file_sink_at_once_lose_no_line() {
    let dir = std::env::temp_dir().join(format!("expresso-host-file-shared-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("out.jsonl");
    let (writers, per_writer) = (6, 60);
    let threads: Vec<_> = (0..writers)
        .map(|w| {
            let path = path.clone();
            std::thread::spawn(move || {
                let mut sink = FileSink::new(path);
                for i in 0..per_writer {
                    let intent = Intent {
                        key: format!("w{w}-{i}|A#0/0/reply|message.send"),
                        capability: "message.send".into(),
                        receipt: json!({"text": "x".repeat(200)}),
                        attempts: 0,
                        started: false,
                    };
                    let results = sink.deliver(&[&intent]);
                    assert!(matches!(results[..], [Delivered::Done]), "a write failed: {results:?}");
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let text = std::fs::read_to_string(&path).unwrap();
    let mut keys: Vec<String> = text
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("a torn line ({e}): {l}"));
            v["idempotency_key"].as_str().unwrap().to_string()
        })
        .collect();
    keys.sort();
    let mut expected: Vec<String> =
        (0..writers).flat_map(|w| (0..per_writer).map(move |i| format!("w{w}-{i}|A#0/0/reply|message.send"))).collect();
    expected.sort();
    assert_eq!(keys, expected, "every line once");
    std::fs::remove_dir_all(&dir).unwrap();
}
