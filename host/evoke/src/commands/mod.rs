//! One file per command.

pub mod check;
pub mod conform;
