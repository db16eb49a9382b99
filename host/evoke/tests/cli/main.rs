//! One test binary for the commands, a file per command, each output pinned as a snapshot under
//! `snapshots/`. Outputs are made path-free (`[PROJECT]`, `[HOME]`) before they are compared.

mod support;

mod calibrate;
mod completions;
mod config;
mod errors;
mod filter;
mod list;
mod man;
mod tag;
mod test;
