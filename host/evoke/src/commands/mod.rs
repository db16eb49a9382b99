//! One file per command.

pub mod check;
pub mod conform;
pub mod try_;
pub mod why;
