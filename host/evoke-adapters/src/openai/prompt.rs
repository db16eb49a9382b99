//! How a question is drawn for a chat model: the request, the question's `ask`, and each option under a
//! one-token label (`A`…`Z`, then `a`…`z`), its key and its text. The model answers with one label; its
//! distribution is read from the first token's `top_logprobs`. Changing anything here changes
//! [`VERSION`], which is part of the adapter's id.

use evoke_core::question::{NO, Question, Text, YES};

/// The prompt rendering's version.
pub const VERSION: &str = "1";

/// The labels, in order: each one token in the tokenizers of the common chat models.
pub const LABELS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

pub const SYSTEM: &str = "You read a person's request and answer one multiple-choice question about it. \
Judge only what the request says. Reply with the single letter of the best option and nothing else.";

fn label(i: usize) -> String {
    (LABELS[i] as char).to_string()
}

fn describe(text: &Text) -> String {
    match text {
        Text::Plain(s) => s.clone(),
        Text::Rich { what, not_for, examples } => {
            let mut out = what.replace('\n', " ");
            if !not_for.is_empty() {
                out.push_str(&format!(" Not for: {}.", not_for.join("; ")));
            }
            if !examples.is_empty() {
                let quoted: Vec<String> = examples.iter().map(|e| format!("\"{e}\"")).collect();
                out.push_str(&format!(" For example: {}.", quoted.join(", ")));
            }
            out
        }
    }
}

/// The user message and the keys in label order.
pub fn render(request: &str, question: &Question) -> (String, Vec<String>) {
    let (ask, options): (&str, Vec<(String, String)>) = match question {
        Question::Choice { ask, options, .. } => {
            (ask, options.0.iter().map(|(k, t)| (k.clone(), describe(t))).collect())
        }
        Question::Yesno { ask, yes, no } => (
            ask,
            vec![
                (YES.to_string(), format!("Yes: {}", describe(yes))),
                (NO.to_string(), format!("No: {}", describe(no))),
            ],
        ),
    };
    let mut text =
        format!("Request: {}\n\nQuestion: {ask}\n\nOptions:\n", serde_json::Value::String(request.to_string()));
    let mut keys = Vec::new();
    for (i, (key, what)) in options.iter().enumerate() {
        text.push_str(&format!("{}. {key}: {what}\n", label(i)));
        keys.push(key.clone());
    }
    text.push_str("\nAnswer with one letter.");
    (text, keys)
}
