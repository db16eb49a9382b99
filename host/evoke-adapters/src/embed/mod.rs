//! `embed`, the built-in engine that reads with a sentence encoder (a BERT-family model such as
//! all-MiniLM-L6-v2) run in evoke's process on CPU. The user names the model directory in the home
//! `evoke.toml`:
//!
//! ```toml
//! [adapters.embed]
//! model = "/home/me/.cache/evoke/models/all-MiniLM-L6-v2"
//! ```
//!
//! The route compares the request's vector with the vector of every description, example and `not_for`
//! entry; a fit reads the route again; an argument's options and vocabulary words are read as `local`
//! reads them (a key or word said, a lexicon word, a quoted name), and the encoder adds what their
//! meanings and the examples that assert them say. Picks and flags are read as `local` reads them: a
//! span is an exact piece of the request, which an encoder cannot place.
//!
//! The reflex side of every question is embedded once and kept in the cache place, keyed by the model's
//! hash and the question's texts (which come from the manifests); a warm decision embeds only the
//! request. Every number is computed in one fixed order, so the same request and the same project give
//! the same answers, bit for bit.

pub mod calibration;
pub mod lexical;
mod store;

pub use calibration::{GATE, Params};
pub use evoke_embed::settle_thread_count;

use crate::engine::{Shared, constants_digest};
use crate::local::args::{self, Reading};
use crate::local::routing::{answered_as_route, fit_as_route, plain};
use crate::local::thread::Worker;
use crate::local::{ArgParams, literal, words};
use evoke_core::adapter::{AdapterError, AnswerFuture, Cancel, Gate, Raw, State};
use evoke_core::question::{NO, NONE, Question, QuestionId, Questions, Text, UNSTATED, YES};
use evoke_embed::head::{self, Fitting, Head};
use evoke_embed::{EmbedError, Encoder, dot};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// How many distinct questions' vectors are kept in memory.
const KEPT: usize = 64;

/// A distribution over keys, in the order offered.
type Distribution = Arc<Vec<(String, f64)>>;

/// The engine, shared with the thread it answers on.
pub type Embed = Shared<Engine>;

pub struct Engine {
    id: String,
    encoder: Arc<Encoder>,
    params: Params,
    arg_params: ArgParams,
    gate: Gate,
    store: store::Store,
    /// The last request's vector.
    request: Mutex<Option<(String, Arc<Vec<f32>>)>>,
    /// The last route read, so that the fits of the same request do not read it again.
    last: Mutex<Option<(String, [u8; 32], Distribution)>>,
    /// The route questions read, by the hash of their texts, newest last.
    routes: Mutex<Vec<([u8; 32], Arc<Route>)>>,
    worker: Worker,
    /// A test's hook: how long each answer takes on top of its computing.
    slow: std::time::Duration,
}

/// What one text of a route question is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Description,
    Example,
    NotFor,
}

/// A route question with its texts' vectors.
struct Route {
    /// Every key offered, in order, and whether it is the sentinel.
    keys: Vec<(String, bool)>,
    /// Per reflex (the keys that are not the sentinel, in order): its key and description.
    reflexes: Vec<(String, String)>,
    /// Per text: the reflex it belongs to and what it is.
    docs: Vec<(usize, Kind)>,
    vectors: Arc<Vec<Vec<f32>>>,
    /// Per text: its words as numbers ([`lexical::features`]), which the head reads beside its vector.
    lexical: Vec<Vec<f32>>,
    /// The question's texts' hash, which the head is kept under.
    key: [u8; 32],
}

/// Why `[adapters.embed]` is refused.
fn setting_error(message: impl Into<String>) -> String {
    message.into()
}

impl Embed {
    /// From the home file's `[adapters.embed]` table, its vectors kept under `cache` (evoke's cache
    /// place).
    pub fn from_table(table: Option<&toml::Table>, cache: &Path) -> Result<Embed, String> {
        let mut model: Option<PathBuf> = None;
        for (key, value) in table.into_iter().flatten() {
            match key.as_str() {
                "model" => match value.as_str() {
                    Some(s) if !s.trim().is_empty() => model = Some(expand_home(s)),
                    _ => {
                        return Err(setting_error(
                            "[adapters.embed] model must name a directory: model = \"/path/to/all-MiniLM-L6-v2\"",
                        ));
                    }
                },
                other => {
                    return Err(setting_error(format!(
                        "[adapters.embed] has no setting `{other}`; it takes model = \"DIRECTORY\""
                    )));
                }
            }
        }
        let Some(model) = model else {
            return Err(setting_error(format!(
                "[adapters.embed] names no model: add model = \"DIRECTORY\" under [adapters.embed] in your home \
                 evoke.toml, the directory of a sentence encoder in the Hugging Face layout ({})",
                evoke_embed::FIX
            )));
        };
        if !model.is_absolute() {
            return Err(setting_error(format!(
                "[adapters.embed] model = {:?} is not an absolute path: write the whole path, or one starting with ~/",
                model.display().to_string()
            )));
        }
        let encoder = Encoder::load_memo(&model, Some(&cache.join("embed"))).map_err(|e| e.to_string())?;
        Ok(Embed::new(Arc::new(encoder), Params::default(), ArgParams::default(), GATE, Some(cache.join("embed"))))
    }

    /// With a loaded encoder and other constants: what the benchmark tunes. `cache` is the directory the
    /// reflex side's vectors are kept in, or `None` to keep them in memory only.
    pub fn new(
        encoder: Arc<Encoder>,
        params: Params,
        arg_params: ArgParams,
        gate: Gate,
        cache: Option<PathBuf>,
    ) -> Embed {
        let digest = constants_digest(&format!("{}\n{params:?}\n{arg_params:?}\n{gate:?}", calibration::VERSION));
        let id = format!("embed/{} {} {digest}", calibration::VERSION, &encoder.hash()[..12]);
        let store = store::Store::new(encoder.clone(), cache, KEPT);
        Shared(Arc::new(Engine {
            id,
            encoder,
            params,
            arg_params,
            gate,
            store,
            request: Mutex::new(None),
            last: Mutex::new(None),
            routes: Mutex::new(Vec::new()),
            worker: Worker::new("evoke-embed"),
            slow: std::time::Duration::ZERO,
        }))
    }

    /// A copy that takes `slow` longer over every answer: the deadline's test.
    #[doc(hidden)]
    pub fn slowed(&self, slow: std::time::Duration) -> Embed {
        let e = &self.0;
        let mut copy =
            Embed::new(e.encoder.clone(), e.params, e.arg_params, e.gate, e.store.dir().map(Path::to_path_buf));
        Arc::get_mut(&mut copy.0).expect("a new engine").slow = slow;
        copy
    }
}

/// `~/x` as the home directory's `x`.
fn expand_home(path: &str) -> PathBuf {
    match path.strip_prefix("~/") {
        Some(rest) => match std::env::var_os("HOME") {
            Some(home) => PathBuf::from(home).join(rest),
            None => PathBuf::from(path),
        },
        None => PathBuf::from(path),
    }
}

/// The sha256 of every text of a question: the key its vectors are kept under.
fn texts_hash(question: &Question) -> [u8; 32] {
    let mut h = Sha256::new();
    let mut put = |s: &str| {
        h.update((s.len() as u64).to_le_bytes());
        h.update(s.as_bytes());
    };
    match question {
        Question::Choice { ask, options, otherwise } => {
            put("choice");
            put(ask);
            put(otherwise.as_deref().unwrap_or(""));
            for (key, text) in &options.0 {
                put(key);
                match text {
                    Text::Plain(s) => put(s),
                    Text::Rich { what, not_for, examples } => {
                        put(what);
                        put(&format!("{} {}", not_for.len(), examples.len()));
                        not_for.iter().chain(examples).for_each(|s| put(s));
                    }
                }
            }
        }
        Question::Yesno { ask, yes, no } => {
            put("yesno");
            put(ask);
            put(plain(yes));
            put(plain(no));
        }
    }
    h.finalize().into()
}

/// The texts an option or vocabulary question is read against, in the order its vectors are kept: each
/// value's meaning (with its key), then the examples that assert it. `values` are the options less the
/// question's sentinels.
fn option_texts(values: &[&(String, Text)]) -> Vec<String> {
    let mut texts = Vec::new();
    for (key, text) in values {
        let meaning = plain(text);
        texts.push(if meaning.is_empty() { key.clone() } else { format!("{key}: {meaning}") });
        if let Text::Rich { examples, .. } = text {
            texts.extend(examples.iter().cloned());
        }
    }
    texts
}

/// The values of an option or vocabulary question whose vectors the encoder reads: none for a pick or a
/// flag, which are read from the words alone.
fn encoded_values(question: &Question) -> Vec<&(String, Text)> {
    let Question::Choice { options, otherwise, .. } = question else { return Vec::new() };
    let otherwise = otherwise.as_deref().unwrap_or(UNSTATED);
    let is_sentinel = |k: &str| k == otherwise || k == NONE || k == UNSTATED;
    let flag = options.contains(YES) && options.contains(NO);
    // A pick's options are spans of the input (`3-5`), or `<kind>` in a template.
    let picks = options.0.iter().any(|(k, _)| {
        k.starts_with('<')
            || k.split_once('-').is_some_and(|(a, b)| a.parse::<usize>().is_ok() && b.parse::<usize>().is_ok())
    });
    if flag || picks {
        return Vec::new();
    }
    options.0.iter().filter(|(k, _)| !is_sentinel(k)).collect()
}

impl Engine {
    /// The encoder this engine reads with.
    pub fn encoder(&self) -> &Encoder {
        &self.encoder
    }

    /// The request as the head reads it, computed once per request: its sentence vector, then its words'
    /// numbers where they have a weight. Every other reading takes the sentence vector alone
    /// ([`Engine::sentence`]).
    fn request_vector(&self, request: &str) -> Result<Arc<Vec<f32>>, AdapterError> {
        if let Some((r, v)) = self.request.lock().unwrap_or_else(|e| e.into_inner()).as_ref()
            && r == request
        {
            return Ok(v.clone());
        }
        let mut v = self.encoder.embed_one(request).map_err(|e| AdapterError::new(e.to_string()))?;
        if self.params.lexical != 0.0 {
            v.extend(lexical::features(request, self.params.lexical));
        }
        let v = Arc::new(v);
        *self.request.lock().unwrap_or_else(|e| e.into_inner()) = Some((request.to_string(), v.clone()));
        Ok(v)
    }

    /// The sentence vector of a request as the head reads it ([`Engine::request_vector`]).
    fn sentence<'q>(&self, q: &'q [f32]) -> &'q [f32] {
        &q[..q.len().min(self.encoder.dim())]
    }

    /// How many numbers the route's head reads of a text: its sentence vector, and its words' where they
    /// have a weight.
    fn head_inputs(&self) -> usize {
        self.encoder.dim() + if self.params.lexical != 0.0 { lexical::BUCKETS } else { 0 }
    }

    /// The route question made ready: its texts' vectors, from memory, the cache place, or the encoder.
    fn route_of(&self, question: &Question) -> Result<([u8; 32], Arc<Route>), AdapterError> {
        self.route_counting(question, &mut |_| {})
    }

    /// [`Engine::route_of`], telling `done` how many of its texts are read.
    fn route_counting(
        &self,
        question: &Question,
        done: &mut dyn FnMut(usize),
    ) -> Result<([u8; 32], Arc<Route>), AdapterError> {
        let key = texts_hash(question);
        {
            let routes = self.routes.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((_, r)) = routes.iter().find(|(k, _)| *k == key) {
                return Ok((key, r.clone()));
            }
        }
        let Question::Choice { options, otherwise, .. } = question else {
            return Err(AdapterError::new("a route is a choice"));
        };
        let mut keys = Vec::new();
        let mut reflexes = Vec::new();
        let mut docs = Vec::new();
        let mut texts: Vec<&str> = Vec::new();
        for (k, text) in &options.0 {
            let sentinel = Some(k.as_str()) == otherwise.as_deref();
            keys.push((k.clone(), sentinel));
            if sentinel {
                continue;
            }
            let i = reflexes.len();
            reflexes.push((k.clone(), plain(text).to_string()));
            texts.push(plain(text));
            docs.push((i, Kind::Description));
            if let Text::Rich { examples, not_for, .. } = text {
                for e in examples {
                    texts.push(e);
                    docs.push((i, Kind::Example));
                }
                for n in not_for {
                    texts.push(n);
                    docs.push((i, Kind::NotFor));
                }
            }
        }
        let vectors = self.store.vectors_counting(&key, &texts, done).map_err(|e| AdapterError::new(e.to_string()))?;
        let lexical = texts.iter().map(|t| lexical::features(t, self.params.lexical)).collect();
        let route = Arc::new(Route { keys, reflexes, docs, vectors, lexical, key });
        let mut routes = self.routes.lock().unwrap_or_else(|e| e.into_inner());
        if routes.len() >= 8 {
            routes.remove(0);
        }
        routes.push((key, route.clone()));
        Ok((key, route))
    }

    /// Each reflex's route score for a request's vector under other constants, in the order offered.
    pub fn route_scores(&self, question: &Question, q: &[f32], params: &Params) -> Result<Vec<f32>, AdapterError> {
        let (_, route) = self.route_of(question)?;
        Ok(scores(&route, q, params))
    }

    /// Each reflex's logit in the route's logistic head fitted so, in the order offered.
    pub fn head_logits(&self, question: &Question, q: &[f32], fitting: Fitting) -> Result<Vec<f32>, AdapterError> {
        let (_, route) = self.route_of(question)?;
        Ok(head::logits(&self.head_of(&route, fitting)?, q))
    }

    /// The route's logistic head, fitted to its descriptions and examples (each labelled with its reflex)
    /// once, and kept beside its vectors. A decision fits a small head itself; a large one not kept fails
    /// the decision closed, naming `evoke trust`, rather than spend the decision's deadline on it.
    fn head_of(&self, route: &Route, fitting: Fitting) -> Result<Arc<Vec<Vec<f32>>>, AdapterError> {
        self.head_counting(route, fitting, Some(DECISION_FIT), &mut |_| {})
    }

    /// [`Engine::head_of`], fitting a head of any cost when `budget` is `None` (`evoke trust` computing
    /// ahead), and telling `done` how many of the fit's steps are taken (all at once when it was kept).
    fn head_counting(
        &self,
        route: &Route,
        fitting: Fitting,
        budget: Option<usize>,
        done: &mut dyn FnMut(usize),
    ) -> Result<Arc<Vec<Vec<f32>>>, AdapterError> {
        let classes = route.reflexes.len();
        let word_places = self.head_inputs() - self.encoder.dim();
        let width = self.head_inputs() + 1;
        // Whether the fit was refused, which is no fault of the encoder's.
        let mut refused = false;
        let head = self
            .store
            .derived(&route.key, &format!("head {fitting:?} words {}", self.params.lexical), classes, width, || {
                let (xs, labels): (Vec<Vec<f32>>, Vec<usize>) = route
                    .docs
                    .iter()
                    .zip(route.vectors.iter().zip(&route.lexical))
                    .filter(|((_, kind), _)| *kind != Kind::NotFor)
                    .map(|((i, _), (v, l))| {
                        let mut x = v.clone();
                        if word_places > 0 {
                            x.extend(l);
                        }
                        (x, *i)
                    })
                    .unzip();
                if let Some(budget) = budget
                    && fitting.cost(xs.len(), classes, width - 1) > budget
                {
                    refused = true;
                    return Err(EmbedError(not_fitted(classes)));
                }
                Ok(Head::fit_counting(&xs, &labels, classes, fitting, done).rows)
            })
            .map_err(|e| AdapterError::new(if refused { not_fitted(classes) } else { e.to_string() }))?;
        done(fitting.steps);
        Ok(head)
    }

    /// The route's distribution for a request's vector under other constants: what the benchmark tunes.
    pub fn route_with(
        &self,
        question: &Question,
        q: &[f32],
        params: &Params,
    ) -> Result<Vec<(String, f64)>, AdapterError> {
        let (_, route) = self.route_of(question)?;
        self.distribution(&route, q, params)
    }

    /// The route's distribution (see [`distribution`]), with the head's logits where it has a weight.
    fn distribution(&self, route: &Route, q: &[f32], p: &Params) -> Result<Vec<(String, f64)>, AdapterError> {
        let head = if p.head != 0.0 { Some(head::logits(&self.head_of(route, p.head_fitting)?, q)) } else { None };
        Ok(distribution(route, self.sentence(q), p, head.as_deref()))
    }
}

/// The most a decision fits of a route's head that `evoke trust` did not fit ahead, in the units of
/// [`Fitting::cost`]: about as long as the encoder takes over 330 texts, a few seconds of a decision's
/// deadline. A few hundred reflexes' head fits within it; a thousand's does not.
pub const DECISION_FIT: usize = 330;

/// Why a decision did not fit a route's head of `classes` reflexes, and the fix.
fn not_fitted(classes: usize) -> String {
    format!(
        "the embed engine's classifier over {classes} reflexes is not fitted yet, and fitting it would take \
         most of a decision's deadline; run `evoke trust` to fit it ahead"
    )
}

/// Each reflex's score for a request vector, in order.
fn scores(route: &Route, q: &[f32], p: &Params) -> Vec<f32> {
    let n = route.reflexes.len();
    let mut best = vec![[f32::NEG_INFINITY; 2]; n];
    let mut description = vec![0.0f32; n];
    let mut not_for = vec![f32::NEG_INFINITY; n];
    let sims = evoke_embed::dots(&route.vectors, q);
    for ((i, kind), s) in route.docs.iter().zip(sims) {
        match kind {
            Kind::Description => {
                description[*i] = s;
                keep_two(&mut best[*i], s * p.description_as_example);
            }
            Kind::Example => keep_two(&mut best[*i], s),
            Kind::NotFor => not_for[*i] = not_for[*i].max(s),
        }
    }
    (0..n)
        .map(|i| {
            let [a, b] = best[i];
            let b = if b.is_finite() { b } else { a };
            let near = p.nearest * a + (1.0 - p.nearest) * b;
            // An author's `not_for` entry counts once the request is as near it as `none`'s threshold,
            // even when an example is nearer still: "is the kitchen light on" is nearer the example
            // "turn on the kitchen lights" than "asking whether a light is on", and must not switch it.
            let penalty = (not_for[i] - a.min(p.threshold)).max(0.0);
            near + p.description * description[i] - p.not_for * penalty
        })
        .collect()
}

/// The route's distribution. The nearest texts say whether the request asks for any reflex: `none`
/// takes `σ(none_sharpness · (threshold − s))`, where `s` is the best reflex's score. The head says which:
/// the rest is shared among the reflexes by a softmax of the head's logits times its weight, plus `beta`
/// times their scores. `none` never reads the head, because a classifier over three reflexes is sure of
/// one of them whatever it reads; the head never reads how near the request is, because its logits'
/// level moves with how many reflexes there are.
pub fn route_distribution(scores: &[f32], head: Option<(&[f32], f32)>, p: &Params, has_none: bool) -> (Vec<f64>, f64) {
    let nearest = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let none = if has_none && nearest.is_finite() {
        let z = f64::from(p.none_sharpness) * f64::from(p.threshold - nearest);
        1.0 / (1.0 + (-z).exp())
    } else if has_none {
        1.0
    } else {
        0.0
    };
    let beta = f64::from(p.beta);
    let logits: Vec<f64> = match head {
        Some((h, w)) => {
            scores.iter().zip(h).map(|(s, h)| beta * f64::from(*s) + f64::from(w) * f64::from(*h)).collect()
        }
        None => scores.iter().map(|s| beta * f64::from(*s)).collect(),
    };
    let max = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = logits.iter().map(|z| (z - max).exp()).collect();
    let total: f64 = weights.iter().sum();
    (weights.iter().map(|w| (1.0 - none) * w / total).collect(), none)
}

fn distribution(route: &Route, q: &[f32], p: &Params, head: Option<&[f32]>) -> Vec<(String, f64)> {
    let scores = scores(route, q, p);
    let has_none = route.keys.iter().any(|(_, s)| *s);
    let (reflexes, none) = route_distribution(&scores, head.map(|h| (h, p.head)), p, has_none);
    let mut out = Vec::with_capacity(route.keys.len());
    let mut next = 0;
    for (key, sentinel) in &route.keys {
        if *sentinel {
            out.push((key.clone(), none));
        } else {
            out.push((key.clone(), reflexes[next]));
            next += 1;
        }
    }
    out
}

impl Engine {
    fn route(&self, request: &str, question: &Question) -> Result<([u8; 32], Distribution), AdapterError> {
        let (key, route) = self.route_of(question)?;
        {
            let last = self.last.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((r, k, d)) = last.as_ref()
                && r == request
                && *k == key
            {
                return Ok((key, d.clone()));
            }
        }
        let q = self.request_vector(request)?;
        let d = Arc::new(self.distribution(&route, &q, &self.params)?);
        *self.last.lock().unwrap_or_else(|e| e.into_inner()) = Some((request.to_string(), key, d.clone()));
        Ok((key, d))
    }

    /// A fit: the route's probability of the reflex, from the route question that offered it with this
    /// description; with none at hand, the fit's own texts stand as a route of one reflex.
    fn fit(&self, request: &str, name: &str, question: &Question) -> Result<f64, AdapterError> {
        let Question::Yesno { yes, no, .. } = question else { return Ok(0.0) };
        let description = plain(yes);
        let routes: Vec<([u8; 32], Arc<Route>)> = self.routes.lock().unwrap_or_else(|e| e.into_inner()).clone();
        for (key, route) in routes.iter().rev() {
            if !route.reflexes.iter().any(|(k, d)| k == name && d == description) {
                continue;
            }
            let last = self.last.lock().unwrap_or_else(|e| e.into_inner()).clone();
            let d = match last {
                Some((r, k, d)) if r == request && k == *key => d,
                _ => Arc::new(self.distribution(route, &self.request_vector(request)?, &self.params)?),
            };
            return Ok(d.iter().find(|(k, _)| k == name).map_or(0.0, |(_, p)| *p));
        }
        let alone = fit_as_route(name, description, no);
        let (_, d) = self.route(request, &alone)?;
        Ok(d.iter().find(|(k, _)| k == name).map_or(0.0, |(_, p)| *p))
    }

    /// An option or vocabulary question: `local`'s reading of the words said, moved by how near the
    /// request is to each option's meaning and to the examples that assert it.
    fn choice(
        &self,
        request: &str,
        reading: &Reading,
        question: &Question,
    ) -> Result<Vec<(String, f64)>, AdapterError> {
        let lexical = args::answer_choice(reading, question);
        let Question::Choice { options, otherwise, .. } = question else { return Ok(lexical) };
        let otherwise = otherwise.as_deref().unwrap_or(UNSTATED);
        let is_sentinel = |k: &str| k == otherwise || k == NONE || k == UNSTATED;
        // Picks (span keys) and flags are read as `local` reads them.
        let flag = options.contains(YES) && options.contains(NO);
        if flag || literal::is_pick(question) {
            return Ok(literal::lifted(request, reading, question, lexical, self.params.arg_literal));
        }
        // Per option: its meaning (with its key), and the examples that assert it.
        let mut texts: Vec<String> = Vec::new();
        let mut owner: Vec<(usize, Source)> = Vec::new();
        let values: Vec<&(String, Text)> = options.0.iter().filter(|(k, _)| !is_sentinel(k)).collect();
        if values.is_empty() {
            return Ok(lexical);
        }
        // The value the words alone read first, when they read one: over `unstated` and `none` too, and
        // strictly (two values read alike are no reading of either).
        let top = lexical.iter().map(|(_, p)| *p).fold(f64::NEG_INFINITY, f64::max);
        let mut firsts = lexical.iter().filter(|(_, p)| *p == top).map(|(k, _)| k.as_str());
        let lexical_first = match (firsts.next(), firsts.next()) {
            (Some(k), None) if !is_sentinel(k) => Some(k),
            _ => None,
        };
        texts.extend(option_texts(&values));
        for (i, (key, text)) in values.iter().enumerate() {
            let meaning = plain(text);
            owner.push((i, Source::Meaning));
            if let Text::Rich { examples, .. } = text {
                for e in examples {
                    // An example that names its own value ("turn on the kitchen lights" for `on`) is near a
                    // request through its other words: "turn of the kitchen lights" is nearer it than any
                    // example of `off`, and read `on` at 1.00 by that nearness. Such an example teaches only
                    // where the words said already read its value first (`kill` for `off`, through the
                    // lexicon); one that does not name its value ("lights out please" for `off`) teaches by
                    // nearness alone, which is what an example is for.
                    let names_its_value = args::said_in_full(&reading.over(&words::words(e)), key, meaning);
                    let teaches = !names_its_value || lexical_first == Some(key.as_str());
                    owner.push((i, if teaches { Source::Example } else { Source::Silent }));
                }
            }
        }
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let vectors = self.store.vectors(&texts_hash(question), &refs).map_err(|e| AdapterError::new(e.to_string()))?;
        let q = self.request_vector(request)?;
        let mut meaning = vec![f32::NEG_INFINITY; values.len()];
        let mut example = vec![f32::NEG_INFINITY; values.len()];
        for ((i, source), v) in owner.iter().zip(vectors.iter()) {
            let s = dot(self.sentence(&q), v);
            let slot = match source {
                Source::Meaning => &mut meaning[*i],
                Source::Example => &mut example[*i],
                Source::Silent => continue,
            };
            *slot = slot.max(s);
        }
        // A value said in full outweighs whatever the encoder reads for another: "turn off the oven in the
        // kitchen" is near the example "turn on the kitchen lights", and read `on` by it over the `off` said.
        // Two values said ("turn off the lights on the kitchen counter") are for a person to tell apart:
        // the encoder reads neither, and the words' own reading, split between them, stands.
        // A value the words read first through the lexicon is in play as much as one said: "kill the
        // kitchen lights, they are on" reads `off` by "kill" and says `on`, and ran `on`.
        let (literal, contested) = literal::said_values(reading, &values, &lexical);
        let any_literal = literal.iter().any(|l| *l);
        let mean = meaning.iter().sum::<f32>() / meaning.len() as f32;
        let p = &self.params;
        let mut boost: BTreeMap<&str, f64> = BTreeMap::new();
        for (i, (key, _)) in values.iter().enumerate() {
            let from_meaning = p.arg_meaning * (meaning[i] - mean - p.arg_meaning_margin).max(0.0);
            // An example teaches by contrast: nearer the request than every example of another value.
            let others = example
                .iter()
                .enumerate()
                .filter(|(j, e)| *j != i && e.is_finite())
                .map(|(_, e)| *e)
                .fold(p.arg_example_floor, f32::max);
            let from_example =
                if example[i].is_finite() { p.arg_example * (example[i] - others).max(0.0) } else { 0.0 };
            // A word said in full is the strongest evidence there is for a value: the encoder only adds.
            let (encoder, literal) = match (contested, literal[i], any_literal) {
                (true, _, _) | (false, false, true) => (0.0, 0.0),
                (false, true, _) => (from_meaning + from_example, p.arg_literal),
                (false, false, false) => (from_meaning + from_example, 0.0),
            };
            boost.insert(key.as_str(), f64::from(encoder + literal));
        }
        Ok(literal::shifted(&lexical, |k| boost.get(k).copied().unwrap_or(0.0)))
    }

    /// Every question answered, synchronously.
    pub fn answer_now(&self, state: &State, questions: &Questions) -> Result<Raw, AdapterError> {
        if !self.slow.is_zero() {
            std::thread::sleep(self.slow);
        }
        let request = &state.request;
        let request_words = words::words(request);
        let said = evoke_core::mention::said_in_round(request, questions);
        // The words an example never teaches, as `local` reads them: the round's option words and each
        // reflex's description, from the route that offered it.
        let routes: Vec<([u8; 32], Arc<Route>)> = self.routes.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let common = crate::local::common_words(questions, |reflex| {
            routes.iter().rev().find_map(|(_, r)| r.reflexes.iter().find(|(k, _)| k == reflex).map(|(_, d)| d.clone()))
        });
        let empty = HashSet::new();
        let reading = |id: &QuestionId| Reading {
            request: &request_words,
            params: &self.arg_params,
            synonyms: &[],
            said: said.iter().find(|(i, _)| i == id).map(|(_, s)| s),
            common: crate::local::reflex_of(id).and_then(|r| common.get(r)).unwrap_or(&empty),
        };
        let mut raw = Raw::new();
        for (id, question) in &questions.0 {
            if let Some(answer) = crate::alone::answer(request, id, question, |s, q| self.answer_now(s, q)) {
                raw.insert(id.to_string(), answer?);
                continue;
            }
            // Where a sentence may be cut into steps: read as `local` reads it, from the words alone.
            if let Some(answer) = crate::local::weave::answer(request, id, question, questions) {
                raw.insert(id.to_string(), answer);
                continue;
            }
            let answer: BTreeMap<String, f64> = match (id, question) {
                (_, Question::Choice { .. }) if answered_as_route(id, question) => {
                    self.route(request, question)?.1.iter().cloned().collect()
                }
                (_, Question::Choice { .. }) => self.choice(request, &reading(id), question)?.into_iter().collect(),
                (QuestionId::Fits { reflex }, Question::Yesno { .. }) => {
                    [("yes".to_string(), self.fit(request, reflex, question)?)].into_iter().collect()
                }
                (_, Question::Yesno { .. }) => {
                    [("yes".to_string(), args::answer_yesno(&reading(id), question))].into_iter().collect()
                }
            };
            raw.insert(id.to_string(), answer);
        }
        Ok(raw)
    }
}

/// What a text of an option question is to the reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    /// The option's key and meaning.
    Meaning,
    /// An example asserting the option, which teaches it by nearness.
    Example,
    /// An example that names its own value where the words said do not read it first: not read.
    Silent,
}

/// Keeps the two highest values, highest first.
fn keep_two(best: &mut [f32; 2], x: f32) {
    if x > best[0] {
        best[1] = best[0];
        best[0] = x;
    } else if x > best[1] {
        best[1] = x;
    }
}

impl crate::engine::Engine for Engine {
    fn id(&self) -> &str {
        &self.id
    }

    fn gate(&self) -> Gate {
        self.gate
    }

    /// The reflex side of every route and every option or vocabulary question, read and kept now: the
    /// vectors of their texts, and each route's fitted head. Progress counts texts read, and each head's
    /// fit as the texts the encoder would read in the same time ([`Fitting::cost`]), so that the time a
    /// bar says is left holds while a head is fitted.
    fn warm(&self, questions: &Questions, progress: &mut dyn FnMut(usize, usize)) -> Result<(), AdapterError> {
        let fitting = self.params.head_fitting;
        let dim = self.head_inputs();
        // A route's texts to read, and its head's fit counted in texts.
        let route_work = |question: &Question| -> (usize, usize) {
            let Question::Choice { options, otherwise, .. } = question else {
                return (0, 0);
            };
            let (mut texts, mut examples, mut classes) = (0, 0, 0);
            for (_, t) in options.0.iter().filter(|(k, _)| Some(k.as_str()) != otherwise.as_deref()) {
                let (e, n) = match t {
                    Text::Rich { examples, not_for, .. } => (examples.len(), not_for.len()),
                    Text::Plain(_) => (0, 0),
                };
                texts += 1 + e + n;
                examples += 1 + e;
                classes += 1;
            }
            let fit = if self.params.head != 0.0 { fitting.cost(examples, classes, dim) } else { 0 };
            (texts, fit)
        };
        let total: usize = questions
            .0
            .iter()
            .map(|(id, q)| {
                if answered_as_route(id, q) {
                    let (texts, fit) = route_work(q);
                    texts + fit
                } else {
                    option_texts(&encoded_values(q)).len()
                }
            })
            .sum();
        let mut before = 0;
        for (id, question) in &questions.0 {
            if answered_as_route(id, question) {
                let (texts, fit) = route_work(question);
                let (_, route) = self.route_counting(question, &mut |n| progress(before + n, total))?;
                before += texts;
                if self.params.head != 0.0 {
                    let steps = fitting.steps.max(1);
                    self.head_counting(&route, fitting, None, &mut |s| {
                        progress(before + fit * s.min(steps) / steps, total)
                    })?;
                }
                before += fit;
                continue;
            }
            let texts = option_texts(&encoded_values(question));
            if texts.is_empty() {
                continue;
            }
            let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
            self.store
                .vectors_counting(&texts_hash(question), &refs, &mut |n| progress(before + n, total))
                .map_err(|e| AdapterError::new(e.to_string()))?;
            before += texts.len();
        }
        Ok(())
    }

    fn answer_later(self: Arc<Self>, state: State, questions: Questions, cancel: Cancel) -> AnswerFuture<'static> {
        let engine = self.clone();
        self.worker.answer(move || {
            // A decision stopped (its deadline, or the user's signal) before its turn is not computed.
            if cancel.is_cancelled() {
                return Err(AdapterError::new("the decision was cancelled before embed answered"));
            }
            let raw = engine.answer_now(&state, &questions)?;
            if cancel.is_cancelled() {
                return Err(AdapterError::new("the decision was cancelled while embed answered"));
            }
            Ok(raw)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decision_fits_clincs_head_and_leaves_a_thousand_reflexes_to_trust() {
        // CLINC150's 150 reflexes and 1,650 texts; a generated project of 1,000 and 11,000.
        let fitting = Params::default().head_fitting;
        // The head reads each text's sentence vector and its words' numbers.
        let inputs = 384 + lexical::BUCKETS;
        assert!(fitting.cost(1_650, 150, inputs) <= DECISION_FIT);
        assert!(fitting.cost(11_000, 1_000, inputs) > DECISION_FIT);
    }

    #[test]
    fn the_head_shares_out_what_none_leaves_and_never_moves_none() {
        let p = Params { beta: 15.0, ..Params::default() };
        let scores = [0.5f32, 0.45, 0.2];
        let (alone, none_alone) = route_distribution(&scores, None, &p, true);
        // A head sure of the second reflex, with logits far above the scores' scale.
        let (with, none_with) = route_distribution(&scores, Some((&[0.0, 30.0, -5.0], 1.0)), &p, true);
        assert_eq!(none_alone.to_bits(), none_with.to_bits(), "none's share is the nearest texts' alone");
        assert!(alone[0] > alone[1] && with[1] > with[0], "{alone:?} {with:?}");
        let total: f64 = with.iter().sum::<f64>() + none_with;
        assert!((total - 1.0).abs() < 1e-12, "{total}");
        // A head's logits shifted by one constant read the same.
        let (shifted, _) = route_distribution(&scores, Some((&[40.0, 70.0, 35.0], 1.0)), &p, true);
        for (a, b) in with.iter().zip(&shifted) {
            assert!((a - b).abs() < 1e-12, "{with:?} {shifted:?}");
        }
    }

    #[test]
    fn none_is_read_from_the_nearest_score_alone_and_a_sure_head_cannot_lift_a_far_request() {
        let p = Params::default();
        let sure = [0.0f32, 40.0, -5.0];
        // Far from every reflex's texts: none, however sure the head is of one reflex.
        let (far, none_far) = route_distribution(&[0.1, 0.15, 0.05], Some((&sure, p.head)), &p, true);
        assert!(none_far > 0.99 && far.iter().all(|x| *x < 0.01), "{none_far} {far:?}");
        // At the threshold none takes half; past it, its share falls fast.
        let (_, half) = route_distribution(&[p.threshold, 0.1, 0.0], Some((&sure, p.head)), &p, true);
        assert!((half - 0.5).abs() < 1e-9, "{half}");
        let (near, none_near) = route_distribution(&[0.62, 0.3, 0.2], Some((&sure, p.head)), &p, true);
        assert!(none_near < 0.001, "{none_near}");
        // The head says which: the second reflex, its choice, takes what none leaves.
        assert!(near[1] > 0.99, "{near:?}");
        // Without a sentinel, none takes nothing.
        let (all, nothing) = route_distribution(&[0.1, 0.15, 0.05], Some((&sure, p.head)), &p, false);
        assert_eq!(nothing, 0.0);
        assert!((all.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
}
