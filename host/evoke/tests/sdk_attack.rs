//! The library's promises held against a hostile or careless program: a value the person gives must be
//! one of the closed choices, a name must be one `evoke.toml` could give, the bars are the home's of the
//! `Evoke`, a panic in the program's callbacks is an error and no more, and the rest of docs/sdk.md.
//!
//! it breaks.

mod common;

use common::{copy_tree, repo, trust, without_ms};
use evoke::exit::Exit;
use evoke::{Called, CodeReflex, ConfirmWith, Decision, Evoke, OpenOptions, Person, Question, Returned, Thrown};
use evoke_core::decision::{Missing, Value};
use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};

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

/// A line without the `values` the library adds after the command's fields.
fn without_values(line: &str) -> String {
    match line.rfind(",\"values\":") {
        Some(at) => format!("{}}}", &line[..at]),
        None => line.to_string(),
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

const WIPE: &str = include_str!("fixtures/wipe-code.toml");

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
"fits.show"   = { yes = 0.02 }
"wipe.folder" = { work = 0.97, home = 0.02, unstated = 0.01 }

[answers."show the work notes"]
route         = { show = 0.97, none = 0.03 }
"fits.show"   = { yes = 0.95 }
"fits.wipe"   = { yes = 0.02 }
"show.folder" = { work = 0.97, home = 0.02, unstated = 0.01 }

[answers."show my notes"]
route         = { show = 0.97, none = 0.03 }
"fits.show"   = { yes = 0.95 }
"fits.wipe"   = { yes = 0.02 }
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
fn an_answer_outside_the_options_never_reaches_a_plans_step() {
    let calls = Calls::default();
    let (_home, evoke) = wipe_and_note(&calls);
    let plan = evoke.plan("erase my notes, then add a note to my home notes").unwrap();
    assert_eq!(plan.steps()[0].decision.outcome, evoke_core::decision::Outcome::Ask, "{}", plan.to_json_line());
    let forger = Scripted::new(true, true, Some(Value::Option { key: "everything".into() }));
    let ran = evoke.run_plan(&plan, &forger).unwrap();
    let calls = calls.lock().unwrap();
    let wiped: Vec<&serde_json::Value> = calls.iter().map(|c| &c["args"]["folder"]).collect();
    assert!(!wiped.contains(&&serde_json::json!("everything")), "a step ran with a value the author never wrote");
    assert_ne!(ran.exit(), Exit::Done, "{:?}", ran.lines());
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
fn a_code_reflex_may_not_take_a_sentinel_or_reserved_name() {
    // `evoke.toml` refuses each of these as a reflex's local name (evoke_core::project::read_source).
    for name in ["none", "unstated", "route", "fits", "weave"] {
        let made = CodeReflex::new(name, SHOW, |_: &Called| Ok(Returned::default()));
        let refused = made.err().unwrap_or_else(|| panic!("`{name}` was taken as a reflex name"));
        assert_eq!(refused.exit(), Exit::Usage, "{name}: {refused}");
    }
}

#[test]
fn a_code_reflex_named_none_is_refused_before_it_breaks_every_decision() {
    let calls = Calls::default();
    let none = match CodeReflex::new("none", WIPE, |_: &Called| Ok(Returned::default())) {
        Err(refused) => return assert_eq!(refused.exit(), Exit::Usage, "{refused}"),
        Ok(none) => none,
    };
    let home = tempfile::tempdir().unwrap();
    let recording = home.path().join("recording.toml");
    // Every question the two reflexes raise is answered, and `show` clears every bar.
    std::fs::write(
        &recording,
        r#"id = "replay"

[gate]
route = 0.5
fits  = 0.3
read  = 0.6
write = 0.8

[answers."show the work notes"]
route         = { show = 0.97, none = 0.03 }
"fits.show"   = { yes = 0.95 }
"fits.none"   = { yes = 0.02 }
"show.folder" = { work = 0.97, home = 0.02, unstated = 0.01 }
"none.folder" = { unstated = 0.99 }
"#,
    )
    .unwrap();
    let options = OpenOptions {
        recording: Some(recording),
        home: Some(home.path().to_path_buf()),
        reflexes: vec![recorded("show", SHOW, &calls), none],
        ..Default::default()
    };
    let evoke = Evoke::in_code(options).unwrap();
    let decided = evoke.decide("show the work notes");
    assert!(matches!(decided, Ok(Decision::Run(_))), "a reflex named none broke the route: {decided:?}");
}

// ---- The bars are those of the `Evoke`'s own home -----------------------------------------------------

#[test]
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

const NOTE: &str = include_str!("fixtures/note-code.toml");

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
    let refused = evoke.run_plan(&other.plan(TWO_STEPS).unwrap(), &ConfirmWith::new(|_| true)).unwrap_err();
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
fn a_person_deciding_with_its_evoke_while_a_plan_runs_is_refused_with_its_fix() {
    let calls = Calls::default();
    let (_home, evoke) = wipe_and_note(&calls);
    let inner: Mutex<Vec<evoke::Error>> = Mutex::new(Vec::new());
    let person = ConfirmWith::new(|_| {
        // A program checking a second sentence before it answers, as it may while `run` asks (below).
        if let Err(e) = evoke.decide("erase the work notes") {
            inner.lock().unwrap().push(e);
        }
        true
    });
    let ran = evoke.run_plan(&evoke.plan(TWO_STEPS).unwrap(), &person).unwrap();
    assert_eq!(ran.exit(), Exit::Done, "{:?}", ran.lines());
    // The plan's runtime is busy on this thread: the call is refused with a way out, never a panic.
    let inner = inner.lock().unwrap();
    assert!(!inner.is_empty());
    for e in inner.iter() {
        assert_eq!(e.exit(), Exit::Usage, "{e}");
        assert!(e.fix().is_some_and(|fix| fix.contains("thread of its own")), "{e}");
    }
}

#[test]
fn a_person_may_decide_with_its_evoke_while_a_call_waits_for_it() {
    let calls = Calls::default();
    let (_home, evoke) = wipe_and_note(&calls);
    let inner: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let person = ConfirmWith::new(|_| {
        if let Err(e @ evoke::Error::Panicked { .. }) = evoke.decide("add a note to my home notes") {
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

// ---- An odd manifest is refused with its faults, never a panic -----------------------------------------

#[test]
fn a_manifest_nested_past_any_reason_is_refused_not_a_crash() {
    let deep = format!("{SHOW}\nnested = {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
    let refused = CodeReflex::new("show", &deep, |_: &Called| Ok(Returned::default())).unwrap_err();
    assert_eq!(refused.exit(), Exit::Usage, "{refused}");
}

#[test]
fn a_manifest_with_control_characters_is_refused_at_its_line() {
    let painted = SHOW.replace("Show the notes of one folder.", "Show the notes\u{1b}[2J of one folder.");
    let refused = CodeReflex::new("show", &painted, |_: &Called| Ok(Returned::default())).unwrap_err();
    assert_eq!(refused.exit(), Exit::Usage, "{refused}");
    let evoke::Error::Command(e) = &refused else { panic!("{refused:?}") };
    assert_eq!(e.diagnostics.first().map(|d| d.place.line), Some(2), "{:?}", e.diagnostics);
}

#[test]
fn a_huge_manifest_reads_or_is_refused_without_a_panic() {
    let mut huge = String::from(SHOW);
    for i in 0..20_000 {
        huge.push_str(&format!("\"show the work notes number {i}\" = {{ folder = \"work\" }}\n"));
    }
    let made = std::panic::catch_unwind(|| CodeReflex::new("show", &huge, |_: &Called| Ok(Returned::default())));
    let made = made.expect("a panic crossed CodeReflex::new");
    if let Err(refused) = made {
        assert_eq!(refused.exit(), Exit::Usage, "{refused}");
    }
}

// ---- A panic in the program's own callbacks is an error, and the `Evoke` goes on ----------------------

#[test]
fn a_panic_in_the_confirm_callback_is_an_error_and_nothing_runs() {
    let calls = Calls::default();
    let (_home, evoke) = in_code(vec![recorded("wipe", WIPE, &calls), recorded("show", SHOW, &calls)]);
    let decision = evoke.decide("erase the work notes").unwrap();
    let refused = evoke.run(&decision, &Panics).unwrap_err();
    assert!(
        matches!(&refused, evoke::Error::Panicked { message } if message.contains("confirm panicked")),
        "{refused:?}"
    );
    assert!(calls.lock().unwrap().is_empty(), "the body ran past a panicked confirm");
    // The same `Evoke` decides and runs after it.
    let ran = evoke.run(&decision, &ConfirmWith::new(|_| true)).unwrap();
    assert_eq!(ran.text(), Some("done"));
}

#[test]
fn a_panic_in_the_ask_callback_is_an_error_and_nothing_runs() {
    let calls = Calls::default();
    let (_home, evoke) = in_code(vec![recorded("show", SHOW, &calls)]);
    let decision = evoke.decide("show my notes").unwrap();
    let refused = evoke.run(&decision, &Panics).unwrap_err();
    assert!(matches!(&refused, evoke::Error::Panicked { message } if message.contains("ask panicked")), "{refused:?}");
    assert!(calls.lock().unwrap().is_empty());
    assert!(evoke.decide("show the work notes").is_ok());
}

#[test]
fn a_panic_in_a_plans_confirm_is_an_error_and_the_next_plan_runs() {
    let calls = Calls::default();
    let (_home, evoke) = wipe_and_note(&calls);
    let refused = evoke.run_plan(&evoke.plan(TWO_STEPS).unwrap(), &Panics).unwrap_err();
    assert!(matches!(refused, evoke::Error::Panicked { .. }), "{refused:?}");
    assert!(calls.lock().unwrap().is_empty(), "a step ran past a panicked confirm");
    // The journal the panicked run held is let go, and the runtime still drives.
    let ran = evoke.run_plan(&evoke.plan(TWO_STEPS).unwrap(), &ConfirmWith::new(|_| true)).unwrap();
    assert_eq!(ran.exit(), Exit::Done, "{:?}", ran.lines());
    assert_eq!(calls.lock().unwrap().len(), 2);
}

#[test]
fn a_panic_in_a_body_inside_a_plan_is_a_failed_step() {
    let calls = Calls::default();
    let home = tempfile::tempdir().unwrap();
    let wipe = CodeReflex::new("wipe", WIPE, |_: &Called| -> Result<Returned, Thrown> { panic!("the disk is gone") });
    let options = OpenOptions {
        home: Some(home.path().to_path_buf()),
        reflexes: vec![wipe.unwrap(), recorded("note", NOTE, &calls)],
        adapter: Some("local".into()),
        ..Default::default()
    };
    let evoke = Evoke::in_code(options).unwrap();
    let ran = evoke.run_plan(&evoke.plan(TWO_STEPS).unwrap(), &ConfirmWith::new(|_| true)).unwrap();
    assert_eq!(ran.exit(), Exit::Failed, "{:?}", ran.lines());
    assert!(ran.lines()[0].contains("the disk is gone"), "{:?}", ran.lines());
    assert!(calls.lock().unwrap().is_empty(), "the step after a failure ran");
}

// ---- Nobody present, and a decision run twice ----------------------------------------------------------

#[test]
fn with_nobody_present_a_confirm_or_an_ask_runs_nothing_and_is_class_3() {
    let calls = Calls::default();
    let (_home, evoke) = in_code(vec![recorded("wipe", WIPE, &calls), recorded("show", SHOW, &calls)]);
    let nobody = Scripted::new(false, true, Some(Value::Option { key: "work".into() }));
    for sentence in ["erase the work notes", "show my notes"] {
        let decision = evoke.decide(sentence).unwrap();
        let refused = evoke.run(&decision, &nobody).unwrap_err();
        assert_eq!(refused.exit(), Exit::NeedsPerson, "{sentence}: {refused}");
    }
    assert_eq!((nobody.confirms.get(), nobody.asks.get()), (0, 0));
    assert!(calls.lock().unwrap().is_empty());
    // A read that needs no answer runs with nobody present, as at the command.
    let ran = evoke.run(&evoke.decide("show the work notes").unwrap(), &nobody).unwrap();
    assert_eq!(ran.text(), Some("done"));
}

#[test]
fn with_nobody_present_a_plan_with_a_destructive_step_runs_nothing() {
    let calls = Calls::default();
    let (_home, evoke) = wipe_and_note(&calls);
    let nobody = Scripted::new(false, true, None);
    let ran = evoke.run_plan(&evoke.plan(TWO_STEPS).unwrap(), &nobody).unwrap();
    assert_eq!(ran.exit(), Exit::NeedsPerson, "{:?}", ran.lines());
    assert_eq!(nobody.confirms.get(), 0);
    assert!(calls.lock().unwrap().is_empty(), "a step ran with nobody present");
}

#[test]
fn a_destructive_decision_run_twice_asks_twice() {
    let calls = Calls::default();
    let (_home, evoke) = in_code(vec![recorded("wipe", WIPE, &calls)]);
    let decision = evoke.decide("erase the work notes").unwrap();
    let yes = Scripted::new(true, true, None);
    evoke.run(&decision, &yes).unwrap();
    let no = Scripted::new(true, false, None);
    assert_eq!(evoke.run(&decision, &no).unwrap_err().exit(), Exit::Declined);
    assert_eq!((yes.confirms.get(), no.confirms.get(), calls.lock().unwrap().len()), (1, 1, 1));
}

#[test]
fn what_a_body_returns_reaches_the_line_with_its_control_characters_escaped() {
    let (_home, evoke) = show_with(|_| {
        Ok(Returned { text: "\u{1b}[2Jcleared".into(), data: Some(serde_json::json!({ "bell": "\u{7}" })) })
    });
    let decision = evoke.decide("show the work notes").unwrap();
    let ran = evoke.run(&decision, &ConfirmWith::new(|_| true)).unwrap();
    // The program is handed the text as returned; the line, which a terminal may show, is escaped.
    assert_eq!(ran.text(), Some("\u{1b}[2Jcleared"));
    assert!(!ran.to_json_line().contains(['\u{1b}', '\u{7}']), "{:?}", ran.to_json_line());
    assert!(ran.to_json_line().contains(r#""result":{"text":"\u001b[2Jcleared""#), "{}", ran.to_json_line());
}

// ---- Threads --------------------------------------------------------------------------------------------

#[test]
fn one_evoke_serves_several_threads_at_once() {
    let calls = Calls::default();
    let (home, evoke) = in_code(vec![recorded("show", SHOW, &calls), recorded("wipe", WIPE, &calls)]);
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                for _ in 0..5 {
                    let decision = evoke.decide("show the work notes").unwrap();
                    assert_eq!(evoke.run(&decision, &ConfirmWith::new(|_| false)).unwrap().text(), Some("done"));
                    let decision = evoke.decide("erase the work notes").unwrap();
                    assert_eq!(evoke.run(&decision, &ConfirmWith::new(|_| false)).unwrap_err().exit(), Exit::Declined);
                }
            });
        }
    });
    assert_eq!(calls.lock().unwrap().len(), 20);
    // Every line the threads logged is whole.
    let log = std::fs::read_to_string(home.path().join("state/log.jsonl")).unwrap();
    for line in log.lines() {
        serde_json::from_str::<serde_json::Value>(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    }
    assert_eq!(log.lines().count(), 60, "{log}");
}

// ---- `why` and odd sentences --------------------------------------------------------------------------

#[test]
fn why_past_the_log_or_at_zero_is_class_2() {
    let (_home, evoke) = in_code(vec![recorded("show", SHOW, &Calls::default())]);
    assert_eq!(evoke.why(1).unwrap_err().exit(), Exit::Usage, "an empty log");
    evoke.decide("show the work notes").unwrap();
    assert!(evoke.why(1).unwrap().contains("show the work notes"));
    for back in [0, 2, usize::MAX] {
        assert_eq!(evoke.why(back).unwrap_err().exit(), Exit::Usage, "{back}");
    }
}

#[test]
fn an_odd_sentence_is_an_error_with_its_class_never_a_panic() {
    let (_home, evoke) = in_code(vec![recorded("show", SHOW, &Calls::default())]);
    let long = "show the work notes ".repeat(50_000);
    for sentence in ["", " ", "\u{0}", "show the \u{1b}[2J work notes", "\u{202e}seton krow eht wohs", long.as_str()] {
        match evoke.decide(sentence) {
            Ok(decision) => assert!(!decision.to_json_line().contains('\u{1b}'), "{}", decision.to_json_line()),
            Err(e) => assert!(!matches!(e, evoke::Error::Panicked { .. }), "{sentence:.40?}: {e:?}"),
        }
    }
}

// ---- Playbooks through `run_plan` ---------------------------------------------------------------------

/// The playbook transcript's project, copied where a test may trust it, opened with its recording.
fn playbooks() -> (tempfile::TempDir, tempfile::TempDir, PathBuf, PathBuf, Evoke) {
    let root = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let from = repo().join("transcripts/playbook");
    let project = root.path().join("project");
    copy_tree(&from.join("project"), &project);
    let recording = root.path().join("recording.toml");
    std::fs::copy(from.join("recording.toml"), &recording).unwrap();
    trust(home.path(), &project);
    let options =
        OpenOptions { recording: Some(recording.clone()), home: Some(home.path().to_path_buf()), ..Default::default() };
    let evoke = Evoke::open(&project, options).unwrap();
    (root, home, project, recording, evoke)
}

/// A person who answers evoke's own questions (a playbook's whole plan) and a call's confirm apart.
struct Reviewer {
    own: bool,
    calls: bool,
    asked_own: Cell<usize>,
}

impl Person for Reviewer {
    fn present(&self) -> bool {
        true
    }
    fn confirm(&self, question: Question<'_>) -> bool {
        match question {
            Question::Own(_) => {
                self.asked_own.set(self.asked_own.get() + 1);
                self.own
            }
            Question::Call(_) => self.calls,
        }
    }
    fn ask(&self, _: &Missing) -> Option<Value> {
        None
    }
}

/// Each line's `status`.
fn statuses(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["status"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn a_playbook_runs_nothing_on_a_no_to_its_whole_plan() {
    let (_root, _home, _project, _recording, evoke) = playbooks();
    let plan = evoke.plan("good night in the den").unwrap();
    assert_eq!(plan.playbook(), Some("good_night"));
    let no = Reviewer { own: false, calls: true, asked_own: Cell::new(0) };
    let ran = evoke.run_plan(&plan, &no).unwrap();
    assert_eq!((ran.exit(), no.asked_own.get()), (Exit::Declined, 1), "{:?}", ran.lines());
    let said = statuses(ran.lines());
    assert!(!said.is_empty() && said.iter().all(|s| s == "declined"), "{said:?}");
}

#[test]
fn a_playbook_with_nobody_present_runs_nothing() {
    let (_root, _home, _project, _recording, evoke) = playbooks();
    let nobody = Scripted::new(false, true, None);
    let ran = evoke.run_plan(&evoke.plan("good night in the den").unwrap(), &nobody).unwrap();
    assert_eq!((ran.exit(), nobody.confirms.get()), (Exit::NeedsPerson, 0), "{:?}", ran.lines());
    assert!(!statuses(ran.lines()).iter().any(|s| s == "ran"), "{:?}", ran.lines());
}

#[test]
fn a_playbook_reviewed_once_is_not_shown_whole_again() {
    let (_root, home, project, recording, evoke) = playbooks();
    let yes = Reviewer { own: true, calls: true, asked_own: Cell::new(0) };
    let ran = evoke.run_plan(&evoke.plan("good night in the den").unwrap(), &yes).unwrap();
    assert_eq!((ran.exit(), yes.asked_own.get()), (Exit::Done, 1), "{:?}", ran.lines());

    // The command, from the same home, takes the review as given: it runs with nobody at a terminal.
    let (code, out) = evoke_in(home.path(), &project, &recording, &["--json", "good night in the den"]);
    assert_eq!(code, Some(0), "{out}");
    // The library's own `Evoke`, which recorded that review, holds to it as well.
    let again = Reviewer { own: false, calls: true, asked_own: Cell::new(0) };
    let ran = evoke.run_plan(&evoke.plan("good night in the den").unwrap(), &again).unwrap();
    assert_eq!((ran.exit(), again.asked_own.get()), (Exit::Done, 0), "{:?}", ran.lines());
}

#[test]
fn a_plan_sentence_given_to_decide_is_logged_as_evoke_try_logs_it() {
    let (_root, home, project, recording, evoke) = playbooks();
    evoke.decide("turn off the den lamp").unwrap();
    assert_eq!(evoke.decide("good night in the den").unwrap_err().exit(), Exit::Usage);
    // `evoke try` logs the plan line of the same sentence, and `evoke why` explains it.
    let (code, _) = evoke_in(home.path(), &project, &recording, &["try", "good night in the den"]);
    assert_eq!(code, Some(0));
    let (_, said) = evoke_in(home.path(), &project, &recording, &["why", "2"]);
    assert!(said.contains("good night in the den"), "the library's decide was not logged: {said}");
}

// ---- The line of a decision is the command's, with `values` ------------------------------------------

const WIPE_FILE_BODY: &str = include_str!("fixtures/wipe.mjs");

const WIPE_FILE_RECORDING: &str = r#"id = "replay"

[gate]
route = 0.5
fits  = 0.3
read  = 0.6
write = 0.8

[answers."erase the work notes"]
route         = { wipe = 0.97, none = 0.03 }
"fits.wipe"   = { yes = 0.95 }
"wipe.folder" = { work = 0.97, home = 0.02, unstated = 0.01 }

[answers."erase my notes"]
route         = { wipe = 0.97, none = 0.03 }
"fits.wipe"   = { yes = 0.95 }
"wipe.folder" = { unstated = 0.97, work = 0.02, home = 0.01 }

[answers."bake a cake"]
route         = { none = 0.97, wipe = 0.03 }
"fits.wipe"   = { yes = 0.02 }
"#;

/// A project on disk with the destructive `wipe` as a file body, trusted in a home of its own.
fn wipe_on_disk() -> (tempfile::TempDir, tempfile::TempDir, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let write = |relative: &str, text: &str| {
        let path = root.path().join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("evoke.toml", "[reflexes]\nwipe = \"reflexes/wipe\"\n");
    write(
        "reflexes/wipe/reflex.toml",
        &format!("run = \"wipe.mjs\"\n{WIPE}\n[grants]\nfiles = {{ \"state\" = \"write\" }}\n"),
    );
    write("reflexes/wipe/wipe.mjs", WIPE_FILE_BODY);
    write("recording.toml", WIPE_FILE_RECORDING);
    trust(home.path(), root.path());
    let recording = root.path().join("recording.toml");
    (root, home, recording)
}

fn open_wipe(root: &Path, home: &Path, recording: &Path) -> Result<Evoke, evoke::Error> {
    let options =
        OpenOptions { recording: Some(recording.to_path_buf()), home: Some(home.to_path_buf()), ..Default::default() };
    Evoke::open(root, options)
}

#[test]
fn every_outcome_is_the_line_evoke_try_prints_with_values_after_it() {
    let (root, home, recording) = wipe_on_disk();
    let evoke = open_wipe(root.path(), home.path(), &recording).unwrap();
    for (sentence, outcome, values) in [
        ("erase the work notes", "confirm", Some(r#"{"folder":"work"}"#)),
        ("erase my notes", "ask", Some("{}")),
        ("bake a cake", "abstain", None),
    ] {
        let decision = evoke.decide(sentence).unwrap();
        let (code, tried) = evoke_in(home.path(), root.path(), &recording, &["try", "--json", sentence]);
        assert_eq!(code, Some(0), "{sentence}");
        let line = decision.to_json_line();
        assert_eq!(serde_json::to_string(&decision).unwrap(), line);
        assert_eq!(without_ms(&without_values(&line)), without_ms(tried.trim_end()), "{sentence}");
        assert!(line.contains(&format!(r#""outcome":"{outcome}""#)), "{line}");
        match values {
            Some(values) => assert!(line.ends_with(&format!(r#","values":{values}}}"#)), "{line}"),
            None => assert!(!line.contains(r#""values""#), "{line}"),
        }
    }
}

#[test]
fn an_abstain_run_is_class_4_and_runs_nothing() {
    let (root, home, recording) = wipe_on_disk();
    let evoke = open_wipe(root.path(), home.path(), &recording).unwrap();
    let decision = evoke.decide("bake a cake").unwrap();
    let refused = evoke.run(&decision, &ConfirmWith::new(|_| true)).unwrap_err();
    assert_eq!(refused.exit(), Exit::Abstain, "{refused}");
    assert!(!root.path().join("reflexes/wipe/state/ran").exists());
}

// ---- A project changed, untrusted, or answered by a recording that does not fit ----------------------

#[test]
fn a_project_changed_after_its_trust_is_refused_at_open_with_its_fix() {
    let (root, home, recording) = wipe_on_disk();
    let evoke = open_wipe(root.path(), home.path(), &recording).unwrap();
    let before = evoke.decide("erase the work notes").unwrap();
    std::fs::write(root.path().join("evoke.toml"), "[reflexes]\nwipe = \"reflexes/wipe\"\n# edited\n").unwrap();
    let Err(refused) = open_wipe(root.path(), home.path(), &recording) else { panic!("opened a changed project") };
    assert_eq!((refused.exit(), refused.fix().as_deref()), (Exit::NeedsPerson, Some("evoke trust")), "{refused}");
    // A decision made before the change still runs only on a yes.
    let no = Scripted::new(true, false, None);
    assert_eq!(evoke.run(&before, &no).unwrap_err().exit(), Exit::Declined);
    assert!(!root.path().join("reflexes/wipe/state/ran").exists());
}

#[test]
fn a_recording_that_does_not_fit_is_refused_at_open() {
    let (root, home, recording) = wipe_on_disk();
    let missing = root.path().join("no-such-recording.toml");
    let refused = open_wipe(root.path(), home.path(), &missing).err().expect("opened with a missing recording");
    assert_eq!(refused.exit(), Exit::Usage, "{refused}");

    let other = root.path().join("other.toml");
    std::fs::write(&other, format!("plan = \"sha256:{}\"\n{WIPE_FILE_RECORDING}", "0".repeat(64))).unwrap();
    let refused = open_wipe(root.path(), home.path(), &other).err().expect("opened with another project's recording");
    assert_eq!(refused.exit(), Exit::Usage, "{refused}");

    std::fs::write(&other, "id = \"replay\"\n[answers\n").unwrap();
    let refused = open_wipe(root.path(), home.path(), &other).err().expect("opened with a broken recording");
    assert_eq!(refused.exit(), Exit::Usage, "{refused}");
    // Nothing the recording never heard is decided.
    let evoke = open_wipe(root.path(), home.path(), &recording).unwrap();
    assert_eq!(evoke.decide("erase the home notes").unwrap_err().exit(), Exit::Refused);
}

#[test]
fn a_code_reflex_may_not_share_a_name_with_another_handed_over() {
    let calls = Calls::default();
    let home = tempfile::tempdir().unwrap();
    let options = OpenOptions {
        home: Some(home.path().to_path_buf()),
        reflexes: vec![recorded("show", SHOW, &calls), recorded("show", WIPE, &calls)],
        ..Default::default()
    };
    let refused = Evoke::in_code(options).err().expect("built with one name twice");
    assert_eq!(refused.exit(), Exit::Usage, "{refused}");
}

#[test]
fn a_vocabulary_the_project_built_in_code_lacks_is_refused_with_its_fix() {
    let rooms = SHOW
        .replace("options.work = \"The work notes.\"\noptions.home = \"The home notes.\"", "vocab = \"rooms\"")
        .replace("{ folder = \"work\" }", "{}")
        .replace("{ folder = \"home\" }", "{}");
    let home = tempfile::tempdir().unwrap();
    let options = OpenOptions {
        home: Some(home.path().to_path_buf()),
        reflexes: vec![CodeReflex::new("show", &rooms, |_: &Called| Ok(Returned::default())).unwrap()],
        ..Default::default()
    };
    let refused = Evoke::in_code(options).err().expect("built with a vocabulary nowhere to be read");
    assert_eq!(refused.exit(), Exit::Usage, "{refused}");
    assert!(refused.fix().is_some(), "{refused}");
}

// ---- What a body hands back stays readable ------------------------------------------------------------

/// JSON data `depth` arrays deep.
fn nested(depth: usize) -> serde_json::Value {
    let mut value = serde_json::json!("floor");
    for _ in 0..depth {
        value = serde_json::Value::Array(vec![value]);
    }
    value
}

#[test]
fn data_nested_past_what_json_readers_take_leaves_why_readable() {
    let (_home, evoke) = show_with(|_| Ok(Returned { text: "deep".into(), data: Some(nested(200)) }));
    let decision = evoke.decide("show the work notes").unwrap();
    // A file body's result that deep is no result (serde_json refuses it as it reads the body's report).
    evoke.run(&decision, &ConfirmWith::new(|_| true)).unwrap();
    let said = evoke.why(1);
    assert!(said.is_ok(), "{said:?}");
}

// ---- What a project built in code or opened may be handed ---------------------------------------------

#[test]
fn a_code_reflex_may_not_take_a_playbooks_name() {
    let (_root, home, project, recording, _evoke) = playbooks();
    for name in ["good_night", "lock_up", "lamp"] {
        let options = OpenOptions {
            recording: Some(recording.clone()),
            home: Some(home.path().to_path_buf()),
            reflexes: vec![recorded(name, SHOW, &Calls::default())],
            ..Default::default()
        };
        let refused = Evoke::open(&project, options).err().unwrap_or_else(|| panic!("opened with {name} twice"));
        assert_eq!(refused.exit(), Exit::Usage, "{name}: {refused}");
    }
}

#[test]
fn an_engine_named_for_a_project_on_disk_is_refused() {
    let (root, home, _recording) = wipe_on_disk();
    let options =
        OpenOptions { home: Some(home.path().to_path_buf()), adapter: Some("local".into()), ..Default::default() };
    let refused = Evoke::open(root.path(), options).err().expect("opened with an engine of the caller's");
    assert_eq!(refused.exit(), Exit::Usage, "{refused}");
    let options = OpenOptions {
        home: Some(home.path().to_path_buf()),
        adapter: Some("no_such_engine".into()),
        ..Default::default()
    };
    let refused = Evoke::in_code(options).err().expect("built with an engine that is nowhere");
    assert_eq!(refused.exit(), Exit::Usage, "{refused}");
    assert!(refused.fix().is_some(), "{refused}");
}

#[test]
fn a_project_built_in_code_takes_the_bars_of_its_own_home() {
    let calls = Calls::default();
    let home = tempfile::tempdir().unwrap();
    let recording = home.path().join("recording.toml");
    std::fs::write(&recording, RECORDING).unwrap();
    std::fs::create_dir_all(home.path().join("config")).unwrap();
    // A read bar over the recording's 0.95: the read now waits for a yes.
    std::fs::write(home.path().join("config/evoke.toml"), "[bars.replay]\nread = 0.99\nwrite = 0.99\n").unwrap();
    let options = OpenOptions {
        recording: Some(recording),
        home: Some(home.path().to_path_buf()),
        reflexes: vec![recorded("show", SHOW, &calls), recorded("wipe", WIPE, &calls)],
        ..Default::default()
    };
    let evoke = Evoke::in_code(options).unwrap();
    let decision = evoke.decide("show the work notes").unwrap();
    assert!(matches!(decision, Decision::Confirm(_)), "{}", decision.to_json_line());
    assert_eq!(evoke.run(&decision, &Scripted::new(true, false, None)).unwrap_err().exit(), Exit::Declined);
    assert!(calls.lock().unwrap().is_empty());
}

// ---- Saved plans ---------------------------------------------------------------------------------------

#[test]
fn a_saved_plan_of_code_reflexes_is_refused_by_the_command() {
    let calls = Calls::default();
    let (home, evoke) = wipe_and_note(&calls);
    let saved = evoke.save(&evoke.plan(TWO_STEPS).unwrap()).unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let file = elsewhere.path().join("plan.json");
    std::fs::write(&file, saved).unwrap();
    // The project built in code is the home one: the command, from a directory with no project, is there.
    let out = Command::new(env!("CARGO_BIN_EXE_evoke"))
        .args(["run".as_ref(), file.as_os_str()])
        .current_dir(elsewhere.path())
        .env("EVOKE_HOME", home.path())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(Exit::Refused as i32), "{said}");
    assert!(calls.lock().unwrap().is_empty());
}

#[test]
fn a_saved_plan_of_code_reflexes_is_refused_by_the_command_and_runs_nothing() {
    let (home, evoke) = wipe_and_note(&Calls::default());
    let saved = evoke.save(&evoke.plan(TWO_STEPS).unwrap()).unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let file = elsewhere.path().join("plan.json");
    std::fs::write(&file, saved).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_evoke"))
        .args(["run".as_ref(), file.as_os_str()])
        .current_dir(elsewhere.path())
        .env("EVOKE_HOME", home.path())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    // docs/sdk.md: the command refuses a plan whose reflexes it does not hold, and runs nothing of it.
    assert!(!out.status.success(), "{said}");
    assert!(said.contains("nothing ran"), "{said}");
}

#[test]
fn a_refused_plan_is_not_saved_and_runs_nothing() {
    let (_root, _home, _project, _recording, evoke) = playbooks();
    let refused = evoke.plan("good night in the den and turn on the office lamp").unwrap();
    assert_eq!(refused.verdict().outcome, evoke_core::decision::Outcome::Abstain, "{}", refused.to_json_line());
    assert_eq!(evoke.save(&refused).unwrap_err().exit(), Exit::Usage);
    let yes = Scripted::new(true, true, None);
    let ran = evoke.run_plan(&refused, &yes).unwrap();
    assert_eq!((ran.exit(), yes.confirms.get()), (Exit::Abstain, 0), "{:?}", ran.lines());
    assert!(!statuses(ran.lines()).iter().any(|s| s == "ran"), "{:?}", ran.lines());
}

// ---- A home that is no directory ------------------------------------------------------------------------

#[test]
fn a_home_that_is_a_file_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("home");
    std::fs::write(&file, "not a directory").unwrap();
    let options = OpenOptions {
        home: Some(file),
        reflexes: vec![recorded("show", SHOW, &Calls::default())],
        adapter: Some("local".into()),
        ..Default::default()
    };
    let refused = Evoke::in_code(options).err().expect("built under a home that is a file");
    assert!(!matches!(refused, evoke::Error::Panicked { .. }), "{refused:?}");
}

// ---- A code body that uses its own `Evoke` ---------------------------------------------------------------

#[test]
fn a_code_body_may_decide_with_its_evoke_under_run_and_is_refused_inside_a_plan() {
    let evoke_of_body: Arc<std::sync::OnceLock<std::sync::Weak<Evoke>>> = Arc::default();
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let refused: Arc<Mutex<Vec<Exit>>> = Arc::default();
    let (of_body, said, refusals) = (evoke_of_body.clone(), seen.clone(), refused.clone());
    // `note` checks a sentence with its own `Evoke` before it writes, as it may when `run` calls it.
    let note = CodeReflex::new("note", NOTE, move |_: &Called| {
        let evoke = of_body.get().and_then(std::sync::Weak::upgrade).expect("the Evoke is set");
        match evoke.decide("erase the work notes") {
            Err(e @ evoke::Error::Panicked { .. }) => said.lock().unwrap().push(e.to_string()),
            Err(e) => refusals.lock().unwrap().push(e.exit()),
            Ok(_) => {}
        }
        Ok(Returned { text: "noted".into(), data: None })
    })
    .unwrap();
    let home = tempfile::tempdir().unwrap();
    let options = OpenOptions {
        home: Some(home.path().to_path_buf()),
        reflexes: vec![recorded("wipe", WIPE, &Calls::default()), note],
        adapter: Some("local".into()),
        ..Default::default()
    };
    let evoke = Arc::new(Evoke::in_code(options).unwrap());
    evoke_of_body.set(Arc::downgrade(&evoke)).unwrap();

    let decision = evoke.decide("add a note to my home notes").unwrap();
    assert_eq!(evoke.run(&decision, &ConfirmWith::new(|_| true)).unwrap().text(), Some("noted"));
    assert_eq!(*seen.lock().unwrap(), Vec::<String>::new(), "the body's decide failed under run");

    let ran = evoke.run_plan(&evoke.plan(TWO_STEPS).unwrap(), &ConfirmWith::new(|_| true)).unwrap();
    assert_eq!(ran.exit(), Exit::Done, "{:?}", ran.lines());
    assert_eq!(*seen.lock().unwrap(), Vec::<String>::new(), "the body's decide panicked under run_plan");
    assert_eq!(refused.lock().unwrap().as_slice(), [Exit::Usage], "under run_plan, a refusal with its fix");
}

// ---- An `Evoke` inside a program's async runtime -------------------------------------------------------

#[test]
fn an_evoke_dropped_inside_an_async_runtime_never_panics_into_the_program() {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let calls = Calls::default();
    let (_home, evoke) = in_code(vec![recorded("show", SHOW, &calls)]);
    let dropped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // A program handing its Evoke to a task that ends: the Evoke is dropped on the runtime's thread.
        runtime.block_on(async move { drop(evoke) })
    }));
    assert!(dropped.is_ok(), "dropping an Evoke panicked in the program");
}

#[test]
fn a_call_from_inside_an_async_runtime_is_refused_with_its_fix() {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let calls = Calls::default();
    let (_home, evoke) = in_code(vec![recorded("show", SHOW, &calls)]);
    let decided = runtime.block_on(async { evoke.decide("show the work notes") });
    // docs/sdk.md: "call them from outside an async runtime"; a call from inside is the program's mistake.
    let refused = decided.err().expect("decided inside an async runtime");
    assert!(!matches!(refused, evoke::Error::Panicked { .. }), "{refused:?}");
    assert!(refused.fix().is_some(), "{refused}");
}
