//! The host's commands, shared by `expresso serve` and the `expresso-host` program: `serve`, `ingest`,
//! `drain`, `status`, `parked` and `held`.

use crate::config::Config;
use crate::error::Error;
use crate::host::{DEFAULT_BATCH, Host};
use crate::pg::{Worker, WorkerOptions};
use crate::serve::{Limits, start};
use crate::sinks::Sinks;
use crate::store::Db;
use expresso_lang::{Compiled, compile};
use expresso_runtime::openai::OpenAi;
use expresso_runtime::provider::NoProvider;
use expresso_runtime::recording::Recording;
use expresso_runtime::{Provider, read_log};
use std::io::Read;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Clone, Debug)]
pub struct HostArgs {
    /// The program.
    pub program: PathBuf,
    /// The state directory: the store `expresso.db` lives in it (created when missing). Default: the
    /// state place, `$EXPRESSO_HOME/state`, else `$XDG_STATE_HOME/expresso`, else
    /// `~/.local/state/expresso`.
    #[arg(long)]
    pub state: Option<PathBuf>,
    /// The sink configuration (TOML): each capability's sink, with addresses and the names of the
    /// variables holding secrets.
    #[arg(long)]
    pub sinks: PathBuf,
    /// Who answers a model leaf the journal lacks: `none` (default), `recording:FILE`, `openai` or `anthropic`.
    #[arg(long, default_value = "none")]
    pub provider: String,
    /// Events run per batch (one commit each).
    #[arg(long, default_value_t = DEFAULT_BATCH)]
    pub batch: usize,
}

#[derive(clap::Args, Clone, Debug)]
pub struct ServeArgs {
    #[command(flatten)]
    pub host: HostArgs,
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1:8787")]
    pub listen: SocketAddr,
    /// The largest request body, in bytes.
    #[arg(long, default_value_t = 1 << 20)]
    pub max_body: usize,
    /// Requests waiting to be committed, at most; past it, 503.
    #[arg(long, default_value_t = 1024)]
    pub queue: usize,
    /// Events waiting for the agents, at most; past it, 429.
    #[arg(long, default_value_t = 100_000)]
    pub max_backlog: i64,
    /// Connections open at once, at most (held to half the open-file limit); past it, 503.
    #[arg(long, default_value_t = 512)]
    pub max_connections: usize,
    /// How long a request's headers may take to arrive, in milliseconds; past it the connection is closed.
    #[arg(long, default_value_t = 10_000)]
    pub header_timeout_ms: u64,
    /// How long an event body may take to arrive, in milliseconds; past it, 408.
    #[arg(long, default_value_t = 30_000)]
    pub body_timeout_ms: u64,
    /// How long an answer may wait for the client to take it, in milliseconds; past it the connection
    /// is closed (a client that never reads its answers holds its connection no longer).
    #[arg(long, default_value_t = crate::serve::WRITE_TIMEOUT.as_millis() as u64)]
    pub write_timeout_ms: u64,
    /// The reorder window W, in milliseconds: an event waits until its partition has brought an event W
    /// later, or W of the host's clock has passed, so events fire in event-time order (at most 60000;
    /// 0 fires each request's events at once, in event-time order among themselves).
    #[arg(long, default_value_t = crate::watermark::DEFAULT_REORDER_MS)]
    pub reorder_ms: u64,
}

#[derive(clap::Subcommand, Clone, Debug)]
pub enum HostCommand {
    /// Serve: POST /events in, exactly-once effects out.
    Serve(ServeArgs),
    /// Append a JSON-lines event log to the store's log (refused whole if any line is bad).
    Ingest {
        /// The state directory (default: the state place).
        #[arg(long)]
        state: Option<PathBuf>,
        events: PathBuf,
    },
    /// Write the store's log, in the order it fired, with its watermark schedule and the corrections'
    /// fate, as a file `expresso run` replays to the same effects.
    Export {
        /// The state directory (default: the state place).
        #[arg(long)]
        state: Option<PathBuf>,
        /// The sink configuration whose `[store]` names a Postgres deployment, to export it instead.
        #[arg(long)]
        sinks: Option<PathBuf>,
        /// The file to write (replaced at once when it is written whole).
        #[arg(long)]
        out: PathBuf,
        /// Also write the store's journal here, as a file `run --journal` reads, so the replay calls no
        /// provider for an answer serve had.
        #[arg(long)]
        journal: Option<PathBuf>,
    },
    /// Run the store's log through the protocol, send what waits, and exit (1 when receipts still wait).
    Drain {
        #[command(flatten)]
        host: HostArgs,
        /// How long to keep retrying receipts a sink has not taken, in milliseconds.
        #[arg(long, default_value_t = 30_000)]
        settle_ms: u64,
    },
    /// Print the store's counts as JSON, with the parked firings (the first 100).
    Status {
        /// The state directory (default: the state place).
        #[arg(long)]
        state: Option<PathBuf>,
        /// The sink configuration whose `[store]` names a Postgres deployment, to look at it instead.
        #[arg(long)]
        sinks: Option<PathBuf>,
    },
    /// List, retry or skip the firings parked after faulting on every try.
    Parked {
        /// The state directory (default: the state place).
        #[arg(long, global = true)]
        state: Option<PathBuf>,
        /// The sink configuration whose `[store]` names a Postgres deployment, to act on it instead.
        #[arg(long, global = true)]
        sinks: Option<PathBuf>,
        #[command(subcommand)]
        action: ParkedAction,
    },
    /// List, show or release the receipts a sink refused for good (held for a person).
    Held {
        /// The state directory (default: the state place).
        #[arg(long, global = true)]
        state: Option<PathBuf>,
        #[command(subcommand)]
        action: crate::held::HeldAction,
    },
}

#[derive(clap::Subcommand, Clone, Debug)]
pub enum ParkedAction {
    /// One JSON line per parked firing, oldest first.
    List {
        /// Also the firings already retried or skipped.
        #[arg(long)]
        all: bool,
        /// Firings listed, at most.
        #[arg(long, default_value_t = 1_000)]
        limit: usize,
    },
    /// Run the firing once more (by the running host, or the next `serve` or `drain`); if it faults
    /// again it stays parked with the new reason.
    Retry { id: i64 },
    /// Never run the firing: it is marked skipped and its agent counts the event as fired on, so no run
    /// and no replay fires it.
    Skip { id: i64 },
}

/// Parked firings `status` lists, at most.
const STATUS_PARKED: usize = 100;

/// Runs a command; the error is printed by the caller. Returns the exit code.
pub fn run(command: HostCommand) -> Result<u8, Error> {
    match command {
        HostCommand::Serve(args) => {
            let limits = Limits {
                max_body: args.max_body,
                queue: args.queue,
                max_backlog: args.max_backlog,
                max_connections: args.max_connections,
                header_timeout: std::time::Duration::from_millis(args.header_timeout_ms.max(1)),
                body_timeout: std::time::Duration::from_millis(args.body_timeout_ms.max(1)),
                write_timeout: std::time::Duration::from_millis(args.write_timeout_ms.max(1)),
                reorder: crate::watermark::Window::new(args.reorder_ms)?,
                ..Limits::default()
            };
            let running = match open_worker(&args.host)? {
                Some(worker) => start(worker, args.listen, limits, true)?,
                None => start(open(&args.host)?, args.listen, limits, true)?,
            };
            eprintln!("expresso serve: listening on http://{}", running.addr);
            running.join().map_err(|e| Error::Store(e.to_string()))?;
            eprintln!("expresso serve: stopped");
            Ok(0)
        }
        HostCommand::Ingest { state, events } => {
            let path = events;
            let text = read_text(&path, 1 << 30)?;
            let events = read_log(&text).map_err(|e| Error::Program(format!("{}: {e}", events_display(&path))))?;
            let mut db = Db::open(&state_place(state.as_deref())?)?;
            // A file is a whole log: it is staged as serve stages a request, and released at once, in
            // event-time order, with its corrections decided as serve decides them.
            let fates = db.ingest(&events, crate::sinks::now_ms())?;
            let count = |f: &dyn Fn(&crate::watermark::Fate) -> bool| fates.iter().filter(|x| f(x)).count();
            let fresh = count(&|f| *f == crate::watermark::Fate::New);
            let duplicate = count(&|f| *f == crate::watermark::Fate::Duplicate);
            for (i, fate) in fates.iter().enumerate() {
                if let crate::watermark::Fate::Refused(reason) = fate {
                    eprintln!("{}: event {}: refused: {reason}", events_display(&path), i + 1);
                }
            }
            println!(
                "{{\"accepted\":{fresh},\"duplicate\":{duplicate},\"refused\":{}}}",
                fates.len() - fresh - duplicate
            );
            Ok(0)
        }
        HostCommand::Export { state, sinks, out, journal } => {
            let mut store: Box<dyn crate::export::Exported> =
                match sinks.as_deref().map(Config::read).transpose()?.map(|c| c.postgres()).transpose()?.flatten() {
                    Some(ns) => Box::new(crate::pg::connect(&ns)?),
                    None => Box::new(Db::open(&state_place(state.as_deref())?)?),
                };
            let entries = match &journal {
                Some(path) => crate::export::write_journal(store.as_mut(), path)?,
                None => 0,
            };
            let written = crate::export::write(store.as_mut(), &out)?;
            println!(
                "{{\"events\":{},\"corrections\":{},\"journal_entries\":{entries},\"out\":{}}}",
                written.events,
                written.corrections,
                serde_json::Value::String(out.display().to_string())
            );
            Ok(0)
        }
        HostCommand::Drain { host, settle_ms } => {
            let mut host = open(&host)?;
            // What serve left staged in its reorder window is released first: drain runs the log whole.
            host.db_mut().release(crate::watermark::Window::default(), crate::sinks::now_ms(), true)?;
            let waiting = host.drain(settle_ms)?;
            let counts = host.db().counts()?;
            println!(
                "{{\"events\":{},\"cursor\":{},\"done\":{},\"intent\":{},\"held\":{}}}",
                counts.events,
                host.cursor(),
                counts.done,
                counts.intent,
                counts.held
            );
            Ok(if waiting == 0 { 0 } else { 1 })
        }
        HostCommand::Status { state, sinks } => {
            let mut db = operated(state.as_deref(), sinks.as_deref())?;
            let c = db.counts()?;
            let parked =
                serde_json::to_string(&db.parked(false, STATUS_PARKED)?).map_err(|e| Error::Store(e.to_string()))?;
            let window = window_status(state.as_deref(), sinks.as_deref())?;
            println!(
                "{{\"events\":{},\"journal\":{},\"intent\":{},\"done\":{},\"held\":{},\"parked\":{},\"parked_firings\":{parked},{window}}}",
                c.events, c.journal, c.intent, c.done, c.held, c.parked
            );
            Ok(0)
        }
        HostCommand::Parked { state, sinks, action } => {
            let mut db = operated(state.as_deref(), sinks.as_deref())?;
            match action {
                ParkedAction::List { all, limit } => {
                    for row in db.parked(all, limit)? {
                        println!("{}", serde_json::to_string(&row).map_err(|e| Error::Store(e.to_string()))?);
                    }
                    Ok(0)
                }
                ParkedAction::Retry { id } => Ok(answer(id, db.retry_parked(id)?, "retry")),
                ParkedAction::Skip { id } => Ok(answer(id, db.skip_parked(id)?, "skipped")),
            }
        }
        HostCommand::Held { state, action } => {
            crate::held::run(&mut crate::held::open(&state_place(state.as_deref())?)?, action)
        }
    }
}

/// The reorder window's part of `status`: events staged, events released late, and the corrections
/// refused (the first 100, with their reasons).
fn window_status(state: Option<&Path>, sinks: Option<&Path>) -> Result<String, Error> {
    use crate::export::Exported;
    let pg = sinks.map(Config::read).transpose()?.map(|c| c.postgres()).transpose()?.flatten();
    let (counts, corrections) = match pg {
        Some(ns) => {
            let mut client = crate::pg::connect(&ns)?;
            let counts = crate::pg::stage::counts(&mut client)?;
            let mut all = client.all_corrections(STATUS_PARKED * 10)?;
            all.retain(|c| c.fate == "refused");
            (counts, all)
        }
        None => {
            let db = Db::open(&state_place(state)?)?;
            (db.stage_counts()?, db.corrections(false, STATUS_PARKED)?)
        }
    };
    let mut corrections = corrections;
    corrections.truncate(STATUS_PARKED);
    let list = serde_json::to_string(&corrections).map_err(|e| Error::Store(e.to_string()))?;
    Ok(format!(
        "\"staged\":{},\"late\":{},\"corrections_refused\":{},\"refused_corrections\":{list}",
        counts.staged, counts.late, counts.refused
    ))
}

/// The store an operator's command looks at: the Postgres deployment the `--sinks` configuration's
/// `[store]` names, else the SQLite store in the state place.
fn operated(state: Option<&Path>, sinks: Option<&Path>) -> Result<Box<dyn crate::pg::operator::Operate>, Error> {
    if let Some(sinks) = sinks
        && let Some(ns) = Config::read(sinks)?.postgres()?
    {
        return Ok(Box::new(crate::pg::connect(&ns)?));
    }
    Ok(Box::new(Db::open(&state_place(state)?)?))
}

/// An operator's command on parked firing `id`: its new status on stdout (0), or 1 when no such firing
/// is parked.
fn answer(id: i64, done: bool, status: &str) -> u8 {
    if done {
        println!("{{\"id\":{id},\"status\":\"{status}\"}}");
        0
    } else {
        eprintln!("error: no firing {id} is parked (see `parked list`)");
        1
    }
}

/// The state place: the directory given, else `$EXPRESSO_HOME/state`, else `$XDG_STATE_HOME/expresso`,
/// else `$HOME/.local/state/expresso`.
pub fn state_place(given: Option<&Path>) -> Result<PathBuf, Error> {
    if let Some(dir) = given {
        return Ok(dir.to_path_buf());
    }
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(home) = var("EXPRESSO_HOME") {
        return Ok(home.join("state"));
    }
    if let Some(state) = var("XDG_STATE_HOME") {
        return Ok(state.join("expresso"));
    }
    if let Some(home) = var("HOME") {
        return Ok(home.join(".local/state/expresso"));
    }
    Err(Error::Store("there is no state place: give --state DIR, or set EXPRESSO_HOME".into()))
}

fn events_display(path: &Path) -> String {
    path.display().to_string()
}

fn read_text(path: &Path, limit: u64) -> Result<String, Error> {
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(limit + 1).read_to_string(&mut text))
        .map_err(|e| Error::Program(format!("cannot read {}: {e}", path.display())))?;
    if text.len() as u64 > limit {
        return Err(Error::Program(format!("{} is larger than {limit} bytes", path.display())));
    }
    Ok(text)
}

/// Reads and checks the program; every diagnostic of a refusal is in the error.
pub fn program(path: &Path) -> Result<Compiled, Error> {
    let source = read_text(path, expresso_lang::bounds::MAX_SOURCE_BYTES as u64)?;
    let file = path.display().to_string();
    compile(&source).map_err(|diagnostics| {
        let text: String = diagnostics.iter().map(|d| d.render(&file, &source)).collect();
        Error::Program(format!("{text}{file}: refused"))
    })
}

/// The capabilities of world effects a program may apply (observation capabilities, `ai.*`, are not).
pub fn world_capabilities(compiled: &Compiled) -> Vec<String> {
    let mut caps: Vec<String> =
        compiled.report.agents.iter().flat_map(|a| a.needs.iter().filter(|c| !c.starts_with("ai.")).cloned()).collect();
    caps.sort();
    caps.dedup();
    caps
}

pub fn provider(spec: &str) -> Result<Box<dyn Provider + Send>, Error> {
    let refuse = |m: String| {
        Error::Program(format!(
            "--provider {spec}: {m}\n  = fix: use `none`, `recording:FILE`, `openai` or `anthropic`"
        ))
    };
    if spec == "none" {
        return Ok(Box::new(NoProvider));
    }
    if let Some(path) = spec.strip_prefix("recording:") {
        let text = read_text(Path::new(path), 64 << 20)?;
        return Recording::from_json(&text)
            .map(|r| Box::new(r) as Box<dyn Provider + Send>)
            .map_err(|e| refuse(e.to_string()));
    }
    if spec == "openai" {
        return OpenAi::from_env().map(|p| Box::new(p) as Box<dyn Provider + Send>).map_err(|e| refuse(e.to_string()));
    }
    if spec == "anthropic" {
        return expresso_runtime::anthropic::Anthropic::from_env()
            .map(|p| Box::new(p) as Box<dyn Provider + Send>)
            .map_err(|e| refuse(e.to_string()));
    }
    Err(refuse("not a provider".into()))
}

/// Opens a Postgres worker when the sink configuration's `[store]` names a database; `None` when the
/// store is SQLite. Each partition the worker leases gets its own protocol, sinks and provider.
pub fn open_worker(args: &HostArgs) -> Result<Option<Worker>, Error> {
    let config = Config::read(&args.sinks)?;
    let Some(ns) = config.postgres()? else { return Ok(None) };
    let compiled = program(&args.program)?;
    crate::timers::Timers::of(&compiled.program).check()?;
    config.covers(&world_capabilities(&compiled))?;
    // Checked once here, so a bad provider or sink is refused at start, not at the first lease.
    Sinks::from_config(&config)?;
    provider(&args.provider)?;
    // The database is reached once at start, so a wrong URL is refused at once.
    crate::pg::connect(&ns)?;
    let (spec, batch) = (args.provider.clone(), args.batch.max(1));
    let make: crate::pg::worker::MakeHost = Box::new(move |store| {
        let mut host = Host::new(compiled.clone(), store, Sinks::from_config(&config)?, provider(&spec)?);
        host.batch = batch;
        host.feedback.words = config.feedback.words;
        Ok(host)
    });
    Ok(Some(Worker::new(ns, WorkerOptions::default(), make)))
}

/// Opens the host: the program, the sinks (refused when an effect the program may apply has none), the
/// provider and the store.
pub fn open(args: &HostArgs) -> Result<Host, Error> {
    let compiled = program(&args.program)?;
    crate::timers::Timers::of(&compiled.program).check()?;
    let config = Config::read(&args.sinks)?;
    config.covers(&world_capabilities(&compiled))?;
    let sinks = Sinks::from_config(&config)?;
    let provider = provider(&args.provider)?;
    let db = Db::open(&state_place(args.state.as_deref())?)?;
    let mut host = Host::new(compiled, db, sinks, provider);
    host.batch = args.batch.max(1);
    host.feedback.words = config.feedback.words;
    Ok(host)
}
