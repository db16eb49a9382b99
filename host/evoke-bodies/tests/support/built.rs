//! The one rule for a test whose component is not built: in CI it fails, elsewhere it is skipped and says so.
//!
//! The components (`.wasm` files) are built by `.ci/build-components`, never committed. Every test that
//! needs one asks [`present`] first; the test files of `evoke-bodies`, `evoke-adapters` and `evoke` include
//! this file (`#[path]`), so the decision and its wording live here alone.

use std::io::Write;
use std::path::Path;

/// Whether `file` is built. When it is not: with the environment variable `CI` set (and not empty), as
/// `.ci/run` sets it, the test fails; otherwise one line is written to stderr and the caller skips the test.
///
/// The line goes to the process's stderr directly: the test harness captures `eprintln!` of a passing test,
/// and a skip that nobody sees passes quietly. `.ci/run` counts these lines.
pub fn present(file: &Path) -> bool {
    if file.is_file() {
        return true;
    }
    let test = std::thread::current().name().unwrap_or("a test").to_string();
    if std::env::var_os("CI").is_some_and(|v| !v.is_empty()) {
        panic!("{} is not built, and CI is set: run .ci/build-components", file.display());
    }
    let _ = writeln!(
        std::io::stderr(),
        "skipped (component not built): {test} needs {}; run .ci/build-components",
        file.display()
    );
    false
}
