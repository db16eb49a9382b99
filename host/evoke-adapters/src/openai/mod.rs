//! `openai`: any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, llama.cpp, vLLM). Each
//! question is one completion of one token: the options are labelled so that each is one token, and the
//! distribution is read from the first token's `top_logprobs`, renormalized over the labels offered.
//! The questions of a round are asked side by side.
//!
//! ```toml
//! adapter = "openai"
//!
//! [adapters.openai]
//! url     = "http://localhost:11434/v1"   # the endpoint's base; /chat/completions is added
//! model   = "llama3.1:8b"
//! key_env = "OPENAI_API_KEY"              # the variable holding the key (else $OPENAI_API_KEY, if set)
//! gate    = { route = 0.6, read = 0.8, write = 0.9 }   # your calibration: `evoke calibrate`
//! ```
//!
//! `url`, `model` and `key_env` are read as Expresso's provider reads its settings
//! (`openai_compat::settings`): the table first, then `OPENAI_BASE_URL`, `EXPRESSO_OPENAI_MODEL` and
//! `OPENAI_API_KEY`, then the defaults. Without a `gate`, every complete call confirms. The id covers the endpoint, the model, the
//! prompt rendering and the gate.

mod error;
mod http;
pub mod prompt;
#[cfg(test)]
mod tests;
pub mod wire;

use error::Unasked;
pub use error::{HttpError, SettingsError, WireError};
use evoke_core::adapter::{Adapter, AdapterError, AnswerFuture, Cancel, Gate, Limits, Raw, State};
use evoke_core::question::{Question, QuestionId, Questions, YES};
use sha2::{Digest, Sha256};
use std::sync::Arc;

/// One question answered: its id, and the distribution read from the reply.
type Answered = (QuestionId, Vec<(String, f64)>);

/// The most labels a question may offer: one token each.
pub const MAX_OPTIONS: usize = 52;
/// How many ranked tokens are asked for (the most the OpenAI API gives).
const TOP: usize = 20;
/// The most bytes of one answer read, its body or an error's (as D13 bounds what a body and a fetch hand
/// back): a one-token completion with 20 ranked tokens is a few KiB, and an endpoint that streams more
/// (768 MiB made evoke hold 1.6 GiB) fails the call once this much is read, whatever Content-Length says.
pub const MAX_ANSWER_BYTES: usize = 4 * 1024 * 1024;
/// The most redirects followed within the endpoint's own origin (scheme, host and port); a redirect to
/// another origin is never followed, since its server would read the sentence and the questions and its
/// answers would decide the call.
pub const MAX_REDIRECTS: usize = 3;

/// `[adapters.openai]`: the endpoint, read as openai-compat reads every endpoint's settings (`url`, else
/// `$OPENAI_BASE_URL`; `model`, else `$EXPRESSO_OPENAI_MODEL`; the key from the variable `key_env` names,
/// else `$OPENAI_API_KEY`), and evoke's own `gate`.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub endpoint: openai_compat::settings::Settings,
    pub gate: Option<Gate>,
}

impl Settings {
    pub fn read(table: Option<&toml::Table>) -> Result<Settings, SettingsError> {
        let Some(table) = table else {
            return Err(SettingsError::NoTable);
        };
        let mut gate = None;
        for (key, value) in table {
            match key.as_str() {
                key if openai_compat::settings::KEYS.contains(&key) => {}
                "gate" => {
                    let g: Gate =
                        value.clone().try_into().map_err(|e| SettingsError::Gate { reason: e.to_string() })?;
                    for (name, bar) in
                        [("route", Some(g.route)), ("fits", g.fits), ("read", Some(g.read)), ("write", Some(g.write))]
                    {
                        if bar.is_some_and(|b| !(0.0..=1.0).contains(&b)) {
                            return Err(SettingsError::NotAProbability { bar: name });
                        }
                    }
                    if g.read > g.write {
                        return Err(SettingsError::ReadOverWrite);
                    }
                    gate = Some(g);
                }
                other => return Err(SettingsError::UnknownKey { key: other.to_string() }),
            }
        }
        let endpoint = openai_compat::settings::Settings::read(table, openai_compat::settings::process_env, None)?;
        Ok(Settings { endpoint, gate })
    }
}

pub struct OpenAi {
    settings: Settings,
    id: String,
}

impl OpenAi {
    pub fn new(settings: Settings) -> OpenAi {
        let mut hasher = Sha256::new();
        let (url, model) = (&settings.endpoint.url, &settings.endpoint.model);
        hasher.update(format!("{url}\n{model}\n{}\n{:?}", prompt::VERSION, settings.gate));
        let digest: String = hasher.finalize().iter().take(6).map(|b| format!("{b:02x}")).collect();
        let id = format!("openai {model} prompt/{} {digest}", prompt::VERSION);
        OpenAi { settings, id }
    }

    pub fn from_table(table: Option<&toml::Table>) -> Result<OpenAi, SettingsError> {
        Ok(OpenAi::new(Settings::read(table)?))
    }

    /// Every question asked side by side, each read into its answer.
    fn answer_blocking(&self, request: &str, questions: &Questions, cancel: &Cancel) -> Result<Raw, AdapterError> {
        let endpoint = self
            .settings
            .endpoint
            .endpoint(openai_compat::settings::process_env)
            .map_err(|e| AdapterError::new(e.to_string()))?;
        let url = endpoint.chat_completions();
        let client = http::client().map_err(|e| AdapterError::new(e.to_string()))?;
        let results: Vec<Result<Answered, Unasked>> = std::thread::scope(|scope| {
            let handles: Vec<_> = questions
                .0
                .iter()
                .map(|(id, question)| {
                    let (user, keys) = prompt::render(request, question);
                    let labels: Vec<String> =
                        (0..keys.len()).map(|i| (prompt::LABELS[i] as char).to_string()).collect();
                    let body = wire::body(&endpoint.model, prompt::SYSTEM, &user, TOP);
                    let (client, url, key) = (&client, &url, endpoint.key.as_deref());
                    scope.spawn(move || {
                        if cancel.is_cancelled() {
                            return Err(Unasked::Cancelled);
                        }
                        let text = http::post(client, url, key, &body)
                            .map_err(|error| Unasked::Post { id: id.clone(), error })?;
                        let probs =
                            wire::read(&text, &labels).map_err(|error| Unasked::Read { id: id.clone(), error })?;
                        Ok((id.clone(), keys.into_iter().zip(probs).collect()))
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err(Unasked::Thread))).collect()
        });
        let mut raw = Raw::new();
        for result in results {
            let (id, distribution) = result.map_err(|e| AdapterError::new(e.to_string()))?;
            let question = questions.get(&id).expect("asked");
            let answer = match question {
                Question::Yesno { .. } => {
                    [(YES.to_string(), distribution.iter().find(|(k, _)| k == YES).map_or(0.0, |(_, p)| *p))]
                        .into_iter()
                        .collect()
                }
                Question::Choice { .. } => distribution.into_iter().collect(),
            };
            raw.insert(id.to_string(), answer);
        }
        Ok(raw)
    }
}

impl Adapter for OpenAi {
    fn id(&self) -> &str {
        &self.id
    }

    fn limits(&self) -> Limits {
        Limits { options: Some(MAX_OPTIONS), tokens: None }
    }

    fn gate(&self) -> Option<Gate> {
        self.settings.gate
    }

    fn answer<'a>(&'a self, state: &'a State, questions: &'a Questions, cancel: &'a Cancel) -> AnswerFuture<'a> {
        // The HTTP client blocks, so a round runs on a thread of its own; the host's deadline races the
        // future, and the thread's requests time out by themselves.
        let (tx, rx) = tokio::sync::oneshot::channel();
        let this = Arc::new((self.settings.clone(), self.id.clone()));
        let request = state.request.clone();
        let questions = questions.clone();
        let cancel = cancel.clone();
        std::thread::spawn(move || {
            let adapter = OpenAi { settings: this.0.clone(), id: this.1.clone() };
            let _ = tx.send(adapter.answer_blocking(&request, &questions, &cancel));
        });
        Box::pin(async move {
            rx.await.unwrap_or_else(|_| Err(AdapterError::new("the request thread ended without an answer")))
        })
    }
}
