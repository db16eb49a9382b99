//! From a decided call to a body's run: the values as the body receives them, the settings with secrets
//! read for this run only, the grants filled, and the way of running the manifest's `run` names.

use evoke_bodies::dates::today;
use evoke_bodies::node::Node;
use evoke_bodies::{BodyValue, Call, Contained, Failure, Ran, argv};
use evoke_core::catalog::Reflex;
use evoke_core::decision::Args;
use evoke_core::manifest::{Grants, Run, fill};
use evoke_core::project::Setting;
use evoke_files::project::Project;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Everything needed to run one reflex's body.
pub struct Prepared {
    pub call: Call,
    pub run: Run,
}

/// Why a body could not be prepared: refused (a value that would start with `-`: exit 6) or failed
/// (a setting missing: exit 1).
#[derive(Debug, Clone)]
pub enum NotPrepared {
    Refused(String),
    Failed(String),
}

impl NotPrepared {
    pub fn exit(&self) -> crate::exit::Exit {
        match self {
            NotPrepared::Refused(_) => crate::exit::Exit::Refused,
            NotPrepared::Failed(_) => crate::exit::Exit::Failed,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            NotPrepared::Refused(m) | NotPrepared::Failed(m) => m,
        }
    }
}

/// Resolves the settings (a secret from its environment variable, now and only for this run), fills the
/// grants' `{key}`s, and turns the arguments into what the body receives.
pub fn prepare(
    project: &Project,
    reflex: &Reflex,
    dir: &Path,
    args: &Args,
    input: &str,
    deadline: Instant,
) -> Result<Prepared, NotPrepared> {
    let mut config = Vec::new();
    for key in &reflex.manifest.config {
        let setting = project.settings(&reflex.name).iter().find(|(k, _)| *k == key.name).map(|(_, s)| s);
        let value = match setting {
            Some(Setting::Plain(value)) => value.clone(),
            Some(Setting::Env(var)) => std::env::var(var).map_err(|_| {
                NotPrepared::Failed(format!(
                    "`{}` of {} is read from ${var}, which is not set; export it and try again",
                    key.name, reflex.name
                ))
            })?,
            None => {
                return Err(NotPrepared::Failed(format!(
                    "{} needs the setting `{}`: {}",
                    reflex.name,
                    key.name,
                    crate::render::command(&["evoke", "config", &reflex.name, &format!("{}=VALUE", key.name)])
                )));
            }
        };
        config.push((key.name.clone(), value));
    }
    let setting = |name: &str| config.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()).unwrap_or_default();
    let grants = Grants {
        files: reflex.manifest.grants.files.iter().map(|(path, access)| (fill(path, setting), *access)).collect(),
        net: reflex.manifest.grants.net.iter().map(|pair| fill(pair, setting)).collect(),
    };
    let today = today();
    let values = args.0.iter().map(|(name, value)| (name.clone(), BodyValue::from(value))).collect();
    let run = match &reflex.manifest.run {
        Run::Argv(template) => Run::Argv(
            argv::fill(template, |name| args.get(name).map(|v| BodyValue::from(v).argv_text(today)))
                .map_err(|e| NotPrepared::Refused(e.to_string()))?,
        ),
        file => file.clone(),
    };
    Ok(Prepared {
        call: Call { dir: dir.to_path_buf(), args: values, today, input: input.to_string(), config, grants, deadline },
        run,
    })
}

/// Runs the prepared body the way its `run` names. A watchdog ends evoke should the run not hand back by
/// its deadline and a short grace, whatever a host thread is stuck on.
pub async fn run(prepared: &Prepared, cache: &Path, cancel: impl Future<Output = ()>) -> Ran {
    let _watchdog = evoke_bodies::stop::arm(prepared.call.deadline);
    match &prepared.run {
        Run::Argv(argv) => argv::run(&prepared.call, argv, cancel).await,
        // Only the library holds the function; the command never finds one to run.
        Run::Code => Ran {
            result: Err(Failure {
                message: "the body was handed to the library as code, and only that program runs it".into(),
                frames: Vec::new(),
            }),
            contained: Contained::None { why: "the body did not start".into() },
            cancelled: false,
        },
        Run::File(path) if path.ends_with(".wasm") => {
            components(&prepared.call, &prepared.call.dir.join(path), cache, cancel).await
        }
        Run::File(path) => match Node::find(cache) {
            Ok(node) => evoke_bodies::node::run(&prepared.call, path, &node, cancel).await,
            Err(e) => Ran {
                result: Err(Failure { message: e.to_string(), frames: Vec::new() }),
                contained: Contained::None { why: "the body did not start".into() },
                cancelled: false,
            },
        },
    }
}

/// A component runs under wasmtime, held to its grants; compiled components are cached by content.
async fn components(call: &Call, wasm: &Path, cache: &Path, cancel: impl Future<Output = ()>) -> Ran {
    match evoke_bodies::component::ComponentHost::new(cache) {
        Ok(host) => host.run_until(call, wasm, cancel).await,
        Err(e) => Ran {
            result: Err(Failure { message: e.to_string(), frames: Vec::new() }),
            contained: Contained::None { why: "the body did not start".into() },
            cancelled: false,
        },
    }
}

/// Compiles every component body of `installed` into the cache, with no deadline, and says so for each one
/// compiled now: a large body (a Python or JavaScript one) can take longer to compile than a decision may
/// wait, and a compile started by a decision ends with its process. `add` and `trust` call this, so the
/// first decision finds the body compiled.
pub fn precompile(ui: &crate::ui::Ui, installed: &[evoke_files::project::Installed], cache: &Path) {
    let wasm: Vec<(&str, PathBuf)> = installed
        .iter()
        .filter_map(|i| match &i.manifest.as_ref()?.run {
            Run::File(path) if path.ends_with(".wasm") => Some((i.name.as_str(), i.dir.join(path))),
            _ => None,
        })
        .filter(|(_, path)| path.is_file())
        .collect();
    if wasm.is_empty() {
        return;
    }
    let host = match evoke_bodies::component::ComponentHost::new(cache) {
        Ok(host) => host,
        Err(message) => {
            ui.err(&crate::render::warning(&format!("components were not compiled ahead: {message}"), None));
            return;
        }
    };
    for (name, path) in wasm {
        let started = std::time::Instant::now();
        match host.preload(&path) {
            Ok(evoke_bodies::component::Source::Compiled) => {
                ui.err(&crate::render::compiled(name, started.elapsed().as_secs_f64()))
            }
            Ok(_) => {}
            Err(message) => {
                ui.err(&crate::render::warning(&format!("{name}'s component does not compile: {message}"), None))
            }
        }
    }
}

/// Resolves when the person presses Ctrl-C or evoke is sent SIGTERM: the body's group is then stopped. A
/// second signal, or one once no run waits, ends evoke at once (`evoke_bodies::stop`).
pub async fn interrupted() {
    evoke_bodies::stop::interrupted().await;
}

/// The reflex's directory, as the project installed it.
pub fn dir_of(project: &Project, reflex: &str) -> Option<PathBuf> {
    project.installed(reflex).map(|i| i.dir.clone())
}
