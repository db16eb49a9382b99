//! `evoke man`: the manual page, generated from the one clap definition, so it never drifts.

use crate::context::Context;
use crate::error::CommandResult;
use crate::exit::Exit;
use clap::CommandFactory;

pub fn run(_: &Context) -> CommandResult {
    let page = clap_mangen::Man::new(crate::cli::Cli::command());
    // A closed standard output is no error worth a message: the page had no reader.
    Ok(match page.render(&mut std::io::stdout()) {
        Ok(()) => Exit::Done,
        Err(_) => Exit::Failed,
    })
}
