//! Places on disk: where a project is, where evoke keeps its data, cache and log, and loading a
//! project's reflexes with their overlays and vocabularies into the core's catalog; the lock, the store,
//! trust and fetching.

pub mod atomic;
pub mod bounded;
pub mod fetch;
pub mod home_only;
pub mod install;
pub mod limits;
pub mod lock;
pub mod lock_error;
pub mod places;
pub mod plan_key;
pub mod playbook;
pub mod playbook_version;
pub mod project;
pub mod release_tags;
pub mod store;
pub mod store_error;
pub mod theft;
pub mod trust;
pub mod trust_error;
