//! `evoke adapter add|list|remove`: component adapters, installed by the user into the data place only
//! (`<data>/adapters/NAME/`), never from a project. A project then names one with `adapter = "NAME"`.

use crate::context::Context;
use crate::error::{CommandError, CommandResult};
use crate::exit::Exit;
use crate::render;
use crate::ui::Ui;
use clap::Subcommand;
use evoke_adapters::component::ComponentAdapter;
use evoke_adapters::component::installed::{self, Installed};
use evoke_core::adapter::Adapter;
use evoke_files::places::Places;
use std::path::{Path, PathBuf};

#[derive(Subcommand)]
pub enum Action {
    /// Install a component of the evoke:adapter world under NAME, with the hosts it may reach by HTTP.
    Add {
        /// The name a project's evoke.toml gives it: adapter = "NAME".
        name: String,
        /// The component (.wasm).
        file: PathBuf,
        /// A host its wasi:http requests may go to: a name or an address, with :PORT unless it is 443.
        /// Repeat for several; with none, it reaches nothing.
        #[arg(long = "allow-host", value_name = "HOST")]
        allow_host: Vec<String>,
    },
    /// Every installed component adapter: its name, its id and the hosts it may reach.
    List,
    /// Uninstall the component adapter NAME.
    Remove { name: String },
}

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

pub fn run(context: &Context, args: Args) -> CommandResult {
    let ui = &context.ui;
    let places = Places::from_env()?;
    match args.action {
        Action::Add { name, file, allow_host } => add(ui, &places, &name, &file, &allow_host),
        Action::List => list(ui, &places, context.json),
        Action::Remove { name } => remove(ui, &places, &name),
    }
}

fn usage(message: impl ToString, fix: &str) -> CommandError {
    CommandError::usage(message.to_string()).with_fix(fix)
}

fn add(ui: &Ui, places: &Places, name: &str, file: &Path, hosts: &[String]) -> CommandResult {
    installed::check_name(name)?;
    let mut allowed = Vec::new();
    for host in hosts {
        let pair = installed::host_pair(host)?;
        if !allowed.contains(&pair) {
            allowed.push(pair);
        }
    }
    let bytes = evoke_files::bounded::read(file, evoke_files::limits::MAX_COMPONENT)
        .map_err(|e| usage(format!("{} cannot be read: {e}", file.display()), "name a component file (.wasm)"))?;
    // Load it as a decision would, before anything is written: a file that is not an adapter, or whose
    // `describe` fails, is refused, and the compile is cached for the first decision.
    let adapter = ComponentAdapter::from_bytes(name, &bytes, &allowed, &places.cache).map_err(|e| {
        usage(
            format!("{} is refused: {e}", file.display()),
            "build a component of the evoke:adapter@1.0.0 world (docs/adapters.md)",
        )
    })?;
    let before = installed::read(&places.data, name).ok().flatten();
    let record = Installed {
        name: name.to_string(),
        dir: installed::dir(&places.data, name),
        sha256: installed::sha256(&bytes),
        allow_hosts: allowed,
        id: adapter.description().id.clone(),
    };
    let written = evoke_files::atomic::write(&record.wasm(), &bytes)
        .and_then(|()| evoke_files::atomic::write(&record.dir.join(installed::RECORD), record.record().as_bytes()));
    written.map_err(|e| CommandError::failed(format!("{} cannot be written: {e}", record.dir.display())))?;
    let replaced = before.is_some();
    let could_reach_before = before.filter(|b| b.allow_hosts != record.allow_hosts).map(|b| b.allow_hosts);
    let added = render::adapter_added(&record, adapter.id(), adapter.gate(), replaced, could_reach_before.as_deref());
    ui.out(&added);
    Ok(Exit::Done)
}

fn list(ui: &Ui, places: &Places, json: bool) -> CommandResult {
    let found = installed::list(&places.data)?;
    if json {
        let installed: Vec<serde_json::Value> = found
            .iter()
            .map(|i| {
                serde_json::json!({
                    "name": i.name, "id": i.id, "sha256": i.sha256, "allow_hosts": i.allow_hosts,
                    "file": i.wasm().display().to_string(),
                })
            })
            .collect();
        let line = serde_json::json!({ "builtin": evoke_adapters::builtin::NAMES, "installed": installed });
        ui.json_line(&crate::line::to_line(&line));
        return Ok(Exit::Done);
    }
    ui.out(&render::adapter_list(&found, &evoke_adapters::builtin::NAMES));
    Ok(Exit::Done)
}

fn remove(ui: &Ui, places: &Places, name: &str) -> CommandResult {
    if installed::RESERVED.contains(&name) {
        return Err(usage(format!("`{name}` is built into evoke and cannot be removed"), "evoke adapter list"));
    }
    let dir = match installed::read(&places.data, name) {
        Ok(Some(found)) => std::fs::remove_dir_all(&found.dir)
            .map_err(|e| CommandError::failed(format!("{} cannot be removed: {e}", found.dir.display()))),
        Ok(None) => Err(usage(format!("no adapter is installed as `{name}`"), "evoke adapter list")),
        // A record that does not read is still the user's to remove.
        Err(e) => {
            std::fs::remove_dir_all(installed::dir(&places.data, name)).map_err(|_| CommandError::failed(e.to_string()))
        }
    };
    dir?;
    ui.out(&render::adapter_removed(name));
    Ok(Exit::Done)
}
