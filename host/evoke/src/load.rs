//! Reading a reflex's files from disk into the core's pure readers.

use evoke_core::diag::Reading;
use evoke_core::manifest::{Manifest, read_manifest};
use std::path::Path;

/// Reads `DIR/reflex.toml`, answering the reader's questions about which files exist from `DIR`.
/// `Err` carries a message when the file itself cannot be read.
pub fn reflex(dir: &Path) -> Result<(String, Reading<Manifest>), String> {
    let file = dir.join("reflex.toml");
    let shown = file.display().to_string();
    let text = std::fs::read_to_string(&file).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let exists = |relative: &str| dir.join(relative).is_file();
    let reading = read_manifest(&shown, &text, &exists);
    Ok((shown, reading))
}
