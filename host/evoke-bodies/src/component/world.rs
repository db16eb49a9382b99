//! The `evoke:reflex` worlds this host runs, one module per version, and the check that a component was
//! built for one of them.
//!
//! Versions sit side by side (`wit/reflex/v1`, later `wit/reflex/v2`): each gets its own `bindgen!`
//! module here and its own arm where a component is run. A component whose `evoke:reflex` imports or
//! exports name another version is refused before it is instantiated, naming that version.

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
    let mut versions: Vec<&str> = names
        .filter_map(|name| name.strip_prefix("evoke:reflex/"))
        .map(|rest| rest.split_once('@').map_or("", |(_, v)| v))
        .collect();
    versions.sort_unstable();
    versions.dedup();
    let known = KNOWN.iter().map(|v| format!("evoke:reflex@{v}")).collect::<Vec<_>>().join(", ");
    match versions.as_slice() {
        [] => {
            if ty.get_export(engine, "run").is_some() {
                // A `run` without the package's types: typing it against v1 at instantiation says
                // whether it fits.
                Ok(World::V1)
            } else {
                Err(format!(
                    "refused: this component is not an evoke body: it exports no `run` and uses no evoke:reflex \
                     world (this evoke runs {known})"
                ))
            }
        }
        [v] if *v == v1::VERSION => Ok(World::V1),
        [""] => Err(format!(
            "refused: this component was built for an unversioned evoke:reflex world; this evoke runs {known}"
        )),
        [v] => Err(format!(
            "refused: this component was built for evoke:reflex@{v}, a world this evoke does not know; it runs {known}"
        )),
        several => Err(format!(
            "refused: this component mixes evoke:reflex versions ({}); this evoke runs {known}",
            several.join(", ")
        )),
    }
}
