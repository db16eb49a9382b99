//! The event envelope, read from JSON lines, and the order the runtime consumes a log in.

use crate::bounds::{MAX_EVENT_LINE_BYTES, MAX_EVENTS, MAX_REPORTED_BAD_LINES};
use crate::error::Error;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::HashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventType {
    Utterance,
    Message,
    Silence,
    MeetingStart,
    MeetingEnd,
    Schedule,
    /// What came back of an agent's own action (written by the host after its sink took it).
    Receipt,
}

/// `(workspace, room|channel)`: order is meaningful only within one. The second part is one slot, read
/// from `room` or from `channel` (a meeting's room or a chat's channel), and held as `room` either way, so
/// a partition given by channel orders, routes and reads (`.room`, `.channel`) as the same one given by
/// room. It is written back as `room`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "PartitionLine")]
pub struct Partition {
    pub workspace: String,
    pub room: String,
}

/// A partition as a log line writes it: `room` or `channel`, exactly one.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PartitionLine {
    workspace: String,
    room: Option<String>,
    channel: Option<String>,
}

impl TryFrom<PartitionLine> for Partition {
    type Error = &'static str;

    fn try_from(line: PartitionLine) -> Result<Partition, Self::Error> {
        match (line.room, line.channel) {
            (Some(room), None) | (None, Some(room)) => Ok(Partition { workspace: line.workspace, room }),
            // Two names for one slot could disagree; which one orders the event would be a guess.
            (Some(_), Some(_)) => Err("a partition holds `room` or `channel`, not both"),
            (None, None) => Err("a partition needs `room` or `channel`"),
        }
    }
}

/// `e = { id, partition, type, payload, t_event, rev }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Event {
    pub id: String,
    pub partition: Partition,
    #[serde(rename = "type")]
    pub kind: EventType,
    #[serde(default)]
    pub payload: Map<String, Value>,
    /// Event time in milliseconds: the only clock a program reads.
    pub t_event: u64,
    #[serde(default)]
    pub rev: u64,
}

impl Event {
    /// The text a trigger matches and `here..end_of_turn` reads: an utterance's or a message's `text`.
    pub fn text(&self) -> &str {
        self.payload.get("text").and_then(Value::as_str).unwrap_or("")
    }

    pub fn speaker(&self) -> &str {
        self.payload.get("speaker").and_then(Value::as_str).unwrap_or("")
    }

    /// What the payload of each type must hold, so a program never reads a field its event lacks.
    fn check_payload(&self) -> Result<(), PayloadFault> {
        let need_str = |key: &'static str| match self.payload.get(key) {
            Some(Value::String(_)) => Ok(()),
            Some(_) => Err(PayloadFault::NotAString { key }),
            None => Err(PayloadFault::Missing { kind: type_name(self.kind), key }),
        };
        check_id(&self.id)?;
        // The ids the host gives the events it writes (`receipt|KEY`, the timers' `timer:schedule:…` and
        // `timer:silence:…`) name events of those types only: an event of another type holding one would
        // keep the host's own out of the log, which keeps each `(id, rev)` once.
        for (prefix, kind) in RESERVED_IDS {
            if self.id.starts_with(prefix) && self.kind != kind {
                return Err(PayloadFault::ReservedId { prefix, kind: type_name(kind) });
            }
        }
        match self.kind {
            EventType::Utterance | EventType::Message => {
                need_str("speaker")?;
                need_str("text")
            }
            EventType::Silence => match self.payload.get("millis") {
                Some(v) if v.as_u64().is_some() => Ok(()),
                Some(_) => Err(PayloadFault::Millis),
                None => Err(PayloadFault::Missing { kind: "silence", key: "millis" }),
            },
            EventType::MeetingStart => {
                need_str("title")?;
                need_str("host")
            }
            EventType::MeetingEnd => Ok(()),
            EventType::Schedule => need_str("name"),
            EventType::Receipt => {
                need_str("agent")?;
                need_str("key")?;
                need_str("capability")?;
                need_str("verb")
            }
        }
    }
}

/// Id prefixes the host gives the events it writes, each with the one type such an event has.
const RESERVED_IDS: [(&str, EventType); 3] = [
    ("receipt|", EventType::Receipt),
    ("timer:schedule:", EventType::Schedule),
    ("timer:silence:", EventType::Silence),
];

/// The longest event id, in bytes. An id travels inside every effect's `Idempotency-Key` header, and a
/// receiver refuses a header past a few KiB for good.
pub const MAX_EVENT_ID_BYTES: usize = 1_024;

/// An id must be able to travel as it is: it is part of each effect's key, which goes out as an HTTP
/// header (and in a reflex's environment). A header value carries printable ASCII only, and a receiver
/// trims spaces at its ends; an id with a control character (CR LF above all), another character or
/// such a space could never be delivered under its own key, so it is refused here, where the sender can
/// still be told, rather than found at delivery.
fn check_id(id: &str) -> Result<(), PayloadFault> {
    if id.is_empty() {
        return Err(PayloadFault::NoId);
    }
    if id.len() > MAX_EVENT_ID_BYTES {
        return Err(PayloadFault::IdTooLong { len: id.len() });
    }
    if let Some((at, c)) = id.char_indices().find(|(_, c)| !matches!(c, ' '..='~')) {
        return Err(PayloadFault::IdCannotTravel { code: c as u32, at });
    }
    if id.starts_with(' ') || id.ends_with(' ') {
        return Err(PayloadFault::IdSpaceAtEnd);
    }
    Ok(())
}

/// What an event's payload lacks for its type, naming the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PayloadFault {
    #[error("id is empty")]
    NoId,
    #[error("id is {len} bytes, more than {MAX_EVENT_ID_BYTES}")]
    IdTooLong { len: usize },
    #[error(
        "id holds U+{code:04X} at byte {at}; an id is sent in an Idempotency-Key header, which carries printable ASCII only"
    )]
    IdCannotTravel { code: u32, at: usize },
    #[error("id begins or ends with a space, which a receiver trims from its Idempotency-Key header")]
    IdSpaceAtEnd,
    #[error("payload.{key} must be a string")]
    NotAString { key: &'static str },
    #[error("a {kind} event needs payload.{key}")]
    Missing { kind: &'static str, key: &'static str },
    #[error("an id beginning `{prefix}` is the host's for a {kind} event, and this event is not one")]
    ReservedId { prefix: &'static str, kind: &'static str },
    #[error("payload.millis must be a whole number of milliseconds")]
    Millis,
}

pub fn type_name(kind: EventType) -> &'static str {
    match kind {
        EventType::Utterance => "utterance",
        EventType::Message => "message",
        EventType::Silence => "silence",
        EventType::MeetingStart => "meeting_start",
        EventType::MeetingEnd => "meeting_end",
        EventType::Schedule => "schedule",
        EventType::Receipt => "receipt",
    }
}

/// Reads a JSON-lines log. Blank lines and lines starting `#` are skipped. Any bad line refuses the whole
/// log before anything runs (a log with a hole in it is not the log the program is a function of); the
/// refusal names every bad line, up to a bound, with its number and reason.
pub fn read_log(text: &str) -> Result<Vec<Event>, Error> {
    let mut events = Vec::new();
    let mut bad = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if bad.len() >= MAX_REPORTED_BAD_LINES {
            break;
        }
        if line.len() > MAX_EVENT_LINE_BYTES {
            bad.push((n, format!("the line is {} bytes, more than {MAX_EVENT_LINE_BYTES}", line.len())));
            continue;
        }
        if events.len() >= MAX_EVENTS {
            bad.push((n, format!("the log holds more than {MAX_EVENTS} events")));
            break;
        }
        let value: Value = match serde_json::from_str(trimmed) {
            Ok(value) => value,
            Err(e) => {
                bad.push((n, format!("not JSON: {}", strip_position(&e.to_string()))));
                continue;
            }
        };
        match serde_json::from_value::<Event>(value) {
            Ok(event) => match event.check_payload() {
                Ok(()) => events.push(event),
                Err(fault) => bad.push((n, fault.to_string())),
            },
            Err(e) => bad.push((n, e.to_string())),
        }
    }
    if bad.is_empty() { Ok(events) } else { Err(Error::BadLog(bad)) }
}

/// serde's message ends "at line 1 column N" of the one line it read; the log's own line number is given
/// instead.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

/// The order the runtime consumes a log in, and which events it drops as superseded or redelivered.
///
/// - A revision supersedes by `(id, rev)`: of the events sharing an id, those with a lower `rev` than the
///   highest are dropped. Events with the same `(id, rev)` are a redelivery: the first in log order is
///   kept and the others are dropped, as `serve`'s log stores an `(id, rev)` once; so a redelivered line
///   reaches neither an agent nor a partition's transcript a second time.
/// - Events are ordered by `t_event`, ties kept in log order: within a partition that is the partition's
///   order, and partitions interleave by event time (per-agent memory is shared across partitions, so one
///   total order is needed to make it a function of the log).
pub fn order(events: Vec<Event>) -> Ordered {
    let mut highest: HashMap<&str, u64> = HashMap::new();
    for e in &events {
        let rev = highest.entry(e.id.as_str()).or_insert(e.rev);
        *rev = (*rev).max(e.rev);
    }
    let mut seen: std::collections::HashSet<(&str, u64)> = std::collections::HashSet::new();
    let (mut superseded, mut redelivered) = (0, 0);
    let keep: Vec<bool> = events
        .iter()
        .map(|e| {
            if highest.get(e.id.as_str()) != Some(&e.rev) {
                superseded += 1;
                false
            } else if !seen.insert((e.id.as_str(), e.rev)) {
                redelivered += 1;
                false
            } else {
                true
            }
        })
        .collect();
    let mut kept: Vec<Event> = events.into_iter().zip(keep).filter_map(|(e, k)| k.then_some(e)).collect();
    kept.sort_by_key(|e| e.t_event);
    Ordered { events: kept, superseded, redelivered }
}

/// A log in the order the runtime consumes it, with how many events it dropped.
#[derive(Debug, Clone, PartialEq)]
pub struct Ordered {
    pub events: Vec<Event>,
    /// Events dropped for a higher `rev` of their id.
    pub superseded: usize,
    /// Events dropped as a second delivery of an `(id, rev)` already in the log.
    pub redelivered: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(id: &str, t: u64, rev: u64, text: &str) -> String {
        format!(
            r#"{{"id":"{id}","partition":{{"workspace":"w","room":"r"}},"type":"message","payload":{{"speaker":"s","text":"{text}"}},"t_event":{t},"rev":{rev}}}"#
        )
    }

    #[test]
    fn a_bad_line_is_refused_with_its_number_and_reason() {
        let log = format!(
            "{}\n\nnot json\n{}\n{}\n",
            line("a", 1, 0, "x"),
            line("b", 2, 0, "y"),
            r#"{"id":"c","partition":{"workspace":"w","room":"r"},"type":"message","payload":{"text":"z"},"t_event":3}"#
        );
        let Err(Error::BadLog(bad)) = read_log(&log) else { panic!("refused") };
        assert_eq!(bad.len(), 2);
        assert_eq!(bad[0].0, 3);
        assert_eq!(bad[0].1, "not JSON: expected ident");
        assert_eq!(bad[1], (5, "a message event needs payload.speaker".to_string()));
    }

    #[test]
    fn a_payload_names_the_key_it_lacks() {
        let event = |payload: &str| -> Event {
            serde_json::from_str(&format!(
                r#"{{"id":"a","partition":{{"workspace":"w","room":"r"}},"type":"silence","payload":{payload},"t_event":1}}"#
            ))
            .unwrap()
        };
        assert_eq!(event("{}").check_payload(), Err(PayloadFault::Missing { kind: "silence", key: "millis" }));
        assert_eq!(event(r#"{"millis":"soon"}"#).check_payload(), Err(PayloadFault::Millis));
        assert_eq!(event(r#"{"millis":40}"#).check_payload(), Ok(()));
    }

    #[test]
    fn an_id_that_cannot_travel_in_a_header_is_refused() {
        let ids = ["a\\r\\nX-Injected: 1", "tab\\tid", "caf\u{e9}", " lead", "m-1 ok_2"];
        let log: Vec<String> = ids.iter().enumerate().map(|(i, id)| line(id, i as u64, 0, "x")).collect();
        let Err(Error::BadLog(bad)) = read_log(&log.join("\n")) else { panic!("refused") };
        let lines: Vec<usize> = bad.iter().map(|(n, _)| *n).collect();
        assert_eq!(lines, vec![1, 2, 3, 4], "{bad:?}");
        assert!(bad[0].1.starts_with("id holds U+000D at byte 1; "), "{}", bad[0].1);
        assert!(bad[2].1.starts_with("id holds U+00E9 at byte 3; "), "{}", bad[2].1);
        assert!(read_log(&log[4]).is_ok());
        let long = "x".repeat(MAX_EVENT_ID_BYTES + 1);
        let Err(Error::BadLog(bad)) = read_log(&line(&long, 1, 0, "x")) else { panic!("refused") };
        assert_eq!(bad[0].1, format!("id is {} bytes, more than {MAX_EVENT_ID_BYTES}", long.len()));
    }

    #[test]
    fn a_partition_is_a_room_or_a_channel() {
        let with = |partition: &str| {
            format!(
                r#"{{"id":"a","partition":{partition},"type":"message","payload":{{"speaker":"s","text":"t"}},"t_event":1}}"#
            )
        };
        let channel = read_log(&with(r##"{"workspace":"w","channel":"#support"}"##)).unwrap();
        let room = read_log(&with(r##"{"workspace":"w","room":"#support"}"##)).unwrap();
        // One slot, `room|channel`: the same partition either way, so it orders and routes the same.
        assert_eq!(channel[0].partition, room[0].partition);
        assert_eq!(channel[0].partition.room, "#support");
        let Err(Error::BadLog(both)) = read_log(&with(r#"{"workspace":"w","room":"r","channel":"c"}"#)) else {
            panic!("refused")
        };
        assert!(both[0].1.contains("`room` or `channel`, not both"), "{}", both[0].1);
        let Err(Error::BadLog(neither)) = read_log(&with(r#"{"workspace":"w"}"#)) else { panic!("refused") };
        assert!(neither[0].1.contains("needs `room` or `channel`"), "{}", neither[0].1);
    }

    #[test]
    fn unknown_fields_and_types_are_refused() {
        let extra = r#"{"id":"a","partition":{"workspace":"w","room":"r"},"type":"message","payload":{},"t_event":1,"when":"now"}"#;
        assert!(matches!(read_log(extra), Err(Error::BadLog(_))));
        let kind = r#"{"id":"a","partition":{"workspace":"w","room":"r"},"type":"shout","payload":{},"t_event":1}"#;
        assert!(matches!(read_log(kind), Err(Error::BadLog(_))));
    }

    #[test]
    fn revisions_supersede_and_time_orders() {
        let log = [line("a", 5, 0, "old"), line("b", 1, 0, "first"), line("a", 6, 1, "new"), line("b", 1, 0, "again")]
            .join("\n");
        let ordered = order(read_log(&log).unwrap());
        assert_eq!((ordered.superseded, ordered.redelivered), (1, 1));
        let seen: Vec<(&str, &str)> = ordered.events.iter().map(|e| (e.id.as_str(), e.text())).collect();
        // The redelivered `b` is dropped: the first delivery stands, as serve's log keeps it.
        assert_eq!(seen, vec![("b", "first"), ("a", "new")]);
    }
}
