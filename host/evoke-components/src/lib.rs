//! The component host: what runs a WASI 0.2 component, a reflex's body or an adapter, held to what it was
//! granted. evoke-bodies runs bodies on it (typed by the `evoke:reflex` world, `run` called under the
//! call's deadline); evoke-adapters runs adapters on it (typed by `evoke:adapter`).
//!
//! What a component sees is built from nothing for each call ([`grants`]): the directories of the
//! `files` grant, preopened read-only or read-write; TCP connections and name lookups for the
//! `host:port` pairs of the `net` grant, and `wasi:http` requests to them ([`http`]); five environment
//! variables ([`ENVIRONMENT`]); no stdin; stdout and stderr to evoke's stderr. It stops at its deadline or
//! its signal (epoch interruption, one ticker thread), at its memory ceiling over every memory and table
//! ([`DEFAULT_MEMORY`]), and at its cap on host resources ([`RESOURCES`]).
//!
//! One [`ComponentHost`] holds the engine, the linker and the cache of compiled components
//! (`<cache_dir>/components/`); make one per process and run every component of a kind through it.
//!
//! [`bounded`] and [`stderr`] are the bounded I/O every guest's output goes through, a component's here
//! and a process body's in evoke-bodies alike.

pub mod bounded;
mod cache;
mod engine;
mod error;
mod fault;
mod grants;
mod http;
mod limits;
mod linker;
mod net;
mod sandbox;
pub mod stderr;
mod stdio;
mod store;
pub mod wit_package;

pub use cache::{Key, Source, key_of};
pub use error::ComponentError;
pub use fault::STOPPED_AT_DEADLINE;
pub use grants::ENVIRONMENT;
pub use limits::{DEFAULT_MEMORY, RESOURCES};
pub use store::{Sandbox, StoreData};

use std::path::{Path, PathBuf};
use std::sync::Arc;
use wasmtime::Engine;
use wasmtime::component::Linker;
use wasmtime_wasi::p2::pipe::MemoryOutputPipe;

/// Runs components: one engine, one linker, one cache of compiled components.
#[derive(Clone)]
pub struct ComponentHost {
    inner: Arc<Inner>,
}

struct Inner {
    engine: Engine,
    linker: Linker<StoreData>,
    cache: cache::Cache,
    stdio: stdio::Stdio,
    memory: usize,
    _ticker: engine::Ticker,
}

/// How a [`ComponentHost`] runs its components.
#[derive(Clone)]
pub struct Options {
    /// The ceiling on all of a component's memories and tables together, in bytes; [`DEFAULT_MEMORY`]
    /// unless set.
    pub memory_limit: usize,
    /// Where a component's stdout and stderr go: evoke's stderr (`None`), or a buffer.
    pub capture: Option<Captured>,
}

impl Default for Options {
    fn default() -> Options {
        Options { memory_limit: DEFAULT_MEMORY, capture: None }
    }
}

/// A buffer that keeps what components print, for tests and for embedders that show it themselves.
#[derive(Clone)]
pub struct Captured(MemoryOutputPipe);

impl Captured {
    /// Keeps up to `capacity` bytes; a component printing more traps.
    pub fn new(capacity: usize) -> Captured {
        Captured(MemoryOutputPipe::new(capacity))
    }

    /// Everything printed so far, as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.contents()).into_owned()
    }
}

impl ComponentHost {
    /// A host whose compiled components are kept under `cache_dir/components/`.
    pub fn new(cache_dir: &Path) -> Result<ComponentHost, ComponentError> {
        ComponentHost::with_options(cache_dir, Options::default())
    }

    pub fn with_options(cache_dir: &Path, options: Options) -> Result<ComponentHost, ComponentError> {
        let engine = engine::new_engine()?;
        let linker = linker::new_linker(&engine)?;
        let cache = cache::Cache::new(cache_dir, &engine)?;
        let _ticker = engine::Ticker::start(&engine)?;
        let stdio = match options.capture {
            Some(Captured(pipe)) => stdio::Stdio::Capture(pipe),
            None => stdio::Stdio::Stderr,
        };
        let inner = Inner { engine, linker, cache, stdio, memory: options.memory_limit, _ticker };
        Ok(ComponentHost { inner: Arc::new(inner) })
    }

    /// The directory compiled components of this engine are kept in.
    pub fn cache_dir(&self) -> PathBuf {
        self.inner.cache.dir().to_path_buf()
    }
}
