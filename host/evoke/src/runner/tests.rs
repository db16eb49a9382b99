//! The runner step by step, over a project built in code (its bodies are functions that record each call)
//! and decided by `local`, so that no engine, recording or Node is needed.

use super::{Journaled, Options, Why, run, stages::passed_by};
use crate::exit::Exit;
use crate::log::Log;
use crate::sdk::{Called, CodeReflex, Returned, Thrown};
use crate::session::{Session, Workspace};
use crate::ui::{Person, Question, Ui};
use evoke_core::decision::{Missing, Value};
use std::sync::{Arc, Mutex};
use std::time::Instant;

const WIPE: &str = include_str!("../../tests/fixtures/wipe-code.toml");

const NOTE: &str = include_str!("../../tests/fixtures/note-code.toml");

const TWO_STEPS: &str = "erase the work notes, then add a note to my home notes";

/// The reflexes called, in order, by name.
type Calls = Arc<Mutex<Vec<String>>>;

/// `wipe` and `note`, each recording its call; `note` throws when `note_throws`.
fn reflexes(calls: &Calls, note_throws: bool) -> Vec<CodeReflex> {
    let wiped = calls.clone();
    let wipe = CodeReflex::new("wipe", WIPE, move |_: &Called| {
        wiped.lock().unwrap().push("wipe".into());
        Ok(Returned { text: "wiped".into(), data: None })
    });
    let noted = calls.clone();
    let note = CodeReflex::new("note", NOTE, move |_: &Called| {
        noted.lock().unwrap().push("note".into());
        if note_throws { Err(Thrown::new("the notebook is full")) } else { Ok(Returned::default()) }
    });
    vec![wipe.unwrap(), note.unwrap()]
}

fn session(home: &std::path::Path, code: &[CodeReflex]) -> Session {
    let workspace = Workspace::in_code(Some(home), Some("local")).unwrap();
    Session::of(crate::sdk::with_code(workspace, code).unwrap(), None).unwrap()
}

/// A person with fixed answers, counting the confirms put to it.
struct Answers {
    present: bool,
    yes: bool,
    confirms: std::cell::Cell<usize>,
}

impl Person for Answers {
    fn present(&self) -> bool {
        self.present
    }
    fn confirm(&self, _: Question<'_>) -> bool {
        self.confirms.set(self.confirms.get() + 1);
        self.yes
    }
    fn ask(&self, _: &Missing) -> Option<Value> {
        None
    }
}

fn person(present: bool, yes: bool) -> Answers {
    Answers { present, yes, confirms: std::cell::Cell::new(0) }
}

/// Plans `sentence` and runs it through `person` under `journaled`: the exit and each line's status and why.
fn run_plan(
    session: &Session,
    code: &[CodeReflex],
    sentence: &str,
    person: &dyn Person,
    journaled: Journaled<'_>,
) -> (Exit, Vec<(String, serde_json::Value)>) {
    let runtime = crate::session::runtime().unwrap();
    let request = session.request(Instant::now());
    let Ok(crate::weave::Woven::Plan(woven)) = runtime.block_on(crate::weave::weave(&request, sentence)) else {
        panic!("`{sentence}` is not read as a plan")
    };
    let ui = Ui::captured().with_person(person);
    let options = Options {
        ui: &ui,
        json: true,
        project_flag: None,
        pinned: None,
        assigned: &[],
        repeated: &[],
        signals: false,
        code,
    };
    let mut log = Log::open(&session.places.log());
    let exit = runtime.block_on(run(session, &mut log, *woven, Instant::now(), &options, journaled)).unwrap();
    let lines = ui.captured_out().0;
    let ended = lines
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .map(|l| (l["status"].as_str().unwrap_or_default().to_string(), l["why"].clone()))
        .collect();
    (exit, ended)
}

fn statuses(ended: &[(String, serde_json::Value)]) -> Vec<&str> {
    ended.iter().map(|(s, _)| s.as_str()).collect()
}

#[test]
fn every_step_runs_at_its_turn_in_order() {
    let home = tempfile::tempdir().unwrap();
    let calls = Calls::default();
    let code = reflexes(&calls, false);
    let session = session(home.path(), &code);
    let yes = person(true, true);
    let (exit, ended) = run_plan(&session, &code, TWO_STEPS, &yes, Journaled::Said);
    assert_eq!((exit, statuses(&ended)), (Exit::Done, vec!["ran", "ran"]));
    assert_eq!(*calls.lock().unwrap(), ["wipe", "note"]);
    // The destructive step was put to the person at its turn.
    assert!(yes.confirms.get() >= 1);
}

#[test]
fn a_declined_step_ends_the_plan_and_the_steps_after_it_are_skipped() {
    let home = tempfile::tempdir().unwrap();
    let calls = Calls::default();
    let code = reflexes(&calls, false);
    let session = session(home.path(), &code);
    let (exit, ended) = run_plan(&session, &code, TWO_STEPS, &person(true, false), Journaled::Said);
    assert_eq!((exit, statuses(&ended)), (Exit::Declined, vec!["declined", "skipped"]));
    assert_eq!(ended[1].1, serde_json::json!({ "type": "earlier_step" }));
    assert!(calls.lock().unwrap().is_empty());
}

#[test]
fn with_nobody_present_a_plan_whose_step_waits_runs_nothing() {
    let home = tempfile::tempdir().unwrap();
    let calls = Calls::default();
    let code = reflexes(&calls, false);
    let session = session(home.path(), &code);
    let (exit, ended) = run_plan(&session, &code, TWO_STEPS, &person(false, true), Journaled::Said);
    assert_eq!(exit, Exit::NeedsPerson);
    assert_eq!(ended[0].0, "unanswered");
    assert!(ended.iter().all(|(s, _)| s == "unanswered" || s == "skipped"), "{ended:?}");
    assert!(calls.lock().unwrap().is_empty(), "a step ran with no one to say yes");
}

#[test]
fn the_exit_is_the_worst_steps_and_a_failure_says_why() {
    let home = tempfile::tempdir().unwrap();
    let calls = Calls::default();
    let code = reflexes(&calls, true);
    let session = session(home.path(), &code);
    let (exit, ended) = run_plan(&session, &code, TWO_STEPS, &person(true, true), Journaled::Said);
    assert_eq!((exit, statuses(&ended)), (Exit::Failed, vec!["ran", "failed"]));
    assert_eq!(ended[1].1, serde_json::json!({ "type": "said", "message": "the notebook is full" }));
}

#[test]
fn a_step_the_journal_holds_as_done_never_runs_again() {
    let home = tempfile::tempdir().unwrap();
    let calls = Calls::default();
    let code = reflexes(&calls, false);
    let session = session(home.path(), &code);
    let journaled = || Journaled::File { seal: "a-seal-of-this-plan" };
    let (first, _) = run_plan(&session, &code, TWO_STEPS, &person(true, true), journaled());
    assert_eq!(first, Exit::Done);
    let (again, ended) = run_plan(&session, &code, TWO_STEPS, &person(true, true), journaled());
    assert_eq!((again, statuses(&ended)), (Exit::Done, vec!["ran", "ran"]));
    let said = ended[0].1["message"].as_str().unwrap_or_default();
    assert!(said.contains("does not run again"), "{said}");
    assert_eq!(*calls.lock().unwrap(), ["wipe", "note"], "a step ran twice");
}

#[test]
fn a_when_runs_its_step_only_under_the_value_its_source_yielded() {
    let when = evoke_core::playbook::When { step: 1, field: "open".into(), is: "true".into() };
    let yielded = |v: serde_json::Value| vec![Some(serde_json::json!({ "open": v }))];
    assert_eq!(passed_by(&when, &yielded(serde_json::json!(true)), &[true]), None);
    assert_eq!(
        passed_by(&when, &yielded(serde_json::json!(false)), &[true]),
        Some(Why::NotChosen { from: 1, value: serde_json::json!(false) })
    );
    // A source that did not run passes its step by as the earlier step's doing, whatever it held.
    assert_eq!(passed_by(&when, &yielded(serde_json::json!(true)), &[false]), Some(Why::EarlierStep));
}

#[test]
fn a_day_of_the_month_beside_a_step_is_read_after_the_day_that_step_gave() {
    use super::Bound;
    use super::beside::read_beside;
    use evoke_core::decision::{Args, Decision, Outcome};
    use evoke_core::recognize::{DateReading, PickValue, Span};
    use evoke_core::weave::plan::{Decided, settle};
    use evoke_core::weave::{Part, Reading};
    let date = |text: &str, reading: DateReading| Value::Pick {
        span: Span { start: 0, end: text.chars().count(), text: text.into() },
        value: PickValue::Date(reading),
    };
    let part = |start: usize, text: &str| Part { start, end: start + text.len(), text: text.into(), connective: None };
    let flight = Decision::bare("look up my flight", Outcome::Run, Some("flight"), Args::default());
    let seventh = date("the 7th", DateReading::Day { day: 7 });
    let hotel = Decision::bare(
        "book a hotel until the 7th",
        Outcome::Run,
        Some("hotel"),
        Args(vec![("until".into(), seventh)]),
    );
    let decided = vec![
        Decided { part: part(0, "look up my flight"), decision: flight, repair: None },
        Decided { part: part(22, "book a hotel until the 7th"), decision: hotel.clone(), repair: None },
    ];
    let reading = Reading { parts: decided.iter().map(|d| d.part.clone()).collect(), excluded: vec![], splits: vec![] };
    let mut plan = settle("look up my flight and book a hotel until the 7th", &reading, decided);
    plan.steps[1].beside.insert("until".into(), 1);
    let landed = Bound {
        arg: "from".into(),
        from: 1,
        field: "lands".into(),
        value: Some(date("2027-03-30", DateReading::Calendar { year: 2027, month: 3, day: 30 })),
    };
    let today = evoke_bodies::dates::today();
    let read = read_beside(&plan, 1, std::slice::from_ref(&landed), hotel.clone(), today).unwrap();
    let until = read.args.as_ref().and_then(|a| a.get("until")).cloned();
    let april = date("the 7th", DateReading::Calendar { year: 2027, month: 4, day: 7 });
    assert_eq!(until, Some(april), "the 7th after the 30th of March is in April");
    // Without a day taken from that step, nor one its own words say, the day stays as read.
    let unread = read_beside(&plan, 1, &[], hotel.clone(), today).unwrap();
    assert_eq!(unread, hotel);
    // A day past the calendar's end beside the earlier day is no value, never the next one from today.
    let last = Bound {
        value: Some(date("9999-12-31", DateReading::Calendar { year: 9999, month: 12, day: 31 })),
        ..landed.clone()
    };
    let past = read_beside(&plan, 1, std::slice::from_ref(&last), hotel.clone(), today);
    assert_eq!(past, Err("until names no day after step 1's".to_string()));
}

const WEATHER: &str = "reflex = 1
description = \"Look up today's weather forecast.\"
effect = \"read\"
confirm = \"Look up the forecast?\"
returns = \"report\"

[examples]
\"check the weather\" = {}
\"what's the forecast today\" = {}
";

const SEND: &str = "reflex = 1
description = \"Send a report to a colleague.\"
effect = \"write\"
confirm = \"Send it to {to}?\"

[args.to]
ask = \"To whom?\"
options.sam = \"Sam from work.\"
options.kim = \"Kim from the lab.\"

[args.report]
ask = \"What report to send?\"
takes = \"report\"

[examples]
\"send it to sam\" = { to = \"sam\" }
\"mail the report to kim\" = { to = \"kim\" }
";

#[test]
fn a_step_that_takes_a_whole_result_receives_it_as_its_source_returned_it() {
    let home = tempfile::tempdir().unwrap();
    let forecast = serde_json::json!({ "high": 21, "sky": "clear" });
    let given = forecast.clone();
    let weather = CodeReflex::new("weather", WEATHER, move |_: &Called| {
        Ok(Returned { text: "clear, 21°".into(), data: Some(given.clone()) })
    });
    let received: Arc<Mutex<Vec<serde_json::Value>>> = Arc::default();
    let kept = received.clone();
    let send = CodeReflex::new("send", SEND, move |called: &Called| {
        kept.lock().unwrap().push(serde_json::Value::Object(called.args().clone()));
        Ok(Returned::default())
    });
    let code = vec![weather.unwrap(), send.unwrap()];
    let session = session(home.path(), &code);
    let (exit, ended) =
        run_plan(&session, &code, "check the weather and send it to sam", &person(true, true), Journaled::Said);
    assert_eq!((exit, statuses(&ended)), (Exit::Done, vec!["ran", "ran"]));
    let received = received.lock().unwrap();
    assert_eq!(received.as_slice(), [serde_json::json!({ "to": "sam", "report": forecast })]);
}

#[test]
fn a_null_result_is_no_whole_result_to_take() {
    let home = tempfile::tempdir().unwrap();
    let weather = CodeReflex::new("weather", WEATHER, move |_: &Called| {
        Ok(Returned { text: "no forecast".into(), data: Some(serde_json::Value::Null) })
    });
    let calls = Calls::default();
    let kept = calls.clone();
    let send = CodeReflex::new("send", SEND, move |_: &Called| {
        kept.lock().unwrap().push("send".into());
        Ok(Returned::default())
    });
    let code = vec![weather.unwrap(), send.unwrap()];
    let session = session(home.path(), &code);
    let (exit, ended) =
        run_plan(&session, &code, "check the weather and send it to sam", &person(true, true), Journaled::Said);
    assert_eq!((exit, statuses(&ended)), (Exit::Refused, vec!["ran", "refused"]));
    assert_eq!(ended[1].1["type"], "nothing_to_take");
    assert!(calls.lock().unwrap().is_empty(), "the step that takes the result never ran");
}

#[test]
fn a_part_that_found_nothing_is_refused_on_its_own_line_and_the_others_are_skipped() {
    let home = tempfile::tempdir().unwrap();
    let calls = Calls::default();
    let code = reflexes(&calls, false);
    let session = session(home.path(), &code);
    let sentence = "add a note to my home notes, then order a large pizza";
    let (exit, ended) = run_plan(&session, &code, sentence, &person(true, true), Journaled::Said);
    assert_eq!((exit, statuses(&ended)), (Exit::Abstain, vec!["skipped", "refused"]));
    assert_eq!(ended[1].1, serde_json::json!({ "type": "found_nothing" }));
    assert_eq!(
        ended[0].1,
        serde_json::json!({ "type": "said", "message": "step 2 found nothing installed to do it; nothing ran" })
    );
    assert!(calls.lock().unwrap().is_empty(), "a step ran: {:?}", calls.lock().unwrap());
}
