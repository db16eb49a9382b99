//! The constants `local` answers with, and the gate it declares. Every number here was chosen by
//! measurement (`cargo bench -p evoke-adapters --bench clinc`; docs/adapters.md): the route's on the
//! CLINC150 `train` sentences that were not made examples, and `oos_train`; the gate at the bars where
//! that held-out set runs at most 5 wrong calls per thousand inputs. `val` and `oos_val` only report.
//! Changing any of them changes `local`'s id.

use super::space::Shape;
use evoke_core::adapter::Gate;
use serde::{Deserialize, Serialize};

/// How the route reads.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Params {
    pub shape: Shape,
    /// The share of a text's similarity from whole words, against letter runs.
    pub words_share: f32,
    /// The weight of the nearest example, against the mean of the `k` nearest.
    pub nearest: f32,
    pub k: usize,
    /// The weight of the reflex's texts taken together, against its nearest texts.
    pub class: f32,
    /// The share of whole words in the reflexes' texts taken together.
    pub class_words: f32,
    /// The weight of the description's own similarity, on top.
    pub description: f32,
    /// How far the description also stands as an example (times its similarity).
    pub description_as_example: f32,
    /// How much a `not_for` entry nearer than every example takes off.
    pub not_for: f32,
    /// The softmax's sharpness, sharing what the best reflex leaves among the others.
    pub beta: f32,
    /// The score `none` stands at: `none_bias` moves it.
    pub threshold: f32,
    /// The logistic that reads the best reflex's probability of being right: `(a, b, c, d)` over its
    /// score `s1`, its lead over the second and the number of reflexes `n`,
    /// `σ(a·s1 + b·(s1 − s2) + c + d·ln n)`.
    pub calibration: (f32, f32, f32, f32),
    /// The share of what the best reflex leaves that goes to `none`.
    pub none_share: f32,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            shape: Shape { stop: 1.0, pairs: 0.5, grams: (3, 4) },
            words_share: 0.7,
            nearest: 1.0,
            k: 1,
            class: 0.8,
            class_words: 0.7,
            description: 0.1,
            description_as_example: 1.0,
            not_for: 1.0,
            beta: 40.0,
            threshold: 0.0,
            calibration: (3.160, 18.183, -1.615, 0.0),
            none_share: 0.1,
        }
    }
}

/// How an argument's question reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ArgParams {
    pub sharpness: f32,
    /// The evidence `unstated` stands at.
    pub unstated: f32,
    /// How far below `unstated` the sentinel `none` stands.
    pub none_gap: f32,
    /// How far under nothing a key nothing in the request says stands.
    pub unsaid: f32,
    /// Evidence of a word the lexicon holds for a key.
    pub synonym: f32,
    /// Evidence of a word that the examples asserting a key teach it (`kill` for `off`).
    pub taught: f32,
    /// Evidence of a key of several words, all its content words said (scaled by the share said).
    pub partial: f32,
    /// Evidence of a meaning, all its content words said.
    pub meaning: f32,
    /// Evidence of any candidate span, and of one whose neighbourhood holds every word of the `ask`.
    pub span: f32,
    pub span_context: f32,
    /// Evidence of a flag whose `ask` is said whole.
    pub flag: f32,
    /// The lift, in log-odds, of a value said in full and of the one span that says its unit
    /// ([`super::literal`]): `embed`'s `arg_literal`, which `embed`'s bars were measured with.
    pub literal: f32,
}

impl Default for ArgParams {
    fn default() -> Self {
        ArgParams {
            sharpness: 5.0,
            unstated: 0.45,
            none_gap: 0.6,
            unsaid: 0.7,
            synonym: 0.8,
            taught: 0.75,
            partial: 0.35,
            meaning: 0.5,
            span: 0.8,
            span_context: 0.3,
            flag: 0.9,
            literal: 4.0,
        }
    }
}

/// The gate `local` ships.
pub const GATE: Gate = Gate { route: 0.4, fits: None, read: 0.98, write: 0.99 };

/// A version of these constants, part of the id.
pub const VERSION: &str = "22";
