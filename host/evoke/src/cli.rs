//! The command line: clap's definition and the dispatch to `commands/`.

use crate::commands;
use crate::exit::Exit;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "evoke", version, about = "Say what you want; evoke turns it into a safe, typed call of a program you installed.")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Read a reflex directory: print refusals and lint findings (exit 0 when it reads, 2 when refused).
    Check {
        /// The reflex directory (default: the current one).
        path: Option<PathBuf>,
    },
    /// Run one core function on a conformance case's input (JSON on stdin), printing its output.
    #[command(hide = true)]
    Conform {
        /// The function: identity, manifest, lint, overlay, vocab.
        function: String,
    },
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { Exit::Usage } else { Exit::Done };
            let _ = e.print();
            return code.into();
        }
    };
    let exit = match cli.command {
        Command::Check { path } => commands::check::run(path.as_deref()),
        Command::Conform { function } => commands::conform::run(&function),
    };
    exit.into()
}
