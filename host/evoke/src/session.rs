//! What every deciding command sets up once: the places, the project and its catalog, the adapter with
//! its gate and the user's moved bars, and the plan digest checked against the adapter.

use crate::cache::AnswerCache;
use crate::error::CommandError;
use evoke_adapters::replay::Replay;
use evoke_core::adapter::{Adapter, Gate};
use evoke_core::catalog::Catalog;
use evoke_core::question::{check_limits, plan_digest};
use evoke_core::recording::read_recording_lazy;
use evoke_files::places::Places;
use evoke_files::project::{self, Location, Project};
use sha2::Digest;
use std::path::{Path, PathBuf};

/// A trusted project, loaded: what every command that reads or runs reflexes needs.
pub struct Workspace {
    pub places: Places,
    pub project: Project,
    pub catalog: Catalog,
    /// The tags the catalog was narrowed to (`--tag`): a plan file saved from it carries them.
    pub tags: Vec<String>,
}

/// The places and the project found from the working directory, or the one `-C DIR` names: the one way
/// every command finds them.
pub fn locate(project_dir: Option<&Path>) -> Result<(Places, Location), CommandError> {
    locate_in(None, project_dir)
}

/// [`locate`] with the places under `home` when one is given (a library's `EVOKE_HOME` for one call),
/// else the environment's.
pub fn locate_in(home: Option<&Path>, project_dir: Option<&Path>) -> Result<(Places, Location), CommandError> {
    let places = places_in(home)?;
    places.private_cache().map_err(|e| {
        CommandError::failed(format!("the cache place {} cannot be made private: {e}", places.cache.display()))
    })?;
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let location = project::locate(&cwd, project_dir, &places)?;
    Ok((places, location))
}

/// The places under `home`, else the environment's; an empty `home` is none, as an empty `EVOKE_HOME` is.
fn places_in(home: Option<&Path>) -> Result<Places, CommandError> {
    match home.filter(|h| !h.as_os_str().is_empty()) {
        Some(home) => Ok(Places::under(home)),
        None => Ok(Places::from_env()?),
    }
}

/// [`locate`], refusing a project other than the home one unless its owned files are what was trusted.
pub fn locate_trusted(project_dir: Option<&Path>) -> Result<(Places, Location), CommandError> {
    locate_trusted_in(None, project_dir)
}

/// [`locate_trusted`] with the places under `home` when one is given.
pub fn locate_trusted_in(home: Option<&Path>, project_dir: Option<&Path>) -> Result<(Places, Location), CommandError> {
    let (places, location) = locate_in(home, project_dir)?;
    evoke_files::trust::check(&places, &location)?;
    Ok((places, location))
}

impl Workspace {
    /// Finds the project, refuses it unless trusted, and loads its reflexes.
    pub fn open(options: &Options) -> Result<Workspace, CommandError> {
        let (places, location) = locate_trusted_in(options.home, options.project_dir)?;
        let project = project::load_in(location, &places)?;
        let mut catalog = project.catalog();
        if let Some(tag) = options.tag {
            catalog.retain(|r| r.manifest.tags.iter().any(|t| t == tag));
        }
        let tags = options.tag.map(str::to_string).into_iter().collect();
        Ok(Workspace { places, project, catalog, tags })
    }
}

impl Workspace {
    /// A project built in code, with no directory of its own: no reflex installed, nothing to trust, no
    /// lock; its engine is `adapter`, else the one the home `evoke.toml` names, else `local`, under the
    /// home file's settings and bars. Its reflexes are those handed to it as code.
    pub fn in_code(home: Option<&Path>, adapter: Option<&str>) -> Result<Workspace, CommandError> {
        let places = places_in(home)?;
        places.private_cache().map_err(|e| {
            CommandError::failed(format!("the cache place {} cannot be made private: {e}", places.cache.display()))
        })?;
        let location = Location { root: places.config.clone(), home: true };
        let mut project = project::load_in(location, &places)?;
        project.installed.clear();
        project.playbooks.clear();
        project.lock = Default::default();
        if let Some(adapter) = adapter {
            project.file.adapter = Some(adapter.to_string());
        }
        Ok(Workspace { places, project, catalog: Catalog::default(), tags: Vec::new() })
    }
}

/// A workspace with the engine that decides in it.
pub struct Session {
    pub places: Places,
    pub project: Project,
    pub catalog: Catalog,
    /// The tags the catalog was narrowed to (`--tag`): a plan file saved from it carries them.
    pub tags: Vec<String>,
    pub adapter: Box<dyn Adapter>,
    pub adapter_name: String,
    pub gate: Option<Gate>,
    pub plan: String,
    pub cache: AnswerCache,
    /// What the person said yes to, per playbook (the trust file's record).
    /// Behind a lock: a yes given while the session is open counts at once, as it does for the next
    /// command.
    pub reviews: std::sync::Mutex<std::collections::BTreeMap<String, String>>,
    /// What this session's results yielded, recalled for a later ask of their kind (`choices.recent`).
    recalled: std::sync::Mutex<evoke_core::recall::Recalled>,
}

/// The global options every command may be given.
pub struct Options<'a> {
    pub project_dir: Option<&'a Path>,
    pub recording: Option<&'a Path>,
    pub tag: Option<&'a str>,
    /// The places under this directory instead of the environment's (`EVOKE_HOME`): a library caller's.
    pub home: Option<&'a Path>,
}

impl Session {
    pub fn open(options: &Options) -> Result<Session, CommandError> {
        Session::of(Workspace::open(options)?, options.recording)
    }

    /// The workspace with its engine: the recording's when one is named, else the project's choice.
    pub fn of(workspace: Workspace, recording: Option<&Path>) -> Result<Session, CommandError> {
        let Workspace { places, project, catalog, tags } = workspace;
        let (adapter_name, adapter) = choose_adapter(&project, recording, &places.data, &places.cache)?;
        let plan = plan_digest(&catalog);
        if let Some(recorded) = adapter.plan()
            && recorded != plan
        {
            return Err(CommandError::usage(format!(
                "the recording was made for another set of reflexes (plan {recorded}; this project's is {plan})"
            ))
            .with_fix("record the answers again against this project, or remove `plan` from the recording"));
        }
        if let Err(over) = check_limits(&catalog, &adapter.limits()) {
            return Err(CommandError::usage(format!(
                "the question {} has {} {}, over the adapter's limit of {}",
                over.question, over.count, over.what, over.limit
            ))
            .with_fix("install fewer reflexes or options, or choose an adapter with higher limits"));
        }
        // The bars and the adapters' settings come from the home evoke.toml alone: a project names its
        // adapter and nothing more.
        let gate = match (adapter.gate(), project.settings.bars.get(&adapter_name)) {
            (Some(gate), Some(moves)) => Some(moves.apply(gate).map_err(|e| {
                CommandError::usage(format!("[bars.{adapter_name}] in {}: {e}", project.settings.file.display()))
                    .with_fix("move the bars so that read ≤ write")
            })?),
            (gate, _) => gate,
        };
        let cache = AnswerCache::new(&places.cache);
        // A trust file that cannot be read counts nothing as reviewed: each plan then waits for its yes. A
        // project without playbooks has nothing reviewed, and every decision is spared reading it again.
        let reviews = if project.playbooks.is_empty() {
            Default::default()
        } else {
            evoke_files::trust::reviews(&places, &project.location).unwrap_or_default()
        };
        let reviews = std::sync::Mutex::new(reviews);
        let recalled = Default::default();
        Ok(Session { places, project, catalog, tags, adapter, adapter_name, gate, plan, cache, reviews, recalled })
    }
}

impl Session {
    /// Keeps what the body of `decision` yielded, for an ask later in this session.
    pub fn remember(&self, decision: &evoke_core::decision::Decision, ran: &evoke_bodies::Ran) {
        let Some(reflex) = decision.reflex.as_deref().and_then(|r| self.catalog.get(r)) else { return };
        let data = ran.result.as_ref().ok().and_then(|output| output.data.as_ref());
        self.recalled.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remember(reflex, data);
    }

    /// The decision with what this session's results yielded offered to each pick it asks for.
    pub fn recall(&self, decision: evoke_core::decision::Decision) -> evoke_core::decision::Decision {
        self.recalled.lock().unwrap_or_else(std::sync::PoisonError::into_inner).recall(decision)
    }
}

impl crate::playbook::Reviews for Session {
    fn recorded(&self, playbook: &str) -> Option<String> {
        self.reviews.lock().unwrap_or_else(|e| e.into_inner()).get(playbook).cloned()
    }

    fn content(&self, name: &str) -> String {
        if let Some(playbook) = self.project.playbook(name) {
            return playbook.item.clone();
        }
        let Some(installed) = self.project.installed(name) else { return String::new() };
        // A remote reflex is what its lock pins. A local one is where it is, its manifest and its body's
        // file as they are now: not its whole directory, where a body keeps the state its grants let it
        // write, which would make every run a plan the person has not seen. Its wording, consent and
        // settings are in its item.
        let body = match &installed.locked {
            Some(locked) => locked.h1.clone(),
            None => {
                let file = |name: &str| {
                    let read = evoke_files::bounded::read(&installed.dir.join(name), evoke_files::bounded::MAX_OWNED);
                    read.map(|bytes| evoke_core::h1::hex(&sha2::Sha256::digest(bytes)))
                        .unwrap_or_else(|e| format!("unreadable: {e}"))
                };
                let run = match installed.manifest.as_ref().map(|m| &m.run) {
                    Some(evoke_core::manifest::Run::File(path)) => file(path),
                    _ => String::new(),
                };
                format!("{} {} {run}", installed.dir.display(), file("reflex.toml"))
            }
        };
        let item = self.catalog.get(name).map(|reflex| {
            let settings: Vec<(String, String)> = self
                .project
                .settings(name)
                .iter()
                .map(|(k, s)| match s {
                    evoke_core::project::Setting::Plain(v) => (k.clone(), format!("plain:{v}")),
                    evoke_core::project::Setting::Env(var) => (k.clone(), format!("env:{var}")),
                })
                .collect();
            evoke_core::weave::planfile::item(reflex, &settings)
        });
        format!("{body} {}", item.unwrap_or_default())
    }
}

/// [`Session::open`], then refused unless its engine is the one the lock pins; a recording answers
/// instead of any engine and is not held to the pin.
pub fn open_pinned(options: &Options) -> Result<Session, CommandError> {
    let session = Session::open(options)?;
    if options.recording.is_none() {
        check_locked_adapter(&session)?;
    }
    Ok(session)
}

impl Session {
    /// Says on stderr which installed reflexes and playbooks take no part in decisions, and why: a
    /// sentence meant for one of them is otherwise decided against the rest with no word of it.
    pub fn warn_inactive(&self, ui: &crate::ui::Ui) {
        let reflexes = self.project.installed.iter().map(|i| (&i.name, i.status.as_ref().err()));
        let playbooks = self.project.playbooks.iter().map(|p| (&p.name, p.status.as_ref().err()));
        for (name, inactive) in reflexes.chain(playbooks) {
            if let Some(inactive) = inactive {
                let message = format!("{name} is inactive and takes no part in deciding: {}", inactive.why);
                ui.err(&crate::render::warning(&message, Some(&inactive.fix)));
            }
        }
    }
}

/// Refuses a session whose engine is not the one `evoke.lock` pins: another name, or the same engine at
/// another id (a new model, prompt or calibration). A person decides whether to take the new one, so the
/// refusal needs a person (exit 3), and `evoke update` pins the engine deciding now.
pub fn check_locked_adapter(session: &Session) -> Result<(), CommandError> {
    let Some(locked) = &session.project.lock.adapter else { return Ok(()) };
    let id = session.adapter.id();
    if locked.name == session.adapter_name && locked.id == id {
        return Ok(());
    }
    let lock = session.project.location.root.join(evoke_files::lock::LOCK_FILE);
    Err(CommandError::new(
        crate::exit::Exit::NeedsPerson,
        format!(
            "{}: [adapter] pins {} ({}); the engine here is {} ({}), whose answers may differ; nothing was decided",
            lock.display(),
            locked.name,
            locked.id,
            session.adapter_name,
            id
        ),
    )
    .with_fix("take the engine here now and pin it: evoke update; or name the pinned one again in evoke.toml"))
}

/// The adapter: a recording named on the command line, else the project's choice among the built-ins,
/// then the component adapters the user installed in the data place. A project names one, never brings
/// one.
fn choose_adapter(
    project: &Project,
    recording: Option<&Path>,
    data: &Path,
    cache: &Path,
) -> Result<(String, Box<dyn Adapter>), CommandError> {
    if let Some(path) = recording {
        let text = evoke_files::bounded::read_to_string(path, evoke_files::bounded::MAX_RECORDING)
            .map_err(|e| CommandError::usage(format!("cannot read the recording {}: {e}", path.display())))?;
        // Only the declaration is read now; each sentence's table when it is asked for.
        let reading = read_recording_lazy(&path.display().to_string(), &text);
        return match reading.value {
            Some(recording) => Ok(("replay".into(), Box::new(Replay::new(recording)))),
            None => Err(CommandError::usage(format!("the recording {} is refused", path.display()))
                .with_diagnostics(reading.diagnostics)),
        };
    }
    let name = project.file.adapter.clone().unwrap_or_else(|| "local".into());
    let home = project.settings.file.display();
    match evoke_adapters::builtin::open(&name, project.settings.adapters.get(&name), data, cache) {
        Ok(adapter) => Ok((name, adapter)),
        Err(evoke_adapters::builtin::OpenError::Refused { message }) => Err(CommandError::usage(format!("the adapter `{name}` is refused: {message}")).with_fix(
            if evoke_adapters::builtin::NAMES.contains(&name.as_str()) {
                format!("fix [adapters.{name}] in your home evoke.toml at {home}")
            } else {
                format!(
                    "fix [adapters.{name}] in your home evoke.toml at {home}, or add the adapter again: {}",
                    crate::render::command(&["evoke", "adapter", "add", &name, "FILE", "--allow-host", "HOST"])
                )
            },
        )),
        Err(evoke_adapters::builtin::OpenError::Unknown { .. }) => Err(CommandError::usage(format!(
            "the adapter `{name}` is neither built into evoke nor installed (in {})",
            evoke_adapters::component::installed::root(data).display()
        ))
        .with_fix(format!(
            "install it: {}; or name a built-in (\"local\", \"embed\", \"openai\") or an installed one (evoke adapter list)",
            crate::render::command(&["evoke", "adapter", "add", &name, "FILE", "--allow-host", "HOST"])
        ))),
    }
}

impl Session {
    /// One decision's request, its 30 seconds counted from `started`.
    pub fn request(&self, started: std::time::Instant) -> crate::drive::Request<'_> {
        self.request_through(self.adapter.as_ref(), Some(&self.cache), started)
    }

    /// [`Session::request`] answered by `adapter` instead of the session's own, with `cache` or none.
    pub fn request_through<'a>(
        &'a self,
        adapter: &'a dyn Adapter,
        cache: Option<&'a AnswerCache>,
        started: std::time::Instant,
    ) -> crate::drive::Request<'a> {
        crate::drive::Request {
            catalog: &self.catalog,
            adapter,
            gate: self.gate,
            plan: &self.plan,
            cache,
            deadline: started + crate::drive::DEADLINE,
            reviews: Some(self),
        }
    }
}

/// The runtime a command drives adapters and bodies on: one thread, timers and signals. A runtime that
/// cannot start is said, and the command fails.
pub fn runtime() -> Result<tokio::runtime::Runtime, CommandError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CommandError::failed(format!("cannot start: {e}")))
}
