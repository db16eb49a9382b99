//! The one `Linker` every run instantiates through: WASI 0.2 and `wasi:http`, with name lookups held to
//! the `net` grant, and the `evoke:reflex` types; and a component's imports resolved through it once
//! (`InstancePre`), so that each run only instantiates.

use super::ComponentHost;
use super::error::ComponentError;
use super::net::NetGrants;
use super::store::StoreData;
use super::wit_package::REFLEX;
use wasmtime::Engine;
use wasmtime::component::{Component, HasData, InstancePre, Linker, Resource};
use wasmtime_wasi::p2::DynPollable;
use wasmtime_wasi::p2::SocketError;
use wasmtime_wasi::p2::bindings::sockets::ip_name_lookup::{
    self, Host, HostResolveAddressStream, ResolveAddressStream,
};
use wasmtime_wasi::p2::bindings::sockets::network::{self, ErrorCode, HostNetwork, IpAddress, Network};
use wasmtime_wasi::sockets::WasiSocketsCtxView;

pub(crate) fn new_linker(engine: &Engine) -> Result<Linker<StoreData>, ComponentError> {
    let fail = ComponentError::Linker;
    let mut linker = Linker::<StoreData>::new(engine);
    wasmtime_wasi::p2::add_to_linker_async(&mut linker).map_err(fail)?;
    wasmtime_wasi_http::p2::add_only_http_to_linker_async(&mut linker).map_err(fail)?;

    // wasmtime-wasi looks up any name once lookups are on; this puts the grant in front of it.
    linker.allow_shadowing(true);
    ip_name_lookup::add_to_linker::<StoreData, NameGate>(&mut linker, name_gate).map_err(fail)?;
    linker.allow_shadowing(false);

    // The world's types interface holds no function; a component still imports it, by version.
    for version in REFLEX.known {
        linker.instance(&format!("{}/types@{version}", REFLEX.name)).map_err(fail)?;
    }
    Ok(linker)
}

impl ComponentHost {
    /// `component` with its imports resolved through this host's linker, ready to instantiate in any store
    /// of this host. `what` names it in the refusal: `a body`, `an adapter`.
    pub fn pre_instantiate(&self, component: &Component, what: &str) -> Result<InstancePre<StoreData>, ComponentError> {
        pre_instantiate(&self.inner.linker, component, what)
    }
}

pub(crate) fn pre_instantiate(
    linker: &Linker<StoreData>,
    component: &Component,
    what: &str,
) -> Result<InstancePre<StoreData>, ComponentError> {
    linker.instantiate_pre(component).map_err(|reason| ComponentError::Imports { what: what.to_string(), reason })
}

/// `wasi:sockets/ip-name-lookup`, answering only for names the `net` grant holds.
struct NameGate;

impl HasData for NameGate {
    type Data<'a> = NameGateView<'a>;
}

struct NameGateView<'a> {
    sockets: WasiSocketsCtxView<'a>,
    net: &'a NetGrants,
}

fn name_gate(state: &mut StoreData) -> NameGateView<'_> {
    NameGateView { sockets: WasiSocketsCtxView { ctx: state.wasi.sockets(), table: &mut state.table }, net: &state.net }
}

impl Host for NameGateView<'_> {
    fn resolve_addresses(
        &mut self,
        network: Resource<Network>,
        name: String,
    ) -> Result<Resource<ResolveAddressStream>, SocketError> {
        if !self.net.allows_lookup(&name) {
            return Err(ErrorCode::AccessDenied.into());
        }
        self.sockets.resolve_addresses(network, name)
    }
}

// The name-lookup interface uses the network interface's error codes and resource; both are wasmtime-wasi's.
impl network::Host for NameGateView<'_> {
    fn convert_error_code(&mut self, error: SocketError) -> wasmtime::Result<ErrorCode> {
        network::Host::convert_error_code(&mut self.sockets, error)
    }

    fn network_error_code(&mut self, error: Resource<wasmtime::Error>) -> wasmtime::Result<Option<ErrorCode>> {
        network::Host::network_error_code(&mut self.sockets, error)
    }
}

impl HostNetwork for NameGateView<'_> {
    fn drop(&mut self, this: Resource<Network>) -> wasmtime::Result<()> {
        HostNetwork::drop(&mut self.sockets, this)
    }
}

impl HostResolveAddressStream for NameGateView<'_> {
    fn resolve_next_address(
        &mut self,
        stream: Resource<ResolveAddressStream>,
    ) -> Result<Option<IpAddress>, SocketError> {
        self.sockets.resolve_next_address(stream)
    }

    fn subscribe(&mut self, stream: Resource<ResolveAddressStream>) -> wasmtime::Result<Resource<DynPollable>> {
        HostResolveAddressStream::subscribe(&mut self.sockets, stream)
    }

    fn drop(&mut self, stream: Resource<ResolveAddressStream>) -> wasmtime::Result<()> {
        HostResolveAddressStream::drop(&mut self.sockets, stream)
    }
}
