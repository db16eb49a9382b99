//! The adapters a project may name: the built-ins, each with its settings from the project's
//! `[adapters.NAME]` table, then the component adapters the user installed in the data place
//! ([`crate::component`]). A project never defines an adapter, and `replay` is chosen on the command line
//! only.

use evoke_core::adapter::Adapter;
use std::path::Path;

/// The names built into this evoke.
pub const NAMES: [&str; 3] = ["local", "embed", "openai"];

/// What naming `embed` says in a build without it: the engine is a built-in name all the same, so a
/// project naming it is refused, not sent looking for an installed component of that name.
#[cfg(not(feature = "embed"))]
pub const EMBED_LEFT_OUT: &str =
    "the `embed` adapter is not in this build: evoke-adapters was compiled without its `embed` feature";

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
        #[cfg(feature = "embed")]
        "embed" => Ok(Box::new(crate::embed::Embed::from_table(settings, cache).map_err(refused)?)),
        #[cfg(not(feature = "embed"))]
        "embed" => Err(refused(EMBED_LEFT_OUT.to_string())),
        "openai" => Ok(Box::new(crate::openai::OpenAi::from_table(settings).map_err(|e| refused(e.to_string()))?)),

        other => match crate::component::open(other, settings, data, cache) {
            Ok(Some(adapter)) => Ok(Box::new(adapter)),
            Ok(None) => Err(OpenError::Unknown { name: other.to_string() }),
            Err(e) => Err(refused(e.to_string())),
        },
    }
}

#[cfg(all(test, not(feature = "embed")))]
mod tests {
    use super::*;

    #[test]
    fn embed_left_out_of_the_build_is_refused_naming_the_feature() {
        let place = std::env::temp_dir();
        let refused = open("embed", None, &place, &place).err().expect("embed is refused");
        assert_eq!(refused, OpenError::Refused { message: EMBED_LEFT_OUT.to_string() });
        assert!(EMBED_LEFT_OUT.contains("`embed` feature"));
    }
}
