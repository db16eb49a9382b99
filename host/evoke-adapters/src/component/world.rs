//! The `evoke:adapter` worlds this host runs, one module per version (`wit/adapter/v1`, …), and the check
//! that a component was built for one of them.

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
    let mut versions: Vec<&str> = exports
        .iter()
        .filter_map(|name| name.strip_prefix("evoke:adapter/"))
        .map(|rest| rest.split_once('@').map_or("", |(_, v)| v))
        .collect();
    versions.sort_unstable();
    versions.dedup();
    let known = KNOWN.iter().map(|v| format!("evoke:adapter@{v}")).collect::<Vec<_>>().join(", ");
    match versions.as_slice() {
        [] if exports.iter().any(|n| n.starts_with("evoke:reflex/") || *n == "run") => {
            Err(format!("refused: this component is a reflex's body, not an adapter (this evoke runs {known})"))
        }
        [] => Err(format!(
            "refused: this component is not an evoke adapter: it exports no evoke:adapter/engine (this evoke runs {known})"
        )),
        [v] if *v == v1::VERSION => Ok(World::V1),
        [""] => Err(format!(
            "refused: this component was built for an unversioned evoke:adapter world; this evoke runs {known}"
        )),
        [v] => Err(format!(
            "refused: this component was built for evoke:adapter@{v}, a world this evoke does not know; it runs {known}"
        )),
        several => Err(format!(
            "refused: this component mixes evoke:adapter versions ({}); this evoke runs {known}",
            several.join(", ")
        )),
    }
}
