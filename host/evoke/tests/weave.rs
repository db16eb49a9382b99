//! A woven plan run for real: its steps in order, the step journal across a SIGKILL between steps and in
//! the middle of one, and `evoke resume`, which never runs a done write again and asks before running one
//! that may already have acted.

mod common;

use common::{copy_tree, kill, text};

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// `evoke` in `project`, with its own `EVOKE_HOME`, no colour and no input.
fn command_in(project: &Path, home: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_evoke"));
    command.current_dir(project).env("EVOKE_HOME", home).env("NO_COLOR", "1").stdin(Stdio::null());
    command
}

/// Writes a project of `.mjs` bodies: each `(name, manifest, body)` under `r/<name>`, and an `evoke.toml`
/// that installs them all.
fn node_project<M: AsRef<str>, B: AsRef<str>>(project: &Path, reflexes: &[(&str, M, B)]) {
    let mut toml = String::from("[reflexes]\n");
    for (name, manifest, body) in reflexes {
        let dir = project.join("r").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("reflex.toml"), manifest.as_ref()).unwrap();
        std::fs::write(dir.join(format!("{name}.mjs")), body.as_ref()).unwrap();
        toml.push_str(&format!("{name} = \"r/{name}\"\n"));
    }
    std::fs::write(project.join("evoke.toml"), toml).unwrap();
}

/// A project of four argv bodies that say what they do in `marks`: `mark` (a write), `nap` (a read that
/// sleeps), `hold` (a write that sleeps) and `wipe` (a destructive call, which always asks), answered by
/// a recording.
struct Fixture {
    _root: tempfile::TempDir,
    project: PathBuf,
    home: PathBuf,
    marks: PathBuf,
}

fn reflex(dir: &Path, name: &str, effect: &str, script: &str) {
    let dir = dir.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let manifest = format!(
        "reflex = 1\ndescription = \"{name} for the weave tests.\"\neffect = \"{effect}\"\nconfirm = \"Do {name}?\"\n\
         run = [\"sh\", \"-c\", {script:?}]\n"
    );
    std::fs::write(dir.join("reflex.toml"), manifest).unwrap();
}

const NAMES: [&str; 4] = ["mark", "nap", "hold", "wipe"];

/// The answers to a sentence whose parts are each one of the reflexes' names, cut at every `and`.
fn recording(sentences: &[&str]) -> String {
    let route = |top: &str| {
        let mut keys = Vec::new();
        for name in NAMES {
            keys.push(format!("{name} = {}", if name == top { "0.95" } else { "0.01" }));
        }
        keys.push("none = 0.02".into());
        format!("route = {{ {} }}\n", keys.join(", "))
    };
    let mut text = String::from("id = \"replay\"\n\n[gate]\nroute = 0.5\nread = 0.6\nwrite = 0.8\n\n");
    let mut seen = Vec::new();
    for sentence in sentences {
        text.push_str(&format!("[answers.{sentence:?}]\n"));
        let first = sentence.split(" and ").next().unwrap().split(' ').next().unwrap();
        text.push_str(&route(first));
        for (at, _) in sentence.match_indices(" and ") {
            let start = sentence[..at + 1].chars().count();
            text.push_str(&format!("\"weave.cut_{start}_{}\" = {{ yes = 0.9 }}\n", start + 3));
        }
        text.push('\n');
        for part in sentence.split(" and ") {
            if seen.contains(&part) {
                continue;
            }
            seen.push(part);
            let name = part.split(' ').next().unwrap();
            text.push_str(&format!("[answers.{part:?}]\n{}", route(name)));
            for other in NAMES {
                text.push_str(&format!("\"fits.{other}\" = {{ yes = {} }}\n", if other == name { 0.9 } else { 0.05 }));
            }
            text.push('\n');
        }
    }
    text
}

fn fixture(sentences: &[&str]) -> Fixture {
    let root = tempfile::tempdir().unwrap();
    let project = root.path().join("project");
    let marks = root.path().join("marks");
    let r = project.join("r");
    let m = marks.display().to_string();
    reflex(&r, "mark", "write", &format!("echo mark >> {m}; echo marked"));
    reflex(&r, "nap", "read", &format!("echo nap-start $$ >> {m}; sleep 5; echo nap-end >> {m}; echo napped"));
    reflex(&r, "hold", "write", &format!("echo hold-start $$ >> {m}; sleep 20; echo hold-end >> {m}; echo held"));
    reflex(&r, "wipe", "destructive", &format!("echo wipe >> {m}; echo wiped"));
    std::fs::write(
        project.join("evoke.toml"),
        "[reflexes]\nmark = \"r/mark\"\nnap = \"r/nap\"\nhold = \"r/hold\"\nwipe = \"r/wipe\"\n",
    )
    .unwrap();
    std::fs::write(project.join("recording.toml"), recording(sentences)).unwrap();
    let home = root.path().join("home");
    let fixture = Fixture { project, home, marks, _root: root };
    let trusted = fixture.evoke().arg("trust").output().unwrap();
    assert!(trusted.status.success(), "{}", String::from_utf8_lossy(&trusted.stderr));
    fixture
}

impl Fixture {
    fn evoke(&self) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_evoke"));
        command
            .current_dir(&self.project)
            .env("EVOKE_HOME", &self.home)
            .env("NO_COLOR", "1")
            .arg("--recording")
            .arg("recording.toml")
            .stdin(Stdio::null());
        command
    }

    fn marks(&self) -> String {
        std::fs::read_to_string(&self.marks).unwrap_or_default()
    }

    fn count(&self, word: &str) -> usize {
        self.marks().lines().filter(|l| l.split(' ').next() == Some(word)).count()
    }

    /// Waits until `marks` holds a line starting with `word`, and gives the pid on it.
    fn wait_for(&self, word: &str, child: &mut std::process::Child) -> i32 {
        common::wait_for(&self.marks, word, child)
    }
}

#[test]
fn a_plan_runs_its_steps_in_order_and_says_each() {
    let sentence = "mark it and mark it again";
    let f = fixture(&[sentence]);
    let out = f.evoke().args(["--json", sentence]).output().unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    let lines: Vec<serde_json::Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["step"], i + 1);
        assert_eq!(line["steps"], 2);
        assert_eq!(line["status"], "ran", "{line}");
        assert_eq!(line["result"]["text"], "marked");
        let keys: Vec<&String> = line.as_object().unwrap().keys().collect();
        assert_eq!(keys[..2], ["step", "steps"], "step and steps first");
        assert_eq!(keys.last().unwrap().as_str(), "status", "status last");
    }
    assert_eq!(f.count("mark"), 2);
}

#[test]
fn a_sigkill_in_the_middle_of_a_write_leaves_it_at_intent_and_resume_asks_before_running_it_again() {
    let sentence = "mark it and nap and hold it";
    let f = fixture(&[sentence]);
    let mut child = f.evoke().arg(sentence).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let body = f.wait_for("hold-start", &mut child);
    kill(&mut child, body);
    assert_eq!((f.count("mark"), f.count("nap-end"), f.count("hold-start")), (1, 1, 1), "{}", f.marks());

    let out = f.evoke().arg("resume").output().unwrap();
    let (stdout, stderr) = text(&out);
    // No terminal: the step that may have acted is asked about, and nothing of it runs.
    assert_eq!(out.status.code(), Some(3), "{stdout}{stderr}");
    assert!(stderr.contains("may already have acted"), "{stderr}");
    assert!(stderr.contains("evoke resume"), "{stderr}");
    assert_eq!(f.count("mark"), 1, "the done write did not run again: {}", f.marks());
    assert_eq!(f.count("hold-start"), 1, "the write at intent did not run again: {}", f.marks());
    // A plan that would wait runs nothing, not even the read before the step that waits.
    assert_eq!(f.count("nap-end"), 1, "{}", f.marks());
}

#[test]
fn without_a_terminal_a_plan_whose_last_step_waits_runs_nothing() {
    // The last part says what not to do for its own reflex, so it confirms; the parts before it would run.
    let sentence = "mark it and nap and hold it except twice";
    let f = fixture(&[sentence]);
    let out = f.evoke().arg(sentence).output().unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(3), "{stdout}{stderr}");
    assert!(stderr.contains("step 3") && stderr.contains("nothing ran"), "{stderr}");
    assert_eq!((f.count("mark"), f.count("nap-start"), f.count("hold-start")), (0, 0, 0), "{}", f.marks());
}

#[test]
fn a_sentence_that_is_not_a_request_holds_every_step() {
    // `later` puts the whole off: no step runs, though `mark it` alone asks.
    let sentence = "mark it and nap and hold it later";
    let f = fixture(&[sentence]);
    let out = f.evoke().args(["try", "--json", sentence]).output().unwrap();
    let (stdout, stderr) = text(&out);
    let plan: serde_json::Value = serde_json::from_str(stdout.trim()).expect(&stderr);
    let outcomes: Vec<&str> =
        plan["steps"].as_array().unwrap().iter().map(|s| s["outcome"].as_str().unwrap()).collect();
    assert_eq!(outcomes, ["confirm", "run", "confirm"], "{stdout}");
}

#[test]
fn a_sigkill_between_writes_resumes_after_the_done_one() {
    let sentence = "mark it and nap and mark it";
    let f = fixture(&[sentence]);
    let mut child = f.evoke().arg(sentence).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let body = f.wait_for("nap-start", &mut child);
    kill(&mut child, body);
    assert_eq!(f.count("mark"), 1, "{}", f.marks());

    let out = f.evoke().arg("resume").output().unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    // Step 1 is done and not run again; the read runs again, and the last write runs once.
    assert_eq!((f.count("mark"), f.count("nap-end")), (2, 1), "{}", f.marks());
    assert!(stderr.contains("step 1 ran before"), "{stderr}");

    // Everything is done now: resuming again runs nothing that writes.
    let again = f.evoke().arg("resume").output().unwrap();
    assert_eq!(again.status.code(), Some(0), "{}", text(&again).1);
    assert_eq!(f.count("mark"), 2, "{}", f.marks());
}

#[test]
fn a_sentence_said_again_is_a_new_request_not_a_resume() {
    let sentence = "mark it and mark it again";
    let f = fixture(&[sentence]);
    for _ in 0..2 {
        let out = f.evoke().arg(sentence).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    }
    assert_eq!(f.count("mark"), 4);
}

#[test]
fn a_plan_file_runs_while_its_pins_hold_and_is_refused_after_an_edit() {
    let sentence = "mark it and mark it again";
    let f = fixture(&[sentence]);
    let plan = f.home.join("marks.plan.json");
    let plan_arg = plan.to_str().unwrap();
    let saved = f.evoke().args(["try", "--save", plan_arg, sentence]).output().unwrap();
    assert_eq!(saved.status.code(), Some(0), "{}", text(&saved).1);
    assert_eq!(f.count("mark"), 0, "try runs nothing");
    let written = std::fs::read_to_string(&plan).unwrap();
    let file: serde_json::Value = serde_json::from_str(&written).unwrap();
    for key in ["seal", "note", "plan", "input", "weave", "evoke", "adapter", "set", "reflexes", "vocab", "answers"] {
        assert!(file.get(key).is_some(), "the plan file has {key}: {written}");
    }
    assert_eq!(file["answers"][0]["text"], sentence, "the sentence's own answers first");

    let ran = f.evoke().args(["--json", "run", plan_arg]).output().unwrap();
    let (stdout, stderr) = text(&ran);
    assert_eq!(ran.status.code(), Some(0), "{stdout}{stderr}");
    assert_eq!(f.count("mark"), 2);
    let first: serde_json::Value = serde_json::from_str(stdout.lines().next().unwrap()).unwrap();
    assert_eq!(first["pinned"]["file"], plan_arg);
    // The SHA-256 of the bytes read, written as every content hash evoke writes: `h1:` and its base64.
    let read = <sha2::Sha256 as sha2::Digest>::digest(written.as_bytes());
    assert_eq!(first["pinned"]["id"], format!("h1:{}", evoke_core::h1::base64(&read)), "{first}");

    // The same plan again: its journal says both writes are done, so neither runs again.
    let again = f.evoke().args(["run", plan_arg]).output().unwrap();
    assert_eq!(again.status.code(), Some(0), "{}", text(&again).1);
    assert_eq!(f.count("mark"), 2);

    // Edited by hand, or truncated: the seal no longer matches. Nothing runs.
    let edited = written.replacen("\"outcome\": \"run\"", "\"outcome\": \"confirm\"", 1);
    assert_ne!(edited, written);
    for broken in [&edited[..], &written[..written.len() / 2]] {
        std::fs::write(&plan, broken).unwrap();
        let refused = f.evoke().args(["run", plan_arg]).output().unwrap();
        let (_, stderr) = text(&refused);
        assert_eq!(refused.status.code(), Some(6), "{stderr}");
        assert!(stderr.contains("line 2: `seal`"), "{stderr}");
        assert!(stderr.contains("evoke try --save"), "the fix: {stderr}");
    }

    // Another engine than the one it was decided by: refused at the adapter's line.
    std::fs::write(&plan, &written).unwrap();
    let mut other = Command::new(env!("CARGO_BIN_EXE_evoke"));
    other.current_dir(&f.project).env("EVOKE_HOME", &f.home).env("NO_COLOR", "1").stdin(Stdio::null());
    let refused = other.args(["run", plan_arg]).output().unwrap();
    let line = written.lines().position(|l| l.trim_start().starts_with("\"adapter\":")).unwrap() + 1;
    assert_eq!(refused.status.code(), Some(6), "{}", text(&refused).1);
    assert!(text(&refused).1.contains(&format!("line {line}: `adapter`")), "{}", text(&refused).1);
    assert_eq!(f.count("mark"), 2, "nothing ran: {}", f.marks());
}

#[test]
fn a_step_run_from_a_plan_file_carries_the_h1_of_the_bytes_read() {
    let sentence = "mark it and mark it again";
    let f = fixture(&[sentence]);
    let plan = saved(&f, sentence);
    let ran = f.evoke().args(["--json", "run", plan.to_str().unwrap()]).output().unwrap();
    let (stdout, stderr) = text(&ran);
    assert_eq!(ran.status.code(), Some(0), "{stdout}{stderr}");
    let read = <sha2::Sha256 as sha2::Digest>::digest(std::fs::read(&plan).unwrap());
    let id = format!("h1:{}", evoke_core::h1::base64(&read));
    let lines: Vec<serde_json::Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    for line in &lines {
        assert_eq!(line["pinned"], serde_json::json!({ "file": plan.to_str().unwrap(), "id": id }), "{line}");
    }
    // The form every h1 has: it reads back as the 32 bytes of a SHA-256.
    assert_eq!(evoke_core::h1::decode(&id).map(|bytes| bytes.to_vec()), Some(read.to_vec()));
}

#[test]
fn a_plan_file_saved_under_a_tag_carries_it_and_runs_among_that_tags_reflexes() {
    let sentence = "mark it and mark it again";
    let f = fixture(&[sentence]);
    let manifest = f.project.join("r/mark/reflex.toml");
    let tagged = std::fs::read_to_string(&manifest).unwrap() + "tags = [\"ink\"]\n";
    std::fs::write(&manifest, tagged).unwrap();
    // Under the tag only `mark` is offered, so the answers name it alone.
    let all = recording(&[sentence]);
    let answers: Vec<&str> = all
        .lines()
        .filter(|l| !l.starts_with("\"fits.") || l.starts_with("\"fits.mark\""))
        .map(|l| if l.starts_with("route = {") { "route = { mark = 0.95, none = 0.05 }" } else { l })
        .collect();
    std::fs::write(f.project.join("recording.toml"), answers.join("\n")).unwrap();
    let plan = f.home.join("ink.plan.json");
    let plan_arg = plan.to_str().unwrap();
    let saved = f.evoke().args(["--tag", "ink", "try", "--save", plan_arg, sentence]).output().unwrap();
    assert_eq!(saved.status.code(), Some(0), "{}", text(&saved).1);
    let written = std::fs::read_to_string(&plan).unwrap();
    let file: serde_json::Value = serde_json::from_str(&written).unwrap();
    assert_eq!(file["tags"], serde_json::json!(["ink"]), "{written}");
    let names: Vec<&String> = file["reflexes"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["mark"], "only the tag's reflexes are pinned: {written}");

    // Under another tag it is another plan: refused at its `tags` line, naming the tag it was saved with.
    let other = f.evoke().args(["--tag", "paint", "run", plan_arg]).output().unwrap();
    let (_, stderr) = text(&other);
    let line = written.lines().position(|l| l.trim_start().starts_with("\"tags\":")).unwrap() + 1;
    assert_eq!(other.status.code(), Some(6), "{stderr}");
    assert!(stderr.contains(&format!("line {line}: `tags`: saved under --tag ink")), "{stderr}");
    assert!(stderr.contains("--tag ink run"), "the fix: {stderr}");
    assert_eq!(f.count("mark"), 0, "nothing ran: {}", f.marks());

    // Run as `try --save` says to run it, with no tag: among the reflexes of the tag it was saved under.
    let ran = f.evoke().args(["run", plan_arg]).output().unwrap();
    assert_eq!(ran.status.code(), Some(0), "{}", text(&ran).1);
    assert_eq!(f.count("mark"), 2, "{}", f.marks());
}

#[test]
fn an_optional_value_a_step_refers_back_to_is_written_into_its_words_and_decided_again() {
    let root = tempfile::tempdir().unwrap();
    let project = root.path().join("project");
    node_project(
        &project,
        &[
            (
                "find",
                "reflex = 1\ndescription = \"Find a book.\"\neffect = \"read\"\nconfirm = \"Find a book?\"\nrun = \"find.mjs\"\n\n[yields.title]\nkind = \"text\"\n",
                "export default function find() { return { text: \"found dune\", data: { title: \"dune\" } }; }\n",
            ),
            (
                "note",
                "reflex = 1\ndescription = \"Note a title down.\"\neffect = \"write\"\nconfirm = \"Note it?\"\nrun = \"note.mjs\"\n\n[args.what]\nask = \"What?\"\npick = \"text\"\noptional = true\n",
                "export default function note({ what }) { return `noted ${what ?? \"nothing\"}`; }\n",
            ),
        ],
    );
    std::fs::write(
        project.join("recording.toml"),
        r#"id = "replay"

[gate]
route = 0.5
read = 0.6
write = 0.8

[answers."find a book and note it"]
route = { find = 0.95, note = 0.02, none = 0.03 }
"weave.cut_12_15" = { yes = 0.9 }

[answers."find a book"]
route = { find = 0.95, note = 0.02, none = 0.03 }
"fits.find" = { yes = 0.9 }
"fits.note" = { yes = 0.05 }

[answers."note it"]
route = { note = 0.95, find = 0.02, none = 0.03 }
"fits.note" = { yes = 0.9 }
"fits.find" = { yes = 0.05 }

[answers.'note "dune"']
route = { note = 0.95, find = 0.02, none = 0.03 }
"fits.note" = { yes = 0.9 }
"fits.find" = { yes = 0.05 }
"note.what" = { "6-10" = 0.95, unstated = 0.05 }
"#,
    )
    .unwrap();
    let home = root.path().join("home");
    let evoke = || command_in(&project, &home);
    assert!(evoke().arg("trust").output().unwrap().status.success());
    let out = evoke().args(["--recording", "recording.toml", "--json", "find a book and note it"]).output().unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    let lines: Vec<serde_json::Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    let note = &lines[1];
    assert_eq!(note["input"], "note \"dune\"", "decided again on the words with the value written in: {note}");
    assert_eq!(note["call"], "note what=\"dune\"");
    assert_eq!(note["result"]["text"], "noted dune");
    assert_eq!(note["bound"][0]["arg"], "what");
    assert_eq!(note["bound"][0]["from"], 1);
    assert_eq!(note["bound"][0]["field"], "title");
    let keys: Vec<&String> = note.as_object().unwrap().keys().collect();
    let at = |k: &str| keys.iter().position(|x| x.as_str() == k).unwrap();
    assert!(at("trace") < at("bound") && at("bound") < at("status"), "bound after trace, status last: {keys:?}");
}

/// Saves the plan of `sentence` to a file beside the home, and gives its path.
fn saved(f: &Fixture, sentence: &str) -> PathBuf {
    let plan = f.home.join("saved.plan.json");
    let out = f.evoke().args(["try", "--save", plan.to_str().unwrap(), sentence]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    plan
}

#[test]
fn a_plan_file_whose_step_calls_a_reflex_gone_says_no_reflex_on_that_steps_line() {
    let sentence = "mark it and nap it";
    let f = fixture(&[sentence]);
    let plan = saved(&f, sentence);
    // `nap` taken out of the project, which is trusted again as it now is.
    std::fs::write(
        f.project.join("evoke.toml"),
        "[reflexes]\nmark = \"r/mark\"\nhold = \"r/hold\"\nwipe = \"r/wipe\"\n",
    )
    .unwrap();
    let trusted = f.evoke().arg("trust").output().unwrap();
    assert!(trusted.status.success(), "{}", text(&trusted).1);
    let out = f.evoke().arg("--json").arg("run").arg(&plan).output().unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(6), "{stdout}{stderr}");
    assert!(stderr.contains("`nap`: nap is not installed and active here"), "{stderr}");
    let lines: Vec<serde_json::Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let ended: Vec<(u64, &str, &str, &str)> = lines
        .iter()
        .map(|l| {
            let field = |k: &str| l[k].as_str().unwrap_or_default();
            (l["step"].as_u64().unwrap(), field("reflex"), field("status"), l["why"]["type"].as_str().unwrap())
        })
        .collect();
    assert_eq!(ended, [(1, "mark", "skipped", "said"), (2, "nap", "refused", "no_reflex")], "{stdout}");
    assert_eq!(lines[0]["pinned"]["file"], plan.to_str().unwrap());
    assert_eq!(f.count("mark"), 0, "nothing ran: {}", f.marks());
    // The log holds the lines: `why` explains the refused step from it alone, with its judgments.
    let why = f.evoke().arg("why").output().unwrap();
    assert!(text(&why).0.contains("refused: its reflex is not installed and active here"), "{}", text(&why).0);
    assert!(text(&why).0.contains("nap 0.95"), "the route as the file's answers hold it: {}", text(&why).0);
    // Refused first for another pin (another engine), the steps say nothing: that is not why.
    let recording = std::fs::read_to_string(f.project.join("recording.toml")).unwrap();
    std::fs::write(f.project.join("other.toml"), recording.replacen("id = \"replay\"", "id = \"replay2\"", 1)).unwrap();
    let mut other = Command::new(env!("CARGO_BIN_EXE_evoke"));
    other.current_dir(&f.project).env("EVOKE_HOME", &f.home).stdin(Stdio::null());
    let out = other.args(["--recording", "other.toml", "--json", "run"]).arg(&plan).output().unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(6), "{stdout}{stderr}");
    assert!(stderr.contains("`adapter`") && stdout.is_empty(), "{stdout}{stderr}");
}

#[test]
fn try_save_refuses_sentences_read_from_stdin_and_writes_nothing() {
    let f = fixture(&["mark it and nap it"]);
    let plan = f.home.join("stdin.plan.json");
    let mut evoke = f.evoke();
    evoke.args(["try", "--save"]).arg(&plan).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = evoke.spawn().unwrap();
    use std::io::Write;
    // evoke may refuse before it reads a line: a closed pipe is no failure here.
    let _ = child.stdin.take().unwrap().write_all(b"mark it and nap it\n");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out).1);
    assert!(text(&out).1.contains("--save writes the plan of one sentence"), "{}", text(&out).1);
    assert!(!plan.exists());
}

#[test]
fn without_a_terminal_a_plan_file_whose_later_step_waits_runs_nothing() {
    let sentence = "mark it and wipe it";
    let f = fixture(&[sentence]);
    let plan = saved(&f, sentence);
    let out = f.evoke().arg("run").arg(&plan).output().unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(3), "{stdout}{stderr}");
    assert!(stderr.contains("step 2") && stderr.contains("nothing ran"), "{stderr}");
    assert_eq!((f.count("mark"), f.count("wipe")), (0, 0), "the first write did not run: {}", f.marks());
}

#[test]
fn two_evokes_on_one_plan_file_never_run_a_write_twice() {
    let sentence = "hold it and mark it";
    let f = fixture(&[sentence]);
    let plan = saved(&f, sentence);
    let mut first = f.evoke().arg("run").arg(&plan).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let body = f.wait_for("hold-start", &mut first);
    let second = f.evoke().arg("run").arg(&plan).output().unwrap();
    let (_, stderr) = text(&second);
    assert_eq!(second.status.code(), Some(6), "{stderr}");
    assert!(stderr.contains("another evoke is running this plan"), "{stderr}");
    assert_eq!((f.count("hold-start"), f.count("mark")), (1, 0), "{}", f.marks());
    kill(&mut first, body);
}

#[test]
fn two_resumes_of_one_plan_run_what_was_left_once() {
    let sentence = "mark it and nap and mark it";
    let f = fixture(&[sentence]);
    let mut child = f.evoke().arg(sentence).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let body = f.wait_for("nap-start", &mut child);
    kill(&mut child, body);
    assert_eq!(f.count("mark"), 1, "{}", f.marks());
    // Both start before either can finish: the nap that runs again takes five seconds.
    let mut first = f.evoke().arg("resume").stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let second = f.evoke().arg("resume").output().unwrap();
    let (_, stderr) = text(&second);
    assert_eq!(second.status.code(), Some(6), "{stderr}");
    assert!(stderr.contains("another evoke is running this plan"), "{stderr}");
    assert_eq!(first.wait().unwrap().code(), Some(0));
    assert_eq!(f.count("mark"), 2, "the last write ran once: {}", f.marks());
}

#[test]
fn a_plan_left_in_one_project_is_not_resumed_in_another() {
    let sentence = "mark it and nap and mark it";
    let f = fixture(&[sentence]);
    let mut child = f.evoke().arg(sentence).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let body = f.wait_for("nap-start", &mut child);
    kill(&mut child, body);
    // A second project with the same reflexes and the same home.
    let other = f.project.with_file_name("other");
    std::fs::create_dir_all(&other).unwrap();
    for name in ["evoke.toml", "recording.toml"] {
        std::fs::copy(f.project.join(name), other.join(name)).unwrap();
    }
    let copied = Command::new("cp").arg("-r").arg(f.project.join("r")).arg(&other).status().unwrap();
    assert!(copied.success());
    let in_other = || {
        let mut command = f.evoke();
        command.current_dir(&other);
        command
    };
    assert!(in_other().arg("trust").output().unwrap().status.success());
    let out = in_other().arg("resume").output().unwrap();
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("nothing to resume"), "{stderr}");
    // Said there, the same sentence is a request of its own there, not the other project's plan.
    let said = in_other().arg(sentence).output().unwrap();
    assert_eq!(said.status.code(), Some(0), "{}", text(&said).1);
    assert!(!text(&said).1.contains("ran before"), "{}", text(&said).1);
    assert_eq!(f.count("mark"), 3, "{}", f.marks());
}

#[test]
fn a_plan_file_whose_journal_is_gone_asks_before_any_write() {
    let sentence = "mark it and mark it again";
    let f = fixture(&[sentence]);
    let plan = saved(&f, sentence);
    let ran = f.evoke().arg("run").arg(&plan).output().unwrap();
    assert_eq!(ran.status.code(), Some(0), "{}", text(&ran).1);
    assert_eq!(f.count("mark"), 2);
    // Its journal removed, as pruning or a person might: which writes ran is no longer known.
    let weave = f.home.join("state").join("weave");
    let mut removed = 0;
    for entry in std::fs::read_dir(&weave).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("f-") && name.ends_with(".json") {
            std::fs::remove_file(entry.path()).unwrap();
            removed += 1;
        }
    }
    assert_eq!(removed, 1, "one plan file, one journal");
    let again = f.evoke().arg("--json").arg("run").arg(&plan).output().unwrap();
    let (stdout, stderr) = text(&again);
    assert_eq!(again.status.code(), Some(3), "{stdout}{stderr}");
    assert_eq!(f.count("mark"), 2, "nothing ran again: {}", f.marks());
    let first: serde_json::Value = serde_json::from_str(stdout.lines().next().unwrap()).unwrap();
    assert_eq!(first["outcome"], "confirm", "{first}");
    assert_eq!(first["because"][0]["type"], "no_journal", "{first}");
}

#[test]
fn a_plan_file_whose_journal_outlives_many_sentences_runs_nothing_twice() {
    let sentence = "mark it and mark it again";
    let other = "nap and mark it";
    let f = fixture(&[sentence, other]);
    let plan = saved(&f, sentence);
    assert_eq!(f.evoke().arg("run").arg(&plan).output().unwrap().status.code(), Some(0));
    assert_eq!(f.count("mark"), 2);
    // Past the sentences' bound of journals, then one more sentence: the oldest sentences' go.
    let state = f.home.join("state").join("weave");
    for i in 0..70 {
        std::fs::write(state.join(format!("s-{i:064x}.json")), "{}").unwrap();
    }
    let said = f.evoke().arg(other).output().unwrap();
    assert_eq!(said.status.code(), Some(0), "{}", text(&said).1);
    assert_eq!(f.count("mark"), 3);
    let again = f.evoke().arg("run").arg(&plan).output().unwrap();
    assert_eq!(again.status.code(), Some(0), "{}", text(&again).1);
    assert!(text(&again).1.contains("ran before"), "{}", text(&again).1);
    assert_eq!(f.count("mark"), 3, "the file's done writes did not run again: {}", f.marks());
}

#[test]
fn a_plan_file_edited_anywhere_is_refused_at_its_seal() {
    let sentence = "mark it and mark it again";
    let f = fixture(&[sentence]);
    let plan = saved(&f, sentence);
    let written = std::fs::read_to_string(&plan).unwrap();
    // Raised answers with a plan to match would pass every digest the file could hold; the seal holds.
    let edited = written.replacen("0.9", "0.999", 1);
    assert_ne!(edited, written);
    std::fs::write(&plan, &edited).unwrap();
    let out = f.evoke().arg("run").arg(&plan).output().unwrap();
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(6), "{stderr}");
    assert!(stderr.contains("line 2: `seal`") && stderr.contains("changed since evoke wrote it"), "{stderr}");
    assert!(!stderr.contains("\\u{a}") && !stderr.contains("\\u{A}"), "no escaped line break: {stderr}");
    assert_eq!(stderr.matches("evoke try --save").count(), 1, "the fix once: {stderr}");
    assert_eq!(f.count("mark"), 0);
}

#[test]
fn a_plan_file_from_elsewhere_is_decided_again_and_asks_before_each_write() {
    let sentence = "mark it and mark it again";
    let f = fixture(&[sentence]);
    // Written under another home: another key.
    let elsewhere = f.home.with_file_name("elsewhere");
    let at_elsewhere = || {
        let mut command = f.evoke();
        command.env("EVOKE_HOME", &elsewhere);
        command
    };
    assert!(at_elsewhere().arg("trust").output().unwrap().status.success());
    let plan = f.home.with_file_name("theirs.plan.json");
    let saved = at_elsewhere().args(["try", "--save", plan.to_str().unwrap(), sentence]).output().unwrap();
    assert_eq!(saved.status.code(), Some(0), "{}", text(&saved).1);
    let out = f.evoke().arg("run").arg(&plan).output().unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(3), "{stdout}{stderr}");
    assert!(stderr.contains("written elsewhere"), "{stderr}");
    assert_eq!(f.count("mark"), 0, "{}", f.marks());
}

#[test]
fn a_value_bound_from_an_earlier_result_meets_the_arguments_range() {
    let root = tempfile::tempdir().unwrap();
    let project = root.path().join("project");
    let marks = root.path().join("marks");
    node_project(
        &project,
        &[
            (
                "probe",
                "reflex = 1\ndescription = \"Read the level.\"\neffect = \"read\"\nconfirm = \"Read it?\"\nrun = \"probe.mjs\"\n\n[yields.level]\nkind = \"number\"\n",
                "export default function probe() { return { text: \"level 5000\", data: { level: 5000 } }; }\n"
                    .to_string(),
            ),
            (
                "volume",
                "reflex = 1\ndescription = \"Set the volume.\"\neffect = \"write\"\nconfirm = \"Set it to {level}?\"\nrun = \"volume.mjs\"\n\n[args.level]\nask = \"What level?\"\npick = \"number\"\nrange = [0, 100]\n",
                format!(
                    "import {{ appendFileSync }} from \"node:fs\";\nexport default function volume({{ level }}) {{ appendFileSync({:?}, `volume ${{level}}\\n`); return `volume ${{level}}`; }}\n",
                    marks.display().to_string()
                ),
            ),
        ],
    );
    std::fs::write(
        project.join("recording.toml"),
        r#"id = "replay"

[gate]
route = 0.5
read = 0.6
write = 0.8

[answers."read the level and set the volume to it"]
route = { probe = 0.95, volume = 0.02, none = 0.03 }
"weave.cut_15_18" = { yes = 0.9 }

[answers."read the level"]
route = { probe = 0.95, volume = 0.02, none = 0.03 }
"fits.probe" = { yes = 0.9 }
"fits.volume" = { yes = 0.05 }

[answers."set the volume to it"]
route = { volume = 0.95, probe = 0.02, none = 0.03 }
"fits.volume" = { yes = 0.9 }
"fits.probe" = { yes = 0.05 }
"#,
    )
    .unwrap();
    let home = root.path().join("home");
    let evoke = || command_in(&project, &home);
    assert!(evoke().arg("trust").output().unwrap().status.success());
    let out = evoke()
        .args(["--recording", "recording.toml", "--json", "read the level and set the volume to it"])
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(6), "{stdout}{stderr}");
    assert!(!marks.exists(), "the volume never ran: {}", std::fs::read_to_string(&marks).unwrap_or_default());
    let lines: Vec<serde_json::Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert_eq!(lines[1]["status"], "refused", "{}", lines[1]);
    let why = lines[1]["why"]["message"].as_str().unwrap_or_default();
    assert!(why.contains("outside its range"), "{}", lines[1]);
}

#[test]
fn saving_the_same_plan_again_keeps_what_its_file_already_ran() {
    let sentence = "mark it and mark it again";
    let f = fixture(&[sentence]);
    let plan = saved(&f, sentence);
    assert_eq!(f.evoke().arg("run").arg(&plan).output().unwrap().status.code(), Some(0));
    assert_eq!(f.count("mark"), 2);
    // A second save of the same plan, to another name: the same seal, the same journal.
    let copy = f.home.join("copy.plan.json");
    let out = f.evoke().args(["try", "--save", copy.to_str().unwrap(), sentence]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    let again = f.evoke().arg("run").arg(&plan).output().unwrap();
    assert_eq!(again.status.code(), Some(0), "{}", text(&again).1);
    assert_eq!(f.count("mark"), 2, "nothing ran twice: {}", f.marks());
}

#[test]
fn a_plan_file_posing_as_from_elsewhere_asks_before_each_write_every_time() {
    let sentence = "mark it and mark it again";
    let f = fixture(&[sentence]);
    let plan = saved(&f, sentence);
    assert_eq!(f.evoke().arg("run").arg(&plan).output().unwrap().status.code(), Some(0));
    assert_eq!(f.count("mark"), 2);
    // The key id changed, the MAC kept: a file from elsewhere, which must not find this file's journal.
    let written = std::fs::read_to_string(&plan).unwrap();
    let line = written.lines().nth(1).unwrap();
    let id = line.split(':').nth(2).unwrap();
    assert_eq!(id.len(), 16, "{line}");
    let forged = f.home.join("forged.plan.json");
    std::fs::write(&forged, written.replacen(id, "0000000000000000", 1)).unwrap();
    for _ in 0..2 {
        let out = f.evoke().arg("run").arg(&forged).output().unwrap();
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(3), "{stdout}{stderr}");
        assert_eq!(f.count("mark"), 2, "{}", f.marks());
    }
}

#[test]
fn a_plan_file_whose_journal_is_gone_asks_again_after_a_run_that_ran_nothing() {
    let sentence = "mark it and mark it again";
    let f = fixture(&[sentence]);
    let plan = saved(&f, sentence);
    let weave = f.home.join("state").join("weave");
    for entry in std::fs::read_dir(&weave).unwrap().flatten() {
        if entry.file_name().to_string_lossy().ends_with(".json") {
            std::fs::remove_file(entry.path()).unwrap();
        }
    }
    for _ in 0..2 {
        let out = f.evoke().arg("run").arg(&plan).output().unwrap();
        assert_eq!(out.status.code(), Some(3), "{}", text(&out).1);
        assert_eq!(f.count("mark"), 0, "{}", f.marks());
    }
    // Nothing ran, so nothing was written that a later run could trust.
    let journals = std::fs::read_dir(&weave)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".json"))
        .count();
    assert_eq!(journals, 0);
}

#[test]
fn at_a_terminal_a_declined_plan_file_without_its_journal_still_asks_the_next_time() {
    let sentence = "mark it and mark it again";
    let f = fixture(&[sentence]);
    let plan = saved(&f, sentence);
    let weave = f.home.join("state").join("weave");
    for entry in std::fs::read_dir(&weave).unwrap().flatten() {
        if entry.file_name().to_string_lossy().ends_with(".json") {
            std::fs::remove_file(entry.path()).unwrap();
        }
    }
    // At a terminal: the same command, its input the terminal's.
    let mut command = Command::new(env!("CARGO_BIN_EXE_evoke"));
    command.current_dir(&f.project).env("EVOKE_HOME", &f.home).env("NO_COLOR", "1");
    command.args(["--recording", "recording.toml", "run"]).arg(&plan);
    let mut session = expectrl::Session::spawn(command).unwrap();
    session.set_expect_timeout(Some(Duration::from_secs(30)));
    session.expect("[y/N] ").unwrap();
    session.send_line("n").unwrap();
    session.expect(expectrl::Eof).unwrap();
    assert_eq!(f.count("mark"), 0);
    let out = f.evoke().arg("run").arg(&plan).output().unwrap();
    assert_eq!(out.status.code(), Some(3), "a decline left nothing to trust: {}", text(&out).1);
    assert_eq!(f.count("mark"), 0, "{}", f.marks());
}

#[test]
fn without_a_terminal_a_destructive_step_bound_to_an_earlier_write_stops_the_plan_before_it() {
    let root = tempfile::tempdir().unwrap();
    let project = root.path().join("project");
    let marks = root.path().join("marks");
    let m = format!("{:?}", marks.display().to_string());
    node_project(
        &project,
        &[
        (
            "probe",
            "reflex = 1\ndescription = \"Measure the level.\"\neffect = \"write\"\nconfirm = \"Measure it?\"\nrun = \"probe.mjs\"\n\n[yields.level]\nkind = \"number\"\n".to_string(),
            format!("import {{ appendFileSync }} from \"node:fs\";\nexport default function probe() {{ appendFileSync({m}, \"probe\\n\"); return {{ text: \"level 50\", data: {{ level: 50 }} }}; }}\n"),
        ),
        (
            "volume",
            "reflex = 1\ndescription = \"Set the volume.\"\neffect = \"destructive\"\nconfirm = \"Set it to {level}?\"\nrun = \"volume.mjs\"\n\n[args.level]\nask = \"What level?\"\npick = \"number\"\nrange = [0, 100]\n".to_string(),
            format!("import {{ appendFileSync }} from \"node:fs\";\nexport default function volume({{ level }}) {{ appendFileSync({m}, `volume ${{level}}\\n`); return `volume ${{level}}`; }}\n"),
        ),
        ],
    );
    std::fs::write(
        project.join("recording.toml"),
        r#"id = "replay"

[gate]
route = 0.5
read = 0.6
write = 0.8

[answers."read the level and set the volume to it"]
route = { probe = 0.95, volume = 0.02, none = 0.03 }
"weave.cut_15_18" = { yes = 0.9 }

[answers."read the level"]
route = { probe = 0.95, volume = 0.02, none = 0.03 }
"fits.probe" = { yes = 0.9 }
"fits.volume" = { yes = 0.05 }

[answers."set the volume to it"]
route = { volume = 0.95, probe = 0.02, none = 0.03 }
"fits.volume" = { yes = 0.9 }
"fits.probe" = { yes = 0.05 }
"#,
    )
    .unwrap();
    let home = root.path().join("home");
    let evoke = || command_in(&project, &home);
    assert!(evoke().arg("trust").output().unwrap().status.success());
    let out =
        evoke().args(["--recording", "recording.toml", "read the level and set the volume to it"]).output().unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(3), "{stdout}{stderr}");
    assert!(stderr.contains("nothing ran"), "{stderr}");
    assert!(!marks.exists(), "the first write did not run: {}", std::fs::read_to_string(&marks).unwrap_or_default());
}

#[test]
fn a_plan_saved_from_cached_answers_is_byte_for_byte_the_plan_saved_from_fresh_ones() {
    // The example project, decided by `local`, whose answers the cache keeps.
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap();
    let root = tempfile::tempdir().unwrap();
    let project = root.path().join("home");
    copy_tree(&repo.join("docs/examples/home"), &project);
    let toml = std::fs::read_to_string(project.join("evoke.toml")).unwrap();
    let shipped = repo.join("reflexes");
    let toml = toml.replace("\"../../../reflexes/", &format!("\"{}/", shipped.display()));
    std::fs::write(project.join("evoke.toml"), toml).unwrap();
    let home = root.path().join("evoke-home");
    let evoke = || command_in(&project, &home);
    assert!(evoke().arg("trust").output().unwrap().status.success());
    let sentence = "turn on the kitchen lights, then set a timer for 5 minutes";
    let mut saved = Vec::new();
    for name in ["fresh.plan.json", "cached.plan.json"] {
        let out = evoke().args(["try", "--save", name, sentence]).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
        saved.push(std::fs::read_to_string(project.join(name)).unwrap());
    }
    // Every probability read back from the cache is the very number computed: the same plan, the same seal.
    assert_eq!(saved[0], saved[1]);
}

/// A project of `mark` (a write with no value), `paint` (a write of a `color`, an option, by argv) and
/// `note` (a write of a text, `what`, by argv), answered by a recording for `sentence`, cut at every `and`;
/// `paint.color` reads the part's color word where it has one, and is unstated otherwise; `note.what` is
/// unstated.
fn painting(sentence: &str) -> Fixture {
    let root = tempfile::tempdir().unwrap();
    let project = root.path().join("project");
    let marks = root.path().join("marks");
    let m = marks.display().to_string();
    reflex(&project.join("r"), "mark", "write", &format!("echo mark >> {m}; echo marked"));
    let dir = project.join("r").join("paint");
    std::fs::create_dir_all(&dir).unwrap();
    let manifest = format!(
        "reflex = 1\ndescription = \"Paint it a color.\"\neffect = \"write\"\nconfirm = \"Paint it {{color}}?\"\n\
         run = [\"sh\", \"-c\", {:?}, \"sh\", \"{{color}}\"]\n\n[args.color]\nask = \"Which color?\"\n\
         options.red = \"Red.\"\noptions.blue = \"Blue.\"\n",
        format!("echo paint $1 >> {m}; echo painted")
    );
    std::fs::write(dir.join("reflex.toml"), manifest).unwrap();
    let dir = project.join("r").join("note");
    std::fs::create_dir_all(&dir).unwrap();
    let manifest = format!(
        "reflex = 1\ndescription = \"Note a thing down.\"\neffect = \"write\"\nconfirm = \"Note {{what}}?\"\n\
         run = [\"sh\", \"-c\", {:?}, \"sh\", \"{{what}}\"]\n\n[args.what]\nask = \"What?\"\npick = \"text\"\n",
        format!("echo note $1 >> {m}; echo noted")
    );
    std::fs::write(dir.join("reflex.toml"), manifest).unwrap();
    std::fs::write(
        project.join("evoke.toml"),
        "[reflexes]\nmark = \"r/mark\"\npaint = \"r/paint\"\nnote = \"r/note\"\n",
    )
    .unwrap();
    let route = |top: &str| {
        let p = |name: &str| if name == top { "0.95" } else { "0.01" };
        format!("route = {{ mark = {}, paint = {}, note = {}, none = 0.03 }}\n", p("mark"), p("paint"), p("note"))
    };
    let first = sentence.split(' ').next().unwrap();
    let mut text = String::from("id = \"replay\"\n\n[gate]\nroute = 0.5\nread = 0.6\nwrite = 0.8\n\n");
    text.push_str(&format!("[answers.{sentence:?}]\n{}", route(first)));
    for (at, _) in sentence.match_indices(" and ") {
        let start = sentence[..at + 1].chars().count();
        text.push_str(&format!("\"weave.cut_{start}_{}\" = {{ yes = 0.9 }}\n", start + 3));
    }
    let mut seen = Vec::new();
    for part in sentence.split(" and ") {
        if seen.contains(&part) {
            continue;
        }
        seen.push(part);
        let name = part.split(' ').find(|w| ["mark", "paint", "note"].contains(w)).unwrap();
        text.push_str(&format!("\n[answers.{part:?}]\n{}", route(name)));
        for other in ["mark", "paint", "note"] {
            text.push_str(&format!("\"fits.{other}\" = {{ yes = {} }}\n", if other == name { 0.9 } else { 0.05 }));
        }
        if name == "paint" {
            let said = |color: &str| if part.contains(color) { "0.9" } else { "0.05" };
            let unstated = if part.contains("red") || part.contains("blue") { "0.05" } else { "0.9" };
            text.push_str(&format!(
                "\"paint.color\" = {{ red = {}, blue = {}, unstated = {unstated} }}\n",
                said("red"),
                said("blue")
            ));
        }
        if name == "note" {
            text.push_str("\"note.what\" = { unstated = 1.0 }\n");
        }
    }
    std::fs::write(project.join("recording.toml"), text).unwrap();
    let home = root.path().join("home");
    let fixture = Fixture { project, home, marks, _root: root };
    let trusted = fixture.evoke().arg("trust").output().unwrap();
    assert!(trusted.status.success(), "{}", String::from_utf8_lossy(&trusted.stderr));
    fixture
}

/// The command after `to answer, run: `, as the shell would split it.
fn printed_command(stderr: &str) -> Vec<String> {
    let line = stderr.lines().find_map(|l| l.strip_prefix("to answer, run: ")).unwrap_or_else(|| panic!("{stderr}"));
    shlex::split(line).unwrap_or_else(|| panic!("the command does not split as the shell reads it: {line}"))
}

/// Runs a printed command exactly as printed, without a terminal, from the project (where the person was).
fn run_printed(f: &Fixture, words: &[String]) -> Output {
    assert_eq!(words[0], "evoke", "{words:?}");
    Command::new(env!("CARGO_BIN_EXE_evoke"))
        .args(&words[1..])
        .current_dir(&f.project)
        .env("EVOKE_HOME", &f.home)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

const PAINTING: &str = "mark it and paint it and paint it blue";

#[test]
fn the_command_a_woven_ask_prints_runs_the_whole_plan_with_the_answer() {
    let f = painting(PAINTING);
    let out = f.evoke().arg(PAINTING).output().unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(3), "{stdout}{stderr}");
    assert_eq!(f.marks(), "", "nothing ran before the answer");
    assert!(stderr.contains("step 2 (paint) needs an answer"), "{stderr}");
    // The value put in place of its placeholder, and the command run as printed: the whole plan runs, once.
    let printed = printed_command(&stderr);
    let answered: Vec<String> = printed.iter().map(|w| w.replace("<red|blue>", "red")).collect();
    assert_ne!(answered, printed, "the command holds the placeholder: {printed:?}");
    let out = run_printed(&f, &answered);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{printed:?}\n{stdout}{stderr}");
    assert_eq!(f.marks(), "mark\npaint red\npaint blue\n", "every step of the plan ran once, in order");
    // Run again, it is the same request: no step runs twice.
    let out = run_printed(&f, &answered);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    assert_eq!(f.marks(), "mark\npaint red\npaint blue\n");
    // The sentence said again is a new request: a plan file of its own, which runs whole again.
    let again = printed_command(&text(&f.evoke().arg(PAINTING).output().unwrap()).1);
    assert_ne!(again, printed, "a new request has a plan file of its own");
    let again: Vec<String> = again.iter().map(|w| w.replace("<red|blue>", "blue")).collect();
    let out = run_printed(&f, &again);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    assert_eq!(f.marks(), "mark\npaint red\npaint blue\nmark\npaint blue\npaint blue\n");
}

#[test]
fn a_plan_file_run_without_its_answer_prints_the_same_file_and_a_bad_answer_runs_nothing() {
    let f = painting(PAINTING);
    let out = f.evoke().arg(PAINTING).output().unwrap();
    let printed = printed_command(&text(&out).1);
    let file = printed.iter().find(|w| w.ends_with(".json")).unwrap().clone();
    let with = |assigned: &[&str]| {
        let mut words: Vec<String> = vec!["evoke".into()];
        words.extend(printed[1..].iter().filter(|w| !w.contains('=')).cloned());
        words.extend(assigned.iter().map(|a| a.to_string()));
        run_printed(&f, &words)
    };
    for (assigned, says) in [
        (&["2.color=green"][..], "not an option of `color`"),
        (&["1.color=red"][..], "mark has no argument `color`"),
        (&["4.color=red"][..], "there is no step 4"),
        (&["3.color=red"][..], "already holds `color`"),
        (&["2.color=red", "2.color=blue"][..], "given twice"),
        (&["2.colour=red"][..], "paint has no argument `colour`"),
        (&["color=red"][..], "names no step"),
        (&["2.color"][..], "has no `=`"),
    ] {
        let out = with(assigned);
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{assigned:?}: {stdout}{stderr}");
        assert!(stderr.contains(says) && stderr.contains("nothing ran"), "{assigned:?}: {stderr}");
        assert!(stderr.contains(assigned[assigned.len() - 1].split('=').next().unwrap()), "{stderr}");
        assert!(stderr.contains("= fix:"), "{assigned:?}: {stderr}");
        assert_eq!(f.marks(), "", "{assigned:?} ran nothing");
    }
    // The file run without its answer stops again, naming the same file.
    let out = with(&[]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(3), "{stdout}{stderr}");
    assert_eq!(printed_command(&stderr), printed, "the same command again");
    assert!(printed.contains(&file));
    assert_eq!(f.marks(), "");
}

#[test]
fn an_answer_a_program_would_read_as_its_option_is_refused_before_any_step_runs() {
    let sentence = "mark it and write a note";
    let f = painting(sentence);
    let out = f.evoke().arg(sentence).output().unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(3), "{stdout}{stderr}");
    let printed = printed_command(&stderr);
    let refused: Vec<String> = printed.iter().map(|w| w.replace("<text>", "-rf")).collect();
    assert_ne!(refused, printed, "{printed:?}");
    let out = run_printed(&f, &refused);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(stderr.contains("2.what=-rf") && stderr.contains("starts with `-`"), "{stderr}");
    assert_eq!(f.marks(), "", "nothing ran, not even the step before");
    let answered: Vec<String> = printed.iter().map(|w| w.replace("<text>", "the milk; and more")).collect();
    let out = run_printed(&f, &answered);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    assert_eq!(f.marks(), "mark\nnote the milk; and more\n");
}

/// The weave transcript's project in a temporary folder, its contact book's body replaced.
fn weave_project_with_contact(body: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let transcript = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../transcripts/weave");
    let project = root.path().join("project");
    copy_tree(&transcript.join("project"), &project);
    std::fs::copy(transcript.join("recording.toml"), project.join("recording.toml")).unwrap();
    std::fs::write(project.join("reflexes/contact/contact.mjs"), body).unwrap();
    let home = root.path().join("home");
    let trusted = Command::new(env!("CARGO_BIN_EXE_evoke"))
        .current_dir(&project)
        .env("EVOKE_HOME", &home)
        .arg("trust")
        .output()
        .unwrap();
    assert!(trusted.status.success(), "{}", text(&trusted).1);
    (root, project, home)
}

/// `look up dana's address and email them` run under `--json` in the weave transcript's project, its
/// contact book's body `body`: the run and its lines.
fn look_up_and_email(body: &str) -> (Output, Vec<serde_json::Value>) {
    let (_root, project, home) = weave_project_with_contact(body);
    let out = Command::new(env!("CARGO_BIN_EXE_evoke"))
        .current_dir(&project)
        .env("EVOKE_HOME", &home)
        .env("NO_COLOR", "1")
        .args(["--json", "--recording", "recording.toml", "look up dana's address and email them"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let lines = text(&out).0.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    (out, lines)
}

#[test]
fn a_step_whose_source_gave_no_value_of_its_field_says_nothing_to_take() {
    let body = "export default function contact({ name }) {\n  return { text: name, data: { phone: \"555\" } };\n}\n";
    let (out, lines) = look_up_and_email(body);
    let (stdout, stderr) = text(&out);
    assert_eq!(lines.len(), 2, "{stdout}{stderr}");
    assert_eq!(lines[0]["status"], "ran", "{stdout}");
    assert_eq!(lines[1]["status"], "refused", "{stdout}");
    assert_eq!(lines[1]["why"], serde_json::json!({ "type": "nothing_to_take", "from": 1 }), "{stdout}");
    assert_ne!(out.status.code(), Some(0));
}

#[test]
fn a_step_whose_source_gave_a_value_longer_than_any_call_holds_says_too_large() {
    let body = "export default function contact({ name }) {\n  return { text: name, data: { email: \"x\".repeat(2001) } };\n}\n";
    let (out, lines) = look_up_and_email(body);
    let (stdout, stderr) = text(&out);
    assert_eq!(lines.len(), 2, "{stdout}{stderr}");
    assert_eq!(lines[0]["status"], "ran", "{stdout}");
    assert_eq!(lines[1]["status"], "refused", "{stdout}");
    assert_eq!(lines[1]["why"], serde_json::json!({ "type": "too_large", "from": 1 }), "{stdout}");
    assert_ne!(out.status.code(), Some(0));
}

#[test]
fn ctrl_c_during_a_step_ends_it_cancelled_and_skips_the_rest() {
    let sentence = "mark it and nap and mark it again";
    let f = fixture(&[sentence]);
    let mut child = f.evoke().args(["--json", sentence]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    f.wait_for("nap-start", &mut child);
    let interrupted = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(interrupted.success());
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = text(&out);
    let lines: Vec<serde_json::Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3, "{stdout}{stderr}");
    assert_eq!(lines[0]["status"], "ran", "{stdout}");
    assert_eq!(lines[1]["status"], "failed", "{stdout}");
    assert_eq!(lines[1]["why"], serde_json::json!({ "type": "cancelled" }), "{stdout}");
    assert!(lines[1].get("cancelled").is_none(), "said as its status and why instead: {stdout}");
    assert_eq!(lines[2]["status"], "skipped", "{stdout}");
    assert_eq!(f.count("mark"), 1, "the step after the cancelled one never ran: {}", f.marks());
    assert_ne!(out.status.code(), Some(0));
}

#[test]
fn an_ask_offers_the_values_this_session_s_results_yielded_of_its_kind() {
    let root = tempfile::tempdir().unwrap();
    let project = root.path().join("project");
    node_project(
        &project,
        &[
            (
                "probe",
                "reflex = 1\ndescription = \"Read the level.\"\neffect = \"read\"\nconfirm = \"Read it?\"\nrun = \"probe.mjs\"\n\n[yields.level]\nkind = \"number\"\n",
                "export default function probe() { return { text: \"level 55\", data: { level: 55 } }; }\n",
            ),
            (
                "volume",
                "reflex = 1\ndescription = \"Set the volume.\"\neffect = \"write\"\nconfirm = \"Set it to {level}?\"\nrun = \"volume.mjs\"\n\n[args.level]\nask = \"What level?\"\npick = \"number\"\nrange = [0, 100]\n",
                "export default function volume({ level }) { return `volume ${level}`; }\n",
            ),
        ],
    );
    std::fs::write(
        project.join("recording.toml"),
        r#"id = "replay"

[gate]
route = 0.5
read = 0.6
write = 0.8

[answers."read the level"]
route = { probe = 0.95, volume = 0.02, none = 0.03 }
"fits.probe" = { yes = 0.9 }
"fits.volume" = { yes = 0.05 }

[answers."set the volume"]
route = { volume = 0.95, probe = 0.02, none = 0.03 }
"fits.volume" = { yes = 0.9 }
"fits.probe" = { yes = 0.05 }
"volume.level" = { unstated = 1.0 }
"#,
    )
    .unwrap();
    let home = root.path().join("home");
    let evoke = || command_in(&project, &home);
    assert!(evoke().arg("trust").stdin(Stdio::null()).output().unwrap().status.success());
    let filter = |lines: &str| {
        let mut child = evoke()
            .args(["--recording", "recording.toml", "--json"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(child.stdin.as_mut().unwrap(), lines.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        let (stdout, stderr) = text(&out);
        let lines: Vec<serde_json::Value> =
            stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|_| panic!("{l}\n{stderr}"))).collect();
        lines
    };
    let lines = filter("read the level\nset the volume\n");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0]["outcome"], "run", "{}", lines[0]);
    assert_eq!(lines[1]["outcome"], "ask", "{}", lines[1]);
    assert_eq!(lines[1]["missing"][0]["choices"]["recent"], serde_json::json!(["55"]), "{}", lines[1]);
    // A session of its own recalls nothing.
    let alone = filter("set the volume\n");
    assert_eq!(alone[0]["outcome"], "ask", "{}", alone[0]);
    assert!(alone[0]["missing"][0]["choices"].get("recent").is_none(), "{}", alone[0]);
}
