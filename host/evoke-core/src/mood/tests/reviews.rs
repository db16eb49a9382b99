//! Reports, retractions, doubts, delays, hedges, slips and asides, as two reviews of the mood found them
//! misread.

use crate::mood::{Mood, mood};

#[test]
fn reports_retractions_doubts_and_delays_the_review_found() {
    for (said, read) in [
        ("my wife texted, turn off the den lights", Mood::Remark),
        // A request before the comma is no scene: what follows takes it back or asks for more.
        ("turn off the den lights, cancel it", Mood::TakenBack),
        ("anyone still up, turn off the kitchen lights", Mood::Remark),
        ("whoever is in the kitchen, turn the lights off", Mood::Remark),
        ("turn on the kitchen lights, he wrote", Mood::Remark),
        ("the robot in the play shouts, turn off the den lights", Mood::Remark),
        ("e.g. turn off the den lights", Mood::Remark),
        ("testing, turn off the den lights", Mood::Remark),
        ("you shouldn't, turn off the den lights", Mood::Negated),
        ("I'd rather you didn't, turn off the den lights", Mood::Negated),
        ("turn on the kitchen lights, not really", Mood::TakenBack),
        ("turn off the den lights, cancel", Mood::TakenBack),
        ("turn off the den lights, disregard", Mood::TakenBack),
        ("turn off the den lights, oops", Mood::TakenBack),
        ("turn off the den lights, hold on", Mood::TakenBack),
        ("soon, turn off the den lights", Mood::Conditional),
        ("turn on the kitchen lights, in a bit", Mood::Conditional),
        ("turn on the kitchen lights, but only at night", Mood::Conditional),
        ("in 5 minutes, turn off the den lights", Mood::Conditional),
        ("in an hour turn off the den lights", Mood::Conditional),
    ] {
        assert_eq!(mood(said), read, "{said}");
    }
    for (said, read) in [
        ("remind me to turn off the den lights", Mood::Remark),
        ("teach the kids to turn off the den lights", Mood::Remark),
        ("practice turning off the den lights", Mood::Remark),
        ("remind me in an hour and a half", Mood::Request),
        ("forget about turning off the den lights", Mood::Negated),
        ("turn off the den lights at sunset", Mood::Conditional),
        ("turn off the den lights provided nobody is home", Mood::Conditional),
        ("turn off the den lights as long as nobody is home", Mood::Conditional),
        ("turn off the den lights in the morning", Mood::Conditional),
        ("turn off the den lights next week", Mood::Conditional),
        ("do n't turn off the den lights", Mood::Negated),
        ("do nt turn off the den lights", Mood::Negated),
        ("turn off the den lights‽", Mood::Question),
        ("¿turn off the den lights", Mood::Question),
        ("turn off the den lights ؟", Mood::Question),
        ("turn off the den lights. belay that", Mood::TakenBack),
        ("dim the den lights to ８０ percent", Mood::Unclear),
        ("dim the den lights to ٨٠ percent", Mood::Unclear),
        ("dim the den lights to ⅓", Mood::Unclear),
        // All but a room, said with other words than `except`.
        ("turn off the lights without the den", Mood::Negated),
        ("turn off all lights excluding the den", Mood::Negated),
        ("turn off all lights besides the den", Mood::Negated),
        ("turn off all the lights apart from the den", Mood::Negated),
        ("turn off all lights aside from the den", Mood::Negated),
        ("turn off the lights minus the den", Mood::Negated),
        ("all lights off but den", Mood::Negated),
        ("turn off every light but the den", Mood::Negated),
        ("turn off all the lights, leave the den", Mood::Negated),
        ("keep the den lights from turning off", Mood::Negated),
        ("turn on the den lights, change that to the kitchen", Mood::TakenBack),
        ("turn on the den lights, make that the kitchen", Mood::TakenBack),
        ("prevent the kitchen lights from turning on", Mood::Negated),
        ("stop the den lights from turning off", Mood::Negated),
        ("turn off all lights bar the den", Mood::Negated),
        ("turn off all lights save the den", Mood::Negated),
        ("turn off the lights everywhere but in the den", Mood::Negated),
        ("turn off every light with the exception of the kitchen", Mood::Negated),
        ("turn off all lights leaving out the den", Mood::Negated),
        ("turn off the lights, skipping the den", Mood::Negated),
        ("turn off all lights, skip the den", Mood::Negated),
        ("turn off the lights but skip the den", Mood::Negated),
        ("turn off the lights but leave the den alone", Mood::Negated),
        ("turn off the lights, ignore the den", Mood::Negated),
        ("turn off all the lights, the den excepted", Mood::Negated),
        ("turn off all the lights, den aside", Mood::Negated),
        ("turn off the lights that aren't in the den", Mood::Negated),
        ("turn off any light that isn't in the den", Mood::Negated),
        ("turn off every light excepting the office", Mood::Negated),
        ("turn off all lights sparing the den", Mood::Negated),
        ("every time I leave, turn off the den lights", Mood::Conditional),
        ("always turn off the den lights", Mood::Conditional),
        ("usually turn off the den lights", Mood::Conditional),
        ("in the summer turn off the den lights", Mood::Conditional),
        ("turn off the den lights at the end of the movie", Mood::Conditional),
        ("turn on the den lights for a few minutes", Mood::Conditional),
        ("turn on the den lights just for now", Mood::Conditional),
        ("probably turn off the den lights", Mood::Conditional),
        ("den lights on all night", Mood::Conditional),
        ("in the game turn off the den lights", Mood::Remark),
        ("in minecraft turn off the den lights", Mood::Remark),
        ("in your dreams turn off the den lights", Mood::Remark),
        ("turn off the den lights is a command", Mood::Remark),
        ("turn off the den lights was the plan", Mood::Remark),
        ("kept the den lights on", Mood::Remark),
        ("allow me to turn off the den lights", Mood::Remark),
        ("does turn off the den lights work", Mood::Question),
        ("can den lights be turned off", Mood::Question),
        // Feelings, hearsay, what was left or forgotten, what the speaker is about to do.
        ("hate the den lights being on", Mood::Remark),
        ("sick of the den lights on", Mood::Remark),
        ("left the den lights on", Mood::Remark),
        ("forgot to turn off the den lights", Mood::Remark),
        ("meant to turn off the den lights", Mood::Remark),
        ("gonna turn off the den lights", Mood::Remark),
        ("going to turn off the den lights", Mood::Remark),
        ("apparently the den lights are on", Mood::Remark),
        ("supposedly the den lights are off", Mood::Remark),
        ("john put the den lights on", Mood::Remark),
        ("bob left the kitchen lights on", Mood::Remark),
        ("den lights going off", Mood::Remark),
        ("lights in the den were turned off", Mood::Remark),
        ("ways to turn off the den lights", Mood::Remark),
        ("turn off the den lights last night", Mood::Remark),
        ("on weekdays turn on the kitchen lights", Mood::Conditional),
        ("turn on the den lights briefly", Mood::Conditional),
        ("turn on the den lights for a bit", Mood::Conditional),
        ("temporarily turn off the kitchen lights", Mood::Conditional),
        ("turn off the den lights for a little while", Mood::Conditional),
    ] {
        assert_eq!(mood(said), read, "{said}");
    }
    // Still requests: a cancel reflex's own word, a polite `won't you`, and a time the call takes.
    for said in [
        "cancel my timer",
        "won't you turn off the den lights",
        "set a timer for 5 minutes",
        "cancel",
        "put the den lights on",
        "leave the den lights on",
        "please put the kitchen lights on",
        "turn left at the light",
        "love songs on",
        "turn off all the lights in the den",
        "keep the den lights on",
        "skip this song",
        "turn off every light in the house",
        "save my document",
        "turn off the den lights, then turn on the kitchen",
    ] {
        assert_eq!(mood(said), Mood::Request, "{said}");
    }
}

#[test]
fn hedges_slips_sparing_words_and_asides_the_fourth_review_found() {
    for (said, read) in [
        // Hedges and habits in words of their own.
        ("prolly turn off the den lights", Mood::Conditional),
        ("turn off the den lights for the time being", Mood::Conditional),
        ("turn off the den lights by default", Mood::Conditional),
        ("turn off the den lights next time", Mood::Conditional),
        ("get ready to turn off the den lights", Mood::Conditional),
        ("turn on the den lights for a couple of minutes", Mood::Conditional),
        // One letter off, still read.
        ("alwys turn off the den lights", Mood::Conditional),
        ("ususally turn off the den lights", Mood::Conditional),
        ("turn off all lights excpet the den", Mood::Negated),
        ("turn off all lights exluding the den", Mood::Negated),
        // Other words that spare.
        ("turn off all lights but for the den", Mood::Negated),
        ("turn off all lights sans the den", Mood::Negated),
        ("turn off all lights, omit the den", Mood::Negated),
        ("turn off all lights, forget the den", Mood::Negated),
        ("turn off the lights, the den stays", Mood::Negated),
        ("turn off the lights bar the den", Mood::Negated),
        ("prevent the den lights turning off", Mood::Negated),
        ("make sure nobody turns off the den lights", Mood::Negated),
    ] {
        assert_eq!(mood(said), read, "{said}");
    }
    for said in [
        // An aside that tells why sets no condition.
        "turn off the den lights, you always forget",
        // Thanks and assent open a request; a face closes one.
        "thanks, turn off the den lights",
        "thank you, now turn off the den lights",
        "yeah turn off the den lights",
        "turn off the den lights :)",
        "turn off the den lights ta",
        // An -ing word after a determiner is a thing.
        "turn the living room lights off",
        // A word one letter from a negation that is a word of its own.
        "turn off the lamp beside the den door",
    ] {
        assert_eq!(mood(said), Mood::Request, "{said}");
    }
}
