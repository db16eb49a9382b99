//! The engines that answer a decision's questions. Each implements [`evoke_core::adapter::Adapter`].

pub mod alone;
pub mod builtin;
pub mod component;
#[cfg(feature = "embed")]
pub mod embed;
pub mod engine;
pub mod local;
pub mod openai;
pub mod replay;
#[doc(hidden)]
pub mod testing;
