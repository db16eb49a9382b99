//! The one retry policy: how many tries a fault that may pass gets, and the pauses between them. `serve`
//! tries a faulting firing again by it (then parks the firing); `run` tries a provider's transient fault
//! again by it (then fails closed), through [`Retrying`].

use crate::provider::{Fault, LeafRequest, Provider};
use serde_json::Value;
use std::time::Duration;

/// Tries, the first included.
pub const TRIES: u32 = 5;
/// The pause after the first fault; it doubles with each try, up to [`MAX_PAUSE_MS`].
pub const FIRST_PAUSE_MS: u64 = 100;
pub const MAX_PAUSE_MS: u64 = 5_000;

/// The pause after the `tries`-th try failed (1 for the first): 100 ms, 200, 400, 800, … at most 5 s.
pub fn pause_ms(tries: u32) -> u64 {
    FIRST_PAUSE_MS.saturating_mul(1 << tries.saturating_sub(1).min(20)).min(MAX_PAUSE_MS)
}

/// Told of each try that failed and will be made again: the journal key, the fault, the tries so far and
/// the pause before the next.
pub type OnRetry = Box<dyn Fn(&str, &Fault, u32, Duration) + Send + Sync>;

/// A provider whose transient faults are asked again, up to [`TRIES`] tries with the pauses of
/// [`pause_ms`]; a lasting fault, or the last try's, is the answer. Only the provider is asked again: the
/// runtime still validates what it answers, and an answer out of the leaf's type is not retried.
pub struct Retrying<P> {
    inner: P,
    tries: u32,
    on_retry: Option<OnRetry>,
}

impl<P: Provider> Retrying<P> {
    pub fn new(inner: P) -> Retrying<P> {
        Retrying { inner, tries: TRIES, on_retry: None }
    }

    pub fn on_retry(mut self, notice: OnRetry) -> Retrying<P> {
        self.on_retry = Some(notice);
        self
    }
}

impl<P: Provider> Provider for Retrying<P> {
    fn id(&self) -> &str {
        self.inner.id()
    }

    fn answer(&self, request: &LeafRequest) -> Result<Value, String> {
        self.try_answer(request).map_err(|f| f.message)
    }

    fn try_answer(&self, request: &LeafRequest) -> Result<Value, Fault> {
        let mut tries = 0;
        loop {
            tries += 1;
            let fault = match self.inner.try_answer(request) {
                Ok(value) => return Ok(value),
                Err(fault) => fault,
            };
            if !fault.transient {
                return Err(fault);
            }
            if tries >= self.tries {
                return Err(Fault { message: format!("{} (after {tries} tries)", fault.message), ..fault });
            }
            let pause = Duration::from_millis(pause_ms(tries));
            if let Some(notice) = &self.on_retry {
                notice(request.key, &fault, tries, pause);
            }
            std::thread::sleep(pause);
        }
    }
}
