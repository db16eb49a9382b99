//! Every `evoke::Error` as a Python exception of `evoke._errors`, and no panic across the edge.

use evoke_core::diag::Diagnostic;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// `e` as the `EvokeError` subclass of its exit class, with its exit, message, fix and the refusals
/// behind it.
pub(crate) fn raised(py: Python<'_>, e: &evoke::Error) -> PyErr {
    let diagnostics = match e {
        evoke::Error::Command(command) => command.diagnostics.iter().map(described).collect(),
        _ => Vec::new(),
    };
    made(py, e.exit() as u8, &e.message(), e.fix(), diagnostics)
}

/// One refusal as the dict `EvokeError.diagnostics` holds: where it is, what it says, and its fix.
fn described(d: &Diagnostic) -> serde_json::Value {
    serde_json::json!({
        "severity": d.severity,
        "type": d.problem.as_str(),
        "file": d.file,
        "line": d.place.line,
        "column": d.place.column,
        "key": d.key,
        "message": d.message,
        "fix": d.fix,
    })
}

/// An `EvokeError` of exit class `exit` with no refusals behind it.
pub(crate) fn exception(py: Python<'_>, exit: u8, message: &str, fix: Option<String>) -> PyErr {
    made(py, exit, message, fix, Vec::new())
}

/// An `EvokeError` made by `evoke._errors`, so Python code sees the classes it imports.
fn made(py: Python<'_>, exit: u8, message: &str, fix: Option<String>, diagnostics: Vec<serde_json::Value>) -> PyErr {
    let diagnostics = crate::convert::to_py(py, &serde_json::Value::Array(diagnostics));
    let made = diagnostics.and_then(|diagnostics| {
        py.import("evoke._errors")?.getattr("_error")?.call1((exit, message, fix, diagnostics))
    });
    match made {
        Ok(instance) => PyErr::from_value(instance),
        // Only a broken install lacks the module; the error still says what went wrong.
        Err(missing) => PyRuntimeError::new_err(format!("{message} (and evoke._errors failed: {missing})")),
    }
}

/// Runs `work`, turning a panic inside the binding into an `EvokeError` of exit class 1, so that none
/// reaches Python as pyo3's `PanicException`.
pub(crate) fn guarded<T>(work: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).unwrap_or_else(|panic| {
        let said = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".into());
        Err(Python::attach(|py| exception(py, 1, &format!("evoke failed inside: {said}"), None)))
    })
}
