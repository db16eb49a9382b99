//! A test adapter component that does what the request tells it, so the tests can drive every way an
//! engine goes wrong through a real component:
//!
//! - `quirk:not-offered`, `quirk:nan`, `quirk:sum`, `quirk:missing`: a uniform answer, spoiled that way;
//! - `quirk:twice`: one question answered twice; `quirk:error`: an error; `quirk:trap`: a panic;
//!   `quirk:spin`: a loop that never ends; `quirk:env`: an error listing what it can see;
//! - `quirk:http HOST:PORT`: `GET http://HOST:PORT/route`; the body names the route's key, answered 0.98;
//!   every other choice answers its `otherwise` (or its first key), every yes/no `yes`.
//!
//! Otherwise it answers uniformly.

wit_bindgen::generate!({
    path: "../../../../wit/adapter/v1",
    world: "evoke:adapter/adapter@1.0.0",
    // Bindings for the world's wasi:http import too (and the wasi:io and wasi:clocks it uses).
    generate_all,
});

use exports::evoke::adapter::engine::{Description, Distribution, Gate, Guest};
use serde_json::Value;
use wasi::http::outgoing_handler;
use wasi::http::types::{Fields, IncomingBody, Method, OutgoingRequest, Scheme};
use wasi::io::streams::StreamError;

struct Quirks;

fn keys(question: &Value) -> Vec<String> {
    match question.get("type").and_then(Value::as_str) {
        Some("yesno") => vec!["yes".into()],
        _ => question.get("options").and_then(Value::as_object).map(|o| o.keys().cloned().collect()).unwrap_or_default(),
    }
}

fn uniform(question: &Value) -> Vec<(String, f64)> {
    let keys = keys(question);
    if question.get("type").and_then(Value::as_str) == Some("yesno") {
        return vec![("yes".into(), 0.5)];
    }
    let p = 1.0 / keys.len().max(1) as f64;
    keys.into_iter().map(|k| (k, p)).collect()
}

/// `GET http://{authority}/route`, the body as text.
fn get(authority: &str) -> Result<String, String> {
    let request = OutgoingRequest::new(Fields::new());
    request.set_method(&Method::Get).map_err(|()| "method")?;
    request.set_scheme(Some(&Scheme::Http)).map_err(|()| "scheme")?;
    request.set_authority(Some(authority)).map_err(|()| format!("authority {authority}"))?;
    request.set_path_with_query(Some("/route")).map_err(|()| "path")?;
    let future = outgoing_handler::handle(request, None).map_err(|e| format!("http {authority}: {e:?}"))?;
    let response = loop {
        match future.get() {
            Some(result) => break result,
            None => future.subscribe().block(),
        }
    };
    let response = response.map_err(|()| "taken twice")?.map_err(|e| format!("http {authority}: {e:?}"))?;
    let incoming = response.consume().map_err(|()| "no body")?;
    let mut bytes = Vec::new();
    {
        let stream = incoming.stream().map_err(|()| "no stream")?;
        loop {
            match stream.blocking_read(64 * 1024) {
                Ok(chunk) => bytes.extend_from_slice(&chunk),
                Err(StreamError::Closed) => break,
                Err(StreamError::LastOperationFailed(e)) => return Err(e.to_debug_string()),
            }
        }
    }
    let _trailers = IncomingBody::finish(incoming);
    Ok(String::from_utf8_lossy(&bytes).trim().to_string())
}

fn from_host(authority: &str, questions: &serde_json::Map<String, Value>) -> Result<Vec<Distribution>, String> {
    let route = get(authority)?;
    let mut answers = Vec::new();
    for (id, question) in questions {
        let keys = keys(question);
        let probabilities = if id == "route" {
            keys.iter().map(|k| (k.clone(), if *k == route { 0.98 } else { 0.02 / (keys.len() - 1).max(1) as f64 })).collect()
        } else if question.get("type").and_then(Value::as_str) == Some("yesno") {
            vec![("yes".into(), 0.98)]
        } else {
            let chosen = question.get("otherwise").and_then(Value::as_str).map(str::to_string).or_else(|| keys.first().cloned());
            chosen.into_iter().map(|k| (k, 1.0)).collect()
        };
        answers.push(Distribution { question: id.clone(), probabilities });
    }
    Ok(answers)
}

impl Guest for Quirks {
    fn describe() -> Description {
        Description {
            id: "quirks/1".into(),
            limits: None,
            gate: Some(Gate { route: 0.5, fits: None, read: 0.6, write: 0.8 }),
            plan: None,
        }
    }

    fn answer(request: String, questions: String) -> Result<Vec<Distribution>, String> {
        let questions: serde_json::Map<String, Value> = serde_json::from_str(&questions).map_err(|e| e.to_string())?;
        let quirk = request.split_whitespace().find_map(|w| w.strip_prefix("quirk:")).unwrap_or("");
        match quirk {
            "error" => return Err("the engine is out of order".into()),
            "trap" => panic!("the engine fell over"),
            "spin" => {
                let mut n: u64 = 0;
                loop {
                    n = std::hint::black_box(n.wrapping_add(1));
                }
            }
            "env" => {
                let vars: Vec<String> = std::env::vars().map(|(k, _)| k).collect();
                let root = std::fs::read_dir("/").map(|d| d.count()).map_err(|e| e.to_string());
                let tcp = std::net::TcpStream::connect("127.0.0.1:9").map(|_| ()).map_err(|e| e.to_string());
                return Err(format!("env {vars:?}; args {:?}; root {root:?}; tcp {tcp:?}", std::env::args().collect::<Vec<_>>()));
            }
            "http" => {
                let after = request.split("quirk:http").nth(1).unwrap_or("");
                let authority = after.split_whitespace().next().unwrap_or("");
                return from_host(authority, &questions);
            }
            _ => {}
        }
        let mut answers: Vec<Distribution> =
            questions.iter().map(|(id, q)| Distribution { question: id.clone(), probabilities: uniform(q) }).collect();
        let first = &mut answers[0].probabilities;
        match quirk {
            "not-offered" => first.push(("kitchen-sink".into(), 0.0)),
            "nan" => first[0].1 = f64::NAN,
            "sum" => first[0].1 += 0.4,
            "missing" => {
                answers.pop();
            }
            "twice" => {
                let again = Distribution { question: answers[0].question.clone(), probabilities: answers[0].probabilities.clone() };
                answers.push(again);
            }
            _ => {}
        }
        Ok(answers)
    }
}

export!(Quirks);
