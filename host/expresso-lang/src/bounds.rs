//! Every limit the language puts on its input, in one place, so the docs and the code cannot drift.

/// The largest source file read, in bytes.
pub const MAX_SOURCE_BYTES: usize = 1 << 20;
/// How deep expressions, blocks, schemas and interpolations may nest. Parsing, checking and evaluation
/// all recurse over the tree, so this one bound keeps every one of them off the end of the stack.
pub const MAX_DEPTH: usize = 64;
/// How many errors one parse reports before it stops: recovery finds several, not every echo of one.
pub const MAX_ERRORS: usize = 25;
/// The largest compiled regex, in bytes (the `regex` crate's own size limit).
pub const MAX_REGEX_BYTES: usize = 1 << 20;
/// The longest stable id of an action or a leaf call (`id "create-bug"`), in bytes: it is written into
/// every key of the site, and each key goes out as an `Idempotency-Key` header.
pub const MAX_ID_BYTES: usize = 64;
