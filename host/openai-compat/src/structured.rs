//! The structured-output call: one chat completion whose answer must follow a JSON schema
//! (`response_format: json_schema`, strict), and its content read back as JSON. Structured output wants
//! an object at the top, so a caller whose answer is any value wraps it (`{ "value": … }`) in its schema.

use super::Endpoint;
use serde_json::{Value, json};

/// The request: `system` and `user` as the two messages, temperature 0, the answer held to `schema`
/// under the name `name`.
pub fn body(endpoint: &Endpoint, system: &str, user: &str, name: &str, schema: Value) -> Value {
    json!({
        "model": endpoint.model,
        "temperature": 0,
        "messages": [
            { "role": "system", "content": system },
            { "role": "user", "content": user },
        ],
        "response_format": {
            "type": "json_schema",
            "json_schema": { "name": name, "strict": true, "schema": schema },
        },
    })
}

/// The answer's content (`choices[0].message.content`), read as JSON; what is missing or not JSON is said.
pub fn read(reply: &Value) -> Result<Value, String> {
    let content = reply
        .pointer("/choices/0/message/content")
        .and_then(Value::as_str)
        .ok_or_else(|| "the answer has no choices[0].message.content".to_string())?;
    serde_json::from_str(content).map_err(|e| format!("the content is not JSON: {e}"))
}
