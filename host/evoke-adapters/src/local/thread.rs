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

type Job = Box<dyn FnOnce() + Send>;

/// One thread kept for an engine's answers, started at its first answer: a decision asks several
/// rounds and a filter thousands of decisions, and starting a thread for each answer cost more than a
/// look-up in a recording. The answers it gives are the same as [`answer_on_a_thread`]'s: the call
/// returns a future at once, the host's timer races it, a late answer is dropped, and a computation that
/// panics fails closed (the thread survives it and takes the next job).
pub(crate) struct Worker {
    name: &'static str,
    jobs: std::sync::Mutex<Option<std::sync::mpsc::Sender<Job>>>,
}

impl Worker {
    pub(crate) const fn new(name: &'static str) -> Self {
        Worker { name, jobs: std::sync::Mutex::new(None) }
    }

    pub(crate) fn answer<'a>(
        &self,
        compute: impl FnOnce() -> Result<Raw, AdapterError> + Send + 'static,
    ) -> AnswerFuture<'a> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = tx.send(compute());
        });
        let mut jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        let job = match jobs.as_ref() {
            Some(sender) => sender.send(job).err().map(|std::sync::mpsc::SendError(job)| job),
            None => Some(job),
        };
        if let Some(job) = job {
            // No thread yet, or it is gone: start one with this job first.
            let (sender, receiver) = std::sync::mpsc::channel::<Job>();
            let spawned = std::thread::Builder::new().name(self.name.to_string()).spawn(move || {
                for job in std::iter::once(job).chain(receiver) {
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                }
            });
            if let Err(e) = spawned {
                *jobs = None;
                return Box::pin(std::future::ready(Err(AdapterError::new(format!(
                    "the engine's thread could not start: {e}"
                )))));
            }
            *jobs = Some(sender);
        }
        drop(jobs);
        Box::pin(
            async move { rx.await.unwrap_or_else(|_| Err(AdapterError::new("the engine stopped without an answer"))) },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn one_thread_answers_every_job_and_survives_a_panic() {
        let worker = Worker::new("evoke-test");
        let (first, second) =
            (std::sync::Arc::new(std::sync::Mutex::new(None)), std::sync::Arc::new(std::sync::Mutex::new(None)));
        let (a, b) = (first.clone(), second.clone());
        assert!(
            worker
                .answer(move || {
                    *a.lock().unwrap() = Some(std::thread::current().id());
                    Ok(Raw::new())
                })
                .await
                .is_ok()
        );
        let failed = worker.answer(|| panic!("the engine broke")).await.unwrap_err();
        assert_eq!(failed.message, "the engine stopped without an answer");
        assert!(
            worker
                .answer(move || {
                    *b.lock().unwrap() = Some(std::thread::current().id());
                    Ok(Raw::new())
                })
                .await
                .is_ok()
        );
        assert_eq!(*first.lock().unwrap(), *second.lock().unwrap(), "the same thread answered");
    }
}
