//! Expresso's runtime (its event model and small-step operational semantics): a program over an event log,
//! model leaves memoized in the journal J, world effects in the world table W, both keyed by replay-stable
//! strings built only from log data.

pub mod anthropic;
pub mod bounds;
pub mod conform;
pub mod error;
mod eval;
pub mod event;
pub mod exec;
pub mod frame;
pub mod http;
pub mod keys;
pub mod openai;
pub mod provider;
pub mod recording;
pub mod retry;
pub mod route;
pub mod store;
pub mod value;

pub use error::Error;
pub use event::{Event, EventType, read_log};
pub use exec::{Carry, Outcome, Runtime, Step};
pub use provider::{Fault, LeafRequest, Provider, RequestKind};
pub use store::{FileStore, MemoryStore, Store};
