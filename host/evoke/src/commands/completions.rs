//! `evoke completions SHELL`: generated from the one clap definition, so they never drift.

use crate::context::Context;
use crate::error::CommandResult;
use crate::exit::Exit;
use clap::CommandFactory;

#[derive(clap::Args)]
pub struct Args {
    shell: clap_complete::Shell,
}

pub fn run(context: &Context, args: &Args) -> CommandResult {
    let mut command = crate::cli::Cli::command();
    let mut text = Vec::new();
    clap_complete::generate(args.shell, &mut command, "evoke", &mut text);
    // Written whole once made: a closed standard output ends the command as `man`'s does, not mid-script.
    Ok(match context.ui.out_bytes(&text) {
        Ok(()) => Exit::Done,
        Err(_) => Exit::Failed,
    })
}
