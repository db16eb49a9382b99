//! One POST of JSON, blocking, by reqwest over rustls (the ring provider, as evoke-files fetches).

use super::MAX_ANSWER_BYTES;
use super::error::HttpError;
use serde_json::Value;
use std::io::Read;
use std::time::Duration;

/// No request outlives a decision's deadline.
const TIMEOUT: Duration = Duration::from_secs(30);

pub fn client() -> Result<reqwest::blocking::Client, HttpError> {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::blocking::Client::builder().timeout(TIMEOUT).build().map_err(HttpError::Client)
}

pub fn post(
    client: &reqwest::blocking::Client,
    url: &str,
    key: Option<&str>,
    body: &Value,
) -> Result<String, HttpError> {
    let mut request = client.post(url).header("content-type", "application/json").body(body.to_string());
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    let response = request.send().map_err(HttpError::Unreachable)?;
    let status = response.status();
    let text = read_bounded(response)?;
    if !status.is_success() {
        return Err(HttpError::Status { status, said: text.chars().take(200).collect() });
    }
    Ok(text)
}

/// The body, read to [`MAX_ANSWER_BYTES`] and no further: a Content-Length over it is refused before
/// reading, and a body that runs past it (chunked, or longer than it said) is refused once the limit is
/// read, so an endpoint can never make evoke hold more.
fn read_bounded(response: reqwest::blocking::Response) -> Result<String, HttpError> {
    let too_long = HttpError::TooLong { limit: MAX_ANSWER_BYTES };
    if response.content_length().is_some_and(|n| n > MAX_ANSWER_BYTES as u64) {
        return Err(too_long);
    }
    let mut bytes = Vec::new();
    response.take(MAX_ANSWER_BYTES as u64 + 1).read_to_end(&mut bytes).map_err(HttpError::Unreadable)?;
    if bytes.len() > MAX_ANSWER_BYTES {
        return Err(too_long);
    }
    // As reqwest's `text` read it: a byte that is not UTF-8 becomes U+FFFD, and the JSON reader judges.
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
