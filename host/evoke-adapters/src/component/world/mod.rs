//! The `evoke:adapter` worlds this host runs, one file per version (`v1.rs` for `wit/adapter/v1`), and the
//! check that a component was built for one of them.
//!
//! A new version arrives as one new file beside `v1.rs`: its `bindgen!`, its `VERSION`, its `describe` and
//! `answer`; here it joins [`ADAPTER`]'s list and gets a case of [`Engine`]. `latest` is what evoke reads
//! a description and an answer as.

pub(crate) mod v1;
#[cfg(test)]
mod wasi_deps;

pub(crate) use v1 as latest;

use super::error::AdapterOpenError;
use evoke_components::wit_package::WitPackage;
use evoke_components::{ComponentHost, StoreData};
use latest::exports::evoke::adapter::engine::{Description, Distribution};
use wasmtime::Store;
use wasmtime::component::Component;

/// `evoke:adapter`, and the versions of it this host runs.
pub(crate) const ADAPTER: WitPackage = WitPackage { name: "evoke:adapter", known: &[v1::VERSION] };

/// An adapter ready to instantiate, typed by the world it was built for.
pub(crate) enum Engine {
    V1(v1::AdapterPre<StoreData>),
}

impl Engine {
    /// `component` typed against the `evoke:adapter` world its export names carry
    /// (`evoke:adapter/engine@1.0.0`), its imports resolved through `host`. The world is checked first, so
    /// that a component of another version, or a reflex's body, is refused by name.
    pub(crate) fn new(host: &ComponentHost, component: &Component) -> Result<Engine, AdapterOpenError> {
        let engine = host.engine();
        let ty = component.component_type();
        let exports: Vec<&str> = ty.exports(engine).map(|(n, _)| n).collect();
        let known = ADAPTER.known_list();
        let mismatch = |version: &'static str, reason: wasmtime::Error| AdapterOpenError::Mismatch {
            world: ADAPTER.name,
            version,
            reason,
        };
        match ADAPTER.version_in(exports.iter().copied()).map_err(AdapterOpenError::World)? {
            None if exports.iter().any(|n| n.starts_with("evoke:reflex/") || *n == "run") => {
                Err(AdapterOpenError::ABody { known })
            }
            None => Err(AdapterOpenError::NotAnAdapter { world: ADAPTER.name, known }),
            Some(v1::VERSION) => v1::AdapterPre::new(host.pre_instantiate(component, "an adapter")?)
                .map(Engine::V1)
                .map_err(|e| mismatch(v1::VERSION, e)),
            Some(other) => Err(AdapterOpenError::World(ADAPTER.refusal(&[other]))),
        }
    }

    /// A fresh instance, asked to describe itself.
    pub(crate) async fn describe(&self, store: &mut Store<StoreData>) -> wasmtime::Result<Description> {
        match self {
            Engine::V1(pre) => v1::describe(pre, store).await,
        }
    }

    /// A fresh instance, asked to answer `questions` (JSON) about `request`. The inner error is the world's
    /// `result<list<distribution>, string>`: the engine's own words for why it gave no answer.
    pub(crate) async fn answer(
        &self,
        store: &mut Store<StoreData>,
        request: &str,
        questions: &str,
    ) -> wasmtime::Result<Result<Vec<Distribution>, String>> {
        match self {
            Engine::V1(pre) => v1::answer(pre, store, request, questions).await,
        }
    }
}
