//! A recording is read lazily: its declaration at load, a sentence's table when that sentence is asked
//! for. A broken table fails its own sentence closed, naming its file and line, and leaves the others.

use std::path::Path;
use std::process::{Command, Output};

fn evoke(home: &Path, dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_evoke"))
        .args(args)
        .current_dir(dir)
        .env("EVOKE_HOME", home)
        .env("NO_COLOR", "1")
        .env_remove("OPENAI_API_KEY")
        .output()
        .unwrap()
}

const HELLO: &str = "reflex = 1\ndescription = \"Say hello.\"\neffect = \"read\"\nconfirm = \"Say hello?\"\n\
                     run = [\"echo\", \"hello\"]\n";

#[test]
fn a_broken_table_fails_its_own_sentence_and_leaves_the_others() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("r/hello")).unwrap();
    std::fs::write(dir.path().join("r/hello/reflex.toml"), HELLO).unwrap();
    std::fs::write(dir.path().join("evoke.toml"), "[reflexes]\nhello = \"r/hello\"\n").unwrap();
    let places = evoke_files::places::Places::under(home.path());
    let location = evoke_files::project::Location { root: dir.path().to_path_buf(), home: false };
    evoke_files::trust::record(&places, &location).unwrap();
    std::fs::write(
        dir.path().join("recording.toml"),
        "id = \"replay\"\n[gate]\nroute = 0.5\nread = 0.5\nwrite = 0.8\n\n\
         [answers.\"say hello\"]\nroute = { hello = 0.95, none = 0.05 }\n\"fits.hello\" = { yes = 0.95 }\n\n\
         [answers.\"say goodbye\"]\nroute = 0.5\n",
    )
    .unwrap();

    let out = evoke(home.path(), dir.path(), &["try", "--json", "--recording", "recording.toml", "say hello"]);
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "the good table answers: {said}");
    let line: serde_json::Value = serde_json::from_slice(out.stdout.trim_ascii()).unwrap();
    assert_eq!(line["reflex"], "hello", "{line}");

    let out = evoke(home.path(), dir.path(), &["try", "--recording", "recording.toml", "say goodbye"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(6), "the broken table fails closed: {err}");
    assert!(err.contains("recording.toml:12:"), "names the file and the line: {err}");
}
