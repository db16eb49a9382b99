//! How evoke itself ends when a body will not: the person's Ctrl-C, and a watchdog at the deadline.
//!
//! A run is stopped from inside first (a body's group is signalled, a component is dropped). But a host
//! thread can be stuck where nothing reaches it (a component's read of a FIFO blocks in the kernel), and
//! evoke must still end. So, process-wide:
//!
//! - [`interrupted`] resolves at the first SIGINT or SIGTERM while a run waits on it, and the run is
//!   cancelled. A signal when no run waits (the second Ctrl-C, or one after the run while evoke winds
//!   down) ends the process at once: every body group still tracked is killed, then evoke exits with
//!   130 (SIGINT) or 143 (SIGTERM), as a shell reports a process its signal ended.
//! - [`arm`] starts a watchdog for one run: if the run has not handed back by its deadline plus
//!   [`WATCHDOG_GRACE`], every tracked group is killed, the deadline is said on stderr, and evoke exits
//!   with 1, the exit of a failed body.

use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// How long after its deadline a run may take to hand back before the watchdog ends the process: the
/// body's grace between SIGTERM and SIGKILL, the reading of what it left, and a margin for a loaded machine.
pub const WATCHDOG_GRACE: Duration = Duration::from_secs(3);

/// The runs waiting for a signal, each woken once.
static WAITING: Mutex<Vec<oneshot::Sender<()>>> = Mutex::new(Vec::new());

/// The process groups of bodies now running, killed before the process ends on its own.
static GROUPS: Mutex<Vec<i32>> = Mutex::new(Vec::new());

/// Whether the signal thread started, or why it could not.
static LISTENING: OnceLock<Result<(), NotListening>> = OnceLock::new();

/// Why the signal thread is not listening; the run then falls back on tokio's own Ctrl-C listener.
#[derive(Debug, thiserror::Error)]
enum NotListening {
    #[error("the signal thread cannot start: {0}")]
    Thread(std::io::Error),
    #[error("the signal thread has no runtime")]
    NoRuntime,
    #[error("SIGINT and SIGTERM cannot be listened to")]
    NoSignals,
    #[error("the signal thread ended")]
    Ended,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Resolves at the next SIGINT or SIGTERM of the process. While this future lives, a signal cancels the
/// run it guards; once it is dropped, a signal ends the process (see the module's notes).
pub async fn interrupted() {
    if listen().is_err() {
        // Without the thread, tokio's own listener still cancels the run; only the second Ctrl-C is lost.
        let _ = tokio::signal::ctrl_c().await;
        return;
    }
    let (sender, receiver) = oneshot::channel();
    lock(&WAITING).push(sender);
    let _ = receiver.await;
}

/// Starts the thread that hears SIGINT and SIGTERM, once per process. It has a runtime of its own, so a
/// signal is heard even while every other thread of evoke is stuck.
fn listen() -> &'static Result<(), NotListening> {
    LISTENING.get_or_init(|| {
        let (ready, started) = mpsc::channel();
        std::thread::Builder::new()
            .name("evoke-signals".into())
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build();
                let Ok(runtime) = runtime else {
                    let _ = ready.send(Err(NotListening::NoRuntime));
                    return;
                };
                runtime.block_on(async move {
                    use tokio::signal::unix::{SignalKind, signal};
                    let (Ok(mut int), Ok(mut term)) =
                        (signal(SignalKind::interrupt()), signal(SignalKind::terminate()))
                    else {
                        let _ = ready.send(Err(NotListening::NoSignals));
                        return;
                    };
                    let _ = ready.send(Ok(()));
                    loop {
                        let code = tokio::select! {
                            _ = int.recv() => 130,
                            _ = term.recv() => 143,
                        };
                        heard(code);
                    }
                });
            })
            .map_err(NotListening::Thread)?;
        started.recv().unwrap_or(Err(NotListening::Ended))
    })
}

/// One signal: it cancels the runs that wait, or, when none does, ends the process. Either way evoke's
/// writes to stderr stop waiting for a reader, so the run's own last lines cannot hold it.
fn heard(code: i32) {
    crate::stderr::ending();
    let waiting: Vec<_> = lock(&WAITING).drain(..).filter(|run| !run.is_closed()).collect();
    let mut woken = false;
    for run in waiting {
        woken |= run.send(()).is_ok();
    }
    if !woken {
        end_now(code, "evoke: stopped");
    }
}

/// Kills every tracked body group, says `why` on stderr, and exits with `code`, whatever any other
/// thread of the process is doing. Nothing here may block: `why` is said only if stderr takes it now
/// (`eprintln!` would wait on a pipe nobody reads, or on the lock of a thread stuck writing to one), and
/// the process ends by `_exit`, since `std::process::exit` flushes stdout through a lock such a thread
/// may hold.
fn end_now(code: i32, why: &str) -> ! {
    crate::stderr::ending();
    for group in lock(&GROUPS).iter() {
        // SAFETY: kill(2) with a negative pid signals a process group; it touches no memory of ours.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
    let _ = crate::stderr::write_all(format!("{why}\n").as_bytes());
    // SAFETY: _exit(2) ends the process at once; no memory of ours is touched after it.
    unsafe { libc::_exit(code) }
}

/// A body's process group, tracked while it lives so that an ending of the process takes it along.
pub struct Tracked(i32);

/// Tracks `group` until the returned guard is dropped.
pub fn track(group: i32) -> Tracked {
    lock(&GROUPS).push(group);
    Tracked(group)
}

impl Drop for Tracked {
    fn drop(&mut self) {
        let mut groups = lock(&GROUPS);
        if let Some(at) = groups.iter().position(|g| *g == self.0) {
            groups.swap_remove(at);
        }
    }
}

/// A watchdog over one run; dropping it (the run handed back) calls it off.
pub struct Armed {
    _call_off: mpsc::Sender<()>,
}

/// Starts the watchdog of a run that must hand back by `deadline`.
pub fn arm(deadline: Instant) -> Armed {
    let (call_off, called_off) = mpsc::channel::<()>();
    let wait = (deadline + WATCHDOG_GRACE).saturating_duration_since(Instant::now());
    let started = std::thread::Builder::new().name("evoke-watchdog".into()).spawn(move || {
        if let Err(RecvTimeoutError::Timeout) = called_off.recv_timeout(wait) {
            end_now(
                1,
                "error: the body passed the 30-second deadline and could not be stopped; evoke ends here \
                 (a host call was still blocked)",
            );
        }
    });
    // A thread that cannot start leaves the run to its own deadline, which holds but for a stuck host call.
    drop(started);
    Armed { _call_off: call_off }
}
