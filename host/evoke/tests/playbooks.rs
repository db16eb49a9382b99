//! A playbook run for real: its plan shown whole and confirmed once, then run step by step; a `when` step
//! that its source's value passes by; a failed source that never lets its branch run; the step journal
//! across a SIGKILL between two writes, and `evoke resume`; a plan file refused once the playbook changed.

mod common;

use common::{copy_tree, kill, text};

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// A project whose bodies say what they do in `marks`: `probe` (a read that yields the `state` its file
/// `switch` holds, `off` without one, and fails when `probe-fails` exists), `mark` (a write that marks its `what`), and
/// `hold` (a write that sleeps); the playbook `night` over them, answered by a recording.
struct Fixture {
    _root: tempfile::TempDir,
    project: PathBuf,
    home: PathBuf,
    marks: PathBuf,
}

const NIGHT: &str = r#"playbook = 1
description = "The night routine for the tests."

[examples]
"night" = true

[[steps]]
call = "probe"

[[steps]]
call = "mark"
args = { what = "lamp" }
when = { step = 1, field = "state", is = "on" }

[[steps]]
call = "mark"
args = { what = "door" }

[[steps]]
call = "hold"

[[steps]]
call = "mark"
args = { what = "blinds" }
"#;

const TIDY: &str = r#"playbook = 1
description = "Tidy one thing away, for the tests."

[slots.what]
ask = "Tidy what?"
options.lamp = "The lamp."
options.door = "The door."

[examples]
"tidy the door" = { what = "door" }

[[steps]]
call = "mark"
args = { what = "{what}" }
"#;

const CLEAR: &str = r#"playbook = 1
description = "Mark the door, then wipe: a routine with a destructive step, for the tests."

[examples]
"clear" = true

[[steps]]
call = "mark"
args = { what = "door" }

[[steps]]
call = "wipe"
"#;

const NAMES: [&str; 7] = ["probe", "mark", "hold", "wipe", "night", "tidy", "clear"];

/// The answers to `night`, and to `tidy up`, which picks `tidy` without saying what.
fn recording() -> String {
    let mut text = String::from("id = \"replay\"\n\n[gate]\nroute = 0.5\nread = 0.6\nwrite = 0.8\n\n");
    for (sentence, top) in [("night", "night"), ("tidy up", "tidy"), ("clear", "clear"), ("remove night", "night")] {
        text.push_str(&format!("[answers.{sentence:?}]\nroute = {{ "));
        let route: Vec<String> =
            NAMES.iter().map(|n| format!("{n} = {}", if *n == top { "0.95" } else { "0.005" })).collect();
        text.push_str(&route.join(", "));
        text.push_str(", none = 0.02 }\n");
        for name in NAMES {
            text.push_str(&format!("\"fits.{name}\" = {{ yes = {} }}\n", if name == top { 0.95 } else { 0.02 }));
        }
        if top == "tidy" {
            text.push_str("\"tidy.what\" = { lamp = 0.02, door = 0.02, unstated = 0.96 }\n");
        }
        text.push('\n');
    }
    text
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn fixture() -> Fixture {
    let root = tempfile::tempdir().unwrap();
    let project = root.path().join("project");
    let marks = root.path().join("marks");
    let m = marks.display().to_string();
    let argv = |name: &str, script: &str, args: &str| {
        format!(
            "reflex = 1\ndescription = \"{name} for the playbook tests.\"\neffect = \"write\"\nconfirm = \"Do {name}?\"\n\
             run = [\"sh\", \"-c\", {script:?}{args}]\n"
        )
    };
    let mark = argv("mark", &format!("echo mark-$0 $$ >> {m}; echo marked $0"), ", \"{what}\"")
        + "\n[args.what]\nask = \"What?\"\noptions.lamp = \"The lamp.\"\noptions.door = \"The door.\"\n\
           options.blinds = \"The blinds.\"\n";
    write(&project.join("r/mark/reflex.toml"), &mark);
    write(
        &project.join("r/hold/reflex.toml"),
        &argv("hold", &format!("echo hold-start $$ >> {m}; sleep 5; echo hold-end >> {m}; echo held"), ""),
    );
    write(
        &project.join("r/probe/reflex.toml"),
        "reflex = 1\ndescription = \"probe for the playbook tests.\"\neffect = \"read\"\nconfirm = \"Probe?\"\n\
         run = \"probe.mjs\"\n\n[yields.state]\nkind = \"text\"\n",
    );
    // Read from the reflex's own directory, the one place a file body reads without a grant.
    let switch = project.join("r/probe/switch").display().to_string();
    let fails = project.join("r/probe/probe-fails").display().to_string();
    write(
        &project.join("r/probe/probe.mjs"),
        &format!(
            "import {{ existsSync, readFileSync }} from \"node:fs\";\n\
             export default function probe() {{\n\
             if (existsSync({fails:?})) throw new Error(\"the probe failed\");\n\
             const state = existsSync({switch:?}) ? readFileSync({switch:?}, \"utf8\").trim() : \"off\";\n\
             return {{ text: `probed ${{state}}`, data: {{ state }} }};\n}}\n"
        ),
    );
    write(&project.join("playbooks/night/playbook.toml"), NIGHT);
    write(&project.join("playbooks/tidy/playbook.toml"), TIDY);
    write(&project.join("playbooks/clear/playbook.toml"), CLEAR);
    let wipe = argv("wipe", &format!("echo wipe $$ >> {m}; echo wiped"), "").replace("\"write\"", "\"destructive\"");
    write(&project.join("r/wipe/reflex.toml"), &wipe);
    write(
        &project.join("evoke.toml"),
        "[reflexes]\nprobe = \"r/probe\"\nmark = \"r/mark\"\nhold = \"r/hold\"\nwipe = \"r/wipe\"\n\n\
         [playbooks]\nnight = \"playbooks/night\"\ntidy = \"playbooks/tidy\"\nclear = \"playbooks/clear\"\n",
    );
    write(&project.join("recording.toml"), &recording());
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

    /// evoke at a terminal, answering its `[y/N]` questions in turn; what the terminal read.
    fn at_terminal(&self, args: &[&str], answers: &[&str]) -> String {
        self.at_terminal_ends(args, answers).0
    }

    /// What a terminal saw, answering each `[y/N]` in turn, and the exit code. What the process said
    /// last can be lost when its terminal closes; its exit code cannot.
    fn at_terminal_ends(&self, args: &[&str], answers: &[&str]) -> (String, i32) {
        let mut command = Command::new(env!("CARGO_BIN_EXE_evoke"));
        command.current_dir(&self.project).env("EVOKE_HOME", &self.home).env("NO_COLOR", "1");
        command.args(["--recording", "recording.toml"]).args(args);
        let mut session = expectrl::Session::spawn(command).unwrap();
        session.set_expect_timeout(Some(Duration::from_secs(60)));
        let mut seen = String::new();
        for answer in answers {
            let found = session.expect("[y/N] ").unwrap_or_else(|e| panic!("{e}: {seen}"));
            seen.push_str(&String::from_utf8_lossy(found.before()));
            seen.push_str("[y/N] ");
            session.send_line(answer).unwrap();
        }
        let rest = session.expect(expectrl::Eof).unwrap();
        // At the end of the stream the match is the rest of it.
        seen.push_str(&String::from_utf8_lossy(rest.as_bytes()));
        match session.wait().unwrap() {
            expectrl::WaitStatus::Exited(_, code) => (seen, code),
            other => panic!("{other:?}: {seen}"),
        }
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

    /// Says yes to the whole plan once, at a terminal, so that later runs need no person; `hold` is
    /// out of the way while it does (its playbook step is run for real later).
    fn reviewed(&self) {
        let seen = self.at_terminal(&["night"], &["y"]);
        assert!(seen.contains("Run the 5 steps of the playbook night as shown?"), "{seen}");
        std::fs::remove_file(&self.marks).ok();
    }
}

fn lines(stdout: &str) -> Vec<serde_json::Value> {
    stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

#[test]
fn without_a_terminal_an_unreviewed_playbook_runs_nothing_and_says_every_step() {
    let f = fixture();
    let out = f.evoke().args(["--json", "night"]).output().unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(3), "{stdout}{stderr}");
    let lines = lines(&stdout);
    assert_eq!(lines.len(), 6, "the step-0 line and five steps: {stdout}");
    assert_eq!((lines[0]["step"].as_u64(), lines[0]["playbook"].as_str()), (Some(0), Some("night")));
    assert!(lines[0].get("status").is_none(), "{}", lines[0]);
    for line in &lines[1..] {
        assert_eq!(line["status"], "unanswered", "{line}");
        assert_eq!(line["from"][0]["playbook"], "night", "{line}");
    }
    assert_eq!(lines[2]["when"], serde_json::json!({ "step": 1, "field": "state", "is": "on" }));
    assert_eq!(f.marks(), "", "nothing ran");
}

#[test]
fn a_playbook_is_confirmed_whole_once_then_runs_without_the_review_until_it_changes() {
    let f = fixture();
    let first = f.at_terminal(&["night"], &["y"]);
    assert_eq!(first.matches("[y/N]").count(), 1, "one yes for the whole plan: {first}");
    assert!(first.contains("  5  mark what=\"blinds\""), "every step shown before the yes: {first}");
    assert_eq!((f.count("mark-door"), f.count("mark-blinds"), f.count("hold-end")), (1, 1, 1), "{first}{}", f.marks());

    let again = f.evoke().arg("night").output().unwrap();
    assert_eq!(again.status.code(), Some(0), "reviewed, it runs with no one there: {}", text(&again).1);
    assert_eq!(f.count("mark-door"), 2, "{}", f.marks());

    // Any change to the playbook is a playbook the person has not seen.
    let file = f.project.join("playbooks/night/playbook.toml");
    std::fs::write(&file, NIGHT.replace("The night routine", "The late night routine")).unwrap();
    let changed = f.evoke().arg("night").output().unwrap();
    assert_eq!(changed.status.code(), Some(3), "{}", text(&changed).1);
    assert_eq!(f.count("mark-door"), 2, "nothing ran after the change: {}", f.marks());
}

#[test]
fn a_reviewed_playbook_picked_by_a_verb_its_wording_never_says_waits_for_a_yes() {
    let f = fixture();
    f.reviewed();
    // `remove` opens commands, and a reflex's route reads the act from it; a routine's words are its own.
    let out = f.evoke().args(["--json", "remove night"]).output().unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(3), "{stdout}{stderr}");
    assert!(stdout.contains(r#""because":[{"type":"more","words":["remove"]}]"#), "{stdout}");
    assert_eq!(f.marks(), "", "nothing ran");
}

#[test]
fn a_declined_review_runs_nothing_and_is_asked_again() {
    let f = fixture();
    let (seen, code) = f.at_terminal_ends(&["night"], &["n"]);
    assert!(seen.contains("Run the 5 steps of the playbook night as shown?"), "{seen}");
    assert_eq!(code, 5, "declined: {seen}");
    assert_eq!(f.marks(), "");
    let again = f.evoke().arg("night").output().unwrap();
    assert_eq!(again.status.code(), Some(3), "{}", text(&again).1);
}

#[test]
fn a_when_step_runs_only_under_its_value_and_is_passed_by_otherwise() {
    let f = fixture();
    f.reviewed();
    // The probe yields `off`: the lamp is passed by, and the rest runs.
    let out = f.evoke().args(["--json", "night"]).output().unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    let lines = lines(&stdout);
    assert_eq!(lines[2]["status"], "skipped", "{}", lines[2]);
    assert_eq!(lines[2]["why"], serde_json::json!({ "type": "not_chosen", "from": 1, "value": "off" }));
    assert_eq!((f.count("mark-lamp"), f.count("mark-door")), (0, 1), "{}", f.marks());

    std::fs::write(f.project.join("r/probe/switch"), "on\n").unwrap();
    let out = f.evoke().arg("night").output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    assert_eq!((f.count("mark-lamp"), f.count("mark-door")), (1, 2), "{}", f.marks());
}

#[test]
fn a_branch_whose_source_failed_never_runs() {
    let f = fixture();
    f.reviewed();
    std::fs::write(f.project.join("r/probe/switch"), "on\n").unwrap();
    std::fs::write(f.project.join("r/probe/probe-fails"), "").unwrap();
    let out = f.evoke().args(["--json", "night"]).output().unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    let lines = lines(&stdout);
    assert_eq!(lines[1]["status"], "failed", "{}", lines[1]);
    assert_eq!(lines[2]["status"], "skipped", "{}", lines[2]);
    assert_eq!(f.count("mark-lamp"), 0, "the branch did not run: {}", f.marks());
}

#[test]
fn a_sigkill_between_two_writes_then_resume_runs_neither_twice() {
    let f = fixture();
    f.reviewed();
    let mut child = f.evoke().arg("night").stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let body = f.wait_for("hold-start", &mut child);
    // Killed while `hold` runs: `mark door` is done, `hold` is at intent, `mark blinds` has not begun.
    kill(&mut child, body);
    assert_eq!((f.count("mark-door"), f.count("hold-start"), f.count("mark-blinds")), (1, 1, 0), "{}", f.marks());

    // At a terminal, resume asks before running the write that may have acted, and runs the rest once.
    let seen = f.at_terminal(&["resume"], &["y"]);
    assert!(seen.contains("step 3 ran before"), "{seen}");
    assert!(seen.contains("may already have acted"), "{seen}");
    assert_eq!((f.count("mark-door"), f.count("mark-blinds")), (1, 1), "{}", f.marks());

    // Everything is done now: resuming again runs no write.
    let again = f.evoke().arg("resume").output().unwrap();
    assert_eq!(again.status.code(), Some(0), "{}", text(&again).1);
    assert_eq!((f.count("mark-door"), f.count("hold-start"), f.count("mark-blinds")), (1, 2, 1), "{}", f.marks());
}

#[test]
fn a_plan_file_pins_its_playbook_and_is_refused_once_it_changed() {
    let f = fixture();
    let plan = f.project.join("night.plan.json");
    let saved = f.evoke().args(["try", "--save"]).arg(&plan).arg("night").output().unwrap();
    assert!(saved.status.success(), "{}", text(&saved).1);
    let file: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&plan).unwrap()).unwrap();
    let pin = &file["reflexes"]["night"];
    assert!(pin["item"].as_str().is_some_and(|i| i.starts_with("h1:")), "{file}");

    std::fs::write(
        f.project.join("playbooks/night/playbook.toml"),
        NIGHT.replace("what = \"blinds\"", "what = \"lamp\""),
    )
    .unwrap();
    let out = f.evoke().arg("run").arg(&plan).output().unwrap();
    let (stdout, stderr) = text(&out);
    assert_ne!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stderr.contains("the playbook night has changed since (its steps or another file of its directory)"),
        "the refusal names the playbook and what changed: {stderr}"
    );
    assert_eq!(f.marks(), "", "nothing ran");
}

/// The example project in a fresh directory, its shipped reflexes named where they are, decided by
/// `adapter`; and a home whose settings name the embed model when one is given.
fn example(adapter: &str, model: Option<&Path>) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let project = root.path().join("home-example");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap();
    copy_tree(&repo.join("docs/examples/home"), &project);
    let _ = std::fs::remove_dir_all(project.join("reflexes/lights/state"));
    let toml = std::fs::read_to_string(project.join("evoke.toml")).unwrap();
    let toml = toml
        .replace("adapter = \"local\"", &format!("adapter = {adapter:?}"))
        .replace("\"../../../reflexes/", &format!("\"{}/", repo.join("reflexes").display()));
    std::fs::write(project.join("evoke.toml"), toml).unwrap();
    let home = root.path().join("evoke-home");
    if let Some(model) = model {
        write(&home.join("config/evoke.toml"), &format!("[adapters.embed]\nmodel = {:?}\n", model.display()));
    }
    let trusted = example_evoke(&project, &home).arg("trust").output().unwrap();
    assert!(trusted.status.success(), "{}", String::from_utf8_lossy(&trusted.stderr));
    (root, project, home)
}

fn example_evoke(project: &Path, home: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_evoke"));
    command.current_dir(project).env("EVOKE_HOME", home).env("NO_COLOR", "1").stdin(Stdio::null());
    command
}

/// `good night` at a terminal on the example project: the whole plan shown, one yes, every light set.
fn good_night_reviewed(project: &Path, home: &Path) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_evoke"));
    command.current_dir(project).env("EVOKE_HOME", home).env("NO_COLOR", "1").arg("good night");
    let mut session = expectrl::Session::spawn(command).unwrap();
    session.set_expect_timeout(Some(Duration::from_secs(60)));
    let found = session.expect("[y/N] ").unwrap();
    let mut seen = String::from_utf8_lossy(found.before()).into_owned();
    session.send_line("y").unwrap();
    // Each step under its own bar: a `say` step the engine is less sure of still asks at its turn.
    while let Ok(found) = session.expect("[y/N] ") {
        seen.push_str(&String::from_utf8_lossy(found.before()));
        session.send_line("y").unwrap();
    }
    seen
}

fn lights(project: &Path) -> serde_json::Value {
    let file = project.join("reflexes/lights/state/lights.json");
    serde_json::from_str(&std::fs::read_to_string(file).unwrap_or_else(|_| "{}".into())).unwrap()
}

#[test]
fn good_night_on_the_example_with_local_is_shown_whole_and_confirmed_once() {
    let (_root, project, home) = example("local", None);
    let seen = good_night_reviewed(&project, &home);
    assert!(seen.contains("playbook good_night: 4 steps"), "{seen}");
    assert!(seen.contains("  4  lights room=\"bedroom\" state=\"dim\" brightness=\"20\""), "{seen}");
    assert!(seen.contains("Run the 4 steps of the playbook good_night as shown?"), "{seen}");
    let lights = lights(&project);
    for room in ["kitchen", "living room", "den"] {
        assert_eq!(lights[room]["on"], false, "{room}: {lights}");
    }
    assert_eq!(lights["bedroom"]["percent"], 20, "{lights}");
}

#[test]
fn good_night_on_the_example_with_embed_runs_without_the_review_the_second_time() {
    let Some(model) = evoke_embed::testing::reference_model() else { return };
    let (_root, project, home) = example("embed", Some(&model));
    let seen = good_night_reviewed(&project, &home);
    assert_eq!(seen.matches("Run the 4 steps").count(), 1, "{seen}");
    std::fs::remove_dir_all(project.join("reflexes/lights/state")).unwrap();

    // Reviewed, with no one there: every step runs, each a call by name or words over embed's bar.
    let out = example_evoke(&project, &home).args(["--json", "good night"]).output().unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    let lines = lines(&stdout);
    assert_eq!(lines.len(), 5, "{stdout}");
    assert_eq!(lines[3]["input"], "turn off the den lights", "the say step decided as typed words: {}", lines[3]);
    assert!(lines[1..].iter().all(|l| l["status"] == "ran"), "{stdout}");
    assert_eq!(lights(&project)["den"]["on"], false);
}

/// The playbook transcript's project and recording in a fresh directory, trusted: good_night and lock_up,
/// and the answers the transcript's sentences are decided by.
fn transcript_project() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("playbook");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap();
    copy_tree(&repo.join("transcripts/playbook"), &dir);
    let home = root.path().join("home");
    let trusted = transcript_evoke(&dir, &home).arg("trust").output().unwrap();
    assert!(trusted.status.success(), "{}", String::from_utf8_lossy(&trusted.stderr));
    (root, dir, home)
}

fn transcript_evoke(dir: &Path, home: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_evoke"));
    command.current_dir(dir).env("EVOKE_HOME", home).env("NO_COLOR", "1").stdin(Stdio::null());
    command.args(["-C", "project", "--recording", "recording.toml"]);
    command
}

#[test]
fn why_after_a_plan_refused_whole_says_the_refusal_evoke_said() {
    let (_root, dir, home) = transcript_project();
    for (sentence, said) in [
        (
            "good night in the den and turn on the office lamp",
            "\"good night in the den\" reads as the playbook good_night, a routine run whole, beside which only its own steps may be said again; say it alone, then the rest; nothing ran",
        ),
        (
            "good night in the den if it gets late",
            "\"good night in the den if it gets late\" asks for a playbook on a condition or for later",
        ),
        (
            "good night in the den but don't lock the back door",
            "\"don't lock the back door\" leaves out part of a playbook; a playbook runs whole or not at all",
        ),
    ] {
        let out = transcript_evoke(&dir, &home).arg(sentence).output().unwrap();
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(4), "{sentence}: {stdout}{stderr}");
        assert!(stderr.contains(said), "{sentence}: {stderr}");
        let why = transcript_evoke(&dir, &home).arg("why").output().unwrap();
        let (stdout, stderr) = text(&why);
        assert!(why.status.success(), "{stderr}");
        assert!(stdout.contains(&format!("  abstain · {said}")), "{sentence}: {stdout}");
        assert!(!stdout.contains("nothing is installed"), "{sentence}: {stdout}");
    }
}

#[test]
fn why_after_a_playbook_run_shows_each_steps_call_its_playbook_and_why_one_was_passed_by() {
    let f = fixture();
    f.reviewed();
    let out = f.evoke().arg("night").output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    // The last line is step 5's: a call the playbook wrote, with no words of its own.
    let why = f.evoke().arg("why").output().unwrap();
    let (stdout, stderr) = text(&why);
    assert!(why.status.success(), "{stderr}");
    assert_eq!(
        stdout.lines().next(),
        Some("step 5 of 5: mark what=\"blinds\" (the playbook night's step 5)"),
        "{stdout}"
    );
    // The lamp was passed by: what its source yielded, and what the step runs under.
    let passed_by = "  2  mark what=\"lamp\"  skipped: step 1's state was \"off\", not \"on\"";
    assert!(stdout.lines().any(|l| l == passed_by), "{stdout}");
    assert!(!stdout.contains("not_chosen"), "{stdout}");
    // Step 2's own line says the same, with its playbook.
    let why = f.evoke().args(["why", "4"]).output().unwrap();
    let (stdout, _) = text(&why);
    assert_eq!(
        stdout.lines().next(),
        Some("step 2 of 5: mark what=\"lamp\" (the playbook night's step 2)"),
        "{stdout}"
    );
    assert!(stdout.contains("  skipped: step 1's state was \"off\", not \"on\"\n"), "{stdout}");
}

#[test]
fn a_reviewed_playbook_asks_again_once_a_reflex_it_runs_changed() {
    let f = fixture();
    f.reviewed();
    // The called reflex's manifest changes (its effect, its body's argv): not the plan the person saw.
    let manifest = f.project.join("r/mark/reflex.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, text.replace("echo marked", "echo MARKED")).unwrap();
    let out = f.evoke().arg("night").output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", text_of(&out));
    assert_eq!(f.marks(), "", "nothing ran");

    // Said yes to again, it runs; then the reflex is pointed at another directory in evoke.toml.
    f.reviewed();
    copy_tree(&f.project.join("r/mark"), &f.project.join("r/mark2"));
    let toml = std::fs::read_to_string(f.project.join("evoke.toml")).unwrap();
    std::fs::write(f.project.join("evoke.toml"), toml.replace("r/mark\"", "r/mark2\"")).unwrap();
    let trusted = f.evoke().arg("trust").output().unwrap();
    assert!(trusted.status.success(), "{}", text_of(&trusted));
    let out = f.evoke().arg("night").output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", text_of(&out));
    assert_eq!(f.marks(), "", "nothing ran");
}

#[test]
fn a_slot_asked_at_a_terminal_is_planned_as_the_playbook() {
    let f = fixture();
    let mut command = Command::new(env!("CARGO_BIN_EXE_evoke"));
    command.current_dir(&f.project).env("EVOKE_HOME", &f.home).env("NO_COLOR", "1");
    command.args(["--recording", "recording.toml", "tidy up"]);
    let mut session = expectrl::Session::spawn(command).unwrap();
    session.set_expect_timeout(Some(Duration::from_secs(60)));
    session.expect("> ").unwrap();
    session.send_line("door").unwrap();
    let found = session.expect("[y/N] ").unwrap();
    let shown = String::from_utf8_lossy(found.before()).into_owned();
    assert!(shown.contains("playbook tidy: 1 step") && shown.contains("mark what=\"door\""), "{shown}");
    assert!(shown.contains("Run the 1 step of the playbook tidy as shown?"), "{shown}");
    session.send_line("y").unwrap();
    session.expect(expectrl::Eof).unwrap();
    assert_eq!(f.count("mark-door"), 1, "{}", f.marks());
}

#[test]
fn a_playbook_run_by_name_is_refused_with_the_sentence_that_picks_it() {
    let f = fixture();
    let out = f.evoke().args(["run", "tidy"]).output().unwrap();
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("`tidy` is a playbook") && stderr.contains("evoke 'tidy the door'"), "{stderr}");
    assert_eq!(f.marks(), "");
}

#[test]
fn a_plan_file_carries_the_playbook_and_its_slots() {
    let f = fixture();
    let plan = f.project.join("night.plan.json");
    let saved = f.evoke().args(["try", "--save"]).arg(&plan).arg("night").output().unwrap();
    assert!(saved.status.success(), "{}", text_of(&saved));
    let file: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&plan).unwrap()).unwrap();
    assert_eq!(file["weave"]["playbook"], "night", "{file}");
    assert_eq!(file["weave"]["slots"], serde_json::json!({}), "{file}");
}

fn text_of(output: &Output) -> String {
    let (stdout, stderr) = text(output);
    format!("{stdout}{stderr}")
}

#[test]
fn a_destructive_step_confirms_at_its_turn_every_time_reviewed_or_not() {
    let f = fixture();
    // The first run: one yes for the whole plan, then the destructive step's own.
    let first = f.at_terminal(&["clear"], &["y", "y"]);
    assert!(first.contains("Run the 2 steps of the playbook clear as shown?"), "{first}");
    assert!(first.contains("Do wipe?"), "{first}");
    assert_eq!((f.count("mark-door"), f.count("wipe")), (1, 1), "{}", f.marks());

    // Reviewed, with no one there: the destructive step would wait, so the plan stops before its first step.
    let out = f.evoke().args(["--json", "clear"]).output().unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(3), "{stdout}{stderr}");
    let lines = lines(&stdout);
    assert_eq!(lines[2]["status"], "unanswered", "{}", lines[2]);
    assert_eq!(lines[2]["why"]["message"], "Do wipe?", "{}", lines[2]);
    assert_eq!((f.count("mark-door"), f.count("wipe")), (1, 1), "nothing ran: {}", f.marks());

    // At a terminal the review is not asked again, the destructive step is.
    let again = f.at_terminal(&["clear"], &["y"]);
    assert!(!again.contains("as shown?"), "{again}");
    assert!(again.contains("Do wipe?"), "{again}");
    assert_eq!((f.count("mark-door"), f.count("wipe")), (2, 2), "{}", f.marks());
}
