//! The tokio runtime component bodies run on, apart from the caller's, and the task of one run on it.

use evoke_components::ComponentError;
use std::sync::{Arc, OnceLock};

/// The runtime bodies run on, started at the first run. A body's blocking host calls (a file read, a name
/// lookup) run on its blocking threads; one may stay stuck in the kernel past the run (a read of a FIFO
/// nobody writes). So the runtime is let go without waiting for them, and the caller's own runtime never
/// holds such a thread: evoke can end while it is stuck.
#[derive(Default)]
pub(crate) struct BodyRuntime(OnceLock<Result<tokio::runtime::Runtime, Arc<std::io::Error>>>);

impl BodyRuntime {
    pub(crate) fn handle(&self) -> Result<tokio::runtime::Handle, ComponentError> {
        let runtime = self.0.get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .thread_name("evoke-component")
                .enable_all()
                .build()
                .map_err(Arc::new)
        });
        runtime.as_ref().map(|r| r.handle().clone()).map_err(|e| ComponentError::Runtime(e.clone()))
    }
}

impl Drop for BodyRuntime {
    fn drop(&mut self) {
        if let Some(Ok(runtime)) = self.0.take() {
            runtime.shutdown_background();
        }
    }
}

/// A body's task, aborted when the run that waits on it is dropped (a Ctrl-C) or gives up on it.
pub(crate) struct Aborting<T>(pub(crate) tokio::task::JoinHandle<T>);

impl<T> Drop for Aborting<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}
