//! The store of one call: a body's, built from its grants and stopped at its deadline; or that of a
//! component that is not a body (an adapter), on the same engine, linker, compiled cache and store setup,
//! but with nothing granted except `wasi:http` requests to the hosts named: no directory, no environment
//! variable, no argument, no stdin, no socket, no name lookup. The caller types the pre-instantiated
//! component by its own world, and checks that world itself.

use super::ComponentHost;
use super::cache::{self, Source};
use super::error::ComponentError;
use super::fault::Guest;
use super::grants;
use super::net::NetGrants;
use super::stdio::Tail;
use super::store::{Sandbox, Setup, Stop};
use evoke_core::manifest::Grants;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;
use wasmtime::Engine;
use wasmtime::component::Component;
use wasmtime_wasi::WasiCtxBuilder;

impl ComponentHost {
    /// The engine every component of this host runs on.
    pub fn engine(&self) -> &Engine {
        &self.inner.engine
    }

    /// `bytes` compiled: mapped from the cache of compiled components (by content hash and engine), or
    /// compiled now and kept there. Blocks while compiling. No world is checked.
    pub fn compiled(&self, bytes: &[u8]) -> Result<(Component, Source), ComponentError> {
        self.inner.cache.component(&self.inner.engine, &cache::key_of(bytes), bytes)
    }

    /// A store for one call, granting only `wasi:http` requests to `http` (`host:port` pairs, as a body's
    /// `net` grant writes them), held to the limits a body is. The call is stopped at the first tick of
    /// the engine's epoch where `stop()` is true. Its stdout and stderr go where bodies' go.
    pub fn sandbox(
        &self,
        http: &[String],
        stop: impl Fn() -> bool + Send + Sync + 'static,
    ) -> Result<Sandbox, ComponentError> {
        let http = Arc::new(NetGrants::parse(http)?);
        let tail = Tail::default();
        let (stdout, stderr) = self.inner.stdio.streams(&tail);
        let mut b = WasiCtxBuilder::new();
        b.stdout(stdout)
            .stderr(stderr)
            .allow_tcp(false)
            .allow_udp(false)
            .allow_ip_name_lookup(false)
            .socket_addr_check(|_, _| Box::pin(async { false }));
        let setup = Setup {
            wasi: b.build(),
            tail,
            http,
            net: Arc::new(NetGrants::default()),
            stop: Stop::When(Box::new(stop)),
            guest: Guest::Component,
        };
        Ok(Sandbox::new(&self.inner.engine, self.inner.memory, setup))
    }

    /// The store of one run of a reflex's body under `grants` (relative paths read from the reflex's
    /// directory `dir`): the directories, sockets and `wasi:http` requests granted, the five variables,
    /// its stdout and stderr where bodies' go. It is stopped at the first tick of the engine's epoch past
    /// `deadline`, and its failures name it `the body`.
    pub fn body_sandbox(&self, grants: &Grants, dir: &Path, deadline: Instant) -> Result<Sandbox, ComponentError> {
        let net = Arc::new(NetGrants::parse(&grants.net)?);
        let tail = Tail::default();
        let wasi = grants::wasi_ctx(grants, dir, &net, &self.inner.stdio, &tail)?;
        let setup = Setup { wasi, tail, http: net.clone(), net, stop: Stop::At(deadline), guest: Guest::Body };
        Ok(Sandbox::new(&self.inner.engine, self.inner.memory, setup))
    }
}
