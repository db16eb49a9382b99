//! Places on disk (D9): where a project is, where evoke keeps its data, cache and log, and loading a
//! project's reflexes with their overlays and vocabularies into the core's catalog.

pub mod places;
pub mod project;
