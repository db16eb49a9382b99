//! What one store may take of the machine: every linear memory and table together, by one store limiter;
//! the host resources it holds, by a cap on its resource table; and the host's buffers behind them.
//!
//! A limit per memory would not do: a component may hold many memories and tables, each under its own
//! ceiling and all of them together far over it. So the limiter keeps one running total for the store,
//! and every growth of any memory or table is charged to it.

use std::fmt;
use wasmtime::ResourceLimiter;

/// The default ceiling on all of a body's memories and tables together: 256 MiB.
pub const DEFAULT_MEMORY: usize = 256 << 20;

/// The most host resources (files, streams, `wasi:http` fields, requests, bodies, …) one store may hold
/// at once: 10,000.
pub const RESOURCES: usize = 10_000;

/// What a table element is charged against the memory ceiling, in bytes: a reference as wasmtime keeps it.
const TABLE_ELEMENT_BYTES: usize = 8;

/// The most bytes of headers one `wasi:http` fields resource may hold, as wasmtime-wasi-http counts them.
/// With at most [`RESOURCES`] resources, headers take at most about 160 MiB of the host, however a body
/// shapes them; a real request's headers fit in a few kilobytes.
pub(crate) const FIELDS_BYTES: usize = 16 << 10;

/// The most bytes one write to an outgoing `wasi:http` body may carry, and so the most such a body keeps
/// buffered in the host (one chunk) until it is sent.
pub(crate) const BODY_CHUNK_BYTES: usize = 16 << 10;

/// The most instances, tables and memories one store may create. A Rust component has a handful of
/// each; a componentized Python interpreter some dozens of instances.
const INSTANCES: usize = 1_000;
const TABLES: usize = 1_000;
const MEMORIES: usize = 100;

/// Holds a store to its memory ceiling, over all its memories and tables, and remembers when the body hit
/// it, so that the failure can say so whatever the guest made of the refusal.
pub(crate) struct Limits {
    memory: usize,
    /// What every memory and table of the store holds now, in bytes.
    used: usize,
    pub(crate) hit: Option<usize>,
}

impl Limits {
    pub(crate) fn new(memory: usize) -> Limits {
        Limits { memory, used: 0, hit: None }
    }

    /// Charges a growth from `current` to `desired` (of one memory or table, in bytes) to the store's
    /// total, or refuses it when the total would pass the ceiling.
    fn grow(&mut self, current: usize, desired: usize) -> wasmtime::Result<bool> {
        let total = self.used.saturating_add(desired.saturating_sub(current));
        if total > self.memory {
            self.hit = Some(total);
            return Err(wasmtime::Error::new(MemoryLimit { limit: self.memory }));
        }
        self.used = total;
        Ok(true)
    }
}

/// The error a growth past the ceiling traps with.
#[derive(Debug)]
pub(crate) struct MemoryLimit {
    pub(crate) limit: usize,
}

impl fmt::Display for MemoryLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the body asked for more than its {} of memory", mib(self.limit))
    }
}

impl std::error::Error for MemoryLimit {}

/// `256 MiB`.
pub(crate) fn mib(bytes: usize) -> String {
    if bytes.is_multiple_of(1 << 20) { format!("{} MiB", bytes >> 20) } else { format!("{bytes} bytes") }
}

/// What a call stopped by one of the host's caps says, `who` being `body` or `component`: more than
/// [`RESOURCES`] resources held, or more than [`FIELDS_BYTES`] of headers in one fields resource. `None`
/// when `error` came of neither.
pub(crate) fn host_limit(error: &wasmtime::Error, who: &str) -> Option<String> {
    use wasmtime::component::ResourceTableError;
    use wasmtime_wasi_http::FieldMapError;
    for cause in error.chain() {
        if let Some(ResourceTableError::Full) = cause.downcast_ref() {
            return Some(format!("stopped at the resource limit: the {who} held more than {RESOURCES} host resources"));
        }
        if let Some(FieldMapError::TotalSizeTooBig | FieldMapError::TooManyFields) = cause.downcast_ref() {
            return Some(format!(
                "stopped at the resource limit: the {who} put more than {} KiB of headers in one set of fields",
                FIELDS_BYTES >> 10
            ));
        }
    }
    None
}

impl ResourceLimiter for Limits {
    fn memory_growing(&mut self, current: usize, desired: usize, _maximum: Option<usize>) -> wasmtime::Result<bool> {
        self.grow(current, desired)
    }

    fn table_growing(&mut self, current: usize, desired: usize, _maximum: Option<usize>) -> wasmtime::Result<bool> {
        self.grow(current.saturating_mul(TABLE_ELEMENT_BYTES), desired.saturating_mul(TABLE_ELEMENT_BYTES))
    }

    fn instances(&self) -> usize {
        INSTANCES
    }

    fn tables(&self) -> usize {
        TABLES
    }

    fn memories(&self) -> usize {
        MEMORIES
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasmtime::{Engine, Instance, Module, Store};

    /// A core module of two memories and two tables, each grown on request: what one memory's ceiling
    /// would let through twice over.
    const MANY: &str = r#"(module
        (memory $a 0) (memory $b 0)
        (table $t 0 funcref) (table $u 0 funcref)
        (func (export "grow_a") (param i32) (result i32) (memory.grow $a (local.get 0)))
        (func (export "grow_b") (param i32) (result i32) (memory.grow $b (local.get 0)))
        (func (export "grow_t") (param i32) (result i32) (table.grow $t (ref.null func) (local.get 0)))
        (func (export "grow_u") (param i32) (result i32) (table.grow $u (ref.null func) (local.get 0))))"#;

    fn store(limit: usize) -> (Store<Limits>, Instance) {
        let engine = Engine::default();
        let module = Module::new(&engine, wat::parse_str(MANY).unwrap()).unwrap();
        let mut store = Store::new(&engine, Limits::new(limit));
        store.limiter(|limits| limits);
        let instance = Instance::new(&mut store, &module, &[]).unwrap();
        (store, instance)
    }

    fn grow(store: &mut Store<Limits>, instance: &Instance, name: &str, by: i32) -> wasmtime::Result<i32> {
        instance.get_typed_func::<i32, i32>(&mut *store, name).unwrap().call(&mut *store, by)
    }

    #[test]
    fn memories_together_are_held_to_one_ceiling() {
        let (mut store, instance) = store(DEFAULT_MEMORY);
        let pages = (200 << 20) / 65_536; // 200 MiB: under the ceiling alone
        assert_eq!(grow(&mut store, &instance, "grow_a", pages).unwrap(), 0);
        let second = grow(&mut store, &instance, "grow_b", pages).unwrap_err();
        assert!(second.chain().any(|e| e.is::<MemoryLimit>()), "{second:?}");
        assert_eq!(store.data().hit, Some(400 << 20));
    }

    #[test]
    fn tables_count_against_the_same_ceiling() {
        let (mut store, instance) = store(DEFAULT_MEMORY);
        let pages = (200 << 20) / 65_536;
        assert_eq!(grow(&mut store, &instance, "grow_a", pages).unwrap(), 0);
        // 10 million references are 80 MB: the memory and the tables together pass 256 MiB.
        assert_eq!(grow(&mut store, &instance, "grow_t", 4_000_000).unwrap(), 0);
        let over = grow(&mut store, &instance, "grow_u", 6_000_000).unwrap_err();
        assert!(over.chain().any(|e| e.is::<MemoryLimit>()), "{over:?}");
    }
}
