//! The library as a program uses it: the example of docs/sdk.md prints the line `evoke try --json` prints,
//! and a destructive call runs only on the confirm callback's yes.

mod common;

use common::{copy_tree, repo, trust, without_ms};
use evoke::exit::Exit;
use evoke::{Decision, Evoke, OpenOptions, Person, Question};
use evoke_core::decision::{Because, Missing, Value};
use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::process::Command;

#[test]
fn the_example_prints_the_line_evoke_try_prints_then_runs_it() {
    let home = tempfile::tempdir().unwrap();
    let project = repo().join("docs/examples/home");
    let recording = repo().join("docs/examples/sdk.recording.toml");
    trust(home.path(), &project);
    // `cargo test --test sdk` builds no example, so the test builds the one docs/sdk.md shows.
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let built = Command::new(cargo).args(["build", "-q", "-p", "evoke", "--example", "sdk"]).status().unwrap();
    assert!(built.success());
    let debug = std::env::current_exe().unwrap().parent().unwrap().parent().unwrap().to_path_buf();
    let example = Command::new(debug.join("examples/sdk")).env("EVOKE_HOME", home.path()).output().unwrap();
    let printed = String::from_utf8(example.stdout).unwrap();
    assert!(example.status.success(), "{printed}{}", String::from_utf8_lossy(&example.stderr));
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(lines.len(), 2, "{printed}");

    let tried = Command::new(env!("CARGO_BIN_EXE_evoke"))
        .args(["-C".as_ref(), project.as_os_str(), "--recording".as_ref(), recording.as_os_str()])
        .args(["try", "--json", "turn on the kitchen lights"])
        .env("EVOKE_HOME", home.path())
        .output()
        .unwrap();
    assert!(tried.status.success(), "{}", String::from_utf8_lossy(&tried.stderr));
    let tried = String::from_utf8(tried.stdout).unwrap();
    let tried = without_ms(tried.trim_end());
    // The same object byte for byte, with `values` after it: each argument as the body receives it.
    let expected =
        format!("{},\"values\":{{\"room\":\"kitchen\",\"state\":\"on\"}}}}", tried.strip_suffix('}').unwrap());
    assert_eq!(without_ms(lines[0]), expected);
    assert!(lines[0].starts_with(r#"{"input":"turn on the kitchen lights","outcome":"run","reflex":"lights""#));
    assert_eq!(lines[1], "kitchen lights on");
}

/// Says one answer to every confirm, and counts the confirms asked.
struct Answers {
    yes: bool,
    present: bool,
    asked: Cell<usize>,
}

impl Person for Answers {
    fn present(&self) -> bool {
        self.present
    }
    fn confirm(&self, _: Question<'_>) -> bool {
        self.asked.set(self.asked.get() + 1);
        self.yes
    }
    fn ask(&self, _: &Missing) -> Option<Value> {
        None
    }
}

const WIPE: &str = include_str!("fixtures/wipe.toml");

/// Leaves a mark for each run, so a test sees whether the body ran.
const WIPE_BODY: &str = include_str!("fixtures/wipe.mjs");

const WIPE_RECORDING: &str = include_str!("fixtures/wipe-recording.toml");

/// A project with the destructive reflex, trusted in a home of its own, opened by the library.
fn wipe() -> (tempfile::TempDir, tempfile::TempDir, Evoke) {
    let root = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let write = |relative: &str, text: &str| {
        let path = root.path().join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("evoke.toml", "[reflexes]\nwipe = \"reflexes/wipe\"\n");
    write("reflexes/wipe/reflex.toml", WIPE);
    write("reflexes/wipe/wipe.mjs", WIPE_BODY);
    write("recording.toml", WIPE_RECORDING);
    trust(home.path(), root.path());
    let options = OpenOptions {
        recording: Some(root.path().join("recording.toml")),
        home: Some(home.path().to_path_buf()),
        ..Default::default()
    };
    let evoke = Evoke::open(root.path(), options).unwrap();
    (root, home, evoke)
}

#[test]
fn a_destructive_call_runs_only_on_the_callbacks_yes() {
    let (root, _home, evoke) = wipe();
    let mark = root.path().join("reflexes/wipe/state/ran");
    let decision = evoke.decide("erase the work notes").unwrap();
    let Decision::Confirm(confirm) = &decision else { panic!("a destructive call confirms: {decision:?}") };
    assert_eq!(confirm.call().line(), "wipe folder=\"work\"");
    assert!(confirm.because().contains(&Because::Destructive), "{:?}", confirm.because());

    let no = Answers { yes: false, present: true, asked: Cell::new(0) };
    let refused = evoke.run(&decision, &no).unwrap_err();
    assert_eq!((refused.exit(), no.asked.get()), (Exit::Declined, 1));
    assert!(!mark.exists(), "the body ran on a no");

    let nobody = Answers { yes: true, present: false, asked: Cell::new(0) };
    let refused = evoke.run(&decision, &nobody).unwrap_err();
    assert_eq!((refused.exit(), nobody.asked.get()), (Exit::NeedsPerson, 0));
    assert!(!mark.exists(), "the body ran with nobody to ask");

    let yes = Answers { yes: true, present: true, asked: Cell::new(0) };
    let ran = evoke.run(&decision, &yes).unwrap();
    assert_eq!((ran.text(), yes.asked.get()), (Some("erased work"), 1));
    assert_eq!(std::fs::read_to_string(&mark).unwrap(), "work");
}

#[test]
fn a_decision_runs_only_in_the_evoke_that_made_it() {
    let (_root, _home, evoke) = wipe();
    let (_other_root, _other_home, other) = wipe();
    let decision = other.decide("erase the work notes").unwrap();
    let yes = Answers { yes: true, present: true, asked: Cell::new(0) };
    let refused = evoke.run(&decision, &yes).unwrap_err();
    assert_eq!((refused.exit(), yes.asked.get()), (Exit::Usage, 0));
}

#[test]
fn an_untrusted_project_is_refused_with_its_fix() {
    let home = tempfile::tempdir().unwrap();
    let options = OpenOptions { home: Some(home.path().to_path_buf()), ..Default::default() };
    let Err(refused) = Evoke::open(&repo().join("docs/examples/home"), options) else { panic!("opened untrusted") };
    assert_eq!((refused.exit(), refused.fix().as_deref()), (Exit::NeedsPerson, Some("evoke trust")));
}

#[test]
fn a_sentence_that_fails_closed_is_an_error_of_class_6() {
    let (_root, _home, evoke) = wipe();
    let refused = evoke.decide("a sentence the recording never heard").unwrap_err();
    assert_eq!(refused.exit(), Exit::Refused, "{refused}");
}

/// The playbook transcript's project, copied where a test may trust it, with its recording.
fn playbook_project() -> (tempfile::TempDir, tempfile::TempDir, PathBuf, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let from = repo().join("transcripts/playbook");
    let project = root.path().join("project");
    copy_tree(&from.join("project"), &project);
    let recording = root.path().join("recording.toml");
    std::fs::copy(from.join("recording.toml"), &recording).unwrap();
    trust(home.path(), &project);
    (root, home, project, recording)
}

/// `evoke` in `project` with `recording`, under `home`: its standard output, once it succeeded.
fn evoke_in(home: &Path, project: &Path, recording: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_evoke"))
        .args(["-C".as_ref(), project.as_os_str(), "--recording".as_ref(), recording.as_os_str()])
        .args(args)
        .env("EVOKE_HOME", home)
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_plan_is_the_line_evoke_try_prints_and_decide_names_it() {
    let (_root, home, project, recording) = playbook_project();
    let options =
        OpenOptions { recording: Some(recording.clone()), home: Some(home.path().to_path_buf()), ..Default::default() };
    let evoke = Evoke::open(&project, options).unwrap();
    let plan = evoke.plan("good night in the den").unwrap();
    let tried = evoke_in(home.path(), &project, &recording, &["try", "--json", "good night in the den"]);
    assert_eq!(without_ms(&plan.to_json_line()), without_ms(tried.trim_end()));
    assert_eq!(serde_json::to_string(&plan).unwrap(), plan.to_json_line());
    assert_eq!((plan.playbook(), plan.steps().len()), (Some("good_night"), 4), "{plan:?}");
    // A playbook's plan waits for the review of the whole plan.
    assert_eq!(plan.verdict().outcome, evoke_core::decision::Outcome::Confirm, "{plan:?}");

    let refused = evoke.decide("good night in the den").unwrap_err();
    assert_eq!(refused.exit(), Exit::Usage);
    assert!(refused.fix().unwrap().contains("Evoke::plan"), "{refused}");
    let one = evoke.plan("turn off the den lamp").unwrap_err();
    assert_eq!((one.exit(), one.fix().as_deref()), (Exit::Usage, Some("Evoke::decide")));
}

#[test]
fn why_says_what_evoke_why_says() {
    let (root, home, evoke) = wipe();
    let decision = evoke.decide("erase the work notes").unwrap();
    let said = evoke.why(1).unwrap();
    assert!(said.contains("erase the work notes"), "{said}");
    let why = Command::new(env!("CARGO_BIN_EXE_evoke"))
        .args(["-C".as_ref(), root.path().as_os_str(), "why".as_ref()])
        .env("EVOKE_HOME", home.path())
        .output()
        .unwrap();
    assert!(why.status.success(), "{}", String::from_utf8_lossy(&why.stderr));
    assert_eq!(said, String::from_utf8(why.stdout).unwrap());
    drop(decision);

    let (_root, home, project, recording) = playbook_project();
    let options =
        OpenOptions { recording: Some(recording.clone()), home: Some(home.path().to_path_buf()), ..Default::default() };
    let evoke = Evoke::open(&project, options).unwrap();
    evoke.plan("good night in the den").unwrap();
    assert_eq!(evoke.why(1).unwrap(), evoke_in(home.path(), &project, &recording, &["why"]));
    assert_eq!(evoke.why(9).unwrap_err().exit(), Exit::Usage);
}

#[test]
fn a_playbooks_plan_run_by_the_library_hands_back_json_lines_alone() {
    let (_root, home, project, recording) = playbook_project();
    let options =
        OpenOptions { recording: Some(recording), home: Some(home.path().to_path_buf()), ..Default::default() };
    let evoke = Evoke::open(&project, options).unwrap();
    let plan = evoke.plan("good night in the den").unwrap();
    let ran = evoke.run_plan(&plan, &evoke::ConfirmWith::new(|_| true)).unwrap();
    // The review of the whole plan was shown beside the lines, never among them.
    assert!(!ran.lines().is_empty());
    for line in ran.lines() {
        assert!(serde_json::from_str::<serde_json::Value>(line).is_ok(), "not a JSON line: {line}");
    }
}

#[test]
fn a_project_whose_lock_pins_another_engine_is_refused_naming_the_pin_and_the_fix() {
    let root = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    // The example's timer and volume are reached by a path up to the repository's reflexes.
    let project = root.path().join("docs/examples/home");
    copy_tree(&repo().join("docs/examples/home"), &project);
    copy_tree(&repo().join("reflexes"), &root.path().join("reflexes"));
    let lock = "version = 1\n\n[adapter]\nname = \"openai\"\nid = \"openai/another-model\"\n";
    std::fs::write(project.join("evoke.lock"), lock).unwrap();
    trust(home.path(), &project);
    let options = OpenOptions { home: Some(home.path().to_path_buf()), ..Default::default() };
    let Err(refused) = Evoke::open(&project, options) else { panic!("decided with an engine the lock does not pin") };
    assert_eq!(refused.exit(), Exit::NeedsPerson, "{refused}");
    assert!(refused.message().contains("[adapter] pins openai (openai/another-model)"), "{}", refused.message());
    assert!(refused.fix().is_some_and(|fix| fix.contains("evoke update")), "{:?}", refused.fix());
}
