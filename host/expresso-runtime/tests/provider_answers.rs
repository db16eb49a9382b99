//! The HTTP providers' answers: one read whole that is not text is a fault that would come back the
//! same, and is not asked again.

mod endpoint;

use expresso_runtime::anthropic::Anthropic;
use expresso_runtime::retry::Retrying;
use expresso_runtime::{LeafRequest, Provider, RequestKind};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

#[test]
fn an_answer_that_is_not_utf8_is_lasting_and_asked_once() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let asked = Arc::new(AtomicUsize::new(0));
    let counted = asked.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let mut reader = std::io::BufReader::new(stream.unwrap());
            endpoint::read_request(&mut reader);
            counted.fetch_add(1, Ordering::SeqCst);
            let mut stream = reader.into_inner();
            let body: &[u8] = b"{\"type\":\"message\",\"text\":\"\xff\xfe\"}";
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = std::io::Write::write_all(&mut stream, head.as_bytes());
            let _ = std::io::Write::write_all(&mut stream, body);
        }
    });
    let schema = expresso_lang::schema::Schema::Scalar(expresso_lang::schema::Scalar {
        kind: expresso_lang::schema::Kind::Bool,
        optional: false,
        span: expresso_lang::span::Span::default(),
    });
    let request = LeafRequest {
        key: "k",
        leaf: "match",
        kind: RequestKind::Match,
        schema: &schema,
        prompt: Some("angry"),
        input: "hello",
        t_event: 0,
    };
    let fault = Retrying::new(Anthropic::new(&url, "m", None)).try_answer(&request).unwrap_err();
    assert!(!fault.transient, "{fault:?}");
    assert!(fault.message.starts_with("the answer is not JSON"), "{fault:?}");
    assert_eq!(asked.load(Ordering::SeqCst), 1, "an answer that would come back the same is asked once");
}
