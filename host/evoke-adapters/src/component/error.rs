//! Why a component adapter could not be opened: its record, its file, its world, or what it said of itself.
//! Each refusal (`refused: …`) names what the component did; the command that adds it names the fix.

use super::installed::RecordError;
use evoke_components::ComponentError;
use evoke_components::wit_package::WorldRefused;
use std::path::PathBuf;

/// An installed or offered component adapter could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum AdapterOpenError {
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error("`{key}`: an installed component adapter takes no settings (its hosts are chosen at `evoke adapter add`)")]
    Settings { key: String },
    #[error("{} cannot be read: {source}", path.display())]
    Unreadable { path: PathBuf, source: std::io::Error },
    /// The file's hash is not the one recorded when it was added.
    #[error("{} changed since it was added (sha256 {found}, recorded {recorded}); add it again if you mean it", path.display())]
    Changed { path: PathBuf, found: String, recorded: String },
    /// The component host, the compile, or the adapter's store.
    #[error(transparent)]
    Host(#[from] ComponentError),
    #[error("{0}")]
    World(WorldRefused),
    #[error("refused: this component is a reflex's body, not an adapter (this evoke runs {known})")]
    ABody { known: String },
    #[error("refused: this component is not an evoke adapter: it exports no {world}/engine (this evoke runs {known})")]
    NotAnAdapter { world: &'static str, known: String },
    #[error("refused: the component's exports do not match {world}@{version}: {reason:#}")]
    Mismatch { world: &'static str, version: &'static str, reason: wasmtime::Error },
    #[error("the adapter's runtime could not start: {0}")]
    Runtime(std::io::Error),
    #[error("the component did not describe itself within {seconds} seconds")]
    DescribeTimeout { seconds: u64 },
    /// `describe` trapped or ran out: the host's account of the failure.
    #[error("the component's `describe` failed: {failure}")]
    DescribeFailed { failure: String },
    #[error(
        "refused: the component's `describe` gave an id that is empty, over 256 bytes, or holds a control character"
    )]
    BadId,
    #[error("refused: the component's gate gives `{bar}` {value}, which is not a probability")]
    NotAProbability { bar: &'static str, value: f64 },
    #[error("refused: the component's gate puts `read` over `write`")]
    ReadOverWrite,
}

/// An answer given twice over: a question, or a key of one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Twice {
    #[error("{question} with the key \"{key}\" twice")]
    Key { question: String, key: String },
    #[error("{question} twice")]
    Question { question: String },
}
