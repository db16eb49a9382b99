//! The constants `embed` answers with, and the gate it declares. The route's were chosen on the CLINC150
//! `train` sentences that were not made examples, with `oos_train` (`cargo bench -p evoke-adapters
//! --bench clinc -- tune-embed`); the gate's bars from its calls on `val` and `oos_val` (`-- embed`, the
//! lowest write bar near 3 wrong runs per thousand inputs; docs/embed.md). Changing any of them changes
//! `embed`'s id.

use evoke_core::adapter::Gate;
use evoke_embed::head::Fitting;

/// How the route and the arguments read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// The weight of the nearest text, against the second nearest.
    pub nearest: f32,
    /// How far the description also stands as an example (times its similarity).
    pub description_as_example: f32,
    /// The weight of the description's own similarity, on top.
    pub description: f32,
    /// How much a `not_for` entry takes off per unit of cosine it stands above the nearer of the best
    /// example and `threshold`.
    pub not_for: f32,
    /// The weight of the reflexes' scores in the share among them, beside the head's logits.
    pub beta: f32,
    /// The score at which `none` takes half the route.
    pub threshold: f32,
    /// How fast `none`'s share falls as the best score rises past `threshold` (log-odds per unit of score).
    pub none_sharpness: f32,
    /// The weight of the route's logistic head's logits in the share among the reflexes (`none`'s share is
    /// the nearest texts' alone).
    pub head: f32,
    /// How the head is fitted to the descriptions and examples.
    pub head_fitting: Fitting,
    /// The length of a text's word numbers beside its sentence vector, which the head reads too
    /// ([`super::lexical`]); 0 reads the sentence vector alone.
    pub lexical: f32,
    /// An option's lift (in log-odds per unit of cosine) when its meaning is nearer the request than the
    /// options' mean by more than the margin.
    pub arg_meaning: f32,
    pub arg_meaning_margin: f32,
    /// An option's lift when an example asserting it is nearer the request than the floor and than every
    /// example asserting another value.
    pub arg_example: f32,
    pub arg_example_floor: f32,
    /// An option's or vocabulary word's lift (in log-odds) when it is said in full, in whole words.
    pub arg_literal: f32,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            nearest: 0.6,
            description_as_example: 1.0,
            description: 0.1,
            not_for: 2.0,
            beta: 0.0,
            threshold: 0.4,
            none_sharpness: 40.0,
            head: 3.0,
            head_fitting: Fitting { l2: 1e-4, steps: 300 },
            lexical: 0.7,
            arg_meaning: 10.0,
            arg_meaning_margin: 0.05,
            arg_example: 40.0,
            arg_example_floor: 0.4,
            arg_literal: 4.0,
        }
    }
}

/// The gate `embed` ships.
pub const GATE: Gate = Gate { route: 0.4, fits: None, read: 0.997, write: 0.997 };

/// A version of these constants, part of the id.
pub const VERSION: &str = "18";
