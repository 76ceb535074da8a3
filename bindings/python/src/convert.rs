//! Conversions between Python objects and the engine's JSON data model.
//!
//! Going in, a Python value becomes a `serde_json::Value` that the engine's canonical JSON
//! reader then validates: `decimal.Decimal` becomes a decimal string, `datetime.datetime` (naive)
//! and `datetime.date` become ISO 8601 strings, and `float` is refused, because a float has
//! already lost the cents the statement printed. Coming out, JSON is handed to Python's `json`
//! module, so `to_dict()` is exactly `json.loads(to_json())`.

use chrono::{NaiveDate, NaiveDateTime};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{
    PyBool, PyDate, PyDateTime, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple, PyType,
};
use serde::Serialize;
use serde_json::{Map, Value};

static DECIMAL: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// Converts a Python value to JSON. `path` names the value in error messages
/// (`transactions[3].paidIn`).
///
/// # Errors
/// `TypeError` for floats and for types with no JSON form; `ValueError` for timezone-aware
/// datetimes and for integers beyond 64 bits.
pub(crate) fn to_value(obj: &Bound<'_, PyAny>, path: &str) -> PyResult<Value> {
    let py = obj.py();
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::String(s.to_cow()?.into_owned()));
    }
    if obj.is_instance_of::<PyFloat>() {
        return Err(PyTypeError::new_err(format!(
            "{path} is the float {}: give money as decimal.Decimal, str or int \
             (a float has already lost the cents)",
            obj.repr()?
        )));
    }
    if obj.is_instance_of::<PyInt>() {
        if let Ok(i) = obj.extract::<i64>() {
            return Ok(Value::from(i));
        }
        if let Ok(u) = obj.extract::<u64>() {
            return Ok(Value::from(u));
        }
        return Err(PyValueError::new_err(format!(
            "{path} is an integer beyond 64 bits: give it as a str"
        )));
    }
    if obj.is_instance(DECIMAL.import(py, "decimal", "Decimal")?)? {
        return Ok(Value::String(obj.str()?.to_cow()?.into_owned()));
    }
    if obj.is_instance_of::<PyDateTime>() {
        let time: NaiveDateTime = obj.extract().map_err(|_| {
            PyValueError::new_err(format!(
                "{path} is a timezone-aware datetime: give the wallet's local time as printed \
                 on the statement, without tzinfo (M-Pesa: Africa/Nairobi)"
            ))
        })?;
        return Ok(serde_json::to_value(time).unwrap_or(Value::Null));
    }
    if obj.is_instance_of::<PyDate>() {
        let date: NaiveDate = obj.extract()?;
        return Ok(serde_json::to_value(date).unwrap_or(Value::Null));
    }
    if let Ok(dict) = obj.cast::<PyDict>() {
        let mut map = Map::with_capacity(dict.len());
        for (key, value) in dict.iter() {
            let key = key.cast::<PyString>().map_err(|_| {
                PyTypeError::new_err(format!("{path} has a key that is not a str: {key:?}"))
            })?;
            let key = key.to_cow()?.into_owned();
            let child = to_value(&value, &join(path, &key))?;
            map.insert(key, child);
        }
        return Ok(Value::Object(map));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let items = obj
            .try_iter()?
            .enumerate()
            .map(|(i, item)| to_value(&item?, &format!("{path}[{i}]")))
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(Value::Array(items));
    }
    Err(PyTypeError::new_err(format!(
        "{path} is a {}, which has no statement JSON form",
        obj.get_type().name()?
    )))
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

/// `json.loads(text)`: the JSON data model as Python dicts, lists, str, int, bool and None.
pub(crate) fn loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// The serde (wire) name of an enum value, e.g. `"completed"`, `"buy_goods"`, `"mpesa"`.
pub(crate) fn wire<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(Value::String(s)) => s,
        _ => String::new(),
    }
}
