//! Components that are not bodies (adapters), run on the same engine, linker and compiled cache as
//! bodies, but with nothing granted except `wasi:http` requests to the hosts named: no directory, no
//! environment variable, no argument, no stdin, no socket, no name lookup. The caller instantiates through
//! [`ComponentHost::linker`] with bindings of its own world and checks that world itself.

use super::ComponentHost;
use super::cache::{self, Source};
use super::limits::{MemoryLimit, host_limit, mib};
use super::net::NetGrants;
use super::state::State;
use super::stdio::{OutputLimit, Tail};
use crate::bounded::Flood;
use std::fmt;
use std::sync::Arc;
use wasmtime::component::{Component, Linker};
use wasmtime::{Engine, Store, Trap, UpdateDeadline};
use wasmtime_wasi::WasiCtxBuilder;

/// One store for one call into a component, built from nothing.
pub struct Sandbox {
    pub store: Store<State>,
    tail: Tail,
    memory: usize,
}

/// The error a sandboxed call is stopped with once its `stop` says so.
#[derive(Debug)]
struct Stopped;

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("stopped")
    }
}

impl std::error::Error for Stopped {}

impl ComponentHost {
    /// The engine every component of this host runs on.
    pub fn engine(&self) -> &Engine {
        &self.inner.engine
    }

    /// The linker every component of this host is instantiated through: WASI 0.2 and `wasi:http`.
    pub fn linker(&self) -> &Linker<State> {
        &self.inner.linker
    }

    /// `bytes` compiled: mapped from the cache of compiled components (by content hash and engine), or
    /// compiled now and kept there. Blocks while compiling. No world is checked.
    pub fn compiled(&self, bytes: &[u8]) -> Result<(Component, Source), String> {
        self.inner.cache.component(&self.inner.engine, &cache::key_of(bytes), bytes)
    }

    /// A store for one call, granting only `wasi:http` requests to `http` (`host:port` pairs, as a body's
    /// `net` grant writes them). The call yields to the executor at every tick of the engine's epoch, so
    /// dropping its future stops it, and is stopped at the first tick where `stop()` is true. Its stdout
    /// and stderr go where bodies' go.
    pub fn sandbox(&self, http: &[String], stop: impl Fn() -> bool + Send + Sync + 'static) -> Result<Sandbox, String> {
        let net = Arc::new(NetGrants::parse(http)?);
        let tail = Tail::default();
        let (stdout, stderr) = self.inner.stdio.streams(&tail);
        let mut b = WasiCtxBuilder::new();
        b.stdout(stdout)
            .stderr(stderr)
            .allow_tcp(false)
            .allow_udp(false)
            .allow_ip_name_lookup(false)
            .socket_addr_check(|_, _| Box::pin(async { false }));
        let mut store =
            State::store(&self.inner.engine, b.build(), net, Arc::new(NetGrants::default()), self.inner.memory);
        store.set_epoch_deadline(1);
        store.epoch_deadline_callback(move |_| {
            if stop() { Err(wasmtime::Error::new(Stopped)) } else { Ok(UpdateDeadline::Yield(1)) }
        });
        Ok(Sandbox { store, tail, memory: self.inner.memory })
    }
}

impl Sandbox {
    /// Why a call that did not return was stopped, in a few words: `stopped` (its `stop` said so), the
    /// memory ceiling, or a trap with the end of what the component wrote to stderr.
    pub fn failure(&self, error: &wasmtime::Error) -> String {
        if error.chain().any(|e| e.is::<Stopped>()) {
            return "stopped: the decision was cancelled or its time ran out".into();
        }
        if self.store.data().limits.hit.is_some() || error.chain().any(|e| e.is::<MemoryLimit>()) {
            return format!(
                "stopped at the memory limit: the component asked for more than its {} of memory",
                mib(self.memory)
            );
        }
        if let Some(message) = host_limit(error, "component") {
            return message;
        }
        if let Some(limit) = error.chain().find_map(|e| e.downcast_ref::<OutputLimit>()) {
            return Flood::message(limit.stream);
        }
        let said = self.tail.last_words().map(|w| format!("; its stderr ended: {w}")).unwrap_or_default();
        match error.downcast_ref::<Trap>() {
            Some(trap) => format!("the component trapped: {trap}{said}"),
            None => format!("the component failed: {}{said}", error.root_cause()),
        }
    }
}
