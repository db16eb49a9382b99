//! The reflex format and the decision, pure.
//!
//! Every function here maps data to data: no file is opened, no clock read, no engine called. The
//! places that touch the world (reading a reflex's files, asking an adapter, running a body) live in
//! other crates and hand their data in.

pub mod adapter;
pub mod anchor;
mod case_error;
pub mod catalog;
pub mod conform;
pub mod contract;
pub mod decide;
pub mod decision;
pub mod diag;
mod doc;
pub mod gate;
pub mod h1;
pub mod identity;
pub mod lint;
pub mod log_entry;
pub mod manifest;
pub mod mention;
pub mod mood;
pub mod overlay;
pub mod playbook;
pub mod project;
pub mod question;
mod question_id;
pub mod readback;
pub mod recall;
pub mod recognize;
pub mod recording;
pub mod refs;
pub mod shape;
pub mod text;
pub mod unquoted;
pub mod validate;
pub mod vocab;
pub mod weave;
pub mod words;
