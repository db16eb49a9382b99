//! One POST of JSON, blocking, by reqwest over rustls (the ring provider, as evoke-files fetches).

use super::error::HttpError;
use super::{MAX_ANSWER_BYTES, MAX_REDIRECTS};
use reqwest::Url;
use reqwest::header::LOCATION;
use reqwest::redirect::{Attempt, Policy};
use serde_json::Value;
use std::io::Read;
use std::time::Duration;

/// No request outlives a decision's deadline.
const TIMEOUT: Duration = Duration::from_secs(30);

pub fn client() -> Result<reqwest::blocking::Client, HttpError> {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::blocking::Client::builder()
        .timeout(TIMEOUT)
        .redirect(Policy::custom(redirect))
        .build()
        .map_err(HttpError::Client)
}

/// A redirect is followed only within the origin of the address first asked (scheme, host and port), and
/// at most [`MAX_REDIRECTS`] times: another server would read the sentence and the questions, and its
/// answers would decide the call. A redirect not followed comes back as the 3xx it is, which `post` refuses.
fn redirect(attempt: Attempt) -> reqwest::redirect::Action {
    let same_origin = attempt.previous().first().is_some_and(|first| first.origin() == attempt.url().origin());
    if same_origin && attempt.previous().len() <= MAX_REDIRECTS { attempt.follow() } else { attempt.stop() }
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
    if status.is_redirection()
        && let Some(location) = response.headers().get(LOCATION)
    {
        // A header value reads as text only when it is visible ASCII, so what is shown holds no control.
        let location = location.to_str().unwrap_or("an address that is not ASCII");
        let next = response.url().join(location).ok();
        let first = Url::parse(url).ok();
        let elsewhere = next.zip(first).is_none_or(|(next, first)| next.origin() != first.origin());
        let why = if elsewhere { "another origin than the endpoint's" } else { "more than 3 redirects" };
        return Err(HttpError::Redirected { status, location: location.chars().take(200).collect(), why });
    }
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
