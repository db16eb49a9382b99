//! One client for OpenAI-compatible chat-completions endpoints (OpenAI, Ollama, llama.cpp, vLLM), shared by
//! evoke's `openai` adapter and Expresso's `openai` provider, configured one way:
//!
//! - an [`Endpoint`]: the base URL (`https://api.openai.com/v1` unless set; `/chat/completions` is added),
//!   the model, and the key (sent as `Authorization: Bearer …` when there is one), all read one way by
//!   [`settings::Settings::read`]: a table of settings first, the environment next, the defaults last;
//! - [`Bounds`]: how long a call may take, connect included; which redirects are followed; how much of an
//!   answer is read.
//!
//! The request is one blocking POST of JSON ([`send`]), its answer read to the bound and no further
//! ([`read_bounded`]); each caller says what a status, a redirect or a failure means to it, since evoke
//! fails a question closed and Expresso asks again when a fault may pass. [`structured`] is the
//! structured-output call: a schema the answer must follow, and the answer read back.

pub mod settings;
pub mod structured;

use reqwest::redirect::{Attempt, Policy};
use serde_json::Value;
use std::io::Read;
use std::time::Duration;

/// OpenAI's own endpoint, the base URL when none is set.
pub const DEFAULT_URL: &str = "https://api.openai.com/v1";

/// Where chat completions are asked, of which model, with which key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    /// The base URL, without a trailing `/`.
    pub url: String,
    pub model: String,
    /// The bearer key, already read from its variable.
    pub key: Option<String>,
}

impl Endpoint {
    pub fn new(url: &str, model: &str, key: Option<String>) -> Endpoint {
        Endpoint { url: url.trim_end_matches('/').to_string(), model: model.to_string(), key }
    }

    /// The chat-completions address: the base URL and `/chat/completions`.
    pub fn chat_completions(&self) -> String {
        format!("{}/chat/completions", self.url)
    }

    /// The `Authorization` header's value, when there is a key.
    pub fn bearer(&self) -> Option<String> {
        self.key.as_ref().map(|key| format!("Bearer {key}"))
    }
}

/// Which redirects a client follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Redirects {
    /// None: a 3xx comes back as the answer it is.
    None,
    /// Within the origin of the address first asked (scheme, host and port), at most this many: another
    /// server would read the request, and its answers would decide. Any other comes back as the 3xx it is.
    SameOrigin(usize),
}

/// What one call may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// The whole call, connect included.
    pub timeout: Duration,
    pub redirects: Redirects,
}

/// A blocking client held to `bounds`, its TLS by rustls with the ring provider (installed once for the
/// process, as evoke-files' fetches install it).
pub fn client(bounds: &Bounds) -> Result<reqwest::blocking::Client, reqwest::Error> {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let policy = match bounds.redirects {
        Redirects::None => Policy::none(),
        Redirects::SameOrigin(most) => Policy::custom(move |attempt: Attempt| {
            let first = attempt.previous().first();
            let same_origin = first.is_some_and(|first| first.origin() == attempt.url().origin());
            if same_origin && attempt.previous().len() <= most { attempt.follow() } else { attempt.stop() }
        }),
    };
    reqwest::blocking::Client::builder().timeout(bounds.timeout).redirect(policy).build()
}

/// POSTs `body` as JSON to `url` with `headers` (an `Authorization` among them when the endpoint wants a
/// key) and hands back the answer, whatever its status, unread.
pub fn send(
    client: &reqwest::blocking::Client,
    url: &str,
    headers: &[(&str, &str)],
    body: &Value,
) -> Result<reqwest::blocking::Response, reqwest::Error> {
    let mut request = client.post(url).header("Content-Type", "application/json");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.body(body.to_string()).send()
}

/// Why an answer's body was not read whole.
#[derive(Debug)]
pub enum ReadError {
    /// It is longer than the limit (its Content-Length says so, or more than that arrived).
    TooLong,
    /// The connection failed while it was read.
    Unreadable(std::io::Error),
}

/// The body of `response`, read to `limit` bytes and no further: a body that runs past it (chunked, or
/// longer than it said) is refused once one byte past the limit is read, so an endpoint can never make the
/// caller hold more. With `trust_length`, a Content-Length over the limit is refused before reading.
pub fn read_bounded(
    response: reqwest::blocking::Response,
    limit: u64,
    trust_length: bool,
) -> Result<Vec<u8>, ReadError> {
    if trust_length && response.content_length().is_some_and(|n| n > limit) {
        return Err(ReadError::TooLong);
    }
    let mut bytes = Vec::new();
    response.take(limit + 1).read_to_end(&mut bytes).map_err(ReadError::Unreadable)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLong);
    }
    Ok(bytes)
}
