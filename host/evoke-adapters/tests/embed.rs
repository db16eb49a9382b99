//! The `embed` engine on the real reference model (all-MiniLM-L6-v2, as `.ci/get-model` unpacks it):
//! its answers validate and read the request, they are the same bit for bit however the vectors were
//! reached, the reflex side is kept in the cache place, examples teach an option, its settings are
//! refused with the fix, and a slow or cancelled answer is not waited for. Without the model these tests
//! fail under CI, and say so elsewhere.

use evoke_adapters::embed::{Embed, GATE, Params};
use evoke_adapters::local::ArgParams;
use evoke_core::adapter::{Adapter, Cancel, Raw, State};
use evoke_core::question::{NONE, Options, Question, QuestionId, Questions, Text, UNSTATED};
use evoke_core::validate::validate;
use evoke_embed::Encoder;
use evoke_embed::head::Fitting;
use evoke_embed::testing::reference_model;
use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

fn encoder() -> Option<Arc<Encoder>> {
    static ENCODER: OnceLock<Option<Arc<Encoder>>> = OnceLock::new();
    ENCODER
        .get_or_init(|| reference_model().map(|d| Arc::new(Encoder::load(&d).expect("the reference model loads"))))
        .clone()
}

fn engine(cache: Option<&Path>) -> Option<Embed> {
    Some(Embed::new(encoder()?, Params::default(), ArgParams::default(), GATE, cache.map(Path::to_path_buf)))
}

fn rich(what: &str, not_for: &[&str], examples: &[&str]) -> Text {
    Text::Rich {
        what: what.into(),
        not_for: not_for.iter().map(|s| s.to_string()).collect(),
        examples: examples.iter().map(|s| s.to_string()).collect(),
    }
}

fn plain(s: &str) -> Text {
    Text::Plain(s.into())
}

/// The example project's round: the route, a fit and the lights' two arguments.
fn questions(state_examples: &[&str]) -> Questions {
    let route = Question::Choice {
        ask: "Which reflex does the request ask for?".into(),
        options: Options(vec![
            (
                "lights".into(),
                rich(
                    "Turn the lights in one room on, off, or dim them.",
                    &["colour scenes and schedules", "asking whether a light is on"],
                    &["turn on the kitchen lights", "dim the office to 30 percent", "switch the lights off"],
                ),
            ),
            (
                "timer".into(),
                rich("Start a countdown timer.", &[], &["set a timer for 10 minutes", "remind me in an hour"]),
            ),
            ("volume".into(), rich("Set the speaker volume.", &[], &["volume to 40", "turn it down a bit"])),
            (NONE.into(), plain("None of these.")),
        ]),
        otherwise: Some(NONE.into()),
    };
    let fits = Question::Yesno {
        ask: "Does the reflex fit?".into(),
        yes: plain("Turn the lights in one room on, off, or dim them."),
        no: plain("colour scenes and schedules; asking whether a light is on"),
    };
    let off = if state_examples.is_empty() { plain("Switch off.") } else { rich("Switch off.", &[], state_examples) };
    let state = Question::Choice {
        ask: "What should the lights do?".into(),
        options: Options(vec![
            ("on".into(), plain("Switch on.")),
            ("off".into(), off),
            ("dim".into(), plain("Lower the brightness without switching off.")),
            (NONE.into(), plain("The request states a value that is not among these.")),
            (UNSTATED.into(), plain("The request does not say.")),
        ]),
        otherwise: Some(UNSTATED.into()),
    };
    let room = Question::Choice {
        ask: "Which room?".into(),
        options: Options(vec![
            ("den".into(), plain("The TV room downstairs; also 'the snug'.")),
            ("kitchen".into(), plain("")),
            ("office".into(), plain("The upstairs study.")),
            (NONE.into(), plain("The request states a value that is not among these.")),
            (UNSTATED.into(), plain("The request does not say.")),
        ]),
        otherwise: Some(UNSTATED.into()),
    };
    Questions(vec![
        (QuestionId::Route, route),
        (QuestionId::fits("lights"), fits),
        (QuestionId::arg("lights", "state"), state),
        (QuestionId::arg("lights", "room"), room),
    ])
}

fn top<'a>(raw: &'a Raw, id: &str) -> (&'a str, f64) {
    raw[id].iter().fold(("", -1.0), |b, (k, p)| if *p > b.1 { (k.as_str(), *p) } else { b })
}

fn ask(engine: &Embed, request: &str, questions: &Questions) -> Raw {
    engine.answer_now(&State { request: request.into() }, questions).expect("embed answers")
}

fn bits(raw: &Raw) -> Vec<(String, String, u64)> {
    raw.iter().flat_map(|(id, d)| d.iter().map(move |(k, p)| (id.clone(), k.clone(), p.to_bits()))).collect()
}

#[test]
fn answers_validate_and_read_the_request() {
    let Some(engine) = engine(None) else { return };
    let questions = questions(&[]);
    let raw = ask(&engine, "kill the lights in the den", &questions);
    validate(&questions, &raw).expect("embed's answers validate");
    assert_eq!(top(&raw, "route").0, "lights", "{raw:?}");
    assert!(raw["fits.lights"]["yes"] > 0.5, "{raw:?}");
    assert_eq!(top(&raw, "lights.state").0, "off", "{raw:?}");
    assert_eq!(top(&raw, "lights.room").0, "den", "{raw:?}");

    let raw = ask(&engine, "set a timer for ten minutes", &questions);
    assert_eq!(top(&raw, "route").0, "timer", "{raw:?}");
    assert!(raw["fits.lights"]["yes"] < 0.2, "{raw:?}");
    let raw = ask(&engine, "what is the capital of peru", &questions);
    assert_eq!(top(&raw, "route").0, NONE, "an unrelated request is none: {raw:?}");
}

#[test]
fn a_not_for_entry_takes_its_requests_away() {
    let Some(engine) = engine(None) else { return };
    let questions = questions(&[]);
    let asked = ask(&engine, "make a colour scene schedule for the lights", &questions);
    let without = Questions(
        questions
            .0
            .iter()
            .map(|(id, q)| match q {
                Question::Choice { ask, options, otherwise } if *id == QuestionId::Route => {
                    let options = options
                        .0
                        .iter()
                        .map(|(k, t)| match t {
                            Text::Rich { what, examples, .. } => (
                                k.clone(),
                                Text::Rich { what: what.clone(), not_for: vec![], examples: examples.clone() },
                            ),
                            t => (k.clone(), t.clone()),
                        })
                        .collect();
                    (
                        id.clone(),
                        Question::Choice { ask: ask.clone(), options: Options(options), otherwise: otherwise.clone() },
                    )
                }
                _ => (id.clone(), q.clone()),
            })
            .collect(),
    );
    let unguarded = ask(&engine, "make a colour scene schedule for the lights", &without);
    assert!(
        asked["route"]["lights"] < unguarded["route"]["lights"],
        "not_for lowers lights: {} against {}",
        asked["route"]["lights"],
        unguarded["route"]["lights"]
    );
}

#[test]
fn an_example_that_asserts_an_option_teaches_it() {
    let Some(engine) = engine(None) else { return };
    let request = "lights out in the kitchen";
    let plain_round = ask(&engine, request, &questions(&[]));
    let taught = ask(&engine, request, &questions(&["lights out please", "it is lights out time"]));
    assert_eq!(top(&taught, "lights.state").0, "off", "{taught:?}");
    assert!(
        taught["lights.state"]["off"] > plain_round["lights.state"]["off"] + 0.1,
        "the examples lift off: {} against {}",
        taught["lights.state"]["off"],
        plain_round["lights.state"]["off"]
    );
}

#[test]
fn the_same_input_gives_the_same_bits_fresh_warm_and_from_the_cache_place() {
    let Some(fresh) = engine(None) else { return };
    let cache = tempfile::tempdir().unwrap();
    let writer = engine(Some(cache.path())).unwrap();
    let questions = questions(&["lights out please"]);
    let request = "switch off the bedroom light";
    let a = ask(&fresh, request, &questions);
    let again = ask(&fresh, request, &questions);
    let b = ask(&writer, request, &questions);
    let files: Vec<_> = std::fs::read_dir(cache.path()).unwrap().map(|e| e.unwrap().path()).collect();
    assert!(files.iter().any(|f| f.extension().is_some_and(|e| e == "vec")), "the reflex side is kept: {files:?}");
    let reader = engine(Some(cache.path())).unwrap();
    let c = ask(&reader, request, &questions);
    assert_eq!(bits(&a), bits(&again));
    assert_eq!(bits(&a), bits(&b));
    assert_eq!(bits(&a), bits(&c));

    // A damaged file is computed again, with the same answers, and replaced whole.
    let mut sizes = Vec::new();
    for f in files.iter().filter(|f| f.extension().is_some_and(|e| e == "vec")) {
        sizes.push((f.clone(), std::fs::metadata(f).unwrap().len()));
        let bytes = std::fs::read(f).unwrap();
        std::fs::write(f, &bytes[..bytes.len() / 3]).unwrap();
    }
    let mended = engine(Some(cache.path())).unwrap();
    assert_eq!(bits(&a), bits(&ask(&mended, request, &questions)));
    for (f, size) in sizes {
        assert_eq!(std::fs::metadata(&f).unwrap().len(), size, "{} is written again", f.display());
    }
}

#[test]
fn the_id_names_the_model() {
    let Some(engine) = engine(None) else { return };
    let hash = encoder().unwrap().hash().to_string();
    assert!(engine.id().starts_with("embed/"), "{}", engine.id());
    assert!(engine.id().contains(&hash[..12]), "{}", engine.id());
}

fn table(text: &str) -> toml::Table {
    text.parse().unwrap()
}

#[test]
fn settings_are_refused_with_the_fix() {
    let cache = tempfile::tempdir().unwrap();
    let refused = |t: Option<&toml::Table>| Embed::from_table(t, cache.path()).err().expect("refused");
    let e = refused(None);
    assert!(e.contains("model = \"DIRECTORY\"") && e.contains(".ci/get-model"), "{e}");
    let e = refused(Some(&table("colour = 3")));
    assert!(e.contains("`colour`"), "{e}");
    let e = refused(Some(&table("model = 3")));
    assert!(e.contains("model must name a directory"), "{e}");
    let e = refused(Some(&table("model = \"models/mini\"")));
    assert!(e.contains("not an absolute path"), "{e}");
    let e = refused(Some(&table("model = \"/nonexistent/evoke/mini\"")));
    assert!(e.contains("/nonexistent/evoke/mini") && e.contains(".ci/get-model"), "{e}");
}

#[test]
fn the_home_setting_opens_the_engine_and_keeps_the_models_hash() {
    let Some(dir) = reference_model() else { return };
    let cache = tempfile::tempdir().unwrap();
    let t = table(&format!("model = {:?}", dir.to_str().unwrap()));
    let opened = evoke_adapters::builtin::open("embed", Some(&t), cache.path(), cache.path()).expect("embed opens");
    assert!(opened.id().starts_with("embed/"));
    assert!(opened.gate().is_some());
    let memo: Vec<_> = std::fs::read_dir(cache.path().join("embed/models")).unwrap().collect();
    assert_eq!(memo.len(), 1, "the model's hash is kept");
    let again = evoke_adapters::builtin::open("embed", Some(&t), cache.path(), cache.path()).expect("embed opens");
    assert_eq!(opened.id(), again.id());
}

#[test]
fn a_slow_answer_is_raced_against_the_deadline_and_a_cancelled_one_is_refused() {
    let Some(engine) = engine(None) else { return };
    let slow = engine.slowed(Duration::from_secs(5));
    let questions = questions(&[]);
    let state = State { request: "kill the lights".into() };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
    let started = Instant::now();
    let answered = runtime.block_on(async {
        tokio::time::timeout(Duration::from_millis(100), slow.answer(&state, &questions, &Cancel::new())).await
    });
    assert!(answered.is_err(), "the deadline fired first: {answered:?}");
    assert!(started.elapsed() < Duration::from_secs(3), "did not wait for the engine: {:?}", started.elapsed());

    let cancel = Cancel::new();
    cancel.cancel();
    let refused = runtime.block_on(engine.answer(&state, &questions, &cancel)).unwrap_err();
    assert!(refused.message.contains("cancelled"), "{}", refused.message);
    let answered = runtime.block_on(engine.answer(&state, &questions, &Cancel::new())).expect("answers");
    assert_eq!(top(&answered, "route").0, "lights");
}

/// Each input decided on the example project, none of them run.
fn assert_never_runs(engine: &Embed, inputs: &[&str]) {
    for input in inputs {
        let d = decide_home(engine, input);
        assert_ne!(d.outcome, evoke_core::decision::Outcome::Run, "{input}: {d:?}");
    }
}

/// One decision through the decision path under embed's shipped bars.
fn decide_home(engine: &Embed, input: &str) -> evoke_core::decision::Decision {
    let catalog = evoke_adapters::testing::home_catalog();
    let mut decider = evoke_core::decide::Decider::new(&catalog, Some(GATE), input).expect("in bounds");
    while let Some(questions) = decider.questions() {
        let questions = questions.clone();
        let raw = ask(engine, input, &questions);
        decider.feed(&validate(&questions, &raw).expect("embed's answers validate"));
    }
    decider.decision().expect("decided").clone()
}

#[test]
fn on_the_example_project_a_value_said_in_full_clears_the_write_bar() {
    use evoke_core::decision::Outcome;
    let Some(engine) = engine(None) else { return };
    // "den" is said in full and "kill" is what an example of `off` teaches: both values are sure
    // enough to run without asking, so only the route's own confidence stands between the request and a run.
    let d = decide_home(&engine, "kill the lights in the den");
    assert_eq!(d.reflex.as_deref(), Some("lights"), "{d:?}");
    // Sure of the reflex, the room and the state: it runs without a question.
    assert_eq!(d.outcome, Outcome::Run, "{d:?}");
    let args = serde_json::to_value(&d.args).unwrap();
    assert_eq!(args["room"]["word"], "den", "{args}");
    assert_eq!(args["state"]["key"], "off", "{args}");
    for question in ["lights.room", "lights.state"] {
        let j = d
            .judgments
            .iter()
            .find(|j| j.question.to_string() == question)
            .unwrap_or_else(|| panic!("{question}: {d:?}"));
        assert!(j.p >= GATE.write, "{question} {} < the write bar {}: {:?}", j.p, GATE.write, d.judgments);
    }
    // A room no word names is asked for, never guessed.
    let d = decide_home(&engine, "kill the lights");
    assert_ne!(d.outcome, Outcome::Run, "{d:?}");
}

#[test]
fn on_the_example_project_ordinary_requests_with_a_courtesy_a_reason_or_a_unit_run() {
    use evoke_core::decision::Outcome;
    let Some(engine) = engine(None) else { return };
    // Each of these waited for a `[y/N]`: the living room under the bar (the den's meaning says `room`)
    // and read as a remark (`living` as a verb), a thanks or a yes read as a remark, a reason after a
    // comma read as a condition, a farewell as a second thing, and a brightness in percent split
    // between the numbers the sentence holds.
    for (input, room, state) in [
        ("turn off the living room lights", "living room", "off"),
        ("turn the living room lights off", "living room", "off"),
        ("thanks, turn off the den lights", "den", "off"),
        ("yeah turn off the den lights", "den", "off"),
        ("dim the den lights to 30 percent", "den", "dim"),
        ("dim the den lights to 50%", "den", "dim"),
    ] {
        let d = decide_home(&engine, input);
        assert_eq!(d.outcome, Outcome::Run, "{input}: {d:?}");
        let args = serde_json::to_value(&d.args).unwrap();
        assert_eq!(args["room"]["word"], room, "{input}: {args}");
        assert_eq!(args["state"]["key"], state, "{input}: {args}");
    }
    // A reason, a farewell, a scene or a sound holds a word nothing the reflex says reads: the read-back
    // cannot tell it from more asked of the call, so the call waits for a yes, naming the word.
    for (input, word) in [
        ("turn off the den lights, you always forget", "forget"),
        ("turn off the den lights. goodnight.", "goodnight"),
        ("we are about to eat, turn on the kitchen lights", "eat"),
        ("ugh, turn off the den lights", "ugh"),
    ] {
        let d = decide_home(&engine, input);
        assert_eq!(d.outcome, Outcome::Confirm, "{input}: {d:?}");
        let more = evoke_core::decision::Because::More { words: vec![word.into()] };
        assert_eq!(d.because, Some(vec![more]), "{input}");
    }
    // A bare number set `to` is the level; one that counts or tells a time is not.
    let d = decide_home(&engine, "set the volume to 40");
    assert_eq!(d.outcome, Outcome::Run, "{d:?}");
    assert_never_runs(&engine, &["turn off the 2 den lights", "turn off the den lights at 10"]);
    for (input, percent) in [("dim the den lights to 30 percent", 30), ("dim the den lights to 50%", 50)] {
        let args = serde_json::to_value(&decide_home(&engine, input).args).unwrap();
        assert_eq!(args["brightness"]["value"]["value"], percent, "{input}: {args}");
    }
}

#[test]
fn on_the_example_project_a_duration_said_with_its_unit_runs_the_timer() {
    use evoke_core::decision::Outcome;
    let Some(engine) = engine(None) else { return };
    // Every timer confirmed at 0.852: the only span the sentence holds was read as any bare number is.
    for (input, span) in [
        ("set a timer for 10 minutes", "10 minutes"),
        ("set a timer for half an hour", "half an hour"),
        ("set timer for 1 hour, 15 minutes, and 30 seconds", "1 hour, 15 minutes, and 30 seconds"),
        ("timer 90s", "90s"),
    ] {
        let d = decide_home(&engine, input);
        assert_eq!(d.outcome, Outcome::Run, "{input}: {d:?}");
        let args = serde_json::to_value(&d.args).unwrap();
        assert_eq!(args["duration"]["span"]["text"], span, "{input}: {args}");
    }
    // Two durations are for a person to tell apart; a brightness changed `by` an amount is no level.
    // Nor is a span in a sentence that acts on a timer already running: each of these started one.
    assert_never_runs(
        &engine,
        &[
            "set a timer for 10 minutes and 5 minutes",
            "dim the den lights by 20%",
            // Offsets are characters: a word before the span with a letter of two bytes moves no boundary.
            "dim the den lights ééééé by 20%",
            "turn it up 20 percent",
            "add 5 minutes to the timer",
            "stop the 10 minute timer",
            "change the timer to 15 minutes",
            "10 minutes left on the timer",
            // Another device's timer or volume.
            "set the oven timer for 20 minutes",
            "set a timer on my phone for 10 minutes",
            "set the tv volume to 20",
        ],
    );
}

#[test]
fn on_the_example_project_what_no_reflex_is_for_never_runs() {
    use evoke_core::decision::Outcome;
    let Some(engine) = engine(None) else { return };
    // A question about a light is what the lights' `not_for` names, although the example "turn on the
    // kitchen lights" is nearer it than that entry: it must not switch the light on.
    let d = decide_home(&engine, "is the kitchen light on");
    assert_eq!(d.outcome, Outcome::Abstain, "{d:?}");
    // Requests near the project's reflexes in words, for things it has no reflex for.
    assert_never_runs(
        &engine,
        &[
            "order a pizza with extra cheese",
            "turn on the tv",
            "turn up the heat",
            "lock the front door",
            "turn off the oven in the kitchen",
            "close the blinds in the den",
            "light a candle",
        ],
    );
}

#[test]
fn on_the_example_project_a_sentence_that_asks_for_nothing_never_switches_a_light() {
    use evoke_core::decision::{Because, Outcome};
    let Some(engine) = engine(None) else { return };
    // Each is about the lights, and an engine sure of the reflex would run the write: a question, a
    // remark, a condition, a request taken back. None asks for the lights to change now.
    for input in [
        "the den lights are off",
        "the kitchen lights are on",
        "did I turn off the den lights",
        "are the kitchen lights on",
        "I turned on the kitchen lights",
        "turn on the kitchen lights if it gets dark",
        "turn on the kitchen lights? no wait",
        "turn on the kitchen lights, just kidding",
        "the kitchen lights",
        "how do I turn off the den lights",
        "my wife said, turn off the den lights",
        "my wife texted, turn off the den lights",
        "I told him: turn on the kitchen lights",
        "in 5 minutes, turn off the den lights",
        "turn off the den lights, cancel",
        // A request after a report waits too; a scene set before it does not (`it's dark, turn on …`).
        "I said it's dark, turn on the kitchen lights",
    ] {
        let d = decide_home(&engine, input);
        assert_ne!(d.outcome, Outcome::Run, "{input}: {d:?}");
        if d.outcome == Outcome::Confirm {
            let because = d.because.as_deref().unwrap_or_default();
            assert!(because.iter().any(|b| matches!(b, Because::NotARequest { .. })), "{input}: {d:?}");
        }
    }
    // The same lights, asked for: it runs.
    for input in ["turn on the kitchen lights", "can you turn on the kitchen lights?"] {
        let d = decide_home(&engine, input);
        assert_eq!(d.outcome, Outcome::Run, "{input}: {d:?}");
    }
}

#[test]
fn an_example_near_through_its_other_words_never_reads_the_value_it_names() {
    use evoke_core::decision::Outcome;
    let Some(engine) = engine(None) else { return };
    // "turn of" says no state: the example "turn on the kitchen lights" is the nearest text only through
    // "turn … the kitchen lights", and the `on` it names is not said. It read `on` at 1.00 and ran.
    let d = decide_home(&engine, "turn of the kitchen lights");
    assert_ne!(d.outcome, Outcome::Run, "{d:?}");
    let state =
        d.judgments.iter().find(|j| j.question == QuestionId::arg("lights", "state")).expect("the state is asked");
    assert!(!(state.top == "on" && state.p >= GATE.write), "{:?}", d.judgments);
    // A value said in full outweighs an example's nearness: `off` is said, and it read `on` (0.75).
    let raw = ask(&engine, "turn off the oven in the kitchen", &questions(&[]));
    assert_eq!(top(&raw, "lights.state").0, "off", "{raw:?}");
    // Two values said are a person's to tell apart: "on" here is where the lights are, or what they are.
    assert_never_runs(
        &engine,
        &[
            "turn off the lights on the kitchen counter",
            "turn off the kitchen lights that are on",
            "turn off the kitchen lights, they have been on all day",
            "kill the kitchen lights, they are on",
            "shut the kitchen lights, they're still on",
        ],
    );
    // Said in full, the value still runs: the example that names it teaches it where the words read it.
    let d = decide_home(&engine, "turn off the kitchen lights");
    assert_eq!(d.outcome, Outcome::Run, "{d:?}");
    assert_eq!(serde_json::to_value(&d.args).unwrap()["state"]["key"], "off", "{d:?}");
}

#[test]
fn trust_reads_the_texts_and_fits_the_head_ahead_counting_both() {
    let Some(encoder) = encoder() else { return };
    let questions = questions(&["lights out please"]);
    let warm = |params: Params, cache: &Path| {
        let engine = Embed::new(encoder.clone(), params, ArgParams::default(), GATE, Some(cache.to_path_buf()));
        let mut seen = Vec::new();
        engine.warm(&questions, &mut |done, total| seen.push((done, total))).expect("the engine warms");
        seen
    };
    let cache = tempfile::tempdir().unwrap();
    let seen = warm(Params::default(), cache.path());
    let total = seen[0].1;
    assert!(seen.iter().all(|(_, t)| *t == total), "one total: {seen:?}");
    assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0), "never back: {seen:?}");
    assert_eq!(seen.last().unwrap().0, total, "done at the end: {seen:?}");
    // The head's fit is counted beside the texts: without a head, the total is the texts alone.
    let texts = warm(Params { head: 0.0, ..Params::default() }, tempfile::tempdir().unwrap().path())[0].1;
    let fitting = Params::default().head_fitting;
    // The route's three descriptions and seven examples, over its three reflexes.
    // The head reads each text's sentence vector and its words' numbers.
    let inputs = encoder.dim() + evoke_adapters::embed::lexical::BUCKETS;
    assert_eq!(total, texts + fitting.cost(10, 3, inputs), "{seen:?}");
    // The fitted head is kept in the cache place: three rows of those numbers and a bias.
    let head_file = 8 + 16 + 3 * (inputs + 1) * 4 + 32;
    let sizes: Vec<u64> =
        std::fs::read_dir(cache.path()).unwrap().map(|e| e.unwrap().metadata().unwrap().len()).collect();
    assert!(sizes.contains(&(head_file as u64)), "a head of {head_file} bytes among {sizes:?}");
}

#[test]
fn a_decision_refuses_to_fit_a_head_too_large_for_its_deadline_and_names_trust() {
    let Some(encoder) = encoder() else { return };
    // Steps enough that this small route's fit costs more than a decision may spend: fitted, it would
    // take most of a minute.
    let fitting = Fitting { steps: 4_000_000, ..Params::default().head_fitting };
    let inputs = encoder.dim() + evoke_adapters::embed::lexical::BUCKETS;
    assert!(fitting.cost(10, 3, inputs) > evoke_adapters::embed::DECISION_FIT);
    let large =
        Embed::new(encoder, Params { head_fitting: fitting, ..Params::default() }, ArgParams::default(), GATE, None);
    let started = Instant::now();
    let refused = large.answer_now(&State { request: "switch off the kitchen light".into() }, &questions(&[]));
    let error = refused.expect_err("a head too large to fit at a decision is refused");
    assert!(error.message.contains("run `evoke trust`"), "{error}");
    assert!(started.elapsed() < Duration::from_secs(10), "refused before fitting: {:?}", started.elapsed());
    // The small head of the same route, at the shipped constants, is fitted at the decision.
    let small = engine(None).unwrap();
    assert!(small.answer_now(&State { request: "switch off the kitchen light".into() }, &questions(&[])).is_ok());
}

/// The smart plug's two reflexes of the home benchmark, examples as written there: a sentence encoder
/// reads a request to switch the plug on nearly as it reads one to switch it off.
fn plugs() -> Questions {
    let on = [
        "turn on the plug",
        "switch on the plug",
        "turn on my plug",
        "turn on the rice cooker socket",
        "turn on the smart charger",
        "switch the smart plug socket",
        "turn on the wemo plug socket to connect my charger to it",
        "turn on the wemo plug socket to plug in my dongle",
        "please turn on my smart plug socket",
        "on the plug",
    ];
    let off = [
        "turn off the rice cooker socket",
        "please turn off the plug socket of my phone when it'll be charged",
        "i want you to turn off the plug socket before the cell phone is charged",
        "turn off smart socket",
        "wemo plug socket off",
        "turn off my smart plug socket",
        "off the plug",
        "keep the socket in off condition",
        "switch off wemo",
        "turn off wemo plug in game room",
    ];
    let route = Question::Choice {
        ask: "Which reflex does the request ask for?".into(),
        options: Options(vec![
            (
                "plug_on".into(),
                rich("Switch on the smart plug (the Wemo socket) and what is plugged into it.", &[], &on),
            ),
            (
                "plug_off".into(),
                rich("Switch off the smart plug (the Wemo socket) and what is plugged into it.", &[], &off),
            ),
            (NONE.into(), plain("None of these.")),
        ]),
        otherwise: Some(NONE.into()),
    };
    Questions(vec![(QuestionId::Route, route)])
}

#[test]
fn the_head_reads_the_small_word_that_tells_two_reflexes_apart() {
    let Some(encoder) = encoder() else { panic!("the reference model is needed") };
    let with = Embed::new(encoder.clone(), Params::default(), ArgParams::default(), GATE, None);
    let without = Embed::new(encoder, Params { lexical: 0.0, ..Params::default() }, ArgParams::default(), GATE, None);
    // Read from the sentence vector alone, these stay under the write bar; with their words, the head
    // knows `on` from `off` and clears it. The way back is read as surely.
    for (request, right) in [("turn on my wemo socket", "plug_on"), ("turn wemo plug socket on", "plug_on")] {
        let share = |engine: &Embed| ask(engine, request, &plugs())["route"][right];
        let (read, alone) = (share(&with), share(&without));
        assert!(alone < GATE.write && read >= GATE.write, "{request}: {read} with its words, {alone} without");
    }
    let back = ask(&with, "turn off my wemo socket", &plugs())["route"]["plug_off"];
    assert!(back >= GATE.write, "{back}");
}
