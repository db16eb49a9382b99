use super::plan::{Decided, Repair, VerdictBecause, settle, splice_holds, splice_text, stages};
use super::*;
use crate::decision::{Args, Decision, Outcome, Value};
use crate::manifest::Effect;
use crate::recognize::recognize;
use crate::validate::Distribution;

fn words_of(input: &str) -> Vec<String> {
    cuts(input, &recognize(input)).into_iter().map(|c| c.word).collect()
}

/// Every cut answered yes, or those listed no.
fn answers(input: &str, no: &[&str]) -> (Vec<Cut>, Answers) {
    let found = cuts(input, &recognize(input));
    let mut answers = Answers::new();
    for cut in &found {
        let p = if no.contains(&cut.word.as_str()) { 0.1 } else { 0.9 };
        answers.insert(cut.id(), Distribution(vec![("yes".into(), p), ("no".into(), 1.0 - p)]));
    }
    (found, answers)
}

#[test]
fn a_sentence_end_before_another_sentence_is_a_place_to_cut() {
    assert_eq!(words_of("turn off the lights. set a timer"), ["."]);
    assert_eq!(words_of("turn off the lights! set a timer? thanks"), ["!", "?"]);
    // No sentence follows, or the mark is an abbreviation's or a number's.
    assert!(words_of("turn off the lights.").is_empty());
    assert!(words_of("set a timer for 2.5 minutes").is_empty());
    assert!(words_of("wake me at 7 a. m. tomorrow").is_empty());
    assert!(words_of("call dr. smith").is_empty());
    assert_eq!(words_of("i can't. set a timer"), ["."], "an apostrophe is inside a word");
    assert!(words_of("play 'stop. go' now").is_empty(), "a mark inside quotes parts nothing");
}

fn texts(parts: &[Part]) -> Vec<&str> {
    parts.iter().map(|p| p.text.as_str()).collect()
}

/// The lights and the timer, the reflexes most weaving tests decide with.
const LIGHTS: &str = r#"
reflex = 1
description = "Turn the lights in one room on, off, or dim them."
effect = "write"
confirm = "Set the {room} lights {state}?"
run = "lights.mjs"
[args.room]
ask = "Which room?"
vocab = "rooms"
[args.state]
ask = "What should the lights do?"
options.on = "Switch on."
options.off = "Switch off."
"#;
const TIMER: &str = r#"
reflex = 1
description = "Start a countdown timer."
effect = "write"
confirm = "Start a timer for {duration}?"
run = "timer.mjs"
[args.duration]
ask = "For how long?"
pick = "duration"
[examples]
"set a timer for 10 minutes" = { duration = "10 minutes" }
"#;
const GATE: crate::adapter::Gate = crate::adapter::Gate { route: 0.4, fits: None, read: 0.6, write: 0.8 };

/// A reflex read from its manifest, with the vocabulary `rooms` when one is given.
fn reflex(name: &str, manifest: &str, rooms: Option<&str>) -> crate::catalog::Reflex {
    let manifest = crate::manifest::read_manifest("reflex.toml", manifest, &|_: &str| true).value.unwrap();
    let vocabs = rooms
        .map(|text| ("rooms".to_string(), crate::vocab::read_vocab("rooms", "rooms.toml", text).value.unwrap()))
        .into_iter()
        .collect();
    crate::catalog::Reflex { name: name.into(), manifest, vocabs }
}

#[test]
fn connectives_commas_and_semicolons_are_places_to_cut() {
    assert_eq!(
        words_of("turn off the den lights and set a timer, then dim the office; next play music after that stop"),
        ["and", ",", "then", ";", "next", "after that"]
    );
    assert!(words_of("turn off the den lights").is_empty());
}

#[test]
fn quotes_and_typed_spans_keep_their_connectives() {
    assert!(words_of("play 'rock and roll' loud").is_empty(), "{:?}", words_of("play 'rock and roll' loud"));
    assert!(words_of("play \"salt, pepper\" now").is_empty());
    assert!(words_of("book the room between 2 and 3 pm").is_empty());
    // An apostrophe inside a word opens nothing.
    assert_eq!(words_of("look up dana's address and email them"), ["and"]);
}

#[test]
fn a_connective_at_either_end_is_no_place_to_cut() {
    assert!(words_of("and turn off the lights").is_empty());
    assert!(words_of("turn off the lights and").is_empty());
    assert!(words_of("before you go").is_empty());
}

#[test]
fn the_answers_cut_the_sentence_into_parts() {
    let input = "turn off the den lights and set a timer for 5 minutes";
    let (found, a) = answers(input, &[]);
    let reading = read(input, &found, &a, 0.4).unwrap();
    assert_eq!(texts(&reading.parts), ["turn off the den lights", "set a timer for 5 minutes"]);
    assert_eq!((reading.parts[1].start, reading.parts[1].end), (28, 53));
    assert_eq!(reading.splits.len(), 1);
    assert!(reading.splits[0].cut);
    // Under the bar, the sentence is one part.
    let (found, a) = answers(input, &["and"]);
    let reading = read(input, &found, &a, 0.4).unwrap();
    assert_eq!(texts(&reading.parts), [input]);
    assert!(!reading.splits[0].cut);
}

#[test]
fn a_greeting_before_a_comma_is_no_part() {
    // Cut at the comma, `hey evoke` would be a part that matches nothing, and the request would be refused.
    for input in ["hey evoke, turn off the den lights", "ok so, turn off the den lights"] {
        let (found, a) = answers(input, &[]);
        let reading = read(input, &found, &a, 0.4).unwrap();
        assert_eq!(texts(&reading.parts), [input], "{input}");
        assert!(reading.splits.iter().all(|s| !s.cut), "{input}");
    }
    // A greeting and two things: cut between the two things only.
    let input = "hey, turn off the den lights and set a timer for 5 minutes";
    let (found, a) = answers(input, &[]);
    let reading = read(input, &found, &a, 0.4).unwrap();
    assert_eq!(texts(&reading.parts), ["hey, turn off the den lights", "set a timer for 5 minutes"]);
}

#[test]
fn words_that_only_close_a_request_are_no_part_of_their_own() {
    for input in ["turn off the den lights, and so on", "turn off the den lights, thanks", "dim the den, etc"] {
        let (found, a) = answers(input, &[]);
        let reading = read(input, &found, &a, 0.4).unwrap();
        assert_eq!(texts(&reading.parts), [input], "{input}");
    }
    // Before another request, the words open it, as a greeting does.
    let input = "turn off the den lights, thanks, set a timer";
    let (found, a) = answers(input, &[]);
    assert_eq!(texts(&read(input, &found, &a, 0.4).unwrap().parts), ["turn off the den lights", "thanks, set a timer"]);
}

#[test]
fn negated_parts_are_left_out() {
    let input = "turn on the den lights but don't touch the office";
    let (found, a) = answers(input, &[]);
    let reading = read(input, &found, &a, 0.4).unwrap();
    assert_eq!(texts(&reading.parts), ["turn on the den lights"]);
    assert_eq!(texts(&reading.excluded), ["don't touch the office"]);
    for said in [
        "don't turn on the kitchen lights",
        "Do not dim it",
        "never mind",
        "not now",
        "without music",
        "instead of the kitchen",
        "except the den",
        "skipping the den",
        "don t turn on the kitchen lights",
        "please don t turn on the kitchen lights",
        "ok, don't turn on the kitchen lights",
        "don’t turn on the kitchen lights",
    ] {
        assert!(negated(said), "{said}");
    }
    for said in
        ["note this", "nevertheless go", "do it", "skip this song", "exceptional", "don't you think the office too"]
    {
        assert!(!negated(said), "{said}");
    }
}

#[test]
fn order_words_order_the_steps() {
    let cases: [(&str, [&str; 2]); 5] = [
        ("dim the den then set a timer", ["dim the den", "set a timer"]),
        ("dim the den, after that set a timer", ["dim the den", "set a timer"]),
        ("before you dim the den, set a timer", ["set a timer", "dim the den"]),
        ("set a timer after you dim the den", ["dim the den", "set a timer"]),
        ("set a timer before you dim the den", ["set a timer", "dim the den"]),
    ];
    for (input, want) in cases {
        let (found, a) = answers(input, &[]);
        let reading = read(input, &found, &a, 0.4).unwrap();
        assert_eq!(texts(&reading.parts), want, "{input}");
    }
}

#[test]
fn more_parts_than_the_bound_are_refused() {
    let input = (0..MAX_PARTS + 1).map(|i| format!("do thing {i}")).collect::<Vec<_>>().join(" and ");
    let (found, a) = answers(&input, &[]);
    assert_eq!(read(&input, &found, &a, 0.4), Err(TooMany::TooManyParts { found: MAX_PARTS + 1, limit: MAX_PARTS }));
}

#[test]
fn a_long_run_of_connectives_is_read_once() {
    let input = "and ".repeat(500);
    let found = cuts(input.trim(), &recognize(input.trim()));
    // Every inner `and` is a place; the count is what a caller bounds before asking.
    assert_eq!(found.len(), 498);
    assert!(found.len() > MAX_CUTS);
}

pub(crate) fn decision(
    input: &str,
    outcome: Outcome,
    reflex: Option<&str>,
    effect: Option<Effect>,
    args: Args,
) -> Decision {
    Decision { effect, confidence: Some(0.9), ..Decision::bare(input, outcome, reflex, args) }
}

/// The part `text` at `start`, decided with no arguments.
fn decided(text: &str, start: usize, outcome: Outcome, reflex: Option<&str>, effect: Option<Effect>) -> Decided {
    Decided {
        part: part(text, start),
        decision: decision(text, outcome, reflex, effect, Args::default()),
        repair: None,
    }
}

fn part(text: &str, start: usize) -> Part {
    Part { start, end: start + text.chars().count(), text: text.into(), connective: None }
}

#[test]
fn a_write_never_shares_a_stage() {
    use Effect::*;
    assert_eq!(stages(&[Write, Write]), vec![vec![1], vec![2]]);
    assert_eq!(
        stages(&[Read, Read, Write, Read, Destructive, Read, Read]),
        vec![vec![1, 2], vec![3], vec![4], vec![5], vec![6, 7]]
    );
}

#[test]
fn a_plan_of_two_writes_has_two_stages_and_the_weakest_outcome() {
    let reading = Reading { parts: vec![part("a", 0), part("b", 6)], excluded: Vec::new(), splits: Vec::new() };
    let decided = vec![
        decided("a", 0, Outcome::Confirm, Some("lights"), Some(Effect::Write)),
        decided("b", 6, Outcome::Run, Some("timer"), Some(Effect::Write)),
    ];
    let plan = settle("a and b", &reading, decided);
    assert_eq!(plan.stages, vec![vec![1], vec![2]]);
    assert_eq!(plan.steps[1].after, vec![1]);
    assert_eq!(plan.verdict.outcome, Outcome::Confirm);
    assert!(!plan.refused());
    assert!(plan.digest().starts_with("sha256:"));
}

#[test]
fn a_value_a_part_left_out_names_is_never_offered_nor_taken_by_a_step() {
    use crate::catalog::{Catalog, Reflex};
    use crate::decision::{Choices, Missing, MissingBecause, Texts};
    let manifest = "reflex = 1\ndescription = \"Turn the lights off.\"\neffect = \"write\"\nconfirm = \"Off?\"\n\
                    run = \"l.mjs\"\n[args.room]\nask = \"Which room?\"\nvocab = \"rooms\"\n";
    let read = crate::manifest::read_manifest("reflex.toml", manifest, &|_: &str| true);
    let rooms = "den = \"The TV room; also 'the snug'.\"\nkitchen = \"Where we cook.\"\n";
    let rooms = crate::vocab::read_vocab("rooms", "rooms.toml", rooms).value.unwrap();
    let reflex =
        Reflex { name: "lights".into(), manifest: read.value.unwrap(), vocabs: [("rooms".into(), rooms)].into() };
    let catalog = Catalog::new(vec![reflex]);
    let input = "turn off all the lights, not the snug";
    let reading = Reading {
        parts: vec![part("turn off all the lights", 0)],
        excluded: vec![part("not the snug", 25)],
        splits: Vec::new(),
    };
    // A step that asks offers the kitchen alone: the snug is the den.
    let mut asks = decided("turn off all the lights", 0, Outcome::Ask, Some("lights"), None);
    let rooms = Texts(vec![("den".into(), "TV".into()), ("kitchen".into(), "Cooking".into())]);
    asks.decision.missing = Some(vec![Missing {
        arg: "room".into(),
        ask: "Which room?".into(),
        because: MissingBecause::Unstated,
        words: None,
        choices: Choices::Vocab { words: rooms },
        likely: None,
    }]);
    let mut plan = settle(input, &reading, vec![asks]);
    super::plan::spare_excluded(&catalog, None, &mut plan);
    let missing = &plan.steps[0].decision.missing.as_ref().unwrap()[0];
    assert_eq!(missing.because, MissingBecause::Excluded { key: "den".into() });
    assert_eq!(missing.choices, Choices::Vocab { words: Texts(vec![("kitchen".into(), "Cooking".into())]) });
    assert_eq!(plan.steps[0].repair, Some(super::plan::Repair::Corrected));
    assert!(plan.exclusive);
    // A step the engine read the den for would run it: it asks for the room instead, the den never offered,
    // never proposed, and so does the plan.
    let den = Args(vec![("room".into(), Value::Word { word: "den".into(), value: None })]);
    let mut runs = decided("turn off all the lights", 0, Outcome::Run, Some("lights"), Some(Effect::Write));
    runs.decision = decision("turn off all the lights", Outcome::Run, Some("lights"), Some(Effect::Write), den);
    let mut plan = settle(input, &reading, vec![runs]);
    super::plan::spare_excluded(&catalog, None, &mut plan);
    let asked = &plan.steps[0].decision;
    assert_eq!(asked.outcome, Outcome::Ask, "{asked:?}");
    assert_eq!(asked.call, None);
    assert!(asked.args.as_ref().is_none_or(|a| a.get("room").is_none()), "{asked:?}");
    let missing = &asked.missing.as_ref().unwrap()[0];
    assert_eq!(missing.because, MissingBecause::Excluded { key: "den".into() });
    assert_eq!(missing.choices, Choices::Vocab { words: Texts(vec![("kitchen".into(), "Where we cook.".into())]) });
    assert_eq!(plan.verdict.outcome, Outcome::Ask);
    assert_eq!(plan.steps[0].repair, Some(super::plan::Repair::Corrected));
}

#[test]
fn a_part_that_found_nothing_refuses_the_whole_plan() {
    let reading = Reading { parts: vec![part("a", 0), part("b", 6)], excluded: Vec::new(), splits: Vec::new() };
    let decided = vec![
        decided("a", 0, Outcome::Run, Some("lights"), Some(Effect::Write)),
        decided("b", 6, Outcome::Abstain, None, None),
    ];
    let plan = settle("a and b", &reading, decided);
    assert!(plan.refused());
    assert_eq!(plan.verdict.because, vec![VerdictBecause::FoundNothing { text: "b".into() }]);
    assert!(plan.stages.is_empty(), "a refused plan has nothing to run");
}

#[test]
fn nothing_but_negation_is_nothing_to_do() {
    let reading =
        Reading { parts: Vec::new(), excluded: vec![part("don't turn on the lights", 0)], splits: Vec::new() };
    let plan = settle("don't turn on the lights", &reading, Vec::new());
    assert_eq!(plan.verdict.outcome, Outcome::Abstain);
    assert_eq!(plan.verdict.because, vec![VerdictBecause::NothingToDo]);
    assert_eq!(plan.excluded.len(), 1);
}

#[test]
fn a_splice_holds_only_for_a_value_the_part_said() {
    let parts = vec![part("turn off the den lights", 0), part("the office", 28)];
    let (neighbour, joined) = splice_text("turn off the den lights and the office", &parts, 1).unwrap();
    assert_eq!((neighbour, joined.as_str()), (0, "turn off the den lights and the office"));
    let (neighbour, joined) = splice_text(
        "the office, and turn off the den lights",
        &[part("the office", 0), part("turn off the den lights", 16)],
        0,
    )
    .unwrap();
    assert_eq!((neighbour, joined.as_str()), (1, "the office, and turn off the den lights"));
    let word = |w: &str| Value::Word { word: w.into(), value: None };
    let den =
        decision("x", Outcome::Run, Some("lights"), Some(Effect::Write), Args(vec![("room".into(), word("den"))]));
    let office =
        decision("x", Outcome::Run, Some("lights"), Some(Effect::Write), Args(vec![("room".into(), word("office"))]));
    assert!(splice_holds(&parts[1], &den, &office));
    assert!(!splice_holds(&parts[1], &den, &den), "the neighbour's own values take nothing from the part");
    let pizza = part("order a large pizza", 29);
    assert!(!splice_holds(&pizza, &den, &den));
    // A text typed without quotes is any words the reflex does not read: no sign of an item of the task.
    let back = part("we'll be back at 5", 0);
    let span = crate::recognize::Span { start: 6, end: 10, text: "back".into() };
    let label = Value::Pick { span, value: crate::recognize::PickValue::Text("back".into()) };
    let timer = decision("x", Outcome::Run, Some("timer"), Some(Effect::Write), Args::default());
    let mut labelled =
        decision("x", Outcome::Confirm, Some("timer"), Some(Effect::Write), Args(vec![("label".into(), label)]));
    assert!(splice_holds(&back, &timer, &labelled), "a value the part says holds the splice");
    let text = crate::decision::Basis::Text { ask: 0.9, others: Vec::new() };
    labelled.basis = Some(crate::decision::Bases(vec![("label".into(), text)]));
    assert!(!splice_holds(&back, &timer, &labelled), "unless it is a text typed without quotes");
    let _ = Repair::Spliced;
}

mod again_steps {
    use super::super::again::{self, ALSO, INSTEAD, NOTHING, OUT};
    use super::{GATE, LIGHTS, reflex};
    use crate::catalog::Catalog;
    use crate::decide::Decider;
    use crate::decision::{Outcome, Value};
    use crate::question::QuestionId;
    use crate::validate::{Answers, Distribution};

    const ROOMS: &str =
        "den = \"The TV room.\"\noffice = { what = \"The study.\", value = \"group-7\" }\nkitchen = \"Cooking.\"\n";

    fn catalog() -> Catalog {
        Catalog::new(vec![reflex("lights", LIGHTS, Some(ROOMS))])
    }

    fn sure(key: &str, keys: &[&str]) -> Distribution {
        Distribution(
            keys.iter()
                .map(|k| (k.to_string(), if *k == key { 0.95 } else { 0.05 / (keys.len() - 1) as f64 }))
                .collect(),
        )
    }

    fn den_off(catalog: &Catalog, input: &str) -> crate::decision::Decision {
        den_off_within(Decider::new(catalog, Some(GATE), input).unwrap())
    }

    /// The den switched off, as the decider's words and sentence have it.
    fn den_off_within(mut decider: Decider) -> crate::decision::Decision {
        let mut answers = Answers::new();
        answers.insert(QuestionId::Route, sure("lights", &["lights", "none"]));
        decider.feed(&answers);
        let mut answers = Answers::new();
        answers.insert(QuestionId::fits("lights"), Distribution(vec![("yes".into(), 0.95), ("no".into(), 0.05)]));
        answers
            .insert(QuestionId::arg("lights", "room"), sure("den", &["den", "office", "kitchen", "none", "unstated"]));
        answers.insert(QuestionId::arg("lights", "state"), sure("off", &["on", "off", "none", "unstated"]));
        decider.feed(&answers).unwrap().clone()
    }

    #[test]
    fn another_value_said_as_well_is_one_more_step_with_that_value() {
        let catalog = catalog();
        let input = "turn off the den and office lights";
        let decision = den_off(&catalog, input);
        // Alone, the office the words also name holds the den's step for a person.
        assert_eq!(decision.outcome, Outcome::Confirm);
        assert!(matches!(decision.because.as_deref(), Some([crate::decision::Because::OneView { .. }])));
        let others = again::others(&catalog, &decision, &decision.input, 7);
        assert_eq!(others.len(), 1);
        assert_eq!(others[0].id.to_string(), "weave.again_21_27_lights__room");
        let round = again::round(&decision, &others);
        assert_eq!(round.get(&others[0].id).unwrap().keys(), [ALSO, INSTEAD, OUT, NOTHING]);
        let mut answers = Answers::new();
        answers.insert(others[0].id.clone(), sure(ALSO, &[ALSO, INSTEAD, OUT, NOTHING]));
        let (base, more) = again::apply(&catalog, Some(&GATE), &[], &decision, &others, &answers, 0.4, &decision.input);
        // The engine placed the office as a step of its own: the den's step stands as read, and runs.
        assert_eq!((base.outcome, base.because.clone(), &base.call), (Outcome::Run, None, &decision.call));
        assert_eq!(more[0].outcome, Outcome::Run, "{:?}", more[0]);
        assert_eq!(more.len(), 1);
        assert_eq!(more[0].call.as_deref(), Some("lights room=\"office\" state=\"off\""));
        assert_eq!(
            more[0].args.as_ref().unwrap().get("room"),
            Some(&Value::Word { word: "office".into(), value: Some("group-7".into()) })
        );
        assert!(more[0].judgments.iter().any(|j| j.question == others[0].id && j.top == ALSO));
        assert!(more[0].judgments.iter().all(|j| j.question != QuestionId::Route));
    }

    #[test]
    fn a_step_written_again_keeps_the_mood_of_the_whole_sentence() {
        use crate::decision::Because;
        use crate::mood::Mood;
        let catalog = catalog();
        let part = "turn off the den and office lights";
        let sentence = "turn off the den and office lights, just kidding";
        let decision = den_off_within(Decider::new(&catalog, Some(GATE), part).unwrap().within(sentence));
        assert_eq!(decision.outcome, Outcome::Confirm);
        let others = again::others(&catalog, &decision, &decision.input, 7);
        let mut answers = Answers::new();
        answers.insert(others[0].id.clone(), sure(ALSO, &[ALSO, INSTEAD, OUT, NOTHING]));
        let (base, more) = again::apply(&catalog, Some(&GATE), &[], &decision, &others, &answers, 0.4, sentence);
        assert_eq!(base.outcome, Outcome::Confirm);
        // The office step is written from the part's words, and the `just kidding` still holds it.
        assert_eq!(more[0].outcome, Outcome::Confirm, "{:?}", more[0]);
        let because = more[0].because.as_deref().unwrap_or_default();
        assert!(because.contains(&Because::NotARequest { mood: Mood::TakenBack }), "{because:?}");
    }

    /// The words a step is held for as saying another value (`one_view`), where it is.
    fn held(d: &crate::decision::Decision) -> Option<Vec<String>> {
        d.because.iter().flatten().find_map(|b| match b {
            crate::decision::Because::OneView { words, .. } => Some(words.clone()),
            _ => None,
        })
    }

    #[test]
    fn a_hold_names_only_the_words_no_step_placed() {
        let catalog = catalog();
        let decision = den_off(&catalog, "turn off the den, kitchen and office lights");
        let others = again::others(&catalog, &decision, &decision.input, 7);
        assert_eq!(others.iter().map(|o| o.word.as_str()).collect::<Vec<_>>(), ["kitchen", "office"]);
        let mut answers = Answers::new();
        answers.insert(others[0].id.clone(), sure(ALSO, &[ALSO, INSTEAD, OUT, NOTHING]));
        answers.insert(others[1].id.clone(), sure(NOTHING, &[ALSO, INSTEAD, OUT, NOTHING]));
        let (base, more) = again::apply(&catalog, Some(&GATE), &[], &decision, &others, &answers, 0.4, &decision.input);
        // The kitchen is a step of its own, the den the first step's: only the office is left unplaced.
        assert_eq!(held(&base), Some(vec!["office".to_string()]), "{base:?}");
        assert_eq!(held(&more[0]), Some(vec!["office".to_string()]), "{:?}", more[0]);
    }

    #[test]
    fn a_value_meant_in_place_of_the_one_read_still_waits_for_a_person() {
        let catalog = catalog();
        let decision = den_off(&catalog, "turn off the den and office lights");
        let others = again::others(&catalog, &decision, &decision.input, 7);
        let mut answers = Answers::new();
        answers.insert(others[0].id.clone(), sure(INSTEAD, &[ALSO, INSTEAD, OUT, NOTHING]));
        let (base, more) = again::apply(&catalog, Some(&GATE), &[], &decision, &others, &answers, 0.4, &decision.input);
        assert!(more.is_empty());
        assert_eq!(base.call.as_deref(), Some("lights room=\"office\" state=\"off\""));
        assert_eq!(base.outcome, Outcome::Confirm, "{base:?}");
        assert_eq!(held(&base), Some(vec!["den".to_string()]), "{base:?}");
    }

    #[test]
    fn a_value_ruled_out_or_said_of_something_else_adds_no_step() {
        let catalog = catalog();
        let decision = den_off(&catalog, "turn off the den but not the office");
        let others = again::others(&catalog, &decision, &decision.input, 7);
        let answered = |key: &str| {
            let mut answers = Answers::new();
            answers.insert(others[0].id.clone(), sure(key, &[ALSO, INSTEAD, OUT, NOTHING]));
            again::apply(&catalog, Some(&GATE), &[], &decision, &others, &answers, 0.4, &decision.input)
        };
        for key in [OUT, NOTHING] {
            let (base, more) = answered(key);
            assert!(more.is_empty(), "{key}");
            assert_eq!(base.call, decision.call, "{key}");
            // Alone, the `not` makes the sentence a request not to, and the step waits; `out` says the `not`
            // was the office's, and the step runs as read. `nothing` leaves it waiting.
            assert_eq!(decision.outcome, Outcome::Confirm);
            let want = if key == OUT { Outcome::Run } else { Outcome::Confirm };
            assert_eq!(base.outcome, want, "{key}");
            assert_eq!(base.because.is_none(), key == OUT, "{key}");
        }
        // The office is named where the words spare it: no answer writes it in, and the step waits as read.
        for key in [ALSO, INSTEAD] {
            let (base, more) = answered(key);
            assert!(more.is_empty(), "{key}");
            assert_eq!(base.call, decision.call, "{key}");
            assert_eq!(base.outcome, Outcome::Confirm, "{key}");
        }
    }

    #[test]
    fn a_value_named_to_do_and_to_spare_is_never_written_in() {
        let catalog = catalog();
        let decision = den_off(&catalog, "turn off the den and office lights, except the office");
        let others = again::others(&catalog, &decision, &decision.input, 7);
        assert_eq!(others.len(), 1, "{others:?}");
        assert!(others[0].spared, "{others:?}");
        let mut answers = Answers::new();
        answers.insert(others[0].id.clone(), sure(ALSO, &[ALSO, INSTEAD, OUT, NOTHING]));
        let (base, more) = again::apply(&catalog, Some(&GATE), &[], &decision, &others, &answers, 0.4, &decision.input);
        assert!(more.is_empty(), "{more:?}");
        assert_eq!(base.call, decision.call);
    }
}

mod yields {
    use crate::contract::{Level, diff};
    use crate::manifest::read_manifest;
    use crate::recognize::PickKind;

    const BASE: &str = "reflex = 1\ndescription = \"Look up a contact.\"\neffect = \"read\"\nconfirm = \"Look up {name}?\"\nrun = \"b.mjs\"\n[args.name]\nask = \"Who?\"\npick = \"text\"\n";

    fn manifest(extra: &str) -> crate::manifest::Manifest {
        let text = format!("{BASE}{extra}");
        let reading = read_manifest("reflex.toml", &text, &|_: &str| true);
        reading.value.unwrap_or_else(|| panic!("{:?}", reading.diagnostics))
    }

    #[test]
    fn yields_declare_the_result_fields_a_later_step_may_take() {
        let m = manifest(
            "[yields.email]\nkind = \"text\"\nabout = \"The contact's address.\"\n[yields.age]\nkind = \"number\"\n",
        );
        assert_eq!(m.yields.len(), 2);
        assert_eq!((m.yields[0].field.as_str(), m.yields[0].kind), ("email", PickKind::Text));
        assert_eq!(m.yields[0].about.as_deref(), Some("The contact's address."));
        assert_eq!(m.yields[1].about, None);
        let canonical = m.to_canonical_json();
        assert_eq!(canonical["yields"]["email"]["kind"], "text");
        assert!(manifest("").to_canonical_json().get("yields").is_none(), "no yields, no key");
    }

    #[test]
    fn a_yield_without_a_pick_kind_is_refused_with_the_line() {
        for (extra, said) in [
            ("[yields.email]\nkind = \"mailbox\"\n", "is not a pick kind"),
            ("[yields.email]\nabout = \"x\"\n", "kind"),
            ("[yields.Email]\nkind = \"text\"\n", "is not a name"),
        ] {
            let text = format!("{BASE}{extra}");
            let reading = read_manifest("reflex.toml", &text, &|_: &str| true);
            assert!(reading.value.is_none(), "{extra}");
            let all: Vec<String> =
                reading.diagnostics.iter().map(|d| format!("{} {}", d.message, d.place.line)).collect();
            assert!(all.iter().any(|m| m.contains(said)), "{extra}: {all:?}");
            assert!(reading.diagnostics.iter().all(|d| d.place.line >= 9), "{all:?}");
        }
    }

    #[test]
    fn adding_a_field_is_minor_and_removing_or_changing_one_is_major() {
        let none = manifest("");
        let email = manifest("[yields.email]\nkind = \"text\"\n");
        let number = manifest("[yields.email]\nkind = \"number\"\n");
        let worded = manifest("[yields.email]\nkind = \"text\"\nabout = \"The address.\"\n");
        assert_eq!(diff(&none, &email).unwrap().next, Level::Minor);
        assert_eq!(diff(&email, &none).unwrap().next, Level::Major);
        assert_eq!(diff(&email, &number).unwrap().next, Level::Major);
        assert_eq!(diff(&email, &worded).unwrap().next, Level::Patch);
        assert_eq!(diff(&email, &email).unwrap().next, Level::None);
    }
}

mod weaving {
    use super::super::plan::{Repair, VerdictBecause};
    use super::super::weaver::{NotWoven, Weaver, Woven};
    use super::super::{MAX_CUTS, TooMany};
    use super::{GATE, LIGHTS, TIMER, reflex};
    use crate::catalog::Catalog;
    use crate::decision::Outcome;
    use crate::question::{Question, QuestionId, Questions};
    use crate::validate::{Answers, Distribution};

    const ROOMS: &str = "den = \"The TV room.\"\noffice = \"The study.\"\nkitchen = \"Cooking.\"\n";

    fn catalog() -> Catalog {
        Catalog::new(vec![reflex("lights", LIGHTS, Some(ROOMS)), reflex("timer", TIMER, None)])
    }

    /// A scripted engine: the route by a word of the text, arguments by the words they name, every cut
    /// as `cut` says, every other value `also`.
    fn answer(text: &str, questions: &Questions, cut: &dyn Fn((usize, usize)) -> bool) -> Answers {
        let sure = |key: &str, q: &Question| {
            let keys = q.keys();
            let key = if keys.contains(&key) { key } else { keys[keys.len() - 1] };
            Distribution(keys.iter().map(|k| (k.to_string(), if *k == key { 1.0 } else { 0.0 })).collect())
        };
        let lower = text.to_lowercase();
        let mut answers = Answers::new();
        for (id, q) in &questions.0 {
            let arg = |name: &str| *id == QuestionId::arg("lights", name);
            let key: String = if *id == QuestionId::Route {
                if lower.contains("light") {
                    "lights"
                } else if lower.contains("timer") {
                    "timer"
                } else {
                    "none"
                }
                .into()
            } else if let QuestionId::Fits { .. } = id {
                "yes".into()
            } else if let QuestionId::Cut { start, end } = id {
                if cut((*start, *end)) { "yes" } else { "no" }.into()
            } else if let QuestionId::Again { .. } = id {
                "also".into()
            } else if let QuestionId::Aside { .. } = id {
                "asks".into()
            } else if arg("room") {
                // The room said last.
                ["den", "office", "kitchen"]
                    .iter()
                    .filter_map(|w| lower.rfind(w).map(|at| (at, *w)))
                    .max()
                    .map_or("unstated", |(_, w)| w)
                    .into()
            } else if arg("state") {
                if lower.contains(" off") {
                    "off"
                } else if lower.contains(" on") {
                    "on"
                } else {
                    "unstated"
                }
                .into()
            } else {
                q.keys()[0].to_string()
            };
            answers.insert(id.clone(), sure(&key, q));
        }
        answers
    }

    /// Weaves `input`, and lists the words each round was asked under.
    fn weave(input: &str, cut: &dyn Fn((usize, usize)) -> bool) -> (Woven, Vec<String>) {
        let catalog = catalog();
        let mut weaver = Weaver::new(&catalog, Some(GATE), input).unwrap();
        let mut asked = Vec::new();
        while let Some((text, questions)) = weaver.questions() {
            asked.push(text.to_string());
            let answers = answer(text, questions, cut);
            weaver.feed(&answers).unwrap();
            assert!(asked.len() < 40, "the weave asks without end");
        }
        (weaver.woven().unwrap().clone(), asked)
    }

    fn plan_of(woven: Woven) -> super::super::plan::Plan {
        match woven {
            Woven::Plan(plan) => plan,
            Woven::One(d) => panic!("one decision: {d:?}"),
        }
    }

    #[test]
    fn two_requests_plan_two_steps_in_two_stages() {
        let input = "turn off the den lights and set a timer for 5 minutes";
        let (woven, asked) = weave(input, &|_| true);
        let plan = plan_of(woven);
        let calls: Vec<&str> = plan.steps.iter().map(|s| s.decision.call.as_deref().unwrap()).collect();
        assert_eq!(calls, ["lights room=\"den\" state=\"off\"", "timer duration=\"5 minutes\""]);
        assert_eq!(plan.stages, vec![vec![1], vec![2]]);
        assert_eq!(plan.verdict.outcome, Outcome::Run);
        // The sentence's own round first, then each part's rounds under its own words.
        assert_eq!(asked[0], input);
        assert!(
            asked[1..].iter().all(|t| t == "turn off the den lights" || t == "set a timer for 5 minutes"),
            "{asked:?}"
        );
    }

    #[test]
    fn a_sentence_left_whole_is_one_decision() {
        let input = "turn off the den lights and the kitchen";
        let (woven, _) = weave(input, &|_| false);
        // The kitchen is another value of the list: again writes the step for it.
        let plan = plan_of(woven);
        assert_eq!(plan.steps.len(), 2);
        assert_eq!(plan.steps[1].repair, Some(Repair::Again));
        let mut calls: Vec<&str> = plan.steps.iter().map(|s| s.decision.call.as_deref().unwrap()).collect();
        calls.sort();
        assert_eq!(calls, ["lights room=\"den\" state=\"off\"", "lights room=\"kitchen\" state=\"off\""]);
        assert_eq!(plan.stages, vec![vec![1], vec![2]], "two writes, two stages");
        let (woven, asked) = weave("set a timer for 5 minutes", &|_| true);
        assert!(matches!(woven, Woven::One(ref d) if d.outcome == Outcome::Run), "{woven:?}");
        assert_eq!(asked.len(), 2, "no place to cut: the rounds of one decision");
    }

    #[test]
    fn steps_written_for_what_both_points_at_never_pass_the_plans_bound() {
        let input = "dim the den and office and kitchen lights, then turn both lights off, then turn both lights on, \
                     then turn both lights off";
        let commas: Vec<usize> = input.match_indices(", then").map(|(at, _)| at).collect();
        let (woven, _) = weave(input, &move |(start, _)| commas.contains(&start));
        let plan = plan_of(woven);
        assert!(plan.steps.len() <= super::super::MAX_PARTS, "{} steps", plan.steps.len());
        // The three rooms, and one part written for each of them; the parts past the bound ask.
        assert_eq!(plan.steps.len(), 8, "{:?}", plan.steps.iter().map(|s| &s.decision.call).collect::<Vec<_>>());
        assert_eq!(plan.steps.iter().filter(|s| s.decision.outcome == Outcome::Ask).count(), 2);
    }

    #[test]
    fn words_that_point_back_and_add_a_detail_hold_the_call_as_a_detail() {
        use crate::decision::Because;
        let input = "turn off the den lights and let me know when it is done";
        let at = input.find(" and ").unwrap() + 1;
        let (woven, _) = weave(input, &move |(start, _)| start == at);
        let Woven::One(decision) = woven else { panic!("stands as one: {woven:?}") };
        assert_eq!(decision.outcome, Outcome::Confirm, "{decision:?}");
        let detail = Because::Detail { words: vec!["let me know when it is done".into()] };
        assert!(decision.because.iter().flatten().any(|b| *b == detail), "{:?}", decision.because);
        assert!(decision.prompt.as_ref().is_some_and(|p| p.reason.contains("may add a detail")), "{decision:?}");
    }

    #[test]
    fn what_is_joined_to_a_part_that_rules_out_holds_every_step_for_a_person() {
        use crate::decision::Because;
        // Cut only before `not`: the part ruled out runs to the end of the sentence, and holds the office.
        let before_not = |input: &str| {
            let at = input.find(", not").unwrap();
            move |(start, _): (usize, usize)| start == at
        };
        let input = "turn off the kitchen lights, not the den, and the office lights";
        let plan = plan_of(weave(input, &before_not(input)).0);
        assert_eq!(plan.excluded.len(), 1, "{plan:?}");
        assert_eq!(plan.steps.len(), 1, "{plan:?}");
        let step = &plan.steps[0].decision;
        assert_eq!(step.call.as_deref(), Some("lights room=\"kitchen\" state=\"off\""));
        assert_eq!(step.outcome, Outcome::Confirm, "the office may be asked for: {step:?}");
        assert_eq!(step.because.as_deref(), Some(&[Because::TwoThings][..]));
        assert_ne!(plan.verdict.outcome, Outcome::Run);
        // The lamp is no value of the lights: the plan cannot keep it out, and nothing runs unasked.
        let input = "turn off the den lights, not the lamp";
        let plan = plan_of(weave(input, &before_not(input)).0);
        assert_eq!(plan.excluded.len(), 1, "{plan:?}");
        assert!(plan.steps.iter().all(|s| s.decision.outcome != Outcome::Run), "{plan:?}");
        // `not just` rules nothing out: it asks for the den too.
        let input = "turn off the kitchen lights, not just the den";
        let plan = plan_of(weave(input, &before_not(input)).0);
        assert!(plan.steps.iter().all(|s| s.decision.outcome != Outcome::Run), "{plan:?}");
        assert_ne!(plan.verdict.outcome, Outcome::Run);
        // What is ruled out alone leaves the rest to run.
        let input = "turn off the kitchen lights, not the den";
        let plan = plan_of(weave(input, &before_not(input)).0);
        assert_eq!(plan.steps[0].decision.outcome, Outcome::Run, "{plan:?}");
    }

    #[test]
    fn a_thing_joined_to_a_call_and_never_spoken_of_by_its_reflex_is_not_left_out_silently() {
        use crate::decision::Because;
        let one = |input: &str| match weave(input, &|_| false).0 {
            Woven::One(d) => d,
            Woven::Plan(p) => panic!("a plan: {p:?}"),
        };
        // Run as read, these would switch the lights off and leave the oven (or the fan) as it is.
        for input in [
            "turn off the den lights and the oven",
            "turn off the oven and the den lights",
            "turn off the den lights then the fan",
            "turn off the den lights and the hallway lights",
            // `and everything` asks for more than the den.
            "turn off the den lights and everything",
            // The den's meaning speaks of a TV; the lights do not.
            "turn off the den lights and the tv",
            // Other words and marks that join one more thing.
            "turn off the den lights plus the tv",
            "turn off the den lights & the tv",
            "turn off the den lights as well as the tv",
            "turn off the den lights along with the fan",
            "turn off the den lights, also the fan",
            "turn off the den lights; the oven",
            // Texted joins, runs of marks, a second sentence, a comma after the `and`.
            "turn off the den lights n the tv",
            "turn off the den lights w/ the fan",
            "turn off the den lights/tv",
            "turn off the den lights / the fan",
            "turn off the den lights && the fan",
            "turn off the den lights || the fan",
            "turn off the den lights -- the fan",
            "turn off the den lights, oven too",
            "turn off the den lights, fan as well",
            "turn off the den lights including the fan",
            "turn off the den lights. the fan too.",
            "turn off the den lights! the fan!",
            "turn off the den lights and, the tv",
        ] {
            let d = one(input);
            assert_eq!(d.outcome, Outcome::Confirm, "{input}: {d:?}");
            // The thing joined is said to be left out; a word nothing reads (`oven`) is said too.
            let because = d.because.as_deref().unwrap_or_default();
            assert!(because.contains(&Because::TwoThings), "{input}: {because:?}");
            assert!(because.iter().all(|b| matches!(b, Because::TwoThings | Because::More { .. })), "{input}");
            assert!(d.prompt.unwrap().reason.contains("two things"), "{input}");
        }
        // `not` names no thing; the oven still is one (and the mood reads the `not` too).
        let d = one("turn off the den lights and not the oven");
        assert_eq!(d.outcome, Outcome::Confirm);
        assert!(d.because.as_deref().unwrap().contains(&Because::TwoThings), "{d:?}");
        // What the reflex speaks of, courtesy, and a typed span's own `and` join nothing more.
        for input in [
            "turn off the den lights",
            "turn off the den lights and thanks",
            "set a timer for an hour and a half",
            // Two verbs of one act.
            "go ahead and turn off the den lights",
            "come and turn off the den lights",
            "also turn off the den lights",
            "turn off the den lights as well",
            "turn off the den lights too",
            "turn off the den lights. thanks",
        ] {
            let d = one(input);
            assert_eq!(d.outcome, Outcome::Run, "{input}: {d:?}");
        }
        // A word nothing the reflex says reads, and no rule knows, holds the call for a person: the read-back
        // cannot tell a remark from more asked of the call.
        for (input, word) in [
            ("turn off the den lights too fast", "fast"),
            ("turn off the den lights. goodnight.", "goodnight"),
            ("turn off the den lights. it's late", "late"),
            ("turn off the den lights. i'm going to bed.", "bed"),
        ] {
            let d = one(input);
            assert_eq!(d.outcome, Outcome::Confirm, "{input}: {d:?}");
            assert_eq!(d.because, Some(vec![Because::More { words: vec![word.into()] }]), "{input}");
        }
    }

    #[test]
    fn a_half_that_matches_nothing_refuses_the_whole_request() {
        let (woven, asked) = weave("turn off the den lights and order a large pizza", &|_| true);
        let plan = plan_of(woven);
        assert!(plan.refused());
        assert_eq!(plan.verdict.because, vec![VerdictBecause::FoundNothing { text: "order a large pizza".into() }]);
        assert!(
            asked.iter().any(|t| t == "turn off the den lights and order a large pizza"),
            "the splice was tried: {asked:?}"
        );
    }

    #[test]
    fn a_half_that_names_a_value_is_spliced_into_its_neighbour() {
        let (woven, _) = weave("turn off the den lights, the office", &|_| true);
        let plan = plan_of(woven);
        assert!(!plan.refused(), "{:?}", plan.verdict);
        assert_eq!(plan.steps[1].repair, Some(Repair::Spliced));
        assert_eq!(plan.steps[1].decision.args.as_ref().unwrap().get("room").unwrap().shown(), "office");
    }

    #[test]
    fn negation_leaves_parts_out_and_all_negation_is_nothing_to_do() {
        let (woven, asked) = weave("don't turn on the kitchen lights", &|_| true);
        let plan = plan_of(woven);
        assert_eq!(plan.verdict.because, vec![VerdictBecause::NothingToDo]);
        assert!(asked.is_empty(), "nothing is asked about what not to do");
        let (woven, _) = weave("set a timer for 5 minutes but don't turn on the lights", &|_| true);
        let plan = plan_of(woven);
        assert_eq!(plan.steps.len(), 1);
        assert_eq!(plan.excluded[0].text, "don't turn on the lights");
    }

    #[test]
    fn too_many_places_to_cut_is_refused_before_any_question() {
        let catalog = catalog();
        let input = "and ".repeat(500);
        match Weaver::new(&catalog, Some(GATE), input.trim()) {
            Err(NotWoven::TooMany(TooMany::TooManyCuts { limit, .. })) => assert_eq!(limit, MAX_CUTS),
            Err(other) => panic!("{other:?}"),
            Ok(_) => panic!("woven"),
        }
    }
}

mod binding {
    use super::super::Reading;
    use super::super::plan::{
        Decided, Untaken, VerdictBecause, Via, bind, refers_back, rewritten_words, settle, taken,
    };
    use super::reflex;
    use crate::catalog::Catalog;
    use crate::decision::{Args, Choices, Missing, MissingBecause, Outcome, Value};
    use crate::manifest::Effect;
    use crate::recognize::{PickKind, PickValue};

    const CONTACT: &str = "reflex = 1\ndescription = \"Look up a contact.\"\neffect = \"read\"\nconfirm = \"Look up?\"\nrun = \"c.mjs\"\n[yields.email]\nkind = \"text\"\n";
    const DIRECTORY: &str = "reflex = 1\ndescription = \"Look up a desk.\"\neffect = \"read\"\nconfirm = \"Look up?\"\nrun = \"d.mjs\"\n[yields.desk_mail]\nkind = \"text\"\n";
    const MAIL: &str = "reflex = 1\ndescription = \"Draft a mail.\"\neffect = \"write\"\nconfirm = \"Mail {to}?\"\nrun = \"m.mjs\"\n[args.to]\nask = \"To whom?\"\npick = \"text\"\n";

    fn step(text: &str, reflex: &str, outcome: Outcome, effect: Effect, missing: Option<&str>) -> Decided {
        // A step that asks has neither a call nor an effect yet.
        let asks = outcome == Outcome::Ask;
        let mut decision = super::decision(text, outcome, Some(reflex), (!asks).then_some(effect), Args::default());
        if asks {
            decision.call = None;
        }
        decision.missing = missing.map(|arg| {
            vec![Missing {
                arg: arg.into(),
                ask: "To whom?".into(),
                because: MissingBecause::Unstated,
                words: None,
                choices: Choices::Pick { kind: "text", range: None, readings: Vec::new(), recent: Vec::new() },
                likely: None,
            }]
        });
        Decided { part: super::part(text, 0), decision, repair: None }
    }

    fn plan(catalog: &Catalog, steps: Vec<Decided>) -> super::super::plan::Plan {
        let reading =
            Reading { parts: steps.iter().map(|d| d.part.clone()).collect(), excluded: vec![], splits: vec![] };
        let mut plan = settle("x", &reading, steps);
        bind(catalog, &mut plan);
        plan
    }

    #[test]
    fn a_step_that_refers_back_takes_the_one_field_of_its_kind() {
        let catalog = Catalog::new(vec![reflex("contact", CONTACT, None), reflex("mail", MAIL, None)]);
        let p = plan(
            &catalog,
            vec![
                step("look up dana's address", "contact", Outcome::Run, Effect::Read, None),
                step("email them", "mail", Outcome::Ask, Effect::Write, Some("to")),
            ],
        );
        assert!(!p.refused(), "{:?}", p.verdict);
        assert_eq!(p.binds.len(), 1);
        let b = &p.binds[0];
        assert_eq!((b.step, b.arg.as_str(), b.from, b.field.as_str(), b.via), (2, "to", 1, "email", Via::Fill));
        // Words that do not refer back take nothing: the value is asked up front.
        let p = plan(
            &catalog,
            vec![
                step("look up dana's address", "contact", Outcome::Run, Effect::Read, None),
                step("write a mail", "mail", Outcome::Ask, Effect::Write, Some("to")),
            ],
        );
        assert!(p.binds.is_empty());
        assert!(refers_back("email them") && refers_back("send that report") && !refers_back("send the item"));
    }

    #[test]
    fn several_fields_that_fit_stop_the_plan_and_none_says_no_source() {
        let catalog = Catalog::new(vec![
            reflex("contact", CONTACT, None),
            reflex("directory", DIRECTORY, None),
            reflex("mail", MAIL, None),
        ]);
        let p = plan(
            &catalog,
            vec![
                step("look up dana", "contact", Outcome::Run, Effect::Read, None),
                step("find her desk", "directory", Outcome::Run, Effect::Read, None),
                step("email them", "mail", Outcome::Ask, Effect::Write, Some("to")),
            ],
        );
        assert!(p.refused());
        assert_eq!(
            p.verdict.because,
            vec![VerdictBecause::SeveralSources {
                step: 3,
                arg: "to".into(),
                from: vec![1, 2],
                fields: vec!["email".into(), "desk_mail".into()]
            }]
        );
        let p = plan(&catalog, vec![step("email them", "mail", Outcome::Ask, Effect::Write, Some("to"))]);
        assert_eq!(p.verdict.because, vec![VerdictBecause::NoSource { step: 1, arg: "to".into() }]);
    }

    #[test]
    fn a_source_a_person_chose_binds_and_one_that_is_no_source_leaves_the_refusal() {
        let catalog = Catalog::new(vec![
            reflex("contact", CONTACT, None),
            reflex("directory", DIRECTORY, None),
            reflex("mail", MAIL, None),
        ]);
        let refused = plan(
            &catalog,
            vec![
                step("look up dana", "contact", Outcome::Run, Effect::Read, None),
                step("find her desk", "directory", Outcome::Run, Effect::Read, None),
                step("email them", "mail", Outcome::Ask, Effect::Write, Some("to")),
            ],
        );
        let chosen = |from: usize, field: &str| super::super::plan::Chosen {
            step: 3,
            arg: "to".into(),
            from,
            field: field.into(),
        };
        let p = super::super::plan::choose(&catalog, &refused, &[chosen(2, "desk_mail")]);
        assert!(!p.refused(), "{:?}", p.verdict);
        assert_eq!(p.verdict.outcome, Outcome::Ask);
        let b = &p.binds[0];
        assert_eq!((b.step, b.from, b.field.as_str(), b.via), (3, 2, "desk_mail", Via::Fill));
        assert_eq!(p.stages, vec![vec![1, 2], vec![3]]);
        assert_eq!(p.steps[2].after, vec![1, 2]);
        // A field no earlier step yields, or a step that gives nothing, is no choice.
        for wrong in [chosen(2, "email"), chosen(3, "desk_mail")] {
            assert_eq!(super::super::plan::choose(&catalog, &refused, &[wrong]), refused);
        }
    }

    const NOTE: &str = "reflex = 1\ndescription = \"Note a title.\"\neffect = \"write\"\nconfirm = \"Note it?\"\nrun = \"n.mjs\"\n[args.what]\nask = \"What?\"\npick = \"text\"\noptional = true\n";

    #[test]
    fn an_optional_value_is_written_into_the_words_and_decided_again() {
        let catalog = Catalog::new(vec![reflex("contact", CONTACT, None), reflex("note", NOTE, None)]);
        let p = plan(
            &catalog,
            vec![
                step("look up dana", "contact", Outcome::Run, Effect::Read, None),
                step("note it", "note", Outcome::Run, Effect::Write, None),
            ],
        );
        assert!(!p.refused(), "{:?}", p.verdict);
        assert_eq!(p.binds.len(), 1);
        assert_eq!((p.binds[0].arg.as_str(), p.binds[0].from, p.binds[0].via), ("what", 1, Via::Rewrite));
        let value = taken(PickKind::Text, Some(&serde_json::json!("dana@example.com"))).unwrap();
        assert_eq!(rewritten_words("note it", &value).as_deref(), Some("note \"dana@example.com\""));
        assert_eq!(rewritten_words("send that report now", &value).as_deref(), Some("send \"dana@example.com\" now"));
        assert_eq!(rewritten_words("note the item", &value), None);
        // Words that do not refer back take nothing, and an optional value with no source is not given.
        let p = plan(&catalog, vec![step("note a line", "note", Outcome::Run, Effect::Write, None)]);
        assert!(p.binds.is_empty() && !p.refused());
    }

    #[test]
    fn a_field_is_taken_only_as_its_kind() {
        let v = taken(PickKind::Text, Some(&serde_json::json!("dana@example.com"))).unwrap();
        assert_eq!(v.shown(), "dana@example.com");
        assert!(matches!(v, Value::Pick { value: PickValue::Text(_), .. }));
        assert_eq!(taken(PickKind::Text, Some(&serde_json::json!(3))), Err(Untaken::Nothing));
        assert_eq!(taken(PickKind::Number, Some(&serde_json::json!("3"))), Err(Untaken::Nothing));
        assert_eq!(taken(PickKind::Text, None), Err(Untaken::Nothing));
        let repaints = taken(PickKind::Text, Some(&serde_json::json!("a\u{1b}[2Jb")));
        assert!(matches!(repaints, Err(Untaken::Refused(_))), "no value repaints a line: {repaints:?}");
    }

    #[test]
    fn a_date_is_taken_only_as_a_day_written_yyyy_mm_dd() {
        use crate::recognize::DateReading;
        let v = taken(PickKind::Date, Some(&serde_json::json!("2028-02-29"))).unwrap();
        let leap = DateReading::Calendar { year: 2028, month: 2, day: 29 };
        assert!(matches!(v, Value::Pick { value: PickValue::Date(d), .. } if d == leap));
        for no_day in ["2027-02-29", "2027-13-01", "2027-3-01", "03/03/2027", "tomorrow", "2027-03-0a"] {
            assert_eq!(taken(PickKind::Date, Some(&serde_json::json!(no_day))), Err(Untaken::Nothing), "{no_day}");
        }
    }

    #[test]
    fn a_field_longer_than_any_value_is_too_large_to_take() {
        let long = "x".repeat(2001);
        assert_eq!(
            taken(PickKind::Text, Some(&serde_json::json!(long))),
            Err(Untaken::TooLarge { chars: 2001, limit: 2000 })
        );
    }
}

mod plan_file {
    use super::super::planfile::{AdapterPin, Pins, ReflexPin, check, key_id, read, seal, unseal, write};

    fn pins() -> Pins {
        Pins {
            evoke: "0.1.0".into(),
            adapter: AdapterPin { name: "replay".into(), id: "replay".into() },
            gate: None,
            set: "sha256:aa".into(),
            reflexes: [(
                "lamp".to_string(),
                ReflexPin { item: "sha256:11".into(), path: Some("reflexes/lamp".into()) },
            )]
            .into(),
            vocab: [("rooms".to_string(), "sha256:22".to_string())].into(),
        }
    }

    #[test]
    fn a_plan_file_reads_back_and_checks_against_the_same_pins() {
        let text = write(&pins(), "a and b", &[], serde_json::json!({ "steps": [] }), Vec::new(), None);
        let file = read(&text).unwrap();
        assert_eq!(file.input, "a and b");
        assert_eq!(check(&text, &file, &pins()), Ok(()));
    }

    #[test]
    fn a_changed_pin_is_refused_with_its_line_and_the_fix() {
        let text = write(&pins(), "a and b", &[], serde_json::json!({ "steps": [] }), Vec::new(), None);
        let file = read(&text).unwrap();
        let mut now = pins();
        now.reflexes.get_mut("lamp").unwrap().item = "sha256:33".into();
        let refused = check(&text, &file, &now).unwrap_err();
        assert_eq!(refused.key, "lamp");
        assert_eq!(text.lines().nth(refused.line - 1).unwrap().trim_start().split(':').next(), Some("\"lamp\""));
        assert!(refused.fix.contains("evoke try --save"), "{refused}");
        let mut now = pins();
        now.evoke = "0.2.0".into();
        let refused = check(&text, &file, &now).unwrap_err();
        assert_eq!(refused.key, "evoke");
        assert!(refused.message.contains("0.2.0"));
    }

    #[test]
    fn a_truncated_or_foreign_file_is_refused_before_anything() {
        let text = write(&pins(), "a and b", &[], serde_json::json!({ "steps": [] }), Vec::new(), None);
        let cut = &text[..text.len() / 2];
        assert!(read(cut).unwrap_err().message.contains("not a plan file"));
        let other = text.replace("\"plan\": 2", "\"plan\": 1");
        let refused = read(&other).unwrap_err();
        assert_eq!(refused.key, "plan");
        assert!(refused.message.contains("format 1"), "{refused}");
        let extra = text.replacen("{", "{\n  \"run_first\": true,", 1);
        assert!(read(&extra).is_err(), "a key evoke never writes is refused");
    }

    const KEY: &[u8] = b"a key of thirty-two bytes, here.";

    #[test]
    fn a_sealed_file_opens_to_the_text_written() {
        let text = write(&pins(), "a and b", &[], serde_json::json!({ "steps": [] }), Vec::new(), None);
        let sealed = seal(&text, KEY);
        assert!(sealed.lines().nth(1).unwrap().starts_with("  \"seal\": \"hmac-sha256:"), "{sealed}");
        let opened = unseal(&sealed, KEY).unwrap();
        assert!(opened.ours);
        assert_eq!(opened.text, text);
        assert_eq!(opened.mac.len(), 64);
        assert!(read(&opened.text).is_ok());
    }

    #[test]
    fn any_edit_of_a_sealed_file_is_refused_at_its_seal() {
        let text = write(&pins(), "a and b", &[], serde_json::json!({ "steps": [] }), Vec::new(), None);
        let sealed = seal(&text, KEY);
        // An edit anywhere, even one a digest inside the file would be recomputed for.
        for edited in [
            sealed.replace("a and b", "a and c"),
            sealed.replace("\"evoke\": \"0.1.0\"", "\"evoke\": \"0.1.0\" "),
            format!("{sealed}\n"),
        ] {
            assert_ne!(edited, sealed);
            let refused = unseal(&edited, KEY).unwrap_err();
            assert_eq!((refused.line, refused.key.as_str()), (2, "seal"), "{refused}");
            assert!(refused.message.contains("changed since evoke wrote it"), "{refused}");
        }
        // No seal at all: the file of an older evoke, or one written by hand.
        let refused = unseal(&text, KEY).unwrap_err();
        assert!(refused.message.contains("no seal"), "{refused}");
        assert_eq!(refused.to_string(), format!("line 2: `seal`: {}", refused.message), "the fix is apart");
    }

    #[test]
    fn a_file_sealed_by_another_key_opens_as_from_elsewhere() {
        let text = write(&pins(), "a and b", &[], serde_json::json!({ "steps": [] }), Vec::new(), None);
        let theirs = seal(&text, b"another user's key, not this one");
        let opened = unseal(&theirs, KEY).unwrap();
        assert!(!opened.ours);
        assert_ne!(key_id(KEY), key_id(b"another user's key, not this one"));
        // Posing as this user's key with another's MAC is an edit.
        let posed = theirs.replacen(&key_id(b"another user's key, not this one"), &key_id(KEY), 1);
        assert!(unseal(&posed, KEY).is_err());
    }
}

#[test]
fn the_parts_at_given_places_are_the_parts_the_answers_give() {
    for input in [
        "turn off the den lights and set a timer for 5 minutes",
        "set a timer for 5 minutes after you turn off the den lights",
        "don't touch the office, then please dim the den after that stop the music",
        "turn  off the den lights after   that set a timer",
    ] {
        let (found, a) = answers(input, &[]);
        let read_parts = read(input, &found, &a, 0.5).unwrap().parts;
        let at: Vec<(usize, usize)> = found.iter().map(|c| (c.start, c.end)).collect();
        assert_eq!(parts_cut_at(input, &at), read_parts, "{input}");
    }
    // Only the places given cut, and the first part to run comes first.
    assert_eq!(
        texts(&parts_cut_at("set a timer for 5 minutes after you turn off the den lights", &[(26, 31)])),
        ["turn off the den lights", "set a timer for 5 minutes"]
    );
    assert!(parts_cut_at("turn off the lights", &[(40, 44), (3, 1)]).len() == 1, "places out of the text are none");
    // Overlapping places: the first stands, the one inside it is none.
    assert_eq!(
        texts(&parts_cut_at("turn off the den lights and set a timer", &[(26, 27), (24, 27)])),
        ["turn off the den lights", "set a timer"]
    );
}

#[test]
fn two_parts_on_one_reflex_merge_only_where_the_later_points_back_and_each_gives_what_the_other_asks() {
    use super::plan::merge_of;
    use crate::decision::{Choices, Missing, MissingBecause};
    let input = "take 400 dollars out of checking and put it into savings";
    let parts = [part("take 400 dollars out of checking", 0), part("put it into savings", 37)];
    let word = |w: &str| Value::Word { word: w.into(), value: None };
    let asks = |arg: &str| Missing {
        arg: arg.into(),
        ask: "Which?".into(),
        because: MissingBecause::Unstated,
        words: None,
        choices: Choices::Options { options: crate::decision::Texts(Vec::new()) },
        likely: None,
    };
    let call = |outcome: Outcome, args: Vec<(&str, Value)>, missing: Vec<Missing>| {
        let args = Args(args.into_iter().map(|(k, v)| (k.to_string(), v)).collect());
        let mut d = decision("", outcome, Some("transfer"), None, args);
        d.missing = (!missing.is_empty()).then_some(missing);
        d
    };
    let take = call(Outcome::Ask, vec![("from", word("checking"))], vec![asks("to")]);
    let put = call(Outcome::Ask, vec![("to", word("savings"))], vec![asks("from")]);
    let merged = merge_of(input, &parts, &[], [&take, &put], 0).expect("merged");
    assert_eq!((merged.start, merged.end, merged.text.as_str()), (0, input.chars().count(), input));
    // Two reflexes, an abstain, or a later part that says its own thing stay two.
    let mut other = put.clone();
    other.reflex = Some("balance".into());
    assert_eq!(merge_of(input, &parts, &[], [&take, &other], 0), None);
    assert_eq!(
        merge_of(input, &parts, &[], [&take, &decision("", Outcome::Abstain, None, None, Args::default())], 0),
        None
    );
    let own = [part("take 400 dollars out of checking", 0), part("put 50 dollars into savings", 37)];
    assert_eq!(merge_of(input, &own, &[], [&take, &put], 0), None);
    // Each a whole call, or one argument given two values: two calls.
    let whole = call(Outcome::Run, vec![], vec![]);
    assert_eq!(merge_of(input, &parts, &[], [&whole, &whole], 0), None);
    let from_savings = call(Outcome::Ask, vec![("from", word("savings")), ("to", word("savings"))], vec![]);
    assert_eq!(merge_of(input, &parts, &[], [&take, &from_savings], 0), None);
    // A part left out between them stays out.
    let between = [part("and not the kitchen", 33)];
    let spaced = [part("take 400 dollars out of checking", 0), part("put it into savings", 53)];
    assert_eq!(merge_of(input, &spaced, &between, [&take, &put], 0), None);
    // The same verb again asks for the act again.
    let again = [part("paint it", 0), part("paint it blue", 13)];
    assert_eq!(merge_of("paint it and paint it blue", &again, &[], [&take, &put], 0), None);
}

#[test]
fn a_splice_narrows_its_neighbour_only_where_it_gives_what_was_asked_and_keeps_the_rest() {
    use super::plan::narrows;
    use crate::decision::{Choices, Missing, MissingBecause, Texts};
    let word = |w: &str| Value::Word { word: w.into(), value: None };
    let lights = |args: Vec<(&str, Value)>, missing: Option<&str>| {
        let args = Args(args.into_iter().map(|(k, v)| (k.to_string(), v)).collect());
        let mut d = decision("", Outcome::Ask, Some("lights"), Some(Effect::Write), args);
        d.missing = missing.map(|arg| {
            let choices = Choices::Vocab { words: Texts(Vec::new()) };
            vec![Missing {
                arg: arg.into(),
                ask: "?".into(),
                because: MissingBecause::Unstated,
                words: None,
                choices,
                likely: None,
            }]
        });
        d
    };
    let in_the_den = part("in the den", 21);
    let asks_room = lights(vec![("state", word("off"))], Some("room"));
    let den_off = lights(vec![("room", word("den")), ("state", word("off"))], None);
    assert!(narrows(&in_the_den, &asks_room, &den_off));
    // The room must be one the part's words say: an engine's guess narrows nothing.
    assert!(!narrows(&part("at 20 percent", 21), &asks_room, &den_off));
    // A neighbour that asked nothing is given another item, not narrowed; nor is one whose value is lost.
    let den = lights(vec![("room", word("den")), ("state", word("off"))], None);
    let office_off = lights(vec![("room", word("office")), ("state", word("off"))], None);
    assert!(!narrows(&part("the office", 24), &den, &office_off));
    let den_on = lights(vec![("room", word("den")), ("state", word("on"))], None);
    assert!(!narrows(&in_the_den, &asks_room, &den_on));
}

#[test]
fn a_part_left_out_that_something_is_joined_to_holds_every_step() {
    let joined = |input: &str, no: &[&str]| {
        let (cuts, answers) = answers(input, no);
        let reading = read(input, &cuts, &answers, 0.5).expect("bounded");
        two_things::excluded_joins_more(&reading.excluded, &reading.parts, input)
    };
    // Whether the office is ruled out too or asked for is the person's to say.
    assert!(joined("turn off the kitchen lights, not the den, and the office", &[]));
    assert!(joined("turn off the kitchen lights, not the den, and the office", &["and"]));
    assert!(joined("turn off the kitchen lights, not the den; the office", &[";"]));
    assert!(joined("turn off the kitchen lights, not the den but the office", &["but"]));
    assert!(joined("turn off the kitchen lights, not the den. the office too", &["."]));
    assert!(joined("turn off the kitchen lights, not the den -- the office", &[]));
    // What is ruled out, and nothing joined to it, holds nothing.
    assert!(!joined("turn off the kitchen lights, not the den", &[]));
    assert!(!joined("turn off the kitchen lights, not the den, then set a timer for 5 minutes", &[]));
    assert!(!joined("turn on the den lights but not the office", &[]));
}

#[test]
fn a_side_split_off_names_a_thing_the_calls_reflex_never_speaks_of() {
    let lights = reflex("lights", LIGHTS, Some("den = \"The TV room.\"\n"));
    assert!(two_things::names_another_thing("set a timer for 5 minutes", &lights));
    assert!(two_things::names_another_thing("lock the back door", &lights));
    // What the speaker knows or wonders names no second thing; nor do the reflex's own words.
    assert!(!two_things::names_another_thing("i'm not sure why", &lights));
    assert!(!two_things::names_another_thing("turn the lights on", &lights));
}
