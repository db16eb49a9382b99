//! Scale-out on Postgres: several `serve` workers share one database, which holds the event log, the
//! journal, the world table, each agent's memory, each partition's cursor and the parked firings.
//!
//! Each agent has one memory, whichever partition its firings are in: a batch locks the memory of the
//! agents that have one (a transaction-scoped advisory lock per agent) and reads it as the last commit
//! left it, and its commit writes it back and ends the lock. Faulting firings are parked as on SQLite.
//!
//! The log is split into partitions by the event's own partition `(workspace, room)`, the unit inside
//! which order means something: a stable hash of it, modulo the partition count. A worker leases a
//! partition with a session-scoped advisory lock on a connection of its own, and runs that partition's
//! events through the same write-ahead protocol as the SQLite host (`Host` over a `PartitionStore`), so a
//! partition is run by one worker at a time, in log order. A worker that dies loses its connections and
//! with them its leases; another worker takes the partition over, rebuilds its state from the store and
//! sends its `intent` receipts again under the same `Idempotency-Key`. A worker that only lost its
//! connection and goes on cannot move the cursor it no longer owns: every batch's commit moves the cursor
//! only from where the worker read it (a fence), or the whole batch is refused.

pub mod operator;
pub mod partition_store;
mod schema;
pub mod stage;
pub mod worker;

pub use partition_store::PartitionStore;
pub use schema::{Namespace, connect};
pub use worker::{Worker, WorkerOptions};

/// The partition an event belongs to: FNV-1a over its workspace and room, modulo `partitions`. Stable
/// across processes and versions, so every worker agrees where an event goes.
pub fn partition_of(event: &expresso_runtime::Event, partitions: u32) -> i32 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let p = &event.partition;
    for byte in p.workspace.bytes().chain([0u8]).chain(p.room.bytes()) {
        hash ^= byte as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    (hash % partitions.max(1) as u64) as i32
}
