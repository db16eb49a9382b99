//! The `evoke:adapter` worlds this host runs, one module per version (`wit/adapter/v1`, …), and the check
//! that a component was built for one of them.

use evoke_bodies::component::versions::{known_list, package_versions, refusal};
use wasmtime::Engine;
use wasmtime::component::Component;

pub(crate) mod v1 {
    wasmtime::component::bindgen!({
        path: "../../wit/adapter/v1",
        world: "evoke:adapter/adapter@1.0.0",
        exports: { default: async },
        // The world's one import is served by evoke-bodies' linker; its bindings are wasmtime's own.
        with: {
            "wasi:http": wasmtime_wasi_http::p2::bindings::http,
            "wasi:io": wasmtime_wasi::p2::bindings::io,
            "wasi:clocks": wasmtime_wasi::p2::bindings::clocks,
        },
    });

    /// The version of the package, as it appears in export names.
    pub(crate) const VERSION: &str = "1.0.0";
}

const PACKAGE: &str = "evoke:adapter";

/// The versions of `evoke:adapter` this host knows, oldest first.
pub(crate) const KNOWN: &[&str] = &[v1::VERSION];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum World {
    V1,
}

/// Which `evoke:adapter` world `component` was built for, from the version its export names carry
/// (`evoke:adapter/engine@1.0.0`).
pub(crate) fn world_of(engine: &Engine, component: &Component) -> Result<World, String> {
    let ty = component.component_type();
    let exports: Vec<&str> = ty.exports(engine).map(|(n, _)| n).collect();
    let versions = package_versions(exports.iter().copied(), PACKAGE);
    let known = known_list(PACKAGE, KNOWN);
    match versions.as_slice() {
        [] if exports.iter().any(|n| n.starts_with("evoke:reflex/") || *n == "run") => {
            Err(format!("refused: this component is a reflex's body, not an adapter (this evoke runs {known})"))
        }
        [] => Err(format!(
            "refused: this component is not an evoke adapter: it exports no {PACKAGE}/engine (this evoke runs {known})"
        )),
        [v] if *v == v1::VERSION => Ok(World::V1),
        other => Err(refusal(PACKAGE, KNOWN, other)),
    }
}
