//! The one error a command ends with: what went wrong, the exit it means, the fix a person can apply, and
//! the diagnostics behind it. Every command returns `Result<Exit, CommandError>`; `cli::main` prints an
//! error once, through `render::error`, and exits with its code. Library errors become one here, each by
//! its own `From`, so the exit an error means is decided in one place.

use crate::exit::Exit;
use evoke_adapters::component::installed::{BadName, NotAHost, RecordError};
use evoke_core::diag::Diagnostic;
use evoke_files::install::{AddError, UpdateError};
use evoke_files::places::NoPlaces;
use evoke_files::project::{Inactive, LoadError, NotAProject};
use evoke_files::release_tags::TagError;
use evoke_files::trust::{TrustError, Untrusted};

/// What a command says when it ends in error.
#[derive(Debug, Clone)]
pub struct CommandError {
    pub exit: Exit,
    /// One line, in evoke's words; outside text in it is escaped when it is shown.
    pub message: String,
    /// The command or edit that fixes it, shown as `= fix:` under the message.
    pub fix: Option<String>,
    /// The refusals behind it, each shown before the message in rustc's shape.
    pub diagnostics: Vec<Diagnostic>,
}

/// What every command returns.
pub type CommandResult = Result<Exit, CommandError>;

impl CommandError {
    pub fn new(exit: Exit, message: impl Into<String>) -> CommandError {
        CommandError { exit, message: message.into(), fix: None, diagnostics: Vec::new() }
    }

    /// The command line, or a file it names, cannot be read (exit 2).
    pub fn usage(message: impl Into<String>) -> CommandError {
        CommandError::new(Exit::Usage, message)
    }

    /// evoke itself failed (exit 1).
    pub fn failed(message: impl Into<String>) -> CommandError {
        CommandError::new(Exit::Failed, message)
    }

    /// Failed closed before anything ran (exit 6).
    pub fn refused(message: impl Into<String>) -> CommandError {
        CommandError::new(Exit::Refused, message)
    }

    pub fn with_fix(mut self, fix: impl Into<String>) -> CommandError {
        self.fix = Some(fix.into());
        self
    }

    pub fn with_diagnostics(mut self, diagnostics: Vec<Diagnostic>) -> CommandError {
        self.diagnostics = diagnostics;
        self
    }
}

/// The fix for a project that is not trusted as it is now.
pub const TRUST_FIX: &str = "evoke trust";

/// An untrusted project needs a person to trust it (exit 3).
impl From<Untrusted> for CommandError {
    fn from(untrusted: Untrusted) -> CommandError {
        CommandError::new(Exit::NeedsPerson, untrusted.message()).with_fix(TRUST_FIX)
    }
}

/// A project whose files do not read (exit 2).
impl From<LoadError> for CommandError {
    fn from(e: LoadError) -> CommandError {
        CommandError::usage(e.message).with_diagnostics(e.diagnostics)
    }
}

/// A reflex that could not be installed (exit 2).
impl From<AddError> for CommandError {
    fn from(e: AddError) -> CommandError {
        let error = CommandError::usage(e.message).with_diagnostics(e.diagnostics);
        match e.fix {
            Some(fix) => error.with_fix(fix),
            None => error,
        }
    }
}

/// A body that could not be prepared: refused (exit 6) or failed (exit 1).
impl From<crate::body::NotPrepared> for CommandError {
    fn from(not: crate::body::NotPrepared) -> CommandError {
        CommandError::new(not.exit(), not.message())
    }
}

/// The fix for a project directory that `-C` names but that holds no `evoke.toml`.
pub const PROJECT_DIR_FIX: &str = "name a directory holding evoke.toml: evoke -C DIR …";

/// No place to keep evoke's files: evoke cannot start (exit 1); the message names `EVOKE_HOME`.
impl From<NoPlaces> for CommandError {
    fn from(e: NoPlaces) -> CommandError {
        CommandError::failed(e.to_string())
    }
}

/// `-C` names a directory that is not a project: the command line's fault (exit 2).
impl From<NotAProject> for CommandError {
    fn from(e: NotAProject) -> CommandError {
        CommandError::usage(e.to_string()).with_fix(PROJECT_DIR_FIX)
    }
}

/// The owned files or the trust record could not be read or written: evoke failed (exit 1).
impl From<TrustError> for CommandError {
    fn from(e: TrustError) -> CommandError {
        CommandError::failed(e.to_string())
    }
}

/// `evoke update` stopped before its report: evoke failed (exit 1), the project's refusals shown.
impl From<UpdateError> for CommandError {
    fn from(e: UpdateError) -> CommandError {
        match e {
            UpdateError::Load(load) => CommandError::failed(load.message).with_diagnostics(load.diagnostics),
            UpdateError::Write(write) => CommandError::from(write),
        }
    }
}

/// The working copy could not be held against its newest tag: evoke failed (exit 1).
impl From<TagError> for CommandError {
    fn from(e: TagError) -> CommandError {
        CommandError::failed(e.to_string())
    }
}

/// An adapter name that cannot be installed under (exit 2).
impl From<BadName> for CommandError {
    fn from(e: BadName) -> CommandError {
        CommandError::usage(e.to_string()).with_fix("choose another name")
    }
}

/// A host given to `--allow-host` that is not a `host:port` pair (exit 2).
impl From<NotAHost> for CommandError {
    fn from(e: NotAHost) -> CommandError {
        CommandError::usage(e.to_string()).with_fix("--allow-host api.example.com, or --allow-host 127.0.0.1:8080")
    }
}

/// The installed adapters' records could not be read: evoke failed (exit 1).
impl From<RecordError> for CommandError {
    fn from(e: RecordError) -> CommandError {
        CommandError::failed(e.to_string())
    }
}

/// A conformance case whose input is of the wrong shape (exit 2).
impl From<evoke_core::conform::CaseError> for CommandError {
    fn from(e: evoke_core::conform::CaseError) -> CommandError {
        CommandError::usage(e.to_string())
    }
}

impl CommandError {
    /// A reflex installed but inactive, named by `name`: why, and the fix (exit 2).
    pub fn inactive(name: &str, inactive: &Inactive) -> CommandError {
        CommandError::usage(format!("{name} is inactive: {}", inactive.why)).with_fix(inactive.fix.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_prints_its_diagnostics_then_its_message_then_its_fix_escaped() {
        let e = CommandError::usage("cannot read \u{1b}[2Jfile").with_fix("name \u{202E}another");
        assert_eq!(e.exit, Exit::Usage);
        let shown = crate::render::error(&e, false);
        assert_eq!(shown, "error: cannot read \\u{1B}[2Jfile\n  = fix: name \\u{202E}another\n");
    }

    #[test]
    fn a_library_error_takes_the_exit_and_the_fix_of_its_kind() {
        let not_a_project = CommandError::from(NotAProject { dir: "elsewhere".into() });
        assert_eq!(not_a_project.exit, Exit::Usage);
        assert_eq!(not_a_project.message, "elsewhere holds no evoke.toml");
        assert_eq!(not_a_project.fix.as_deref(), Some(PROJECT_DIR_FIX));
        let reserved = CommandError::from(BadName::Reserved { name: "local".into() });
        assert_eq!((reserved.exit, reserved.fix.as_deref()), (Exit::Usage, Some("choose another name")));
        let unread = CommandError::from(TrustError::TooDeep { dir: "overlays".into() });
        assert_eq!((unread.exit, unread.message.as_str()), (Exit::Failed, "overlays is nested too deep"));
    }

    #[test]
    fn a_body_refused_before_it_ran_keeps_its_exit() {
        let refused = CommandError::from(crate::body::NotPrepared::Refused("a value starts with -".into()));
        assert_eq!((refused.exit, refused.message.as_str()), (Exit::Refused, "a value starts with -"));
        let failed = CommandError::from(crate::body::NotPrepared::Failed("no token".into()));
        assert_eq!(failed.exit, Exit::Failed);
    }
}
