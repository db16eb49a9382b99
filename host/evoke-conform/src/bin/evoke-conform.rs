//! `evoke-conform --evoke PATH [--root DIR] [--only FUNCTION] [--timeout SECONDS] [vectors|transcripts]`:
//! runs a repository's conformance suite against an implementation's command line and prints
//! `N passed, N failed`.

use clap::builder::PossibleValuesParser;
use clap::{Parser, ValueEnum};
use evoke_conform::{CASE_TIMEOUT, Report, STEP_TIMEOUT, find_root, transcript, vectors};
use evoke_core::conform::FUNCTIONS;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum Suite {
    Vectors,
    Transcripts,
}

#[derive(Parser)]
#[command(name = "evoke-conform", about = "Run evoke's conformance vectors and transcripts against an implementation.")]
struct Args {
    /// The implementation's executable.
    #[arg(long, value_name = "PATH")]
    evoke: PathBuf,
    /// The repository holding vectors/ and transcripts/ (default: the current directory or the nearest
    /// folder above it that holds both).
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Run the vectors of one function alone (its folder of vectors/); the transcripts run only if named.
    #[arg(long, value_name = "FUNCTION", value_parser = PossibleValuesParser::new(FUNCTIONS))]
    only: Option<String>,
    /// Seconds one case may take before it fails as timed out (default: 10 for a vector case, 45 for a
    /// transcript step, whose body may run to its 30-second deadline).
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..))]
    timeout: Option<u64>,
    /// Which suites to run (default: both; with --only, the vectors).
    suites: Vec<Suite>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    // The transcripts run in their own folders, so a relative path must be made whole first.
    let evoke = std::fs::canonicalize(&args.evoke).unwrap_or(args.evoke);
    let root = match args.root {
        Some(root) => root,
        None => {
            let here = std::env::current_dir().unwrap_or_default();
            match find_root(&here) {
                Some(root) => root,
                None => {
                    eprintln!(
                        "error: no folder holding vectors/ and transcripts/ at {} or above it\n  = fix: run evoke-conform inside the repository, or name it with --root DIR",
                        here.display()
                    );
                    return ExitCode::from(2);
                }
            }
        }
    };
    let suites = match (args.suites.is_empty(), args.only.is_some()) {
        (true, true) => vec![Suite::Vectors],
        (true, false) => vec![Suite::Vectors, Suite::Transcripts],
        (false, _) => args.suites,
    };
    let timeout = args.timeout.map(Duration::from_secs);
    let mut report = Report::default();
    for suite in suites {
        report.merge(match suite {
            Suite::Vectors => {
                let options = vectors::Options { only: args.only.as_deref(), timeout: timeout.unwrap_or(CASE_TIMEOUT) };
                vectors::run(&evoke, &root.join("vectors"), options)
            }
            Suite::Transcripts => {
                transcript::run_within(&evoke, &root.join("transcripts"), timeout.unwrap_or(STEP_TIMEOUT))
            }
        });
    }
    for failure in &report.failures {
        eprintln!("FAIL {failure}");
    }
    println!("{}", report.summary());
    if report.failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
