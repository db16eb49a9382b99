//! Progress as a person sees it: a spinner while a fetch waits on the network, a bar while `calibrate`
//! decides its cases. Drawn by indicatif on stderr, and only where the `Ui` draws progress (a terminal): a
//! pipe or a log gets nothing.
//! What a step names (a repository, a tag) came from outside and goes through the one escaping function.

use crate::ui::Ui;
use evoke_core::text::escape_outside;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::Mutex;
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

/// A bar over `total` steps, cleared when dropped.
pub struct Bar(ProgressBar);

impl Bar {
    pub fn new(ui: &Ui, total: usize, what: &str) -> Bar {
        let bar = ProgressBar::with_draw_target(Some(total as u64), target(ui.draws_progress()));
        bar.set_style(
            ProgressStyle::with_template("  {msg} {bar:30} {pos}/{len} · {eta} left")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_message(what.to_string());
        Bar(bar)
    }

    pub fn step(&self) {
        self.0.inc(1);
    }

    /// Sets how many steps are done.
    pub fn set(&self, done: usize) {
        self.0.set_position(done as u64);
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}
