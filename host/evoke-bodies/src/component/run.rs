//! One run of one component: load it, build its store from the call's grants, call `run` under the
//! deadline and the memory ceiling, and say what happened.

use super::Inner;
use super::wit_value::wit_values;
use super::world::{Body, latest::evoke::reflex::types as wit};
use crate::bounded::{Flood, OUTPUT_LIMIT};
use crate::call::{Call, Contained, Failure, Output, Ran};
use evoke_components::{ComponentError, STOPPED_AT_DEADLINE, Source, key_of};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// A run that failed, its message as the person reads it (an error's text, or evoke's own words).
fn failure(message: impl std::fmt::Display) -> Failure {
    Failure { message: message.to_string(), frames: Vec::new() }
}

pub(crate) async fn run(inner: &Arc<Inner>, call: &Call, wasm: &Path) -> (Ran, Option<Source>) {
    let mut source = None;
    let result = attempt(inner, call, wasm, &mut source).await;
    (Ran { result, contained: Contained::Full, cancelled: false }, source)
}

async fn attempt(inner: &Arc<Inner>, call: &Call, wasm: &Path, source: &mut Option<Source>) -> Result<Output, Failure> {
    let deadline = call.deadline;
    if Instant::now() >= deadline {
        return Err(failure("stopped at the deadline: no time was left to run the body"));
    }
    let (ready, from) = load(inner, wasm, deadline).await?;
    *source = Some(from);

    let args = wit_values(&call.args, call.today).map_err(failure)?;
    let mut sandbox = inner.host.body_sandbox(&call.grants, &call.dir, deadline).map_err(failure)?;

    let ctx = wit::Context { input: call.input.clone(), config: call.config.clone() };
    // A body waiting on the host (a socket, a timer) runs no code the epoch could stop.
    let outcome = tokio::time::timeout_at(deadline.into(), ready.run(&mut sandbox.store, &args, &ctx)).await;

    match outcome {
        Err(_elapsed) => Err(failure(STOPPED_AT_DEADLINE)),
        Ok(Err(error)) => Err(failure(sandbox.failure(&error))),
        Ok(Ok(Err(message))) => Err(failure(message)),
        Ok(Ok(Ok(out))) => {
            // The result came out of the body's memory whole; past the limit it is refused as an argv's is.
            if out.text.len() + out.data.as_ref().map_or(0, String::len) > OUTPUT_LIMIT {
                return Err(failure(Flood::message("result")));
            }
            let data = match out.data {
                None => None,
                Some(text) => Some(
                    serde_json::from_str(&text)
                        .map_err(|e| failure(format!("the body returned data that is not JSON: {e}")))?,
                ),
            };
            Ok(Output { text: out.text, data })
        }
    }
}

/// Reads the component at `wasm` through the bounded reader, at trust and at every run: opened without
/// blocking, a regular file only, and refused once a byte past [`super::MAX_COMPONENT`] arrives, so a
/// sparse file of gigabytes costs a read of the limit, not of the file.
fn read_component(wasm: &Path) -> Result<Vec<u8>, ComponentError> {
    evoke_files::bounded::read(wasm, super::MAX_COMPONENT).map_err(|source| match source.kind() {
        std::io::ErrorKind::FileTooLarge => {
            ComponentError::TooLarge { path: wasm.to_path_buf(), limit: super::MAX_COMPONENT }
        }
        _ => ComponentError::Unreadable { path: wasm.to_path_buf(), source },
    })
}

/// The component ready to instantiate, from memory, the disk cache, or a compile that the deadline bounds.
async fn load(inner: &Arc<Inner>, wasm: &Path, deadline: Instant) -> Result<(Arc<Body>, Source), Failure> {
    let bytes = read_component(wasm).map_err(failure)?;
    let key = key_of(&bytes);
    if let Some(ready) = inner.loaded.in_memory(&key) {
        return Ok((ready, Source::Memory));
    }
    if let Some(ready) = inner.loaded.on_disk(&inner.host, &key) {
        return ready.map(|r| (r, Source::Disk)).map_err(failure);
    }
    let compiling = inner.clone();
    let job = tokio::task::spawn_blocking(move || compiling.loaded.compile(&compiling.host, &key, &bytes));
    match tokio::time::timeout_at(deadline.into(), job).await {
        Err(_elapsed) => Err(failure(
            "stopped at the deadline: the component was still being compiled when the decision's time ran out; \
             compile it ahead with `evoke trust`",
        )),
        Ok(Err(join)) => Err(failure(format!("the component could not be compiled: {join}"))),
        Ok(Ok(ready)) => ready.map(|r| (r, Source::Compiled)).map_err(failure),
    }
}

/// Loads `wasm` into `inner`'s memory (compiling and caching it when needed) without running it.
pub(crate) fn preload(inner: &Inner, wasm: &Path) -> Result<Source, ComponentError> {
    let bytes = read_component(wasm)?;
    let key = key_of(&bytes);
    if inner.loaded.in_memory(&key).is_some() {
        return Ok(Source::Memory);
    }
    if let Some(ready) = inner.loaded.on_disk(&inner.host, &key) {
        return ready.map(|_| Source::Disk);
    }
    inner.loaded.compile(&inner.host, &key, &bytes).map(|_| Source::Compiled)
}
