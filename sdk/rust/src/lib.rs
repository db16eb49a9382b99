//! Write an [evoke](https://github.com/) reflex's body in Rust.
//!
//! A body built with this crate is a WASI component of the `evoke:reflex@1.0.0` world. The world's WIT travels
//! with the crate, in its `wit/` folder (a copy of the evoke repository's `wit/reflex/v1`, kept identical by a
//! test there), so the crate builds wherever it is: from a path, a git checkout or a package.
//! evoke runs it under the grants of its `reflex.toml`: it sees only the directories and `host:port`
//! pairs named there, an environment of five variables, and no stdin; what it prints goes to evoke's
//! stderr, never into the result. Its result is what [`run`](export) returns.
//!
//! # A complete body
//!
//! `Cargo.toml`:
//!
//! ```toml
//! [package]
//! name = "lights"
//! version = "0.1.0"
//! edition = "2024"
//!
//! [lib]
//! crate-type = ["cdylib"]
//!
//! [dependencies]
//! evoke-sdk = { path = "../../sdk/rust" }
//! ```
//!
//! `src/lib.rs`:
//!
//! ```no_run
//! use evoke_sdk::{Args, Context, Output};
//!
//! /// `lights room="den" state="dim" brightness=30`
//! fn run(args: Args, ctx: Context) -> Result<Output, String> {
//!     // Required arguments: `?` turns a missing or mistyped value into the failure's message.
//!     let room = args.word("room")?; // a vocabulary word's value, or the word
//!     let state = args.option("state")?; // one of the author's option keys
//!     // An optional argument is absent when it was not stated.
//!     let brightness = args.number("brightness").ok();
//!     // Settings come from `[config]`; secrets are resolved for this run only.
//!     let bridge = ctx.require("bridge")?;
//!
//!     // Reach the bridge over HTTP; the manifest must grant it: `net = ["{bridge}:80"]`.
//!     let url = format!("http://{bridge}/rooms/{room}/{state}");
//!     let reply = evoke_sdk::http::get(&url).map_err(|e| e.to_string())?;
//!     if reply.status != 200 {
//!         return Err(format!("the bridge answered {}", reply.status));
//!     }
//!
//!     let text = match brightness {
//!         Some(b) => format!("{room} lights {state} to {b}%"),
//!         None => format!("{room} lights {state}"),
//!     };
//!     // `text` is for a person; `data`, when given, is JSON for a program.
//!     Ok(Output::text(text).with_data_json(format!(r#"{{"room":"{room}","state":"{state}"}}"#)))
//! }
//!
//! evoke_sdk::export!(run);
//! ```
//!
//! Build it with `cargo build --release --target wasm32-wasip2` and put the `.wasm` beside the
//! `reflex.toml` whose `run` names it (`run = "lights.wasm"`).
//!
//! # Values
//!
//! Each argument arrives as a [`Value`] of the kind its manifest declares. [`Args`] has one accessor per
//! kind: [`option`](Args::option), [`word`](Args::word), [`number`](Args::number),
//! [`duration`](Args::duration), [`date`](Args::date), [`time`](Args::time), [`amount`](Args::amount),
//! [`code`](Args::code), [`text`](Args::text) and [`flag`](Args::flag). A date comes as it was read
//! (`tomorrow`, `next friday`, `the 14th`); [`DateReading::resolve`] turns it into a day.

mod args;
mod context;
mod date;
#[cfg(feature = "http")]
pub mod http;
mod output;

pub use args::{ArgError, Args, Time};
pub use context::{Context, MissingSetting};
pub use date::Day;
pub use output::Output;

/// The WIT types of `evoke:reflex/types@1.0.0`, as the body receives them.
pub use bindings::evoke::reflex::types::{
    Amount, CalendarDate, DateReading, Value, Weekday, WeekdayReading, Which,
};

#[doc(hidden)]
pub mod bindings {
    wit_bindgen::generate!({
        path: "wit",
        world: "evoke:reflex/body@1.0.0",
        additional_derives: [Clone, PartialEq],
        pub_export_macro: true,
        export_macro_name: "__export_body",
        default_bindings_module: "evoke_sdk::bindings",
    });
}

/// Turns `fn run(args: Args, ctx: Context) -> Result<Output, String>` into the component's export.
///
/// Write it once per crate, after the function: `evoke_sdk::export!(run);`. An `Err` is the failure's
/// message, shown to the person and put on the JSON line as `error`.
#[macro_export]
macro_rules! export {
    ($run:path) => {
        const _: () = {
            struct EvokeBody;

            impl $crate::bindings::Guest for EvokeBody {
                fn run(
                    args: ::std::vec::Vec<(::std::string::String, $crate::Value)>,
                    ctx: $crate::bindings::evoke::reflex::types::Context,
                ) -> ::core::result::Result<
                    $crate::bindings::evoke::reflex::types::Output,
                    ::std::string::String,
                > {
                    $crate::__call($run, args, ctx)
                }
            }

            $crate::bindings::__export_body!(EvokeBody with_types_in $crate::bindings);
        };
    };
}

#[doc(hidden)]
pub fn __call(
    run: impl FnOnce(Args, Context) -> Result<Output, String>,
    args: Vec<(String, Value)>,
    ctx: bindings::evoke::reflex::types::Context,
) -> Result<bindings::evoke::reflex::types::Output, String> {
    let output = run(Args::new(args), Context::new(ctx.input, ctx.config))?;
    Ok(bindings::evoke::reflex::types::Output { text: output.text, data: output.data })
}
