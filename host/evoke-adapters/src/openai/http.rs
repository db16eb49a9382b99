//! One POST of JSON, blocking, by reqwest over rustls (the ring provider, as evoke-files fetches).

use serde_json::Value;
use std::time::Duration;

/// No request outlives a decision's deadline.
const TIMEOUT: Duration = Duration::from_secs(30);

pub fn client() -> Result<reqwest::blocking::Client, String> {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::blocking::Client::builder()
        .timeout(TIMEOUT)
        .build()
        .map_err(|e| format!("cannot start the HTTP client: {e}"))
}

pub fn post(client: &reqwest::blocking::Client, url: &str, key: Option<&str>, body: &Value) -> Result<String, String> {
    let mut request = client.post(url).header("content-type", "application/json").body(body.to_string());
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    let response = request.send().map_err(|e| format!("the endpoint could not be reached: {e}"))?;
    let status = response.status();
    let text = response.text().map_err(|e| format!("the response could not be read: {e}"))?;
    if !status.is_success() {
        let short: String = text.chars().take(200).collect();
        return Err(format!("the endpoint answered {status}: {short}"));
    }
    Ok(text)
}
