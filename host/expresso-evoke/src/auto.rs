//! `--provider auto`: evoke's engine for every leaf whose schema is closed (and for fuzzy triggers), a
//! generative provider only for what is open (`summarize`, lists). A closed leaf never falls through to
//! the generative provider, even when the engine cannot answer it: a closed schema is a promise that no
//! value is minted.

use crate::Evoke;
use expresso_runtime::{LeafRequest, Provider, RequestKind};
use serde_json::Value;

pub struct Auto {
    closed: Evoke,
    open: Option<Box<dyn Provider>>,
}

impl Auto {
    pub fn new(closed: Evoke, open: Option<Box<dyn Provider>>) -> Auto {
        Auto { closed, open }
    }
}

impl Provider for Auto {
    fn id(&self) -> &str {
        "auto"
    }

    fn waits(&self, request: &LeafRequest) -> bool {
        let open = request.kind == RequestKind::Summarize || !request.schema.is_closed();
        open && self.open.as_ref().is_some_and(|provider| provider.waits(request))
    }

    fn answer(&self, request: &LeafRequest) -> Result<Value, String> {
        let open = request.kind == RequestKind::Summarize || !request.schema.is_closed();
        if !open {
            return self.closed.answer(request);
        }
        match &self.open {
            Some(provider) => provider.answer(request),
            None => Err(format!(
                "`{}` is open and needs a generative provider; set OPENAI_API_KEY or ANTHROPIC_API_KEY (or OPENAI_BASE_URL or ANTHROPIC_BASE_URL) for one",
                request.leaf
            )),
        }
    }
}
