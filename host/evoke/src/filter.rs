//! The filter: with no sentence and stdin not a terminal, one decision per input line. Output is held
//! while more input is already waiting, and written out whenever evoke would wait for the next line: a
//! pipe gets each answer as soon as it has asked for nothing more, without a write for every line. A log
//! that batches ([`Log::batch`]) is written the same way: once before each wait, so a line printed is a
//! line logged by the time evoke waits for more.
//!
//! Every line gets its line out. A line that is not UTF-8, or that is longer than [`MAX_LINE_BYTES`], is
//! refused like any input that breaks the bounds, and the lines after it are still decided. A line is
//! never buffered past the bound: the rest of an over-long one is skipped to its newline, counted only.

use crate::error::{CommandError, CommandResult};
use crate::exit::Exit;
use crate::log::Log;
use crate::render;
use crate::ui::Ui;
use evoke_core::decide::{MAX_INPUT_CHARS, Refusal};
use std::io::{BufRead, ErrorKind};

/// The most of one line the filter holds: the size of its read buffer, far over what a decision reads
/// (2,000 characters are at most 8,000 bytes), so no line a decision could take is ever cut.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// One line of input, read.
pub enum Line<'a> {
    /// Text to decide.
    Text(&'a str),
    /// Refused before any decision: `shown` is what can be shown of it (lossy, at most 2,000 characters).
    Refused { shown: String, refusal: Refusal },
}

/// Decides each non-blank line with `decide`, which logs to `log`; a line's error is said as it ends, and the
/// lines after it are still decided. The exit is the worst of them (in the exit codes' order, worst first).
pub fn each_line(ui: &Ui, log: &mut Log, mut decide: impl FnMut(&mut Log, Line) -> CommandResult) -> CommandResult {
    // A reader of our own, whose buffer says whether more input is already waiting.
    let mut input = std::io::BufReader::with_capacity(MAX_LINE_BYTES, std::io::stdin().lock());
    let mut worst = Exit::Done;
    let mut bytes = Vec::new();
    ui.hold();
    loop {
        if input.buffer().is_empty() {
            written(ui, log);
            ui.release(true);
        }
        let read = match read_line(&mut input, &mut bytes) {
            Ok(Some(read)) => read,
            Ok(None) => break,
            Err(e) => {
                written(ui, log);
                ui.release(false);
                return Err(CommandError::new(
                    worst.worse(Exit::Failed),
                    format!("the input could not be read: {e}; the lines after it were not decided"),
                ));
            }
        };
        let exit = match read {
            Read::Whole => match std::str::from_utf8(&bytes) {
                Ok(text) => {
                    let text = text.trim_end_matches(['\n', '\r']);
                    if text.trim().is_empty() {
                        continue;
                    }
                    decide(&mut *log, Line::Text(text))
                }
                Err(e) => {
                    let refusal = Refusal::NotUtf8 { at: e.valid_up_to() };
                    decide(&mut *log, Line::Refused { shown: shown(&bytes), refusal })
                }
            },
            Read::Over { chars } => decide(
                &mut *log,
                Line::Refused { shown: shown(&bytes), refusal: Refusal::TooLong { chars, limit: MAX_INPUT_CHARS } },
            ),
        };
        worst = worst.worse(ui.finished(exit));
    }
    written(ui, log);
    ui.release(false);
    Ok(worst)
}

/// Writes the log's held entries, warning of any that could not be written.
fn written(ui: &Ui, log: &mut Log) {
    if let Err(e) = log.flush() {
        ui.err(&render::warning(&e.to_string(), None));
    }
}

/// What a line of input came to.
#[derive(Debug, PartialEq, Eq)]
enum Read {
    /// The whole line is in the buffer, its newline included when it had one.
    Whole,
    /// Over the bound: the buffer holds its first [`MAX_LINE_BYTES`] bytes; `chars` counts them all.
    Over { chars: usize },
}

/// Reads one line into `line`, holding at most [`MAX_LINE_BYTES`] of it. `None` at the end of input.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> std::io::Result<Option<Read>> {
    line.clear();
    let mut skipped_chars: Option<usize> = None;
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(match skipped_chars {
                Some(chars) => Some(Read::Over { chars }),
                None if line.is_empty() => None,
                None => Some(Read::Whole),
            });
        }
        let (chunk, ends) = match available.iter().position(|b| *b == b'\n') {
            Some(i) => (&available[..=i], true),
            None => (available, false),
        };
        let used = chunk.len();
        match skipped_chars.as_mut() {
            // Past the bound: only count what goes by (each byte that starts a character).
            Some(chars) => *chars += chunk.iter().filter(|b| **b != b'\n' && (**b & 0xC0) != 0x80).count(),
            None => {
                let room = MAX_LINE_BYTES - line.len();
                if chunk.len() <= room {
                    line.extend_from_slice(chunk);
                } else {
                    line.extend_from_slice(&chunk[..room]);
                    let counted = |bytes: &[u8]| bytes.iter().filter(|b| **b != b'\n' && (**b & 0xC0) != 0x80).count();
                    skipped_chars = Some(counted(line) + counted(&chunk[room..]));
                }
            }
        }
        input.consume(used);
        if ends {
            return Ok(Some(match skipped_chars {
                Some(chars) => Read::Over { chars },
                None => Read::Whole,
            }));
        }
    }
}

/// What of a refused line can be shown: its first 2,000 characters, invalid bytes as U+FFFD, the line
/// ending dropped.
fn shown(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    text.trim_end_matches(['\n', '\r']).chars().take(MAX_INPUT_CHARS).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<(Read, usize)> {
        let mut reader = std::io::BufReader::with_capacity(1024, input);
        let mut line = Vec::new();
        let mut out = Vec::new();
        while let Some(read) = read_line(&mut reader, &mut line).unwrap() {
            out.push((read, line.len()));
        }
        out
    }

    #[test]
    fn an_over_long_line_is_held_to_the_bound_and_the_next_line_still_reads() {
        let mut input = vec![b'a'; MAX_LINE_BYTES + 10];
        input.extend_from_slice("é\nnext\nlast".as_bytes());
        let read = lines(&input);
        assert_eq!(read[0], (Read::Over { chars: MAX_LINE_BYTES + 11 }, MAX_LINE_BYTES));
        assert_eq!(read[1], (Read::Whole, 5));
        assert_eq!(read[2], (Read::Whole, 4));
        assert_eq!(read.len(), 3);
    }

    #[test]
    fn a_line_at_the_bound_is_whole() {
        let mut input = vec![b'a'; MAX_LINE_BYTES - 1];
        input.push(b'\n');
        assert_eq!(lines(&input), vec![(Read::Whole, MAX_LINE_BYTES)]);
    }
}

/// Where no decision can be made at all (the project is not trusted, its files do not read): under
/// `--json`, every input still gets its line, `fault` `project`, the sentence given or each line of the
/// filter, and nothing is logged, since the log's place is the project's. Then the error itself.
pub fn refuse_every_input(ui: &Ui, sentence: Option<&str>, json: bool, error: CommandError) -> CommandResult {
    if !json {
        return Err(error);
    }
    let failure = crate::drive::Failure::Project { message: error.message.clone() };
    let line = |input: &str| crate::line::refused_line(input, &failure, &[]);
    match sentence {
        Some(sentence) => ui.json_line(&line(sentence)),
        None if !ui.input_is_terminal() => {
            let mut unlogged = Log::closed();
            let _ = each_line(ui, &mut unlogged, |_, read| {
                match read {
                    Line::Text(text) => ui.json_line(&line(text)),
                    Line::Refused { shown, refusal } => {
                        ui.json_line(&crate::line::refused_line(&shown, &crate::drive::Failure::Input { refusal }, &[]))
                    }
                }
                Ok(Exit::Done)
            });
        }
        None => {}
    }
    Err(error)
}
