//! Component bodies: a `run = "NAME.wasm"` body is a WASI 0.2 component of the `evoke:reflex`
//! world, run by wasmtime under the grants of its manifest, so `contained` is `{ "type": "full" }`.
//!
//! What a component sees is built from nothing for each run (evoke-components' `grants.rs`): the
//! directories of the `files` grant, preopened read-only or read-write; TCP connections and name lookups
//! for the `host:port` pairs of the `net` grant, and `wasi:http` requests to them; five environment
//! variables ([`ENVIRONMENT`]); no stdin; stdout and stderr to evoke's stderr. It stops at the call's
//! deadline (epoch interruption, one ticker thread), at its memory ceiling over every memory and table
//! ([`DEFAULT_MEMORY`]), and at its cap on host resources ([`RESOURCES`]).
//!
//! The component host itself (engine, linker, compiled cache, stores under grants) is evoke-components',
//! shared with component adapters; what is a body's is here: the `evoke:reflex` world ([`world`]), the
//! call's values as WIT values, the run under the deadline on a runtime of its own, and the bodies this
//! process has loaded. One [`ComponentHost`] holds the host and those bodies (compiled components are
//! kept under `<cache_dir>/components/`); make one per process and run every component body through it.

mod cache;
mod run;
mod runtime;
mod wit_value;
mod world;

pub use evoke_components::{
    Captured, ComponentError, DEFAULT_MEMORY, ENVIRONMENT, Options, RESOURCES, Sandbox, Source, StoreData, wit_package,
};

use crate::call::{Call, Contained, Failure, Ran};
use evoke_components::STOPPED_AT_DEADLINE;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The most evoke reads of a component body (a `.wasm`), at trust and at every run: 64 MiB, the most a
/// fetched reflex may hold in one `.wasm` file (a component carries its language's runtime).
pub const MAX_COMPONENT: u64 = evoke_files::limits::MAX_COMPONENT;

/// The versions of the `evoke:reflex` world this host runs (`wit/reflex/v1`, …).
pub fn known_worlds() -> Vec<String> {
    world::REFLEX.worlds()
}

/// Runs component bodies: one component host (engine, linker, cache of compiled components), the bodies
/// it has loaded, and one runtime of the host's own that every body runs on.
#[derive(Clone)]
pub struct ComponentHost {
    inner: Arc<Inner>,
    runtime: Arc<runtime::BodyRuntime>,
}

/// How long past the deadline the caller waits for a body's runtime to hand back, beyond which it stops
/// waiting: the run stops itself at the deadline, so only a runtime held up by a stuck call takes longer.
const HAND_BACK: Duration = Duration::from_millis(500);

pub(crate) struct Inner {
    host: evoke_components::ComponentHost,
    loaded: cache::Loaded,
}

impl ComponentHost {
    /// A host whose compiled components are kept under `cache_dir/components/`.
    pub fn new(cache_dir: &Path) -> Result<ComponentHost, ComponentError> {
        ComponentHost::with_options(cache_dir, Options::default())
    }

    pub fn with_options(cache_dir: &Path, options: Options) -> Result<ComponentHost, ComponentError> {
        let host = evoke_components::ComponentHost::with_options(cache_dir, options)?;
        let inner = Inner { host, loaded: cache::Loaded::default() };
        Ok(ComponentHost { inner: Arc::new(inner), runtime: Arc::default() })
    }

    /// Runs the component `wasm` for `call`, under `call.grants`, until `call.deadline`.
    ///
    /// Whatever happens, the body ran held to its grants: `contained` is [`Contained::Full`]. A refusal
    /// (a file that is not a component, a world this host does not know, a grant that cannot be
    /// opened), a trap, the deadline and the memory ceiling are failures whose message says which.
    /// Dropping the future stops the body at its next tick.
    ///
    /// [`Contained::Full`]: crate::Contained::Full
    pub async fn run(&self, call: &Call, wasm: &Path) -> Ran {
        self.run_traced(call, wasm).await.0
    }

    /// As [`run`](Self::run), until `cancel` resolves first (the person's Ctrl-C, a SIGTERM): then the body
    /// is dropped at once, its store and everything it opened with it, and the result says `cancelled`.
    pub async fn run_until(&self, call: &Call, wasm: &Path, cancel: impl Future<Output = ()>) -> Ran {
        tokio::select! {
            ran = self.run(call, wasm) => ran,
            () = cancel => Ran {
                result: Err(Failure { message: "cancelled: the body was stopped".into(), frames: Vec::new() }),
                contained: Contained::Full,
                cancelled: true,
            },
        }
    }

    /// As [`run`](Self::run), also saying where the compiled component came from (`None` when it could
    /// not be loaded).
    pub async fn run_traced(&self, call: &Call, wasm: &Path) -> (Ran, Option<Source>) {
        let failed = |message: String| {
            let result = Err(Failure { message, frames: Vec::new() });
            (Ran { result, contained: Contained::Full, cancelled: false }, None)
        };
        let runtime = match self.runtime.handle() {
            Ok(runtime) => runtime,
            Err(e) => return failed(e.to_string()),
        };
        let (inner, owned, wasm) = (self.inner.clone(), call.clone(), wasm.to_path_buf());
        let mut task = runtime::Aborting(runtime.spawn(async move { run::run(&inner, &owned, &wasm).await }));
        // The caller's clock bounds the wait too, so that a body's runtime held up by a stuck call cannot
        // hold the caller past the deadline.
        match tokio::time::timeout_at((call.deadline + HAND_BACK).into(), &mut task.0).await {
            Ok(Ok(traced)) => traced,
            Ok(Err(ended)) => failed(format!("the body's run ended abnormally: {ended}")),
            Err(_elapsed) => failed(STOPPED_AT_DEADLINE.to_string()),
        }
    }

    /// Compiles `wasm` into the cache and this host's memory without running it (at install, or to warm
    /// up). Blocks while compiling.
    pub fn preload(&self, wasm: &Path) -> Result<Source, ComponentError> {
        run::preload(&self.inner, wasm)
    }

    /// The directory compiled components of this engine are kept in.
    pub fn cache_dir(&self) -> PathBuf {
        self.inner.host.cache_dir()
    }
}
