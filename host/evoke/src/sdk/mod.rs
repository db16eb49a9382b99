//! The library: open a trusted project, decide a sentence, and run the decision through a person who
//! confirms and answers, under the same trust, gate, bars and bounds as the `evoke` command.
//!
//! ```no_run
//! use evoke::{Evoke, OpenOptions, Person, Question};
//! use evoke_core::decision::{Missing, Value};
//!
//! struct Yes;
//! impl Person for Yes {
//!     fn present(&self) -> bool { true }
//!     fn confirm(&self, _: Question<'_>) -> bool { true }
//!     fn ask(&self, _: &Missing) -> Option<Value> { None }
//! }
//!
//! let evoke = Evoke::open("docs/examples/home".as_ref(), OpenOptions::default())?;
//! let decision = evoke.decide("turn on the kitchen lights")?;
//! println!("{}", decision.to_json_line());
//! let ran = evoke.run(&decision, &Yes)?;
//! println!("{}", ran.text().unwrap_or_default());
//! # Ok::<(), evoke::Error>(())
//! ```
//!
//! A [`Decision`] is made only by [`Evoke::decide`]: its fields are private, and [`Evoke::run`] takes
//! back only a decision the same `Evoke` made, so a caller cannot put values of its own into a call.

// The library's public face: every item it shows a program is documented.
#![warn(missing_docs)]

mod code;
mod decision;
mod error;
mod open;
mod plan;
mod ran;

pub use code::{Called, CodeReflex, Returned, Thrown};
pub use decision::{Abstain, Ask, Call, Confirm, Decision, Run};
pub use error::Error;
#[cfg(test)]
pub(crate) use open::with_code;
pub use open::{Evoke, MAX_NESTING, OpenOptions};
pub use plan::{Plan, PlanRan};
pub use ran::Ran;
