//! evoke: say what you want; evoke turns it into a safe, typed call of a program you installed.
//!
//! This crate holds the command line (`cli`, one file per command under `commands/`, each with its own
//! arguments and `run(&Context, &Args)`), the one error a command ends with (`error::CommandError`, printed
//! once by `cli::main`), the one place that words output (`render`), the one way a command writes it and
//! asks a person (`ui::Ui`, given in the `Context` and acting as the command's `ui::Person`), acting on a
//! decided call (`act`), the decision's driver (`drive`), the log, and calibration's statistics
//! (`calibration`).

pub mod act;
pub mod body;
pub mod cache;
pub mod calibration;
pub mod cli;
pub mod commands;
pub mod context;
pub mod drive;
pub mod error;
pub mod exit;
pub mod filter;
pub mod journal;
pub mod line;
pub mod load;
pub mod log;
pub mod playbook;
pub mod progress;
pub mod prompt;
pub mod reading;
pub mod render;
pub mod runner;
pub mod sdk;
pub mod session;
pub mod ui;
pub mod warm;
pub mod weave;

pub use sdk::{
    Called, CodeReflex, Decision, Error, Evoke, MAX_NESTING, OpenOptions, Plan, PlanRan, Ran, Returned, Thrown,
};
pub use ui::{ConfirmWith, Person, Question};
