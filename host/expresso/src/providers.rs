//! `--provider`: who answers a model leaf the journal lacks. An HTTP provider's transient faults (429,
//! 5xx, an endpoint that cannot be reached) are asked again by `serve`'s retry policy, each retry told on
//! stderr; a lasting one, or the last try's, fails the run closed.

use crate::exit::Exit;
use expresso_runtime::Provider;
use expresso_runtime::anthropic::Anthropic;
use expresso_runtime::openai::OpenAi;
use expresso_runtime::provider::NoProvider;
use expresso_runtime::recording::Recording;
use expresso_runtime::retry::{Retrying, TRIES};

/// The largest recording read, in bytes.
const MAX_RECORDING_BYTES: u64 = 64 << 20;

/// The provider when `--provider` is not given: `auto` when evoke's engines are built in, else `none`.
pub const DEFAULT: &str = if cfg!(feature = "evoke") { "auto" } else { "none" };

pub fn open(spec: Option<&str>) -> Result<Box<dyn Provider>, Exit> {
    let spec = spec.unwrap_or(DEFAULT);
    let refuse = |message: String| {
        eprintln!("error: --provider {spec}: {message}");
        eprintln!("  = fix: use `none`, `recording:FILE`, `openai`, `anthropic`, `evoke` or `auto`");
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
        return OpenAi::from_env().map(retrying).map_err(|e| refuse(e.to_string()));
    }
    if spec == "anthropic" {
        return Anthropic::from_env().map(retrying).map_err(|e| refuse(e.to_string()));
    }
    if spec == "evoke" || spec == "auto" {
        return evoke(spec == "auto").map_err(|e| refuse(e.to_string()));
    }
    Err(refuse("not a provider".into()))
}

/// An HTTP provider, its transient faults asked again.
fn retrying<P: Provider + 'static>(provider: P) -> Box<dyn Provider> {
    Box::new(Retrying::new(provider).on_retry(Box::new(|key, fault, tries, pause| {
        eprintln!(
            "retry: `{key}`: {}; asking again in {} ms (try {} of {TRIES})",
            fault.message,
            pause.as_millis(),
            tries + 1
        );
    })))
}

/// The generative provider `auto` gives open leaves: OpenAI's when its environment is set, else
/// Anthropic's when its environment is set, else none.
#[cfg_attr(not(feature = "evoke"), allow(dead_code))]
fn generative() -> Option<Box<dyn Provider>> {
    match OpenAi::from_env() {
        Ok(p) => Some(retrying(p)),
        Err(_) => Anthropic::from_env().ok().map(retrying),
    }
}

/// This expresso was built without evoke's engines, so `evoke` and `auto` name no provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "evoke", allow(dead_code))]
pub struct WithoutEvoke;

impl std::fmt::Display for WithoutEvoke {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("this expresso was built without evoke's engines; build it with its default features")
    }
}

/// evoke's `local` engine; with `auto`, a generative provider for open leaves when one's environment is set.
#[cfg(feature = "evoke")]
fn evoke(auto: bool) -> Result<Box<dyn Provider>, WithoutEvoke> {
    let local = expresso_evoke::Evoke::local();
    if !auto {
        return Ok(Box::new(local));
    }
    Ok(Box::new(expresso_evoke::Auto::new(local, generative())))
}

#[cfg(not(feature = "evoke"))]
fn evoke(_auto: bool) -> Result<Box<dyn Provider>, WithoutEvoke> {
    Err(WithoutEvoke)
}
