//! Every limit the runtime puts on its input, in one place, so the docs and the code cannot drift.

/// The longest list a `for` iterates; a longer one is a fault and the loop does not start. It is below the
/// longest list a leaf may answer (1,000), so a journaled answer can still be too long to fan out.
pub const MAX_FOR_ITEMS: usize = 256;
/// Statements one firing may execute (nested loops multiply): past it the firing is a fault.
pub const MAX_STEPS_PER_FIRING: usize = 100_000;
/// The longest event line read, in bytes.
pub const MAX_EVENT_LINE_BYTES: usize = 1 << 20;
/// The most events one log may hold.
pub const MAX_EVENTS: usize = 1_000_000;
/// The most bad lines a refused log reports before it stops reading.
pub const MAX_REPORTED_BAD_LINES: usize = 20;
/// The most transcript lines kept per partition (older lines fall off the front).
pub const MAX_TRANSCRIPT_LINES: usize = 10_000;
/// The largest journal or world file read, in bytes.
pub const MAX_STORE_BYTES: u64 = 256 << 20;
/// What `recent` spans: the last five minutes before the event.
pub const RECENT_MILLIS: u64 = 5 * 60_000;
/// The largest answer body read from an HTTP provider, in bytes.
pub const MAX_RESPONSE_BYTES: u64 = 4 << 20;
/// How many events a run goes between flushes of J and W (and it flushes at its end and on a fault).
pub const FLUSH_EVERY_EVENTS: usize = 1_000;
