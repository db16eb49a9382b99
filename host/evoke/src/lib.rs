//! evoke: say what you want; evoke turns it into a safe, typed call of a program you installed.
//!
//! This crate holds the command line (`cli`, one file per command under `commands/`), the one place that
//! renders output (`render`), the decision's driver (`decide`) and the log.

pub mod body;
pub mod cache;
pub mod cli;
pub mod commands;
pub mod drive;
pub mod exit;
pub mod filter;
pub mod journal;
pub mod line;
pub mod load;
pub mod log;
pub mod progress;
pub mod prompt;
pub mod render;
pub mod session;
pub mod weave;
