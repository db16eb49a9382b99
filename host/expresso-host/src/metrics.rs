//! Counters `serve` reports at `/metrics`, in Prometheus' text format.

use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Debug, Default)]
pub struct Metrics {
    pub events_in: AtomicU64,
    pub events_duplicate: AtomicU64,
    pub requests_refused: AtomicU64,
    pub events_processed: AtomicU64,
    pub firings: AtomicU64,
    pub provider_calls: AtomicU64,
    pub effects_applied: AtomicU64,
    pub effects_deduplicated: AtomicU64,
    pub effects_held: AtomicU64,
    pub sink_errors: AtomicU64,
    pub runtime_faults: AtomicU64,
}

impl Metrics {
    pub fn add(counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }

    pub fn render(&self) -> String {
        let rows: [(&str, &str, &AtomicU64); 11] = [
            ("expresso_events_in_total", "events accepted into the log", &self.events_in),
            ("expresso_events_duplicate_total", "events already in the log (same id and rev)", &self.events_duplicate),
            ("expresso_requests_refused_total", "requests refused (400, 413, 429, 503)", &self.requests_refused),
            ("expresso_events_processed_total", "events the agents have run on", &self.events_processed),
            ("expresso_firings_total", "behaviors fired", &self.firings),
            ("expresso_provider_calls_total", "model leaves a provider answered", &self.provider_calls),
            ("expresso_effects_applied_total", "effects a sink accepted and marked done", &self.effects_applied),
            ("expresso_effects_deduplicated_total", "effects already in the world table", &self.effects_deduplicated),
            ("expresso_effects_held_total", "effects a sink refused for good (held for a person)", &self.effects_held),
            ("expresso_sink_errors_total", "failed sink calls (retried)", &self.sink_errors),
            ("expresso_runtime_faults_total", "batches stopped by a runtime fault", &self.runtime_faults),
        ];
        let mut out = String::new();
        for (name, help, value) in rows {
            out.push_str(&format!(
                "# HELP {name} {help}\n# TYPE {name} counter\n{name} {}\n",
                value.load(Ordering::Relaxed)
            ));
        }
        out
    }
}
