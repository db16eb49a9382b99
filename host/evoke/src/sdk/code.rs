//! Reflexes handed to the library as code: a manifest's text, and a function of the program as the body.

use super::Error;
use crate::error::CommandError;
use evoke_bodies::{Contained, Failure, Output, Ran};
use evoke_core::catalog::Reflex;
use evoke_core::decision::Args;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

/// The body of a reflex handed as code: called with the call, it returns the result or throws.
type Body = dyn Fn(&Called) -> Result<Returned, Thrown> + Send + Sync;

/// A reflex a program hands to [`Evoke`](super::Evoke) as code, in place of a directory with a
/// `reflex.toml` and a body file: the manifest as TOML text (the wording, consent and contract of a
/// `reflex.toml`, with no `run`, `grants` or `config`), and the body as a function.
///
/// The manifest is read by the rules of `reflex.toml`, and decided on exactly as an installed reflex's:
/// the same questions, the same gate, the same confirm. A plan file pins it by its `item`, the hash of
/// its manifest, and nothing more: its body is the program's own and evoke holds no copy of it.
///
/// ```
/// use evoke::{CodeReflex, Returned};
///
/// let manifest = r#"
/// reflex = 1
/// description = "Greets a person by name"
/// effect = "read"
/// confirm = "Greet {who}?"
///
/// [args.who]
/// ask = "Who should be greeted?"
/// pick = "text"
///
/// [examples]
/// "say hello to dana" = { who = "dana" }
/// "#;
/// let greet = CodeReflex::new("greet", manifest, |call| {
///     let who = call.args()["who"].as_str().unwrap_or("you");
///     Ok(Returned { text: format!("hello, {who}"), data: None })
/// })?;
/// assert_eq!(greet.name(), "greet");
/// # Ok::<(), evoke::Error>(())
/// ```
#[derive(Clone)]
pub struct CodeReflex {
    pub(crate) reflex: Reflex,
    body: Arc<Body>,
}

impl std::fmt::Debug for CodeReflex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CodeReflex").field("name", &self.reflex.name).finish_non_exhaustive()
    }
}

impl CodeReflex {
    /// Reads `manifest` for a reflex named `name` (a name `evoke.toml` would take: `[a-z][a-z0-9_]*`, none
    /// of `none`, `unstated`, `route`, `fits`, `weave`), with `body` as what runs. A manifest that does not read, or a name that is not one,
    /// is an [`Error`] of exit class 2 carrying each fault with its line, key and fix.
    pub fn new(
        name: &str,
        manifest: &str,
        body: impl Fn(&Called) -> Result<Returned, Thrown> + Send + Sync + 'static,
    ) -> Result<CodeReflex, Error> {
        if !evoke_core::project::is_local_name(name) {
            return Err(CommandError::usage(format!("`{name}` cannot name a reflex"))
                .with_fix("name it [a-z][a-z0-9_]*, other than none, unstated, route, fits and weave: `greet_person`")
                .into());
        }
        let file = format!("{name} (handed as code)");
        let reading = evoke_core::manifest::read_code_manifest(&file, manifest);
        let Some(manifest) = reading.value else {
            return Err(CommandError::usage(format!("the manifest of {file} is refused"))
                .with_diagnostics(reading.diagnostics)
                .into());
        };
        Ok(CodeReflex {
            reflex: Reflex { name: name.to_string(), manifest, vocabs: BTreeMap::new() },
            body: Arc::new(body),
        })
    }

    /// The name it is decided and logged under.
    pub fn name(&self) -> &str {
        &self.reflex.name
    }

    /// Its `item` as a plan file pins it: the hash of its manifest's wording, consent and contract.
    pub fn item(&self) -> String {
        evoke_core::weave::planfile::item(&self.reflex, &[])
    }

    /// Runs the body on the calling thread. A panic in it is a failure of the call, as a throw is; a
    /// result past the output bound is one too, as a body's in a process of its own is.
    pub(crate) fn call(&self, args: &Args, input: &str) -> Ran {
        self.call_with(args, &[], input)
    }

    /// [`Self::call`], with the whole results a step of a plan takes beside its values.
    pub(crate) fn call_with(&self, args: &Args, wholes: &[(String, serde_json::Value)], input: &str) -> Ran {
        let today = evoke_bodies::dates::today();
        let args = args.0.iter().map(|(name, value)| (name.clone(), evoke_bodies::BodyValue::from(value).json(today)));
        let wholes = wholes.iter().map(|(name, data)| (name.clone(), data.clone()));
        let called = Called { input: input.to_string(), args: args.chain(wholes).collect(), config: Map::new() };
        let limit = evoke_bodies::bounded::OUTPUT_LIMIT;
        let over = |what: &str| Failure {
            message: format!("the body {what} more than {limit} bytes; nothing of it was kept"),
            frames: Vec::new(),
        };
        let result = match catch_unwind(AssertUnwindSafe(|| (self.body)(&called))) {
            Ok(Ok(returned)) => held(returned, limit).map_err(|why| match why {
                Unheld::Over => over("returned"),
                Unheld::Deep => Failure {
                    message: "the body returned data nested deeper than a JSON reader takes; nothing of it was kept"
                        .into(),
                    frames: Vec::new(),
                },
            }),
            Ok(Err(thrown)) if thrown.size() > limit => Err(over("threw")),
            Ok(Err(Thrown { message, frames })) => Err(Failure { message, frames }),
            Err(panic) => Err(Failure { message: super::error::panic_text(&panic), frames: Vec::new() }),
        };
        Ran {
            result,
            contained: Contained::None {
                why: "a body handed as code runs in the program's own process, with its rights".into(),
            },
            cancelled: false,
        }
    }
}

/// The call a body handed as code receives: what a file body receives, as JSON values.
#[derive(Debug, Clone)]
pub struct Called {
    input: String,
    args: Map<String, Value>,
    config: Map<String, Value>,
}

impl Called {
    /// The sentence as typed.
    pub fn input(&self) -> &str {
        &self.input
    }

    /// Each stated argument as the body receives it: an option's key, a word's value (or the word), a
    /// pick's value (a number, a duration in seconds, a date as `YYYY-MM-DD`, …), `true` for a flag.
    /// An unstated optional argument is absent.
    pub fn args(&self) -> &Map<String, Value> {
        &self.args
    }

    /// The settings: always empty for a body handed as code, which takes its own from the program.
    pub fn config(&self) -> &Map<String, Value> {
        &self.config
    }

    /// `{ "args": …, "input": …, "config": … }`: the object a file body receives.
    pub fn to_json(&self) -> Value {
        serde_json::json!({ "args": self.args, "input": self.input, "config": self.config })
    }
}

/// What a body handed as code returns: the text a person is shown, and data beside it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Returned {
    /// The one line a person is shown.
    pub text: String,
    /// Data for a later step of a plan, or for the program.
    pub data: Option<Value>,
}

/// Why a result is not kept.
enum Unheld {
    /// Its text and data are over the output bound.
    Over,
    /// Its data is nested deeper than serde_json's readers take (128 levels).
    Deep,
}

/// A result held to what a file body's report may be: within the output bound, and data a JSON reader
/// takes back whole, so the log's line of it reads again for `why`. The data is written once for both.
fn held(returned: Returned, limit: usize) -> Result<Output, Unheld> {
    let written = returned.data.as_ref().map(Value::to_string);
    if returned.text.len() + written.as_ref().map_or(0, String::len) > limit {
        return Err(Unheld::Over);
    }
    if written.is_some_and(|text| serde_json::from_str::<Value>(&text).is_err()) {
        return Err(Unheld::Deep);
    }
    Ok(Output { text: returned.text, data: returned.data })
}

/// Why a body handed as code did not return: its message, and its frames from the first, as a file
/// body's failure carries them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Thrown {
    /// The failure's message.
    pub message: String,
    /// The frames of the stack it was thrown from, innermost first.
    pub frames: Vec<String>,
}

impl Thrown {
    fn size(&self) -> usize {
        self.message.len() + self.frames.iter().map(String::len).sum::<usize>()
    }

    /// A failure with a message and no frames.
    pub fn new(message: impl Into<String>) -> Thrown {
        Thrown { message: message.into(), frames: Vec::new() }
    }
}
