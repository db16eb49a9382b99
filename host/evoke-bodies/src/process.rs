//! A body's process: its own process group, a scrubbed environment, and an end that is always bounded:
//! at the deadline, a decline or a cancel, SIGTERM to the whole group, a second's grace, then SIGKILL.

use std::future::Future;
use std::process::ExitStatus;
use std::time::{Duration, Instant};
use tokio::process::Child;

/// The only variables a body sees; every other one of evoke's environment is kept from it. The same five
/// a component body sees, so a body sees the same environment however it is built.
pub const KEPT_VARIABLES: [&str; 5] = evoke_components::ENVIRONMENT;

/// How long a body has between SIGTERM and SIGKILL.
pub const GRACE: Duration = Duration::from_secs(1);

/// Clears the environment of `command` but for the five kept variables, with this process's values.
pub fn scrub(command: &mut tokio::process::Command) {
    command.env_clear();
    for name in KEPT_VARIABLES {
        if let Some(value) = std::env::var_os(name) {
            command.env(name, value);
        }
    }
}

/// How the wait ended.
#[derive(Debug)]
pub enum Ending {
    Exited(ExitStatus),
    Deadline,
    Cancelled,
}

/// Waits for the body, stopping its whole group at the deadline or when `cancel` resolves. Whatever the
/// ending, no process of the group is left behind: a body's life is bounded by its caller's.
pub async fn wait_bounded(child: &mut Child, deadline: Instant, cancel: impl Future<Output = ()>) -> Ending {
    let group = child.id().map(|pid| pid as i32);
    // Should evoke have to end before the wait does (a second Ctrl-C), the group ends with it.
    let _tracked = group.map(crate::stop::track);
    let ending = tokio::select! {
        status = child.wait() => match status {
            Ok(status) => Ending::Exited(status),
            Err(_) => Ending::Cancelled,
        },
        _ = tokio::time::sleep_until(deadline.into()) => Ending::Deadline,
        _ = cancel => Ending::Cancelled,
    };
    if let Some(group) = group {
        if !matches!(ending, Ending::Exited(_)) {
            signal_group(group, libc::SIGTERM);
            let _ = tokio::time::timeout(GRACE, child.wait()).await;
        }
        // Anything meant to outlive the run detached into a group of its own; the rest ends here.
        signal_group(group, libc::SIGKILL);
    }
    let _ = child.wait().await;
    ending
}

fn signal_group(group: i32, signal: i32) {
    // SAFETY: kill(2) with a negative pid signals a process group; it touches no memory of ours.
    unsafe {
        libc::kill(-group, signal);
    }
}
