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

impl Exit {
    /// The worse of two exits, in the exit codes' order, worst first: 2 and 6, then 1, 3, 5, 4, 0. Many
    /// decisions (the filter's lines, a plan's steps) end with the worst of theirs.
    pub fn worse(self, other: Exit) -> Exit {
        let rank = |e: Exit| match e {
            Exit::Refused | Exit::Usage => 0,
            Exit::Failed => 1,
            Exit::NeedsPerson => 2,
            Exit::Declined => 3,
            Exit::Abstain => 4,
            Exit::Done => 5,
        };
        if rank(other) < rank(self) { other } else { self }
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit as u8)
    }
}
