//! Events per second through the runtime for the worked example's Triage agent with a warm journal, beside baselines
//! measured in the same run: the cold run that fills the journal (a provider answers every leaf) and a
//! warm run whose world table already holds every effect (pure redelivery).
//!
//! `cargo bench -p expresso-runtime --bench triage` (EVENTS=N to change the log's length).

use expresso_lang::compile;
use expresso_lang::schema::Schema;
use expresso_runtime::provider::NoProvider;
use expresso_runtime::{Event, LeafRequest, MemoryStore, Provider, Runtime};
use serde_json::{Value, json};
use std::time::Instant;

const TRIAGE: &str = include_str!("../../../transcripts/expresso-triage/triage.ex");
const TEXTS: [&str; 3] =
    ["Checkout returns a 500 every time I pay #bug", "where do I change my avatar?", "we are cancelling our plan"];

/// Answers classify from the text, as a fast stand-in for a model: the cost measured is the runtime's.
struct Stand;

impl Provider for Stand {
    fn id(&self) -> &str {
        "stand-in"
    }

    fn answer(&self, request: &LeafRequest) -> Result<Value, String> {
        let _: &Schema = request.schema;
        let kind = if request.input.contains("#bug") {
            "bug"
        } else if request.input.contains("cancel") {
            "churn"
        } else {
            "question"
        };
        Ok(json!({ "kind": kind, "urgency": "now" }))
    }
}

fn log(n: usize) -> Vec<Event> {
    (0..n)
        .map(|i| {
            serde_json::from_value(json!({
                "id": format!("m{i}"), "partition": {"workspace": "acme", "room": "#support"}, "type": "message",
                "payload": {"speaker": "p", "text": TEXTS[i % 3]}, "t_event": i as u64, "rev": 0
            }))
            .unwrap()
        })
        .collect()
}

fn main() {
    let n: usize = std::env::var("EVENTS").ok().and_then(|v| v.parse().ok()).unwrap_or(30_000);
    let compiled = compile(TRIAGE).unwrap();
    let events = log(n);
    let time = |label: &str, journal: &mut MemoryStore, world: &mut MemoryStore, provider: &dyn Provider| {
        let mut runtime = Runtime::new(&compiled, journal, world, provider);
        runtime.record_steps(false);
        let log = events.clone();
        let start = Instant::now();
        runtime.run(log).unwrap();
        let seconds = start.elapsed().as_secs_f64();
        let outcome = runtime.into_outcome();
        println!(
            "{label:<44} {:>10.0} events/s  ({n} events in {seconds:.3} s; {} provider calls, {} new effects)",
            n as f64 / seconds,
            outcome.provider_calls,
            outcome.new_effects
        );
    };
    let (mut journal, mut world) = (MemoryStore::new(), MemoryStore::new());
    time("cold: empty journal, provider answers (baseline)", &mut journal, &mut world, &Stand);
    let mut fresh = MemoryStore::new();
    time("warm journal, fresh world table", &mut journal, &mut fresh, &NoProvider);
    time("warm journal, warm world table (redelivery)", &mut journal, &mut world, &NoProvider);
}
