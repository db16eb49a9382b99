//! The reflex sink against the real `evoke` program: a write reflex's body runs once per receipt, by
//! name, in the project the sink names; a destructive one is held for a person by evoke's own gate, and
//! its body never runs.
//!
//! The `evoke` binary is the workspace's own (`target/<profile>/evoke`, built by `cargo build
//! --workspace`), or `EVOKE_BIN`. Without it, with `CI` set the test fails; otherwise it says it skipped.

mod common;

use common::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn evoke_bin() -> Option<PathBuf> {
    let built = std::env::var_os("EVOKE_BIN").map(PathBuf::from).or_else(|| {
        // target/<profile>/deps/<this test> → target/<profile>/evoke
        let exe = std::env::current_exe().ok()?;
        Some(exe.parent()?.parent()?.join("evoke"))
    });
    if let Some(bin) = built.filter(|b| b.is_file()) {
        return Some(bin);
    }
    lacking("evoke not built", "cargo build -p evoke (or set EVOKE_BIN)");
    None
}

/// The body may write only where its manifest grants (Node's permission model): the folder `OUT`.
const TODO: &str = r#"reflex = 1
description = "Add a task to the list."
effect = "write"
confirm = "Add {title} for {who}?"
run = "todo.mjs"

[args.title]
ask = "Which task?"
pick = "text"

[args.who]
ask = "For whom?"
pick = "text"

[grants]
files = { "OUT" = "write" }
"#;

const TODO_BODY: &str = r#"import { appendFileSync } from "node:fs";

export default function body(args) {
  appendFileSync("OUT/done.log", `${args.title} for ${args.who}\n`);
  return { text: "added" };
}
"#;

const WIPE: &str = r#"reflex = 1
description = "Wipe the board."
effect = "destructive"
confirm = "Wipe the board?"
run = "wipe.mjs"

[grants]
files = { "OUT" = "write" }
"#;

const WIPE_BODY: &str = r#"import { writeFileSync } from "node:fs";

export default function body() {
  writeFileSync("OUT/wiped.log", "wiped\n");
  return { text: "wiped" };
}
"#;

/// The project `ops` with its two reflexes, and the folder their bodies may write to.
fn project(dir: &Path) -> (PathBuf, PathBuf) {
    let project = dir.join("ops");
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let out_text = out.to_str().unwrap();
    for (name, manifest, body_name, body) in
        [("todo", TODO, "todo.mjs", TODO_BODY), ("wipe", WIPE, "wipe.mjs", WIPE_BODY)]
    {
        let reflex = project.join("r").join(name);
        std::fs::create_dir_all(&reflex).unwrap();
        std::fs::write(reflex.join("reflex.toml"), manifest.replace("OUT", out_text)).unwrap();
        std::fs::write(reflex.join(body_name), body.replace("OUT", out_text)).unwrap();
    }
    std::fs::write(project.join("evoke.toml"), "[reflexes]\ntodo = \"r/todo\"\nwipe = \"r/wipe\"\n").unwrap();
    (project, out)
}

#[test]
fn a_write_reflex_runs_once_through_evoke_and_a_destructive_one_waits_for_a_person() {
    let Some(evoke) = evoke_bin() else { return };
    let dir = temp_dir("reflex-evoke");
    let (program, events, recording, _) = triage_fixture(&dir, 1);
    let (ops, out) = project(&dir);
    let home = dir.join("evoke-home");
    let trusted = Command::new(&evoke).arg("trust").current_dir(&ops).env("EVOKE_HOME", &home).output().unwrap();
    assert!(trusted.status.success(), "evoke trust: {}", String::from_utf8_lossy(&trusted.stderr));

    let sinks = dir.join("sinks.toml");
    std::fs::write(
        &sinks,
        format!(
            "[sinks.todo]\nkind = \"reflex\"\nreflex = \"todo\"\nevoke = \"{bin}\"\nproject = \"ops\"\nargs = {{ title = \"title\", who = \"assignee\" }}\n\
             [sinks.wipe]\nkind = \"reflex\"\nreflex = \"wipe\"\nevoke = \"{bin}\"\nproject = \"ops\"\nargs = {{}}\n\
             [sinks.log]\nkind = \"file\"\npath = \"out.jsonl\"\n\
             [capabilities]\n\"tasks.create\" = \"todo\"\n\"react.add\" = \"wipe\"\n\"message.send\" = \"log\"\n\"notify.send\" = \"log\"\n",
            bin = evoke.display()
        ),
    )
    .unwrap();
    let state = dir.join("state");
    let host = |cmd: &[&str]| -> Output {
        Command::new(env!("CARGO_BIN_EXE_expresso-host")).args(cmd).env("EVOKE_HOME", &home).output().unwrap()
    };
    let ingest = host(&["ingest", "--state", state.to_str().unwrap(), events.to_str().unwrap()]);
    assert!(ingest.status.success(), "{}", String::from_utf8_lossy(&ingest.stderr));
    let drain = drain_args(&program, &state, &sinks, &recording);
    let drain: Vec<&str> = drain.iter().map(String::as_str).chain(["--settle-ms", "2000"]).collect();
    for round in 0..2 {
        let out = host(&drain);
        assert!(out.status.success(), "drain {round}: {}", String::from_utf8_lossy(&out.stderr));
    }

    // The write ran once, with the receipt's values, though the log was drained twice.
    let done = std::fs::read_to_string(out.join("done.log")).unwrap();
    assert_eq!(done, "Bug: message 0 about a bug for oncall\n");
    // The destructive reflex asked for a person, found none, and never ran its body.
    assert!(!out.join("wiped.log").exists(), "the destructive body ran without a person");
    let status = host(&["status", "--state", state.to_str().unwrap()]);
    let counts: serde_json::Value = serde_json::from_slice(&status.stdout).unwrap();
    assert_eq!(counts["held"], 1, "{counts}");
    assert_eq!(counts["intent"], 0, "{counts}");
    std::fs::remove_dir_all(&dir).unwrap();
}
