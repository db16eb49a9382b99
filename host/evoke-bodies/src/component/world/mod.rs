//! The `evoke:reflex` worlds this host runs, one module per version, and the check that a component was
//! built for one of them.
//!
//! Versions sit side by side (`wit/reflex/v1`, later `wit/reflex/v2`): each gets its own `bindgen!`
//! module here and its own arm where a component is run. A component whose `evoke:reflex` imports or
//! exports name another version is refused before it is instantiated, naming that version.

use super::versions::{known_list, package_versions, refusal};
use wasmtime::Engine;
use wasmtime::component::Component;

pub(crate) mod v1 {
    wasmtime::component::bindgen!({
        path: "../../wit/reflex/v1",
        world: "evoke:reflex/body@1.0.0",
        exports: { default: async },
    });

    /// The version of the package, as it appears in import names.
    pub(crate) const VERSION: &str = "1.0.0";
}

const PACKAGE: &str = "evoke:reflex";

/// The versions of `evoke:reflex` this host knows, oldest first.
pub(crate) const KNOWN: &[&str] = &[v1::VERSION];

/// The worlds a component can be built for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum World {
    V1,
}

/// Which `evoke:reflex` world `component` was built for, from the versions its import and export names
/// carry (`evoke:reflex/types@1.0.0`).
pub(crate) fn world_of(engine: &Engine, component: &Component) -> Result<World, String> {
    let ty = component.component_type();
    let names = ty.imports(engine).map(|(n, _)| n).chain(ty.exports(engine).map(|(n, _)| n));
    let versions = package_versions(names, PACKAGE);
    match versions.as_slice() {
        // A `run` without the package's types: typing it against v1 at instantiation says whether it fits.
        [] if ty.get_export(engine, "run").is_some() => Ok(World::V1),
        [] => Err(format!(
            "refused: this component is not an evoke body: it exports no `run` and uses no {PACKAGE} world \
             (this evoke runs {})",
            known_list(PACKAGE, KNOWN)
        )),
        [v] if *v == v1::VERSION => Ok(World::V1),
        other => Err(refusal(PACKAGE, KNOWN, other)),
    }
}
