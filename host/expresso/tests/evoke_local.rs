//! With the `evoke` feature: the command runs a closed leaf through evoke's offline `local` engine, end to
//! end, and replays it from the journal without any provider.

#![cfg(feature = "evoke")]

use std::path::PathBuf;
use std::process::Command;

#[test]
fn the_desk_example_runs_offline_and_replays_without_a_provider() {
    let examples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/examples/expresso");
    let work = std::env::temp_dir().join(format!("expresso-evoke-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    let (journal, world) = (work.join("j.json"), work.join("w.json"));
    let run = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_expresso"))
            .args(["run", "desk.ex", "--events", "desk-events.jsonl", "--journal"])
            .arg(&journal)
            .arg("--world")
            .arg(&world)
            .args(extra)
            .current_dir(&examples)
            .env_remove("OPENAI_API_KEY")
            .env_remove("OPENAI_BASE_URL")
            .output()
            .unwrap()
    };
    let first = run(&[]);
    assert_eq!(first.status.code(), Some(0), "{}", String::from_utf8_lossy(&first.stderr));
    let lines: Vec<serde_json::Value> =
        String::from_utf8_lossy(&first.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let keys: Vec<&str> = lines.iter().map(|l| l["idemKey"].as_str().unwrap()).collect();
    assert_eq!(keys, vec!["m1|Desk#0/1/create_task|tasks.create", "m2|Desk#0/2/reply|message.send"]);
    let before = (std::fs::read(&journal).unwrap(), std::fs::read(&world).unwrap());
    let replay = Command::new(env!("CARGO_BIN_EXE_expresso"))
        .args(["replay", "desk.ex", "--events", "desk-events.jsonl", "--provider", "none", "--journal"])
        .arg(&journal)
        .arg("--world")
        .arg(&world)
        .current_dir(&examples)
        .output()
        .unwrap();
    assert_eq!(replay.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&replay.stdout),
        "replay: 0 provider calls · 0 new effects · journal unchanged · world unchanged\n"
    );
    assert_eq!(before, (std::fs::read(&journal).unwrap(), std::fs::read(&world).unwrap()), "bit-identical");
    std::fs::remove_dir_all(&work).unwrap();
}
