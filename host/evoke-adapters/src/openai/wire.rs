//! The chat-completions wire: the request body, and the reading of a response's first-token
//! `top_logprobs` into a distribution over the keys offered. Every malformed response fails closed.

use super::error::WireError;
use serde_json::{Value, json};

/// How far above 1 the probabilities of the listed tokens may sum: they are a part of one distribution.
const OVER: f64 = 0.01;

pub fn body(model: &str, system: &str, user: &str, top: usize) -> Value {
    json!({
        "model": model,
        "messages": [
            { "role": "system", "content": system },
            { "role": "user", "content": user },
        ],
        "max_tokens": 1,
        "temperature": 0,
        "logprobs": true,
        "top_logprobs": top,
    })
}

/// The probability of each label among the keys offered (`labels[i]` stands for `keys[i]`),
/// renormalized over them.
pub fn read(text: &str, labels: &[String]) -> Result<Vec<f64>, WireError> {
    let value: Value = serde_json::from_str(text).map_err(WireError::NotJson)?;
    if let Some(error) = value.get("error") {
        let message = error.get("message").and_then(Value::as_str).unwrap_or("no message");
        return Err(WireError::Endpoint { message: message.to_string() });
    }
    let first = value.pointer("/choices/0/logprobs/content/0").ok_or(WireError::NoLogprobs)?;
    let tops = first.get("top_logprobs").and_then(Value::as_array).ok_or(WireError::NoTopLogprobs)?;
    if tops.is_empty() {
        return Err(WireError::EmptyTopLogprobs);
    }
    let mut mass = vec![0.0f64; labels.len()];
    let mut total = 0.0;
    for entry in tops {
        let token = entry.get("token").and_then(Value::as_str).ok_or(WireError::NoToken)?;
        let logprob = entry
            .get("logprob")
            .and_then(Value::as_f64)
            .ok_or_else(|| WireError::NoLogprob { token: token.to_string() })?;
        if !logprob.is_finite() || logprob > 0.0 {
            return Err(WireError::NotALogprob { token: token.to_string(), logprob });
        }
        let p = logprob.exp();
        total += p;
        let token = token.trim().trim_end_matches(['.', ')', ':']);
        if let Some(i) = labels.iter().position(|l| l == token) {
            mass[i] += p;
        }
    }
    if total > 1.0 + OVER {
        return Err(WireError::OverOne { total });
    }
    let offered: f64 = mass.iter().sum();
    if offered <= 0.0 {
        return Err(WireError::NoLabel);
    }
    Ok(mass.into_iter().map(|m| m / offered).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(n: usize) -> Vec<String> {
        (0..n).map(|i| ((b'A' + i as u8) as char).to_string()).collect()
    }

    #[test]
    fn reads_and_renormalizes_over_the_labels_offered() {
        let text = r#"{"choices":[{"logprobs":{"content":[{"token":"A","logprob":-0.1,"top_logprobs":[
            {"token":"A","logprob":-0.25},{"token":"B","logprob":-2.0},{"token":"Z","logprob":-3.0},{"token":" A","logprob":-4.0}]}]}}]}"#;
        let d = read(text, &labels(3)).unwrap();
        assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!(d[0] > 0.8 && d[2] == 0.0);
    }

    #[test]
    fn malformed_responses_fail() {
        let refused = |text: &str| read(text, &labels(3)).unwrap_err();
        assert!(matches!(refused("not json"), WireError::NotJson(_)));
        assert!(matches!(refused(r#"{"choices":[]}"#), WireError::NoLogprobs));
        assert!(matches!(refused(r#"{"choices":[{"message":{"content":"A"}}]}"#), WireError::NoLogprobs));
        assert!(matches!(
            refused(r#"{"choices":[{"logprobs":{"content":[{"token":"A","top_logprobs":[{"token":"A","logprob":"NaN"}]}]}}]}"#),
            WireError::NoLogprob { token } if token == "A"
        ));
        assert!(matches!(
            refused(
                r#"{"choices":[{"logprobs":{"content":[{"token":"A","top_logprobs":[{"token":"A","logprob":0},{"token":"B","logprob":-0.9}]}]}}]}"#
            ),
            WireError::OverOne { .. }
        ));
        assert!(matches!(
            refused(
                r#"{"choices":[{"logprobs":{"content":[{"token":"Q","top_logprobs":[{"token":"Q","logprob":-0.1}]}]}}]}"#
            ),
            WireError::NoLabel
        ));
        let endpoint = refused(r#"{"error":{"message":"model not found"}}"#);
        assert!(matches!(&endpoint, WireError::Endpoint { message } if message == "model not found"));
        assert_eq!(endpoint.to_string(), "the endpoint answered with an error: model not found");
    }
}
