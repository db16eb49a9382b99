//! The reflex format and the decision, pure.
//!
//! Every function here maps data to data: no file is opened, no clock read, no engine called. The
//! places that touch the world (reading a reflex's files, asking an adapter, running a body) live in
//! other crates and hand their data in.

pub mod conform;
pub mod diag;
pub mod identity;
pub mod lint;
pub mod manifest;
pub mod overlay;
pub mod recognize;
pub mod text;
pub mod vocab;
mod doc;
