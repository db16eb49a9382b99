//! Closed model leaves answered by evoke's engines through evoke's adapter contract: every field of a
//! leaf's schema becomes one closed question, so the answer is always an option the schema wrote or an
//! exact span of the input, never a value the engine made up.
//!
//! - `enum(a, b)` → a choice among the cases (`unstated` added when the field is optional → null);
//! - `bool` → a yes/no (a fuzzy trigger `~"phrase"` is one too);
//! - `number`, `date`, `text`, `user` → a choice among the input's candidate spans found by evoke's
//!   recognizers (`text` and `user` read quoted spans); with no candidate an optional field is null and a
//!   required one is a fault: the engine cannot answer it, and says so.
//! - `list<…>` and `summarize` are open: the checker marks them as needing a generative provider, and
//!   this provider refuses them.
//!
//! The engine's distribution is read by its most probable offered key (ties: the first offered).

mod auto;
mod block;
mod dates;
mod questions;

pub use auto::Auto;
pub use questions::{Plan, Unanswerable, plan};

use evoke_core::adapter::{Adapter, Cancel, State};
use expresso_runtime::{LeafRequest, Provider};
use serde_json::Value;

pub struct Evoke {
    engine: Box<dyn Adapter>,
    id: String,
}

impl Evoke {
    pub fn new(engine: Box<dyn Adapter>) -> Evoke {
        let id = format!("evoke {}", engine.id());
        Evoke { engine, id }
    }

    /// evoke's embedded `local` engine: offline, deterministic, no download.
    pub fn local() -> Evoke {
        Evoke::new(Box::new(evoke_adapters::local::Local::default()))
    }
}

impl Provider for Evoke {
    fn id(&self) -> &str {
        &self.id
    }

    fn answer(&self, request: &LeafRequest) -> Result<Value, String> {
        let plan = plan(request).map_err(|e| e.to_string())?;
        let state = State { request: request.input.to_string() };
        let cancel = Cancel::new();
        let raw = block::on(self.engine.answer(&state, &plan.questions, &cancel)).map_err(|e| e.message)?;
        plan.read(&raw).map_err(|e| e.to_string())
    }
}
