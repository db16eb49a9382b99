//! The repository's conformance suite against this build of `evoke`: every vector through
//! `evoke conform`, and every transcript through the command line.

use evoke_conform::{transcript, vectors};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn evoke() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_evoke"))
}

#[test]
fn vectors_through_the_command_line() {
    let report = vectors::run(evoke(), &root().join("vectors"));
    assert!(report.failures.is_empty(), "{}\n{}", report.summary(), report.failures.join("\n"));
    assert!(report.passed >= 180, "only {} vector cases ran", report.passed);
}

#[test]
fn transcripts() {
    let report = transcript::run(evoke(), &root().join("transcripts"));
    assert!(report.failures.is_empty(), "{}\n{}", report.summary(), report.failures.join("\n"));
    assert!(report.passed >= 7, "only {} transcript steps ran", report.passed);
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
