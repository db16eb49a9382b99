//! Reflexes handed as code from Python: a manifest's text, and a Python callable as the body.

use crate::convert;
use crate::error::{guarded, raised};
use evoke::{Called, CodeReflex, Returned, Thrown};
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use std::cell::RefCell;

thread_local! {
    /// One slot per run under way on this thread, innermost last: an exception a body of that run raised
    /// that is no `Exception` (`KeyboardInterrupt`, `SystemExit`). A body runs on the thread of the run
    /// that called it, so a run raises its own body's interrupt again, never another thread's.
    static ESCAPED: RefCell<Vec<Option<PyErr>>> = const { RefCell::new(Vec::new()) };
}

/// Runs `work`, one run on this thread, and hands back with its result the first exception that is no
/// `Exception` a body raised inside it, for the run to raise again once it is over, so an interrupt is
/// never swallowed.
pub(crate) fn watched<T>(work: impl FnOnce() -> T) -> (T, Option<PyErr>) {
    /// Lets go of the run's slot however `work` ends, a panic included.
    struct Slot;
    impl Drop for Slot {
        fn drop(&mut self) {
            ESCAPED.with(|slots| slots.borrow_mut().pop());
        }
    }
    ESCAPED.with(|slots| slots.borrow_mut().push(None));
    let slot = Slot;
    let done = work();
    let escaped = ESCAPED.with(|slots| slots.borrow_mut().last_mut().and_then(Option::take));
    drop(slot);
    (done, escaped)
}

/// A reflex handed as code: its name, its `reflex.toml` text without `run`, `grants` or `config`, and a
/// callable that receives the call (`{"args", "input", "config"}`) and returns a str or `{"text", "data"}`.
#[pyclass(module = "evoke._evoke", frozen)]
pub struct Reflex {
    pub(crate) inner: CodeReflex,
}

#[pymethods]
impl Reflex {
    /// Reads `manifest` for a reflex named `name`, with `body` as what runs; a manifest that does not
    /// read is an `EvokeError` of exit class 2.
    #[new]
    fn new(py: Python<'_>, name: &str, manifest: &str, body: Py<PyAny>) -> PyResult<Reflex> {
        guarded(|| {
            if !body.bind(py).is_callable() {
                return Err(pyo3::exceptions::PyTypeError::new_err("a reflex's body must be callable"));
            }
            let made = CodeReflex::new(name, manifest, move |called| Python::attach(|py| call(py, &body, called)));
            made.map(|inner| Reflex { inner }).map_err(|e| raised(py, &e))
        })
    }

    /// The name it is decided and logged under.
    #[getter]
    fn name(&self) -> &str {
        self.inner.name()
    }

    /// Its `item` as a plan file pins it: the hash of its manifest.
    #[getter]
    fn item(&self) -> String {
        self.inner.item()
    }

    fn __repr__(&self) -> String {
        format!("<Reflex {}>", self.inner.name())
    }
}

/// Calls the Python body with the call; what it raises is the run's failure, with its frames.
fn call(py: Python<'_>, body: &Py<PyAny>, called: &Called) -> Result<Returned, Thrown> {
    let given = convert::to_py(py, &called.to_json()).map_err(|e| thrown(py, &e))?;
    let result = body.bind(py).call1((given,)).map_err(|e| {
        if !e.is_instance_of::<PyException>(py) {
            ESCAPED.with(|slots| {
                if let Some(slot) = slots.borrow_mut().last_mut() {
                    slot.get_or_insert_with(|| e.clone_ref(py));
                }
            });
        }
        thrown(py, &e)
    })?;
    returned(&result).map_err(|e| thrown(py, &e))
}

/// A body's result: a str, or a dict with a str `text` and, optionally, JSON `data`.
fn returned(result: &Bound<'_, PyAny>) -> PyResult<Returned> {
    if let Ok(text) = result.cast::<PyString>() {
        return Ok(Returned { text: text.to_str()?.to_string(), data: None });
    }
    let shape = || {
        let kind = result.get_type().name().map(|n| n.to_string()).unwrap_or_default();
        pyo3::exceptions::PyTypeError::new_err(format!(
            "the body returned a {kind}; it must return a str or a dict with a str `text` and optional `data`"
        ))
    };
    let dict = result.cast::<PyDict>().map_err(|_| shape())?;
    let text = dict.get_item("text")?.ok_or_else(shape)?;
    let text = text.cast::<PyString>().map_err(|_| shape())?.to_str()?.to_string();
    let data = match dict.get_item("data")? {
        Some(data) if !data.is_none() => Some(convert::from_py(&data)?),
        _ => None,
    };
    Ok(Returned { text, data })
}

/// `e` as a body's failure: the last line Python's traceback prints, and the frames innermost first, each
/// as `at NAME (FILE:LINE)`, as a JavaScript body's are.
fn thrown(py: Python<'_>, e: &PyErr) -> Thrown {
    let traceback = py.import("traceback");
    let message = traceback
        .as_ref()
        .ok()
        .and_then(|tb| tb.call_method1("format_exception_only", (e.value(py),)).ok())
        .and_then(|lines| lines.extract::<Vec<String>>().ok())
        .and_then(|lines| lines.last().map(|line| line.trim_end().to_string()))
        .unwrap_or_else(|| e.to_string());
    let frames = e
        .traceback(py)
        .and_then(|tb| traceback.ok()?.call_method1("extract_tb", (tb,)).ok())
        .and_then(|summaries| {
            let mut frames = Vec::new();
            for summary in summaries.try_iter().ok()? {
                let summary = summary.ok()?;
                let name: String = summary.getattr("name").ok()?.extract().ok()?;
                let file: String = summary.getattr("filename").ok()?.extract().ok()?;
                let line: Option<u32> = summary.getattr("lineno").ok()?.extract().ok()?;
                frames.push(format!("at {name} ({file}:{})", line.unwrap_or(0)));
            }
            frames.reverse();
            Some(frames)
        })
        .unwrap_or_default();
    Thrown { message, frames }
}
