//! Bodies loaded by this process: compiled, checked against their world and their imports resolved, so
//! that each run only instantiates. The compiled files behind them are the component host's cache
//! (evoke-components), read and written here in the order that keeps a refused component out of it.

use super::world::Body;
use evoke_components::{ComponentError, ComponentHost, Key};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use wasmtime::component::Component;

#[derive(Default)]
pub(crate) struct Loaded {
    bodies: Mutex<HashMap<Key, Arc<Body>>>,
    /// One compile at a time (each is parallel already), so that runs of one component started together
    /// compile it once.
    compiling: Mutex<()>,
}

impl Loaded {
    /// The body loaded earlier by this process.
    pub(crate) fn in_memory(&self, key: &Key) -> Option<Arc<Body>> {
        self.bodies.lock().unwrap().get(key).cloned()
    }

    /// The body compiled by an earlier run, if its file is in `host`'s cache and maps.
    pub(crate) fn on_disk(&self, host: &ComponentHost, key: &Key) -> Option<Result<Arc<Body>, ComponentError>> {
        let component = host.from_disk(key)?;
        Some(self.ready(host, key, &component))
    }

    /// Compiles `bytes` and, once it is a body, writes the result to the cache. A cache that cannot be
    /// written only costs the next run a compile.
    pub(crate) fn compile(&self, host: &ComponentHost, key: &Key, bytes: &[u8]) -> Result<Arc<Body>, ComponentError> {
        let _one = self.compiling.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(ready) = self.in_memory(key) {
            return Ok(ready);
        }
        if let Some(ready) = self.on_disk(host, key) {
            return ready;
        }
        let component = host.compile(bytes)?;
        let ready = self.ready(host, key, &component)?;
        host.keep(key, &component);
        Ok(ready)
    }

    fn ready(&self, host: &ComponentHost, key: &Key, component: &Component) -> Result<Arc<Body>, ComponentError> {
        // A body, compiled, checked against its world, its imports resolved: each run only instantiates it.
        let ready = Body::new(host.engine(), component, |c| host.pre_instantiate(c, "a body"))?;
        let ready = Arc::new(ready);
        self.bodies.lock().unwrap().insert(*key, ready.clone());
        Ok(ready)
    }
}
