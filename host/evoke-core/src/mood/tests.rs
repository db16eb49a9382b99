//! The mood of whole sentences, where the rules meet and their order counts. Each rule's own tests stand
//! beside it.

use super::*;

#[test]
fn a_negation_is_read_however_its_apostrophe_fell_or_whatever_clitic_follows_it() {
    for text in [
        "won't've lock the front door",
        "wont've lock the front door",
        "won't's lock the front door",
        "won'tve lock the front door",
        "won'nt lock the front door",
        "wo'nt lock the front door",
        "don't've turn off the den lamp",
        "shouldn't've turn off the den lamp",
        "did'nt turn off the den lamp",
        "should'nt turn off the den lamp",
        "turn off the office lamp and won't've turn off the den lamp",
    ] {
        assert_eq!(mood(text), Mood::Negated, "{text}");
    }
    // A possessive is no contraction; `won't you` still asks.
    assert_eq!(mood("turn on grant's lamp"), Mood::Request);
    assert_eq!(mood("won't you turn off the den lamp"), Mood::Request);
}

#[test]
fn requests_are_requests() {
    for said in [
        "kill the lights in the den",
        "switch off the bedroom light",
        "set a timer for 10 minutes",
        "lights off in the den",
        "turn on the kitchen lights",
        "Turn on the kitchen lights.",
        "can you turn off the den lights",
        "could you please dim the office?",
        "please turn the den lights off",
        "I want the den lights off",
        "I'd like to set a timer for 5 minutes",
        "I need a timer for 5 minutes",
        "hey, turn on the kitchen lights",
        "ok now turn the office lights on",
        "can I get a timer for 10 minutes?",
        "let's turn on the kitchen lights",
        "convert 10 miles to km",
        "10 minute timer",
        "turn off the den lights, will you?",
        "turn off the den lights, ok?",
        "turn off the den lights if you can",
        "turn off the den lights when you get a chance",
        "turn off the den lights as soon as possible",
        "turn off the den lights now, thanks",
        "all lights off in the den",
        "is it possible to turn off the den lights",
        "we want the kitchen lights on",
        "add bread to my shopping list",
        "bring me the remote",
    ] {
        assert_eq!(mood(said), Mood::Request, "{said}");
    }
}

#[test]
fn questions_remarks_conditions_and_retractions_are_not_requests() {
    let cases = [
        ("are the kitchen lights on", Mood::Question),
        ("did I turn off the den lights", Mood::Question),
        ("Did you turn off the den lights?", Mood::Question),
        ("is kitchen light on", Mood::Question),
        ("how do I turn off the den lights", Mood::Question),
        ("what's the den light set to", Mood::Question),
        ("when is my timer done", Mood::Question),
        ("turn on the kitchen lights?", Mood::Question),
        ("the den lights are off", Mood::Remark),
        ("the kitchen lights", Mood::Remark),
        // A request in a statement's form is misread, and asks first: the reading errs that way.
        ("the den lights off please", Mood::Remark),
        ("I turned on the kitchen lights", Mood::Remark),
        ("the kitchen lights are on", Mood::Remark),
        ("den lights are off", Mood::Remark),
        ("it's dark in the den", Mood::Remark),
        ("turn on the kitchen lights if it gets dark", Mood::Conditional),
        ("turn off the den lights when I leave", Mood::Conditional),
        ("unless it's late, dim the den", Mood::Conditional),
        ("turn on the kitchen lights as soon as I'm home", Mood::Conditional),
        ("turn on the kitchen lights? no wait", Mood::TakenBack),
        ("turn on the kitchen lights, just kidding", Mood::TakenBack),
        ("turn on the kitchen lights… never mind", Mood::TakenBack),
        ("set a timer, scratch that", Mood::TakenBack),
        ("don't turn on the kitchen lights", Mood::Negated),
        ("please do not dim the den", Mood::Negated),
        ("Don’t turn off the den lights", Mood::Negated),
        // Said after the request, or in words the first reading missed.
        ("no, don't turn off the den lights", Mood::TakenBack),
        ("turn off the den lights, but don't", Mood::Negated),
        ("turn off the den lights, actually no", Mood::TakenBack),
        ("turn off the den lights, nope", Mood::TakenBack),
        ("turn off the den lights. I was joking", Mood::TakenBack),
        ("turn off the den lights /s", Mood::TakenBack),
        ("turn off the den lights - NOT", Mood::Negated),
        ("turn off the den lights, not yet", Mood::TakenBack),
        ("stop turning off the den lights", Mood::Negated),
        ("turn off the lights except in the den", Mood::Negated),
        ("turn off the lights everywhere but the den", Mood::Negated),
        ("turn the den lights off, I mean on", Mood::TakenBack),
        ("turn the den lights not off", Mood::Negated),
        ("no need to turn off the den lights", Mood::TakenBack),
        ("did you turn off the den lights, please?", Mood::Question),
        ("why are the den lights off please", Mood::Question),
        ("the den lights are off, please", Mood::Remark),
        ("my wife said please turn off the den lights", Mood::Remark),
        ("Mom turned off the den lights", Mood::Remark),
        ("Nobody turned off the den lights", Mood::Remark),
        ("Turned off the den lights", Mood::Remark),
        ("Den lights off already", Mood::Remark),
        ("thanks for turning off the den lights", Mood::Remark),
        ("turning off the den lights", Mood::Remark),
        ("imagine the den lights off", Mood::Remark),
        ("I wish the den lights were off", Mood::Remark),
        ("turn off the den lights later", Mood::Conditional),
        ("turn off the den lights until morning", Mood::Conditional),
        ("turn off the den lights every night", Mood::Conditional),
        ("maybe turn off the den lights", Mood::Conditional),
        ("turn off the den lights once the movie ends", Mood::Conditional),
        ("turn off the den lights?\u{200B}", Mood::Question),
        ("turn off the den lights？", Mood::Question),
        ("turn off the den lights? 🙂", Mood::Question),
        ("d\u{200B}on't turn off the den lights", Mood::Negated),
        ("ｄｏｎ'ｔ turn off the den lights", Mood::Negated),
        ("don‘t turn off the den lights", Mood::Negated),
        ("turn on the kitchen lights і\u{66} it gets dark", Mood::Unclear),
    ];
    for (said, want) in cases {
        assert_eq!(mood(said), want, "{said}");
    }
}

#[test]
fn statements_labels_and_requests_to_someone_else_the_third_review_found() {
    for said in [
        "den lights have been turned off",
        "kitchen lights went off",
        "kitchen lights came on",
        "den lights will be turned off",
        "den lights could be off",
        "kitchen lights keep switching off",
        "den lights got turned off",
        "hardly anyone wants the den lights on",
        "in a dream I turn off the den lights",
        "I need to remember to turn off the den lights",
        "todo: turn off the den lights",
        "ignore this: turn off the den lights",
        "Mary: turn off the den lights",
        "Bob, turn off the den lights",
        "kids, turn off the den lights",
        "turn off the den lights, John",
        "theoretically turn off the den lights",
        "jokingly, turn off the den lights",
        "turn off the den lights at some point",
        "turn off the den lights while I'm away",
        "from now on, turn off the den lights",
        "TODO turn off the den lights",
        "in theory, turn off the den lights",
        "den lights being turned off",
        "den lights need to be off",
        "kitchen lights switching on",
        "kitchen lights on was a mistake",
        "to turn off the den lights",
        "let me turn off the den lights",
        "print turn off the kitchen lights",
        "type set a timer for 10 minutes",
        "please echo turn on the den lights",
        "print out turn off the kitchen lights",
        "can you print turn off the kitchen lights",
        "show turn off the kitchen lights",
        "print the words turn off the kitchen lights",
        "translate to french turn off the kitchen lights",
        "note turn off the kitchen lights",
        "typically I turn off the kitchen lights",
        "type in turn off the kitchen lights",
        "John please turn off the kitchen lights",
        "kids please turn off the den lights",
    ] {
        assert_ne!(mood(said), Mood::Request, "{said}");
    }
    // A time's colon, a greeting or a closing set apart by a comma still ask.
    for said in [
        "set an alarm for 7:30",
        "hey, turn on the kitchen lights",
        "turn off the den lights, please",
        "turn off the den lights, ok",
        "ok, turn off the den lights",
        "please keep the lights on",
        "can you keep the den lights on",
        "print the report",
        "type my password",
        "repeat the last song",
        "please turn off the den lights",
        "ok please turn off the den lights",
        "hey evoke please turn off the den lights",
    ] {
        assert_eq!(mood(said), Mood::Request, "{said}");
    }
}

#[test]
fn a_part_is_held_by_a_whole_that_asks_for_nothing_now() {
    let part = |p: &str, s: &str| within(p, s);
    assert_eq!(part("turn off the den lights", "my wife texted, turn off the den lights"), Mood::Remark);
    // A scene set before the request leaves it a request; a report of it does not.
    assert_eq!(part("turn off the den lights", "it's late, turn off the den lights"), Mood::Request);
    assert_eq!(part("turn off the den lights", "mom said, turn off the den lights"), Mood::Remark);
    assert_eq!(
        part("turn on the kitchen lights", "turn on the kitchen lights, then are the den lights off?"),
        Mood::Question
    );
    assert_eq!(
        part("turn on the kitchen lights", "turn on the kitchen lights, then turn off the den lights if it gets dark"),
        Mood::Conditional
    );
    assert_eq!(part("turn off the den lights", "in 5 minutes, turn off the den lights"), Mood::Conditional);
    assert_eq!(part("turn on the kitchen lights", "turn on the kitchen lights, not really"), Mood::TakenBack);
    // A negation stays with its part, and `after` orders the parts.
    assert_eq!(part("turn off the den lights", "turn off the den lights but not the office"), Mood::Request);
    assert_eq!(
        part("set a timer for 5 minutes", "set a timer for 5 minutes after you turn off the den lights"),
        Mood::Request
    );
    assert_eq!(part("turn off the den lights", "turn off the den lights and set a timer for 5 minutes"), Mood::Request);
    // A part keeps its own mood.
    assert_eq!(
        part("turn off the den lights later", "turn off the den lights later and set a timer"),
        Mood::Conditional
    );
}

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

#[test]
fn the_fifth_review_s_times_spellings_jokes_letters_and_addressees() {
    for (said, read) in [
        // Times and habits.
        ("turn off the den lights before bed", Mood::Conditional),
        ("turn off the den lights before I leave", Mood::Conditional),
        ("turn off the den lights each evening", Mood::Conditional),
        ("turn off the den lights often", Mood::Conditional),
        ("turn on the kitchen lights every weekday", Mood::Conditional),
        ("turn off the den lights Mondays", Mood::Conditional),
        ("turn off the den lights evry night", Mood::Conditional),
        ("turn off the den lights automatically", Mood::Conditional),
        ("turn off the den lights permanently", Mood::Conditional),
        ("turn on the den lights during the movie", Mood::Conditional),
        ("turn off the den lights all evening", Mood::Conditional),
        ("turn off the den lights prior to leaving", Mood::Conditional),
        ("turn off the den lights by the time I get home", Mood::Conditional),
        ("turn off the den lights the moment I leave", Mood::Conditional),
        ("turn off the den lights untill morning", Mood::Conditional),
        ("turn off the den lights aftr dinner", Mood::Conditional),
        ("turn off the den lights unles I'm home", Mood::Conditional),
        ("turn off the den lights tomorow", Mood::Conditional),
        ("turn off the den lights latr", Mood::Conditional),
        ("turn off the den lights for good", Mood::Conditional),
        ("turn off the den lights come nightfall", Mood::Conditional),
        ("turn off the den lights the minute I leave", Mood::Conditional),
        ("ima turn off the den lights", Mood::Remark),
        ("turn off the den lights, ignore me", Mood::TakenBack),
        ("pls dont't turn off the den lights", Mood::Negated),
        ("turn on the den lights, we want that every evening", Mood::Conditional),
        // An aside that names a time may be a schedule: it waits.
        ("turn off the den lights, it's probably bedtime", Mood::Conditional),
        // Negations however spelt.
        ("don t turn off the den lights", Mood::Negated),
        ("pls don\u{201b}t turn off the den lights", Mood::Negated),
        ("don\"t turn off the den lights", Mood::Negated),
        ("don\u{201c}t turn off the den lights", Mood::Negated),
        ("shouldnt turn off the den lights", Mood::Negated),
        ("mustnt turn off the den lights", Mood::Negated),
        ("dotn turn off the den lights", Mood::Negated),
        ("nevr turn off the den lights", Mood::Negated),
        ("needn't turn off the den lights", Mood::Negated),
        ("d\u{f3}n't turn off the den lights", Mood::Negated),
        ("do n\u{f3}t turn off the den lights", Mood::Negated),
        ("turn off the den lights \u{fc}nless I'm home", Mood::Conditional),
        // Letters the mood cannot read, and pictographs.
        ("do n\u{f8}t turn off the den lights", Mood::Unclear),
        ("\u{1d05}\u{1d0f}\u{274}'\u{1d1b} turn off the den lights", Mood::Unclear),
        ("turn off the den lights \u{1f602}", Mood::Unclear),
        ("\u{2611} turn off the den lights", Mood::Unclear),
        // Jokes and taking back.
        ("turn off the den lights hahaha", Mood::TakenBack),
        ("turn off the den lights ahaha", Mood::TakenBack),
        ("turn off the den lights lmao", Mood::TakenBack),
        ("turn off the den lights (sarcasm)", Mood::TakenBack),
        ("turn off the den lights, strike that", Mood::TakenBack),
        ("turn off the den lights, changed my mind", Mood::TakenBack),
        // Said to someone else, noted, left to someone, told.
        ("hey bob, turn off the den lights", Mood::Remark),
        ("guys turn off the den lights", Mood::Remark),
        ("honey can you turn off the den lights", Mood::Remark),
        ("bob can you turn off the den lights", Mood::Remark),
        ("@bob turn off the den lights", Mood::Remark),
        ("reminder turn off the den lights", Mood::Remark),
        ("steps to turn off the den lights", Mood::Remark),
        ("[ ] turn off the den lights", Mood::Remark),
        ("let the kids turn off the den lights", Mood::Remark),
        ("lemme turn off the den lights", Mood::Remark),
        ("want me to turn off the den lights", Mood::Remark),
        ("turn off the den lights, she insisted", Mood::Remark),
        ("bob turn off the den lights", Mood::Remark),
        ("turn off the den lights hahah", Mood::TakenBack),
        ("turn off the den lights lolol", Mood::TakenBack),
        ("turn off the den lights lmaoo", Mood::TakenBack),
        ("turn off the den lights every weeknight", Mood::Conditional),
        ("turn off the den lights the instant I leave", Mood::Conditional),
        ("friendly reminder turn off the den lights", Mood::Remark),
        ("im gonna turn off the den lights", Mood::Remark),
        ("text mum I switched the bedroom lights off", Mood::Remark),
        ("email Tom to turn off the office lights", Mood::Remark),
        ("tell Sarah I set a timer for 20 minutes", Mood::Remark),
        // The scene before the comma keeps what holds it.
        ("we're leaving, turn off the den lights when we go", Mood::Conditional),
        ("my wife texted, turn off the den lights", Mood::Remark),
        // A request before the comma is no scene: what follows takes it back or asks for more.
        ("turn off the den lights, cancel it", Mood::TakenBack),
        ("anyone still up, turn off the kitchen lights", Mood::Remark),
        ("whoever is in the kitchen, turn the lights off", Mood::Remark),
    ] {
        assert_eq!(mood(said), read, "{said}");
    }
    for said in [
        "hey evoke, turn off the den lights",
        "can you turn off the den lights",
        "please can you turn off the den lights",
        "let's turn off the den lights",
        "turn off every kitchen light",
        "turn off the den lights, please proceed",
        "turn off the lights in the caf\u{e9}",
        "won't you turn off the den lights",
        "turn off the den lights, you always forget",
        "turn on the water heater",
        // A command of its own: `cancel it` asks to cancel.
        "cancel it",
        "can you cancel it",
        "turn off the den lights for Avery",
        "btw turn off the den lights",
        "we're about to eat, turn on the kitchen lights",
        "ugh, turn off the den lights",
        "water's boiling, set a timer for 8 minutes",
        "it's too bright in here, dim the den to 30 percent",
        "timer set 10 min",
        "turn off the den lights before I forget",
        "before I forget, turn off the den lights",
        "quick, turn off the den lights",
        "turn off the den lights, goodnight",
        "note \"dune\"",
        "allow notifications from the bank",
        "mom's birthday reminder",
    ] {
        assert_eq!(mood(said), Mood::Request, "{said}");
    }
}

#[test]
fn a_won_t_without_you_after_it_is_a_request_not_to() {
    // An attack ran both writes: the mood passed over every `won't`, meant for `won't you …`.
    for said in [
        "won't lock the front door",
        "wont lock the front door",
        "won\u{2019}t lock the front door",
        "lock the front door now then won't close the garage gate",
        "won't close the garage gate, please",
    ] {
        assert_eq!(mood(said), Mood::Negated, "{said}");
    }
    for said in ["won't you lock the front door", "lock the front door, won't you?", "wont u lock the front door"] {
        assert_eq!(mood(said), Mood::Request, "{said}");
    }
}

#[test]
fn a_sentence_of_many_commas_is_read_without_deep_recursion() {
    // A scene is read once, not again for every comma before it: 2,000 characters of `it is late, `
    // took 0.8 s in a debug build and 24,000 overflowed the stack.
    let mut said = String::new();
    while said.len() < 24_000 {
        said.push_str("it is late, ");
    }
    said.push_str("turn off the den lights");
    assert_eq!(mood(&said), Mood::Request);
}
