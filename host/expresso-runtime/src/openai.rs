//! An OpenAI-compatible chat provider: one chat completion per leaf, with structured output against the
//! leaf's schema (`response_format: json_schema`, strict), the key read from an environment variable.
//!
//! Settings, all from the environment so no key is ever written in a file:
//! `OPENAI_API_KEY` (the key; required when the endpoint is OpenAI's own), `OPENAI_BASE_URL` (default
//! `https://api.openai.com/v1`, any compatible endpoint works), `EXPRESSO_OPENAI_MODEL` (default
//! `gpt-4o-mini`). The answer is wrapped as `{ "value": … }` because structured output wants an object at
//! the top; the runtime validates the unwrapped value against the schema again before journaling it.

use crate::bounds::MAX_RESPONSE_BYTES;
use crate::provider::{LeafRequest, Provider, RequestKind};
use serde_json::{Value, json};
use std::io::Read;
use std::time::Duration;

pub const DEFAULT_URL: &str = "https://api.openai.com/v1";
pub const DEFAULT_MODEL: &str = "gpt-4o-mini";
/// How long one call may take, connect included.
const TIMEOUT: Duration = Duration::from_secs(60);

pub struct OpenAi {
    url: String,
    model: String,
    key: Option<String>,
    agent: ureq::Agent,
    id: String,
}

/// The default endpoint is named with no key to reach it by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("OPENAI_API_KEY is not set")]
pub struct NoKey;

impl OpenAi {
    pub fn new(url: &str, model: &str, key: Option<String>) -> OpenAi {
        let agent = ureq::AgentBuilder::new().timeout(TIMEOUT).redirects(0).build();
        let url = url.trim_end_matches('/').to_string();
        let id = format!("openai {model} at {url}");
        OpenAi { url, model: model.to_string(), key, agent, id }
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
        let task = match request.kind {
            RequestKind::Summarize => "Summarize the conversation below in a few sentences.".to_string(),
            RequestKind::Match => format!(
                "Answer true if the message below matches this description, false otherwise: {}",
                request.prompt.unwrap_or("")
            ),
            RequestKind::Leaf => match request.prompt {
                Some(prompt) => prompt.to_string(),
                None => format!("Read the text below and answer `{}` in the given schema.", request.leaf),
            },
        };
        let system =
            format!("{task}\nAnswer only from the text. Answer as JSON {{\"value\": …}} matching the schema exactly.");
        let schema = json!({
            "type": "object",
            "properties": { "value": request.schema.json_schema() },
            "required": ["value"],
            "additionalProperties": false,
        });
        json!({
            "model": self.model,
            "temperature": 0,
            "messages": [
                { "role": "system", "content": system },
                { "role": "user", "content": request.input },
            ],
            "response_format": {
                "type": "json_schema",
                "json_schema": { "name": "leaf", "strict": true, "schema": schema },
            },
        })
    }
}

impl Provider for OpenAi {
    fn id(&self) -> &str {
        &self.id
    }

    fn answer(&self, request: &LeafRequest) -> Result<Value, String> {
        let body = self.body(request).to_string();
        let mut call =
            self.agent.post(&format!("{}/chat/completions", self.url)).set("Content-Type", "application/json");
        if let Some(key) = &self.key {
            call = call.set("Authorization", &format!("Bearer {key}"));
        }
        let response = match call.send_string(&body) {
            Ok(response) => response,
            Err(ureq::Error::Status(code, _)) => return Err(format!("the endpoint answered HTTP {code}")),
            Err(e) => return Err(format!("the endpoint cannot be reached: {e}")),
        };
        let mut text = String::new();
        response
            .into_reader()
            .take(MAX_RESPONSE_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(|e| format!("the answer cannot be read: {e}"))?;
        if text.len() as u64 > MAX_RESPONSE_BYTES {
            return Err(format!("the answer is larger than {MAX_RESPONSE_BYTES} bytes"));
        }
        let reply: Value = serde_json::from_str(&text).map_err(|e| format!("the answer is not JSON: {e}"))?;
        let content = reply
            .pointer("/choices/0/message/content")
            .and_then(Value::as_str)
            .ok_or("the answer has no choices[0].message.content")?;
        let inner: Value = serde_json::from_str(content).map_err(|e| format!("the content is not JSON: {e}"))?;
        inner.get("value").cloned().ok_or_else(|| "the content has no `value`".to_string())
    }
}
