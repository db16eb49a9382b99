//! On the durable host (SQLite), firings whose agent names and event ids hold the key separators each
//! apply their own effect: the host keys W and its deliveries by the runtime's injective keys.

mod common;

use common::*;
use expresso_runtime::read_log;

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
fn separators_in_names_and_ids_lose_no_effect_on_sqlite() {
    let dir = temp_dir("injective-keys");
    let program = dir.join("two.ex");
    std::fs::write(&program, TWO).unwrap();
    std::fs::write(
        dir.join("sinks.toml"),
        "[sinks.log]\nkind = \"file\"\npath = \"out.jsonl\"\n[capabilities]\n\"message.send\" = \"log\"\n",
    )
    .unwrap();
    let args = expresso_host::cli::HostArgs {
        program,
        state: Some(dir.join("state")),
        sinks: dir.join("sinks.toml"),
        provider: "none".into(),
        batch: 16,
    };
    // Before keys were escaped, "Z|Y" on e1 and "Y" on e1|Z both keyed e1|Z|Y#0/0/reply|message.send.
    let events = read_log(&[event("e1", 1, "hi"), event("e1|Z", 2, "hi")].join("\n")).unwrap();
    let mut host = expresso_host::cli::open(&args).unwrap();
    host.db_mut().append(&events).unwrap();
    assert_eq!(host.drain(1_000).unwrap(), 0);
    assert_eq!(host.db().counts().unwrap().done, 4);
    let keys = file_keys(&dir.join("out.jsonl"));
    assert_eq!(keys.len(), 4, "{keys:?}");
    assert_eq!(dedup_sorted(keys.clone()).len(), 4, "{keys:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
