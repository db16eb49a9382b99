//! The closed set of exit codes.

use std::process::ExitCode;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Exit {
    /// Done: the body ran and returned, `try` printed its reading, a command did what it says.
    Done = 0,
    /// The body failed, or evoke itself did.
    Failed = 1,
    /// The command line, or a file it names, cannot be read.
    Usage = 2,
    /// A person is needed and none can answer.
    NeedsPerson = 3,
    /// Nothing installed does what was asked.
    Abstain = 4,
    /// The person said no, or left a question unanswered.
    Declined = 5,
    /// Failed closed before anything ran.
    Refused = 6,
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit as u8)
    }
}
