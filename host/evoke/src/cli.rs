//! The command line: clap's definition and the dispatch to `commands/`.

use crate::commands;
use crate::exit::Exit;
use crate::render;
use crate::session::{self, Session, SetupError, Workspace};
use clap::{Parser, Subcommand};
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
    Check {
        /// The reflex directory (default: the current one).
        path: Option<PathBuf>,
    },
    /// Show every judgment of a decision without running anything.
    Try {
        /// The sentence; with none and stdin not a terminal, one decision per input line.
        sentence: Vec<String>,
        /// Write the plan of a sentence read as several steps to FILE, for `evoke run FILE`.
        #[arg(long, value_name = "FILE")]
        save: Option<PathBuf>,
    },
    /// Call a reflex by name, with its values: evoke run lights room=den state=off; or run a plan file.
    Run {
        /// The reflex's local name.
        name: String,
        /// Its values, as key=value, and flags by name.
        values: Vec<String>,
    },
    /// Set a reflex's setting in evoke.toml: key=value, or for a secret, key --env VAR.
    Config {
        /// The reflex's local name.
        name: String,
        /// key=value, or key with --env.
        setting: String,
        /// Read the setting from this environment variable at each run (the only way to give a secret).
        #[arg(long, value_name = "VAR")]
        env: Option<String>,
    },
    /// Decide every reflex's held-out [tests] and say which pass (exit 1 on any failure).
    Test {
        /// Only this reflex's tests.
        name: Option<String>,
    },
    /// Decide every record and test of the installed reflexes and score the adapter's confidence.
    Calibrate {
        /// Decide each case N times and report how far the answers move.
        #[arg(long, value_name = "N", default_value_t = 1)]
        repeat: usize,
    },
    /// Install a reflex: evoke add NAME REF[@TAG] (or --tag TAG), or evoke add NAME PATH for a local one.
    Add {
        /// Its local name.
        name: String,
        /// A ref (https://host/path, ssh://host/path or user@host:path, then //subdir) or a directory.
        source: String,
    },
    /// Component adapters, installed in your data directory: add NAME FILE --allow-host HOST, list, remove NAME.
    Adapter {
        #[command(subcommand)]
        action: commands::adapter::Action,
    },
    /// Bring the lock in line with evoke.toml and upstream's newer releases of the same major version.
    Update {
        /// Take an effect loosened upstream.
        #[arg(long)]
        accept: bool,
    },
    /// Every installed reflex: summary, effect, source, and why it is inactive with the fix.
    List,
    /// Trust this project as its owned files are now (evoke.toml, evoke.lock, overlays/, vocab/).
    Trust,
    /// Print shell completions for bash, zsh, fish, elvish or powershell.
    Completions { shell: clap_complete::Shell },
    /// Print the manual page (roff).
    Man,
    /// Explain a logged decision: the last, or N back from it.
    Why {
        /// How far back: 1 is the last decision.
        #[arg(default_value_t = 1)]
        n: usize,
    },
    /// Take up the last woven plan again: a step that ran is not run again, one that may have acted asks.
    Resume,
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
        Err(e) if !e.use_stderr() => {
            // Help and version: evoke's own text, to stdout.
            let _ = e.print();
            return Exit::Done.into();
        }
        Err(e) => {
            // An error quotes the command line, which is outside text: rendered without styling, then through
            // the one escaping function, so an argument cannot drive the terminal.
            render::err(&render::shown_lines(&plain_error(e)));
            return Exit::Usage.into();
        }
    };
    let options = session::Options {
        project_dir: cli.project.as_deref(),
        recording: cli.recording.as_deref(),
        tag: cli.tag.as_deref(),
    };
    let json = cli.json;
    let say = |sentence: Option<String>| {
        let say = commands::say::Options { json, project_flag: cli.project.as_deref() };
        match Session::open(&options) {
            Ok(session) => commands::say::run(&session, sentence, &say),
            Err(e) => setup_failed(e),
        }
    };
    let exit = match cli.command {
        None => say(None),
        Some(Command::Say(words)) => say(Some(words.join(" "))),
        Some(command) => other(command, &options, json),
    };
    exit.into()
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

fn other(command: Command, options: &session::Options, json: bool) -> Exit {
    match command {
        Command::Say(_) => unreachable!("handled by main"),
        Command::Check { path } => commands::check::run(path.as_deref()),
        Command::Conform { function } => commands::conform::run(&function),
        Command::Why { n } => commands::why::run(n, json),
        Command::Completions { shell } => commands::completions::completions(shell),
        Command::Man => commands::completions::man(),
        Command::Add { name, source } => commands::add::run(options, &name, &source),
        Command::Adapter { action } => commands::adapter::run(action, json),
        Command::Update { accept } => commands::update::run(options, accept),
        Command::List => commands::list::run(options.project_dir),
        Command::Trust => commands::trust::run(options.project_dir),
        Command::Calibrate { repeat } => match Session::open(options) {
            Ok(session) => commands::calibrate::run(&session, json, repeat),
            Err(e) => setup_failed(e),
        },
        Command::Test { name } => match Session::open(options) {
            Ok(session) => commands::test::run(&session, name.as_deref()),
            Err(e) => setup_failed(e),
        },
        Command::Config { name, setting, env } => {
            commands::config::run(options.project_dir, &name, &setting, env.as_deref())
        }
        // A plan file: `evoke run month.plan.json`.
        Command::Run { name, values } if values.is_empty() && name.ends_with(".json") => match Session::open(options) {
            Ok(session) => commands::weave::run_file(&session, std::path::Path::new(&name), json, options.project_dir),
            Err(e) => setup_failed(e),
        },
        Command::Run { name, values } => match Workspace::open(options) {
            Ok(session) => commands::run::run(&session, &name, &values, json),
            Err(e) => setup_failed(e),
        },
        Command::Resume => match Session::open(options) {
            Ok(session) => commands::weave::resume(&session, json, options.project_dir),
            Err(e) => setup_failed(e),
        },
        Command::Try { sentence, save } => match Session::open(options) {
            Ok(session) => {
                let sentence = (!sentence.is_empty()).then(|| sentence.join(" "));
                commands::try_::run(&session, sentence, json, save.as_deref())
            }
            Err(e) => setup_failed(e),
        },
    }
}

fn setup_failed(e: SetupError) -> Exit {
    for d in &e.diagnostics {
        render::err(&render::diagnostic(d));
    }
    render::err(&format!("error: {}\n", render::shown(&e.message)));
    if let Some(fix) = e.fix {
        render::err(&format!("  = fix: {}\n", render::shown(&fix)));
    }
    if e.needs_person { Exit::NeedsPerson } else { Exit::Usage }
}
