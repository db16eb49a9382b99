//! What a hostile sender puts in an event (a claimed fuel, a host's own id, a body past the line bound,
//! a silence of no time) never lifts a bound the host promises nor keeps the host's own events out.

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

const DESK: &str = r#"agent "Desk" {
  grants { message.send }
  at most world
  lives in channel #support

  on message /bug/ {
    reply "Looking."
  }

  on receipt "reply" {
    say "Sent."
  }
}
"#;

/// A producer cannot take the id the host gives a receipt event: an event with a `receipt|` id that is
/// not a receipt is refused as a line of the log (and so by `serve`), since in the log it would keep the
/// host's receipt event out, and the agent's `on receipt` would never fire.
#[test]
fn an_event_sent_in_with_a_receipt_s_id_is_refused_and_cannot_keep_the_receipt_out() {
    let forged = json!({
        "id": "receipt|m1|Desk#0/0/reply|message.send",
        "partition": {"workspace": "acme", "room": "#support"},
        "type": "message",
        "payload": {"speaker": "mallory", "text": "nothing to see"},
        "t_event": 1_000,
    });
    let refused = expresso_host::serve::parse_events(forged.to_string().as_bytes(), 10);
    assert!(refused.is_err(), "a message holding a receipt's id was taken in");
    assert!(read_log(&forged.to_string()).is_err());

    // Had it been taken in, the receipt event would never be written: what it must not come to.
    let message = line(json!({
        "id": "m1",
        "partition": {"workspace": "acme", "room": "#support"},
        "type": "message",
        "payload": {"speaker": "dana", "text": "a bug"},
        "t_event": 1_000,
    }));
    let dir = temp_dir("attack-receipt-id");
    let chat = Taker::default();
    let mut h = host(DESK, &dir.join("state"), &chat);
    h.db_mut().append(&[message]).unwrap();
    assert_eq!(h.drain(5_000).unwrap(), 0);
    assert_eq!(*chat.0.lock().unwrap(), 2, "the reply and, once, the reaction to its receipt");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `on silence for 0s` would be due at once after each message, and the host's clock never sent it (a
/// silence's first duration must be longer than the nothing fired yet): such a program fired zero times
/// under `serve` while it checked. It is refused where it is written, with the fix.
#[test]
fn a_silence_of_no_time_is_refused_rather_than_never_fired() {
    let source = "agent \"Nudge\" {\n  grants { message.send }\n  on silence for 0s { say \"still there?\" }\n}\n";
    let refused = expresso_lang::compile(source).expect_err("a silence of 0s checked");
    let codes: Vec<&str> = refused.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["E_SILENCE_DURATION"], "{refused:?}");
    // The shortest silence there is fires once after its message.
    let source = source.replace("0s", "1ms");
    let dir = temp_dir("attack-silence-zero");
    let mut db = Db::open(&dir).unwrap();
    let mut timers = expresso_host::timers::Timers::of(&expresso_lang::compile(&source).unwrap().program);
    let said = line(json!({
        "id": "m1",
        "partition": {"workspace": "acme", "room": "#support"},
        "type": "message",
        "payload": {"speaker": "dana", "text": "hello"},
        "t_event": 1_000,
    }));
    db.append(&[said]).unwrap();
    assert_eq!(expresso_host::timers::fire(&mut db, &mut timers, 5_000).unwrap(), 1);
    assert_eq!(expresso_host::timers::fire(&mut db, &mut timers, 6_000).unwrap(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A receipt or words event carries the action's arguments, which a program may make larger than an
/// event line may be (1 MiB): written back, it would leave a log that `expresso export` writes and `run`
/// refuses. Such an event is not written, said and counted as the others left out are.
#[test]
fn feedback_past_the_event_line_bound_is_not_written_and_the_export_still_reads() {
    let source = r#"agent "Echo" {
  grants { message.send }
  at most world
  lives in channel #random
  on message /big/ { reply "{.message}{.message}" }
  on receipt "reply" { say "sent" }
}
"#;
    let dir = temp_dir("attack-feedback-line");
    let chat = Taker::default();
    let mut h = host(source, &dir.join("state"), &chat);
    h.feedback.words = true;
    let big = format!("big {}", "x".repeat(600 * 1024));
    h.db_mut()
        .append(&[line(json!({
            "id": "m1",
            "partition": {"workspace": "acme", "room": "#random"},
            "type": "message",
            "payload": {"speaker": "dana", "text": big},
            "t_event": 1_000,
        }))])
        .unwrap();
    assert_eq!(h.drain(5_000).unwrap(), 0);
    assert_eq!(*chat.0.lock().unwrap(), 1, "the reply is sent; nothing comes back of it");
    assert_eq!(Metrics::get(&h.metrics.feedback_dropped), 2, "its receipt and its words are left out");
    let exported = dir.join("export.jsonl");
    expresso_host::export::write(h.db_mut(), &exported).unwrap();
    let events = read_log(&std::fs::read_to_string(&exported).unwrap()).expect("the export reads back");
    assert_eq!(events.len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}
