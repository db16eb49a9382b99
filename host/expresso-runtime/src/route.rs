//! Trigger-aware routing: `lives in` sets an agent's default home, but an agent that declares a
//! behavior for a kind of event receives that kind regardless of its home, so a declared behavior can
//! always fire.
//!
//! - `routes(a, e)`: some behavior of `a` has a trigger for `e`'s type. If none, E-Skip.
//! - `structural_ok(a, b, e)`: `b`'s trigger is for `e`'s type, `e` is in `b`'s scope, and the trigger's
//!   details hold (a silence at least as long, the schedule named, the phase). If not, E-NoFire.
//!
//! A `receipt` event routes only to the agent whose action it answers, and an utterance or message an
//! agent's own words came back as (its payload's `agent` is the agent's name) does not route to that agent.
//!
//! A behavior's scope is its own `in #tag` when it has one; otherwise the agent's home tag when the home
//! is the place that kind of event happens in (a channel for messages, a meeting for utterances,
//! silences and meeting phases); otherwise everywhere. A tag matches a partition's room written with or
//! without its `#`.

use crate::event::{Event, EventType};
use expresso_lang::ast::{Agent, Behavior, Phase, Place, Trigger};
use serde_json::Value;

/// The event type a trigger listens to.
pub fn listens_to(trigger: &Trigger) -> EventType {
    match trigger {
        Trigger::Says { .. } => EventType::Utterance,
        Trigger::Message { .. } => EventType::Message,
        Trigger::Silence { .. } => EventType::Silence,
        Trigger::Meeting { phase: Phase::Starts, .. } => EventType::MeetingStart,
        Trigger::Meeting { phase: Phase::Ends, .. } => EventType::MeetingEnd,
        Trigger::Schedule { .. } => EventType::Schedule,
        Trigger::Receipt { .. } => EventType::Receipt,
    }
}

/// The agent an event came from, when the host wrote it: an agent's words fed back, or its receipt.
pub fn from_agent(event: &Event) -> Option<&str> {
    event.payload.get("agent").and_then(Value::as_str)
}

pub fn routes(agent: &Agent, event: &Event) -> bool {
    match event.kind {
        // A receipt is its own agent's alone.
        EventType::Receipt if from_agent(event) != Some(agent.name.text.as_str()) => return false,
        // An agent does not hear its own words (it hears them as receipts, with `on receipt`, if it asks).
        EventType::Utterance | EventType::Message if from_agent(event) == Some(agent.name.text.as_str()) => {
            return false;
        }
        _ => {}
    }
    agent.behaviors.iter().any(|b| listens_to(&b.trigger) == event.kind)
}

pub fn structural_ok(agent: &Agent, behavior: &Behavior, event: &Event) -> bool {
    if listens_to(&behavior.trigger) != event.kind {
        return false;
    }
    if let Trigger::Receipt { filter, .. } = &behavior.trigger {
        // A receipt has no place of its own to scope it: the filter names a capability or a verb.
        let field = |k: &str| event.payload.get(k).and_then(Value::as_str);
        return from_agent(event) == Some(agent.name.text.as_str())
            && filter.as_deref().is_none_or(|f| field("capability") == Some(f) || field("verb") == Some(f));
    }
    let own_tag = match &behavior.trigger {
        Trigger::Message { tag, .. } => tag.as_deref(),
        _ => None,
    };
    let home_tag = agent.home.as_ref().and_then(|home| {
        let place = if event.kind == EventType::Message { Place::Channel } else { Place::Meeting };
        (home.place == place).then_some(home.tag.as_deref()).flatten()
    });
    if let Some(tag) = own_tag.or(home_tag)
        && event.partition.room.trim_start_matches('#') != tag
    {
        return false;
    }
    match &behavior.trigger {
        Trigger::Silence { millis, .. } => {
            event.payload.get("millis").and_then(Value::as_u64).is_some_and(|m| m >= *millis)
        }
        Trigger::Schedule { name, .. } => event.payload.get("name").and_then(Value::as_str) == Some(name.as_str()),
        _ => true,
    }
}
