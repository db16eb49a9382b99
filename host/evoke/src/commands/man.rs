//! `evoke man`: the manual page, generated from the one clap definition, so it never drifts.

use crate::context::Context;
use crate::error::CommandResult;
use crate::exit::Exit;
use clap::CommandFactory;

pub fn run(context: &Context) -> CommandResult {
    let page = clap_mangen::Man::new(crate::cli::Cli::command());
    let mut text = Vec::new();
    // A closed standard output is no error worth a message: the page had no reader.
    Ok(match page.render(&mut text).and_then(|()| context.ui.out_bytes(&text)) {
        Ok(()) => Exit::Done,
        Err(_) => Exit::Failed,
    })
}
