//! The host's one error type. Each fails closed: nothing is marked done or advanced past it.

use std::fmt;

#[derive(Debug)]
pub enum Error {
    /// The SQLite file cannot be opened, read or written.
    Store(String),
    /// The runtime refused an event (a provider without an answer, a misfit, a bound).
    Runtime(expresso_runtime::Error),
    /// The sink configuration cannot be used: the file, where, what is wrong and the fix.
    Config { file: String, message: String, fix: String },
    /// The program does not check, or a file it names cannot be read.
    Program(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Store(m) => write!(f, "the store: {m}"),
            Error::Runtime(e) => write!(f, "{e}"),
            Error::Config { file, message, fix } => write!(f, "{file}: {message}\n  = fix: {fix}"),
            Error::Program(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<rusqlite::Error> for Error {
    fn from(e: rusqlite::Error) -> Error {
        Error::Store(e.to_string())
    }
}

impl From<expresso_runtime::Error> for Error {
    fn from(e: expresso_runtime::Error) -> Error {
        Error::Runtime(e)
    }
}

impl From<postgres::Error> for Error {
    fn from(e: postgres::Error) -> Error {
        // The driver's Display says only "db error"; the server's own message says what went wrong.
        match e.as_db_error() {
            Some(db) => Error::Store(format!("postgres: {}: {}", db.code().code(), db.message())),
            None => Error::Store(format!("postgres: {e}")),
        }
    }
}
