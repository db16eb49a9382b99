//! The filter: with no sentence and stdin not a terminal, one decision per input line. Output is held
//! while more input is already waiting, and written out whenever evoke would wait for the next line: a
//! pipe gets each answer as soon as it has asked for nothing more, without a write for every line.

use crate::exit::Exit;
use crate::render;
use std::io::BufRead;

/// Decides each non-blank line with `decide`; the exit is the worst of them (D5's order).
pub fn each_line(mut decide: impl FnMut(&str) -> Exit) -> Exit {
    // A reader of our own, whose buffer says whether more input is already waiting.
    let mut input = std::io::BufReader::with_capacity(64 * 1024, std::io::stdin().lock());
    let mut worst = Exit::Done;
    let mut line = String::new();
    render::hold();
    loop {
        if input.buffer().is_empty() {
            render::release(true);
        }
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let text = line.trim_end_matches(['\n', '\r']);
        if text.trim().is_empty() {
            continue;
        }
        worst = crate::commands::say::worse(worst, decide(text));
    }
    render::release(false);
    worst
}
