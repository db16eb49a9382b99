//! The command line: clap's definition and the dispatch to `commands/`.

use crate::commands;
use crate::context::Context;
use crate::error::CommandResult;
use crate::exit::Exit;
use crate::render;
use crate::ui::Ui;
use clap::{Parser, Subcommand};
use evoke_core::text::escape_outside_lines;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "evoke",
    version,
    about = "Say what you want; evoke turns it into a safe, typed call of a program you installed.",
    after_help = "Say it in quotes: evoke \"turn on the kitchen lights\". With no sentence and stdin not a terminal, \
                  evoke decides one line at a time."
)]
pub struct Cli {
    /// Work in the project at DIR instead of the one found from the working directory.
    #[arg(short = 'C', global = true, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Print each decision's JSON line.
    #[arg(long, global = true)]
    json: bool,
    /// Answer from a recording instead of an engine.
    #[arg(long, global = true, value_name = "FILE")]
    recording: Option<PathBuf>,
    /// Only reflexes with this tag take part.
    #[arg(long, global = true, value_name = "TAG")]
    tag: Option<String>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// What you want, in one sentence (any words that are not a command).
    #[command(external_subcommand)]
    Say(Vec<String>),
    /// Read a reflex directory: print refusals and lint findings (exit 0 when it reads, 2 when refused).
    Check(commands::check::Args),
    /// Show every judgment of a decision without running anything.
    Try(commands::try_::Args),
    /// Call a reflex by name, with its values: evoke run lights room=den state=off; or run a plan file.
    Run(commands::run::Args),
    /// Set a reflex's setting in evoke.toml: key=value, or for a secret, key --env VAR.
    Config(commands::config::Args),
    /// Decide every reflex's held-out [tests] and say which pass (exit 1 on any failure).
    Test(commands::test::Args),
    /// Decide every record and test of the installed reflexes and score the adapter's confidence.
    Calibrate(commands::calibrate::Args),
    /// Install a reflex: evoke add NAME REF[@TAG] (or --tag TAG), or evoke add NAME PATH for a local one.
    Add(commands::add::Args),
    /// Component adapters, installed in your data directory: add NAME FILE --allow-host HOST, list, remove NAME.
    Adapter(commands::adapter::Args),
    /// Bring the lock in line with evoke.toml and upstream's newer releases of the same major version.
    Update(commands::update::Args),
    /// Every installed reflex: summary, effect, source, and why it is inactive with the fix.
    List,
    /// Trust this project as its owned files are now (evoke.toml, evoke.lock, overlays/, vocab/).
    Trust,
    /// Print shell completions for bash, zsh, fish, elvish or powershell.
    Completions(commands::completions::Args),
    /// Print the manual page (roff).
    Man,
    /// Explain a logged decision: the last, or N back from it.
    Why(commands::why::Args),
    /// Take up the last woven plan again: a step that ran is not run again, one that may have acted asks.
    Resume,
    /// Run one core function on a conformance case's input (JSON on stdin), printing its output.
    #[command(hide = true)]
    Conform(commands::conform::Args),
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // Help and version: evoke's own text, to stdout.
            let _ = e.print();
            return Exit::Done.into();
        }
        Err(e) => {
            // Words left over after a command took what it takes: perhaps a sentence that starts with its name.
            let leftover =
                matches!(e.kind(), clap::error::ErrorKind::UnknownArgument | clap::error::ErrorKind::TooManyValues);
            // An error quotes the command line, which is outside text: rendered without styling, then through
            // the one escaping function, so an argument cannot drive the terminal.
            let ui = Ui::terminal();
            ui.err(&escape_outside_lines(&plain_error(e)));
            if let Some((command, said)) =
                sentence_starting_with_a_command(std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned()))
                    .filter(|_| leftover)
            {
                ui.err(&render::sentence_needs_quotes(&command, &render::command(&said)));
            }
            return Exit::Usage.into();
        }
    };
    let context =
        Context { ui: Ui::terminal(), project: cli.project, json: cli.json, recording: cli.recording, tag: cli.tag };
    context.ui.finished(dispatch(&context, cli.command)).into()
}

/// The text of clap's error `e` with no styling of clap's own, but every character of the command line
/// as typed (clap's styled text, shown plainly, would drop an escape sequence from an argument rather than
/// show it). The command line is parsed again with plain styles, which fails the same way.
fn plain_error(e: clap::Error) -> String {
    use clap::CommandFactory;
    let plain = Cli::command().styles(clap::builder::Styles::plain()).try_get_matches_from(std::env::args_os());
    match plain {
        Err(plain) if plain.kind() == e.kind() => plain.render().ansi().to_string(),
        _ => e.render().to_string(),
    }
}

/// Words typed without quotes whose first is one of evoke's commands (`evoke check the kitchen lights`):
/// clap reads them as that command and refuses its arguments. The command's name, and the command line
/// that says the words as one sentence with the global options as given, when the words after the global
/// options start with a command's name and say more than it.
fn sentence_starting_with_a_command(args: impl Iterator<Item = String>) -> Option<(String, Vec<String>)> {
    use clap::CommandFactory;
    let mut said = vec!["evoke".to_string()];
    let mut words = Vec::new();
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            // The global options that take a value, given apart from it.
            "-C" | "--recording" | "--tag" if words.is_empty() => {
                said.push(arg);
                said.extend(args.next());
            }
            flag if flag.starts_with('-') && words.is_empty() => said.push(arg),
            _ => words.push(arg),
        }
    }
    let first = words.first()?.clone();
    let named = Cli::command().get_subcommands().any(|c| !c.is_hide_set() && c.get_name() == first);
    said.push(words.join(" "));
    (named && words.len() > 1).then_some((first, said))
}

fn dispatch(context: &Context, command: Option<Command>) -> CommandResult {
    match command {
        None => commands::say::run(context, None),
        Some(Command::Say(words)) => commands::say::run(context, Some(words.join(" "))),
        Some(Command::Check(args)) => commands::check::run(context, &args),
        Some(Command::Try(args)) => commands::try_::run(context, &args),
        Some(Command::Run(args)) => commands::run::run(context, &args),
        Some(Command::Config(args)) => commands::config::run(context, &args),
        Some(Command::Test(args)) => commands::test::run(context, &args),
        Some(Command::Calibrate(args)) => commands::calibrate::run(context, &args),
        Some(Command::Add(args)) => commands::add::run(context, &args),
        Some(Command::Adapter(args)) => commands::adapter::run(context, args),
        Some(Command::Update(args)) => commands::update::run(context, &args),
        Some(Command::List) => commands::list::run(context),
        Some(Command::Trust) => commands::trust::run(context),
        Some(Command::Completions(args)) => commands::completions::run(context, &args),
        Some(Command::Man) => commands::man::run(context),
        Some(Command::Why(args)) => commands::why::run(context, &args),
        Some(Command::Resume) => commands::resume::run(context),
        Some(Command::Conform(args)) => commands::conform::run(context, &args),
    }
}
