//! Runtime values are JSON values: what a leaf answers is what the journal holds is what a program reads.

use serde_json::{Number, Value};

/// A number as JSON: whole numbers as integers, so `{open_bugs}` renders `1`, not `1.0`.
pub fn number(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 9.0e15 {
        Value::from(n as i64)
    } else {
        Number::from_f64(n).map_or(Value::Null, Value::Number)
    }
}

/// How a value reads inside a string: text as itself, null as nothing, whole numbers without a point.
pub fn render(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        Value::Number(n) => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => format!("{}", f as i64),
            _ => n.to_string(),
        },
        other => other.to_string(),
    }
}

/// How a value the checker typed a duration reads inside a string: its milliseconds in the shortest exact
/// unit (`5m`, `90s`, `1500ms`). A value that is not a whole, non-negative number of milliseconds (a memory
/// given another number) reads as [`render`] reads it.
pub fn render_duration(value: &Value) -> String {
    let ms = value
        .as_u64()
        .or_else(|| value.as_f64().filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 9.0e15).map(|f| f as u64));
    match ms {
        Some(ms) => expresso_lang::lexer::duration_text(ms),
        None => render(value),
    }
}

/// Equality with numbers compared by value (`1` equals `1.0`).
pub fn equal(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) if a.is_number() && b.is_number() => x == y,
        _ => a == b,
    }
}

/// `>` and friends: numbers by value, text (dates written YYYY-MM-DD) by code point; anything else is
/// unordered, and an unordered comparison is false.
pub fn compare(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64()?.partial_cmp(&y.as_f64()?),
        (Value::String(x), Value::String(y)) => Some(x.cmp(y)),
        _ => None,
    }
}

/// `contains`: text within text, ignoring case; or a value within a list.
pub fn contains(haystack: &Value, needle: &Value) -> bool {
    match haystack {
        Value::String(s) => s.to_lowercase().contains(&render(needle).to_lowercase()),
        Value::Array(items) => items.iter().any(|i| equal(i, needle)),
        _ => false,
    }
}

/// A condition's truth: `true`; anything else is false (the checker refuses non-boolean conditions it can
/// see, and a null from an absent optional field reads as false).
pub fn truthy(value: &Value) -> bool {
    value == &Value::Bool(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_render_and_compare_as_documented() {
        assert_eq!(render(&number(1.0)), "1");
        assert_eq!(render(&number(1.5)), "1.5");
        assert_eq!(render(&Value::Null), "");
        assert!(equal(&json!(1), &json!(1.0)));
        assert!(contains(&json!("Cancelling our PLAN"), &json!("plan")));
        assert!(contains(&json!(["a", 2]), &json!(2.0)));
        assert_eq!(compare(&json!("2024-01-02"), &json!("2024-01-10")), Some(std::cmp::Ordering::Less));
        assert_eq!(compare(&json!("a"), &json!(1)), None);
    }
}
