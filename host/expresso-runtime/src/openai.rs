//! An OpenAI-compatible chat provider: one chat completion per leaf, with structured output against the
//! leaf's schema (`response_format: json_schema`, strict), the key read from an environment variable.
//!
//! Settings, all from the environment so no key is ever written in a file:
//! `OPENAI_API_KEY` (the key; required when the endpoint is OpenAI's own), `OPENAI_BASE_URL` (default
//! `https://api.openai.com/v1`, any compatible endpoint works), `EXPRESSO_OPENAI_MODEL` (default
//! `gpt-4o-mini`). The answer is wrapped as `{ "value": … }` because structured output wants an object at
//! the top; the runtime validates the unwrapped value against the schema again before journaling it.

use crate::http;
use crate::provider::{Fault, LeafRequest, Provider, answer_schema, task};
use openai_compat::{Endpoint, structured};
use serde_json::Value;

pub const DEFAULT_URL: &str = openai_compat::DEFAULT_URL;
pub const DEFAULT_MODEL: &str = "gpt-4o-mini";

pub struct OpenAi {
    endpoint: Endpoint,
    /// The client, or why it could not be set up (each call then fails with that, lasting).
    agent: Result<reqwest::blocking::Client, Fault>,
    id: String,
}

/// The default endpoint is named with no key to reach it by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("OPENAI_API_KEY is not set")]
pub struct NoKey;

impl OpenAi {
    pub fn new(url: &str, model: &str, key: Option<String>) -> OpenAi {
        let endpoint = Endpoint::new(url, model, key);
        let id = format!("openai {model} at {}", endpoint.url);
        OpenAi { endpoint, agent: http::agent(), id }
    }

    pub fn from_env() -> Result<OpenAi, NoKey> {
        let url = std::env::var("OPENAI_BASE_URL").unwrap_or_else(|_| DEFAULT_URL.to_string());
        let model = std::env::var("EXPRESSO_OPENAI_MODEL").unwrap_or_else(|_| DEFAULT_MODEL.to_string());
        let key = std::env::var("OPENAI_API_KEY").ok().filter(|k| !k.is_empty());
        if key.is_none() && url.trim_end_matches('/') == DEFAULT_URL {
            return Err(NoKey);
        }
        Ok(OpenAi::new(&url, &model, key))
    }

    /// The request body for a leaf: what the model reads and the schema it must answer in.
    pub fn body(&self, request: &LeafRequest) -> Value {
        structured::body(&self.endpoint, &task(request), request.input, "leaf", answer_schema(request))
    }
}

impl Provider for OpenAi {
    fn id(&self) -> &str {
        &self.id
    }

    fn answer(&self, request: &LeafRequest) -> Result<Value, String> {
        self.try_answer(request).map_err(|f| f.message)
    }

    fn try_answer(&self, request: &LeafRequest) -> Result<Value, Fault> {
        let bearer = self.endpoint.bearer();
        let headers: Vec<(&str, &str)> = bearer.iter().map(|b| ("Authorization", b.as_str())).collect();
        let url = self.endpoint.chat_completions();
        let reply = http::post_json(self.agent.as_ref().map_err(Fault::clone)?, &url, &headers, &self.body(request))?;
        let inner = structured::read(&reply).map_err(Fault::lasting)?;
        inner.get("value").cloned().ok_or_else(|| Fault::lasting("the content has no `value`"))
    }

    fn waits(&self, _request: &LeafRequest) -> bool {
        true
    }
}
