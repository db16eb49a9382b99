//! One POST of JSON, blocking, by openai-compat's client (reqwest over rustls with the ring provider, as
//! evoke-files fetches and Expresso's provider asks), and what its answer means to a question.

use super::error::HttpError;
use super::{MAX_ANSWER_BYTES, MAX_REDIRECTS};
use openai_compat::{Bounds, ReadError, Redirects};
use reqwest::Url;
use reqwest::header::LOCATION;
use serde_json::Value;
use std::time::Duration;

/// No request outlives a decision's deadline.
const TIMEOUT: Duration = Duration::from_secs(30);

/// A redirect is followed only within the origin of the address first asked (scheme, host and port), and
/// at most [`MAX_REDIRECTS`] times: another server would read the sentence and the questions, and its
/// answers would decide the call. A redirect not followed comes back as the 3xx it is, which `post` refuses.
const BOUNDS: Bounds = Bounds { timeout: TIMEOUT, redirects: Redirects::SameOrigin(MAX_REDIRECTS) };

pub fn client() -> Result<reqwest::blocking::Client, HttpError> {
    openai_compat::client(&BOUNDS).map_err(HttpError::Client)
}

pub fn post(
    client: &reqwest::blocking::Client,
    url: &str,
    key: Option<&str>,
    body: &Value,
) -> Result<String, HttpError> {
    let bearer = key.map(|key| format!("Bearer {key}"));
    let headers: Vec<(&str, &str)> = bearer.iter().map(|b| ("Authorization", b.as_str())).collect();
    let response = openai_compat::send(client, url, &headers, body).map_err(HttpError::Unreachable)?;
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
    let bytes = openai_compat::read_bounded(response, MAX_ANSWER_BYTES as u64, true).map_err(|e| match e {
        ReadError::TooLong => HttpError::TooLong { limit: MAX_ANSWER_BYTES },
        ReadError::Unreadable(e) => HttpError::Unreadable(e),
    })?;
    // As reqwest's `text` read it: a byte that is not UTF-8 becomes U+FFFD, and the JSON reader judges.
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
