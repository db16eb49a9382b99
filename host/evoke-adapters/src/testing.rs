//! What the engines' tests and benchmarks share: the docs' example project, read in process.

use evoke_core::catalog::{Catalog, Reflex};
use std::path::Path;

/// The example project of the docs (docs/examples/home: lights with its rooms, and the shipped timer and
/// volume), as the command reads it.
pub fn home_catalog() -> Catalog {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let read = |path: &Path| std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let rooms = read(&root.join("docs/examples/home/vocab/rooms.toml"));
    let rooms = evoke_core::vocab::read_vocab("rooms", "vocab/rooms.toml", &rooms).value.expect("rooms reads");
    let reflexes = [
        ("lights", root.join("docs/examples/home/reflexes/lights")),
        ("timer", root.join("reflexes/timer")),
        ("volume", root.join("reflexes/volume")),
    ]
    .into_iter()
    .map(|(name, dir)| {
        let text = read(&dir.join("reflex.toml"));
        let manifest = evoke_core::manifest::read_manifest("reflex.toml", &text, &|_: &str| true)
            .value
            .expect("the manifest reads");
        let vocabs = if name == "lights" { [("rooms".to_string(), rooms.clone())].into() } else { Default::default() };
        Reflex { name: name.into(), manifest, vocabs }
    })
    .collect();
    Catalog::new(reflexes)
}
