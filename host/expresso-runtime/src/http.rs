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

/// An HTTP client with the bounds: no redirect is followed, a call past [`TIMEOUT`] is a fault.
pub fn agent() -> ureq::Agent {
    ureq::AgentBuilder::new().timeout(TIMEOUT).redirects(0).build()
}

/// POSTs `body` as JSON with `headers` and reads the answer as JSON. Transient: HTTP 429 and 5xx, a
/// connection that fails or times out, a body cut off while read. Lasting: any other status that is not
/// 200 (a redirect included: it is not followed), an answer past the byte bound, a body that is not JSON.
pub fn post_json(agent: &ureq::Agent, url: &str, headers: &[(&str, &str)], body: &Value) -> Result<Value, Fault> {
    let mut call = agent.post(url).set("Content-Type", "application/json");
    for (name, value) in headers {
        call = call.set(name, value);
    }
    let response = match call.send_string(&body.to_string()) {
        Ok(response) => response,
        Err(ureq::Error::Status(code, response)) => {
            let message = match reason(response) {
                Some(reason) => format!("the endpoint answered HTTP {code}: {reason}"),
                None => format!("the endpoint answered HTTP {code}"),
            };
            return Err(Fault { message, transient: code == 429 || code >= 500 });
        }
        Err(ureq::Error::Transport(e)) => {
            let message = format!("the endpoint cannot be reached: {e}");
            let transient = matches!(
                e.kind(),
                ureq::ErrorKind::Dns
                    | ureq::ErrorKind::ConnectionFailed
                    | ureq::ErrorKind::Io
                    | ureq::ErrorKind::ProxyConnect
            );
            return Err(Fault { message, transient });
        }
    };
    let code = response.status();
    if code != 200 {
        return Err(Fault::lasting(format!("the endpoint answered HTTP {code}, not 200 (redirects are not followed)")));
    }
    // Bytes, not text: a body read whole that is not UTF-8 is not JSON, and would come back the same.
    let mut bytes = Vec::new();
    response
        .into_reader()
        .take(MAX_RESPONSE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Fault::transient(format!("the answer cannot be read: {e}")))?;
    if bytes.len() as u64 > MAX_RESPONSE_BYTES {
        return Err(Fault::lasting(format!("the answer is larger than {MAX_RESPONSE_BYTES} bytes")));
    }
    serde_json::from_slice(&bytes).map_err(|e| Fault::lasting(format!("the answer is not JSON: {e}")))
}

/// An error answer's own words, `error.message` as both OpenAI and Anthropic put it, cut short.
fn reason(response: ureq::Response) -> Option<String> {
    let mut text = String::new();
    response.into_reader().take(MAX_ERROR_BYTES).read_to_string(&mut text).ok()?;
    let value: Value = serde_json::from_str(&text).ok()?;
    let message = value.pointer("/error/message").and_then(Value::as_str)?;
    let message: String = message.chars().filter(|c| !c.is_control()).take(MAX_REASON_CHARS).collect();
    (!message.is_empty()).then_some(message)
}
