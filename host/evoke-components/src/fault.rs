//! Why a call into a component did not return, in the words evoke says it: stopped (the deadline or the
//! signal), the memory ceiling, one of the host's caps, the output cap, a trap, or another failure. Bodies
//! and adapters read their failures here alike; only the name of what ran differs.

use super::limits::{MemoryLimit, host_limit, mib};
use super::stdio::OutputLimit;
use super::store::Sandbox;
use crate::bounded::Flood;
use std::fmt;
use wasmtime::Trap;

/// What ran, as a failure names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Guest {
    /// A reflex's body: "the body trapped".
    Body,
    /// Any other component (an adapter): "the component trapped".
    Component,
}

impl Guest {
    fn name(self) -> &'static str {
        match self {
            Guest::Body => "body",
            Guest::Component => "component",
        }
    }
}

/// The error the epoch callback stops a call with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stopped {
    /// A body's deadline passed.
    Deadline,
    /// An adapter's signal was raised.
    Signal,
}

/// What a body stopped at its deadline fails with, wherever it was stopped (in its code, waiting on the
/// host, or still loading).
pub const STOPPED_AT_DEADLINE: &str =
    "stopped at the deadline: the body was still running when the decision's time ran out";

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stopped::Deadline => STOPPED_AT_DEADLINE,
            Stopped::Signal => "stopped: the decision was cancelled or its time ran out",
        })
    }
}

impl std::error::Error for Stopped {}

impl Sandbox {
    /// Why the call that failed with `error` was stopped, in a few words: stopped, the memory ceiling
    /// (whatever the guest made of the refused growth), a host cap, the output cap, or a trap or failure
    /// with the end of what the guest wrote to stderr.
    pub fn failure(&self, error: &wasmtime::Error) -> String {
        let who = self.guest.name();
        if let Some(stopped) = error.chain().find_map(|e| e.downcast_ref::<Stopped>()) {
            return stopped.to_string();
        }
        if self.store.data().limits.hit.is_some() || error.chain().any(|e| e.is::<MemoryLimit>()) {
            return format!(
                "stopped at the memory limit: the {who} asked for more than its {} of memory",
                mib(self.memory)
            );
        }
        if let Some(message) = host_limit(error, who) {
            return message;
        }
        if let Some(limit) = error.chain().find_map(|e| e.downcast_ref::<OutputLimit>()) {
            return Flood::message(limit.stream);
        }
        let said = self.tail.last_words().map(|w| format!("; its stderr ended: {w}")).unwrap_or_default();
        match error.downcast_ref::<Trap>() {
            Some(trap) => format!("the {who} trapped: {trap}{said}"),
            None => format!("the {who} failed: {}{said}", error.root_cause()),
        }
    }
}
