//! Why a component could not be made ready to run: the engine, the file, its world, or its grants. Each
//! refusal (`refused: …`) names the file, the grant or the argument, and what this evoke runs instead.

use super::wit_package::WorldRefused;
use evoke_core::recognize::DateReading;
use std::path::PathBuf;
use std::sync::Arc;

/// A component host, a component, or one call's context could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum ComponentError {
    #[error("the component engine could not start: {0}")]
    Engine(wasmtime::Error),
    #[error("the component engine's ticker could not start: {0}")]
    Ticker(std::io::Error),
    /// Shared by every run that asks for the runtime after it failed to start.
    #[error("the component runtime could not start: {0}")]
    Runtime(Arc<std::io::Error>),
    #[error("the component linker could not be set up: {0}")]
    Linker(wasmtime::Error),
    #[error("the component cache {} cannot be created: {source}", dir.display())]
    Cache { dir: PathBuf, source: std::io::Error },
    #[error("refused: the component {} cannot be read: {source}", path.display())]
    Unreadable { path: PathBuf, source: std::io::Error },
    /// A `.wasm` past its limit (evoke-files' `MAX_COMPONENT`); refused while reading, so no more than that is held.
    #[error(
        "refused: the component {} holds more than {}, the most evoke reads of a component: build it smaller \
         (in release mode, its debug sections stripped)",
        path.display(),
        evoke_files::bounded::shown_size(*limit)
    )]
    TooLarge { path: PathBuf, limit: u64 },
    #[error("refused: the file is not a component this evoke can run: {0}")]
    NotAComponent(wasmtime::Error),
    /// An import the linker does not give; `what` names the component: `a body`, `an adapter`.
    #[error("refused: the component asks for what evoke does not give {what}: {reason:#}")]
    Imports { what: String, reason: wasmtime::Error },
    /// A world this host does not run, or a mix of versions.
    #[error("{0}")]
    World(WorldRefused),
    #[error(
        "refused: this component is not an evoke body: it exports no `run` and uses no {world} world \
         (this evoke runs {known})"
    )]
    NotABody { world: &'static str, known: String },
    #[error("refused: the component's `run` does not match {world}@{version}: {reason:#}")]
    Mismatch { world: &'static str, version: &'static str, reason: wasmtime::Error },
    #[error("refused: the net grant \"{pair}\" is not a host:port pair")]
    NetGrant { pair: String },
    #[error("refused: the file grant \"{granted}\" still holds a placeholder")]
    FileGrantPlaceholder { granted: String },
    #[error("refused: the granted directory {} cannot be opened: {reason}", dir.display())]
    GrantedDir { dir: PathBuf, reason: wasmtime::Error },
    /// A date argument whose reading names no calendar day.
    #[error("refused: the argument `{name}` names no day: {reading:?}")]
    NoDay { name: String, reading: DateReading },
}
