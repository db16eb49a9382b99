//! The one error the library ends with: the exit class the command would end with, its message and fix.

use crate::error::CommandError;
use crate::exit::Exit;

/// Why a call of the library did not give what was asked: each refusal and fault in its own variant,
/// each with the exit class the `evoke` command would end with ([`Error::exit`]), its message
/// ([`Error::message`]) and the fix a person can apply ([`Error::fix`]).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Error {
    /// What the command would end with: an untrusted project, an engine other than the pinned one, a
    /// decision that failed closed, a body refused at the edge, a person who said no.
    Command(CommandError),
    /// The sentence reads as a plan of several steps (or picks a playbook), which `decide` does not decide:
    /// [`Evoke::plan`](super::Evoke::plan) plans it, and the command runs it (`evoke SENTENCE`).
    Plan {
        /// The sentence as given.
        input: String,
    },
    /// evoke itself panicked; the panic was caught at the library's edge and nothing more ran.
    Panicked {
        /// What the panic said, when it said it as text.
        message: String,
    },
}

impl Error {
    /// The exit class: what the `evoke` command would exit with for the same end.
    pub fn exit(&self) -> Exit {
        match self {
            Error::Command(e) => e.exit,
            Error::Plan { .. } => Exit::Usage,
            Error::Panicked { .. } => Exit::Failed,
        }
    }

    /// One line, in evoke's words.
    pub fn message(&self) -> String {
        match self {
            Error::Command(e) => e.message.clone(),
            Error::Plan { input } => {
                format!("`{input}` reads as a plan of several steps, which `decide` does not decide")
            }
            Error::Panicked { message } => format!("evoke failed inside: {message}"),
        }
    }

    /// The command or edit that fixes it, when there is one.
    pub fn fix(&self) -> Option<String> {
        match self {
            Error::Command(e) => e.fix.clone(),
            Error::Plan { input } => Some(format!("Evoke::plan, or {}", crate::render::command(&["evoke", input]))),
            Error::Panicked { .. } => None,
        }
    }
}

impl From<CommandError> for Error {
    fn from(e: CommandError) -> Error {
        Error::Command(e)
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message())?;
        if let Some(fix) = self.fix() {
            write!(f, " (fix: {fix})")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

/// Runs `work`, turning a panic inside it into [`Error::Panicked`], so that none crosses into the caller.
pub(crate) fn guarded<T>(work: impl FnOnce() -> Result<T, Error>) -> Result<T, Error> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))
        .unwrap_or_else(|panic| Err(Error::Panicked { message: panic_text(&panic) }))
}

/// What a caught panic said, when it said it as text.
pub(crate) fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_error_keeps_its_exit_message_and_fix() {
        let e = Error::from(CommandError::refused("no").with_fix("say it again"));
        assert_eq!((e.exit(), e.message().as_str(), e.fix().as_deref()), (Exit::Refused, "no", Some("say it again")));
    }

    #[test]
    fn a_panic_is_caught_as_an_error() {
        let e = guarded::<()>(|| panic!("boom")).unwrap_err();
        assert_eq!(e.exit(), Exit::Failed);
        assert!(matches!(&e, Error::Panicked { message } if message == "boom"), "{e:?}");
    }
}
