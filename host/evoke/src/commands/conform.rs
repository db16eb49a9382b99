//! `evoke conform FUNCTION`: the protocol `evoke-conform` runs vectors through. The case's `input` is read
//! as JSON from stdin; the function's output is printed as one JSON line.

use crate::exit::Exit;
use crate::render;
use std::io::Read;

pub fn run(function: &str) -> Exit {
    let mut text = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut text) {
        render::err(&format!("error: cannot read the case from stdin: {e}\n"));
        return Exit::Usage;
    }
    let input: serde_json::Value = match serde_json::from_str(&text) {
        Ok(input) => input,
        Err(e) => {
            render::err(&format!("error: the case input is not JSON: {e}\n"));
            return Exit::Usage;
        }
    };
    match evoke_core::conform::call(function, &input) {
        Ok(output) => {
            render::out(&format!("{output}\n"));
            Exit::Done
        }
        Err(e) => {
            render::err(&format!("error: {e}\n"));
            Exit::Usage
        }
    }
}
