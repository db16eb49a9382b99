//! The one HTTP call every generative provider makes: a JSON body POSTed to an endpoint, with the same
//! bounds for each (60 s for the whole call, connect included; 4 MiB read; no redirects), and every way it
//! can go wrong typed as a [`Fault`] that says whether asking again may help.

use crate::bounds::MAX_RESPONSE_BYTES;
use crate::provider::Fault;
use serde_json::Value;
use std::io::Read;
use std::time::Duration;

/// How long one call may take, connect included.
pub const TIMEOUT: Duration = Duration::from_secs(60);
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
    builder()
        .timeout(TIMEOUT)
        .build()
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
    let mut call = agent.post(url).header("Content-Type", "application/json");
    for (name, value) in headers {
        call = call.header(*name, *value);
    }
    let response = match call.body(body.to_string()).send() {
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
    let mut bytes = Vec::new();
    response
        .take(MAX_RESPONSE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Fault::transient(format!("the answer cannot be read: {e}")))?;
    if bytes.len() as u64 > MAX_RESPONSE_BYTES {
        return Err(Fault::lasting(format!("the answer is larger than {MAX_RESPONSE_BYTES} bytes")));
    }
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
