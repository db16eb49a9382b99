//! A small blocking HTTP client over `wasi:http`, for the hosts a reflex's grants name.
//!
//! evoke lets a request through only to a `host:port` pair of the manifest's `net` grant; any other
//! is refused before it leaves the machine, and comes back as [`HttpError::Refused`] with the code
//! `HttpRequestDenied`.

use std::fmt;
use wasip2::http::outgoing_handler;
use wasip2::http::types::{ErrorCode, Fields, IncomingBody, Method, OutgoingBody, OutgoingRequest, Scheme};
use wasip2::io::streams::StreamError;

/// A response: its status and whole body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    pub body: Vec<u8>,
}

impl Response {
    /// The body as UTF-8 text, invalid sequences replaced.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Why a request got no response.
#[derive(Debug, Clone)]
pub enum HttpError {
    /// The URL is not `http://host[:port]/path` or `https://…`.
    BadUrl(String),
    /// The host refused or failed the request; `HttpRequestDenied` is a host outside the grants.
    Refused(ErrorCode),
    /// The response broke off.
    Broken(String),
}

impl fmt::Display for HttpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HttpError::BadUrl(url) => write!(f, "not an http or https URL: {url}"),
            HttpError::Refused(code) => {
                let code = format!("{code:?}");
                write!(f, "the request failed: {}", code.trim_start_matches("ErrorCode::"))
            }
            HttpError::Broken(why) => write!(f, "the response broke off: {why}"),
        }
    }
}

impl std::error::Error for HttpError {}

impl From<HttpError> for String {
    fn from(e: HttpError) -> String {
        e.to_string()
    }
}

/// `GET url`.
pub fn get(url: &str) -> Result<Response, HttpError> {
    request(Method::Get, url, &[], None)
}

/// `POST url` with a body and its content type.
pub fn post(url: &str, content_type: &str, body: &[u8]) -> Result<Response, HttpError> {
    request(Method::Post, url, &[("content-type", content_type)], Some(body))
}

/// Any request: a method, a URL, headers and an optional body.
pub fn request(
    method: Method,
    url: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
) -> Result<Response, HttpError> {
    let (scheme, rest) = if let Some(rest) = url.strip_prefix("http://") {
        (Scheme::Http, rest)
    } else if let Some(rest) = url.strip_prefix("https://") {
        (Scheme::Https, rest)
    } else {
        return Err(HttpError::BadUrl(url.into()));
    };
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    if authority.is_empty() {
        return Err(HttpError::BadUrl(url.into()));
    }

    let fields = Fields::new();
    for (name, value) in headers {
        fields
            .append(name, value.as_bytes())
            .map_err(|e| HttpError::Broken(format!("header {name}: {e:?}")))?;
    }
    let request = OutgoingRequest::new(fields);
    let bad = |_| HttpError::BadUrl(url.into());
    request.set_method(&method).map_err(bad)?;
    request.set_scheme(Some(&scheme)).map_err(bad)?;
    request.set_authority(Some(authority)).map_err(bad)?;
    request.set_path_with_query(Some(path)).map_err(bad)?;

    let outgoing = match body {
        Some(_) => Some(request.body().map_err(|_| HttpError::Broken("no request body".into()))?),
        None => None,
    };
    let future = outgoing_handler::handle(request, None).map_err(HttpError::Refused)?;
    if let (Some(outgoing), Some(body)) = (outgoing, body) {
        {
            let stream = outgoing.write().map_err(|_| HttpError::Broken("no request stream".into()))?;
            for chunk in body.chunks(4096) {
                stream.blocking_write_and_flush(chunk).map_err(|e| HttpError::Broken(format!("{e:?}")))?;
            }
        }
        OutgoingBody::finish(outgoing, None).map_err(HttpError::Refused)?;
    }

    let response = loop {
        match future.get() {
            Some(result) => break result,
            None => future.subscribe().block(),
        }
    };
    let response = response
        .map_err(|()| HttpError::Broken("the response was taken twice".into()))?
        .map_err(HttpError::Refused)?;

    let status = response.status();
    let incoming = response.consume().map_err(|()| HttpError::Broken("no response body".into()))?;
    let mut bytes = Vec::new();
    {
        let stream = incoming.stream().map_err(|()| HttpError::Broken("no response stream".into()))?;
        loop {
            match stream.blocking_read(64 * 1024) {
                Ok(chunk) => bytes.extend_from_slice(&chunk),
                Err(StreamError::Closed) => break,
                Err(StreamError::LastOperationFailed(e)) => return Err(HttpError::Broken(e.to_debug_string())),
            }
        }
    }
    let _trailers = IncomingBody::finish(incoming);
    Ok(Response { status, body: bytes })
}
