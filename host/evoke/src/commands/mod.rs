//! One file per command.

pub mod check;
pub mod config;
pub mod conform;
pub mod run;
pub mod say;
pub mod try_;
pub mod why;
