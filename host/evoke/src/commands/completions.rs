//! `evoke completions SHELL`: generated from the one clap definition, so they never drift.

use crate::context::Context;
use crate::error::CommandResult;
use crate::exit::Exit;
use clap::CommandFactory;

#[derive(clap::Args)]
pub struct Args {
    shell: clap_complete::Shell,
}

pub fn run(_: &Context, args: &Args) -> CommandResult {
    let mut command = crate::cli::Cli::command();
    clap_complete::generate(args.shell, &mut command, "evoke", &mut std::io::stdout());
    Ok(Exit::Done)
}
