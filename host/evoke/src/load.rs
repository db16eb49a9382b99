//! Reading a reflex's files from disk into the core's pure readers.

use crate::error::CommandError;
use evoke_core::diag::Reading;
use evoke_core::manifest::{Manifest, read_manifest};
use std::path::Path;

/// Reads `DIR/reflex.toml`, answering the reader's questions about which files exist from `DIR`.
/// A file that cannot be read is a usage error: the command named a directory that holds no reflex.
pub fn reflex(dir: &Path) -> Result<(String, Reading<Manifest>), CommandError> {
    let file = dir.join("reflex.toml");
    let shown = file.display().to_string();
    let text = evoke_files::bounded::read_to_string(&file, evoke_files::bounded::MAX_OWNED)
        .map_err(|e| CommandError::usage(format!("cannot read {shown}: {e}")))?;
    let exists = |relative: &str| dir.join(relative).is_file();
    let reading = read_manifest(&shown, &text, &exists);
    Ok((shown, reading))
}
