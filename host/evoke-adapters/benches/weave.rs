//! What a woven sentence costs beside one decision, on the same engine (`local`) and the same project
//! (docs/examples/home): `turn off the den lights and set a timer for 5 minutes`, a plan of two steps,
//! against `turn off the den lights` decided alone. Both go through the core's driver as the command
//! drives them (the rounds, each answer validated), with no cache in front of the engine. It prints the
//! two times per sentence and their ratio; the goal is a plan of two steps under 2.5 times one decision.
//!
//! It prints the whole time and the time inside the engine's answers apart, since the core's reading
//! around the engine (recognizers, validation) weighs far more in a build without optimizations.
//!
//! ```text
//! cargo bench -p evoke-adapters --bench weave                 # optimized
//! cargo bench -p evoke-adapters --bench weave --profile dev   # without building the dependencies again
//! cargo bench -p evoke-adapters --bench weave -- rounds       # and each round of the plan, timed
//! ```

use evoke_adapters::local::Local;
use evoke_core::adapter::{Adapter, State};
use evoke_core::catalog::{Catalog, Reflex};
use evoke_core::decide::Decider;
use evoke_core::manifest::read_manifest;
use evoke_core::validate::validate;
use evoke_core::vocab::read_vocab;
use evoke_core::weave::weaver::{Weaver, Woven};
use std::path::Path;
use std::time::{Duration, Instant};

const ONE: &str = "turn off the den lights";
const TWO: &str = "turn off the den lights and set a timer for 5 minutes";
const ROUNDS: usize = 400;

fn catalog() -> Catalog {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let read = |name: &str, dir: &Path| {
        let text = std::fs::read_to_string(dir.join("reflex.toml")).expect("the manifest reads");
        let manifest = read_manifest("reflex.toml", &text, &|f: &str| dir.join(f).exists()).value.expect("it is valid");
        Reflex { name: name.into(), manifest, vocabs: Default::default() }
    };
    let home = root.join("docs/examples/home");
    let mut lights = read("lights", &home.join("reflexes/lights"));
    let rooms = std::fs::read_to_string(home.join("vocab/rooms.toml")).expect("the vocabulary reads");
    lights.vocabs.insert("rooms".into(), read_vocab("rooms", "rooms.toml", &rooms).value.expect("it is valid"));
    Catalog::new(vec![
        lights,
        read("timer", &root.join("reflexes/timer")),
        read("volume", &root.join("reflexes/volume")),
    ])
}

/// Time spent inside the engine's answers, apart from the core's reading around them.
static ENGINE_NS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn answer(local: &Local, state: &State, questions: &evoke_core::question::Questions) -> evoke_core::adapter::Raw {
    let t = Instant::now();
    let raw = local.answer_now(state, questions).expect("local answers");
    ENGINE_NS.fetch_add(t.elapsed().as_nanos() as u64, std::sync::atomic::Ordering::Relaxed);
    raw
}

fn engine() -> Duration {
    Duration::from_nanos(ENGINE_NS.swap(0, std::sync::atomic::Ordering::Relaxed))
}

fn one(local: &Local, catalog: &Catalog, input: &str) -> usize {
    let gate = local.gate();
    let mut decider = Decider::new(catalog, gate, input).expect("bounded");
    let state = State { request: input.to_string() };
    let mut rounds = 0;
    while let Some(questions) = decider.questions() {
        let raw = answer(local, &state, questions);
        let answers = validate(questions, &raw).expect("valid");
        decider.feed(&answers);
        rounds += 1;
    }
    rounds
}

fn woven(local: &Local, catalog: &Catalog, input: &str) -> (usize, usize) {
    let mut weaver = Weaver::new(catalog, local.gate(), input).expect("bounded");
    let mut rounds = 0;
    while let Some((text, questions)) = weaver.questions() {
        let state = State { request: text.to_string() };
        let raw = answer(local, &state, questions);
        let answers = validate(questions, &raw).expect("valid");
        weaver.feed(&answers).expect("within bounds");
        rounds += 1;
    }
    let steps = match weaver.woven().expect("woven") {
        Woven::Plan(plan) => plan.steps.len(),
        Woven::One(_) => 1,
    };
    (rounds, steps)
}

fn main() {
    let catalog = catalog();
    let local = Local::default();
    let (rounds, steps) = woven(&local, &catalog, TWO);
    assert_eq!(steps, 2, "the sentence weaves as two steps");
    println!("one decision: {} rounds; the plan: {rounds} rounds, {steps} steps", one(&local, &catalog, ONE));
    for _ in 0..20 {
        one(&local, &catalog, ONE);
        woven(&local, &catalog, TWO);
    }
    engine();
    let (mut a, mut b, mut ea, mut eb) = (Duration::ZERO, Duration::ZERO, Duration::ZERO, Duration::ZERO);
    for _ in 0..ROUNDS {
        let t = Instant::now();
        std::hint::black_box(one(&local, &catalog, ONE));
        a += t.elapsed();
        ea += engine();
        let t = Instant::now();
        std::hint::black_box(woven(&local, &catalog, TWO));
        b += t.elapsed();
        eb += engine();
    }
    let n = ROUNDS as u32;
    let (a, b, ea, eb) = (a / n, b / n, ea / n, eb / n);
    if std::env::args().any(|a| a == "rounds") {
        let mut weaver = Weaver::new(&catalog, local.gate(), TWO).expect("bounded");
        while let Some((text, questions)) = weaver.questions() {
            let state = State { request: text.to_string() };
            let t = Instant::now();
            let raw = answer(&local, &state, questions);
            println!("  {:>7.1} µs  {} questions under {text:?}", t.elapsed().as_secs_f64() * 1e6, questions.0.len());
            let answers = validate(questions, &raw).expect("valid");
            weaver.feed(&answers).expect("within bounds");
        }
    }
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    println!("                 whole      in the engine");
    println!("one decision   {:>9.1} µs  {:>9.1} µs", us(a), us(ea));
    println!("two-step plan  {:>9.1} µs  {:>9.1} µs", us(b), us(eb));
    println!(
        "ratio          {:>9.2}×   {:>9.2}×   (goal: under 2.5×)",
        b.as_secs_f64() / a.as_secs_f64(),
        eb.as_secs_f64() / ea.as_secs_f64()
    );
}
