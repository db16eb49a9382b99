//! The adapters a project may name: the built-ins, each with its settings from the project's
//! `[adapters.NAME]` table, then the component adapters the user installed in the data place
//! ([`crate::component`]). A project never defines an adapter, and `replay` is chosen on the command line
//! only.

use evoke_core::adapter::Adapter;
use std::path::Path;

/// The names built into this evoke.
pub const NAMES: [&str; 3] = ["local", "embed", "openai"];

/// Why a named adapter could not be opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenError {
    /// No built-in and no installed component has this name.
    Unknown { name: String },
    /// Its settings or its file are refused.
    Refused { message: String },
}

/// The adapter called `name`, set up from `settings` (the project's `[adapters.NAME]`): a built-in, else
/// a component adapter the user installed in `data`, the data place (never a project's directory), its
/// compiled form cached under `cache`.
pub fn open(
    name: &str,
    settings: Option<&toml::Table>,
    data: &Path,
    cache: &Path,
) -> Result<Box<dyn Adapter>, OpenError> {
    let refused = |message: String| OpenError::Refused { message };
    match name {
        "local" => {
            let local = crate::local::Local::from_table(settings).map_err(|e| refused(e.to_string()))?;
            // Its fitted route models are kept between processes, in the cache place.
            local.keep_models_in(cache.join("local"));
            Ok(Box::new(local))
        }
        "embed" => Ok(Box::new(crate::embed::Embed::from_table(settings, cache).map_err(refused)?)),
        "openai" => Ok(Box::new(crate::openai::OpenAi::from_table(settings).map_err(|e| refused(e.to_string()))?)),

        other => match crate::component::open(other, settings, data, cache) {
            Ok(Some(adapter)) => Ok(Box::new(adapter)),
            Ok(None) => Err(OpenError::Unknown { name: other.to_string() }),
            Err(e) => Err(refused(e.to_string())),
        },
    }
}
