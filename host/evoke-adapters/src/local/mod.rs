//! `local`, the embedded default (D11): offline, deterministic, no download. It answers from the
//! question texts alone: the route from the reflexes' descriptions, examples and `not_for` entries; a fit
//! from the same reading; an argument from its keys and their texts and the request's words.
//!
//! `answer` receives the texts on every call, so the route question is made ready once per distinct
//! text (a vector space over its descriptions and examples) and kept inside the adapter. A fit is read
//! from the route model that offered the same reflex with the same description; with none at hand it is
//! read from the fit's own texts.

pub(crate) mod args;
pub mod calibration;
mod lexicon;
pub mod route;
mod settings;
pub mod space;
pub(crate) mod thread;
pub mod words;

pub use calibration::{ArgParams, GATE, Params};
pub use settings::Settings;

use evoke_core::adapter::{Adapter, AdapterError, AnswerFuture, Cancel, Gate, Limits, Raw, State};
use evoke_core::question::{NONE, Options, Question, Questions, Text};
use route::RouteModel;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

/// How many distinct route questions are kept ready.
const KEPT: usize = 4;

/// A route's answer, shared between the route and the fits that read it again.
type Distribution = Arc<Vec<(String, f64)>>;

/// The engine, shared with the thread each call computes on: a call returns a future at once, so the
/// host's deadline races the computation instead of waiting behind it.
#[derive(Clone)]
pub struct Local(Arc<Engine>);

impl std::ops::Deref for Local {
    type Target = Engine;

    fn deref(&self) -> &Engine {
        &self.0
    }
}

pub struct Engine {
    id: String,
    params: Params,
    arg_params: ArgParams,
    settings: Settings,
    gate: Gate,
    models: Mutex<Vec<(u64, Arc<RouteModel>)>>,
    /// The last route read, so that the fits of the same request do not read it again.
    last: Mutex<Option<(String, u64, Distribution)>>,
    /// A test's hook: how long each answer takes on top of its computing.
    #[cfg(test)]
    slow: std::time::Duration,
}

impl Default for Local {
    fn default() -> Self {
        Local::new(Settings::default())
    }
}

impl Local {
    pub fn new(settings: Settings) -> Local {
        Local::with_params(settings, Params::default(), ArgParams::default(), GATE)
    }

    /// From a project's `[adapters.local]` table.
    pub fn from_table(table: Option<&toml::Table>) -> Result<Local, String> {
        Ok(Local::new(Settings::read(table)?))
    }

    /// With other constants: what the benchmark tunes.
    pub fn with_params(settings: Settings, mut params: Params, arg_params: ArgParams, gate: Gate) -> Local {
        params.threshold += settings.none_bias;
        let mut hasher = Sha256::new();
        hasher.update(format!(
            "{}\n{params:?}\n{arg_params:?}\n{gate:?}\n{:?}",
            calibration::VERSION,
            settings.synonyms
        ));
        let digest: String = hasher.finalize().iter().take(6).map(|b| format!("{b:02x}")).collect();
        let id = format!("local/{} {digest}", calibration::VERSION);
        Local(Arc::new(Engine {
            id,
            params,
            arg_params,
            settings,
            gate,
            models: Mutex::new(Vec::new()),
            last: Mutex::new(None),
            #[cfg(test)]
            slow: std::time::Duration::ZERO,
        }))
    }
}

impl Engine {
    /// The route model of this question, built once per distinct text.
    pub fn model(&self, question: &Question) -> Option<Arc<RouteModel>> {
        let key = text_hash(question);
        let mut models = self.models.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = models.iter().position(|(k, _)| *k == key) {
            let found = models.remove(i);
            let model = found.1.clone();
            models.push(found);
            return Some(model);
        }
        let model = Arc::new(RouteModel::build(question, self.params)?);
        if models.len() >= KEPT {
            models.remove(0);
        }
        models.push((key, model.clone()));
        Some(model)
    }

    fn route(&self, request: &str, question: &Question) -> Option<(u64, Arc<RouteModel>, Distribution)> {
        let key = text_hash(question);
        let model = self.model(question)?;
        {
            let last = self.last.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((r, k, d)) = last.as_ref()
                && r == request
                && *k == key
            {
                return Some((key, model, d.clone()));
            }
        }
        let distribution = Arc::new(model.distribution(request));
        *self.last.lock().unwrap_or_else(|e| e.into_inner()) = Some((request.to_string(), key, distribution.clone()));
        Some((key, model, distribution))
    }

    /// A fit: the route's probability of the reflex, from the route question that offered it.
    fn fit(&self, request: &str, id: &str, question: &Question) -> f64 {
        let Question::Yesno { yes, no, .. } = question else { return 0.0 };
        let name = id.strip_prefix("fits.").unwrap_or(id);
        let description = plain(yes);
        let models: Vec<(u64, Arc<RouteModel>)> = self.models.lock().unwrap_or_else(|e| e.into_inner()).clone();
        for (key, model) in models.iter().rev() {
            if model.find(name, description).is_none() {
                continue;
            }
            let last = self.last.lock().unwrap_or_else(|e| e.into_inner()).clone();
            let distribution = match last {
                Some((r, k, d)) if r == request && k == *key => d,
                _ => Arc::new(model.distribution(request)),
            };
            return distribution.iter().find(|(k, _)| k == name).map_or(0.0, |(_, p)| *p);
        }
        // No route question at hand: the fit's own texts stand as a route of one reflex.
        let not_for: Vec<String> = plain(no).split("; ").filter(|s| !s.is_empty()).map(str::to_string).collect();
        let alone = Question::Choice {
            ask: String::new(),
            options: Options(vec![
                (name.to_string(), Text::Rich { what: description.to_string(), not_for, examples: Vec::new() }),
                (NONE.to_string(), Text::Plain(String::new())),
            ]),
            otherwise: Some(NONE.to_string()),
        };
        self.route(request, &alone)
            .and_then(|(_, _, d)| d.iter().find(|(k, _)| k == name).map(|(_, p)| *p))
            .unwrap_or(0.0)
    }

    /// Every question answered, synchronously.
    pub fn answer_now(&self, state: &State, questions: &Questions) -> Result<Raw, AdapterError> {
        #[cfg(test)]
        std::thread::sleep(self.slow);
        let request = &state.request;
        let request_words = words::words(request);
        let reading =
            args::Reading { request: &request_words, params: &self.arg_params, synonyms: &self.settings.synonyms };
        let mut raw = Raw::new();
        for (id, question) in &questions.0 {
            let answer: BTreeMap<String, f64> = match question {
                Question::Choice { otherwise, .. }
                    if id == "route" || (otherwise.as_deref() == Some(NONE) && is_route(question)) =>
                {
                    let (_, _, d) =
                        self.route(request, question).ok_or_else(|| AdapterError::new("the route offers nothing"))?;
                    d.iter().cloned().collect()
                }
                Question::Choice { .. } => args::answer_choice(&reading, question).into_iter().collect(),
                Question::Yesno { .. } if id.starts_with("fits.") => {
                    [("yes".to_string(), self.fit(request, id, question))].into_iter().collect()
                }
                Question::Yesno { .. } => {
                    [("yes".to_string(), args::answer_yesno(&reading, question))].into_iter().collect()
                }
            };
            raw.insert(id.clone(), answer);
        }
        Ok(raw)
    }
}

/// A choice whose options carry descriptions with examples: a route over reflexes.
fn is_route(question: &Question) -> bool {
    matches!(question, Question::Choice { options, .. } if options.0.iter().any(|(_, t)| matches!(t, Text::Rich { .. })))
}

fn plain(text: &Text) -> &str {
    match text {
        Text::Plain(s) => s,
        Text::Rich { what, .. } => what,
    }
}

/// A hash of every text of a question, the key its model is kept under.
fn text_hash(question: &Question) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    if let Question::Choice { options, otherwise, .. } = question {
        otherwise.hash(&mut h);
        for (key, text) in &options.0 {
            key.hash(&mut h);
            match text {
                Text::Plain(s) => s.hash(&mut h),
                Text::Rich { what, not_for, examples } => {
                    what.hash(&mut h);
                    not_for.hash(&mut h);
                    examples.hash(&mut h);
                }
            }
        }
    }
    h.finish()
}

impl Adapter for Local {
    fn id(&self) -> &str {
        &self.id
    }

    fn limits(&self) -> Limits {
        Limits::default()
    }

    fn gate(&self) -> Option<Gate> {
        Some(self.gate)
    }

    fn answer<'a>(&'a self, state: &'a State, questions: &'a Questions, _cancel: &'a Cancel) -> AnswerFuture<'a> {
        let engine = self.0.clone();
        let (state, questions) = (state.clone(), questions.clone());
        thread::answer_on_a_thread("evoke-local", move || engine.answer_now(&state, &questions))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn a_slow_answer_is_raced_against_the_deadline_not_waited_for() {
        let mut local = Local::default();
        Arc::get_mut(&mut local.0).unwrap().slow = Duration::from_secs(5);
        let question = Question::Choice {
            ask: String::new(),
            options: Options(vec![
                ("yes".into(), Text::Plain("Yes.".into())),
                (NONE.into(), Text::Plain(String::new())),
            ]),
            otherwise: Some(NONE.into()),
        };
        let questions = Questions(vec![("t.x".into(), question)].into_iter().collect());
        let state = State { request: "yes please".into() };
        let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
        let started = Instant::now();
        let answered = runtime.block_on(async {
            tokio::time::timeout(Duration::from_millis(100), local.answer(&state, &questions, &Cancel::new())).await
        });
        assert!(answered.is_err(), "the deadline fired first: {answered:?}");
        assert!(started.elapsed() < Duration::from_secs(3), "did not wait for the engine: {:?}", started.elapsed());
    }
}
