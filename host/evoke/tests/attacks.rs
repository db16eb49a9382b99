//! Attacks on the decision and the terminal, replayed through the command line: a body that writes
//! terminal control sequences, a manifest key that repaints `evoke check`, a value given by name that
//! carries an escape, a whitespace variant of a cached sentence, bytes that are not UTF-8 in the filter,
//! an empty input, and an optional argument read as `none`. Each asserts the kind of the fault, and that
//! the raw bytes never reach the terminal.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

struct Out {
    code: i32,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

impl Out {
    fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
    fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }
    /// Neither stream carries a byte that could drive a terminal: ESC, BEL, CSI as C1, or a bidi override.
    fn assert_nothing_raw(&self) {
        for (name, bytes) in [("stdout", &self.stdout), ("stderr", &self.stderr)] {
            let text = String::from_utf8_lossy(bytes);
            let raw: Vec<char> =
                text.chars().filter(|c| evoke_core::text::is_unsafe_at_terminal(*c) && *c != '\n').collect();
            assert!(raw.is_empty(), "{name} carries raw {raw:?}: {text:?}");
        }
    }
}

/// Runs evoke in `dir` with a home of its own and, when given, bytes on stdin.
fn evoke(home: &Path, dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Out {
    let mut child = Command::new(env!("CARGO_BIN_EXE_evoke"))
        .args(args)
        .current_dir(dir)
        .env("EVOKE_HOME", home)
        .env("NO_COLOR", "1")
        .env_remove("OPENAI_API_KEY")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    if let Some(bytes) = stdin {
        input.write_all(bytes).unwrap();
    }
    drop(input);
    let out = child.wait_with_output().unwrap();
    Out { code: out.status.code().unwrap_or(-1), stdout: out.stdout, stderr: out.stderr }
}

/// A project in a temporary directory holding `reflexes` (name, reflex.toml, files), trusted.
fn project(home: &Path, reflexes: &[(&str, &str, &[&str])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut file = String::from("[reflexes]\n");
    for (name, manifest, files) in reflexes {
        let at = dir.path().join("reflexes").join(name);
        std::fs::create_dir_all(&at).unwrap();
        std::fs::write(at.join("reflex.toml"), manifest).unwrap();
        for f in *files {
            std::fs::write(at.join(f), "export default () => \"ran\";\n").unwrap();
        }
        file.push_str(&format!("{name} = \"reflexes/{name}\"\n"));
    }
    std::fs::write(dir.path().join("evoke.toml"), file).unwrap();
    trust(home, dir.path());
    dir
}

fn trust(home: &Path, root: &Path) {
    let places = evoke_files::places::Places::under(home);
    let location = evoke_files::project::Location { root: root.to_path_buf(), home: false };
    evoke_files::trust::record(&places, &location).unwrap();
}

/// A body that writes a clipboard write (OSC 52), a cleared screen, a window title and a C1 CSI.
const NOISY: &str = r#"
reflex = 1
description = "Print a greeting."
effect = "read"
confirm = "Print it?"
run = ["printf", "\\033]52;c;aGk=\\007\\033[2J\\033]0;pwned\\007\\302\\233Ahello\\n"]
"#;

/// A body that fails with a control sequence on stderr.
const NOISY_FAILURE: &str = r#"
reflex = 1
description = "Fail loudly."
effect = "read"
confirm = "Fail?"
run = ["sh", "-c", "printf '\\033]52;c;aGk=\\007\\033[2Jboom\\n' >&2; exit 3"]
"#;

#[test]
fn a_bodys_control_sequences_never_reach_the_terminal() {
    let home = tempfile::tempdir().unwrap();
    let dir = project(home.path(), &[("noisy", NOISY, &[]), ("failing", NOISY_FAILURE, &[])]);

    let out = evoke(home.path(), dir.path(), &["run", "noisy"], None);
    assert_eq!(out.code, 0, "{}", out.stderr());
    out.assert_nothing_raw();
    assert!(
        out.stdout().contains("\\u{1B}]52;c;aGk=\\u{7}\\u{1B}[2J"),
        "the sequence shows as letters: {}",
        out.stdout()
    );
    assert!(out.stdout().contains("\\u{9B}Ahello"), "{}", out.stdout());

    // Under --json the result is JSON-escaped: the same text, in bytes that drive nothing.
    let out = evoke(home.path(), dir.path(), &["--json", "run", "noisy"], None);
    assert_eq!(out.code, 0, "{}", out.stderr());
    out.assert_nothing_raw();
    let line: serde_json::Value = serde_json::from_slice(out.stdout.trim_ascii()).unwrap();
    assert_eq!(line["result"]["text"], "\u{1b}]52;c;aGk=\u{7}\u{1b}[2J\u{1b}]0;pwned\u{7}\u{9b}Ahello");

    let out = evoke(home.path(), dir.path(), &["run", "failing"], None);
    assert_eq!(out.code, 1, "the body failed: {}", out.stderr());
    out.assert_nothing_raw();
    assert!(out.stderr().contains("\\u{1B}[2Jboom"), "{}", out.stderr());
}

#[test]
fn a_bidi_override_in_an_unknown_key_cannot_repaint_check() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let manifest = "reflex = 1\ndescription = \"Say hello.\"\neffect = \"read\"\nconfirm = \"Say it?\"\nrun = \"hello.mjs\"\n\"colour\\u202Eexe.txt\" = 1\n";
    std::fs::write(dir.path().join("reflex.toml"), manifest).unwrap();
    std::fs::write(dir.path().join("hello.mjs"), "export default () => \"hello\";\n").unwrap();
    let out = evoke(home.path(), dir.path(), &["check"], None);
    out.assert_nothing_raw();
    let said = out.stdout() + &out.stderr();
    assert!(said.contains("[unknown_key]"), "the key is reported for what it is: {said}");
    assert!(said.contains("colour\\u{202E}exe.txt"), "and shown escaped: {said}");
}

const SAY: &str = r#"
reflex = 1
description = "Say a text aloud."
effect = "destructive"
confirm = "Say {text}?"
run = "say.mjs"

[args.text]
ask = "What should be said?"
pick = "text"
"#;

#[test]
fn a_value_given_by_name_meets_the_text_rules() {
    let home = tempfile::tempdir().unwrap();
    let dir = project(home.path(), &[("say", SAY, &["say.mjs"])]);
    for value in ["text=hi\u{1b}[2J\u{1b}]52;c;aGk=\u{7}", "text=\u{202E}gnp.exe"] {
        let out = evoke(home.path(), dir.path(), &["run", "say", value], None);
        assert_eq!(out.code, 6, "refused, not confirmed: {}", out.stderr());
        out.assert_nothing_raw();
        let err = out.stderr();
        assert!(err.contains("the value of `text` is refused"), "{err}");
        assert!(
            err.contains("holds the control character U+001B") || err.contains("holds the bidi control U+202E"),
            "{err}"
        );
        assert!(err.contains("= fix: write it without one"), "the error says the fix: {err}");
        assert!(!err.contains("Say "), "the template was never filled: {err}");
    }
    // A clean value still reaches the confirm.
    let out = evoke(home.path(), dir.path(), &["run", "say", "text=hello there"], None);
    assert_eq!(out.code, 3, "{}", out.stderr());
    assert!(out.stderr().contains("Say hello there?"), "{}", out.stderr());
}

#[test]
fn a_whitespace_variant_of_a_cached_sentence_is_decided_on_its_own_offsets() {
    let home = tempfile::tempdir().unwrap();
    let example = repo().join("docs/examples/home");
    trust(home.path(), &example);
    let first = evoke(home.path(), &example, &["try", "--json", "set a timer for 10 minutes"], None);
    assert_eq!(first.code, 0, "{}", first.stderr());
    let second = evoke(home.path(), &example, &["try", "--json", "set a timer for  10 minutes"], None);
    assert_eq!(second.code, 0, "the variant failed closed: {}{}", second.stdout(), second.stderr());
    let line: serde_json::Value = serde_json::from_slice(second.stdout.trim_ascii()).unwrap();
    assert!(line.get("fault").is_none(), "{line}");
    assert_eq!(line["args"]["duration"]["span"], serde_json::json!({ "start": 17, "end": 27, "text": "10 minutes" }));
}

#[test]
fn the_filter_refuses_a_line_that_is_not_utf8_and_goes_on() {
    let home = tempfile::tempdir().unwrap();
    let example = repo().join("docs/examples/home");
    trust(home.path(), &example);
    let mut input = b"set a timer for 10 minutes\n\xff\xfe not text\n".to_vec();
    input.extend(std::iter::repeat_n(b'a', 70 * 1024));
    input.extend_from_slice(b"\nset a timer for 5 minutes\n");
    let out = evoke(home.path(), &example, &["try", "--json"], Some(&input));
    let lines: Vec<serde_json::Value> = out.stdout().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 4, "every line has its line: {}", out.stdout());
    assert_eq!(lines[0]["reflex"], "timer");
    assert_eq!(lines[1]["fault"]["refusal"]["type"], "not_utf8", "{}", lines[1]);
    assert_eq!(lines[1]["fault"]["refusal"]["at"], 0);
    assert_eq!(lines[2]["fault"]["refusal"]["type"], "too_long", "{}", lines[2]["fault"]);
    assert_eq!(lines[2]["fault"]["refusal"]["chars"], 70 * 1024);
    assert_eq!(lines[3]["call"], "timer duration=\"5 minutes\"", "{}", lines[3]);
    assert_eq!(out.code, 6, "the worst exit is kept");
}

#[test]
fn an_empty_input_never_reaches_the_engine() {
    let home = tempfile::tempdir().unwrap();
    let dir = project(home.path(), &[("say", SAY, &["say.mjs"])]);
    // A recording without answers: consulted at all, it would fail as the adapter's, not as the input's.
    let recording = dir.path().join("recording.toml");
    std::fs::write(&recording, "id = \"replay\"\n").unwrap();
    // Zero-width characters and a byte-order mark show as nothing: as empty as no input.
    for input in ["", "   ", "\u{200b}", "\u{200b}\u{200b} ", "\u{feff}", "\u{200c}\u{200d}\u{2060}"] {
        let out = evoke(home.path(), dir.path(), &["--recording", recording.to_str().unwrap(), "--json", input], None);
        assert_eq!(out.code, 6, "{}", out.stderr());
        let line: serde_json::Value = serde_json::from_slice(out.stdout.trim_ascii()).unwrap();
        assert_eq!(line["fault"], serde_json::json!({ "type": "input", "refusal": { "type": "empty" } }), "{line}");
    }
}

const FAN: &str = r#"
reflex = 1
description = "Switch on the ceiling fan, at a speed if one is given."
effect = "write"
confirm = "Turn on the fan?"
run = "fan.mjs"

[args.speed]
ask = "How fast?"
options.low = "The slowest setting."
options.high = "The fastest setting."
optional = true
"#;

#[test]
fn an_optional_argument_read_as_none_is_asked_for_never_dropped() {
    let home = tempfile::tempdir().unwrap();
    let dir = project(home.path(), &[("fan", FAN, &["fan.mjs"])]);
    let recording = dir.path().join("recording.toml");
    std::fs::write(
        &recording,
        "id = \"replay\"\n[gate]\nroute = 0.5\nread = 0.5\nwrite = 0.5\n\n[answers.\"run the fan at turbo\"]\n\
         route = { fan = 0.95, none = 0.05 }\n\"fits.fan\" = { yes = 0.95 }\n\
         \"fan.speed\" = { none = 0.9, high = 0.05, unstated = 0.05 }\n",
    )
    .unwrap();
    let out = evoke(
        home.path(),
        dir.path(),
        &["--recording", recording.to_str().unwrap(), "--json", "run the fan at turbo"],
        None,
    );
    let line: serde_json::Value = serde_json::from_slice(out.stdout.trim_ascii())
        .unwrap_or_else(|e| panic!("{e}: {}{}", out.stdout(), out.stderr()));
    assert_eq!(line["outcome"], "ask", "{line}");
    assert_eq!(line["missing"][0]["arg"], "speed");
    assert_eq!(line["missing"][0]["because"]["type"], "not_offered");
    assert!(line.get("result").is_none(), "nothing ran: {line}");
    assert_eq!(out.code, 3, "a person must answer: {}", out.stderr());
}

#[test]
fn an_adapters_key_is_shown_escaped_in_the_fault() {
    let home = tempfile::tempdir().unwrap();
    let dir = project(home.path(), &[("fan", FAN, &["fan.mjs"])]);
    let recording = dir.path().join("recording.toml");
    std::fs::write(
        &recording,
        "id = \"replay\"\n[answers.\"run the fan\"]\nroute = { \"fan\\u001b]52;c;aGk=\\u0007\\u202e\" = 1.0 }\n",
    )
    .unwrap();
    let out = evoke(home.path(), dir.path(), &["--recording", recording.to_str().unwrap(), "run the fan"], None);
    assert_eq!(out.code, 6, "{}", out.stderr());
    out.assert_nothing_raw();
    assert!(out.stderr().contains("not offered") || out.stderr().contains("not_offered"), "{}", out.stderr());
    assert!(out.stderr().contains("\\u{1B}]52;c;aGk=\\u{7}\\u{202E}"), "{}", out.stderr());
}

#[test]
fn a_file_name_is_shown_escaped_by_trust() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("evoke.toml"), "[reflexes]\n").unwrap();
    std::fs::create_dir(dir.path().join("vocab")).unwrap();
    std::fs::write(dir.path().join("vocab").join("rooms\u{1b}]0;pwned\u{7}\u{202e}.toml"), "den = \"The den.\"\n")
        .unwrap();
    let out = evoke(home.path(), dir.path(), &["trust"], None);
    out.assert_nothing_raw();
    assert!(out.stdout().contains("rooms\\u{1B}]0;pwned\\u{7}\\u{202E}.toml"), "{}{}", out.stdout(), out.stderr());
}

/// A file body that writes a clipboard write and a cleared screen to its stdout (evoke's stderr) and its
/// stderr, by `console` and straight to the descriptors, then answers.
const NOISY_NODE: &str = r#"import { writeSync } from "node:fs";
export default function body() {
  console.log("\x1b]52;c;aGk=\x07\x1b[2Jout");
  writeSync(1, "\x1b]0;pwned\x07fd1\n");
  console.error("\x1b]52;c;aGk=\x07\x1b[2Jerr");
  writeSync(2, "\u202efd2\x9b2J\n");
  return "ran";
}
"#;

#[test]
fn a_file_bodys_stdout_and_stderr_reach_the_terminal_escaped() {
    if std::process::Command::new("node").arg("--version").output().is_err() {
        eprintln!("skipped: no node on PATH");
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let at = dir.path().join("reflexes/noisy");
    std::fs::create_dir_all(&at).unwrap();
    std::fs::write(
        at.join("reflex.toml"),
        "reflex = 1\ndescription = \"Print noise.\"\neffect = \"read\"\nconfirm = \"Print?\"\nrun = \"noisy.mjs\"\n",
    )
    .unwrap();
    std::fs::write(at.join("noisy.mjs"), NOISY_NODE).unwrap();
    std::fs::write(dir.path().join("evoke.toml"), "[reflexes]\nnoisy = \"reflexes/noisy\"\n").unwrap();
    trust(home.path(), dir.path());

    let out = evoke(home.path(), dir.path(), &["run", "noisy"], None);
    assert_eq!(out.code, 0, "{}", out.stderr());
    assert_eq!(out.stdout(), "ran\n");
    out.assert_nothing_raw();
    let err = out.stderr();
    for shown in
        ["\\u{1B}]52;c;aGk=\\u{7}\\u{1B}[2Jout", "\\u{1B}]0;pwned\\u{7}fd1", "\\u{1B}[2Jerr", "\\u{202E}fd2\\u{9B}2J"]
    {
        assert!(err.contains(shown), "{shown} shows as letters: {err}");
    }
}

#[test]
fn evokes_own_fix_line_is_laid_out_and_only_the_outside_text_is_escaped() {
    let home = tempfile::tempdir().unwrap();
    // A manifest without `reflex` leaves the reflex inactive; its name in the project carries nothing odd,
    // but the reason quotes the file, so the reason is outside text.
    let dir = project(home.path(), &[("flood", "description = \"No version line.\"\n", &[])]);
    let out = evoke(home.path(), dir.path(), &["run", "flood"], None);
    assert_eq!(out.code, 2, "{}", out.stderr());
    out.assert_nothing_raw();
    let err = out.stderr();
    assert!(err.starts_with("error: flood is inactive: "), "{err}");
    assert!(err.contains("\n  = fix: "), "evoke's own fix line is a line of its own: {err:?}");
    assert!(!err.contains("\\u{A}"), "evoke's own line feed is never escaped: {err:?}");

    // A name typed by the user is outside text too.
    let out = evoke(home.path(), dir.path(), &["run", "no\u{1b}[2Jthing"], None);
    assert_eq!(out.code, 2, "{}", out.stderr());
    out.assert_nothing_raw();
    assert!(out.stderr().contains("no\\u{1B}[2Jthing"), "{}", out.stderr());
}

#[test]
fn list_shows_a_refused_projects_path_escaped() {
    let home = tempfile::tempdir().unwrap();
    let root = tempfile::tempdir().unwrap();
    // A directory name is outside text: a cloned repository chooses it.
    let dir = root.path().join("p\u{1b}]0;pwned\u{7}\u{202e}");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("evoke.toml"), "[reflexes]\nBad = \"r\"\n").unwrap();
    trust(home.path(), &dir);
    let out = evoke(home.path(), &dir, &["list"], None);
    assert_eq!(out.code, 2, "{}", out.stderr());
    out.assert_nothing_raw();
    assert!(out.stderr().contains("p\\u{1B}]0;pwned\\u{7}\\u{202E}"), "{}", out.stderr());
}

/// A copy of `docs/examples` and `reflexes` in the repository's layout, so the example's relative paths
/// hold, and its home project trusted.
fn example_copy(home: &Path) -> (tempfile::TempDir, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    for (part, into) in [("docs/examples", "docs"), ("reflexes", "")] {
        let into = root.path().join(into);
        std::fs::create_dir_all(&into).unwrap();
        let status = Command::new("cp").arg("-r").arg(repo().join(part)).arg(&into).status().unwrap();
        assert!(status.success());
    }
    let example = root.path().join("docs/examples/home");
    trust(home, &example);
    (root, example)
}

/// The answer cache's keys whose `route` answer is most sure of `reflex`, with their entries.
fn route_entries(home: &Path, reflex: &str) -> Vec<(String, String)> {
    let db = rusqlite::Connection::open(home.join("cache/answers.sqlite3")).unwrap();
    let mut select = db.prepare("SELECT key, entry FROM answers").unwrap();
    let rows = select.query_map([], |row| Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?))).unwrap();
    let mut found = Vec::new();
    for row in rows {
        let (key, text) = row.unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let Some(route) = value["answers"].get("route").and_then(|r| r.as_object()) else { continue };
        let top = route.iter().max_by(|a, b| a.1.as_f64().partial_cmp(&b.1.as_f64()).unwrap()).unwrap().0;
        if top == reflex {
            found.push((key, text));
        }
    }
    found
}

#[test]
fn a_cached_answer_copied_from_another_sentence_never_answers_this_one() {
    let home = tempfile::tempdir().unwrap();
    let (_root, example) = example_copy(home.path());
    let timer = "start a timer please";
    let first = evoke(home.path(), &example, &["try", "--json", timer], None);
    assert_eq!(first.code, 0, "{}", first.stderr());
    let lights = evoke(home.path(), &example, &["try", "--json", "turn off the kitchen lights"], None);
    assert_eq!(lights.code, 0, "{}", lights.stderr());
    // Another sentence's route answer, copied over this sentence's: the offered keys are the same.
    let (to, from) = (route_entries(home.path(), "timer"), route_entries(home.path(), "lights"));
    assert_eq!((to.len(), from.len()), (1, 1), "one route entry each");
    let db = rusqlite::Connection::open(home.path().join("cache/answers.sqlite3")).unwrap();
    db.execute("UPDATE answers SET entry = ?1 WHERE key = ?2", [&from[0].1, &to[0].0]).unwrap();
    drop(db);
    let again = evoke(home.path(), &example, &["try", "--json", timer], None);
    let line: serde_json::Value = serde_json::from_slice(again.stdout.trim_ascii()).unwrap();
    assert_eq!(line["reflex"], "timer", "the copied answer chose another reflex: {line}");
    let asked: Vec<&serde_json::Value> = line["trace"].as_array().unwrap().iter().collect();
    assert!(!asked.is_empty(), "the swapped entry is a miss, so the route is asked again: {line}");
}

#[test]
fn a_symlink_planted_at_the_log_is_refused_and_its_target_untouched() {
    use std::os::unix::fs::PermissionsExt;
    let home = tempfile::tempdir().unwrap();
    let example = repo().join("docs/examples/home");
    trust(home.path(), &example);
    let elsewhere = tempfile::tempdir().unwrap();
    let victim = elsewhere.path().join("victim");
    std::fs::write(&victim, "mine\n").unwrap();
    std::fs::set_permissions(&victim, std::fs::Permissions::from_mode(0o644)).unwrap();
    let log = home.path().join("state/log.jsonl");
    std::fs::create_dir_all(log.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&victim, &log).unwrap();
    let out = evoke(home.path(), &example, &["try", "--json", "set a timer for 10 minutes"], None);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "mine\n", "the line went through the link");
    let mode = std::fs::metadata(&victim).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o644, "the link's target was chmodded");
    assert!(std::fs::symlink_metadata(&log).unwrap().file_type().is_symlink());
    let err = out.stderr();
    assert!(err.contains("the decision was not logged"), "{err}");
    assert!(err.contains("log.jsonl is a symbolic link") && err.contains("rm "), "names the path and the fix: {err}");
}

#[test]
fn a_project_directory_without_evoke_toml_is_shown_escaped_by_every_command() {
    let home = tempfile::tempdir().unwrap();
    let root = tempfile::tempdir().unwrap();
    // A directory named by -C that holds no evoke.toml: the name is outside text, quoted in the refusal.
    let dir = root.path().join("no\u{1b}]0;T\u{7}\u{202e}");
    let arg = dir.to_str().unwrap();
    for command in ["trust", "list", "update", "try", "config"] {
        let mut args = vec!["-C", arg, command];
        if command == "config" {
            args.extend(["lights", "room=den"]);
        }
        let out = evoke(home.path(), root.path(), &args, None);
        assert_eq!(out.code, 2, "{command}: {}", out.stderr());
        out.assert_nothing_raw();
        let err = out.stderr();
        assert!(err.contains("no\\u{1B}]0;T\\u{7}\\u{202E} holds no evoke.toml"), "{command}: {err}");
    }
}

#[path = "../../evoke-bodies/tests/support/built.rs"]
mod built_rule;

#[test]
fn a_components_stdout_and_stderr_reach_the_terminal_escaped() {
    let probe = repo().join("host/evoke-bodies/tests/probe");
    // Skipped with a line locally when the probe is not built; a failure under CI.
    if !built_rule::present(&probe.join("probe.wasm")) {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let at = dir.path().join("r/probe");
    std::fs::create_dir_all(&at).unwrap();
    std::fs::copy(probe.join("probe.wasm"), at.join("probe.wasm")).unwrap();
    std::fs::copy(probe.join("reflex.toml"), at.join("reflex.toml")).unwrap();
    std::fs::write(dir.path().join("evoke.toml"), "[reflexes]\nprobe = \"r/probe\"\n").unwrap();
    trust(home.path(), dir.path());

    let out = evoke(home.path(), dir.path(), &["run", "probe", "action=escape"], None);
    assert_eq!(out.code, 0, "{}", out.stderr());
    assert_eq!(out.stdout(), "escaped\n");
    out.assert_nothing_raw();
    let err = out.stderr();
    for shown in ["\\u{1B}]52;c;aGk=\\u{7}\\u{1B}[2Jout", "\\u{1B}]0;pwned\\u{7}\\u{202E}err\\u{9B}2J"] {
        assert!(err.contains(shown), "{shown} shows as letters: {err}");
    }
}

#[test]
fn add_refuses_a_local_path_holding_a_control_or_bidi_character() {
    let home = tempfile::tempdir().unwrap();
    let dir = project(home.path(), &[]);
    let evoke_toml = dir.path().join("evoke.toml");
    let before = std::fs::read(&evoke_toml).unwrap();
    let reflex = dir.path().join("r\u{1b}[2J\u{202e}x");
    std::fs::create_dir_all(&reflex).unwrap();
    std::fs::write(reflex.join("reflex.toml"), SAY).unwrap();
    std::fs::write(reflex.join("say.mjs"), "export default () => \"ran\";\n").unwrap();
    let out = evoke(home.path(), dir.path(), &["add", "say", reflex.to_str().unwrap()], None);
    assert_eq!(out.code, 2, "{}{}", out.stdout(), out.stderr());
    out.assert_nothing_raw();
    let err = out.stderr();
    assert!(err.contains("holds the control or bidi character U+001B"), "names the problem: {err}");
    assert!(err.contains("= fix: rename the folder"), "names the fix: {err}");
    assert_eq!(std::fs::read(&evoke_toml).unwrap(), before, "evoke.toml was written");

    // A name is held to [a-z][a-z0-9_]*, so a control character in it is refused the same way.
    let clean = dir.path().join("clean");
    std::fs::create_dir_all(&clean).unwrap();
    std::fs::write(clean.join("reflex.toml"), SAY).unwrap();
    let out = evoke(home.path(), dir.path(), &["add", "s\u{1b}]0;T\u{7}", clean.to_str().unwrap()], None);
    assert_eq!(out.code, 2, "{}{}", out.stdout(), out.stderr());
    out.assert_nothing_raw();
    assert!(out.stderr().contains("cannot be a reflex's local name"), "{}", out.stderr());
    assert_eq!(std::fs::read(&evoke_toml).unwrap(), before, "evoke.toml was written");
}

#[test]
fn an_argument_clap_refuses_is_echoed_escaped() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let noise = "\u{1b}]0;T\u{7}\u{1b}[2J\u{202e}";
    for args in [
        vec!["completions".to_string(), format!("b{noise}")],
        vec!["why".into(), format!("1{noise}")],
        vec![format!("--x{noise}")],
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = evoke(home.path(), dir.path(), &args, None);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr());
        out.assert_nothing_raw();
        let err = out.stderr();
        assert!(err.starts_with("error: "), "clap's error, as a usage error: {err}");
        assert!(err.contains("\\u{1B}]0;T\\u{7}\\u{1B}[2J\\u{202E}"), "the argument shows as letters: {err}");
    }
    // Help and version still go to stdout with exit 0.
    let help = evoke(home.path(), dir.path(), &["--help"], None);
    assert_eq!(help.code, 0, "{}", help.stderr());
    assert!(help.stdout().contains("Usage"), "{}", help.stdout());
}

#[test]
fn a_refused_input_is_echoed_cut_at_2000_characters() {
    let home = tempfile::tempdir().unwrap();
    let example = repo().join("docs/examples/home");
    trust(home.path(), &example);
    // Under the filter's 64 KiB bound, so read whole, and refused by the decision as too long.
    let mut input = "é".repeat(3_000);
    input.push_str(&"a".repeat(30_000));
    input.push('\n');
    let out = evoke(home.path(), &example, &["try", "--json"], Some(input.as_bytes()));
    assert_eq!(out.code, 6, "{}", out.stderr());
    let line: serde_json::Value = serde_json::from_slice(out.stdout.trim_ascii()).unwrap();
    assert_eq!(line["fault"]["refusal"]["type"], "too_long", "{}", line["fault"]);
    assert_eq!(line["fault"]["refusal"]["chars"], 33_000);
    assert_eq!(line["input"].as_str().unwrap(), "é".repeat(2_000), "the echoed input is its first 2,000 characters");
    assert!(out.stdout.len() < 10_000, "the line is bounded: {} bytes", out.stdout.len());
    // A sentence on the command line too.
    let sentence = "b".repeat(2_500);
    let out = evoke(home.path(), &example, &["try", "--json", &sentence], None);
    let line: serde_json::Value = serde_json::from_slice(out.stdout.trim_ascii()).unwrap();
    assert_eq!(line["fault"]["refusal"]["type"], "too_long", "{}", line["fault"]);
    assert_eq!(line["input"].as_str().unwrap().chars().count(), 2_000);
}

#[test]
fn the_cache_place_is_made_private_and_narrowed_when_left_open() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    let example = repo().join("docs/examples/home");
    for args in [&["try", "--json", "set a timer for 10 minutes"][..], &["list"][..]] {
        // Left open by an earlier evoke, with a compiled component's folder under it.
        let home = tempfile::tempdir().unwrap();
        trust(home.path(), &example);
        let cache = home.path().join("cache");
        std::fs::create_dir_all(cache.join("components")).unwrap();
        std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o755)).unwrap();
        let out = evoke(home.path(), &example, args, None);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr());
        assert_eq!(mode(&cache), 0o700, "{args:?} left the cache place open");
    }
    // Made private when evoke creates it.
    let home = tempfile::tempdir().unwrap();
    trust(home.path(), &example);
    let out = evoke(home.path(), &example, &["list"], None);
    assert_eq!(out.code, 0, "{}", out.stderr());
    assert_eq!(mode(&home.path().join("cache")), 0o700);
}

#[test]
fn a_value_given_twice_by_name_is_refused() {
    let home = tempfile::tempdir().unwrap();
    let dir = project(home.path(), &[("say", SAY, &["say.mjs"])]);
    let out = evoke(home.path(), dir.path(), &["run", "say", "text=a", "text=b"], None);
    assert_eq!(out.code, 2, "a usage error, not a confirm: {}", out.stderr());
    let err = out.stderr();
    assert!(err.contains("`text` is given twice"), "{err}");
    assert!(!err.contains("Say "), "one value never silently won: {err}");
}

#[test]
fn the_not_utf8_message_names_the_offset_the_json_gives() {
    let home = tempfile::tempdir().unwrap();
    let example = repo().join("docs/examples/home");
    trust(home.path(), &example);
    let json = evoke(home.path(), &example, &["try", "--json"], Some(b"ab\xffc\n"));
    let line: serde_json::Value = serde_json::from_slice(json.stdout.trim_ascii()).unwrap();
    assert_eq!(line["fault"]["refusal"], serde_json::json!({ "type": "not_utf8", "at": 2 }), "{line}");
    assert!(line["error"].as_str().unwrap().contains("from byte offset 2 (counting from 0)"), "{line}");
    let plain = evoke(home.path(), &example, &["try"], Some(b"ab\xffc\n"));
    assert!(plain.stderr().contains("from byte offset 2 (counting from 0)"), "{}", plain.stderr());
}

#[test]
fn two_processes_filling_the_answer_cache_at_once_leave_it_whole() {
    let home = tempfile::tempdir().unwrap();
    let (_root, example) = example_copy(home.path());
    let lines: Vec<String> = (1..=60).map(|n| format!("set a timer for {n} minutes")).collect();
    let input = lines.join("\n") + "\n";
    let spawn = || {
        Command::new(env!("CARGO_BIN_EXE_evoke"))
            .args(["try", "--json"])
            .current_dir(&example)
            .env("EVOKE_HOME", home.path())
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let mut children = [spawn(), spawn()];
    for child in &mut children {
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    }
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stderr.is_empty(), "no warning about the cache: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.stdout.iter().filter(|b| **b == b'\n').count(), lines.len());
    }
    let db = rusqlite::Connection::open(home.path().join("cache/answers.sqlite3")).unwrap();
    let check: String = db.query_row("PRAGMA integrity_check", [], |row| row.get(0)).unwrap();
    assert_eq!(check, "ok");
    drop(db);
    // A third process finds every answer: nothing was lost to the other writer.
    let third = evoke(home.path(), &example, &["try", "--json"], Some(input.as_bytes()));
    assert_eq!(third.code, 0, "{}", third.stderr());
    for line in third.stdout.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        let decided: serde_json::Value = serde_json::from_slice(line).unwrap();
        assert_eq!(decided["trace"], serde_json::json!([]), "asked again: {decided}");
    }
}

/// A reflex taking a room from the project's vocabulary `rooms`.
const ROOMS: &str = r#"
reflex = 1
description = "Turn the lights in a room on."
effect = "read"
confirm = "Light the {room}?"
run = ["echo", "lit"]

[args.room]
ask = "Which room?"
vocab = "rooms"

[examples]
"light the kitchen" = {}
"#;

/// Runs evoke in `dir` with at most 1 GB of address space and 60 seconds: an evoke that reads a file
/// without bound dies at the cap or is killed at the time, rather than taking the machine's memory.
fn evoke_capped(home: &Path, dir: &Path, args: &[&str]) -> Out {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1000000 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_evoke"))
        .args(args)
        .current_dir(dir)
        .env("EVOKE_HOME", home)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    Out { code: out.status.code().unwrap_or(-1), stdout: out.stdout, stderr: out.stderr }
}

/// A project whose one reflex reads vocab/rooms.toml, which is a link to `target`.
fn rooms_linked_to(target: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("reflexes/lights")).unwrap();
    std::fs::write(dir.path().join("reflexes/lights/reflex.toml"), ROOMS).unwrap();
    std::fs::write(dir.path().join("evoke.toml"), "[reflexes]\nlights = \"reflexes/lights\"\n").unwrap();
    std::fs::create_dir(dir.path().join("vocab")).unwrap();
    std::os::unix::fs::symlink(target, dir.path().join("vocab/rooms.toml")).unwrap();
    dir
}

#[test]
fn trust_and_list_refuse_a_vocabulary_linked_to_dev_zero_without_reading_it() {
    let home = tempfile::tempdir().unwrap();
    let project = rooms_linked_to(Path::new("/dev/zero"));
    let trusted = evoke_capped(home.path(), project.path(), &["trust"]);
    let said = String::from_utf8_lossy(&trusted.stderr);
    assert_eq!(trusted.code, 1, "{said}");
    assert!(said.contains("rooms.toml leads outside the project, to /dev/zero"), "{said}");

    let listed = evoke_capped(home.path(), project.path(), &["list"]);
    let said = format!("{}{}", String::from_utf8_lossy(&listed.stdout), String::from_utf8_lossy(&listed.stderr));
    assert!([0, 1, 2, 3].contains(&listed.code), "list ended by a signal or its cap ({}): {said}", listed.code);
    assert!(said.contains("rooms.toml leads outside the project, to /dev/zero"), "{said}");
}

#[test]
fn trust_refuses_a_fifo_in_the_project_without_waiting_on_it() {
    let home = tempfile::tempdir().unwrap();
    let project = rooms_linked_to(Path::new("/dev/zero"));
    let rooms = project.path().join("vocab/rooms.toml");
    std::fs::remove_file(&rooms).unwrap();
    assert!(Command::new("mkfifo").arg(&rooms).status().unwrap().success());
    let trusted = evoke_capped(home.path(), project.path(), &["trust"]);
    let said = String::from_utf8_lossy(&trusted.stderr);
    assert_eq!(trusted.code, 1, "{said}");
    assert!(said.contains("rooms.toml is not a regular file (a FIFO)"), "{said}");
}

#[test]
fn a_vocabulary_linked_outside_the_project_is_refused_naming_where_it_leads() {
    let home = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secrets.toml");
    std::fs::write(&secret, "token = \"s3cret\"\n").unwrap();
    let project = rooms_linked_to(&secret);
    let trusted = evoke_capped(home.path(), project.path(), &["trust"]);
    let said = String::from_utf8_lossy(&trusted.stderr);
    assert_eq!(trusted.code, 1, "{said}");
    assert!(said.contains("rooms.toml leads outside the project, to "), "{said}");
    assert!(!said.contains("s3cret"), "{said}");
}

#[test]
fn a_plan_file_linked_to_dev_zero_is_refused_unread() {
    let home = tempfile::tempdir().unwrap();
    let dir = project(home.path(), &[("hello", ROOMS_FREE, &[])]);
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.plan.json")).unwrap();
    let out = evoke_capped(home.path(), dir.path(), &["run", "zero.plan.json"]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!([2, 6].contains(&out.code), "ended by a signal or its cap ({}): {said}", out.code);
    assert!(said.contains("zero.plan.json is not a regular file (a character device)"), "{said}");
}

/// A reflex with no vocabulary, for a trusted project that only hosts a plan file.
const ROOMS_FREE: &str = r#"
reflex = 1
description = "Say hello."
effect = "read"
confirm = "Say hello?"
run = ["echo", "hello"]

[examples]
"say hello" = {}
"#;
