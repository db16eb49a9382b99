//! Progress as a person sees it: a spinner while a fetch waits on the network, a bar while `calibrate`
//! decides its cases. Drawn by indicatif on stderr, and only where the `Ui` draws progress (a terminal): a
//! pipe or a log gets nothing.
//! What a step names (a repository, a tag) came from outside and goes through the one escaping function.

use crate::ui::Ui;
use evoke_core::text::escape_outside;
use indicatif::{HumanDuration, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn target(draws: bool) -> ProgressDrawTarget {
    if draws { ProgressDrawTarget::stderr() } else { ProgressDrawTarget::hidden() }
}

/// A fetch's steps, each a spinner that counts the seconds, cleared when it ends.
pub struct Fetching {
    draws: bool,
    shown: Mutex<Option<ProgressBar>>,
}

impl Fetching {
    /// Spinners drawn where `ui` draws progress.
    pub fn new(ui: &Ui) -> Fetching {
        Fetching { draws: ui.draws_progress(), shown: Mutex::new(None) }
    }
}

impl evoke_files::fetch::Progress for Fetching {
    fn begin(&self, what: &str) {
        let spinner = ProgressBar::with_draw_target(None, target(self.draws));
        spinner.set_style(
            ProgressStyle::with_template("{spinner} {msg} … {elapsed}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        spinner.set_message(escape_outside(what).into_owned());
        spinner.enable_steady_tick(Duration::from_millis(100));
        if let Ok(mut shown) = self.shown.lock() {
            *shown = Some(spinner);
        }
    }

    fn end(&self) {
        if let Ok(mut shown) = self.shown.lock()
            && let Some(spinner) = shown.take()
        {
            spinner.finish_and_clear();
        }
    }
}

/// A bar over `total` steps, cleared when dropped; `finding` is set while steps found done before are
/// taken in, when no time left can be said.
pub struct Bar(ProgressBar, Arc<AtomicBool>);

/// What a bar says of the time left, `pos` of `len` steps done at `per_sec` steps a second, indicatif's
/// estimate being `eta`: unknown until the steps have a rate, and never nothing while steps remain (an
/// estimate under a second reads as one).
fn time_left(pos: u64, len: Option<u64>, per_sec: f64, eta: Duration) -> String {
    let remains = len.is_some_and(|len| pos < len);
    if remains && !(per_sec > 0.0 && per_sec.is_finite()) {
        return "time left not known yet".to_string();
    }
    let eta = if remains { eta.max(Duration::from_secs(1)) } else { eta };
    format!("{:#} left", HumanDuration(eta))
}

impl Bar {
    /// A bar over `total` steps, drawn where `ui` draws progress, saying `what` is done.
    pub fn new(ui: &Ui, total: usize, what: &str) -> Bar {
        let bar = ProgressBar::with_draw_target(Some(total as u64), target(ui.draws_progress()));
        let finding = Arc::new(AtomicBool::new(false));
        let drawn = finding.clone();
        bar.set_style(
            ProgressStyle::with_template("  {msg} {bar:30} {pos}/{len} · {left}")
                .map(|style| {
                    style.with_key("left", move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                        let per_sec = if drawn.load(Ordering::Relaxed) { 0.0 } else { state.per_sec() };
                        let _ = w.write_str(&time_left(state.pos(), state.len(), per_sec, state.eta()));
                    })
                })
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_message(what.to_string());
        Bar(bar, finding)
    }

    pub fn step(&self) {
        self.0.inc(1);
    }

    /// Sets how many steps are done.
    pub fn set(&self, done: usize) {
        self.0.set_position(done as u64);
    }

    /// Sets how many steps are done, the latest of them done before and only found now (kept in a
    /// cache place): the estimate of the time left starts again from here, so they are not read as speed.
    pub fn set_found(&self, done: usize) {
        // The estimate takes the found steps in now, and then forgets them; drawn meanwhile, the bar
        // says the time left is not known.
        self.1.store(true, Ordering::Relaxed);
        self.0.set_position(done as u64);
        self.0.tick();
        self.0.reset_eta();
        self.1.store(false, Ordering::Relaxed);
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bar_never_says_nothing_is_left_while_steps_remain() {
        // Before any step has a rate, indicatif's estimate is zero: unknown, not nothing.
        assert_eq!(time_left(0, Some(100), 0.0, Duration::ZERO), "time left not known yet");
        assert_eq!(time_left(16, Some(100), f64::NAN, Duration::ZERO), "time left not known yet");
        // Under a second, with steps to go, reads as a second.
        assert_eq!(time_left(99, Some(100), 50.0, Duration::from_millis(20)), "1s left");
        assert_eq!(time_left(10, Some(100), 1.0, Duration::from_secs(42)), "42s left");
        // Done is nothing left.
        assert_eq!(time_left(100, Some(100), 50.0, Duration::ZERO), "0s left");
    }
}
