//! `evoke config NAME key=value` and `evoke config NAME key --env VAR`: a reflex's settings in
//! `evoke.toml`. A secret is only ever named by the environment variable that holds it; its value is
//! never written to a file.

use crate::context::Context;
use crate::error::{CommandError, CommandResult};
use crate::exit::Exit;
use crate::render;
use evoke_files::places::Places;
use evoke_files::project::{self, PROJECT_FILE};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// The reflex's local name.
    name: String,
    /// key=value, or key with --env.
    setting: String,
    /// Read the setting from this environment variable at each run (the only way to give a secret).
    #[arg(long, value_name = "VAR")]
    env: Option<String>,
}

pub fn run(context: &Context, args: &Args) -> CommandResult {
    let ui = &context.ui;
    let said = set(context.project_dir(), &args.name, &args.setting, args.env.as_deref())?;
    ui.out(&render::line(&said));
    Ok(Exit::Done)
}

/// Every fault of a setting is the command line's, or a file's it names (exit 2).
fn usage(message: impl ToString) -> CommandError {
    CommandError::usage(message.to_string())
}

fn set(project_dir: Option<&Path>, name: &str, setting: &str, env: Option<&str>) -> Result<String, CommandError> {
    let places = Places::from_env()?;
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let location = project::locate(&cwd, project_dir, &places)?;
    let loaded = project::load(location.clone()).map_err(|e| usage(e.message))?;
    let installed = loaded
        .installed(name)
        .ok_or_else(|| usage(format!("no reflex is installed as `{name}` in {}", location.root.display())))?;
    let manifest = match (&installed.manifest, project::read_reflex_dir(&installed.dir)) {
        (Some(manifest), _) => manifest.clone(),
        (None, Ok(manifest)) => manifest,
        (None, Err(inactive)) => return Err(usage(format!("{name}'s manifest does not read: {}", inactive.why))),
    };
    let (key, value) = match (setting.split_once('='), env) {
        (Some((key, value)), None) => (key, Some(value)),
        (None, Some(_)) => (setting, None),
        (Some(_), Some(_)) => return Err(usage("give either key=value or key --env VAR, not both")),
        (None, None) => {
            return Err(usage(format!(
                "give a value: {}, or for a secret: {}",
                render::command(&["evoke", "config", name, &format!("{setting}=VALUE")]),
                render::command(&["evoke", "config", name, setting, "--env", "VAR"])
            )));
        }
    };
    let Some(declared) = manifest.config.iter().find(|c| c.name == key) else {
        let keys: Vec<&str> = manifest.config.iter().map(|c| c.name.as_str()).collect();
        return Err(usage(format!(
            "{name} has no setting `{key}`; its settings are: {}",
            if keys.is_empty() { "none".into() } else { keys.join(", ") }
        )));
    };
    if declared.secret && value.is_some() {
        return Err(usage(format!(
            "`{key}` is a secret, and a secret is never written to a file: export it in a variable, then run: {}",
            render::command(&["evoke", "config", name, key, "--env", "VAR"])
        )));
    }
    if let Some(var) = env {
        let valid = var.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && var.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            return Err(usage(format!("\"{var}\" is not an environment variable's name")));
        }
    }
    if let Some(value) = value
        && !evoke_core::text::is_clean_line(value)
    {
        return Err(usage("the value holds a control or bidi character"));
    }

    let path = location.root.join(PROJECT_FILE);
    let text = match evoke_files::bounded::read_to_string_in(&location.root, &path, evoke_files::bounded::MAX_OWNED) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && location.home => String::new(),
        Err(e) => return Err(usage(format!("cannot read {}: {e}", path.display()))),
    };
    let mut document: toml_edit::DocumentMut = text.parse().map_err(|e| usage(format!("{}: {e}", path.display())))?;
    let config = document.entry("config").or_insert(toml_edit::table());
    let config =
        config.as_table_mut().ok_or_else(|| usage(format!("`config` in {} is not a table", path.display())))?;
    config.set_implicit(true);
    let reflex = config.entry(name).or_insert(toml_edit::table());
    let reflex = reflex
        .as_table_like_mut()
        .ok_or_else(|| usage(format!("`config.{name}` in {} is not a table", path.display())))?;
    let said = match (value, env) {
        (Some(value), _) => {
            reflex.insert(key, toml_edit::value(value));
            format!("{name}.{key} = {value:?} in {}", path.display())
        }
        (None, Some(var)) => {
            let mut inline = toml_edit::InlineTable::new();
            inline.insert("env", var.into());
            reflex.insert(key, toml_edit::value(inline));
            format!("{name}.{key} is read from ${var} at each run ({})", path.display())
        }
        (None, None) => unreachable!("one of the two is given"),
    };
    evoke_files::trust::write_owned(&places, &location, &[(&path, document.to_string().as_bytes())])?;
    Ok(said)
}
