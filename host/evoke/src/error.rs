//! The one error a command ends with: what went wrong, the exit it means, the fix a person can apply, and
//! the diagnostics behind it. Every command returns `Result<Exit, CommandError>`; `cli::main` prints an
//! error once, through `render::error`, and exits with its code. Library errors become one here, each by
//! its own `From`, so the exit an error means is decided in one place.

use crate::exit::Exit;
use evoke_core::diag::Diagnostic;
use evoke_files::install::AddError;
use evoke_files::project::{Inactive, LoadError};
use evoke_files::trust::Untrusted;

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
        let shown = crate::render::error(&e);
        assert_eq!(shown, "error: cannot read \\u{1B}[2Jfile\n  = fix: name \\u{202E}another\n");
    }

    #[test]
    fn a_body_refused_before_it_ran_keeps_its_exit() {
        let refused = CommandError::from(crate::body::NotPrepared::Refused("a value starts with -".into()));
        assert_eq!((refused.exit, refused.message.as_str()), (Exit::Refused, "a value starts with -"));
        let failed = CommandError::from(crate::body::NotPrepared::Failed("no token".into()));
        assert_eq!(failed.exit, Exit::Failed);
    }
}
