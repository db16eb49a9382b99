//! Component adapters: an engine shipped as a WASI 0.2 component of the
//! `evoke:adapter@1.0.0` world (`wit/adapter/v1`), installed by the user into the data place with the
//! hosts it may reach, then named in `evoke.toml` like a built-in.
//!
//! A component runs on the component host that bodies run on (evoke-components: one engine, linker and
//! cache of compiled components), in a store built from nothing for every call: no directory, no
//! environment variable, no socket, and `wasi:http` requests only to the hosts the user allowed at
//! install. `describe` is asked once, when the adapter opens; each round is one fresh instance and one
//! `answer` call, on a runtime of the adapter's own, stopped at the next epoch tick when the decision's
//! signal is raised or its future dropped (the deadline). The answer becomes [`Raw`] as given; the core
//! validates it and fails closed.

mod error;
pub mod installed;
mod world;

pub use error::AdapterOpenError;
use error::Twice;

use evoke_components::ComponentHost;
use evoke_core::adapter::{Adapter, AdapterError, AnswerFuture, Cancel, Gate, Limits, Raw, State};
use evoke_core::gate::{BarError, check_bars};
use evoke_core::question::Questions;
use installed::Installed;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use world::latest::exports::evoke::adapter::engine as wit;

/// How long `describe` may take when an adapter opens, the first compile included.
pub const DESCRIBE_TIMEOUT: Duration = Duration::from_secs(20);

/// What a component declares of itself, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Description {
    /// As the component gave it, without the content hash.
    pub id: String,
    pub limits: Limits,
    pub gate: Option<Gate>,
    pub plan: Option<String>,
}

/// An installed component, ready to answer.
pub struct ComponentAdapter {
    name: String,
    id: String,
    description: Description,
    runner: Arc<Runner>,
    runtime: Option<tokio::runtime::Runtime>,
}

/// What every call needs: the host, the component ready to instantiate, the hosts it may reach.
struct Runner {
    name: String,
    host: ComponentHost,
    engine: world::Engine,
    hosts: Vec<String>,
}

/// Opens the adapter installed under `name` in `data`, its compiled form cached under `cache`. `None`
/// when no adapter is installed under that name. `settings` is the project's `[adapters.NAME]`: a
/// component takes none.
pub fn open(
    name: &str,
    settings: Option<&toml::Table>,
    data: &Path,
    cache: &Path,
) -> Result<Option<ComponentAdapter>, AdapterOpenError> {
    let Some(installed) = installed::read(data, name)? else { return Ok(None) };
    if let Some(key) = settings.and_then(|t| t.keys().next()) {
        return Err(AdapterOpenError::Settings { key: key.clone() });
    }
    ComponentAdapter::load(&installed, cache).map(Some)
}

impl ComponentAdapter {
    /// Loads an installed adapter: its file must still have the hash recorded when it was added.
    pub fn load(installed: &Installed, cache: &Path) -> Result<ComponentAdapter, AdapterOpenError> {
        let path = installed.wasm();
        let bytes =
            std::fs::read(&path).map_err(|source| AdapterOpenError::Unreadable { path: path.clone(), source })?;
        let hash = installed::sha256(&bytes);
        if hash != installed.sha256 {
            return Err(AdapterOpenError::Changed { path, found: hash, recorded: installed.sha256.clone() });
        }
        ComponentAdapter::from_bytes(&installed.name, &bytes, &installed.allow_hosts, cache)
    }

    /// A component adapter from the bytes of a component (at `evoke adapter add`, before it is installed;
    /// a decision loads the installed file). Compiles it into the cache and asks it to `describe` itself.
    pub fn from_bytes(
        name: &str,
        bytes: &[u8],
        hosts: &[String],
        cache: &Path,
    ) -> Result<ComponentAdapter, AdapterOpenError> {
        let host = ComponentHost::new(cache)?;
        let (component, _) = host.compiled(bytes)?;
        let engine = world::Engine::new(&host, &component)?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("evoke-adapter")
            .enable_all()
            .build()
            .map_err(AdapterOpenError::Runtime)?;
        let runner = Arc::new(Runner { name: name.to_string(), host, engine, hosts: hosts.to_vec() });

        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = std::sync::mpsc::channel();
        let (asking, stopping) = (runner.clone(), stop.clone());
        runtime.spawn(async move {
            let _ = tx.send(asking.describe(move || stopping.load(Ordering::Relaxed)).await);
        });
        let described = match rx.recv_timeout(DESCRIBE_TIMEOUT) {
            Ok(described) => described,
            Err(_) => {
                stop.store(true, Ordering::Relaxed);
                Err(AdapterOpenError::DescribeTimeout { seconds: DESCRIBE_TIMEOUT.as_secs() })
            }
        };
        let description = match described.and_then(check_description) {
            Ok(description) => description,
            Err(e) => {
                runtime.shutdown_background();
                return Err(e);
            }
        };
        let id = format!("{} sha256:{}", description.id, installed::sha256(bytes));
        Ok(ComponentAdapter { name: name.to_string(), id, description, runner, runtime: Some(runtime) })
    }

    /// What the component declared of itself.
    pub fn description(&self) -> &Description {
        &self.description
    }

    /// The name it is installed under.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl Drop for ComponentAdapter {
    fn drop(&mut self) {
        // A runtime may not be dropped inside another's async context; this one is let go in the background.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// The engine's declaration as evoke takes it: a readable id, probabilities for bars, `read` ≤ `write`.
fn check_description(d: wit::Description) -> Result<Description, AdapterOpenError> {
    let id = d.id.trim().to_string();
    if id.is_empty() || id.len() > 256 || id.chars().any(char::is_control) {
        return Err(AdapterOpenError::BadId);
    }
    let gate = match d.gate {
        None => None,
        Some(g) => {
            let gate = Gate { route: g.route, fits: g.fits, read: g.read, write: g.write };
            match check_bars(&gate) {
                Ok(()) => Some(gate),
                Err(BarError::NotAProbability { bar, value }) => {
                    return Err(AdapterOpenError::NotAProbability { bar, value });
                }
                Err(BarError::ReadOverWrite { .. }) => {
                    return Err(AdapterOpenError::ReadOverWrite);
                }
            }
        }
    };
    let limits = d.limits.map_or(Limits::default(), |l| Limits {
        options: l.options.map(|n| n as usize),
        tokens: l.tokens.map(|n| n as usize),
    });
    Ok(Description { id, limits, gate, plan: d.plan })
}

impl Runner {
    async fn describe(
        &self,
        stop: impl Fn() -> bool + Send + Sync + 'static,
    ) -> Result<wit::Description, AdapterOpenError> {
        let mut sandbox = self.host.sandbox(&self.hosts, stop)?;
        let called = self.engine.describe(&mut sandbox.store).await;
        called.map_err(|e| AdapterOpenError::DescribeFailed { failure: sandbox.failure(&e) })
    }

    async fn answer(
        &self,
        request: &str,
        questions: &str,
        stop: impl Fn() -> bool + Send + Sync + 'static,
    ) -> Result<Raw, AdapterError> {
        let name = &self.name;
        let mut sandbox = self.host.sandbox(&self.hosts, stop).map_err(|e| AdapterError::new(e.to_string()))?;
        let called = self.engine.answer(&mut sandbox.store, request, questions).await;
        match called {
            Err(e) => Err(AdapterError::new(format!(
                "the adapter `{name}` {}",
                sandbox.failure(&e).replacen("the component ", "", 1)
            ))),
            Ok(Err(message)) => Err(AdapterError::new(format!("the adapter `{name}` gave no answer: {message}"))),
            Ok(Ok(distributions)) => {
                raw_of(distributions).map_err(|e| AdapterError::new(format!("the adapter `{name}` answered {e}")))
            }
        }
    }
}

/// The answers as evoke reads them: a number per key per question. A question or a key given twice is
/// malformed; every other fault (a key not offered, a number that is not a probability, a sum off 1, a
/// question left out or not asked) is the core's to find.
fn raw_of(distributions: Vec<wit::Distribution>) -> Result<Raw, Twice> {
    let mut raw = Raw::new();
    for d in distributions {
        let mut answer = std::collections::BTreeMap::new();
        for (key, p) in d.probabilities {
            if answer.insert(key.clone(), p).is_some() {
                return Err(Twice::Key { question: d.question, key });
            }
        }
        if raw.insert(d.question.clone(), answer).is_some() {
            return Err(Twice::Question { question: d.question });
        }
    }
    Ok(raw)
}

/// Sets its flag and aborts the call when the decision lets go of the answer (its deadline passed).
struct LetGo {
    dropped: Arc<AtomicBool>,
    task: tokio::task::AbortHandle,
}

impl Drop for LetGo {
    fn drop(&mut self) {
        self.dropped.store(true, Ordering::Relaxed);
        self.task.abort();
    }
}

impl Adapter for ComponentAdapter {
    fn id(&self) -> &str {
        &self.id
    }

    fn limits(&self) -> Limits {
        self.description.limits
    }

    fn gate(&self) -> Option<Gate> {
        self.description.gate
    }

    fn plan(&self) -> Option<&str> {
        self.description.plan.as_deref()
    }

    fn answer<'a>(&'a self, state: &'a State, questions: &'a Questions, cancel: &'a Cancel) -> AnswerFuture<'a> {
        let Some(runtime) = &self.runtime else {
            return Box::pin(std::future::ready(Err(AdapterError::new("the adapter was shut down"))));
        };
        let json = match serde_json::to_string(questions) {
            Ok(json) => json,
            Err(e) => {
                return Box::pin(std::future::ready(Err(AdapterError::new(format!(
                    "the questions could not be written: {e}"
                )))));
            }
        };
        let (runner, request, cancel) = (self.runner.clone(), state.request.clone(), cancel.clone());
        let dropped = Arc::new(AtomicBool::new(false));
        let watched = dropped.clone();
        let stop = move || cancel.is_cancelled() || watched.load(Ordering::Relaxed);
        let task = runtime.spawn(async move { runner.answer(&request, &json, stop).await });
        let let_go = LetGo { dropped, task: task.abort_handle() };
        Box::pin(async move {
            let _let_go = let_go;
            match task.await {
                Ok(answered) => answered,
                Err(e) => Err(AdapterError::new(format!("the adapter's call ended without an answer: {e}"))),
            }
        })
    }
}
