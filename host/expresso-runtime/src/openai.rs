//! An OpenAI-compatible chat provider: one chat completion per leaf, with structured output against the
//! leaf's schema (`response_format: json_schema`, strict), the key read from an environment variable.
//!
//! Settings, read as openai-compat reads every endpoint's (`openai_compat::settings`, the table empty so
//! all come from the environment and no key is ever written in a file): `OPENAI_API_KEY` (the key;
//! required when the endpoint is OpenAI's own), `OPENAI_BASE_URL` (default `https://api.openai.com/v1`,
//! any compatible endpoint works; not an http(s) address is refused), `EXPRESSO_OPENAI_MODEL` (default
//! `gpt-4o-mini`); a variable set empty counts as unset. The answer is wrapped as `{ "value": … }` because structured output wants an object at
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

/// A setting refused: OpenAI's own endpoint with no key to reach it by, or a value that is not one.
pub type NoKey = openai_compat::settings::SettingsError;

impl OpenAi {
    pub fn new(url: &str, model: &str, key: Option<String>) -> OpenAi {
        let endpoint = Endpoint::new(url, model, key);
        let id = format!("openai {model} at {}", endpoint.url);
        OpenAi { endpoint, agent: http::agent(), id }
    }

    pub fn from_env() -> Result<OpenAi, NoKey> {
        use openai_compat::settings::{Settings, process_env};
        let settings = Settings::read(&Default::default(), process_env, Some(DEFAULT_MODEL))?;
        let Endpoint { url, model, key } = settings.endpoint(process_env)?;
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
