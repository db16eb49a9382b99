//! What a store holds for one run, and the views wasmtime-wasi and wasmtime-wasi-http read it through.

use super::http::HttpGate;
use super::limits::{FIELDS_BYTES, Limits, RESOURCES};
use super::net::NetGrants;
use std::sync::Arc;
use wasmtime::component::ResourceTable;
use wasmtime::{Engine, Store};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};
use wasmtime_wasi_http::{WasiHttpCtx, WasiHttpCtxView, WasiHttpView};

/// What a store of this host's engine holds: the WASI context, the `wasi:http` gate, the memory ceiling.
pub struct State {
    pub(crate) table: ResourceTable,
    pub(crate) wasi: WasiCtx,
    pub(crate) http: WasiHttpCtx,
    pub(crate) hooks: HttpGate,
    pub(crate) limits: Limits,
    pub(crate) net: Arc<NetGrants>,
}

impl WasiView for State {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView { ctx: &mut self.wasi, table: &mut self.table }
    }
}

impl WasiHttpView for State {
    fn http(&mut self) -> WasiHttpCtxView<'_> {
        WasiHttpCtxView { hooks: &mut self.hooks, table: &mut self.table, ctx: &mut self.http }
    }
}

impl State {
    /// The one way a store of this host is made, for a body and for an adapter alike, so that both are
    /// held to the same limits: `memory` over every memory and table together, [`RESOURCES`] host
    /// resources, [`FIELDS_BYTES`] of headers per `wasi:http` fields resource. `http` is what `wasi:http`
    /// requests may reach; `net` what sockets and name lookups may.
    pub(crate) fn store(
        engine: &Engine,
        wasi: WasiCtx,
        http: Arc<NetGrants>,
        net: Arc<NetGrants>,
        memory: usize,
    ) -> Store<State> {
        let mut table = ResourceTable::new();
        table.set_max_capacity(RESOURCES);
        let mut http_ctx = WasiHttpCtx::new();
        http_ctx.set_field_size_limit(FIELDS_BYTES);
        let state =
            State { table, wasi, http: http_ctx, hooks: HttpGate { net: http }, limits: Limits::new(memory), net };
        let mut store = Store::new(engine, state);
        store.limiter(|s| &mut s.limits);
        store
    }
}
