//! The repository's conformance suite against this build of `evoke`: every vector through
//! `evoke conform`, and every transcript through the command line. Every case on disk must run and pass:
//! the counts are taken from the files themselves, so a case the runner drops fails here.

use evoke_conform::{transcript, vectors};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn evoke() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_evoke"))
}

/// Whether a folder of `vectors/` or `transcripts/` is evoke's (the Expresso suite's are `expresso-*`).
fn evokes(entry: &std::fs::DirEntry) -> bool {
    evoke_conform::is_evokes(&entry.file_name().to_string_lossy())
}

/// The case files of every folder of `vectors/` that is evoke's, counted without the runner.
fn vector_cases() -> usize {
    let folders =
        std::fs::read_dir(root().join("vectors")).unwrap().flatten().filter(|e| e.path().is_dir() && evokes(e));
    folders.map(|folder| vectors::cases(&folder.path()).len()).sum()
}

/// The steps (`$ ` and `% ` lines) of every `transcripts/*/transcript`, counted without the parser.
fn transcript_steps() -> usize {
    let folders = std::fs::read_dir(root().join("transcripts")).unwrap().flatten().filter(evokes);
    let texts = folders.filter_map(|f| std::fs::read_to_string(f.path().join("transcript")).ok());
    texts.map(|t| t.lines().filter(|l| l.starts_with("$ ") || l.starts_with("% ")).count()).sum()
}

#[test]
fn every_vector_through_the_command_line() {
    let report = vectors::run(evoke(), &root().join("vectors"), vectors::Options::default());
    assert!(report.failures.is_empty(), "{}\n{}", report.summary(), report.failures.join("\n"));
    let on_disk = vector_cases();
    assert!(on_disk > 0, "no vector case found");
    assert_eq!(report.passed, on_disk, "every vector case on disk runs");
}

#[test]
fn every_transcript_step() {
    let report = transcript::run(evoke(), &root().join("transcripts"));
    assert!(report.failures.is_empty(), "{}\n{}", report.summary(), report.failures.join("\n"));
    let on_disk = transcript_steps();
    assert!(on_disk > 0, "no transcript step found");
    assert_eq!(report.passed, on_disk, "every transcript step runs");
}

#[test]
fn a_transcript_that_differs_fails() {
    // The runner itself must be able to fail: a flow whose expected output is not what evoke prints.
    let flow = tempfile::tempdir().unwrap();
    let dir = flow.path().join("altered");
    std::fs::create_dir_all(dir.join("project")).unwrap();
    std::fs::write(dir.join("project/evoke.toml"), "adapter = \"local\"\n").unwrap();
    std::fs::write(dir.join("recording.toml"), "id = \"replay\"\n[answers.\"hello\"]\n").unwrap();
    std::fs::write(
        dir.join("transcript"),
        "$ evoke -C project try --recording recording.toml \"hello\"\n  something else\n? 0\n",
    )
    .unwrap();
    let report = transcript::run(evoke(), flow.path());
    assert_eq!(report.passed, 0);
    assert_eq!(report.failures.len(), 1, "{:?}", report.failures);
}
