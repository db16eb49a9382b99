//! The one way a store of this host is made, for a body and for an adapter alike: what it holds, the views
//! wasmtime-wasi and wasmtime-wasi-http read it through, the limits it is held to, and when it is stopped.

use super::fault::{Guest, Stopped};
use super::http::HttpGate;
use super::limits::{FIELDS_BYTES, Limits, RESOURCES};
use super::net::NetGrants;
use super::stdio::Tail;
use std::sync::Arc;
use std::time::Instant;
use wasmtime::component::ResourceTable;
use wasmtime::{Engine, Store, UpdateDeadline};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};
use wasmtime_wasi_http::{WasiHttpCtx, WasiHttpCtxView, WasiHttpView};

/// What a store of this host's engine holds: the WASI context, the `wasi:http` gate, the memory ceiling.
pub struct StoreData {
    pub(crate) table: ResourceTable,
    pub(crate) wasi: WasiCtx,
    pub(crate) http: WasiHttpCtx,
    pub(crate) hooks: HttpGate,
    pub(crate) limits: Limits,
    pub(crate) net: Arc<NetGrants>,
}

impl WasiView for StoreData {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView { ctx: &mut self.wasi, table: &mut self.table }
    }
}

impl WasiHttpView for StoreData {
    fn http(&mut self) -> WasiHttpCtxView<'_> {
        WasiHttpCtxView { hooks: &mut self.hooks, table: &mut self.table, ctx: &mut self.http }
    }
}

/// When a call is stopped at an epoch tick.
pub(crate) enum Stop {
    /// Once this instant has passed: a body's deadline.
    At(Instant),
    /// Once this says so: an adapter's signal, raised by the decision or by its letting go of the call.
    When(Box<dyn Fn() -> bool + Send + Sync>),
}

impl Stop {
    fn now(&self) -> Option<Stopped> {
        match self {
            Stop::At(deadline) => (Instant::now() >= *deadline).then_some(Stopped::Deadline),
            Stop::When(stop) => stop().then_some(Stopped::Signal),
        }
    }
}

/// What one store for one call is made of. `http` is what `wasi:http` requests may reach; `net` what
/// sockets and name lookups may; `tail` keeps the end of the stderr that `wasi`'s streams write.
pub(crate) struct Setup {
    pub(crate) wasi: WasiCtx,
    pub(crate) tail: Tail,
    pub(crate) http: Arc<NetGrants>,
    pub(crate) net: Arc<NetGrants>,
    pub(crate) stop: Stop,
    pub(crate) guest: Guest,
}

/// One store for one call into a component, built from nothing, and what its failure is read with.
pub struct Sandbox {
    pub store: Store<StoreData>,
    pub(crate) tail: Tail,
    pub(crate) memory: usize,
    pub(crate) guest: Guest,
}

impl Sandbox {
    /// The store of one call: `memory` over every memory and table together, [`RESOURCES`] host resources,
    /// [`FIELDS_BYTES`] of headers per `wasi:http` fields resource. At every tick of the engine's epoch
    /// the call yields to the executor, so that dropping its future stops it; once `stop` says so it is
    /// stopped with [`Stopped`].
    pub(crate) fn new(engine: &Engine, memory: usize, setup: Setup) -> Sandbox {
        let Setup { wasi, tail, http, net, stop, guest } = setup;
        let mut table = ResourceTable::new();
        table.set_max_capacity(RESOURCES);
        let mut http_ctx = WasiHttpCtx::new();
        http_ctx.set_field_size_limit(FIELDS_BYTES);
        let data =
            StoreData { table, wasi, http: http_ctx, hooks: HttpGate { net: http }, limits: Limits::new(memory), net };
        let mut store = Store::new(engine, data);
        store.limiter(|s| &mut s.limits);
        store.set_epoch_deadline(1);
        store.epoch_deadline_callback(move |_| match stop.now() {
            Some(stopped) => Err(wasmtime::Error::new(stopped)),
            None => Ok(UpdateDeadline::Yield(1)),
        });
        Sandbox { store, tail, memory, guest }
    }
}
