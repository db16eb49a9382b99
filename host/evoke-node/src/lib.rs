//! The native half of evoke's Node package: the Rust library's verbs (open, decide, plan, run, why) on
//! classes Node can hold. `index.js` is the other half: it gives the classes their JavaScript shape, turns
//! the errors marked here into `EvokeError`, and answers for the person and the code bodies.
//!
//! Only strings and booleans cross between the two halves (a JSON text where there is structure), so
//! each half reads the other's values in one place.

use evoke::exit::Exit;
use evoke::{Called, CodeReflex, Person, Question, Returned, Thrown};
use evoke_core::decision::{Missing, Value};
use napi::bindgen_prelude::{FnArgs, FromNapiValue, Function};
use napi::{JsValue, Status, sys};
use napi_derive::napi;
use serde_json::json;
use std::cell::{Cell, RefCell};
use std::path::PathBuf;

/// What starts the message of an error that is an `evoke::Error`, so `index.js` tells it from any other
/// failure and reads the JSON after it.
const MARK: &str = "evoke-error:";

/// The callback `index.js` hands to `run`: (what is asked, its JSON) to the answer's JSON. It is asked
/// `confirm`, `ask`, and `body` for a reflex handed as code.
type Answerer<'scope> = Function<'scope, FnArgs<(String, String)>, String>;

thread_local! {
    /// The `answer` callback of the `run` under way on this thread: how a code body reaches its function.
    /// Only the thread that called `run` sees it, and only until that `run` returns.
    static RUNNING: Cell<Option<(sys::napi_env, sys::napi_value)>> = const { Cell::new(None) };
}

/// Holds a `run`'s callback in [`RUNNING`] while the run lasts, and puts back the one before it (a body
/// may itself run a decision of another `Evoke`).
struct Running {
    before: Option<(sys::napi_env, sys::napi_value)>,
}

impl Running {
    fn enter(answer: &Answerer<'_>) -> Running {
        let value = answer.value();
        Running { before: RUNNING.replace(Some((value.env, value.value))) }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.set(self.before.take());
    }
}

/// The reflexes handed as code: the `i`th's body asks `index.js` for the `i`th function's answer.
fn code_reflexes(names: Vec<String>, manifests: Vec<String>) -> napi::Result<Vec<CodeReflex>> {
    names
        .into_iter()
        .zip(manifests)
        .enumerate()
        .map(|(index, (name, manifest))| {
            CodeReflex::new(&name, &manifest, move |called: &Called| body(index, called)).map_err(thrown)
        })
        .collect()
}

/// Calls the function of the `index`th reflex handed as code, through the `run` under way on this thread.
fn body(index: usize, called: &Called) -> Result<Returned, Thrown> {
    let Some((env, value)) = RUNNING.get() else {
        return Err(Thrown::new("a body handed as code runs only inside `run`, on the thread that called it"));
    };
    // The handles are the callback of the native `run` under way on this thread, valid until it returns,
    // and `Running` takes them out of `RUNNING` before it does.
    let answer = unsafe { Answerer::from_napi_value(env, value) }
        .map_err(|e| Thrown::new(format!("the body could not be reached: {}", e.reason)))?;
    let payload = json!({ "index": index, "call": called.to_json() });
    let reply = answer
        .call(("body".to_string(), payload.to_string()).into())
        .map_err(|e| Thrown::new(format!("the body could not be called: {}", e.reason)))?;
    let reply: serde_json::Value =
        serde_json::from_str(&reply).map_err(|e| Thrown::new(format!("the body's answer is not JSON: {e}")))?;
    if let Some(thrown) = reply.get("thrown") {
        let message = thrown["message"].as_str().unwrap_or("the body threw").to_string();
        let frames = thrown["frames"].as_array().into_iter().flatten();
        let frames = frames.filter_map(|frame| frame.as_str().map(str::to_string)).collect();
        return Err(Thrown { message, frames });
    }
    let text = reply["text"].as_str().ok_or_else(|| Thrown::new("the body's answer has no text"))?.to_string();
    let data = reply.get("data").filter(|data| !data.is_null()).cloned();
    Ok(Returned { text, data })
}

/// An `evoke::Error` as a JavaScript error `index.js` rethrows as an `EvokeError`.
fn thrown(e: evoke::Error) -> napi::Error {
    let exit = e.exit();
    let diagnostics = match &e {
        evoke::Error::Command(command) => command.diagnostics.iter().map(diagnostic).collect(),
        _ => Vec::new(),
    };
    let error = json!({
        "exit": exit as u8,
        "name": exit_name(exit),
        "message": e.message(),
        "fix": e.fix(),
        "diagnostics": diagnostics,
    });
    napi::Error::new(Status::GenericFailure, format!("{MARK}{error}"))
}

/// One fault behind an error (a manifest's, say), with where it is and what fixes it, and as the command
/// prints it.
fn diagnostic(d: &evoke_core::diag::Diagnostic) -> serde_json::Value {
    json!({
        "problem": d.problem,
        "file": d.file,
        "line": d.place.line,
        "column": d.place.column,
        "key": d.key,
        "message": d.message,
        "fix": d.fix,
        "error": d.is_error(),
        "shown": evoke::render::diagnostic(d, false),
    })
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

/// A plan one `NativeEvoke` made: the Rust `Plan` itself, until `runPlan` takes it (a plan runs once).
#[napi]
pub struct NativePlan {
    inner: evoke::Plan,
    /// Its line, kept for after it has run.
    line: String,
}

#[napi]
impl NativePlan {
    /// The plan line `evoke try --json` prints.
    #[napi(getter)]
    pub fn json(&self) -> String {
        self.line.clone()
    }
}

impl NativePlan {
    fn of(plan: evoke::Plan) -> NativePlan {
        NativePlan { line: plan.to_json_line(), inner: plan }
    }

    /// The error of a plan asked for after it ran.
    fn gone() -> napi::Error {
        thrown(evoke::Error::Command(
            evoke::error::CommandError::usage("the plan has run already; a plan runs once")
                .with_fix("plan the sentence again"),
        ))
    }
}

#[napi]
impl NativeEvoke {
    /// Opens the project in `dir`, refused unless trusted; `recording` and `home` as `OpenOptions` has them,
    /// and the reflexes handed as code by their `names` and `manifests`, in one order.
    #[napi(factory, catch_unwind)]
    pub fn open(
        dir: String,
        recording: Option<String>,
        home: Option<String>,
        names: Vec<String>,
        manifests: Vec<String>,
    ) -> napi::Result<NativeEvoke> {
        let options = evoke::OpenOptions {
            recording: recording.map(PathBuf::from),
            home: home.map(PathBuf::from),
            reflexes: code_reflexes(names, manifests)?,
            ..Default::default()
        };
        let inner = evoke::Evoke::open(dir.as_ref(), options).map_err(thrown)?;
        Ok(NativeEvoke { inner })
    }

    /// A project built in code: only the reflexes handed over, decided by `adapter` (else the home's).
    #[napi(factory, catch_unwind)]
    pub fn in_code(
        recording: Option<String>,
        home: Option<String>,
        adapter: Option<String>,
        names: Vec<String>,
        manifests: Vec<String>,
    ) -> napi::Result<NativeEvoke> {
        let options = evoke::OpenOptions {
            recording: recording.map(PathBuf::from),
            home: home.map(PathBuf::from),
            reflexes: code_reflexes(names, manifests)?,
            adapter,
        };
        let inner = evoke::Evoke::in_code(options).map_err(thrown)?;
        Ok(NativeEvoke { inner })
    }

    /// Decides `sentence`, running nothing.
    #[napi(catch_unwind)]
    pub fn decide(&self, sentence: String) -> napi::Result<NativeDecision> {
        let inner = self.inner.decide(&sentence).map_err(thrown)?;
        Ok(NativeDecision { inner })
    }

    /// Plans `sentence` read as several steps, running nothing.
    #[napi(catch_unwind)]
    pub fn plan(&self, sentence: String) -> napi::Result<NativePlan> {
        Ok(NativePlan::of(self.inner.plan(&sentence).map_err(thrown)?))
    }

    /// The sealed plan file of `plan`, as `evoke try --save FILE` writes it.
    #[napi(catch_unwind)]
    pub fn save(&self, plan: &NativePlan) -> napi::Result<String> {
        if plan.inner.ran() {
            return Err(NativePlan::gone());
        }
        self.inner.save(&plan.inner).map_err(thrown)
    }

    /// Runs `plan` as the command runs a plan, through the person `answer` speaks for, as `run` does; a
    /// plan runs once. A run the library refuses before its first step (a plan of another `Evoke`, a call
    /// made inside a plan's callback, calls nested too deep, its journal held by another run) leaves the
    /// plan to run later.
    /// The result is `{exit, name, lines}`: the exit class the command would end with and each line it wrote.
    #[napi(catch_unwind)]
    pub fn run_plan(&self, plan: &NativePlan, present: bool, answer: Answerer<'_>) -> napi::Result<String> {
        if plan.inner.ran() {
            return Err(NativePlan::gone());
        }
        let _running = Running::enter(&answer);
        let person = JsPerson { present, answer, refused: RefCell::new(None), failed: Cell::new(false) };
        let ran = self.inner.run_plan(&plan.inner, &person);
        if person.failed.get() {
            // `index.js` rethrows the callback's own exception; this error only stands for it.
            return Err(napi::Error::new(Status::GenericFailure, "a person callback threw"));
        }
        let ran = ran.map_err(|e| thrown(with_refusal(e, person.refused.into_inner())))?;
        let exit = ran.exit();
        Ok(json!({ "exit": exit as u8, "name": exit_name(exit), "lines": ran.lines() }).to_string())
    }

    /// The text `evoke why back` prints.
    #[napi(catch_unwind)]
    pub fn why(&self, back: u32) -> napi::Result<String> {
        self.inner.why(back as usize).map_err(thrown)
    }

    /// Runs `decision` through a person `answer` speaks for: `answer("confirm", question)` returns `true`
    /// or `false`, `answer("ask", missing)` the answer's JSON or `null`, and `answer("body", {index, call})`
    /// a code body's `{text, data}` or `{thrown: {message, frames}}`. The result is the run's JSON:
    /// `{succeeded, text, data, failure, line}`.
    #[napi(catch_unwind)]
    pub fn run(&self, decision: &NativeDecision, present: bool, answer: Answerer<'_>) -> napi::Result<String> {
        let _running = Running::enter(&answer);
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

/// A declined run whose question was answered with no choice of its own says which answer it refused, and
/// what it takes instead.
fn with_refusal(e: evoke::Error, refused: Option<Refusal>) -> evoke::Error {
    match (refused, e.exit()) {
        (Some(Refusal { arg, why, choices }), Exit::Declined) => evoke::Error::Command(
            evoke::error::CommandError::new(
                Exit::Declined,
                format!("the answer for `{arg}` is not taken: {why}; nothing ran"),
            )
            .with_fix(format!("answer `{arg}` with one of: {choices}")),
        ),
        _ => e,
    }
}

/// An answer `ask` gave that is not among its question's choices.
struct Refusal {
    arg: String,
    why: String,
    /// The choices as a placeholder shows them: `work|home`, or a pick's kind.
    choices: String,
}

/// The person `index.js` answers for, called on the thread that called `run`.
struct JsPerson<'scope> {
    present: bool,
    answer: Answerer<'scope>,
    /// An answer not taken: not one of its question's choices.
    refused: RefCell<Option<Refusal>>,
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
                let choices = evoke::render::choices(missing);
                *self.refused.borrow_mut() = Some(Refusal { arg: missing.arg.clone(), why: why.to_string(), choices });
                None
            }
        }
    }
}
