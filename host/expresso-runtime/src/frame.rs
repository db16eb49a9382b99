//! The frames bound per firing: `transcript`, the partition's conversation so far as
//! `Speaker: text` lines, and `meeting`, `{ title, host }` of the partition's current meeting; and the
//! spans a leaf reads, cut from the same lines by event time.

use crate::bounds::{MAX_TRANSCRIPT_LINES, RECENT_MILLIS};
use crate::event::{Event, EventType, Partition};
use expresso_lang::ast::SpanRef;
use serde_json::{Value, json};
use std::collections::{HashMap, VecDeque};

#[derive(Debug, Clone, Default)]
pub struct Conversation {
    /// `(t_event, "Speaker: text")`, oldest first.
    lines: VecDeque<(u64, String)>,
    meeting: Option<(String, String)>,
}

impl Conversation {
    pub fn transcript(&self) -> String {
        self.lines.iter().map(|(_, l)| l.as_str()).collect::<Vec<_>>().join("\n")
    }

    pub fn meeting(&self) -> Value {
        match &self.meeting {
            Some((title, host)) => json!({ "title": title, "host": host }),
            None => json!({ "title": "", "host": "" }),
        }
    }

    /// The text of a span at an event: `meeting` is the whole conversation so far, `recent` the last five
    /// minutes of it, `last D` the lines at or after `t_event − D`, `here..end_of_turn` the event's text.
    pub fn span(&self, span: SpanRef, event: &Event) -> String {
        let since = |millis: u64| {
            let from = event.t_event.saturating_sub(millis);
            self.lines.iter().filter(|(t, _)| *t >= from).map(|(_, l)| l.as_str()).collect::<Vec<_>>().join("\n")
        };
        match span {
            SpanRef::Meeting => self.transcript(),
            SpanRef::Recent => since(RECENT_MILLIS),
            SpanRef::Last(millis) => since(millis),
            SpanRef::HereToEndOfTurn => event.text().to_string(),
        }
    }
}

/// Every partition's conversation, updated by each event before the agents see it, so a firing's
/// transcript includes the line that fired it.
#[derive(Debug, Clone, Default)]
pub struct Conversations {
    by_partition: HashMap<Partition, Conversation>,
}

impl Conversations {
    /// The event's partition's conversation as it is, without adding the event to it.
    pub fn get(&self, event: &Event) -> Option<&Conversation> {
        self.by_partition.get(&event.partition)
    }

    pub fn observe(&mut self, event: &Event) -> &Conversation {
        let conversation = self.by_partition.entry(event.partition.clone()).or_default();
        match event.kind {
            EventType::MeetingStart => {
                conversation.lines.clear();
                let get = |k: &str| event.payload.get(k).and_then(Value::as_str).unwrap_or("").to_string();
                conversation.meeting = Some((get("title"), get("host")));
            }
            EventType::Utterance | EventType::Message => {
                if conversation.lines.len() >= MAX_TRANSCRIPT_LINES {
                    conversation.lines.pop_front();
                }
                conversation.lines.push_back((event.t_event, format!("{}: {}", event.speaker(), event.text())));
            }
            _ => {}
        }
        conversation
    }
}
