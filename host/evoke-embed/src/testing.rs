//! What the tests that load the reference model share (this crate's, the `embed` engine's and the
//! command's): finding the model, and the rule for when it is not there.

use std::io::Write;
use std::path::PathBuf;

/// The reference model's directory, or `None` (after saying so on stderr) outside CI when `.ci/get-model`
/// has not been run; under CI its absence fails the test.
pub fn reference_model() -> Option<PathBuf> {
    let dir = crate::reference_model_dir().expect("neither EVOKE_EMBED_MODEL nor HOME is set");
    if dir.join("model.safetensors").is_file() {
        return Some(dir);
    }
    let message = format!("the reference model is not at {}: run `bash .ci/get-model`", dir.display());
    if std::env::var_os("CI").is_some_and(|v| !v.is_empty()) {
        panic!("{message}");
    }
    // Straight to the process's stderr: the harness swallows `eprintln!` of a passing test, and a skip
    // nobody sees passes quietly. `.ci/run` counts these lines.
    let _ = writeln!(std::io::stderr(), "skipped (model not present): {message}");
    None
}
