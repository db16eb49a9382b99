//! Driving one decision: the core's [`Decider`] hands out each round's questions, the adapter answers
//! them under the decision's deadline, the answers are validated, and the core reads them. This is one of
//! the two places evoke touches the world.

use crate::cache::AnswerCache;
use evoke_core::adapter::{Adapter, Cancel, Gate, Raw, State};
use evoke_core::catalog::Catalog;
use evoke_core::decide::{Decider, Refusal};
use evoke_core::decision::Decision;
use evoke_core::question::Questions;
use evoke_core::recognize::Candidate;
use evoke_core::validate::{AnswerFault, Answers, validate};
use serde::Serialize;
use std::time::{Duration, Instant};

/// The deadline of one decision, shared with its body's run (000 §6.3).
pub const DEADLINE: Duration = Duration::from_secs(30);

/// One adapter call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TraceEntry {
    pub adapter: String,
    pub questions: Vec<String>,
    pub ms: u64,
}

/// One round as the log keeps it: the questions asked and the adapter's raw answer.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Round {
    pub questions: Vec<String>,
    pub raw: Raw,
}

#[derive(Debug, Clone)]
pub struct Decided {
    pub decision: Decision,
    pub trace: Vec<TraceEntry>,
    pub rounds: Vec<Round>,
    pub answers: Answers,
    pub candidates: Vec<Candidate>,
}

/// Why a decision failed closed. Every kind exits 6: nothing ran.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Failure {
    Input { refusal: Refusal },
    Answer { fault: AnswerFault },
    Adapter { message: String },
    Deadline { seconds: u64 },
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Input { refusal } => write!(f, "refused: {refusal}"),
            Failure::Answer { fault } => write!(f, "refused: {fault}"),
            Failure::Adapter { message } => write!(f, "refused: the engine gave no answer: {message}"),
            Failure::Deadline { seconds } => {
                write!(f, "refused: the {seconds}-second deadline passed while deciding; nothing ran")
            }
        }
    }
}

#[derive(Debug, Clone)]
pub struct Failed {
    pub failure: Failure,
    pub trace: Vec<TraceEntry>,
    pub rounds: Vec<Round>,
}

/// What a decision is asked with.
pub struct Request<'a> {
    pub catalog: &'a Catalog,
    pub adapter: &'a dyn Adapter,
    pub gate: Option<Gate>,
    pub plan: &'a str,
    pub cache: Option<&'a AnswerCache>,
    pub deadline: Instant,
}

pub async fn decide(request: &Request<'_>, input: &str) -> Result<Decided, Failed> {
    let mut trace = Vec::new();
    let mut rounds = Vec::new();
    let fail = |failure, trace, rounds| Failed { failure, trace, rounds };
    let mut decider = match Decider::new(request.catalog, request.gate, input) {
        Ok(decider) => decider,
        Err(refusal) => return Err(fail(Failure::Input { refusal }, trace, rounds)),
    };
    let mut answers = Answers::new();
    while let Some(questions) = decider.questions() {
        let raw = match ask(request, input, &questions, &mut trace).await {
            Ok(raw) => raw,
            Err(failure) => return Err(fail(failure, trace, rounds)),
        };
        rounds.push(Round { questions: questions.ids().map(str::to_string).collect(), raw: raw.clone() });
        let validated = match validate(&questions, &raw) {
            Ok(validated) => validated,
            Err(fault) => return Err(fail(Failure::Answer { fault }, trace, rounds)),
        };
        answers.extend(validated.clone());
        decider.feed(&validated);
    }
    let candidates = decider.candidates().to_vec();
    let decision = decider.decision().cloned().expect("a decider without questions has decided");
    Ok(Decided { decision, trace, rounds, answers, candidates })
}

/// One round: from the cache when it holds the answer, else one adapter call raced against the deadline.
async fn ask(request: &Request<'_>, input: &str, questions: &Questions, trace: &mut Vec<TraceEntry>) -> Result<Raw, Failure> {
    let adapter = request.adapter;
    let key = request.cache.filter(|_| adapter.cacheable()).map(|c| (c, AnswerCache::key(adapter.id(), request.plan, input, questions)));
    if let Some((cache, key)) = &key {
        if let Some(raw) = cache.get(key) {
            return Ok(raw);
        }
    }
    let remaining = request.deadline.saturating_duration_since(Instant::now());
    let state = State { request: input.to_string() };
    let cancel = Cancel::new();
    let started = Instant::now();
    let answer = tokio::time::timeout(remaining, adapter.answer(&state, questions, &cancel)).await;
    let raw = match answer {
        Err(_) => {
            cancel.cancel();
            return Err(Failure::Deadline { seconds: DEADLINE.as_secs() });
        }
        Ok(Err(e)) => return Err(Failure::Adapter { message: e.message }),
        Ok(Ok(raw)) => raw,
    };
    if adapter.cacheable() {
        trace.push(TraceEntry {
            adapter: adapter.id().to_string(),
            questions: questions.ids().map(str::to_string).collect(),
            ms: started.elapsed().as_millis() as u64,
        });
    }
    if let Some((cache, key)) = &key {
        // Only an answer that validates is worth keeping; the caller validates, so keep it after.
        if validate(questions, &raw).is_ok() {
            cache.put(key, &raw);
        }
    }
    Ok(raw)
}
