//! The runtime's one error type. Every variant fails closed: the firing that raised it stops, nothing
//! runs on a value that did not fit, and the run stops after saving what it had journaled.

use expresso_lang::schema::Misfit;
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// The event log has lines that are not events: each with its 1-based line number and the reason.
    BadLog(Vec<(usize, String)>),
    /// The provider gave no answer (a recording without the key, a network failure, a refusal).
    Provider { key: String, message: String },
    /// The provider answered something the leaf's schema does not allow; it is not journaled.
    Misfit { key: String, reason: Misfit },
    /// A journaled value no longer fits its leaf's schema (the program changed under its journal).
    StaleJournal { key: String, reason: Misfit },
    /// A `for` over more items than the bound.
    ForBound { at: String, items: usize, bound: usize },
    /// One firing ran more statements than the bound.
    StepBound { at: String, bound: usize },
    /// A runtime type error the checker could not see (a `for` over a value that turned out not a list).
    Type { at: String, message: String },
    /// The world port refused an effect: it is not recorded as applied.
    Port { key: String, message: String },
    /// A journal or world file that cannot be read or written.
    Store { path: String, message: String },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BadLog(lines) => {
                write!(f, "the event log has {} bad line(s)", lines.len())?;
                for (line, reason) in lines {
                    write!(f, "\n  line {line}: {reason}")?;
                }
                Ok(())
            }
            Error::Provider { key, message } => write!(f, "no answer for `{key}`: {message}"),
            Error::Misfit { key, reason } => write!(f, "the answer for `{key}` does not fit its schema: {reason}"),
            Error::StaleJournal { key, reason } => {
                write!(f, "the journaled value of `{key}` does not fit its schema: {reason}")
            }
            Error::ForBound { at, items, bound } => {
                write!(f, "`for` at {at} over {items} items, more than the bound of {bound}")
            }
            Error::StepBound { at, bound } => write!(f, "the firing {at} ran more than {bound} statements"),
            Error::Type { at, message } => write!(f, "{at}: {message}"),
            Error::Port { key, message } => write!(f, "the world port refused `{key}`: {message}"),
            Error::Store { path, message } => write!(f, "{path}: {message}"),
        }
    }
}

impl std::error::Error for Error {}
