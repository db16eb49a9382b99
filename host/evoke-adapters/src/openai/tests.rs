//! The HTTP answer's bounds, against servers on loopback (127.0.0.1 only): an answer longer than
//! [`MAX_ANSWER_BYTES`] and redirects to another origin, both of which an attack used.

use super::MAX_ANSWER_BYTES;
use super::http::{client, post};
use serde_json::json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// A well-formed one-token completion, as an endpoint answers.
const ANSWER: &str = r#"{"choices":[{"logprobs":{"content":[{"top_logprobs":[{"token":"A","logprob":0.0}]}]}}]}"#;

/// A server on 127.0.0.1: each request's path is handed to `respond`, which writes the whole response.
/// Returns its address and how many requests it read. It serves until the test process ends.
fn serve(respond: impl Fn(&str, &mut TcpStream) + Send + 'static) -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = format!("http://{}", listener.local_addr().unwrap());
    let requests = Arc::new(AtomicUsize::new(0));
    let counted = requests.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
            let Some(path) = read_request(&stream) else { continue };
            counted.fetch_add(1, Ordering::SeqCst);
            respond(&path, &mut stream);
        }
    });
    (address, requests)
}

/// Reads one request's head and body; its path.
fn read_request(stream: &TcpStream) -> Option<String> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let path = line.split_whitespace().nth(1)?.to_string();
    let mut length = 0usize;
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok()?;
        if header.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().ok()?;
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(path)
}

fn ok(stream: &mut TcpStream, body: &str) {
    // Each answer closes its connection, as the server does: a client that kept it for the next request
    // would race the close.
    let head = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes()).and_then(|_| stream.write_all(body.as_bytes()));
}

fn redirect(stream: &mut TcpStream, to: &str) {
    let head =
        format!("HTTP/1.1 307 Temporary Redirect\r\nlocation: {to}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
    let _ = stream.write_all(head.as_bytes());
}

fn ask(url: &str) -> Result<String, String> {
    let body = json!({ "model": "m", "messages": [{ "role": "user", "content": "lock the front door" }] });
    post(&client().unwrap(), &format!("{url}/v1/chat/completions"), Some("sk-test"), &body).map_err(|e| e.to_string())
}

#[test]
fn an_answer_streamed_past_4_mib_fails_closed_once_the_limit_is_read() {
    // No Content-Length: the body runs until the connection closes, 64 MiB of it unless evoke stops.
    const SENT: usize = 64 * 1024 * 1024;
    let (written_tx, written_rx) = mpsc::channel();
    let (url, _) = serve(move |_, stream| {
        let _ = stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n");
        let chunk = vec![b' '; 64 * 1024];
        let mut written = 0;
        while written < SENT && stream.write_all(&chunk).is_ok() {
            written += chunk.len();
        }
        let _ = written_tx.send(written);
    });
    let error = ask(&url).unwrap_err();
    assert!(error.contains("over 4194304 bytes (4 MiB)"), "{error}");
    // The reading stopped at the limit: the server could not hand over the rest.
    let written = written_rx.recv_timeout(Duration::from_secs(20)).unwrap();
    assert!(written < SENT, "the whole {written} bytes were read");
    assert_eq!(MAX_ANSWER_BYTES, 4 * 1024 * 1024);
}

#[test]
fn an_answer_declaring_more_than_4_mib_is_refused_before_reading() {
    let (url, _) = serve(|_, stream| {
        let _ = stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 5368709120\r\n\r\n{}");
    });
    let error = ask(&url).unwrap_err();
    assert!(error.contains("4 MiB"), "{error}");
}

#[test]
fn an_error_answer_past_4_mib_is_refused_too() {
    let (url, _) = serve(|_, stream| {
        let _ = stream.write_all(b"HTTP/1.1 500 Internal Server Error\r\nconnection: close\r\n\r\n");
        let _ = stream.write_all(&vec![b'x'; MAX_ANSWER_BYTES + 1]);
    });
    let error = ask(&url).unwrap_err();
    assert!(error.contains("4 MiB"), "{error}");
}

#[test]
fn an_answer_of_exactly_4_mib_is_read() {
    let (url, _) = serve(|_, stream| {
        let mut body = ANSWER.to_string();
        body.push_str(&" ".repeat(MAX_ANSWER_BYTES - ANSWER.len()));
        ok(stream, &body);
    });
    assert_eq!(ask(&url).unwrap().len(), MAX_ANSWER_BYTES);
}

#[test]
fn a_redirect_to_another_origin_is_not_followed_and_that_server_hears_nothing() {
    // The attack: the endpoint answered 307 to a server of another port, which got the sentence and the
    // questions and whose answers decided the call.
    let (elsewhere, heard) = serve(|_, stream| ok(stream, ANSWER));
    let to = format!("{elsewhere}/v1/chat/completions");
    let (url, _) = serve(move |_, stream| redirect(stream, &to));
    let error = ask(&url).unwrap_err();
    assert!(error.contains("307") && error.contains("another origin"), "{error}");
    assert_eq!(heard.load(Ordering::SeqCst), 0, "the other origin was asked");
}

#[test]
fn a_redirect_to_another_host_name_of_the_same_server_is_another_origin() {
    // `localhost` and `127.0.0.1` reach one server but are two origins: compared as written, not resolved.
    let (url, heard) = serve(|_, stream| ok(stream, ANSWER));
    let port = url.rsplit(':').next().unwrap().to_string();
    let (start, _) = serve(move |_, stream| redirect(stream, &format!("http://localhost:{port}/v1/chat/completions")));
    let error = ask(&start).unwrap_err();
    assert!(error.contains("another origin"), "{error}");
    assert_eq!(heard.load(Ordering::SeqCst), 0);
}

#[test]
fn a_redirect_within_the_origin_is_followed() {
    let (url, heard) = serve(|path, stream| match path {
        "/v1/chat/completions" => redirect(stream, "/v1/moved"),
        _ => ok(stream, ANSWER),
    });
    assert_eq!(ask(&url).unwrap(), ANSWER);
    assert_eq!(heard.load(Ordering::SeqCst), 2);
}

#[test]
fn redirects_within_the_origin_stop_after_3() {
    let (url, heard) = serve(|_, stream| redirect(stream, "/v1/chat/completions"));
    let error = ask(&url).unwrap_err();
    assert!(error.contains("more than 3 redirects"), "{error}");
    // The first request and three redirects followed.
    assert_eq!(heard.load(Ordering::SeqCst), 4);
}
