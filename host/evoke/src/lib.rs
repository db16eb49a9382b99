//! evoke: say what you want; evoke turns it into a safe, typed call of a program you installed.
//!
//! This crate holds the command line (`cli`, one file per command under `commands/`), the one place that
//! renders output (`render`), and reading a reflex's files from disk (`load`).

pub mod cli;
pub mod commands;
pub mod exit;
pub mod load;
pub mod render;
