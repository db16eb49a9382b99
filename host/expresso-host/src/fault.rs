//! Fault-injection points of the write-ahead protocol, for the tests that kill the process at each step.
//!
//! Built only with the `fault-injection` feature, which only this crate's tests enable. Then
//! `EXPRESSO_FAULT=POINT[:N]` makes the process send itself SIGKILL the N-th time (default 1st) it reaches
//! `POINT`. In any other build [`point`] does nothing.

/// The points, in the order the protocol reaches them.
pub const POINTS: &[&str] = &[
    // The events are durably in the log; nothing has run on them.
    "after-append",
    // A batch has run in memory (its provider answers are not yet journaled); nothing is committed.
    "after-step",
    // The batch's journal entries, `intent` receipts, dedup, memory and cursor are committed; no sink called.
    "after-intent",
    // One sink call has succeeded; its receipt is still `intent`.
    "after-dispatch",
    // The batch's receipts are marked `done`.
    "after-done",
];

#[cfg(feature = "fault-injection")]
pub fn point(name: &str) {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, Ordering};
    static SEEN: Mutex<Vec<(String, usize)>> = Mutex::new(Vec::new());
    static NONE: AtomicBool = AtomicBool::new(false);
    if NONE.load(Ordering::Relaxed) {
        return;
    }
    let Ok(spec) = std::env::var("EXPRESSO_FAULT") else {
        NONE.store(true, Ordering::Relaxed);
        return;
    };
    let (want, nth) = match spec.split_once(':') {
        Some((p, n)) => (p.to_string(), n.parse::<usize>().unwrap_or(1)),
        None => (spec.clone(), 1),
    };
    if want != name {
        return;
    }
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    let count = match seen.iter_mut().find(|(p, _)| p == name) {
        Some((_, c)) => {
            *c += 1;
            *c
        }
        None => {
            seen.push((name.to_string(), 1));
            1
        }
    };
    if count == nth {
        // SAFETY: kill(2) on our own pid has no memory-safety preconditions.
        unsafe {
            libc::kill(libc::getpid(), libc::SIGKILL);
        }
    }
}

#[cfg(not(feature = "fault-injection"))]
#[inline(always)]
pub fn point(_name: &str) {}
