//! What a store holds for one run, and the views wasmtime-wasi and wasmtime-wasi-http read it through.

use super::http::HttpGate;
use super::limits::Limits;
use super::net::NetGrants;
use std::sync::Arc;
use wasmtime::component::ResourceTable;
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
