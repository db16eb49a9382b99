//! What a woven sentence costs beside one decision, on the same engine (`local`) and the same project
//! (docs/examples/home): `turn off the den lights and set a timer for 5 minutes`, a plan of two steps,
//! against `turn off the den lights` decided alone. Both go through the core's driver as the command
//! drives them (the rounds, each answer validated), with no cache in front of the engine. It prints the
//! two median times per sentence and their ratio; the goal is a plan of two steps under 2.5 times one decision.
//!
//! It prints the wall time, the thread's CPU time (which the waits of a shared machine do not inflate) and
//! the CPU time inside the engine's answers apart, since the core's reading around the engine
//! (recognizers, validation) weighs far more in a build without optimizations. Each is the median of the
//! runs.
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
    let t = cpu();
    let raw = local.answer_now(state, questions).expect("local answers");
    ENGINE_NS.fetch_add((cpu() - t).as_nanos() as u64, std::sync::atomic::Ordering::Relaxed);
    raw
}

/// The CPU time this thread has used: what a run costs, apart from the time the shared machine kept it
/// waiting (which, on 2 cores under a load of 10, is most of a millisecond's wall time).
fn cpu() -> Duration {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec to write into, and the clock id is a constant Linux knows.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(ok, 0, "the thread's CPU clock reads");
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
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

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
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
    // Each run timed alone and the median taken: the machine is shared, and a mean follows its worst moments.
    let (mut a, mut b, mut ca, mut cb, mut ea, mut eb) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        let (t, c) = (Instant::now(), cpu());
        std::hint::black_box(one(&local, &catalog, ONE));
        a.push(t.elapsed());
        ca.push(cpu() - c);
        ea.push(engine());
        let (t, c) = (Instant::now(), cpu());
        std::hint::black_box(woven(&local, &catalog, TWO));
        b.push(t.elapsed());
        cb.push(cpu() - c);
        eb.push(engine());
    }
    let (a, b, ca, cb, ea, eb) = (median(a), median(b), median(ca), median(cb), median(ea), median(eb));
    if std::env::args().any(|a| a == "rounds") {
        println!("each round of the one decision, then of the plan:");
        let mut decider = Decider::new(&catalog, local.gate(), ONE).expect("bounded");
        let state = State { request: ONE.to_string() };
        while let Some(questions) = decider.questions() {
            let t = Instant::now();
            let raw = answer(&local, &state, questions);
            println!("  {:>7.1} µs  {} questions under {ONE:?}", t.elapsed().as_secs_f64() * 1e6, questions.0.len());
            let answers = validate(questions, &raw).expect("valid");
            decider.feed(&answers);
        }
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
    println!("                 wall         CPU          CPU in the engine");
    println!("one decision   {:>9.1} µs  {:>9.1} µs  {:>9.1} µs", us(a), us(ca), us(ea));
    println!("two-step plan  {:>9.1} µs  {:>9.1} µs  {:>9.1} µs", us(b), us(cb), us(eb));
    let ratio = |x: Duration, y: Duration| y.as_secs_f64() / x.as_secs_f64();
    println!(
        "ratio          {:>9.2}×   {:>9.2}×   {:>9.2}×   (goal: under 2.5×)",
        ratio(a, b),
        ratio(ca, cb),
        ratio(ea, eb)
    );
}
