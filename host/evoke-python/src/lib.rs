//! The Python binding of evoke's library, loaded as `evoke._evoke` and re-exported by the `evoke`
//! package: open a trusted project, decide a sentence, plan one read as several steps, run a decision
//! through a Python person, and say why (docs/python.md).
//!
//! Every call goes through `evoke::Evoke`, so the command's checks hold here too: trust, the lock's pin,
//! the gate's bars, a body's grants and bounds. Each error reaches Python as an `EvokeError` of its exit
//! class, and a panic is caught before it reaches Python.

// The binding's public face: every item it shows is documented.
#![warn(missing_docs)]

use pyo3::prelude::*;
use std::path::PathBuf;

mod convert;
mod error;
mod person;
mod reflex;

use error::{guarded, raised};
use person::{PyPerson, Question};
use reflex::{Reflex, watched};

/// A trusted project, opened with the engine that decides in it (`evoke::Evoke`).
#[pyclass(module = "evoke._evoke", frozen)]
pub struct Evoke {
    inner: evoke::Evoke,
}

/// One decision of a sentence, made by `Evoke.decide` and runnable only by the `Evoke` that made it.
#[pyclass(module = "evoke._evoke", frozen)]
pub struct Decision {
    inner: evoke::Decision,
}

/// The plan of a sentence read as several steps, or of a playbook it picked, made by `Evoke.plan`.
#[pyclass(module = "evoke._evoke", frozen)]
pub struct Plan {
    /// The plan, which runs once: the library keeps whether it ran.
    inner: evoke::Plan,
    input: String,
    outcome: &'static str,
    playbook: Option<String>,
    json: String,
}

/// How a plan's run ended: the exit the command would end with, and each line it wrote.
#[pyclass(module = "evoke._evoke", frozen)]
pub struct PlanRan {
    inner: evoke::PlanRan,
}

/// What a run gave: the body's text and data, or its failure with its frames.
#[pyclass(module = "evoke._evoke", frozen)]
pub struct Ran {
    inner: evoke::Ran,
}

#[pymethods]
impl Evoke {
    /// Opens the project in `dir`, refused unless trusted; `recording` answers in place of the engine,
    /// `home` is this `Evoke`'s own `EVOKE_HOME`, and `reflexes` are handed as code beside the project's.
    #[staticmethod]
    #[pyo3(
        signature = (dir, recording = None, home = None, reflexes = Vec::new()),
        text_signature = "(dir, recording=None, home=None, reflexes=())"
    )]
    fn open(
        py: Python<'_>,
        dir: PathBuf,
        recording: Option<PathBuf>,
        home: Option<PathBuf>,
        reflexes: Vec<PyRef<'_, Reflex>>,
    ) -> PyResult<Evoke> {
        guarded(|| {
            let code = reflexes.iter().map(|r| r.inner.clone()).collect();
            let options = evoke::OpenOptions { recording, home, reflexes: code, ..Default::default() };
            let opened = py.detach(|| evoke::Evoke::open(&dir, options));
            opened.map(|inner| Evoke { inner }).map_err(|e| raised(py, &e))
        })
    }

    /// A project built in code: only `reflexes`, decided by `adapter` (else the home `evoke.toml`'s
    /// engine, else `local`) under the home's bars; with no files, there is nothing to trust.
    #[staticmethod]
    #[pyo3(signature = (reflexes, recording = None, home = None, adapter = None))]
    fn in_code(
        py: Python<'_>,
        reflexes: Vec<PyRef<'_, Reflex>>,
        recording: Option<PathBuf>,
        home: Option<PathBuf>,
        adapter: Option<String>,
    ) -> PyResult<Evoke> {
        guarded(|| {
            let code = reflexes.iter().map(|r| r.inner.clone()).collect();
            let options = evoke::OpenOptions { recording, home, reflexes: code, adapter };
            let opened = py.detach(|| evoke::Evoke::in_code(options));
            opened.map(|inner| Evoke { inner }).map_err(|e| raised(py, &e))
        })
    }

    /// The sealed plan file of `plan`, as `evoke try --save FILE` writes it, for `evoke run FILE`.
    fn save(&self, py: Python<'_>, plan: &Plan) -> PyResult<String> {
        guarded(|| {
            if plan.inner.ran() {
                return Err(Plan::spent(py));
            }
            py.detach(|| self.inner.save(&plan.inner)).map_err(|e| raised(py, &e))
        })
    }

    /// Runs a plan this `Evoke` made, once, by the command's runner, through `person`: missing values
    /// asked first, a playbook's review confirmed once, then each step through its gate at its turn.
    fn run_plan(&self, py: Python<'_>, plan: &Plan, person: Py<PyAny>) -> PyResult<PlanRan> {
        guarded(|| {
            // The library keeps whether the plan ran: one it refuses before its first step is left to run.
            if plan.inner.ran() {
                return Err(Plan::spent(py));
            }
            let person = PyPerson::new(person);
            let (ran, escaped) = watched(|| py.detach(|| self.inner.run_plan(&plan.inner, &person)));
            if let Some(e) = escaped {
                return Err(e);
            }
            // As in `run`: a callback's own exception says more than the no it caused; what ran before it
            // is in the log.
            if let Some(e) = person.take_raised() {
                return Err(e);
            }
            ran.map(|inner| PlanRan { inner }).map_err(|e| raised(py, &e))
        })
    }

    /// Decides `sentence`, running nothing, and logs it as `evoke try` does.
    fn decide(&self, py: Python<'_>, sentence: &str) -> PyResult<Decision> {
        guarded(|| {
            let decided = py.detach(|| self.inner.decide(sentence));
            decided.map(|inner| Decision { inner }).map_err(|e| raised(py, &e))
        })
    }

    /// Plans `sentence` when it reads as several steps or picks a playbook, running nothing.
    fn plan(&self, py: Python<'_>, sentence: &str) -> PyResult<Plan> {
        guarded(|| {
            let planned = py.detach(|| self.inner.plan(sentence));
            planned.map(Plan::of).map_err(|e| raised(py, &e))
        })
    }

    /// Runs `decision` through `person`: a confirm runs only on its `confirm` returning `True`, an ask
    /// asks its `ask` for each missing value.
    fn run(&self, py: Python<'_>, decision: &Decision, person: Py<PyAny>) -> PyResult<Ran> {
        guarded(|| {
            let person = PyPerson::new(person);
            // Other Python threads go on while the body runs; each callback takes the interpreter back.
            let (ran, escaped) = watched(|| py.detach(|| self.inner.run(&decision.inner, &person)));
            if let Some(e) = escaped {
                return Err(e);
            }
            // A callback's own exception says more than the refusal it caused.
            if let Some(e) = person.take_raised() {
                return Err(e);
            }
            ran.map(|inner| Ran { inner }).map_err(|e| raised(py, &e))
        })
    }

    /// The text `evoke why back` prints, from this `Evoke`'s log (1 is the last decision).
    #[pyo3(signature = (back = 1))]
    fn why(&self, py: Python<'_>, back: usize) -> PyResult<String> {
        guarded(|| py.detach(|| self.inner.why(back)).map_err(|e| raised(py, &e)))
    }
}

#[pymethods]
impl Decision {
    /// `run`, `confirm`, `ask` or `abstain`.
    #[getter]
    fn outcome(&self) -> &'static str {
        self.inner.outcome().as_str()
    }

    /// The sentence as decided.
    #[getter]
    fn input(&self) -> &str {
        self.inner.input()
    }

    /// The JSON line `evoke try --json` prints for the same input and answers, with `values` after it.
    #[getter]
    fn json(&self) -> String {
        self.inner.to_json_line()
    }

    /// Each argument as the body would receive it, in the call's order.
    #[getter]
    fn values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let values = self.inner.values().iter().cloned().collect();
        convert::object_to_py(py, &values)
    }

    /// The chosen reflex's name, `None` for an abstain.
    #[getter]
    fn reflex(&self) -> Option<&str> {
        match &self.inner {
            evoke::Decision::Run(run) => Some(run.call().reflex()),
            evoke::Decision::Confirm(confirm) => Some(confirm.call().reflex()),
            evoke::Decision::Ask(ask) => Some(ask.reflex()),
            evoke::Decision::Abstain(_) => None,
        }
    }

    /// The complete call on one line (`lights room="kitchen" state="on"`), for a run or a confirm.
    #[getter]
    fn call(&self) -> Option<&str> {
        self.complete().map(|call| call.line())
    }

    /// `read`, `write` or `destructive`, for a run or a confirm.
    #[getter]
    fn effect(&self) -> Option<&'static str> {
        self.complete().map(|call| call.effect().as_str())
    }

    /// What a confirm asks: the reflex's question, with evoke's own line and why the call waits.
    #[getter]
    fn question(&self) -> Option<Question> {
        let evoke::Decision::Confirm(confirm) = &self.inner else { return None };
        let prompt = confirm.prompt();
        Some(Question::of(prompt))
    }

    /// Each value an ask misses, with its question and closed choices, as the JSON line shows it.
    #[getter]
    fn missing<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let missing = match &self.inner {
            evoke::Decision::Ask(ask) => ask.missing(),
            _ => &[],
        };
        convert::to_py(py, &serde_json::to_value(missing).unwrap_or_default())
    }

    fn __repr__(&self) -> String {
        match self.call() {
            Some(call) => format!("<Decision {} {call}>", self.outcome()),
            None => format!("<Decision {} {:?}>", self.outcome(), self.input()),
        }
    }
}

impl Decision {
    /// The complete call a run or a confirm holds.
    fn complete(&self) -> Option<&evoke::sdk::Call> {
        match &self.inner {
            evoke::Decision::Run(run) => Some(run.call()),
            evoke::Decision::Confirm(confirm) => Some(confirm.call()),
            _ => None,
        }
    }
}

impl Plan {
    /// The plan `Evoke.plan` made, its fields read once so they outlast its run.
    fn of(plan: evoke::Plan) -> Plan {
        Plan {
            input: plan.input().to_string(),
            outcome: plan.verdict().outcome.as_str(),
            playbook: plan.playbook().map(str::to_string),
            json: plan.to_json_line(),
            inner: plan,
        }
    }

    /// The error of a plan used after its run.
    fn spent(py: Python<'_>) -> PyErr {
        error::exception(
            py,
            evoke::exit::Exit::Usage as u8,
            "the plan ran already; a plan runs once",
            Some("plan the sentence again with Evoke.plan".into()),
        )
    }
}

#[pymethods]
impl Plan {
    /// The sentence as planned.
    #[getter]
    fn input(&self) -> &str {
        &self.input
    }

    /// The plan's verdict: its weakest step's outcome, or `abstain` when it is refused whole.
    #[getter]
    fn outcome(&self) -> &'static str {
        self.outcome
    }

    /// The playbook that wrote the plan, when one did.
    #[getter]
    fn playbook(&self) -> Option<&str> {
        self.playbook.as_deref()
    }

    /// The plan line `evoke try --json` prints for the same input and answers.
    #[getter]
    fn json(&self) -> &str {
        &self.json
    }

    /// Whether `Evoke.run_plan` took it already.
    #[getter]
    fn ran(&self) -> bool {
        self.inner.ran()
    }

    fn __repr__(&self) -> String {
        format!("<Plan {} {:?}>", self.outcome, self.input)
    }
}

#[pymethods]
impl PlanRan {
    /// The exit the command would end with, as an `evoke.Exit`: `DONE` when every step ran and returned.
    #[getter]
    fn exit<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("evoke._errors")?.getattr("Exit")?.call1((self.inner.exit() as u8,))
    }

    /// Each line of the run, in the order written, as `evoke --json` prints them.
    #[getter]
    fn lines(&self) -> Vec<String> {
        self.inner.lines().to_vec()
    }

    fn __repr__(&self) -> String {
        format!("<PlanRan exit {} lines {}>", self.inner.exit() as u8, self.inner.lines().len())
    }
}

#[pymethods]
impl Ran {
    /// Whether the body returned.
    #[getter]
    fn succeeded(&self) -> bool {
        self.inner.succeeded()
    }

    /// The text the body returned.
    #[getter]
    fn text(&self) -> Option<&str> {
        self.inner.text()
    }

    /// The data the body returned beside its text.
    #[getter]
    fn data<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::to_py(py, self.inner.data().unwrap_or(&serde_json::Value::Null))
    }

    /// The body's failure, when it did not return.
    #[getter]
    fn failure(&self) -> Option<&str> {
        self.inner.failure()
    }

    /// A failed body's frames, innermost first, as its line records them (empty when it has none).
    #[getter]
    fn frames(&self) -> Vec<String> {
        let line: serde_json::Value = serde_json::from_str(self.inner.to_json_line()).unwrap_or_default();
        serde_json::from_value(line.get("frames").cloned().unwrap_or_default()).unwrap_or_default()
    }

    /// The JSON line of the call with its result, as `evoke --json` prints it.
    #[getter]
    fn json(&self) -> &str {
        self.inner.to_json_line()
    }

    fn __repr__(&self) -> String {
        match (self.text(), self.failure()) {
            (Some(text), _) => format!("<Ran {text:?}>"),
            (None, failure) => format!("<Ran failed {:?}>", failure.unwrap_or_default()),
        }
    }
}

/// The native module, `evoke._evoke`.
#[pymodule]
fn _evoke(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Evoke>()?;
    module.add_class::<Decision>()?;
    module.add_class::<Plan>()?;
    module.add_class::<PlanRan>()?;
    module.add_class::<Ran>()?;
    module.add_class::<Question>()?;
    module.add_class::<Reflex>()?;
    Ok(())
}
