//! `evoke conform FUNCTION`: the protocol `evoke-conform` runs vectors through. The case's `input` is read
//! as JSON from stdin; the function's output is printed as one JSON line.

use crate::context::Context;
use crate::error::{CommandError, CommandResult};
use crate::exit::Exit;

use std::io::Read;

#[derive(clap::Args)]
pub struct Args {
    /// The function: identity, manifest, lint, overlay, vocab.
    function: String,
}

pub fn run(context: &Context, args: &Args) -> CommandResult {
    let ui = &context.ui;
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| CommandError::usage(format!("cannot read the case from stdin: {e}")))?;
    let input: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| CommandError::usage(format!("the case input is not JSON: {e}")))?;
    let output = evoke_core::conform::call(&args.function, &input)?;
    ui.json_line(&output.to_string());
    Ok(Exit::Done)
}
