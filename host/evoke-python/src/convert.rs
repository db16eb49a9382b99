//! JSON values between Rust and Python: what a decision's values, a missing value, a call and a body's
//! data are on either side.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

/// `value` as Python sees it: objects as dicts in their order, arrays as lists.
pub(crate) fn to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => object_to_py(py, map)?.into_any(),
    })
}

/// A JSON object as a dict, its keys in their order.
pub(crate) fn object_to_py<'py>(py: Python<'py>, map: &Map<String, Value>) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (key, value) in map {
        dict.set_item(key, to_py(py, value)?)?;
    }
    Ok(dict)
}

/// How many lists, tuples and dicts a value may be nested in: serde_json's readers stop at 128 levels, and
/// the Rust library holds a body's data to what they read back.
pub(crate) const MAX_DEPTH: usize = 128;

/// A Python value as JSON: `None`, a bool, an int, a finite float, a str, a list or tuple of these, or a
/// dict of them with str keys; anything else is a `TypeError`, so a body cannot return what JSON cannot
/// hold. A value nested deeper than [`MAX_DEPTH`], or one that holds itself, is a `ValueError`.
pub(crate) fn from_py(value: &Bound<'_, PyAny>) -> PyResult<Value> {
    from_py_within(value, &mut Vec::new())
}

/// `from_py` of a value inside the containers of `path`, outermost first.
fn from_py_within(value: &Bound<'_, PyAny>, path: &mut Vec<*mut pyo3::ffi::PyObject>) -> PyResult<Value> {
    // A bool is an int in Python, so it is told apart first.
    if value.is_none() {
        Ok(Value::Null)
    } else if let Ok(b) = value.cast::<PyBool>() {
        Ok(Value::Bool(b.is_true()))
    } else if value.is_instance_of::<PyInt>() {
        if let Ok(i) = value.extract::<i64>() {
            Ok(Value::from(i))
        } else {
            Ok(Value::from(value.extract::<u64>().map_err(|_| PyValueError::new_err("an int too large for JSON"))?))
        }
    } else if value.is_instance_of::<PyFloat>() {
        let f: f64 = value.extract()?;
        Number::from_f64(f).map(Value::Number).ok_or_else(|| PyValueError::new_err(format!("{f} is not a JSON number")))
    } else if let Ok(s) = value.cast::<PyString>() {
        Ok(Value::String(s.to_str()?.to_string()))
    } else if let Ok(dict) = value.cast::<PyDict>() {
        enter(value, path)?;
        let mut map = Map::new();
        for (key, item) in dict.iter() {
            let key = key.cast::<PyString>().map_err(|_| PyTypeError::new_err("a dict key must be a str for JSON"))?;
            map.insert(key.to_str()?.to_string(), from_py_within(&item, path)?);
        }
        path.pop();
        Ok(Value::Object(map))
    } else if let Ok(list) = value.cast::<PyList>() {
        enter(value, path)?;
        // The list's own items, as `json.dumps` takes them, whatever `__iter__` a subclass defines.
        let items = list.iter().map(|item| from_py_within(&item, path)).collect::<PyResult<_>>()?;
        path.pop();
        Ok(Value::Array(items))
    } else if let Ok(tuple) = value.cast::<PyTuple>() {
        enter(value, path)?;
        let items = tuple.iter().map(|item| from_py_within(&item, path)).collect::<PyResult<_>>()?;
        path.pop();
        Ok(Value::Array(items))
    } else {
        let kind = value.get_type().name()?;
        Err(PyTypeError::new_err(format!("a {kind} cannot be held in JSON")))
    }
}

/// Steps into the container `value` below `path`: refused when `path` holds it already (it contains
/// itself, and JSON would never end) or is [`MAX_DEPTH`] deep.
fn enter(value: &Bound<'_, PyAny>, path: &mut Vec<*mut pyo3::ffi::PyObject>) -> PyResult<()> {
    // Only the containers around this one are held: the same list twice side by side is no cycle.
    if path.contains(&value.as_ptr()) {
        let kind = value.get_type().name()?;
        return Err(PyValueError::new_err(format!("the {kind} contains itself, so JSON cannot hold it")));
    }
    if path.len() >= MAX_DEPTH {
        return Err(PyValueError::new_err(format!(
            "data nested deeper than {MAX_DEPTH} levels, which a JSON reader does not take"
        )));
    }
    path.push(value.as_ptr());
    Ok(())
}
