//! The closed set of exit codes, evoke's: the same number means the same thing in both commands.

use std::process::ExitCode;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Exit {
    /// Done: the program checks, the run or replay went through.
    Done = 0,
    /// A fault stopped the run: a provider gave no answer or one that does not fit, a bound was passed,
    /// a store could not be written. What ran before it is journaled and recorded.
    Failed = 1,
    /// The command line, or a file it names, cannot be read: a program that does not check, a malformed
    /// event log, a journal that is not one.
    Usage = 2,
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit as u8)
    }
}
