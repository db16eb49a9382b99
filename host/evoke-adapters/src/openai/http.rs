//! One POST of JSON, blocking, by reqwest over rustls (the ring provider, as evoke-files fetches).

use super::error::HttpError;
use serde_json::Value;
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
    let text = response.text().map_err(HttpError::Unreadable)?;
    if !status.is_success() {
        return Err(HttpError::Status { status, said: text.chars().take(200).collect() });
    }
    Ok(text)
}
