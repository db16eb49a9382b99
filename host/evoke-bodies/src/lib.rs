//! Running a body: the second of the two places evoke touches the world.
//!
//! A [`Call`] is everything a body receives, already resolved: the values as the body sees them, the
//! sentence, the settings with secrets read for this run only, and the decision's deadline. Each way of
//! running gives back a [`Ran`]: the result or the failure, and how far this machine held the body to
//! its declaration (`contained`).

pub mod argv;
pub mod body_value;
pub mod call;
pub mod component;
pub mod dates;
pub mod node;
pub mod process;
pub mod stop;

// The bounded I/O of every body's output is the component host's, shared with process bodies.
pub use evoke_components::{bounded, stderr};

pub use body_value::BodyValue;
pub use call::{Call, Contained, Failure, Output, Ran};
