//! `expresso-host`: the durable host's commands on their own (`expresso serve` is the same `serve`).

use clap::Parser;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "expresso-host", version, about = "Expresso's durable host: serve, ingest, drain, status")]
struct Cli {
    #[command(subcommand)]
    command: expresso_host::cli::HostCommand,
}

fn main() -> ExitCode {
    match expresso_host::cli::run(Cli::parse().command) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {e}");
            // A fault while running is 1; a command line, program, configuration or store that cannot be
            // used is 2 (expresso's and evoke's codes).
            ExitCode::from(if matches!(e, expresso_host::Error::Runtime(_)) { 1 } else { 2 })
        }
    }
}
