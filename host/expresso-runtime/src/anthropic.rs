//! Anthropic's Messages API as a provider: one message per leaf, the answer taken from a forced tool call
//! whose input schema is the leaf's (`tool_choice: { type: tool }`), so the model answers typed JSON.
//!
//! Settings, all from the environment so no key is ever written in a file: `ANTHROPIC_API_KEY` (the key,
//! sent as `x-api-key`; required when the endpoint is Anthropic's own), `ANTHROPIC_BASE_URL` (default
//! `https://api.anthropic.com`; the call goes to `{base}/v1/messages`), `EXPRESSO_ANTHROPIC_MODEL`
//! (default [`DEFAULT_MODEL`]). The tool's input is `{ "value": … }`, an object at the top as tool input
//! must be; the runtime validates the unwrapped value against the leaf's schema again before journaling it.

use crate::http;
use crate::provider::{Fault, LeafRequest, Provider, answer_schema, task};
use serde_json::{Value, json};

pub const DEFAULT_URL: &str = "https://api.anthropic.com";
pub const DEFAULT_MODEL: &str = "claude-haiku-4-5";
/// The `anthropic-version` header: the version of the wire format this provider speaks.
pub const VERSION: &str = "2023-06-01";
/// The most tokens one answer may take; an answer cut at it is a fault, never a truncated value.
pub const MAX_TOKENS: u32 = 8_192;
/// The one tool offered, and forced: its input is the answer.
pub const TOOL: &str = "answer";
/// What the user message says when the span is empty (the API refuses empty text).
pub const EMPTY_INPUT: &str = "(no text)";

pub struct Anthropic {
    url: String,
    model: String,
    key: Option<String>,
    /// The client, or why it could not be set up (each call then fails with that, lasting).
    agent: Result<reqwest::blocking::Client, Fault>,
    id: String,
}

/// The default endpoint is named with no key to reach it by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("ANTHROPIC_API_KEY is not set")]
pub struct NoKey;

impl Anthropic {
    /// `url` is the base, without `/v1`.
    pub fn new(url: &str, model: &str, key: Option<String>) -> Anthropic {
        let url = url.trim_end_matches('/').to_string();
        let id = format!("anthropic {model} at {url}");
        Anthropic { url, model: model.to_string(), key, agent: http::agent(), id }
    }

    pub fn from_env() -> Result<Anthropic, NoKey> {
        let url = std::env::var("ANTHROPIC_BASE_URL").ok().filter(|u| !u.is_empty());
        let url = url.unwrap_or_else(|| DEFAULT_URL.to_string());
        let model = std::env::var("EXPRESSO_ANTHROPIC_MODEL").ok().filter(|m| !m.is_empty());
        let model = model.unwrap_or_else(|| DEFAULT_MODEL.to_string());
        let key = std::env::var("ANTHROPIC_API_KEY").ok().filter(|k| !k.is_empty());
        if key.is_none() && url.trim_end_matches('/') == DEFAULT_URL {
            return Err(NoKey);
        }
        Ok(Anthropic::new(&url, &model, key))
    }

    /// The request body for a leaf: the task as the system prompt, the span as the user's message, and
    /// one tool whose input schema is the answer's, which the model must call.
    pub fn body(&self, request: &LeafRequest) -> Value {
        let input = if request.input.is_empty() { EMPTY_INPUT } else { request.input };
        json!({
            "model": self.model,
            "max_tokens": MAX_TOKENS,
            "temperature": 0,
            "system": task(request),
            "messages": [{ "role": "user", "content": input }],
            "tools": [{
                "name": TOOL,
                "description": format!("Give the answer to `{}`.", request.leaf),
                "input_schema": answer_schema(request),
            }],
            "tool_choice": { "type": "tool", "name": TOOL },
        })
    }
}

impl Provider for Anthropic {
    fn id(&self) -> &str {
        &self.id
    }

    fn answer(&self, request: &LeafRequest) -> Result<Value, String> {
        self.try_answer(request).map_err(|f| f.message)
    }

    fn try_answer(&self, request: &LeafRequest) -> Result<Value, Fault> {
        let mut headers = vec![("anthropic-version", VERSION)];
        if let Some(key) = &self.key {
            headers.push(("x-api-key", key.as_str()));
        }
        let url = format!("{}/v1/messages", self.url);
        let reply = http::post_json(self.agent.as_ref().map_err(Fault::clone)?, &url, &headers, &self.body(request))?;
        read(&reply).map_err(Fault::lasting)
    }

    fn waits(&self, _request: &LeafRequest) -> bool {
        true
    }
}

/// The value in a Messages API answer: the input of its one call of [`TOOL`]. Anything else (another
/// kind of answer, a stop for another reason, no call or two, a call without `value`) is refused.
pub fn read(reply: &Value) -> Result<Value, String> {
    let field = |name: &str| reply.get(name).and_then(Value::as_str);
    if field("type") != Some("message") || field("role") != Some("assistant") {
        return Err("the answer is not an assistant message".into());
    }
    match field("stop_reason") {
        Some("tool_use") => {}
        Some("max_tokens") => return Err(format!("the answer was cut at max_tokens ({MAX_TOKENS})")),
        Some("refusal") => return Err("the model refused to answer".into()),
        Some(other) => return Err(format!("the model stopped for `{other}`, not to call the tool")),
        None => return Err("the answer has no stop_reason".into()),
    }
    let content = reply.get("content").and_then(Value::as_array).ok_or("the answer has no content list")?;
    let mut calls = content.iter().filter(|block| block.get("type").and_then(Value::as_str) == Some("tool_use"));
    let call = calls.next().ok_or("the answer calls no tool")?;
    if calls.next().is_some() {
        return Err("the answer calls a tool more than once".into());
    }
    let name = call.get("name").and_then(Value::as_str).unwrap_or("");
    if name != TOOL {
        return Err(format!("the answer calls `{name}`, not `{TOOL}`"));
    }
    let input = call.get("input").and_then(Value::as_object).ok_or("the tool call has no input object")?;
    let value = input.get("value").cloned().ok_or("the tool call's input has no `value`")?;
    if input.len() != 1 {
        return Err("the tool call's input has fields other than `value`".into());
    }
    Ok(value)
}
