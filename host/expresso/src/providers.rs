//! `--provider`: who answers a model leaf the journal lacks.

use crate::exit::Exit;
use expresso_runtime::Provider;
use expresso_runtime::openai::OpenAi;
use expresso_runtime::provider::NoProvider;
use expresso_runtime::recording::Recording;

/// The largest recording read, in bytes.
const MAX_RECORDING_BYTES: u64 = 64 << 20;

/// The provider when `--provider` is not given: `auto` when evoke's engines are built in, else `none`.
pub const DEFAULT: &str = if cfg!(feature = "evoke") { "auto" } else { "none" };

pub fn open(spec: Option<&str>) -> Result<Box<dyn Provider>, Exit> {
    let spec = spec.unwrap_or(DEFAULT);
    let refuse = |message: String| {
        eprintln!("error: --provider {spec}: {message}");
        eprintln!("  = fix: use `none`, `recording:FILE`, `openai`, `evoke` or `auto`");
        Exit::Usage
    };
    if spec == "none" {
        return Ok(Box::new(NoProvider));
    }
    if let Some(path) = spec.strip_prefix("recording:") {
        let text = crate::load::text(std::path::Path::new(path), MAX_RECORDING_BYTES, "recording")?;
        return Recording::from_json(&text)
            .map(|r| Box::new(r) as Box<dyn Provider>)
            .map_err(|e| refuse(e.to_string()));
    }
    if spec == "openai" {
        return OpenAi::from_env().map(|p| Box::new(p) as Box<dyn Provider>).map_err(|e| refuse(e.to_string()));
    }
    if spec == "evoke" || spec == "auto" {
        return evoke(spec == "auto").map_err(|e| refuse(e.to_string()));
    }
    Err(refuse("not a provider".into()))
}

/// evoke's `local` engine; with `auto`, OpenAI for open leaves when its environment is set.
/// This expresso was built without evoke's engines, so `evoke` and `auto` name no provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "evoke", allow(dead_code))]
pub struct WithoutEvoke;

impl std::fmt::Display for WithoutEvoke {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("this expresso was built without evoke's engines; build it with its default features")
    }
}

#[cfg(feature = "evoke")]
fn evoke(auto: bool) -> Result<Box<dyn Provider>, WithoutEvoke> {
    let local = expresso_evoke::Evoke::local();
    if !auto {
        return Ok(Box::new(local));
    }
    let open = OpenAi::from_env().ok().map(|p| Box::new(p) as Box<dyn Provider>);
    Ok(Box::new(expresso_evoke::Auto::new(local, open)))
}

#[cfg(not(feature = "evoke"))]
fn evoke(_auto: bool) -> Result<Box<dyn Provider>, WithoutEvoke> {
    Err(WithoutEvoke)
}
