//! `expresso`: check a program, run it over an event log, replay it with its journal.

mod check;
mod exit;
mod load;
mod providers;
mod run;
mod table;

use clap::{Parser, Subcommand};
use exit::Exit;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "expresso", version, about = "Effect-typed reactive agents over an event log")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args, Clone)]
pub struct RunArgs {
    /// The program.
    pub file: PathBuf,
    /// The event log, one JSON event per line.
    #[arg(long)]
    pub events: PathBuf,
    /// The journal J, one JSON file (created when missing). Without it the journal lives in memory.
    #[arg(long)]
    pub journal: Option<PathBuf>,
    /// The world table W, one JSON file (created when missing). Without it W lives in memory.
    #[arg(long)]
    pub world: Option<PathBuf>,
    /// Who answers a model leaf the journal lacks: `none`, `recording:FILE`, `openai`, `anthropic`, `evoke`
    /// (evoke's offline `local` engine) or `auto` (evoke for closed leaves, openai or anthropic for open
    /// ones); the last two need the `evoke` feature, and `auto` is then the default.
    #[arg(long)]
    pub provider: Option<String>,
    /// Print the table of each event's model leaves and world effects instead of the effect lines.
    #[arg(long)]
    pub table: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Parse and check a program: each agent's inferred effect and minimal grants, every error.
    Check {
        file: PathBuf,
        /// A store an earlier version of the program wrote (a journal or world file of `run`, or the state
        /// directory of `serve`): refuse an edit that would re-key what it holds. May be given again.
        #[arg(long)]
        against: Vec<PathBuf>,
        /// With `--against`: a site whose keys nothing makes now, and no site of its kind could, was
        /// removed on purpose (a warning, not a refusal).
        #[arg(long, requires = "against")]
        allow_removed: bool,
    },
    /// Run a program over an event log; print each new world effect as one JSON line with its idemKey.
    Run(RunArgs),
    /// Run again with the journal: report provider calls and new effects (both 0 for a complete journal).
    Replay(RunArgs),
    /// Conformance: read a vector case's input on stdin, print the function's output.
    Conform { function: String },
    /// Serve a program durably: POST /events in, exactly-once effects out through the configured sinks.
    Serve(expresso_host::cli::ServeArgs),
    /// The durable store's counts as JSON, with the parked firings.
    Status {
        /// The state directory (default: the state place).
        #[arg(long)]
        state: Option<PathBuf>,
    },
    /// Write serve's log, in the order it fired, with its watermark schedule and the corrections' fate,
    /// as a file `expresso run` replays to the same effects.
    Export {
        /// The state directory (default: the state place).
        #[arg(long)]
        state: Option<PathBuf>,
        /// The sink configuration whose `[store]` names a Postgres deployment, to export it instead.
        #[arg(long)]
        sinks: Option<PathBuf>,
        /// The file to write.
        #[arg(long)]
        out: PathBuf,
        /// Also write the store's journal here, for `run --journal`: the replay calls no provider.
        #[arg(long)]
        journal: Option<PathBuf>,
    },
    /// List, retry or skip the firings `serve` parked after they faulted on every try.
    Parked {
        /// The state directory (default: the state place).
        #[arg(long, global = true)]
        state: Option<PathBuf>,
        #[command(subcommand)]
        action: expresso_host::cli::ParkedAction,
    },
    /// List, show or release the receipts a sink refused for good (held for a person).
    Held {
        /// The state directory (default: the state place).
        #[arg(long, global = true)]
        state: Option<PathBuf>,
        #[command(subcommand)]
        action: expresso_host::held::HeldAction,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let exit = match cli.command {
        Command::Check { file, against, allow_removed } => check::check(&file, &against, allow_removed),
        Command::Run(args) => run::run(&args, false),
        Command::Replay(args) => run::run(&args, true),
        Command::Conform { function } => conform(&function),
        Command::Serve(args) => host(expresso_host::cli::HostCommand::Serve(args)),
        Command::Status { state } => host(expresso_host::cli::HostCommand::Status { state, sinks: None }),
        Command::Export { state, sinks, out, journal } => {
            host(expresso_host::cli::HostCommand::Export { state, sinks, out, journal })
        }
        Command::Parked { state, action } => {
            host(expresso_host::cli::HostCommand::Parked { state, sinks: None, action })
        }
        Command::Held { state, action } => host(expresso_host::cli::HostCommand::Held { state, action }),
    };
    exit.into()
}

/// One of the durable host's commands: its own exit code (1 when a parked firing named is not parked), 1
/// for a fault while running, 2 for what cannot be used.
fn host(command: expresso_host::cli::HostCommand) -> Exit {
    match expresso_host::cli::run(command) {
        Ok(0) => Exit::Done,
        Ok(_) => Exit::Failed,
        Err(e) => {
            eprintln!("error: {e}");
            if matches!(e, expresso_host::Error::Runtime(_)) { Exit::Failed } else { Exit::Usage }
        }
    }
}

fn conform(function: &str) -> Exit {
    let mut text = String::new();
    if std::io::Read::read_to_string(&mut std::io::stdin().lock(), &mut text).is_err() {
        eprintln!("error: stdin is not text");
        return Exit::Usage;
    }
    let input: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: stdin is not JSON: {e}");
            return Exit::Usage;
        }
    };
    match expresso_runtime::conform::call(function, &input) {
        Ok(out) => {
            println!("{out}");
            Exit::Done
        }
        Err(e) => {
            eprintln!("error: {e}");
            Exit::Usage
        }
    }
}
