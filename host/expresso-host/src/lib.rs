//! Expresso's durable host. The event log, the journal J, the world table W and each agent's state live
//! in one SQLite file; effects reach the world through sinks under a write-ahead protocol (a receipt is
//! persisted as `intent` before its sink is called and marked `done` after), so a crash at any point
//! re-delivers with the same `Idempotency-Key` and never loses or re-fires a finished effect.

pub mod cli;
pub mod config;
pub mod error;
pub mod export;
pub mod fault;
pub mod feedback;
pub mod held;
pub mod host;
pub mod log_store;
pub mod metrics;
pub mod pg;
pub mod serve;
pub mod sinks;
pub mod store;
pub mod timers;
pub mod watermark;

pub use error::Error;
pub use host::Host;
pub use log_store::LogStore;
pub use store::Db;
