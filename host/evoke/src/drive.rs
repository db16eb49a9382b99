//! Driving one decision: the core's [`Decider`] hands out each round's questions, the adapter answers
//! them under the decision's deadline, the answers are validated, and the core reads them. This is one of
//! the two places evoke touches the world.

use crate::cache::AnswerCache;
use evoke_core::adapter::{Adapter, Cancel, Gate, Raw, State};
use evoke_core::catalog::Catalog;
use evoke_core::decide::{Decider, Refusal};
use evoke_core::decision::Decision;
use evoke_core::question::{QuestionId, Questions};
use evoke_core::recognize::Candidate;
use evoke_core::validate::{AnswerFault, Answers, validate};
use serde::Serialize;
use std::time::{Duration, Instant};

/// The deadline of one decision, shared with its body's run.
pub const DEADLINE: Duration = Duration::from_secs(30);

/// One adapter call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TraceEntry {
    pub adapter: String,
    pub questions: Vec<QuestionId>,
    pub ms: u64,
}

/// One round as the log keeps it: the questions asked and the adapter's raw answer.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Round {
    pub questions: Vec<QuestionId>,
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
    Input {
        refusal: Refusal,
    },
    Answer {
        fault: AnswerFault,
    },
    Adapter {
        message: String,
    },
    Deadline {
        seconds: u64,
    },
    /// A sentence with more places to cut, or more parts, than a plan holds.
    Weave {
        reason: evoke_core::weave::TooMany,
    },
    /// No decision could be made here: the project is not trusted, its files do not read, or its engine
    /// is not known. `message` is the error a person sees, its fix apart.
    Project {
        message: String,
    },
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
            Failure::Weave { reason } => write!(f, "refused: {reason}; nothing ran"),
            Failure::Project { message } => write!(f, "refused: {message}; nothing was decided"),
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
    /// What the person reviewed of the playbooks: a plan of one runs without the whole plan confirmed first
    /// only while what it runs is what they said yes to. `None`: nothing is reviewed.
    pub reviews: Option<&'a dyn crate::playbook::Reviews>,
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
        let raw = match ask(request, input, questions, &mut trace).await {
            Ok(raw) => raw,
            Err(failure) => return Err(fail(failure, trace, rounds)),
        };
        let validated = validate(questions, &raw);
        rounds.push(Round { questions: questions.ids().cloned().collect(), raw });
        let validated = match validated {
            Ok(validated) => validated,
            Err(fault) => return Err(fail(Failure::Answer { fault }, trace, rounds)),
        };
        decider.feed(&validated);
        answers.extend(validated);
    }
    let candidates = decider.candidates().to_vec();
    let decision = decider.decision().cloned().expect("a decider without questions has decided");
    Ok(Decided { decision, trace, rounds, answers, candidates })
}

/// One round: from the cache when it holds the answer, else one adapter call raced against the deadline.
pub(crate) async fn ask(
    request: &Request<'_>,
    input: &str,
    questions: &Questions,
    trace: &mut Vec<TraceEntry>,
) -> Result<Raw, Failure> {
    let adapter = request.adapter;
    let key = request
        .cache
        .filter(|_| adapter.cacheable())
        .map(|c| (c, AnswerCache::key(adapter.id(), request.plan, input, questions)));
    if let Some((cache, key)) = &key
        && let Some(raw) = cache.get(key, questions)
    {
        return Ok(raw);
    }
    let remaining = request.deadline.saturating_duration_since(Instant::now());
    let state = State { request: input.to_string() };
    let cancel = Cancel::new();
    let started = Instant::now();
    let answer = tokio::time::timeout(remaining, adapter.answer(&state, questions, &cancel)).await;
    // An engine that computes inside `answer` or inside one poll holds this thread, so the timer cannot
    // fire until it returns: an answer that arrives after the deadline is refused all the same, never read.
    // The built-in engines compute on a thread of their own, so the timer stops them on time.
    let late = Instant::now() >= request.deadline;
    let raw = match answer {
        Err(_) => {
            cancel.cancel();
            return Err(Failure::Deadline { seconds: DEADLINE.as_secs() });
        }
        Ok(_) if late => {
            cancel.cancel();
            return Err(Failure::Deadline { seconds: DEADLINE.as_secs() });
        }
        Ok(Err(e)) => return Err(Failure::Adapter { message: e.message }),
        Ok(Ok(raw)) => raw,
    };
    if adapter.cacheable() {
        trace.push(TraceEntry {
            adapter: adapter.id().to_string(),
            questions: questions.ids().cloned().collect(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use evoke_core::adapter::{AdapterError, AnswerFuture};
    use evoke_core::catalog::Reflex;
    use evoke_core::decide::Refusal;
    use evoke_core::decision::Value;
    use evoke_core::manifest::read_manifest;
    use std::sync::atomic::{AtomicUsize, Ordering};

    const TIMER: &str = r#"
reflex = 1
description = "Start a countdown timer."
effect = "write"
confirm = "Start a timer for {duration}?"
run = "timer.mjs"
[args.duration]
ask = "For how long?"
pick = "duration"
"#;

    /// A request to `adapter` over `catalog`, answers kept in `cache`, with the whole deadline ahead.
    fn cached<'a>(catalog: &'a Catalog, adapter: &'a Sure, cache: &'a AnswerCache) -> Request<'a> {
        Request {
            catalog,
            adapter,
            gate: adapter.gate(),
            plan: "p",
            cache: Some(cache),
            deadline: Instant::now() + DEADLINE,
            reviews: None,
        }
    }

    /// A request to `adapter` over `catalog`, nothing cached, with `ahead` until the deadline.
    fn uncached<'a>(catalog: &'a Catalog, adapter: &'a dyn Adapter, ahead: Duration) -> Request<'a> {
        Request {
            catalog,
            adapter,
            gate: adapter.gate(),
            plan: "p",
            cache: None,
            deadline: Instant::now() + ahead,
            reviews: None,
        }
    }

    fn catalog() -> Catalog {
        let manifest = read_manifest("reflex.toml", TIMER, &|_: &str| true).value.unwrap();
        Catalog::new(vec![Reflex { name: "timer".into(), manifest, vocabs: Default::default() }])
    }

    /// The gate of the engines that answer with certainty.
    const SURE_GATE: Gate = Gate { route: 0.5, fits: None, read: 0.6, write: 0.8 };

    /// Answers every question with certainty on its first key, and counts its calls.
    struct Sure {
        calls: AtomicUsize,
    }

    impl Sure {
        fn new() -> Sure {
            Sure { calls: AtomicUsize::new(0) }
        }
    }

    impl Adapter for Sure {
        fn id(&self) -> &str {
            "sure-1"
        }
        fn gate(&self) -> Option<Gate> {
            Some(SURE_GATE)
        }
        fn answer<'a>(&'a self, _: &'a State, questions: &'a Questions, _: &'a Cancel) -> AnswerFuture<'a> {
            self.calls.fetch_add(1, Ordering::SeqCst);
            Box::pin(std::future::ready(Ok(certain(questions))))
        }
    }

    /// Every question answered with certainty on its first key.
    fn certain(questions: &Questions) -> Raw {
        questions
            .0
            .iter()
            .map(|(id, q)| (id.to_string(), [(q.keys()[0].to_string(), 1.0)].into_iter().collect()))
            .collect()
    }

    /// Never answers, and ignores its signal: it must be raced against the deadline anyway.
    struct Silent;

    impl Adapter for Silent {
        fn id(&self) -> &str {
            "silent"
        }
        fn gate(&self) -> Option<Gate> {
            None
        }
        fn answer<'a>(&'a self, _: &'a State, _: &'a Questions, _: &'a Cancel) -> AnswerFuture<'a> {
            Box::pin(std::future::pending::<Result<Raw, AdapterError>>())
        }
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap()
    }

    #[test]
    fn the_deadline_stops_an_adapter_that_never_answers() {
        let catalog = catalog();
        let request = uncached(&catalog, &Silent, Duration::from_millis(50));
        let started = Instant::now();
        let failed = runtime().block_on(decide(&request, "set a timer for 10 minutes")).unwrap_err();
        assert_eq!(failed.failure, Failure::Deadline { seconds: 30 });
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    /// Computes before it returns its future, and ignores its signal: the host cannot preempt it, so it
    /// must refuse what it answers after the deadline.
    struct Stubborn;

    impl Adapter for Stubborn {
        fn id(&self) -> &str {
            "stubborn"
        }
        fn gate(&self) -> Option<Gate> {
            Some(SURE_GATE)
        }
        fn answer<'a>(&'a self, state: &'a State, questions: &'a Questions, cancel: &'a Cancel) -> AnswerFuture<'a> {
            std::thread::sleep(Duration::from_millis(300));
            let _ = (state, cancel);
            Box::pin(std::future::ready(Ok(certain(questions))))
        }
    }

    #[test]
    fn an_answer_computed_past_the_deadline_is_refused_not_read() {
        let catalog = catalog();
        let request = uncached(&catalog, &Stubborn, Duration::from_millis(50));
        let failed = runtime().block_on(decide(&request, "set a timer for 10 minutes")).unwrap_err();
        assert_eq!(failed.failure, Failure::Deadline { seconds: 30 });
    }

    #[test]
    fn an_empty_input_is_refused_before_any_call() {
        let (catalog, dir, adapter) = (catalog(), tempfile::tempdir().unwrap(), Sure::new());
        let cache = AnswerCache::new(dir.path());
        let request = cached(&catalog, &adapter, &cache);
        for input in ["", "   ", " \u{3000} "] {
            let failed = runtime().block_on(decide(&request, input)).unwrap_err();
            assert_eq!(failed.failure, Failure::Input { refusal: Refusal::Empty }, "{input:?}");
            assert!(failed.trace.is_empty() && failed.rounds.is_empty());
        }
        assert_eq!(adapter.calls.load(Ordering::SeqCst), 0, "no engine is asked about nothing");
    }

    #[test]
    fn a_whitespace_variant_is_not_answered_with_the_other_texts_offsets() {
        let (catalog, dir, adapter) = (catalog(), tempfile::tempdir().unwrap(), Sure::new());
        let cache = AnswerCache::new(dir.path());
        let request = cached(&catalog, &adapter, &cache);
        let rt = runtime();
        rt.block_on(decide(&request, "set a timer for 10 minutes")).unwrap();
        // One identity, but the span now starts one character later: 17-27, not 16-26.
        let second = rt.block_on(decide(&request, "set a timer for  10 minutes")).unwrap_or_else(|f| {
            panic!("the variant failed closed: {}", f.failure);
        });
        let Some(Value::Pick { span, .. }) = second.decision.args.as_ref().and_then(|a| a.get("duration")) else {
            panic!("no duration: {:?}", second.decision);
        };
        assert_eq!((span.start, span.end, span.text.as_str()), (17, 27, "10 minutes"));
        assert_eq!(second.trace.len(), 1, "the route came from the cache, the details from the engine");
    }

    #[test]
    fn a_cached_answer_that_does_not_fit_its_questions_is_a_miss() {
        let (catalog, dir, adapter) = (catalog(), tempfile::tempdir().unwrap(), Sure::new());
        let cache = AnswerCache::new(dir.path());
        let request = cached(&catalog, &adapter, &cache);
        let input = "set a timer for 10 minutes";
        let route = catalog.route_round();
        let bad: Raw = [("route".to_string(), [("elsewhere".to_string(), 1.0)].into_iter().collect())].into();
        cache.put(&AnswerCache::key(adapter.id(), "p", input, route), &bad);
        let decided = runtime().block_on(decide(&request, input)).unwrap();
        assert_eq!(decided.trace.len(), 2, "both rounds asked the engine");
        assert_eq!(decided.decision.reflex.as_deref(), Some("timer"));
    }

    #[test]
    fn a_cached_answer_makes_no_call_and_no_trace() {
        let (catalog, dir, adapter) = (catalog(), tempfile::tempdir().unwrap(), Sure::new());
        let cache = AnswerCache::new(dir.path());
        let request = cached(&catalog, &adapter, &cache);
        let rt = runtime();
        let first = rt.block_on(decide(&request, "set a timer for 10 minutes")).unwrap();
        assert_eq!(first.trace.len(), 2, "route, then fits and the argument");
        assert_eq!(adapter.calls.load(Ordering::SeqCst), 2);
        let second = rt.block_on(decide(&request, "Set a timer for 10 minutes!")).unwrap();
        assert!(second.trace.is_empty(), "the same input under identity is answered from the cache");
        assert_eq!(adapter.calls.load(Ordering::SeqCst), 2);
        assert_eq!(first.decision.outcome, second.decision.outcome);
        assert_eq!(second.decision.call.as_deref(), Some("timer duration=\"10 minutes\""));
    }
}
