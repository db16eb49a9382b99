//! The one HTTP call every generative provider makes: a JSON body POSTed to an endpoint, with the same
//! bounds for each (60 s for the whole call, connect included; 4 MiB read; no redirects), and every way it
//! can go wrong typed as a [`Fault`] that says whether asking again may help. The client, the request and
//! the bounded read are openai-compat's, which evoke's `openai` adapter calls too.

use crate::bounds::MAX_RESPONSE_BYTES;
use crate::provider::Fault;
use openai_compat::{Bounds, ReadError, Redirects};
use serde_json::Value;
use std::io::Read;
use std::time::Duration;

/// How long one call may take, connect included.
pub const TIMEOUT: Duration = Duration::from_secs(60);
/// A provider's call: [`TIMEOUT`], and no redirect followed.
const BOUNDS: Bounds = Bounds { timeout: TIMEOUT, redirects: Redirects::None };
/// How much of an error answer's body is read for its reason.
const MAX_ERROR_BYTES: u64 = 16 << 10;
/// How much of that reason is kept in the fault.
const MAX_REASON_CHARS: usize = 300;

/// A blocking HTTP client as evoke's are built (reqwest over rustls with the ring provider), following no
/// redirect: a 3xx comes back as the answer it is. The caller sets its time bounds.
pub fn builder() -> reqwest::blocking::ClientBuilder {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::blocking::Client::builder().redirect(reqwest::redirect::Policy::none())
}

/// An HTTP client with the bounds: no redirect is followed, a call past [`TIMEOUT`] is a fault.
pub fn agent() -> Result<reqwest::blocking::Client, Fault> {
    openai_compat::client(&BOUNDS)
        .map_err(|e| Fault::lasting(format!("the HTTP client cannot be set up: {}", e.without_url())))
}

/// Whether a failed call may pass if made again: the connection failed, timed out, or ended before the
/// answer did. An address that does not parse or a scheme the client does not speak stays so.
pub fn transient(e: &reqwest::Error) -> bool {
    !e.is_builder() && !e.is_redirect()
}

/// POSTs `body` as JSON with `headers` and reads the answer as JSON. Transient: HTTP 429 and 5xx, a
/// connection that fails or times out, a body cut off while read. Lasting: any other status that is not
/// 200 (a redirect included: it is not followed), an answer past the byte bound, a body that is not JSON.
pub fn post_json(
    agent: &reqwest::blocking::Client,
    url: &str,
    headers: &[(&str, &str)],
    body: &Value,
) -> Result<Value, Fault> {
    let response = match openai_compat::send(agent, url, headers, body) {
        Ok(response) => response,
        Err(e) => {
            let transient = transient(&e);
            // Without the address: it may carry a key in its path or query.
            let message = format!("the endpoint cannot be reached: {}", e.without_url());
            return Err(Fault { message, transient });
        }
    };
    let code = response.status().as_u16();
    if code >= 400 {
        let message = match reason(response) {
            Some(reason) => format!("the endpoint answered HTTP {code}: {reason}"),
            None => format!("the endpoint answered HTTP {code}"),
        };
        return Err(Fault { message, transient: code == 429 || code >= 500 });
    }
    if code != 200 {
        return Err(Fault::lasting(format!("the endpoint answered HTTP {code}, not 200 (redirects are not followed)")));
    }
    // Bytes, not text: a body read whole that is not UTF-8 is not JSON, and would come back the same.
    let bytes = openai_compat::read_bounded(response, MAX_RESPONSE_BYTES, false).map_err(|e| match e {
        ReadError::Unreadable(e) => Fault::transient(format!("the answer cannot be read: {e}")),
        ReadError::TooLong => Fault::lasting(format!("the answer is larger than {MAX_RESPONSE_BYTES} bytes")),
    })?;
    serde_json::from_slice(&bytes).map_err(|e| Fault::lasting(format!("the answer is not JSON: {e}")))
}

/// An error answer's own words, `error.message` as both OpenAI and Anthropic put it, cut short.
fn reason(response: reqwest::blocking::Response) -> Option<String> {
    let mut text = String::new();
    response.take(MAX_ERROR_BYTES).read_to_string(&mut text).ok()?;
    let value: Value = serde_json::from_str(&text).ok()?;
    let message = value.pointer("/error/message").and_then(Value::as_str)?;
    let message: String = message.chars().filter(|c| !c.is_control()).take(MAX_REASON_CHARS).collect();
    (!message.is_empty()).then_some(message)
}
