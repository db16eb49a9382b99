//! One file per command.

pub mod check;
pub mod completions;
pub mod config;
pub mod conform;
pub mod run;
pub mod say;
pub mod test;
pub mod try_;
pub mod why;
