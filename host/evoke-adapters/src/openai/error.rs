//! Why the `openai` adapter could not be set up, or one question of a round not asked or not read: each
//! names the setting, the question or the part of the response at fault.

/// `[adapters.openai]` is refused; each says what to write instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    #[error("it needs [adapters.openai] with at least `model`: model = \"gpt-4o-mini\"")]
    NoTable,
    /// `gate` is not a table of the four bars: the TOML reader's message.
    #[error("`gate` must be {{ route, fits?, read, write }}: {reason}")]
    Gate { reason: String },
    #[error("gate.{bar} must be a probability")]
    NotAProbability { bar: &'static str },
    #[error("gate.read may never exceed gate.write")]
    ReadOverWrite,
    #[error("there is no setting `{key}`; it takes url, model, key_env and gate")]
    UnknownKey { key: String },
    /// `url`, `model` or `key_env` (or the variable read in its place), as openai-compat reads them.
    #[error(transparent)]
    Endpoint(#[from] openai_compat::settings::SettingsError),
}

/// One POST that did not come back with a successful answer.
#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    #[error("cannot start the HTTP client: {0}")]
    Client(reqwest::Error),
    #[error("the endpoint could not be reached: {0}")]
    Unreachable(reqwest::Error),
    #[error("the response could not be read: {0}")]
    Unreadable(std::io::Error),
    /// The answer is longer than [`super::MAX_ANSWER_BYTES`]; reading stopped there.
    #[error("the response is over {limit} bytes (4 MiB), the most evoke reads of an engine's answer")]
    TooLong { limit: usize },
    /// A redirect to another origin, or more than [`super::MAX_REDIRECTS`] within the endpoint's own, was
    /// not followed.
    #[error("the endpoint answered {status} to {location}, which evoke does not follow: {why}")]
    Redirected { status: reqwest::StatusCode, location: String, why: &'static str },
    /// A status other than success, with the start of what the endpoint said (200 characters at most).
    #[error("the endpoint answered {status}: {said}")]
    Status { status: reqwest::StatusCode, said: String },
}

/// A response that does not read as the probabilities of the labels offered.
#[derive(Debug, thiserror::Error)]
pub enum WireError {
    #[error("the response is not JSON: {0}")]
    NotJson(serde_json::Error),
    #[error("the endpoint answered with an error: {message}")]
    Endpoint { message: String },
    #[error(
        "the response carries no log-probabilities (choices[0].logprobs.content[0]); does the endpoint support logprobs?"
    )]
    NoLogprobs,
    #[error("the response's first token has no top_logprobs")]
    NoTopLogprobs,
    #[error("the response's first token lists no top_logprobs")]
    EmptyTopLogprobs,
    #[error("a top_logprobs entry has no token")]
    NoToken,
    #[error("the token {token:?} has no numeric logprob")]
    NoLogprob { token: String },
    #[error("the token {token:?} has the logprob {logprob}, which is no log-probability")]
    NotALogprob { token: String, logprob: f64 },
    #[error("the listed tokens' probabilities sum to {total:.3}, over 1")]
    OverOne { total: f64 },
    #[error("none of the tokens the engine ranked is a label offered")]
    NoLabel,
}

/// One question of a round that got no answer, named by its id.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Unasked {
    #[error("cancelled")]
    Cancelled,
    #[error("{id}: {error}")]
    Post { id: evoke_core::question::QuestionId, error: HttpError },
    #[error("{id}: {error}")]
    Read { id: evoke_core::question::QuestionId, error: WireError },
    #[error("a request thread failed")]
    Thread,
}
