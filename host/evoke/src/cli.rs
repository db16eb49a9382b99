//! The command line: clap's definition and the dispatch to `commands/`.

use crate::commands;
use crate::render;
use crate::session::{self, Session, SetupError};
use crate::exit::Exit;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "evoke", version, about = "Say what you want; evoke turns it into a safe, typed call of a program you installed.")]
struct Cli {
    /// Work in the project at DIR instead of the one found from the working directory.
    #[arg(short = 'C', global = true, value_name = "DIR")]
    project: Option<PathBuf>,
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
    /// Show every judgment of a decision without running anything.
    Try {
        /// Print the decision's JSON line instead of the reading.
        #[arg(long)]
        json: bool,
        /// Answer from a recording instead of an engine.
        #[arg(long, value_name = "FILE")]
        recording: Option<PathBuf>,
        /// Only reflexes with this tag take part.
        #[arg(long, value_name = "TAG")]
        tag: Option<String>,
        /// The sentence; with none and stdin not a terminal, one decision per input line.
        sentence: Vec<String>,
    },
    /// Explain a logged decision: the last, or N back from it.
    Why {
        /// How far back: 1 is the last decision.
        #[arg(default_value_t = 1)]
        n: usize,
        /// Print the logged entry as JSON.
        #[arg(long)]
        json: bool,
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
        Command::Why { n, json } => commands::why::run(n, json),
        Command::Try { json, recording, tag, sentence } => {
            let options = session::Options { project_dir: cli.project.as_deref(), recording: recording.as_deref(), tag: tag.as_deref() };
            match Session::open(&options) {
                Ok(session) => {
                    let sentence = (!sentence.is_empty()).then(|| sentence.join(" "));
                    commands::try_::run(&session, sentence, json)
                }
                Err(e) => setup_failed(e),
            }
        }
    };
    exit.into()
}

fn setup_failed(e: SetupError) -> Exit {
    for d in &e.diagnostics {
        render::err(&render::diagnostic(d));
    }
    render::err(&format!("error: {}\n", e.message));
    if let Some(fix) = e.fix {
        render::err(&format!("  = fix: {fix}\n"));
    }
    Exit::Usage
}
