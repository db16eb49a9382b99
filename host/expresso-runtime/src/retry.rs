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

    fn waits(&self, request: &LeafRequest) -> bool {
        self.inner.waits(request)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::RequestKind;
    use expresso_lang::schema::{Kind, Scalar, Schema};
    use std::cell::RefCell;

    #[test]
    fn pauses_double_from_100_ms_to_at_most_5_s() {
        let pauses: Vec<u64> = (1..=8).map(pause_ms).collect();
        assert_eq!(pauses, [100, 200, 400, 800, 1_600, 3_200, 5_000, 5_000]);
        assert_eq!(pause_ms(u32::MAX), 5_000, "no overflow however many tries");
        assert_eq!((1..TRIES).map(pause_ms).sum::<u64>(), 1_500, "about 1.5 s of pauses in all, as documented");
    }

    /// Gives its faults in order, then answers `true`.
    struct Faults(RefCell<Vec<Fault>>, RefCell<usize>);

    impl Provider for Faults {
        fn id(&self) -> &str {
            "faults"
        }
        fn answer(&self, request: &LeafRequest) -> Result<Value, String> {
            self.try_answer(request).map_err(|f| f.message)
        }
        fn try_answer(&self, _request: &LeafRequest) -> Result<Value, Fault> {
            *self.1.borrow_mut() += 1;
            let mut faults = self.0.borrow_mut();
            if faults.is_empty() { Ok(Value::Bool(true)) } else { Err(faults.remove(0)) }
        }
    }

    fn ask(faults: Vec<Fault>) -> (Result<Value, Fault>, usize, Vec<(u32, u128)>) {
        let schema = Schema::Scalar(Scalar { kind: Kind::Bool, optional: false, span: Default::default() });
        let request = LeafRequest {
            key: "e1/A#0/trigger",
            leaf: "match",
            kind: RequestKind::Match,
            schema: &schema,
            prompt: None,
            input: "x",
            t_event: 0,
        };
        let told = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = told.clone();
        let provider = Retrying::new(Faults(RefCell::new(faults), RefCell::new(0))).on_retry(Box::new(
            move |key, _fault, tries, pause| {
                assert_eq!(key, "e1/A#0/trigger");
                sink.lock().unwrap().push((tries, pause.as_millis()));
            },
        ));
        let result = provider.try_answer(&request);
        let calls = *provider.inner.1.borrow();
        let told = told.lock().unwrap().clone();
        (result, calls, told)
    }

    #[test]
    fn a_transient_fault_is_asked_again_until_it_passes() {
        let (result, calls, told) = ask(vec![Fault::transient("HTTP 503"), Fault::transient("HTTP 429")]);
        assert_eq!(result, Ok(Value::Bool(true)));
        assert_eq!(calls, 3);
        assert_eq!(told, [(1, 100), (2, 200)]);
    }

    #[test]
    fn a_lasting_fault_is_not_asked_again() {
        let (result, calls, told) = ask(vec![Fault::transient("HTTP 503"), Fault::lasting("HTTP 400")]);
        assert_eq!(result, Err(Fault::lasting("HTTP 400")));
        assert_eq!((calls, told.len()), (2, 1));
    }

    #[test]
    fn a_fault_that_never_passes_is_bounded() {
        let (result, calls, told) = ask(vec![Fault::transient("HTTP 503"); 10]);
        assert_eq!(result, Err(Fault::transient("HTTP 503 (after 5 tries)")));
        assert_eq!(calls, 5);
        assert_eq!(told, [(1, 100), (2, 200), (3, 400), (4, 800)]);
    }
}
