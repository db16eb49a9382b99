//! Argv bodies: the program run directly, never through a shell, each placeholder a
//! whole element. Its stdout is the result's text; a non-zero exit is failure, with the last lines of its
//! stderr as the error. Each stream is read up to 1 MiB; past that the body is stopped and the call fails.

use crate::bounded::{self, Flood, read_bounded};
use crate::call::{Call, Contained, Failure, Output, Ran};
use crate::process::{Ending, scrub, wait_bounded};
use std::future::Future;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;
use tokio::io::AsyncRead;

/// How many of stderr's last lines a failure carries.
const ERROR_LINES: usize = 3;

/// The most of those lines a failure carries, in bytes.
const ERROR_BYTES: usize = 4096;

/// Why an argv body was not started: a value that would read as an option, or a program not found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArgvError {
    #[error(
        "the value \"{value}\" of `{name}` starts with `-`, so the program could read it as an option; nothing ran"
    )]
    OptionLike { name: String, value: String },
    #[error("the program \"{name}\" is a relative path; write a name on PATH or an absolute path")]
    RelativeProgram { name: String },
    #[error("the program \"{name}\" is not on PATH")]
    NotOnPath { name: String },
}

pub fn contained() -> Contained {
    Contained::None { why: "an argv runs with your rights; evoke scrubs its environment and nothing more".into() }
}

/// The argv with every placeholder filled: `values` gives each argument's element, `None` for an
/// unstated optional argument, whose element is dropped. A value that would start with `-` is refused
/// before anything runs, so it can never become an option of the program.
pub fn fill(argv: &[String], values: impl Fn(&str) -> Option<String>) -> Result<Vec<String>, ArgvError> {
    let mut filled = Vec::with_capacity(argv.len());
    for (i, element) in argv.iter().enumerate() {
        let name = element.strip_prefix('{').and_then(|e| e.strip_suffix('}'));
        match (i, name) {
            (0, _) | (_, None) => filled.push(element.clone()),
            (_, Some(name)) => match values(name) {
                Some(value) if value.starts_with('-') => {
                    return Err(ArgvError::OptionLike { name: name.to_string(), value });
                }
                Some(value) => filled.push(value),
                None => {}
            },
        }
    }
    Ok(filled)
}

/// The program: a name on `PATH`, or an absolute path; never relative to wherever evoke runs.
pub fn program(name: &str) -> Result<PathBuf, ArgvError> {
    let path = PathBuf::from(name);
    if path.is_absolute() {
        return Ok(path);
    }
    if name.contains('/') {
        return Err(ArgvError::RelativeProgram { name: name.to_string() });
    }
    which::which(name).map_err(|_| ArgvError::NotOnPath { name: name.to_string() })
}

pub async fn run(call: &Call, argv: &[String], cancel: impl Future<Output = ()>) -> Ran {
    let failed = |message: String| Ran {
        result: Err(Failure { message, frames: Vec::new() }),
        contained: contained(),
        cancelled: false,
    };
    let Some((first, rest)) = argv.split_first() else {
        return failed("the argv is empty".into());
    };
    let program = match program(first) {
        Ok(program) => program,
        Err(e) => return failed(e.to_string()),
    };
    let mut command = tokio::process::Command::new(program);
    command.args(rest).current_dir(&call.dir);
    scrub(&mut command);
    command.process_group(0).kill_on_drop(true);
    command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => return failed(format!("cannot start {first}: {e}")),
    };
    // Each stream is read up to the limit on a task of its own; past it the run is stopped like a cancel.
    let flood = Arc::new(Flood::default());
    let reader = |stream: Option<Box<dyn AsyncRead + Unpin + Send>>, name: &'static str| {
        let flood = flood.clone();
        tokio::spawn(async move {
            match stream {
                Some(stream) => read_bounded(stream, name, &flood).await,
                None => Vec::new(),
            }
        })
    };
    let read_out = reader(child.stdout.take().map(|s| Box::new(s) as _), "stdout");
    let read_err = reader(child.stderr.take().map(|s| Box::new(s) as _), "stderr");
    let stop = async {
        tokio::select! {
            () = cancel => {}
            () = flood.flooded() => {}
        }
    };
    let ending = wait_bounded(&mut child, call.deadline, stop).await;
    let grace = std::time::Duration::from_millis(200);
    let out = tokio::time::timeout(grace, read_out).await.ok().and_then(Result::ok).unwrap_or_default();
    let err = tokio::time::timeout(grace, read_err).await.ok().and_then(Result::ok).unwrap_or_default();
    // A flood fails the call whatever the ending: a body may write past the limit and exit before the
    // reader has caught up with it.
    if let Some(stream) = flood.stream() {
        return failed(Flood::message(stream));
    }
    match ending {
        Ending::Deadline => failed("the body passed the 30-second deadline and was stopped".into()),
        Ending::Cancelled => Ran {
            result: Err(Failure { message: "cancelled".into(), frames: Vec::new() }),
            contained: contained(),
            cancelled: true,
        },
        Ending::Exited(status) if status.success() => {
            let text = String::from_utf8_lossy(&out).trim_end_matches('\n').to_string();
            Ran { result: Ok(Output { text, data: None }), contained: contained(), cancelled: false }
        }
        Ending::Exited(status) => {
            let err = String::from_utf8_lossy(&err);
            // Three lines of a megabyte each are no message: the error keeps their last few kilobytes.
            let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
            let tail = lines[lines.len().saturating_sub(ERROR_LINES)..].join("\n");
            let tail = bounded::tail(&tail, ERROR_BYTES);
            let message = if tail.is_empty() { format!("{first} failed ({status})") } else { tail.to_string() };
            failed(message)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{ArgvError, fill};

    #[test]
    fn placeholders_fill_whole_elements_and_drop_unstated_ones() {
        let argv: Vec<String> =
            ["hue", "set", "{room}", "--level", "{level}", "{colour}"].iter().map(|s| s.to_string()).collect();
        let filled = fill(&argv, |name| match name {
            "room" => Some("den".into()),
            "level" => Some("40".into()),
            _ => None,
        })
        .unwrap();
        assert_eq!(filled, ["hue", "set", "den", "--level", "40"]);
        let refused = fill(&argv, |_| Some("-rf".into())).unwrap_err();
        assert!(matches!(&refused, ArgvError::OptionLike { value, .. } if value == "-rf"), "{refused}");
        assert!(refused.to_string().contains("starts with `-`"));
    }
}
