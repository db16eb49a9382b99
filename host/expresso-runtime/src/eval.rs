//! `exec` of the operational semantics: a behavior's body evaluated left to right. Its only two non-trivial leaves are MODEL,
//! memoized in J by journal key, and WORLD, guarded in W by idempotency key; everything else is a pure
//! function of the event, the frames, the agent's memory and values already journaled.

use crate::bounds::{MAX_FOR_ITEMS, MAX_STEPS_PER_FIRING};
use crate::error::Error;
use crate::event::Event;
use crate::exec::{Outcome, Step, scalar_schema};
use crate::frame::Conversation;
use crate::keys;
use crate::provider::{LeafRequest, Provider, RequestKind};
use crate::store::Store;
use crate::value::{compare, contains, equal, number, render, render_duration, truthy};
use expresso_lang::Span;
use expresso_lang::ast::{Action, Agent, BinOp, Block, Expr, ExprKind, KeyPart, Program, Stmt, StrPart};
use expresso_lang::schema::{Kind, Schema};
use serde_json::{Map, Value, json};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// What every firing shares: the stores, the provider, the leaf table and the outcome.
/// Where an applied effect is dispatched, as it is applied: the world port. An error fails the run closed.
/// A borrowed closure, so a runtime holding one has no drop glue and its stores are free once it is done.
/// The error is the port's own words (a sink of another crate), carried into the run's fault.
pub type Sink<'a> = &'a mut dyn FnMut(&Value) -> Result<(), String>;

pub(crate) struct Ports<'a> {
    pub sink: Option<Sink<'a>>,
    pub journal: &'a mut dyn Store,
    pub world: &'a mut dyn Store,
    pub provider: &'a dyn Provider,
    pub outcome: Outcome,
    pub record: bool,
    /// Each leaf's schema and prompt, shared so a call does not copy the schema.
    pub leaves: HashMap<String, Rc<(Schema, Option<String>)>>,
    pub bool_schema: Schema,
    pub text_schema: Schema,
    /// Where the checker typed a value written as text a duration, as `(start, end)`: it is written as one.
    pub durations: HashSet<(usize, usize)>,
}

impl<'a> Ports<'a> {
    pub fn new(
        program: &Program,
        durations: &[Span],
        journal: &'a mut dyn Store,
        world: &'a mut dyn Store,
        provider: &'a dyn Provider,
    ) -> Self {
        let mut leaves = HashMap::new();
        let mut ordered: Vec<_> = program.leaves.iter().collect();
        ordered.sort_by_key(|l| l.span.start);
        for leaf in ordered {
            leaves.entry(leaf.name.text.clone()).or_insert_with(|| Rc::new((leaf.schema.clone(), leaf.prompt.clone())));
        }
        Ports {
            sink: None,
            journal,
            world,
            provider,
            outcome: Outcome::default(),
            record: true,
            leaves,
            bool_schema: scalar_schema(Kind::Bool),
            text_schema: scalar_schema(Kind::Text),
            durations: durations.iter().map(|s| (s.start, s.end)).collect(),
        }
    }

    /// MODEL(J, fId, leaf, req): the journaled value when J holds the key; else the provider's answer,
    /// validated against the schema and then journaled. A misfit is a fault and is not journaled.
    #[allow(clippy::too_many_arguments)]
    pub fn model(
        &mut self,
        event: &Event,
        firing_id: &str,
        leaf_path: &str,
        leaf: &str,
        kind: RequestKind,
        schema: &Schema,
        prompt: Option<&str>,
        input: &str,
    ) -> Result<Value, Error> {
        let key = keys::journal_key(firing_id, leaf_path);
        if let Some(value) = self.journal.get(&key) {
            schema.validate(value).map_err(|reason| Error::StaleJournal { key: key.clone(), reason })?;
            let value = value.clone();
            self.outcome.journal_hits += 1;
            if self.record {
                self.outcome.steps.push(Step::Leaf {
                    event: event.id.clone(),
                    key,
                    fresh: false,
                    value: value.clone(),
                });
            }
            return Ok(value);
        }
        self.outcome.provider_calls += 1;
        let request = LeafRequest { key: &key, leaf, kind, schema, prompt, input, t_event: event.t_event };
        if self.sink.is_some() && self.provider.waits(&request) {
            // The effects handed out so far are recorded before a provider is waited on, which may take
            // minutes (its faults asked again): a run stopped meanwhile does not hand them out again.
            self.world.flush()?;
            self.journal.flush()?;
        }
        let value = self.provider.answer(&request).map_err(|message| Error::Provider { key: key.clone(), message })?;
        schema.validate(&value).map_err(|reason| Error::Misfit { key: key.clone(), reason })?;
        self.journal.put(key.clone(), value.clone())?;
        if self.record {
            self.outcome.steps.push(Step::Leaf { event: event.id.clone(), key, fresh: true, value: value.clone() });
        }
        Ok(value)
    }

    /// WORLD(W, idemKey, payload): nothing when W holds the key; else the receipt is recorded and the
    /// effect is applied (here: handed out in the outcome, for the host to dispatch).
    fn world(
        &mut self,
        event: &Event,
        leaf_path: &str,
        class: &str,
        mut receipt: Map<String, Value>,
    ) -> Result<(), Error> {
        let key = keys::idem_key(&event.id, leaf_path, class);
        if self.world.get(&key).is_some() {
            self.outcome.deduped_effects += 1;
            if self.record {
                let receipt = self.world.get(&key).cloned().unwrap_or(Value::Null);
                self.outcome.steps.push(Step::Effect { event: event.id.clone(), key, applied: false, receipt });
            }
            return Ok(());
        }
        // The key first, so a printed line starts with what makes it exactly-once.
        let mut keyed = Map::new();
        keyed.insert("idemKey".into(), Value::String(key.clone()));
        keyed.append(&mut receipt);
        let receipt = Value::Object(keyed);
        // Dispatched before W is flushed: a crash in between re-delivers (at least once), never loses it.
        if let Some(sink) = self.sink.as_mut() {
            sink(&receipt).map_err(|message| Error::Port { key: key.clone(), message })?;
        }
        self.world.put(key.clone(), receipt.clone())?;
        self.outcome.new_effects += 1;
        self.outcome.effects.push(receipt.clone());
        if self.record {
            self.outcome.steps.push(Step::Effect { event: event.id.clone(), key, applied: true, receipt });
        }
        Ok(())
    }
}

/// One firing: the event, its frames, the regex captures, the loop index chain and the let-scopes.
pub(crate) struct Firing<'f> {
    agent: &'f Agent,
    event: &'f Event,
    conversation: &'f Conversation,
    site: String,
    firing_id: String,
    captures: Vec<Option<String>>,
    loops: Vec<usize>,
    scopes: Vec<Vec<(String, Value)>>,
    steps: usize,
}

impl<'f> Firing<'f> {
    pub fn new(
        agent: &'f Agent,
        event: &'f Event,
        conversation: &'f Conversation,
        site: String,
        firing_id: String,
        captures: Vec<Option<String>>,
    ) -> Firing<'f> {
        Firing {
            agent,
            event,
            conversation,
            site,
            firing_id,
            captures,
            loops: Vec::new(),
            scopes: Vec::new(),
            steps: 0,
        }
    }

    pub fn block(&mut self, block: &Block, ports: &mut Ports, memory: &mut Map<String, Value>) -> Result<(), Error> {
        self.scopes.push(Vec::new());
        let result = block.iter().try_for_each(|s| self.stmt(s, ports, memory));
        self.scopes.pop();
        result
    }

    fn stmt(&mut self, stmt: &Stmt, ports: &mut Ports, memory: &mut Map<String, Value>) -> Result<(), Error> {
        self.steps += 1;
        if self.steps > MAX_STEPS_PER_FIRING {
            return Err(Error::StepBound { at: self.firing_id.clone(), bound: MAX_STEPS_PER_FIRING });
        }
        match stmt {
            Stmt::Let { name, value, .. } => {
                let v = self.expr(value, ports, memory)?;
                if let Some(scope) = self.scopes.last_mut() {
                    scope.push((name.text.clone(), v));
                }
            }
            Stmt::If { cond, then, otherwise, .. } => {
                if truthy(&self.expr(cond, ports, memory)?) {
                    self.block(then, ports, memory)?;
                } else if let Some(other) = otherwise {
                    self.block(other, ports, memory)?;
                }
            }
            Stmt::For { var, list, body, .. } => {
                let items = match self.expr(list, ports, memory)? {
                    Value::Array(items) => items,
                    other => {
                        return Err(Error::Type {
                            at: self.firing_id.clone(),
                            message: format!("`for` over {other}, which is not a list"),
                        });
                    }
                };
                if items.len() > MAX_FOR_ITEMS {
                    return Err(Error::ForBound {
                        at: self.firing_id.clone(),
                        items: items.len(),
                        bound: MAX_FOR_ITEMS,
                    });
                }
                for (i, item) in items.into_iter().enumerate() {
                    self.loops.push(i);
                    self.scopes.push(vec![(var.text.clone(), item)]);
                    let result = self.block(body, ports, memory);
                    self.scopes.pop();
                    self.loops.pop();
                    result?;
                }
            }
            Stmt::Remember { name, add, value, .. } => {
                let v = self.expr(value, ports, memory)?;
                let old = memory.get(&name.text).cloned().unwrap_or(Value::Null);
                let new = if !*add {
                    v
                } else {
                    match old {
                        Value::Number(n) => number(n.as_f64().unwrap_or(0.0) + v.as_f64().unwrap_or(0.0)),
                        Value::Array(mut items) => {
                            items.push(v);
                            Value::Array(items)
                        }
                        other => {
                            let tail = if ports.durations.contains(&(value.span.start, value.span.end)) {
                                render_duration(&v)
                            } else {
                                render(&v)
                            };
                            Value::String(format!("{}{tail}", render(&other)))
                        }
                    }
                };
                memory.insert(name.text.clone(), new);
            }
            Stmt::Action(action) => self.action(action, ports, memory)?,
        }
        Ok(())
    }

    fn action(&mut self, action: &Action, ports: &mut Ports, memory: &mut Map<String, Value>) -> Result<(), Error> {
        let mut args = Map::new();
        for (key, expr) in &action.args {
            let v = self.expr(expr, ports, memory)?;
            args.insert(key.text.clone(), v);
        }
        let path = keys::leaf_path(&self.site, action.key_part(), &self.loops, &action.verb.text);
        let mut receipt = Map::new();
        receipt.insert("effect".into(), json!(action.cap));
        receipt.insert("verb".into(), json!(action.verb.text));
        receipt.insert("agent".into(), json!(self.agent.name.text));
        receipt.insert("event".into(), json!(self.event.id));
        receipt.insert("t_event".into(), json!(self.event.t_event));
        receipt.insert("args".into(), Value::Object(args));
        ports.world(self.event, &path, &action.cap, receipt)
    }

    fn lookup(&self, name: &str, memory: &Map<String, Value>) -> Value {
        for scope in self.scopes.iter().rev() {
            if let Some((_, v)) = scope.iter().rev().find(|(n, _)| n == name) {
                return v.clone();
            }
        }
        if let Some(v) = memory.get(name) {
            return v.clone();
        }
        match name {
            "transcript" => Value::String(self.conversation.transcript()),
            "meeting" => self.conversation.meeting(),
            // An enum case named bare (`c.kind == bug`): the checker allowed it only there.
            _ => Value::String(name.to_string()),
        }
    }

    fn binding(&self, path: &[String]) -> Value {
        let Some((first, rest)) = path.split_first() else { return Value::Null };
        let mut value = match first.as_str() {
            "match" => match rest.first().and_then(|n| n.parse::<usize>().ok()) {
                Some(n) => {
                    return self.captures.get(n).cloned().flatten().map_or(Value::Null, Value::String);
                }
                None => return self.captures.first().cloned().flatten().map_or(Value::Null, Value::String),
            },
            // `.message` reads a message's (or an utterance's) text.
            "message" => Value::String(self.event.text().to_string()),
            "id" => Value::String(self.event.id.clone()),
            "room" | "channel" => Value::String(self.event.partition.room.clone()),
            other => self.event.payload.get(other).cloned().unwrap_or(Value::Null),
        };
        for segment in rest {
            value = match value {
                Value::Object(map) => map.get(segment).cloned().unwrap_or(Value::Null),
                Value::Array(items) => {
                    segment.parse::<usize>().ok().and_then(|i| items.get(i).cloned()).unwrap_or(Value::Null)
                }
                _ => Value::Null,
            };
        }
        value
    }

    fn expr(&mut self, expr: &Expr, ports: &mut Ports, memory: &mut Map<String, Value>) -> Result<Value, Error> {
        Ok(match &expr.kind {
            ExprKind::Str(parts) => {
                let mut text = String::new();
                for part in parts {
                    match part {
                        StrPart::Lit(t) => text.push_str(t),
                        StrPart::Interp(e) => {
                            let value = self.expr(e, ports, memory)?;
                            if ports.durations.contains(&(e.span.start, e.span.end)) {
                                text.push_str(&render_duration(&value));
                            } else {
                                text.push_str(&render(&value));
                            }
                        }
                    }
                }
                Value::String(text)
            }
            ExprKind::Num(n) => number(*n),
            ExprKind::Bool(b) => Value::Bool(*b),
            ExprKind::Dur(d) => Value::from(*d),
            ExprKind::Tag(t) => Value::String(format!("#{t}")),
            ExprKind::Binding(path) => self.binding(path),
            ExprKind::Var(name) => self.lookup(name, memory),
            ExprKind::Field(base, field) => match self.expr(base, ports, memory)? {
                Value::Object(map) => map.get(&field.text).cloned().unwrap_or(Value::Null),
                _ => Value::Null,
            },
            ExprKind::SpanOf(span) => Value::String(self.conversation.span(*span, self.event)),
            ExprKind::Binary(op, left, right) => {
                let l = self.expr(left, ports, memory)?;
                // `and` and `or` do not evaluate the right side when the left decides: a model leaf there
                // is not called, and replay decides the same way from the same journaled left side.
                match op {
                    BinOp::And if !truthy(&l) => return Ok(Value::Bool(false)),
                    BinOp::Or if truthy(&l) => return Ok(Value::Bool(true)),
                    _ => {}
                }
                let r = self.expr(right, ports, memory)?;
                Value::Bool(match op {
                    BinOp::And | BinOp::Or => truthy(&r),
                    BinOp::Eq => equal(&l, &r),
                    BinOp::Ne => !equal(&l, &r),
                    BinOp::Gt => compare(&l, &r) == Some(std::cmp::Ordering::Greater),
                    BinOp::Lt => compare(&l, &r) == Some(std::cmp::Ordering::Less),
                    BinOp::Ge => {
                        matches!(compare(&l, &r), Some(std::cmp::Ordering::Greater | std::cmp::Ordering::Equal))
                    }
                    BinOp::Le => matches!(compare(&l, &r), Some(std::cmp::Ordering::Less | std::cmp::Ordering::Equal)),
                    BinOp::Contains => contains(&l, &r),
                })
            }
            ExprKind::Summarize { arg, ordinal, id } => {
                let input = render(&self.expr(arg, ports, memory)?);
                let path = keys::leaf_path(&self.site, KeyPart::of(*ordinal, id.as_ref()), &self.loops, "summarize");
                let schema = ports.text_schema.clone();
                ports.model(
                    self.event,
                    &self.firing_id,
                    &path,
                    "summarize",
                    RequestKind::Summarize,
                    &schema,
                    None,
                    &input,
                )?
            }
            ExprKind::Leaf { name, arg, ordinal, id } => {
                let input = render(&self.expr(arg, ports, memory)?);
                let path = keys::leaf_path(&self.site, KeyPart::of(*ordinal, id.as_ref()), &self.loops, &name.text);
                let Some(leaf) = ports.leaves.get(&name.text).cloned() else {
                    return Err(Error::Type {
                        at: self.firing_id.clone(),
                        message: format!("no leaf named `{}`", name.text),
                    });
                };
                ports.model(
                    self.event,
                    &self.firing_id,
                    &path,
                    &name.text,
                    RequestKind::Leaf,
                    &leaf.0,
                    leaf.1.as_deref(),
                    &input,
                )?
            }
        })
    }
}
