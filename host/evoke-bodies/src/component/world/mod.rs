//! The `evoke:reflex` worlds this host runs, one file per version (`v1.rs` for `wit/reflex/v1`), and the
//! check that a component was built for one of them.
//!
//! A new version arrives as one new file beside `v1.rs`: its `bindgen!`, its `VERSION`, its `run`; it
//! joins [`REFLEX`]'s list (evoke-components' `wit_package.rs`, whose linker links every listed version's
//! `types`) and gets a case of [`Body`] here. `latest` is what the values are converted to. A
//! component whose `evoke:reflex` names carry another version is refused before it is instantiated,
//! naming that version.

pub(crate) mod v1;

pub(crate) use v1 as latest;

pub(crate) use evoke_components::wit_package::REFLEX;
use evoke_components::{ComponentError, StoreData};
use wasmtime::component::{Component, InstancePre};
use wasmtime::{Engine, Store};

/// A body ready to instantiate, typed by the world it was built for.
pub(crate) enum Body {
    V1(v1::BodyPre<StoreData>),
}

impl Body {
    /// `component` typed against the world its names carry, once `pre_instantiate` has resolved its imports.
    /// The world is checked first, so that a component of another version is refused by name. A component
    /// that names no version but exports a `run` is typed against v1, which then says whether it fits.
    pub(crate) fn new(
        engine: &Engine,
        component: &Component,
        pre_instantiate: impl FnOnce(&Component) -> Result<InstancePre<StoreData>, ComponentError>,
    ) -> Result<Body, ComponentError> {
        let ty = component.component_type();
        let names = ty.imports(engine).map(|(n, _)| n).chain(ty.exports(engine).map(|(n, _)| n));
        let mismatch = |version: &'static str, reason: wasmtime::Error| ComponentError::Mismatch {
            world: REFLEX.name,
            version,
            reason,
        };
        match REFLEX.version_in(names).map_err(ComponentError::World)? {
            None if ty.get_export(engine, "run").is_none() => {
                Err(ComponentError::NotABody { world: REFLEX.name, known: REFLEX.known_list() })
            }
            None | Some(v1::VERSION) => {
                v1::BodyPre::new(pre_instantiate(component)?).map(Body::V1).map_err(|e| mismatch(v1::VERSION, e))
            }
            Some(other) => Err(ComponentError::World(REFLEX.refusal(&[other]))),
        }
    }

    /// Instantiates the body in `store` and calls its `run`. The inner error is the world's
    /// `result<output, string>`: the body's own words for its failure, carried as WIT gives them.
    pub(crate) async fn run(
        &self,
        store: &mut Store<StoreData>,
        args: &[(String, latest::evoke::reflex::types::Value)],
        ctx: &latest::evoke::reflex::types::Context,
    ) -> wasmtime::Result<Result<latest::evoke::reflex::types::Output, String>> {
        match self {
            Body::V1(pre) => v1::run(pre, store, args, ctx).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_links_the_versions_whose_bindings_are_here() {
        assert_eq!(REFLEX.known, [v1::VERSION]);
    }
}
