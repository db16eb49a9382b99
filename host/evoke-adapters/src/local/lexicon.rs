//! A small built-in lexicon of words that name the same setting: what `kill` or `darker` says about an
//! option keyed `off` or `dim`. Only option keys and vocabulary words are looked up in it, never a
//! meaning's other words. A project adds its own under `[adapters.local.synonyms]`.

use super::words::stem;
use std::sync::OnceLock;

/// Groups of words that say the same thing. A word may stand in several groups.
pub const GROUPS: &[&[&str]] = &[
    &["on", "enable", "activate", "start", "switch on"],
    &["off", "kill", "disable", "deactivate", "shut", "cut", "extinguish", "stop", "douse"],
    &["dim", "dimly", "darker", "darken", "dimmer", "lower", "low", "down"],
    &["bright", "brighter", "brighten", "full", "max"],
    &["up", "raise", "increase", "louder", "higher", "more", "boost"],
    &["down", "decrease", "quieter", "softer", "less", "reduce", "lower"],
    &["mute", "silence", "quiet"],
    &["unmute"],
    &["play", "resume", "continue"],
    &["pause", "hold", "stop"],
    &["open", "unlock"],
    &["close", "shut", "lock"],
    &["yes", "yeah", "yep", "sure", "ok", "okay"],
    &["no", "nope", "don"],
    &["cancel", "abort", "delete", "remove", "clear"],
    &["add", "create", "new", "make"],
    &["hot", "warm", "warmer", "heat"],
    &["cold", "cool", "cooler", "chill"],
];

/// The groups, stemmed as a request's words are.
fn stemmed() -> &'static [Vec<String>] {
    static STEMMED: OnceLock<Vec<Vec<String>>> = OnceLock::new();
    STEMMED.get_or_init(|| GROUPS.iter().map(|g| g.iter().map(|w| stem(w)).collect()).collect())
}

/// Whether the stem `word` stands in any group, the built-in ones or the project's.
pub fn is_known(word: &str, extra: &[(String, Vec<String>)]) -> bool {
    stemmed().iter().any(|g| g.iter().any(|w| w == word))
        || extra.iter().any(|(w, means)| w == word || means.iter().any(|m| m == word))
}

/// Whether `a` and `b` (stems) are in one group.
pub fn same(a: &str, b: &str, extra: &[(String, Vec<String>)]) -> bool {
    if a == b {
        return true;
    }
    let builtin = stemmed().iter().any(|g| g.iter().any(|w| w == a) && g.iter().any(|w| w == b));
    builtin
        || extra.iter().any(|(word, means)| {
            (word == a && means.iter().any(|m| m == b)) || (word == b && means.iter().any(|m| m == a))
        })
}
