//! Writes each fuzz target's seeds into `DIR/<target>/`, one file per seed named by its index, for a
//! fuzzer to start from: `evoke-fuzz-seeds DIR [TARGET…]`.

use evoke_fuzz::{TARGETS, seeds};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next().map(PathBuf::from) else {
        eprintln!("usage: evoke-fuzz-seeds DIR [TARGET…]");
        return ExitCode::from(2);
    };
    let wanted: Vec<String> = args.collect();
    for target in TARGETS.iter().filter(|t| wanted.is_empty() || wanted.iter().any(|w| w == t.name)) {
        let folder = dir.join(target.name);
        let written = std::fs::create_dir_all(&folder).and_then(|()| {
            seeds::for_target(target.name)
                .iter()
                .enumerate()
                .try_for_each(|(i, seed)| std::fs::write(folder.join(format!("seed-{i:04}")), seed))
        });
        if let Err(e) = written {
            eprintln!("error: cannot write the seeds of {} to {}: {e}", target.name, folder.display());
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
