//! The sink configuration: which sink each capability's effects go to, with each receiver's address and
//! the NAME of the environment variable that holds its secret, never the secret itself.
//!
//! ```toml
//! [sinks.tasks]
//! kind = "http"                       # http | slack | file | reflex
//! url = "https://tasks.example/hook"
//! secret_env = "TASKS_TOKEN"          # sent as `Authorization: Bearer <value>`
//!
//! [sinks.chat]
//! kind = "slack"
//! url_env = "SLACK_WEBHOOK_URL"       # an incoming webhook's address is itself a secret
//!
//! [sinks.log]
//! kind = "file"
//! path = "effects.jsonl"              # relative to this file
//!
//! [sinks.deploy]
//! kind = "reflex"
//! reflex = "deploy"
//!
//! [store]                             # optional: without it, SQLite under the state directory
//! postgres_env = "EXPRESSO_PG_URL"    # or `postgres = "postgres://host/db"`; workers sharing it scale out
//! schema = "expresso"                 # the database schema (default `expresso`)
//! partitions = 16                     # fixed once the log has events (default 16)
//!
//! [feedback]                          # optional: say/reply/react come back into the log as words
//! words = true
//!
//! [capabilities]
//! "tasks.create" = "tasks"
//! "message.send" = "chat"
//! "react.add" = "log"
//! ```

use crate::error::Error;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The largest configuration file read.
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;
/// The most receipts an HTTP sink sends at once: each is a thread of the delivering worker.
pub const MAX_IN_FLIGHT: usize = 64;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    #[serde(default)]
    pub sinks: BTreeMap<String, SinkConfig>,
    #[serde(default)]
    pub capabilities: BTreeMap<String, String>,
    /// Where the store is, when not SQLite under the state directory.
    pub store: Option<StoreConfig>,
    /// What a delivered receipt writes back into the log (`crate::feedback`).
    #[serde(default)]
    pub feedback: FeedbackConfig,
    /// Where the file was read from: relative paths in it are read from its directory.
    #[serde(skip)]
    pub dir: PathBuf,
    #[serde(skip)]
    pub file: String,
}

/// `[feedback]`: `words = true` writes each `say`, `reply`, `message.send` and `react` back into the log as
/// the agent's words (default false: the log holds what came from outside, and `receipt` events).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FeedbackConfig {
    #[serde(default)]
    pub words: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoreConfig {
    /// The Postgres URL.
    pub postgres: Option<String>,
    /// Or the name of the variable holding it (a URL may carry a password).
    pub postgres_env: Option<String>,
    /// The schema the tables live in (default `expresso`).
    pub schema: Option<String>,
    /// How many partitions the log is split into (default 16; 1 to 1024).
    pub partitions: Option<u32>,
}

/// The default partition count: enough for a few workers to share, few enough that an idle worker's
/// round over its partitions stays cheap.
pub const DEFAULT_PARTITIONS: u32 = 16;

#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum SinkConfig {
    Http(HttpConfig),
    Slack(HttpConfig),
    File { path: PathBuf },
    Reflex(ReflexConfig),
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HttpConfig {
    /// The receiver's address.
    pub url: Option<String>,
    /// Or the name of the variable that holds it (a Slack incoming webhook's address is a secret).
    pub url_env: Option<String>,
    /// The name of the variable holding a bearer token.
    pub secret_env: Option<String>,
    /// One call's time bound, in milliseconds (default 5,000; at most 60,000).
    pub timeout_ms: Option<u64>,
    /// Tries per dispatch (default 3; at most 10).
    pub attempts: Option<u32>,
    /// How many receipts of one batch may be on their way at once (default 8 for `http`, 1 for `slack`, whose
    /// messages a person reads in order; at most 64). With 1 they go one after another, in order.
    pub in_flight: Option<usize>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReflexConfig {
    /// The reflex's name, as `evoke run NAME` takes it.
    pub reflex: String,
    /// The evoke program (default: `evoke` on PATH).
    pub evoke: Option<PathBuf>,
    /// Which receipt argument gives each of the reflex's values (`reflex_key = "receipt_arg"`); without
    /// it every receipt argument is passed under its own name.
    pub args: Option<BTreeMap<String, String>>,
    /// evoke's time bound, in milliseconds (default 60,000).
    pub timeout_ms: Option<u64>,
    /// The evoke project the reflex is found in: evoke runs in this folder (relative to this file;
    /// default: the folder the host runs in). The project must be trusted, as for any `evoke run`.
    pub project: Option<PathBuf>,
}

impl Config {
    pub fn read(path: &Path) -> Result<Config, Error> {
        use std::io::Read;
        let file = path.display().to_string();
        let refuse = |message: String, fix: &str| Error::Config { file: file.clone(), message, fix: fix.into() };
        let mut text = String::new();
        std::fs::File::open(path)
            .and_then(|f| f.take(MAX_CONFIG_BYTES + 1).read_to_string(&mut text))
            .map_err(|e| refuse(format!("cannot read it: {e}"), "name a readable sink configuration"))?;
        if text.len() as u64 > MAX_CONFIG_BYTES {
            return Err(refuse(format!("larger than {MAX_CONFIG_BYTES} bytes"), "keep it under 1 MiB"));
        }
        let mut config: Config = toml::from_str(&text).map_err(|e| {
            refuse(
                e.to_string().trim_end().to_string(),
                "each [sinks.NAME] has `kind` http, slack, file or reflex and its own keys; [capabilities] maps a capability to a sink's name",
            )
        })?;
        config.dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        config.file = file;
        config.check()?;
        Ok(config)
    }

    /// Every capability names a sink that exists; every HTTP sink has exactly one address.
    fn check(&self) -> Result<(), Error> {
        let refuse = |message: String, fix: String| Error::Config { file: self.file.clone(), message, fix };
        for (capability, sink) in &self.capabilities {
            if !self.sinks.contains_key(sink) {
                return Err(refuse(
                    format!("[capabilities] `{capability}` names the sink `{sink}`, which no [sinks.{sink}] defines"),
                    format!("add [sinks.{sink}] or map `{capability}` to one of: {}", self.names()),
                ));
            }
        }
        if let Some(store) = &self.store {
            if store.postgres.is_some() == store.postgres_env.is_some() {
                return Err(refuse(
                    "[store] needs exactly one of `postgres` and `postgres_env`".into(),
                    "give the database's URL as `postgres`, or the variable holding it as `postgres_env`".into(),
                ));
            }
            if store.partitions.is_some_and(|p| p == 0 || p > 1024) {
                return Err(refuse("[store] partitions must be 1..=1024".into(), "give 1 to 1024 (default 16)".into()));
            }
        }
        for (name, sink) in &self.sinks {
            if let SinkConfig::Http(h) | SinkConfig::Slack(h) = sink {
                if h.url.is_some() == h.url_env.is_some() {
                    return Err(refuse(
                        format!("[sinks.{name}] needs exactly one of `url` and `url_env`"),
                        "give the receiver's address as `url`, or the variable holding it as `url_env`".to_string(),
                    ));
                }
                if h.timeout_ms.is_some_and(|t| t == 0 || t > 60_000) {
                    return Err(refuse(
                        format!("[sinks.{name}] timeout_ms must be 1..=60000"),
                        "give milliseconds, at most a minute".into(),
                    ));
                }
                if h.attempts.is_some_and(|a| a == 0 || a > 10) {
                    return Err(refuse(format!("[sinks.{name}] attempts must be 1..=10"), "give 1 to 10".into()));
                }
                if h.in_flight.is_some_and(|n| n == 0 || n > MAX_IN_FLIGHT) {
                    return Err(refuse(
                        format!("[sinks.{name}] in_flight must be 1..={MAX_IN_FLIGHT}"),
                        format!("give 1 (one after another, in order) to {MAX_IN_FLIGHT}"),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Refuses a program whose effects have nowhere to go: every world capability it needs must be mapped.
    pub fn covers(&self, needed: &[String]) -> Result<(), Error> {
        let missing: Vec<&String> = needed.iter().filter(|c| !self.capabilities.contains_key(*c)).collect();
        if missing.is_empty() {
            return Ok(());
        }
        let names: Vec<&str> = missing.iter().map(|s| s.as_str()).collect();
        Err(Error::Config {
            file: self.file.clone(),
            message: format!("[capabilities] maps no sink for {}, which the program's effects need", names.join(", ")),
            fix: format!("add `\"{}\" = \"SINK\"` under [capabilities]", names[0]),
        })
    }

    /// The Postgres deployment the file names, if any: its URL read from the variable when so given.
    pub fn postgres(&self) -> Result<Option<crate::pg::Namespace>, Error> {
        let Some(store) = &self.store else { return Ok(None) };
        let url = match (&store.postgres, &store.postgres_env) {
            (Some(url), _) => url.clone(),
            (None, Some(var)) => std::env::var(var).ok().filter(|v| !v.is_empty()).ok_or_else(|| Error::Config {
                file: self.file.clone(),
                message: format!("[store] postgres_env names `{var}`, which is not set"),
                fix: format!("export {var}=postgres://USER@HOST:PORT/DB"),
            })?,
            (None, None) => return Ok(None),
        };
        Ok(Some(crate::pg::Namespace {
            url,
            schema: store.schema.clone().unwrap_or_else(|| "expresso".into()),
            partitions: store.partitions.unwrap_or(DEFAULT_PARTITIONS),
        }))
    }

    fn names(&self) -> String {
        self.sinks.keys().cloned().collect::<Vec<_>>().join(", ")
    }

    /// A path in the file, read from the file's directory when relative.
    /// A reflex sink with its paths made whole: `project` against this file's folder, and `evoke` too when
    /// it is a path rather than a name on PATH. The project must be there, with its `evoke.toml`.
    pub fn resolved_reflex(&self, name: &str, reflex: &ReflexConfig) -> Result<ReflexConfig, Error> {
        let mut r = reflex.clone();
        r.evoke = r.evoke.map(|e| if e.components().count() > 1 { self.resolve(&e) } else { e });
        if let Some(project) = &r.project {
            let project = self.resolve(project);
            if !project.join("evoke.toml").is_file() {
                return Err(Error::Config {
                    file: self.file.clone(),
                    message: format!("[sinks.{name}] project names {}, which holds no evoke.toml", project.display()),
                    fix: "name the folder of the evoke project that holds the reflex (relative to this file)".into(),
                });
            }
            r.project = Some(project);
        }
        Ok(r)
    }

    pub fn resolve(&self, path: &Path) -> PathBuf {
        if path.is_absolute() { path.to_path_buf() } else { self.dir.join(path) }
    }
}
