//! The conformance runner: the vectors and transcripts of this repository, run against any
//! implementation's command line.
//!
//! The protocol an implementation exposes:
//! - **vectors**: `IMPL conform FUNCTION` reads a case's `input` as JSON on stdin and prints the function's
//!   output as one JSON line, exit 0 (`vectors/README.md` defines each function);
//! - **transcripts**: the implementation's CLI itself, run as each transcript's `$` lines say, with
//!   `EVOKE_HOME` set to a fresh directory per transcript, the transcript's folder as the working directory,
//!   `NO_COLOR=1` and no terminal (`transcripts/README.md` describes the format).
//!
//! Nothing is skipped: a folder of a function that is missing or empty, a case that does not read, a case
//! whose command does not start, and a case that runs past its time are each a failure.

pub mod transcript;
pub mod vectors;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// How long one vector case may take: a core function is pure and answers in milliseconds, so 10 seconds
/// is room for a slow, loaded machine and still ends a hung implementation quickly.
pub const CASE_TIMEOUT: Duration = Duration::from_secs(10);

/// How long one transcript step may take: a body may run to its 30-second deadline, and the step then
/// needs time to end it and print; 45 seconds covers both.
pub const STEP_TIMEOUT: Duration = Duration::from_secs(45);

/// The folders of `vectors/` and `transcripts/` that belong to the Expresso suite, which its own command
/// runs (`expresso conform`): evoke's runner leaves a folder whose name starts with this, and fails on any
/// other folder it cannot run.
pub const EXPRESSO_PREFIX: &str = "expresso-";

/// Whether the folder named `name` of `vectors/` or `transcripts/` is evoke's to run.
pub fn is_evokes(name: &str) -> bool {
    !name.starts_with(EXPRESSO_PREFIX)
}

/// How many cases passed and how each failure differed.
#[derive(Debug, Default)]
pub struct Report {
    pub passed: usize,
    pub failures: Vec<String>,
}

impl Report {
    pub fn merge(&mut self, other: Report) {
        self.passed += other.passed;
        self.failures.extend(other.failures);
    }

    /// The closing line every runner prints: `N passed, N failed`.
    pub fn summary(&self) -> String {
        format!("{} passed, {} failed", self.passed, self.failures.len())
    }
}

/// The repository the suites come from: `start` or the nearest folder above it holding both `vectors/`
/// and `transcripts/`.
pub fn find_root(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|dir| dir.join("vectors").is_dir() && dir.join("transcripts").is_dir())
        .map(Path::to_path_buf)
}

/// What a finished command printed.
pub struct Finished {
    pub status: ExitStatus,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// Why a command under test did not finish: it did not start, could not be waited on, or ran too long.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("cannot start {program}: {source}")]
    Start { program: String, source: std::io::Error },
    #[error("{0}")]
    Wait(std::io::Error),
    #[error("timed out after {seconds} s")]
    TimedOut { seconds: u64 },
}

/// Runs `command` with `input` on its stdin (`None`: no stdin at all, as `/dev/null`), collecting both
/// streams, and kills it when it runs past `timeout`: the error then reads `timed out after N s`.
pub fn run_for(mut command: Command, input: Option<&[u8]>, timeout: Duration) -> Result<Finished, RunError> {
    let program = command.get_program().to_string_lossy().to_string();
    let mut child = command
        .stdin(if input.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|source| RunError::Start { program, source })?;
    // Each stream on its own thread, so that a child filling one pipe never waits on the runner.
    if let (Some(mut stdin), Some(input)) = (child.stdin.take(), input) {
        let input = input.to_vec();
        std::thread::spawn(move || {
            // A child that exits without reading its input is not the runner's failure.
            let _ = stdin.write_all(&input);
        });
    }
    let drain = |stream: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut stream) = stream {
                let _ = stream.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(child.stdout.take().map(|s| Box::new(s) as Box<dyn Read + Send>));
    let stderr = drain(child.stderr.take().map(|s| Box::new(s) as Box<dyn Read + Send>));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(RunError::Wait)? {
            break status;
        }
        if started.elapsed() >= timeout {
            let _ = child.kill();
            let _ = child.wait();
            // The stream threads are left to end when the last holder of the pipes does.
            return Err(RunError::TimedOut { seconds: timeout.as_secs() });
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let stdout = stdout.join().unwrap_or_default();
    let stderr = stderr.join().unwrap_or_default();
    Ok(Finished { status, stdout, stderr })
}
