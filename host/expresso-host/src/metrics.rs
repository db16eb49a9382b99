//! Counters `serve` reports at `/metrics`, in Prometheus' text format.

use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Debug, Default)]
pub struct Metrics {
    pub events_in: AtomicU64,
    pub events_duplicate: AtomicU64,
    /// Corrections refused as they arrived: their event had fired, or a higher `rev` was held.
    pub corrections_refused: AtomicU64,
    pub requests_refused: AtomicU64,
    pub events_processed: AtomicU64,
    pub firings: AtomicU64,
    pub provider_calls: AtomicU64,
    pub effects_applied: AtomicU64,
    pub effects_deduplicated: AtomicU64,
    pub effects_held: AtomicU64,
    pub sink_errors: AtomicU64,
    pub runtime_faults: AtomicU64,
    pub firings_parked: AtomicU64,
    /// Events a delivered receipt wrote back into the log, and ones left out past a bound.
    pub feedback_events: AtomicU64,
    pub feedback_dropped: AtomicU64,
    /// Schedule and silence events the host's clock appended (`crate::timers`).
    pub timer_events: AtomicU64,
    /// Where the time goes, in microseconds, with how many times each was done.
    pub ingest_commits: AtomicU64,
    pub ingest_commit_us: AtomicU64,
    pub batches: AtomicU64,
    pub read_us: AtomicU64,
    pub run_us: AtomicU64,
    pub commit_us: AtomicU64,
    pub deliver_us: AtomicU64,
}

impl Metrics {
    /// Adds the microseconds since `since` to `counter`.
    pub fn time(counter: &AtomicU64, since: std::time::Instant) {
        counter.fetch_add(since.elapsed().as_micros() as u64, Ordering::Relaxed);
    }

    pub fn get(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }

    pub fn add(counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }

    pub fn render(&self) -> String {
        let rows: [(&str, &str, &AtomicU64); 16] = [
            ("expresso_events_in_total", "events accepted into the log", &self.events_in),
            ("expresso_events_duplicate_total", "events already in the log (same id and rev)", &self.events_duplicate),
            (
                "expresso_corrections_refused_total",
                "corrections refused as they came (listed by expresso status)",
                &self.corrections_refused,
            ),
            (
                "expresso_requests_refused_total",
                "requests and connections refused (400, 408, 413, 429, 503)",
                &self.requests_refused,
            ),
            ("expresso_events_processed_total", "events the agents have run on", &self.events_processed),
            ("expresso_firings_total", "behaviors fired", &self.firings),
            ("expresso_provider_calls_total", "model leaves a provider answered", &self.provider_calls),
            ("expresso_effects_applied_total", "effects a sink accepted and marked done", &self.effects_applied),
            ("expresso_effects_deduplicated_total", "effects already in the world table", &self.effects_deduplicated),
            ("expresso_effects_held_total", "effects a sink refused for good (held for a person)", &self.effects_held),
            ("expresso_sink_errors_total", "failed sink calls (retried)", &self.sink_errors),
            ("expresso_runtime_faults_total", "batches stopped by a runtime fault", &self.runtime_faults),
            (
                "expresso_firings_parked_total",
                "firings parked after faulting on every try (listed by expresso parked list)",
                &self.firings_parked,
            ),
            (
                "expresso_feedback_events_total",
                "receipt and word events written back into the log",
                &self.feedback_events,
            ),
            (
                "expresso_feedback_dropped_total",
                "receipt and word events not written back, past a bound (said on stderr)",
                &self.feedback_dropped,
            ),
            (
                "expresso_timer_events_total",
                "schedule and silence events the host's clock appended",
                &self.timer_events,
            ),
        ];
        let timings: [(&str, &str, &AtomicU64); 7] = [
            ("expresso_ingest_commits_total", "group commits of the log", &self.ingest_commits),
            ("expresso_ingest_commit_microseconds_total", "time in the log's commits", &self.ingest_commit_us),
            ("expresso_batches_total", "batches run through the protocol", &self.batches),
            ("expresso_read_microseconds_total", "time reading a batch's events and entries", &self.read_us),
            ("expresso_run_microseconds_total", "time running the agents", &self.run_us),
            ("expresso_commit_microseconds_total", "time committing intents, journal, state", &self.commit_us),
            ("expresso_deliver_microseconds_total", "time in sinks and done marks", &self.deliver_us),
        ];
        let mut out = String::new();
        for (name, help, value) in rows.into_iter().chain(timings) {
            out.push_str(&format!(
                "# HELP {name} {help}\n# TYPE {name} counter\n{name} {}\n",
                value.load(Ordering::Relaxed)
            ));
        }
        out
    }
}
