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
