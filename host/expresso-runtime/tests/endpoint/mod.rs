//! A fake HTTP endpoint on 127.0.0.1 for the providers' tests: it answers each canned (status, body) once,
//! in order, and hands back each request's head (request line and headers) and JSON body.

#![allow(dead_code)]

use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::mpsc;

/// The endpoint's base URL (`http://127.0.0.1:PORT`) and the requests it got.
pub fn serve(replies: Vec<(u16, String)>) -> (String, mpsc::Receiver<(String, Value)>) {
    let count = replies.len();
    let mut replies = replies.into_iter();
    serve_with(count, move |_| replies.next().unwrap())
}

/// Answers `count` requests, each with what `reply` makes of its JSON body.
pub fn serve_with(
    count: usize,
    mut reply: impl FnMut(&Value) -> (u16, String) + Send + 'static,
) -> (String, mpsc::Receiver<(String, Value)>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for _ in 0..count {
            let (stream, _) = listener.accept().unwrap();
            let mut reader = BufReader::new(stream);
            let (head, request) = read_request(&mut reader);
            let (status, body) = reply(&request);
            let _ = tx.send((head, request));
            let mut stream = reader.into_inner();
            let reply = format!(
                "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            stream.write_all(reply.as_bytes()).unwrap();
        }
    });
    (url, rx)
}

/// Reads one request from `reader`: its head (request line and headers) and its JSON body.
pub fn read_request(reader: &mut impl BufRead) -> (String, Value) {
    let mut head = String::new();
    let mut length = 0;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap();
        }
        if line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let mut request = vec![0; length];
    reader.read_exact(&mut request).unwrap();
    (head, serde_json::from_slice(&request).unwrap())
}

/// One header's value in a request head, by its name in any case.
pub fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|line| {
        let (n, v) = line.split_once(':')?;
        n.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}
