//! Reflexes handed to the library as code: decided as installed ones are, run as the program's function,
//! held to the same confirm, and pinned in a plan file by their `item` alone.

use evoke::exit::Exit;
use evoke::{Called, CodeReflex, ConfirmWith, Decision, Evoke, OpenOptions, Returned, Thrown};
use std::sync::{Arc, Mutex};

const WIPE: &str = include_str!("fixtures/wipe-code.toml");

const WIPE_RECORDING: &str = include_str!("fixtures/wipe-recording.toml");

/// Every call the body was handed, as the JSON a file body receives.
type Calls = Arc<Mutex<Vec<serde_json::Value>>>;

fn wipe(calls: &Calls) -> CodeReflex {
    let calls = calls.clone();
    CodeReflex::new("wipe", WIPE, move |call: &Called| {
        calls.lock().unwrap().push(call.to_json());
        Ok(Returned { text: format!("erased {}", call.args()["folder"].as_str().unwrap_or("?")), data: None })
    })
    .unwrap()
}

/// A project built in code with `reflexes`, answered by the recording, its files under a home of its own.
fn in_code(reflexes: Vec<CodeReflex>) -> (tempfile::TempDir, Evoke) {
    let home = tempfile::tempdir().unwrap();
    let recording = home.path().join("recording.toml");
    std::fs::write(&recording, WIPE_RECORDING).unwrap();
    let options = OpenOptions {
        recording: Some(recording),
        home: Some(home.path().to_path_buf()),
        reflexes,
        ..Default::default()
    };
    let evoke = Evoke::in_code(options).unwrap();
    (home, evoke)
}

#[test]
fn a_reflex_handed_as_code_runs_its_function_only_on_the_confirms_yes() {
    let calls = Calls::default();
    let (_home, evoke) = in_code(vec![wipe(&calls)]);
    let decision = evoke.decide("erase the work notes").unwrap();
    let Decision::Confirm(confirm) = &decision else { panic!("a destructive call confirms: {decision:?}") };
    assert_eq!(confirm.call().line(), "wipe folder=\"work\"");

    let refused = evoke.run(&decision, &ConfirmWith::new(|_| false)).unwrap_err();
    assert_eq!(refused.exit(), Exit::Declined);
    assert!(calls.lock().unwrap().is_empty(), "the body ran on a no");

    let ran = evoke.run(&decision, &ConfirmWith::new(|_| true)).unwrap();
    assert_eq!(ran.text(), Some("erased work"));
    let calls = calls.lock().unwrap();
    assert_eq!(
        *calls,
        [serde_json::json!({ "args": { "folder": "work" }, "input": "erase the work notes", "config": {} })]
    );
    // The line logged and handed back is the command's, with the result.
    assert!(ran.to_json_line().contains(r#""result":{"text":"erased work"}"#), "{}", ran.to_json_line());
}

#[test]
fn a_body_that_throws_or_panics_is_a_failed_call_with_its_frames() {
    let thrown = CodeReflex::new("wipe", WIPE, |_: &Called| {
        Err(Thrown { message: "disk is read-only".into(), frames: vec!["at wipe (notes.js:3:9)".into()] })
    })
    .unwrap();
    let (_home, evoke) = in_code(vec![thrown]);
    let decision = evoke.decide("erase the work notes").unwrap();
    let ran = evoke.run(&decision, &ConfirmWith::new(|_| true)).unwrap();
    assert_eq!((ran.succeeded(), ran.failure()), (false, Some("disk is read-only")));
    assert!(ran.to_json_line().contains("at wipe (notes.js:3:9)"), "{}", ran.to_json_line());

    let panics =
        CodeReflex::new("wipe", WIPE, |_: &Called| -> Result<Returned, Thrown> { panic!("no notes here") }).unwrap();
    let (_home, evoke) = in_code(vec![panics]);
    let decision = evoke.decide("erase the work notes").unwrap();
    let ran = evoke.run(&decision, &ConfirmWith::new(|_| true)).unwrap();
    assert_eq!(ran.failure(), Some("no notes here"));
}

#[test]
fn a_manifest_handed_as_code_is_refused_with_its_line_key_and_fix() {
    let with_run = format!("run = \"wipe.mjs\"\n{WIPE}");
    let refused = CodeReflex::new("wipe", &with_run, |_: &Called| Ok(Returned::default())).unwrap_err();
    assert_eq!(refused.exit(), Exit::Usage);
    let evoke::Error::Command(e) = &refused else { panic!("{refused:?}") };
    let fault = &e.diagnostics[0];
    assert_eq!((fault.key.as_str(), fault.place.line, fault.fix.as_deref()), ("run", 1, Some("remove `run`")));

    let refused = CodeReflex::new("Wipe Notes", WIPE, |_: &Called| Ok(Returned::default())).unwrap_err();
    assert_eq!(refused.exit(), Exit::Usage, "{refused}");
}

#[test]
fn a_code_reflex_may_not_take_an_installed_name() {
    let root = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(root.path().join("reflexes/wipe")).unwrap();
    std::fs::write(root.path().join("evoke.toml"), "[reflexes]\nwipe = \"reflexes/wipe\"\n").unwrap();
    std::fs::write(root.path().join("reflexes/wipe/reflex.toml"), format!("run = \"wipe.mjs\"\n{WIPE}")).unwrap();
    std::fs::write(root.path().join("reflexes/wipe/wipe.mjs"), "export default () => 'x';\n").unwrap();
    let trusted = std::process::Command::new(env!("CARGO_BIN_EXE_evoke"))
        .args(["-C".as_ref(), root.path().as_os_str(), "trust".as_ref()])
        .env("EVOKE_HOME", home.path())
        .output()
        .unwrap();
    assert!(trusted.status.success(), "{}", String::from_utf8_lossy(&trusted.stderr));
    let options = OpenOptions {
        home: Some(home.path().to_path_buf()),
        reflexes: vec![wipe(&Calls::default())],
        ..Default::default()
    };
    let Err(refused) = Evoke::open(root.path(), options) else { panic!("opened with the name twice") };
    assert_eq!(refused.exit(), Exit::Usage);
    assert!(refused.message().contains("installed already"), "{refused}");
}

const NOTE: &str = include_str!("fixtures/note-code.toml");

/// A project built in code with `wipe` and a `note` that records its calls too, decided by `local`.
fn wipe_and_note(calls: &Calls) -> (tempfile::TempDir, Evoke, CodeReflex, CodeReflex) {
    let home = tempfile::tempdir().unwrap();
    let noted = calls.clone();
    let note = CodeReflex::new("note", NOTE, move |call: &Called| {
        noted.lock().unwrap().push(call.to_json());
        Ok(Returned { text: "noted".into(), data: None })
    })
    .unwrap();
    let wipe = wipe(calls);
    let options = OpenOptions {
        home: Some(home.path().to_path_buf()),
        reflexes: vec![wipe.clone(), note.clone()],
        adapter: Some("local".into()),
        ..Default::default()
    };
    (home, Evoke::in_code(options).unwrap(), wipe, note)
}

const TWO_STEPS: &str = "erase the work notes, then add a note to my home notes";

#[test]
fn a_plan_of_code_reflexes_runs_step_by_step_through_the_person() {
    let calls = Calls::default();
    let (_home, evoke, _, _) = wipe_and_note(&calls);
    let declined = evoke.run_plan(&evoke.plan(TWO_STEPS).unwrap(), &ConfirmWith::new(|_| false)).unwrap();
    assert_eq!(declined.exit(), Exit::Declined, "{:?}", declined.lines());
    assert!(calls.lock().unwrap().is_empty(), "a step ran on a no");

    let asked = std::cell::Cell::new(0);
    let person = ConfirmWith::new(|_| {
        asked.set(asked.get() + 1);
        true
    });
    let ran = evoke.run_plan(&evoke.plan(TWO_STEPS).unwrap(), &person).unwrap();
    assert_eq!(ran.exit(), Exit::Done, "{:?}", ran.lines());
    let statuses: Vec<serde_json::Value> =
        ran.lines().iter().map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["status"].clone()).collect();
    assert_eq!(statuses, ["ran", "ran"]);
    let folders: Vec<serde_json::Value> = calls.lock().unwrap().iter().map(|c| c["args"]["folder"].clone()).collect();
    assert_eq!(folders, ["work", "home"]);
    // The destructive step confirmed at its turn, whatever else asked.
    assert!(asked.get() >= 1);
}

#[test]
fn a_plan_file_pins_a_code_reflex_by_its_item_alone() {
    let (_home, evoke, wipe, note) = wipe_and_note(&Calls::default());
    let (wipe_item, note_item) = (wipe.item(), note.item());
    let plan = evoke.plan(TWO_STEPS).unwrap();
    assert_eq!(plan.steps().len(), 2, "{}", plan.to_json_line());
    let file: serde_json::Value = serde_json::from_str(&evoke.save(&plan).unwrap()).unwrap();
    assert_eq!(
        file["reflexes"],
        serde_json::json!({ "note": { "item": note_item }, "wipe": { "item": wipe_item } }),
        "{file:#}"
    );
    assert!(wipe_item.starts_with("sha256:"), "{wipe_item}");
}

#[test]
fn a_decision_run_inside_a_plans_callback_is_refused_and_runs_nothing() {
    let calls = Calls::default();
    let (_home, evoke, _, _) = wipe_and_note(&calls);
    let decision = evoke.decide("erase the work notes").unwrap();
    let inner = Mutex::new(Vec::new());
    let person = ConfirmWith::new(|_| {
        inner.lock().unwrap().push(evoke.run(&decision, &ConfirmWith::new(|_| true)).map(|_| ()));
        false
    });
    let ran = evoke.run_plan(&evoke.plan(TWO_STEPS).unwrap(), &person).unwrap();
    assert_eq!(ran.exit(), Exit::Declined);
    let inner = inner.lock().unwrap();
    assert!(!inner.is_empty() && inner.iter().all(|r| r.as_ref().is_err_and(|e| e.exit() == Exit::Usage)));
    assert!(calls.lock().unwrap().is_empty(), "a destructive body ran inside the plan's callback");
}

#[test]
fn calls_nested_past_the_bound_are_refused_and_the_process_lives_on() {
    type Shared = Arc<std::sync::OnceLock<std::sync::Weak<Evoke>>>;
    let shared: Shared = Arc::default();
    let depths = Arc::new(Mutex::new(Vec::new()));
    let (of_body, seen) = (shared.clone(), depths.clone());
    // A note whose body notes again, and again, with its own Evoke, until evoke refuses.
    let note = CodeReflex::new("note", NOTE, move |_: &Called| {
        let evoke = of_body.get().and_then(std::sync::Weak::upgrade).expect("the Evoke is set");
        let refused = |e: evoke::Error| {
            seen.lock().unwrap().push(e.exit());
            Thrown::new(e.to_string())
        };
        let decision = evoke.decide("add a note to my home notes").map_err(refused)?;
        match evoke.run(&decision, &ConfirmWith::new(|_| true)) {
            Ok(ran) if ran.succeeded() => Ok(Returned { text: "noted".into(), data: None }),
            Ok(ran) => Err(Thrown::new(ran.failure().unwrap_or_default())),
            Err(e) => Err(refused(e)),
        }
    })
    .unwrap();
    let home = tempfile::tempdir().unwrap();
    let options = OpenOptions {
        home: Some(home.path().to_path_buf()),
        reflexes: vec![note],
        adapter: Some("local".into()),
        ..Default::default()
    };
    let evoke = Arc::new(Evoke::in_code(options).unwrap());
    shared.set(Arc::downgrade(&evoke)).unwrap();
    let decision = evoke.decide("add a note to my home notes").unwrap();
    let ran = evoke.run(&decision, &ConfirmWith::new(|_| true)).unwrap();
    assert!(!ran.succeeded());
    assert!(ran.failure().unwrap_or_default().contains("nested"), "{:?}", ran.failure());
    assert_eq!(depths.lock().unwrap().first(), Some(&Exit::Usage));
}

#[test]
fn a_plan_refused_while_another_run_holds_its_journal_is_left_to_run() {
    let calls = Calls::default();
    let (_home, evoke, _, _) = wipe_and_note(&calls);
    let (first, second) = (evoke.plan(TWO_STEPS).unwrap(), evoke.plan(TWO_STEPS).unwrap());
    let (asked, go) = (std::sync::Barrier::new(2), std::sync::Barrier::new(2));
    std::thread::scope(|scope| {
        // The first run waits at its first confirm, holding the plan's journal.
        let holding = scope.spawn(|| {
            let once = std::sync::Once::new();
            let person = ConfirmWith::new(|_| {
                once.call_once(|| {
                    asked.wait();
                    go.wait();
                });
                true
            });
            evoke.run_plan(&first, &person).map(|ran| ran.exit())
        });
        asked.wait();
        let busy = evoke.run_plan(&second, &ConfirmWith::new(|_| true)).unwrap_err();
        assert_eq!(busy.exit(), Exit::Refused, "{busy}");
        assert!(!second.ran(), "a plan refused before its first step is spent");
        go.wait();
        assert_eq!(holding.join().unwrap().unwrap(), Exit::Done);
    });
    assert!(first.ran());
    let again = evoke.run_plan(&first, &ConfirmWith::new(|_| true)).unwrap_err();
    assert_eq!(again.exit(), Exit::Usage, "a plan runs once: {again}");
    assert_eq!(evoke.run_plan(&second, &ConfirmWith::new(|_| true)).unwrap().exit(), Exit::Done);
}
