//! One file per command.

pub mod adapter;
pub mod add;
pub mod calibrate;
pub mod check;
pub mod completions;
pub mod config;
pub mod conform;
pub mod list;
pub mod man;
pub mod resume;
pub mod run;
pub mod say;
pub mod test;
pub mod trust;
pub mod try_;
pub mod update;
pub mod why;
