//! What every command is given: its `Ui`, the global options of the command line, and the ways to open
//! what a command works in from them.

use crate::error::CommandError;
use crate::session::{self, Session, Workspace};
use crate::ui::Ui;
use evoke_files::places::Places;
use evoke_files::project::Location;
use std::path::{Path, PathBuf};

pub struct Context {
    /// The streams, colour and person every command writes to and acts through.
    pub ui: Ui<'static>,
    /// `-C DIR`: the project there instead of the one found from the working directory.
    pub project: Option<PathBuf>,
    /// `--json`: each decision's JSON line instead of its reading.
    pub json: bool,
    /// `--recording FILE`: answers from a recording instead of an engine.
    pub recording: Option<PathBuf>,
    /// `--tag TAG`: only reflexes with this tag take part.
    pub tag: Option<String>,
}

impl Context {
    pub fn project_dir(&self) -> Option<&Path> {
        self.project.as_deref()
    }

    /// The global options that shape what a command decides in (`-C`, `--recording`, `--tag`), as words to
    /// give again in a command evoke prints: paths made absolute, so it runs from anywhere as printed.
    pub fn repeated(&self) -> Vec<String> {
        let absolute = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf()).display().to_string();
        let mut words = Vec::new();
        if let Some(dir) = &self.project {
            words.extend(["-C".to_string(), absolute(dir)]);
        }
        if let Some(file) = &self.recording {
            words.extend(["--recording".to_string(), absolute(file)]);
        }
        if let Some(tag) = &self.tag {
            words.extend(["--tag".to_string(), tag.clone()]);
        }
        words
    }

    pub fn options(&self) -> session::Options<'_> {
        session::Options {
            project_dir: self.project.as_deref(),
            recording: self.recording.as_deref(),
            tag: self.tag.as_deref(),
            home: None,
        }
    }

    /// The trusted project, loaded, with the engine that decides in it. The engine must be the one the
    /// lock pins, by name and id, since the id covers everything that could shift its answers; a
    /// recording named on the command line answers instead of any engine and is not held to the pin.
    pub fn session(&self) -> Result<Session, CommandError> {
        session::open_pinned(&self.options())
    }

    /// The trusted project, loaded, with no engine.
    pub fn workspace(&self) -> Result<Workspace, CommandError> {
        Workspace::open(&self.options())
    }

    /// The places and the project, trusted or not.
    pub fn locate(&self) -> Result<(Places, Location), CommandError> {
        session::locate(self.project_dir())
    }

    /// The places and the project, refused unless trusted.
    pub fn locate_trusted(&self) -> Result<(Places, Location), CommandError> {
        session::locate_trusted(self.project_dir())
    }
}
