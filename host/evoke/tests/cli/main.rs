//! One test binary for the commands, a file per command, each output pinned as a snapshot under
//! `snapshots/`. Outputs are made path-free (`[PROJECT]`, `[HOME]`) before they are compared.

mod support;

mod adapter;
mod add;
mod calibrate;
mod check;
mod commands;
mod completions;
mod config;
mod errors;
mod filter;
mod list;
mod man;
mod run;
mod say;
mod tag;
mod test;
mod trust;
mod try_;
mod update;
