//! Answering on a thread of its own, for the engines that compute in evoke's process (`local`, and
//! `replay`, which looks its answers up). Computing inside `answer` or inside a poll would hold the
//! decision's thread, so its deadline could not fire until the computing ended; on a thread, the call
//! returns a future at once and the host's timer races it. An answer that comes too late is dropped with
//! its thread, and a computation that panics fails closed as an engine's error.

use evoke_core::adapter::{AdapterError, AnswerFuture, Raw};

pub(crate) fn answer_on_a_thread<'a>(
    name: &str,
    compute: impl FnOnce() -> Result<Raw, AdapterError> + Send + 'static,
) -> AnswerFuture<'a> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    let spawned = std::thread::Builder::new().name(name.to_string()).spawn(move || {
        let _ = tx.send(compute());
    });
    if let Err(e) = spawned {
        return Box::pin(std::future::ready(Err(AdapterError::new(format!(
            "the engine's thread could not start: {e}"
        )))));
    }
    Box::pin(async move { rx.await.unwrap_or_else(|_| Err(AdapterError::new("the engine stopped without an answer"))) })
}
