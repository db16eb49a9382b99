//! The conformance runner: the vectors and transcripts of this repository, run against any
//! implementation's command line.
//!
//! The protocol an implementation exposes:
//! - **vectors**: `IMPL conform FUNCTION` reads a case's `input` as JSON on stdin and prints the function's
//!   output as one JSON line, exit 0 (`vectors/README.md` defines each function);
//! - **transcripts**: the implementation's CLI itself, run as each transcript's `$` lines say, with
//!   `EVOKE_HOME` set to a fresh directory per transcript, the transcript's folder as the working directory,
//!   `NO_COLOR=1` and no terminal.

pub mod transcript;
pub mod vectors;

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
