//! `evoke completions SHELL` and `evoke man`: generated from the one clap definition, so they never drift.

use crate::exit::Exit;
use clap::CommandFactory;

pub fn completions(shell: clap_complete::Shell) -> Exit {
    let mut command = crate::cli::Cli::command();
    clap_complete::generate(shell, &mut command, "evoke", &mut std::io::stdout());
    Exit::Done
}

pub fn man() -> Exit {
    let page = clap_mangen::Man::new(crate::cli::Cli::command());
    match page.render(&mut std::io::stdout()) {
        Ok(()) => Exit::Done,
        Err(_) => Exit::Failed,
    }
}
