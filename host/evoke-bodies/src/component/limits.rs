//! What one run may take of the machine: memory and tables, by a store limiter.

use std::fmt;
use wasmtime::ResourceLimiter;

/// The default ceiling on one linear memory of a body: 256 MiB.
pub const DEFAULT_MEMORY: usize = 256 << 20;

/// The most table elements one table may hold (function references): 1,000,000.
const TABLE_ELEMENTS: usize = 1_000_000;

/// The most instances, tables and memories one store may create. A Rust component has a handful of
/// each; a componentized Python interpreter some dozens of instances.
const INSTANCES: usize = 1_000;
const TABLES: usize = 1_000;
const MEMORIES: usize = 100;

/// Holds a store to its memory ceiling and remembers when the body hit it, so that the failure can say
/// so whatever the guest made of the refusal.
pub(crate) struct Limits {
    memory: usize,
    pub(crate) hit: Option<usize>,
}

impl Limits {
    pub(crate) fn new(memory: usize) -> Limits {
        Limits { memory, hit: None }
    }
}

/// The error a memory growth past the ceiling traps with.
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

impl ResourceLimiter for Limits {
    fn memory_growing(&mut self, _current: usize, desired: usize, _maximum: Option<usize>) -> wasmtime::Result<bool> {
        if desired > self.memory {
            self.hit = Some(desired);
            return Err(wasmtime::Error::new(MemoryLimit { limit: self.memory }));
        }
        Ok(true)
    }

    fn table_growing(&mut self, _current: usize, desired: usize, _maximum: Option<usize>) -> wasmtime::Result<bool> {
        Ok(desired <= TABLE_ELEMENTS)
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
