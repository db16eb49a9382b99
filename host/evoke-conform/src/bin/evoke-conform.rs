//! `evoke-conform --evoke PATH [vectors|transcripts]`: runs this repository's conformance suite against
//! an implementation's command line and prints `N passed, N failed`.

use clap::{Parser, ValueEnum};
use evoke_conform::{Report, transcript, vectors};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, ValueEnum)]
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
    /// The repository holding vectors/ and transcripts/ (default: the one this runner was built from).
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Which suites to run (default: both).
    suites: Vec<Suite>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    // The transcripts run in their own folders, so a relative path must be made whole first.
    let evoke = std::fs::canonicalize(&args.evoke).unwrap_or(args.evoke);
    let root = args.root.unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")));
    let suites = if args.suites.is_empty() { vec![Suite::Vectors, Suite::Transcripts] } else { args.suites };
    let mut report = Report::default();
    for suite in suites {
        report.merge(match suite {
            Suite::Vectors => vectors::run(&evoke, &root.join("vectors")),
            Suite::Transcripts => transcript::run(&evoke, &root.join("transcripts")),
        });
    }
    for failure in &report.failures {
        eprintln!("FAIL {failure}");
    }
    println!("{}", report.summary());
    if report.failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
