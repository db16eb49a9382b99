//! Model leaves reach a model only through a [`Provider`]. The runtime asks one only when the journal
//! has no value for the leaf's key, validates the answer against the leaf's schema, and journals it.

use expresso_lang::schema::Schema;
use serde_json::Value;

/// What a model leaf asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestKind {
    /// A typed leaf, declared or inline.
    Leaf,
    /// `summarize(span)`: free text, which only a generative provider can give.
    Summarize,
    /// A fuzzy trigger `~"phrase"`: does the event's text match the phrase? Answered true or false.
    Match,
}

#[derive(Debug, Clone, PartialEq)]
pub struct LeafRequest<'a> {
    /// The journal key: `firingId/leafPath`. A recording answers by it.
    pub key: &'a str,
    /// The leaf's name (`classify`, `ai.extract_actions`, `summarize`, `match`).
    pub leaf: &'a str,
    pub kind: RequestKind,
    pub schema: &'a Schema,
    /// The leaf's prompt, or a fuzzy trigger's phrase.
    pub prompt: Option<&'a str>,
    /// The span the leaf reads.
    pub input: &'a str,
    /// The firing event's time in milliseconds since the Unix epoch: the only clock a provider may read
    /// (evoke's engines resolve `tomorrow` against it).
    pub t_event: u64,
}

pub trait Provider {
    /// Names the provider in reports.
    fn id(&self) -> &str;
    /// An answer, before validation; any error fails the firing closed. The error is the provider's own
    /// words: providers live in other crates (evoke's engines, an HTTP endpoint) and each has its own
    /// typed faults, which it words here; the runtime only carries the words into `Error::Provider`.
    fn answer(&self, request: &LeafRequest) -> Result<Value, String>;
    /// The same answer, with its fault typed: whether asking again may help. A provider whose faults can
    /// pass (an HTTP endpoint) says so here; by default every fault is lasting, so nothing retries it.
    fn try_answer(&self, request: &LeafRequest) -> Result<Value, Fault> {
        self.answer(request).map_err(Fault::lasting)
    }
    /// Whether answering this request may take long: a call over the network, asked again after its
    /// faults. The runtime then records the effects it handed out before it waits, so a run stopped
    /// meanwhile does not hand them out again. By default an answer is at hand.
    fn waits(&self, _request: &LeafRequest) -> bool {
        false
    }
}

/// A provider that answers nothing: replay with a complete journal never reaches it, and one that does is
/// a fault that names the key it lacked.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoProvider;

impl Provider for NoProvider {
    fn id(&self) -> &str {
        "none"
    }

    fn answer(&self, _request: &LeafRequest) -> Result<Value, String> {
        Err("no provider is configured, and the journal has no answer".into())
    }
}

/// A provider's fault, with whether asking again may give an answer: an HTTP 429 or 5xx, a timeout or a
/// dropped connection may pass; a refusal, a 4xx, an answer in the wrong shape would come back the same.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    pub message: String,
    pub transient: bool,
}

impl Fault {
    /// A fault that asking again would only repeat.
    pub fn lasting(message: impl Into<String>) -> Fault {
        Fault { message: message.into(), transient: false }
    }

    /// A fault that may pass if asked again after a pause.
    pub fn transient(message: impl Into<String>) -> Fault {
        Fault { message: message.into(), transient: true }
    }
}

/// What a generative provider is told to do for a leaf, before the rules of its answer.
pub(crate) fn task(request: &LeafRequest) -> String {
    let task = match request.kind {
        RequestKind::Summarize => "Summarize the conversation below in a few sentences.".to_string(),
        RequestKind::Match => format!(
            "Answer true if the message below matches this description, false otherwise: {}",
            request.prompt.unwrap_or("")
        ),
        RequestKind::Leaf => match request.prompt {
            Some(prompt) => prompt.to_string(),
            None => format!("Read the text below and answer `{}` in the given schema.", request.leaf),
        },
    };
    format!("{task}\nAnswer only from the text. Answer as JSON {{\"value\": …}} matching the schema exactly.")
}

/// The JSON schema a generative provider answers in: `{ value: <the leaf's schema> }`, an object at the top
/// as both structured output and tool input require.
pub(crate) fn answer_schema(request: &LeafRequest) -> Value {
    serde_json::json!({
        "type": "object",
        "properties": { "value": request.schema.json_schema() },
        "required": ["value"],
        "additionalProperties": false,
    })
}
