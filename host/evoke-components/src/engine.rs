//! The one `Engine` every component runs on, and the ticker that moves its epoch.

use super::error::ComponentError;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;
use wasmtime::{Config, Engine};

/// How often the epoch moves. A running body is looked at once per tick: it yields to the executor and,
/// past its deadline, is stopped. So a deadline is kept to within about one tick.
pub(crate) const TICK: Duration = Duration::from_millis(5);

/// An engine for async component calls with epoch interruption; everything else is wasmtime's default
/// (Cranelift, speed-optimized code).
pub(crate) fn new_engine() -> Result<Engine, ComponentError> {
    let mut config = Config::new();
    config.wasm_component_model(true);
    config.epoch_interruption(true);
    Engine::new(&config).map_err(ComponentError::Engine)
}

/// A thread that moves the engine's epoch every [`TICK`], for as long as its owner lives.
pub(crate) struct Ticker {
    stop: Arc<AtomicBool>,
}

impl Ticker {
    pub(crate) fn start(engine: &Engine) -> Result<Ticker, ComponentError> {
        let stop = Arc::new(AtomicBool::new(false));
        let (engine, stopped) = (engine.clone(), stop.clone());
        thread::Builder::new()
            .name("evoke-epoch".into())
            .spawn(move || {
                while !stopped.load(Ordering::Relaxed) {
                    thread::sleep(TICK);
                    engine.increment_epoch();
                }
            })
            .map_err(ComponentError::Ticker)?;
        Ok(Ticker { stop })
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}
