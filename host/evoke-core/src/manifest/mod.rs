//! `reflex.toml`: the manifest a reflex ships.
//!
//! A manifest is two things: the contract (what the body receives, which no user may change) and the
//! wording (what the classifier reads, which a user may override in an overlay).

mod canonical;
mod placeholders;
pub(crate) mod read;
pub(crate) mod records;

pub use placeholders::{Placeholder, fill, placeholders};
pub use read::{DirListing, read_code_manifest, read_manifest};

use crate::recognize::PickKind;
use std::fmt;

/// What a call does to the world. The order is the order of strictness: `Read < Write < Destructive`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Effect {
    Read,
    Write,
    Destructive,
}

impl Effect {
    pub fn as_str(self) -> &'static str {
        match self {
            Effect::Read => "read",
            Effect::Write => "write",
            Effect::Destructive => "destructive",
        }
    }

    pub fn parse(text: &str) -> Option<Effect> {
        match text {
            "read" => Some(Effect::Read),
            "write" => Some(Effect::Write),
            "destructive" => Some(Effect::Destructive),
            _ => None,
        }
    }
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The body: a file run by a runtime, or a program run directly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Run {
    /// A `.mts`, `.mjs` or `.wasm` path relative to the reflex directory.
    File(String),
    /// A program and its arguments; a whole element `{name}` is a placeholder.
    Argv(Vec<String>),
    /// A function of the program that embeds evoke, handed to the SDK with the manifest.
    Code,
}

/// Where an argument's value comes from: exactly one source each.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// The author's closed list: key and meaning, in file order.
    Options(Vec<(String, String)>),
    /// The user's vocabulary of this name.
    Vocab(String),
    /// A span of the input, read by a recognizer.
    Pick(PickKind),
    /// Present or not.
    Flag,
    /// The whole result of an earlier step of a plan whose reflex `returns` this name: never read from the
    /// words, never asked, and so optional by nature.
    Takes(String),
}

impl Source {
    pub fn kind(&self) -> &'static str {
        match self {
            Source::Options(_) => "options",
            Source::Vocab(_) => "vocab",
            Source::Pick(_) => "pick",
            Source::Flag => "flag",
            Source::Takes(_) => "takes",
        }
    }

    pub fn option_keys(&self) -> impl Iterator<Item = &str> {
        let options: &[(String, String)] = match self {
            Source::Options(options) => options,
            _ => &[],
        };
        options.iter().map(|(key, _)| key.as_str())
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Arg {
    pub name: String,
    pub ask: String,
    pub source: Source,
    pub optional: bool,
    /// `[min, max]`, in seconds for a duration.
    pub range: Option<(f64, f64)>,
    /// Former names, flat and cumulative.
    pub was: Vec<String>,
}

impl Arg {
    /// A required argument must be stated or asked for; a flag, and a whole result taken from an earlier
    /// step, are optional by nature.
    pub fn is_required(&self) -> bool {
        !self.optional && !matches!(self.source, Source::Flag | Source::Takes(_))
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigKey {
    pub name: String,
    pub about: String,
    pub secret: bool,
}

/// One field of a body's result, declared under `[yields.<field>]`: what a later step of a plan may take.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Yield {
    pub field: String,
    /// The pick kind its value is, which decides the arguments it may fill.
    pub kind: crate::recognize::PickKind,
    pub about: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
}

/// What a component body may reach: directories and `host:port` pairs, `{key}` reading a config value.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Grants {
    pub files: Vec<(String, Access)>,
    pub net: Vec<String>,
}

/// A value a record asserts: the text as written (an option key, a word, a pick's words), or a flag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asserted {
    Text(String),
    Flag(bool),
}

/// An utterance and what it asserts; `None` is `false`: the input is not this reflex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub utterance: String,
    pub asserts: Option<Vec<(String, Asserted)>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Manifest {
    pub description: String,
    pub not_for: Vec<String>,
    pub tags: Vec<String>,
    pub effect: Effect,
    pub confirm: String,
    pub run: Run,
    pub config: Vec<ConfigKey>,
    pub grants: Grants,
    pub args: Vec<Arg>,
    pub examples: Vec<Record>,
    pub tests: Vec<Record>,
    /// The fields the body's result holds, in the order written.
    pub yields: Vec<Yield>,
    /// The name its whole result goes by: a later step's argument that `takes` this name may take it.
    pub returns: Option<String>,
}

impl Manifest {
    /// The first line of the description: what listings show.
    pub fn summary(&self) -> &str {
        self.description.lines().next().unwrap_or("").trim()
    }

    pub fn arg(&self, name: &str) -> Option<&Arg> {
        self.args.iter().find(|a| a.name == name)
    }

    /// The live name for `name`, following `was` renames.
    pub fn live_name<'a>(&'a self, name: &'a str) -> Option<&'a str> {
        self.args.iter().find(|a| a.name == name || a.was.iter().any(|w| w == name)).map(|a| a.name.as_str())
    }
}
