//! The library's promises held against a hostile or careless program: a value the person gives must be
//! one of the closed choices, a name must be one `evoke.toml` could give, the bars are the home's of the
//! `Evoke`, a panic in the program's callbacks is an error and no more, and the rest of docs/sdk.md.
//!
//! A test marked `#[ignore = "defect: …"]` fails against the library as it is; its name states the rule
//! it breaks.

use evoke::exit::Exit;
use evoke::{Called, CodeReflex, ConfirmWith, Decision, Evoke, OpenOptions, Person, Question, Returned, Thrown};
use evoke_core::decision::{Missing, Value};
use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// `evoke trust` of `project` under `home`, as a person runs it.
fn trust(home: &Path, project: &Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_evoke"))
        .args(["-C".as_ref(), project.as_os_str(), "trust".as_ref()])
        .env("EVOKE_HOME", home)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// `evoke` in `project` under `home`, answered by `recording`: its exit code and standard output.
fn evoke_in(home: &Path, project: &Path, recording: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_evoke"))
        .args(["-C".as_ref(), project.as_os_str(), "--recording".as_ref(), recording.as_os_str()])
        .args(args)
        .env("EVOKE_HOME", home)
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

/// A trace's timings differ from run to run; everything else in the line must not.
fn without_ms(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find("\"ms\":") {
        out.push_str(&rest[..at + 5]);
        rest = rest[at + 5..].trim_start_matches(|c: char| c.is_ascii_digit());
        out.push('0');
    }
    out + rest
}

/// A line without the `values` the library adds after the command's fields.
fn without_values(line: &str) -> String {
    match line.rfind(",\"values\":") {
        Some(at) => format!("{}}}", &line[..at]),
        None => line.to_string(),
    }
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A person whose every answer is set by the test, and who counts what it was asked.
struct Scripted {
    present: bool,
    yes: bool,
    answer: Option<Value>,
    confirms: Cell<usize>,
    asks: Cell<usize>,
}

impl Scripted {
    fn new(present: bool, yes: bool, answer: Option<Value>) -> Scripted {
        Scripted { present, yes, answer, confirms: Cell::new(0), asks: Cell::new(0) }
    }
}

impl Person for Scripted {
    fn present(&self) -> bool {
        self.present
    }
    fn confirm(&self, _: Question<'_>) -> bool {
        self.confirms.set(self.confirms.get() + 1);
        self.yes
    }
    fn ask(&self, _: &Missing) -> Option<Value> {
        self.asks.set(self.asks.get() + 1);
        self.answer.clone()
    }
}

/// A person who panics when asked anything.
struct Panics;

impl Person for Panics {
    fn present(&self) -> bool {
        true
    }
    fn confirm(&self, _: Question<'_>) -> bool {
        panic!("the program's confirm panicked")
    }
    fn ask(&self, _: &Missing) -> Option<Value> {
        panic!("the program's ask panicked")
    }
}

const WIPE: &str = r#"reflex = 1
description = "Erase every note in one folder."
effect = "destructive"
confirm = "Erase the {folder} notes?"

[args.folder]
ask = "Which folder?"
options.work = "The work notes."
options.home = "The home notes."

[examples]
"erase the work notes" = { folder = "work" }
"wipe my home notes" = { folder = "home" }
"#;

const SHOW: &str = r#"reflex = 1
description = "Show the notes of one folder."
effect = "read"
confirm = "Show the {folder} notes?"

[args.folder]
ask = "Which folder?"
options.work = "The work notes."
options.home = "The home notes."

[examples]
"show the work notes" = { folder = "work" }
"read me my home notes" = { folder = "home" }
"#;

const REPEAT: &str = r#"reflex = 1
description = "Play the last song again a number of times."
effect = "read"
confirm = "Play it {times} times?"

[args.times]
ask = "How many times?"
pick = "number"
range = [1, 10]

[examples]
"play it again 3 times" = { times = "3" }
"#;

const RECORDING: &str = r#"id = "replay"

[gate]
route = 0.5
fits  = 0.3
read  = 0.6
write = 0.8

[answers."erase the work notes"]
route         = { wipe = 0.97, none = 0.03 }
"fits.wipe"   = { yes = 0.95 }
"wipe.folder" = { work = 0.97, home = 0.02, unstated = 0.01 }

[answers."show the work notes"]
route         = { show = 0.97, none = 0.03 }
"fits.show"   = { yes = 0.95 }
"show.folder" = { work = 0.97, home = 0.02, unstated = 0.01 }

[answers."show my notes"]
route         = { show = 0.97, none = 0.03 }
"fits.show"   = { yes = 0.95 }
"show.folder" = { unstated = 0.97, work = 0.02, home = 0.01 }

[answers."play it again"]
route          = { repeat = 0.97, none = 0.03 }
"fits.repeat"  = { yes = 0.95 }
"repeat.times" = { unstated = 0.99 }
"#;

/// Every call a body was handed, as the JSON a file body receives.
type Calls = Arc<Mutex<Vec<serde_json::Value>>>;

/// A code reflex whose body records each call and returns `done`.
fn recorded(name: &str, manifest: &str, calls: &Calls) -> CodeReflex {
    let calls = calls.clone();
    CodeReflex::new(name, manifest, move |call: &Called| {
        calls.lock().unwrap().push(call.to_json());
        Ok(Returned { text: "done".into(), data: None })
    })
    .unwrap()
}

/// A project built in code with `reflexes`, answered by `RECORDING`, its files under a home of its own.
fn in_code(reflexes: Vec<CodeReflex>) -> (tempfile::TempDir, Evoke) {
    let home = tempfile::tempdir().unwrap();
    let recording = home.path().join("recording.toml");
    std::fs::write(&recording, RECORDING).unwrap();
    let options = OpenOptions {
        recording: Some(recording),
        home: Some(home.path().to_path_buf()),
        reflexes,
        ..Default::default()
    };
    let evoke = Evoke::in_code(options).unwrap();
    (home, evoke)
}

// ---- A value the person gives is one of the closed choices -------------------------------------------

#[test]
#[ignore = "defect: Person::ask's answer is put into the call unchecked (act::ask_missing)"]
fn an_answer_outside_the_options_never_reaches_the_body() {
    let calls = Calls::default();
    let (_home, evoke) = in_code(vec![recorded("show", SHOW, &calls)]);
    let decision = evoke.decide("show my notes").unwrap();
    let Decision::Ask(ask) = &decision else { panic!("an unstated folder is asked for: {decision:?}") };
    assert_eq!(ask.missing()[0].arg, "folder");

    // `everything` is no option of `folder`: the terminal's person could never give it (prompt::accept).
    let forger = Scripted::new(true, true, Some(Value::Option { key: "everything\"; rm -rf ~".into() }));
    let ran = evoke.run(&decision, &forger);
    let calls = calls.lock().unwrap();
    assert!(calls.is_empty(), "the body ran with a value the author never wrote: {calls:?}");
    assert!(ran.is_err(), "{ran:?}");
}

#[test]
#[ignore = "defect: Person::ask's answer is put into the call unchecked (act::ask_missing)"]
fn an_answer_outside_a_picks_range_never_reaches_the_body() {
    let calls = Calls::default();
    let (_home, evoke) = in_code(vec![recorded("repeat", REPEAT, &calls)]);
    let decision = evoke.decide("play it again").unwrap();
    assert!(matches!(decision, Decision::Ask(_)), "{decision:?}");
    let span = evoke_core::recognize::Span { start: 0, end: 4, text: "9999".into() };
    let value = Value::Pick { span, value: evoke_core::recognize::PickValue::Number(9999.0) };
    let forger = Scripted::new(true, true, Some(value));
    let ran = evoke.run(&decision, &forger);
    let calls = calls.lock().unwrap();
    assert!(calls.is_empty(), "the body ran with 9999, outside its range 1–10: {calls:?}");
    assert!(ran.is_err(), "{ran:?}");
}

#[test]
#[ignore = "defect: Person::ask's answer is put into the call unchecked (act::ask_missing)"]
fn an_answer_of_another_kind_never_reaches_the_body() {
    let calls = Calls::default();
    let (_home, evoke) = in_code(vec![recorded("show", SHOW, &calls)]);
    let decision = evoke.decide("show my notes").unwrap();
    // A flag for an argument of options: the body would receive `true` where it expects a key.
    let forger = Scripted::new(true, true, Some(Value::Flag));
    let ran = evoke.run(&decision, &forger);
    let calls = calls.lock().unwrap();
    assert!(calls.is_empty(), "the body ran with a flag for an option: {calls:?}");
    assert!(ran.is_err(), "{ran:?}");
}

#[test]
fn an_answer_among_the_options_runs_the_call_with_it() {
    let calls = Calls::default();
    let (_home, evoke) = in_code(vec![recorded("show", SHOW, &calls)]);
    let decision = evoke.decide("show my notes").unwrap();
    let person = Scripted::new(true, true, Some(Value::Option { key: "home".into() }));
    let ran = evoke.run(&decision, &person).unwrap();
    assert_eq!((ran.text(), person.asks.get()), (Some("done"), 1));
    assert_eq!(calls.lock().unwrap()[0]["args"], serde_json::json!({ "folder": "home" }));
}

#[test]
fn a_question_left_unanswered_runs_nothing_and_is_class_5() {
    let calls = Calls::default();
    let (_home, evoke) = in_code(vec![recorded("show", SHOW, &calls)]);
    let decision = evoke.decide("show my notes").unwrap();
    let refused = evoke.run(&decision, &Scripted::new(true, true, None)).unwrap_err();
    assert_eq!(refused.exit(), Exit::Declined, "{refused}");
    assert!(calls.lock().unwrap().is_empty());
}

// ---- A name handed as code is one `evoke.toml` could give ---------------------------------------------

#[test]
#[ignore = "defect: CodeReflex::new checks is_name alone, not the sentinels and reserved names (sdk/code.rs)"]
fn a_code_reflex_may_not_take_a_sentinel_or_reserved_name() {
    // `evoke.toml` refuses each of these as a reflex's local name (evoke_core::project::read_source).
    for name in ["none", "unstated", "route", "fits", "weave"] {
        let made = CodeReflex::new(name, SHOW, |_: &Called| Ok(Returned::default()));
        let refused = made.err().unwrap_or_else(|| panic!("`{name}` was taken as a reflex name"));
        assert_eq!(refused.exit(), Exit::Usage, "{name}: {refused}");
    }
}

#[test]
#[ignore = "defect: a code reflex named `none` is taken, and the route can no longer tell it from the sentinel"]
fn a_code_reflex_named_none_leaves_the_other_reflexes_decided() {
    let calls = Calls::default();
    let (_home, evoke) = in_code(vec![recorded("show", SHOW, &calls), recorded("none", WIPE, &calls)]);
    let decision = evoke.decide("show the work notes");
    let decision = decision.unwrap();
    assert_eq!(decision.outcome(), evoke_core::decision::Outcome::Run, "{}", decision.to_json_line());
}

// ---- The bars are those of the `Evoke`'s own home -----------------------------------------------------

#[test]
#[ignore = "defect: Evoke::open loads the project with the environment's places, not OpenOptions::home (session::Workspace::open calls project::load)"]
fn open_takes_the_bars_of_its_own_home_evoke_toml() {
    let home = tempfile::tempdir().unwrap();
    let project = repo().join("docs/examples/home");
    let recording = repo().join("docs/examples/sdk.recording.toml");
    trust(home.path(), &project);
    // The person raised the write bar of the engine over every confidence the recording gives.
    std::fs::create_dir_all(home.path().join("config")).unwrap();
    std::fs::write(home.path().join("config/evoke.toml"), "[bars.replay]\nwrite = 0.99\n").unwrap();

    let (code, tried) = evoke_in(home.path(), &project, &recording, &["try", "--json", "turn on the kitchen lights"]);
    assert_eq!(code, Some(0));
    assert!(tried.starts_with(r#"{"input":"turn on the kitchen lights","outcome":"confirm""#), "{tried}");

    let options =
        OpenOptions { recording: Some(recording), home: Some(home.path().to_path_buf()), ..Default::default() };
    let evoke = Evoke::open(&project, options).unwrap();
    let decision = evoke.decide("turn on the kitchen lights").unwrap();
    assert!(matches!(decision, Decision::Confirm(_)), "the home's bar was not applied: {}", decision.to_json_line());
    assert_eq!(without_ms(&without_values(&decision.to_json_line())), without_ms(tried.trim_end()));
}

// ---- A plan is saved and run only by the `Evoke` that made it -----------------------------------------

const NOTE: &str = r#"reflex = 1
description = "Write a note in one folder."
effect = "write"
confirm = "Note in {folder}?"

[args.folder]
ask = "Which folder?"
options.work = "The work notes."
options.home = "The home notes."

[examples]
"note in work" = { folder = "work" }
"add a note to my home notes" = { folder = "home" }
"#;

const TWO_STEPS: &str = "erase the work notes, then add a note to my home notes";

/// A project built in code with `wipe` and `note`, decided by the embedded `local` engine.
fn wipe_and_note(calls: &Calls) -> (tempfile::TempDir, Evoke) {
    let home = tempfile::tempdir().unwrap();
    let options = OpenOptions {
        home: Some(home.path().to_path_buf()),
        reflexes: vec![recorded("wipe", WIPE, calls), recorded("note", NOTE, calls)],
        adapter: Some("local".into()),
        ..Default::default()
    };
    (home, Evoke::in_code(options).unwrap())
}

#[test]
#[ignore = "defect: Evoke::save seals a plan another Evoke made; run_plan refuses one (sdk/open.rs save has no origin check)"]
fn save_takes_only_a_plan_its_own_evoke_made() {
    let (_home, evoke) = wipe_and_note(&Calls::default());
    let (_other_home, other) = wipe_and_note(&Calls::default());
    let foreign = other.plan(TWO_STEPS).unwrap();
    assert_eq!(foreign.steps().len(), 2, "{}", foreign.to_json_line());
    let saved = evoke.save(&foreign);
    let refused = saved.err().expect("a plan made by another Evoke was sealed under this one's key");
    assert_eq!(refused.exit(), Exit::Usage, "{refused}");
}

#[test]
fn run_plan_takes_only_a_plan_its_own_evoke_made() {
    let calls = Calls::default();
    let (_home, evoke) = wipe_and_note(&calls);
    let (_other_home, other) = wipe_and_note(&calls);
    let refused = evoke.run_plan(other.plan(TWO_STEPS).unwrap(), &ConfirmWith::new(|_| true)).unwrap_err();
    assert_eq!(refused.exit(), Exit::Usage, "{refused}");
    assert!(calls.lock().unwrap().is_empty());
}

#[test]
fn a_decision_runs_only_in_the_evoke_that_made_it_even_a_clone() {
    let calls = Calls::default();
    let (_home, evoke) = in_code(vec![recorded("show", SHOW, &calls)]);
    let (_other_home, other) = in_code(vec![recorded("show", SHOW, &calls)]);
    let decision = other.decide("show the work notes").unwrap().clone();
    let refused = evoke.run(&decision, &ConfirmWith::new(|_| true)).unwrap_err();
    assert_eq!(refused.exit(), Exit::Usage, "{refused}");
    assert!(calls.lock().unwrap().is_empty());
}

// ---- A callback of the program may use its own `Evoke` -------------------------------------------------

#[test]
#[ignore = "defect: run_plan calls the person inside its runtime's block_on, so the person's own decide panics in tokio (sdk/open.rs run_plan)"]
fn a_person_may_decide_with_its_evoke_while_a_plan_waits_for_it() {
    let calls = Calls::default();
    let (_home, evoke) = wipe_and_note(&calls);
    let inner: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let person = ConfirmWith::new(|_| {
        // A program checking a second sentence before it answers: allowed when `run` asks (below).
        if let Err(e) = evoke.decide("erase the work notes") {
            inner.lock().unwrap().push(e.to_string());
        }
        true
    });
    let ran = evoke.run_plan(evoke.plan(TWO_STEPS).unwrap(), &person).unwrap();
    assert_eq!(ran.exit(), Exit::Done, "{:?}", ran.lines());
    assert_eq!(*inner.lock().unwrap(), Vec::<String>::new());
}

#[test]
fn a_person_may_decide_with_its_evoke_while_a_call_waits_for_it() {
    let calls = Calls::default();
    let (_home, evoke) = wipe_and_note(&calls);
    let inner: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let person = ConfirmWith::new(|_| {
        if let Err(e) = evoke.decide("add a note to my home notes") {
            inner.lock().unwrap().push(e.to_string());
        }
        true
    });
    let decision = evoke.decide("erase the work notes").unwrap();
    assert!(matches!(decision, Decision::Confirm(_)), "{}", decision.to_json_line());
    let ran = evoke.run(&decision, &person).unwrap();
    assert_eq!(ran.text(), Some("done"));
    assert_eq!(*inner.lock().unwrap(), Vec::<String>::new());
}

// ---- What a body hands back is bounded ----------------------------------------------------------------

const MIB: usize = 1 << 20;

/// `show`, whose body returns or throws what `body` makes.
fn show_with(body: impl Fn(&Called) -> Result<Returned, Thrown> + Send + Sync + 'static) -> (tempfile::TempDir, Evoke) {
    in_code(vec![CodeReflex::new("show", SHOW, body).unwrap()])
}

#[test]
fn a_result_over_the_bound_is_a_failed_call() {
    for (text, data) in
        [("x".repeat(MIB + 1), None), (String::new(), Some(serde_json::json!({ "x": "y".repeat(MIB) })))]
    {
        let returned = Returned { text, data };
        let (_home, evoke) = show_with(move |_| Ok(returned.clone()));
        let decision = evoke.decide("show the work notes").unwrap();
        let ran = evoke.run(&decision, &ConfirmWith::new(|_| true)).unwrap();
        assert!(!ran.succeeded() && ran.text().is_none(), "{:?}", ran.failure());
        assert!(ran.failure().unwrap().contains("more than"), "{:?}", ran.failure());
        assert!(ran.to_json_line().len() < MIB, "{}", ran.to_json_line().len());
    }
}

#[test]
#[ignore = "defect: a throw is not held to the output bound; its message and frames are kept and logged whole (sdk/code.rs CodeReflex::call)"]
fn a_throw_over_the_bound_is_held_to_it_as_a_result_is() {
    let (home, evoke) = show_with(|_| {
        Err(Thrown { message: "m".repeat(2 * MIB), frames: vec!["at show (notes.js:1:1)".to_string(); 100_000] })
    });
    let decision = evoke.decide("show the work notes").unwrap();
    let ran = evoke.run(&decision, &ConfirmWith::new(|_| true)).unwrap();
    assert!(!ran.succeeded());
    // A file body's report past 1 MiB is refused whole (evoke_bodies::node): a function's throw no less.
    assert!(ran.failure().unwrap().len() <= MIB, "a failure of {} bytes", ran.failure().unwrap().len());
    assert!(ran.to_json_line().len() <= 2 * MIB, "a line of {} bytes", ran.to_json_line().len());
    let log = std::fs::read_to_string(home.path().join("state/log.jsonl")).unwrap();
    let longest = log.lines().map(str::len).max().unwrap_or(0);
    assert!(longest <= 2 * MIB, "a logged line of {longest} bytes");
}
