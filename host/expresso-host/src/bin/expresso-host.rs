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
            ExitCode::from(2)
        }
    }
}
