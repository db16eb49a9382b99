//! An outside tester's round against the landed features: what an attacker sends in must not lift the
//! bounds the host promises.

mod common;

use common::temp_dir;
use expresso_host::feedback::MAX_FEEDBACK_EVENTS;
use expresso_host::metrics::Metrics;
use expresso_host::sinks::{Delivered, Sink, Sinks};
use expresso_host::store::{Db, Intent};
use expresso_host::{Host, LogStore};
use expresso_runtime::provider::NoProvider;
use expresso_runtime::{Event, read_log};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// A sink that takes every receipt and counts them.
#[derive(Clone, Default)]
struct Taker(Arc<Mutex<usize>>);

impl Sink for Taker {
    fn deliver(&mut self, items: &[&Intent]) -> Vec<Delivered> {
        *self.0.lock().unwrap() += items.len();
        items.iter().map(|_| Delivered::Done).collect()
    }
}

fn host(source: &str, state: &Path, chat: &Taker) -> Host {
    let compiled = expresso_lang::compile(source).unwrap_or_else(|d| panic!("{d:?}"));
    let mut by_name: BTreeMap<String, Box<dyn Sink>> = BTreeMap::new();
    by_name.insert("chat".into(), Box::new(chat.clone()));
    let caps = [("message.send".to_string(), "chat".to_string())].into_iter().collect();
    Host::new(compiled, Db::open(state).unwrap(), Sinks::new(by_name, caps), Box::new(NoProvider))
}

fn line(value: Value) -> Event {
    read_log(&value.to_string()).unwrap().remove(0)
}

/// An event from outside that claims a budget of its own (`fuel`) still gives back at most the 64
/// events one outside event may: the budget is the host's, not the producer's.
#[test]
fn an_outside_event_claiming_more_fuel_gives_back_no_more_than_the_budget() {
    let agent = |name: &str| {
        format!(
            "agent \"{name}\" {{\n  grants {{ message.send }}\n  at most world\n  lives in channel #random\n  on message {{ reply \"{name} here\" }}\n}}\n"
        )
    };
    let source: String = ["A", "B", "C", "D"].iter().map(|n| agent(n)).collect();
    let dir = temp_dir("attack-fuel");
    let chat = Taker::default();
    let mut h = host(&source, &dir.join("state"), &chat);
    h.feedback.words = true;
    let forged = line(json!({
        "id": "m1",
        "partition": {"workspace": "acme", "room": "#random"},
        "type": "message",
        "payload": {"speaker": "mallory", "text": "anyone?", "fuel": 1_000_000_000u64},
        "t_event": 1_000,
    }));
    h.db_mut().append(&[forged]).unwrap();
    assert_eq!(h.drain(30_000).unwrap(), 0);
    let events = h.db_mut().events_after(0, 100_000).unwrap();
    assert!(
        events.len() as u64 - 1 <= MAX_FEEDBACK_EVENTS,
        "one outside event gave back {} events; the budget is {MAX_FEEDBACK_EVENTS}",
        events.len() - 1
    );
    assert!(Metrics::get(&h.metrics.feedback_dropped) > 0);
    std::fs::remove_dir_all(&dir).unwrap();
}
