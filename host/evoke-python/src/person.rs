//! A Python object as the person who confirms and answers: its `confirm`, `ask` and optional `present`.

use crate::convert;
use evoke::{Person, Question as Asked};
use evoke_core::decision::{Missing, Prompt, Value};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};
use std::sync::Mutex;

/// What a person is asked before a call runs: the question itself, and, for a call's confirm, evoke's
/// own line and why the call waits, which a program shows before the question so the reflex's words
/// never pass for evoke's.
#[pyclass(module = "evoke._evoke", frozen, get_all)]
pub struct Question {
    /// The question a person answers yes or no.
    text: String,
    /// evoke's own line about the call (`None` for a question of evoke's own).
    own: Option<String>,
    /// Why the call waits for a yes (`None` for a question of evoke's own).
    reason: Option<String>,
}

impl Question {
    /// A call's confirm, as `Decision.question` and `confirm` show it.
    pub(crate) fn of(prompt: &Prompt) -> Question {
        Question { text: prompt.template.clone(), own: Some(prompt.own.clone()), reason: Some(prompt.reason.clone()) }
    }
}

#[pymethods]
impl Question {
    fn __str__(&self) -> &str {
        &self.text
    }

    fn __repr__(&self) -> String {
        format!("Question({:?})", self.text)
    }
}

/// The Python person of one run; the first exception its callbacks raised is kept to be raised from
/// `run` in place of the refusal it caused.
pub(crate) struct PyPerson {
    person: Py<PyAny>,
    raised: Mutex<Option<PyErr>>,
}

impl PyPerson {
    /// `person`, answering through its methods.
    pub(crate) fn new(person: Py<PyAny>) -> PyPerson {
        PyPerson { person, raised: Mutex::new(None) }
    }

    /// The first exception a callback raised, if any did.
    pub(crate) fn take_raised(&self) -> Option<PyErr> {
        self.raised.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take()
    }

    /// Keeps `e` unless an earlier exception is kept already: the first is the cause of what followed.
    fn keep(&self, e: PyErr) {
        let mut raised = self.raised.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        raised.get_or_insert(e);
    }

    /// Whether a person answers at all: `present` as a bool or a method returning one, true when absent.
    fn is_present(&self, py: Python<'_>) -> PyResult<bool> {
        let Some(present) = self.person.bind(py).getattr_opt("present")? else { return Ok(true) };
        let said = if present.is_callable() { present.call0()? } else { present };
        strict_bool(&said, "present")
    }

    fn confirms(&self, py: Python<'_>, question: Asked<'_>) -> PyResult<bool> {
        let question = match question {
            Asked::Call(prompt) => Question::of(prompt),
            Asked::Own(text) => Question { text: text.to_string(), own: None, reason: None },
        };
        let said = self.person.bind(py).call_method1("confirm", (question,))?;
        strict_bool(&said, "confirm")
    }

    fn answers(&self, py: Python<'_>, missing: &Missing) -> PyResult<Option<Value>> {
        let described = serde_json::to_value(missing).unwrap_or_default();
        let said = self.person.bind(py).call_method1("ask", (convert::to_py(py, &described)?,))?;
        if said.is_none() {
            return Ok(None);
        }
        // A listed choice's number may come as an int; a bool is never an answer.
        let answer = if said.is_instance_of::<PyBool>() {
            return Err(PyTypeError::new_err("ask must return a str, an int or None, not a bool"));
        } else if let Ok(text) = said.cast::<PyString>() {
            text.to_str()?.to_string()
        } else if said.is_instance_of::<PyInt>() {
            said.str()?.to_str()?.to_string()
        } else {
            let kind = said.get_type().name()?;
            return Err(PyTypeError::new_err(format!("ask must return a str, an int or None, not a {kind}")));
        };
        match evoke::prompt::accept(missing, &answer) {
            Ok(value) => Ok(Some(value)),
            Err(why) => Err(crate::error::exception(
                py,
                evoke::exit::Exit::Declined as u8,
                &format!("{why}; nothing ran"),
                Some(format!("answer `{}` with one of its choices", missing.arg)),
            )),
        }
    }
}

/// `said` when it is exactly `True` or `False`: a truthy answer of another type (`"no"`) is never a yes.
fn strict_bool(said: &Bound<'_, PyAny>, method: &str) -> PyResult<bool> {
    match said.cast::<PyBool>() {
        Ok(b) => Ok(b.is_true()),
        Err(_) => {
            let kind = said.get_type().name()?;
            Err(PyTypeError::new_err(format!("{method} must give a bool, not a {kind}")))
        }
    }
}

impl Person for PyPerson {
    fn present(&self) -> bool {
        // A callback that raised counts as nobody there, and its exception is what `run` raises.
        Python::attach(|py| self.is_present(py)).unwrap_or_else(|e| {
            self.keep(e);
            false
        })
    }

    fn confirm(&self, question: Asked<'_>) -> bool {
        Python::attach(|py| self.confirms(py, question)).unwrap_or_else(|e| {
            self.keep(e);
            false
        })
    }

    fn ask(&self, missing: &Missing) -> Option<Value> {
        Python::attach(|py| self.answers(py, missing)).unwrap_or_else(|e| {
            self.keep(e);
            None
        })
    }
}
