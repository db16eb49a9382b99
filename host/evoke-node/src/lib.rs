//! The native half of evoke's Node package: the Rust library's verbs (open, decide, plan, run, why) on
//! classes Node can hold. `index.js` is the other half: it gives the classes their JavaScript shape, turns
//! the errors marked here into `EvokeError`, and answers for the person and the code bodies.
//!
//! Only strings and booleans cross between the two halves (a JSON text where there is structure), so
//! each half reads the other's values in one place.

use evoke::exit::Exit;
use evoke::{Person, Question};
use evoke_core::decision::{Missing, Value};
use napi::Status;
use napi::bindgen_prelude::{FnArgs, Function};
use napi_derive::napi;
use serde_json::json;
use std::cell::{Cell, RefCell};
use std::path::PathBuf;

/// What starts the message of an error that is an `evoke::Error`, so `index.js` tells it from any other
/// failure and reads the JSON after it.
const MARK: &str = "evoke-error:";

/// The callback `index.js` hands to `run`: (what is asked, its JSON) to the answer's JSON.
type Answerer<'scope> = Function<'scope, FnArgs<(String, String)>, String>;

/// An `evoke::Error` as a JavaScript error `index.js` rethrows as an `EvokeError`.
fn thrown(e: evoke::Error) -> napi::Error {
    let exit = e.exit();
    let error = json!({
        "exit": exit as u8,
        "name": exit_name(exit),
        "message": e.message(),
        "fix": e.fix(),
    });
    napi::Error::new(Status::GenericFailure, format!("{MARK}{error}"))
}

/// The exit class's name, as the Rust enum spells it.
fn exit_name(exit: Exit) -> &'static str {
    match exit {
        Exit::Done => "Done",
        Exit::Failed => "Failed",
        Exit::Usage => "Usage",
        Exit::NeedsPerson => "NeedsPerson",
        Exit::Abstain => "Abstain",
        Exit::Declined => "Declined",
        Exit::Refused => "Refused",
    }
}

/// An opened, trusted project: `evoke::Evoke` held for Node.
#[napi]
pub struct NativeEvoke {
    inner: evoke::Evoke,
}

/// A decision one `NativeEvoke` made: the Rust `Decision` itself, never rebuilt from JavaScript's data.
/// It has no constructor, so only `decide` makes one.
#[napi]
pub struct NativeDecision {
    inner: evoke::Decision,
}

#[napi]
impl NativeDecision {
    /// The JSON line `evoke try --json` prints for it, with `values` after it.
    #[napi(getter)]
    pub fn json(&self) -> String {
        self.inner.to_json_line()
    }
}

#[napi]
impl NativeEvoke {
    /// Opens the project in `dir`, refused unless trusted; `recording` and `home` as `OpenOptions` has them.
    #[napi(factory, catch_unwind)]
    pub fn open(dir: String, recording: Option<String>, home: Option<String>) -> napi::Result<NativeEvoke> {
        let options = evoke::OpenOptions {
            recording: recording.map(PathBuf::from),
            home: home.map(PathBuf::from),
            ..Default::default()
        };
        let inner = evoke::Evoke::open(dir.as_ref(), options).map_err(thrown)?;
        Ok(NativeEvoke { inner })
    }

    /// Decides `sentence`, running nothing.
    #[napi(catch_unwind)]
    pub fn decide(&self, sentence: String) -> napi::Result<NativeDecision> {
        let inner = self.inner.decide(&sentence).map_err(thrown)?;
        Ok(NativeDecision { inner })
    }

    /// Plans `sentence` read as several steps: the plan's JSON line.
    #[napi(catch_unwind)]
    pub fn plan(&self, sentence: String) -> napi::Result<String> {
        Ok(self.inner.plan(&sentence).map_err(thrown)?.to_json_line())
    }

    /// The text `evoke why back` prints.
    #[napi(catch_unwind)]
    pub fn why(&self, back: u32) -> napi::Result<String> {
        self.inner.why(back as usize).map_err(thrown)
    }

    /// Runs `decision` through a person `answer` speaks for: `answer("confirm", question)` returns `true`
    /// or `false`, `answer("ask", missing)` the answer's JSON or `null`. The result is the run's JSON:
    /// `{succeeded, text, data, failure, line}`.
    #[napi(catch_unwind)]
    pub fn run(&self, decision: &NativeDecision, present: bool, answer: Answerer<'_>) -> napi::Result<String> {
        let person = JsPerson { present, answer, refused: RefCell::new(None), failed: Cell::new(false) };
        let ran = self.inner.run(&decision.inner, &person);
        if person.failed.get() {
            // `index.js` rethrows the callback's own exception; this error only stands for it.
            return Err(napi::Error::new(Status::GenericFailure, "a person callback threw"));
        }
        let ran = match ran {
            Ok(ran) => ran,
            Err(e) => return Err(thrown(with_refusal(e, person.refused.into_inner()))),
        };
        let ran = json!({
            "succeeded": ran.succeeded(),
            "text": ran.text(),
            "data": ran.data(),
            "failure": ran.failure(),
            "line": ran.to_json_line(),
        });
        Ok(ran.to_string())
    }
}

/// A declined run whose question was answered with no choice of its own says which answer it refused.
fn with_refusal(e: evoke::Error, refused: Option<String>) -> evoke::Error {
    match (refused, e.exit()) {
        (Some(why), Exit::Declined) => evoke::Error::Command(
            evoke::error::CommandError::new(Exit::Declined, format!("{}: {why}", e.message()))
                .with_fix("answer with one of the choices `ask` is given"),
        ),
        _ => e,
    }
}

/// The person `index.js` answers for, called on the thread that called `run`.
struct JsPerson<'scope> {
    present: bool,
    answer: Answerer<'scope>,
    /// Why an answer was not taken: not one of the question's choices.
    refused: RefCell<Option<String>>,
    /// Whether the callback itself failed: nothing more is asked, and nothing runs.
    failed: Cell<bool>,
}

impl JsPerson<'_> {
    /// The callback's answer to `what`, or `None` once it failed.
    fn call(&self, what: &str, payload: serde_json::Value) -> Option<serde_json::Value> {
        if self.failed.get() {
            return None;
        }
        let reply = self
            .answer
            .call((what.to_string(), payload.to_string()).into())
            .ok()
            .and_then(|reply| serde_json::from_str(&reply).ok());
        if reply.is_none() {
            self.failed.set(true);
        }
        reply
    }
}

impl Person for JsPerson<'_> {
    fn present(&self) -> bool {
        self.present
    }

    fn confirm(&self, question: Question<'_>) -> bool {
        let question = match question {
            Question::Call(prompt) => json!({
                "kind": "call",
                "text": prompt.template,
                "own": prompt.own,
                "reason": prompt.reason,
            }),
            Question::Own(text) => json!({ "kind": "own", "text": text }),
        };
        self.call("confirm", question) == Some(serde_json::Value::Bool(true))
    }

    fn ask(&self, missing: &Missing) -> Option<Value> {
        let payload = serde_json::to_value(missing).ok()?;
        let answer = match self.call("ask", payload)? {
            serde_json::Value::String(text) => text,
            serde_json::Value::Number(n) => n.to_string(),
            _ => return None,
        };
        match evoke::prompt::accept(missing, &answer) {
            Ok(value) => Some(value),
            Err(why) => {
                *self.refused.borrow_mut() = Some(why.to_string());
                None
            }
        }
    }
}
