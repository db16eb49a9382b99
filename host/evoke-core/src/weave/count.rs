//! 003's `count`: whether a sentence that could be cut asks one thing. Its parts say so when one of them
//! finds a reflex and every other asks for nothing: an aside by its words alone (`can you tell me`, `do
//! you know`, `when's the`), or a remark on the speaker's own doing (`i'll be back at 5`). The weaver then
//! decides the sentence whole, and it stands as one input when that decision acts on the same reflex.
//! A part that states something (`this was fun`) or asks to be told of a result (`tell me what number it
//! is`) acts on nothing, whatever reflex its words found alone.
//!
//! A part that matched nothing but points back at what another asks (`roll a die, tell me the result
//! of it`, `call me an uber, have it here at 7`) may add a detail to that step (003's `detail`): the
//! sentence stands as one too, but the call it comes to is held for a person, never run, since those
//! words are read by nothing. A part with words of its own that point at nothing (`order a large
//! pizza`) may ask for something else: a plan with such a part is refused whole rather than half done. Two parts that
//! find the same reflex stay two steps (`turn off the living room lights and lock the front door`, both
//! a home reflex's): with no value between them to tell them apart, the words may still ask two things.

use super::Part;
use crate::decision::{Decision, Outcome};
use crate::words::{is_stop, words};
use serde::Serialize;

/// One entry of the words that point back: its words (a phrase's separated by one space), and whether it
/// may name what an earlier step found, as `it`, `them` and `that report` do (000's binding), where `this`
/// or `one` point at a thing said, never at a result.
pub(crate) struct Pointing {
    pub words: &'static str,
    pub result: bool,
}

/// Words that point back at a thing said elsewhere in the sentence, or at what an earlier step found: the
/// one list every rule of the weave reads that asks whether words point back (a detail, a merge, a share, a
/// bind, `refs`). An engine reads the words its own way.
pub(crate) const POINTING: &[Pointing] = &[
    Pointing { words: "it", result: true },
    Pointing { words: "its", result: false },
    Pointing { words: "them", result: true },
    Pointing { words: "they", result: false },
    Pointing { words: "that", result: true },
    Pointing { words: "this", result: false },
    Pointing { words: "those", result: true },
    Pointing { words: "these", result: false },
    Pointing { words: "one", result: false },
    Pointing { words: "the result", result: true },
    Pointing { words: "that report", result: true },
];

/// Words that point at several things said before them: a step is written for each (003's `pointed`).
const POINTING_AT_SEVERAL: &[&str] = &["both", "them", "each"];

/// The word of a part that points at several things said before it, as typed (`turn both off`). A word
/// inside a quote or a typed span (`a 'check each' timer`) points at nothing.
pub fn points_at_several(text: &str) -> Option<String> {
    let spans = crate::recognize::recognize(text);
    let covered = |w: &crate::words::Word| spans.iter().any(|c| c.span.start < w.end && w.start < c.span.end);
    let word = words(text).into_iter().find(|w| POINTING_AT_SEVERAL.contains(&w.lower.as_str()) && !covered(w))?;
    Some(text.chars().skip(word.start).take(word.end - word.start).collect())
}

/// A sentence read as asking one thing.
#[derive(Debug, Clone, PartialEq)]
pub struct One {
    /// The reflex its one acting part found.
    pub reflex: String,
    /// Whether a part may add a detail no call reads, so the call is held for a person.
    pub detail: bool,
    /// The parts that ask for nothing, in the sentence's order.
    pub asides: Vec<Aside>,
}

/// 003's `count`: how surely a sentence that could be cut asks one thing, and whether it stands as one.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Count {
    /// The least sure of its places to join words of one request: the engine's `no` at the place least
    /// likely to join. Places are not multiplied, as two views are not: the weakest says how sure the whole is.
    pub one: f64,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub as_one: bool,
}

impl Count {
    /// The count of a sentence cut at these places (`p` of each the engine's yes).
    pub fn of(splits: &[super::Split], as_one: bool) -> Option<Count> {
        let one = splits.iter().map(|s| s.no).reduce(f64::min)?;
        // Six places: an engine's share is never finer, and `1 - 0.9` prints as the 0.1 it stands for.
        Some(Count { one: (one * 1e6).round() / 1e6, as_one })
    }
}

/// A part that asks for nothing (003's `asides`): a remark set aside, or words that may add a detail to
/// the step they point back at.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Aside {
    pub text: String,
    /// `true` for a remark set aside; `false` for words that may add a detail no call reads.
    pub remark: bool,
    /// Why the part was set aside by its words alone: `courtesy`, the words a request is phrased in, or
    /// `own`, a remark on the speaker's own doing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<AsideBy>,
    /// The engine's share of each answer to `weave.aside_<start>_<end>`, where its words alone did not
    /// set the part aside and the engine was asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub does: Option<Does>,
}

/// 003's `does`: the engine's share of each answer to what a part does in the whole sentence.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Does {
    /// It asks for nothing: a courtesy or a remark.
    pub aside: f64,
    /// It adds a detail to what the rest of the sentence asks.
    pub detail: f64,
    /// It asks a thing of its own.
    pub asks: f64,
}

/// The answers to a part's question, and the one an engine that cannot tell falls back to.
pub const ASIDE: &str = "aside";
pub const DETAIL: &str = "detail";
pub const ASKS: &str = "asks";

impl Does {
    /// The shares an engine gave, each as it was answered.
    pub fn of(answer: &crate::validate::Distribution) -> Does {
        Does { aside: answer.p(ASIDE), detail: answer.p(DETAIL), asks: answer.p(ASKS) }
    }
}

/// The question asked of a part its words leave open, under the whole sentence: what it does there.
pub fn aside_question(part: &Part) -> crate::question::Question {
    use crate::question::{Options, Question, Text};
    let options = vec![
        (ASIDE.to_string(), Text::Plain("They ask for nothing: a courtesy, or a remark on something else.".into())),
        (DETAIL.to_string(), Text::Plain("They add a detail to what the rest of the request asks for.".into())),
        (ASKS.to_string(), Text::Plain("They ask for a thing of their own.".into())),
    ];
    Question::Choice {
        ask: format!("What do the words \"{}\" at {}-{} do in the request?", part.text, part.start, part.end),
        options: Options(options),
        otherwise: Some(ASKS.into()),
    }
}

/// What set a part aside by its words alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AsideBy {
    /// Every word is one a request is phrased in: `can you please`, `do you know`.
    Courtesy,
    /// A remark telling of the speaker's own doing: `i'm heading out`, `we'll be back at 5`.
    Own,
}

/// The one reflex the parts find, when the sentence may ask only that. `names_a_value` says whether a
/// part's words name a value of that reflex (a word of its lists, or a typed span of a kind it picks): such
/// a part says a thing of its own (`one
/// for 10 minutes`, `do this for the office too`), so it is no detail, whatever word points back.
///
/// A part the words leave open (words of its own that point at nothing, or small words that are not only
/// a request's phrasing) is the engine's to read, by `does`, its answer to [`aside_question`] where it was
/// asked: where the engine reads it as asking at least as likely as not, or no less likely than the rest
/// together, a thing asked that no reflex found; otherwise the call waits for a person who sees its words,
/// listed as a remark where the engine set it aside at `bar` and as a detail otherwise. Unasked, such a
/// part asks a thing of its own.
pub fn one_reflex(
    parts: &[(&Part, &Decision)],
    names_a_value: &dyn Fn(&str, &str) -> bool,
    does: &dyn Fn(&Part) -> Option<Does>,
    bar: f64,
) -> Option<One> {
    let reflex = acting_reflex(parts)?;
    let courtesy_until = courtesy_until(parts);
    let mut detail = false;
    let mut asides = Vec::new();
    for (part, _) in parts.iter().filter(|(p, d)| !acts(p, d)) {
        let aside =
            |remark: bool, by: Option<AsideBy>, does: Option<Does>| Aside { text: part.text.clone(), remark, by, does };
        match by_words(part, part.start < courtesy_until, &reflex, names_a_value) {
            Words::Courtesy => asides.push(aside(true, Some(AsideBy::Courtesy), None)),
            Words::Own => asides.push(aside(true, Some(AsideBy::Own), None)),
            Words::Asks => return None,
            Words::Detail => {
                detail = true;
                asides.push(aside(false, None, None));
            }
            // Words the engine read never let the call run on their own: it waits for a person who sees
            // them, a remark where the engine set them aside at `bar`, a detail otherwise.
            Words::Open => {
                let read = does(part)?;
                if read.asks >= 0.5 || read.asks >= read.aside + read.detail {
                    return None;
                }
                detail = true;
                asides.push(aside(read.aside >= bar, None, Some(read)));
            }
        }
    }
    Some(One { reflex, detail, asides })
}

/// The offset a courtesy must stand before, in characters: the start of the part that acts, or none
/// where an order word joins that part to what comes before it (`tell me, then turn off the den lights`
/// asks to be told first).
fn courtesy_until(parts: &[(&Part, &Decision)]) -> usize {
    let Some((acting, _)) = parts.iter().find(|(p, d)| acts(p, d)) else { return 0 };
    let ordered = acting.connective.as_deref().is_some_and(|c| {
        words(c).iter().any(|w| matches!(w.lower.as_str(), "then" | "next" | "after" | "afterwards" | "finally"))
    });
    if ordered { 0 } else { acting.start }
}

/// Whether a part acts: it found a reflex, and it states nothing. A statement (`this was fun`, `the den
/// is dark`) asks for nothing, whatever reflex its words are near: it is read as a part that found
/// nothing is, by its words and then by the engine, and never swallows a request, since a value of the
/// acting reflex in it still asks.
/// So is a part that asks to be told of what an earlier one finds (`tell me what number it is`): it asks
/// for a result, which the step it points back at gives.
fn acts(part: &Part, decision: &Decision) -> bool {
    decision.outcome != Outcome::Abstain && !crate::mood::states(&part.text) && !asks_for_a_result(&part.text)
}

/// Whether a part asks to be told of a result: it opens with a courtesy that asks to be told, and points
/// back with words that may name what a step found (`it`, `them`, `the result`), or says nothing more
/// (`and let me know`).
fn asks_for_a_result(text: &str) -> bool {
    crate::mood::asks_to_be_told(text)
        && (pointing_words(text, true).is_some() || crate::mood::only_asks_to_be_told(text))
}

/// The reflex of the one part that acts, where exactly one does.
fn acting_reflex(parts: &[(&Part, &Decision)]) -> Option<String> {
    let acting: Vec<&Decision> = parts.iter().filter(|(p, d)| acts(p, d)).map(|(_, d)| *d).collect();
    let [one] = acting.as_slice() else { return None };
    one.reflex.clone()
}

/// What a part that found nothing is by its words alone.
enum Words {
    /// Every word is one a request is phrased in.
    Courtesy,
    /// A remark on the speaker's own doing.
    Own,
    /// A thing of its own: a question, or a value of the acting reflex.
    Asks,
    /// Small words that point back at the request: a detail.
    Detail,
    /// Words of its own that point at nothing: the engine reads them.
    Open,
}

fn by_words(part: &Part, before: bool, reflex: &str, names_a_value: &dyn Fn(&str, &str) -> bool) -> Words {
    let small_words = aside_by_words(&part.text);
    let back = points_back(&part.text);
    // Only the words a request is phrased in: small words that say a place or an act (`let me in`, `then
    // up`) are left to the engine, which may read them as asking.
    if crate::mood::courtesy(&part.text, before) && !back {
        return Words::Courtesy;
    }
    // A remark on what the speaker does (`i'll be back at 5`) asks for nothing: the request beside it
    // is decided whole, so the remark's words are read back with it and hold a write for a yes.
    if crate::mood::own_doing(&part.text) && !back {
        return Words::Own;
    }
    // A question asks a thing of its own (`which track is this, then add it to my playlist`): it is a
    // request the engine did not find, never a detail, and an aside never swallows a request. Small words
    // that point back (`what is that`, `what is it at`) say too little to tell a question of their own
    // from the request's own words: a detail, so the call waits for a person rather than runs.
    // Asking to be told of what the request finds (`tell me what number it is`) asks for its result: a
    // detail, though its words ask a question.
    if asks_for_a_result(&part.text) && !names_a_value(reflex, &part.text) {
        return Words::Detail;
    }
    let question = crate::mood::mood(&part.text) == crate::mood::Mood::Question && !small_words;
    if question || names_a_value(reflex, &part.text) {
        return Words::Asks;
    }
    if back { Words::Detail } else { Words::Open }
}

/// The parts whose words leave open what they do, where one other part acts: the engine is asked of each.
pub fn open_parts<'p>(parts: &[(&'p Part, &Decision)], names_a_value: &dyn Fn(&str, &str) -> bool) -> Vec<&'p Part> {
    let Some(reflex) = acting_reflex(parts) else { return Vec::new() };
    let courtesy_until = courtesy_until(parts);
    let read = |p: &Part| by_words(p, p.start < courtesy_until, &reflex, names_a_value);
    let abstaining = parts.iter().filter(|(p, d)| !acts(p, d));
    let open: Vec<&Part> =
        abstaining.clone().filter(|(p, _)| matches!(read(p), Words::Open)).map(|(p, _)| *p).collect();
    // A part that asks by its words refuses the sentence as one whatever the engine says of the others.
    if abstaining.clone().any(|(p, _)| matches!(read(p), Words::Asks)) {
        return Vec::new();
    }
    open
}

/// Whether a part's words point back at something said elsewhere (`have it here at 7`).
pub fn points_back(text: &str) -> bool {
    pointing_words(text, false).is_some()
}

/// Words of a text that point back: where they stand, in characters, and which word they start at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pointed {
    pub start: usize,
    pub end: usize,
    /// The index of their first word among the text's words.
    pub word: usize,
}

/// The first words of `text` that point back (with `results`, only those that may name a result): the
/// longest entry where two start at one word (`that report` over `that`).
pub fn pointing_words(text: &str, results: bool) -> Option<Pointed> {
    let said = words(text);
    for (i, w) in said.iter().enumerate() {
        let mut found: Option<Pointed> = None;
        for entry in POINTING.iter().filter(|e| e.result || !results) {
            let parts: Vec<&str> = entry.words.split(' ').collect();
            let here = said.get(i..i + parts.len());
            if here.is_some_and(|ws| ws.iter().zip(&parts).all(|(w, p)| w.lower == *p))
                && found.is_none_or(|f| said[i + parts.len() - 1].end > f.end)
            {
                found = Some(Pointed { start: w.start, end: said[i + parts.len() - 1].end, word: i });
            }
        }
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Whether a part's words all carry nothing of their own: the words a request is phrased in, never one
/// that names a thing or an act.
pub fn aside_by_words(text: &str) -> bool {
    words(text).iter().all(is_stop)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(text: &str) -> Part {
        Part { start: 0, end: text.chars().count(), text: text.into(), connective: None }
    }

    fn decided(outcome: Outcome, reflex: Option<&str>) -> Decision {
        super::super::tests::decision("", outcome, reflex, None, crate::decision::Args::default())
    }

    #[test]
    fn a_part_that_found_a_reflex_acts_unless_it_states_or_asks_for_a_result() {
        let confirmed = decided(Outcome::Confirm, Some("fun_fact"));
        for text in [
            "this was fun",
            "the party was great",
            "tell me what number it is",
            "and let me know when it rings",
            "and tell me",
        ] {
            assert!(!acts(&part(text), &confirmed), "{text}");
        }
        for text in
            ["the ac temperature", "email them about lunch", "my card snapped so report it", "tell me the weather"]
        {
            assert!(acts(&part(text), &confirmed), "{text}");
        }
        assert!(!acts(&part("the ac temperature"), &decided(Outcome::Abstain, None)));
    }

    #[test]
    fn a_courtesy_beside_one_request_asks_one_thing() {
        let (a, mut b) = (part("can you tell me"), part("what is the meaning of life"));
        b.start = 17;
        let (da, db) = (decided(Outcome::Abstain, None), decided(Outcome::Run, Some("meaning_of_life")));
        let aside = Aside { text: "can you tell me".into(), remark: true, by: Some(AsideBy::Courtesy), does: None };
        let one = One { reflex: "meaning_of_life".into(), detail: false, asides: vec![aside] };
        assert_eq!(one_reflex(&[(&a, &da), (&b, &db)], &|_, _| false, &|_| None, 0.9), Some(one));
    }

    #[test]
    fn a_courtesy_alone_after_the_request_asks_for_its_result_a_detail() {
        let (a, mut b) = (part("set a timer for 5 minutes"), part("then tell me"));
        b.start = 27;
        let (da, db) = (decided(Outcome::Run, Some("timer")), decided(Outcome::Abstain, None));
        assert!(open_parts(&[(&a, &da), (&b, &db)], &|_, _| false).is_empty(), "no question of the engine");
        let aside = Aside { text: "then tell me".into(), remark: false, by: None, does: None };
        let one = One { reflex: "timer".into(), detail: true, asides: vec![aside] };
        assert_eq!(one_reflex(&[(&a, &da), (&b, &db)], &|_, _| false, &|_| None, 0.9), Some(one));
    }

    #[test]
    fn a_courtesy_an_order_word_joins_to_the_request_is_a_detail_not_a_courtesy() {
        let (a, mut b) = (part("tell me"), part("turn off the den lights"));
        (b.start, b.connective) = (14, Some("then".into()));
        let (da, db) = (decided(Outcome::Abstain, None), decided(Outcome::Run, Some("lights")));
        let one = one_reflex(&[(&a, &da), (&b, &db)], &|_, _| false, &|_| None, 0.9).expect("one thing");
        assert!(one.detail, "the call waits for a person");
        // Before the request with no order word, the words only phrase it.
        b.connective = Some(",".into());
        let one = one_reflex(&[(&a, &da), (&b, &db)], &|_, _| false, &|_| None, 0.9).expect("one thing");
        assert!(!one.detail);
        assert_eq!(one.asides[0].by, Some(AsideBy::Courtesy));
    }

    #[test]
    fn a_part_with_a_word_of_its_own_is_never_set_aside() {
        let (a, b) = (part("turn off the den lights"), part("feed the cat"));
        let (da, db) = (decided(Outcome::Run, Some("lights")), decided(Outcome::Abstain, None));
        assert_eq!(one_reflex(&[(&a, &da), (&b, &db)], &|_, _| false, &|_| None, 0.9), None);
    }

    #[test]
    fn a_part_that_points_back_is_a_detail_held_for_a_person() {
        let (a, b) = (part("roll a 6 sided die"), part("tell me the result of it"));
        let (da, db) = (decided(Outcome::Run, Some("roll_dice")), decided(Outcome::Abstain, None));
        let aside = Aside { text: "tell me the result of it".into(), remark: false, by: None, does: None };
        let one = One { reflex: "roll_dice".into(), detail: true, asides: vec![aside] };
        assert_eq!(one_reflex(&[(&a, &da), (&b, &db)], &|_, _| false, &|_| None, 0.9), Some(one));
    }

    fn read(aside: f64, detail: f64, asks: f64) -> Does {
        Does { aside, detail, asks }
    }

    #[test]
    fn a_part_the_words_leave_open_is_the_engines_to_read() {
        let (a, b) = (part("get me a car for march 1st"), part("i'd like a sedan if possible"));
        let (da, db) = (decided(Outcome::Run, Some("car_rental")), decided(Outcome::Abstain, None));
        let parts = [(&a, &da), (&b, &db)];
        assert_eq!(open_parts(&parts, &|_, _| false), vec![&b]);
        // Unasked, the part asks a thing of its own.
        assert_eq!(one_reflex(&parts, &|_, _| false, &|_| None, 0.9), None);
        let detail = one_reflex(&parts, &|_, _| false, &|_| Some(read(0.05, 0.9, 0.05)), 0.9).expect("one");
        assert!(detail.detail);
        assert_eq!(detail.asides[0].does, Some(read(0.05, 0.9, 0.05)));
        assert!(!detail.asides[0].remark);
        // Set aside by the engine, the part is a remark, and the call still waits for a person.
        let remark = one_reflex(&parts, &|_, _| false, &|_| Some(read(0.95, 0.03, 0.02)), 0.9).expect("one");
        assert!(remark.detail && remark.asides[0].remark);
        let under = one_reflex(&parts, &|_, _| false, &|_| Some(read(0.6, 0.1, 0.3)), 0.9).expect("one");
        assert!(under.detail && !under.asides[0].remark);
        assert_eq!(one_reflex(&parts, &|_, _| false, &|_| Some(read(0.05, 0.4, 0.55)), 0.9), None);
        // A tie between asking and the rest asks.
        assert_eq!(one_reflex(&parts, &|_, _| false, &|_| Some(read(0.5, 0.0, 0.5)), 0.9), None);
    }

    #[test]
    fn a_part_that_asks_by_its_words_leaves_nothing_for_the_engine() {
        let (a, b, c) = (part("get me a car"), part("which one is cheapest"), part("i'd like a sedan"));
        let (da, db, dc) = (
            decided(Outcome::Run, Some("car_rental")),
            decided(Outcome::Abstain, None),
            decided(Outcome::Abstain, None),
        );
        assert!(open_parts(&[(&a, &da), (&b, &db), (&c, &dc)], &|_, _| false).is_empty());
        assert!(open_parts(&[(&a, &da), (&c, &dc)], &|_, _| true).is_empty());
    }

    fn split(no: f64) -> super::super::Split {
        super::super::Split { start: 0, end: 1, text: ",".into(), cut: no < 0.5, p: 1.0 - no, no }
    }

    #[test]
    fn a_count_is_as_sure_as_its_likeliest_place_to_cut() {
        let count = Count::of(&[split(0.9), split(0.3), split(0.8)], false).expect("places");
        assert_eq!(count.one, 0.3);
        assert_eq!(Count::of(&[], true), None);
    }

    #[test]
    fn a_part_pointing_back_that_names_a_value_of_its_own_is_no_detail() {
        let (a, b) = (part("set a timer for 5 minutes"), part("one for 10 minutes"));
        let (da, db) = (decided(Outcome::Run, Some("timer")), decided(Outcome::Abstain, None));
        let names = |_: &str, text: &str| text.contains("10 minutes");
        assert_eq!(one_reflex(&[(&a, &da), (&b, &db)], &names, &|_| None, 0.9), None);
    }

    #[test]
    fn two_reflexes_are_two_things() {
        let (a, b) = (part("turn off the den lights"), part("set a timer for 5 minutes"));
        let (da, db) = (decided(Outcome::Run, Some("lights")), decided(Outcome::Run, Some("timer")));
        assert_eq!(one_reflex(&[(&a, &da), (&b, &db)], &|_, _| false, &|_| None, 0.9), None);
    }

    #[test]
    fn one_reflex_found_twice_is_two_things() {
        let (a, b) = (part("turn off the living room lights"), part("lock the front door"));
        let da = decided(Outcome::Confirm, Some("smart_home"));
        let db = decided(Outcome::Run, Some("smart_home"));
        assert_eq!(one_reflex(&[(&a, &da), (&b, &db)], &|_, _| false, &|_| None, 0.9), None);
    }

    #[test]
    fn parts_that_find_nothing_ask_nothing_of_one() {
        let (a, b) = (part("can you"), part("do it"));
        let (da, db) = (decided(Outcome::Abstain, None), decided(Outcome::Abstain, None));
        assert_eq!(one_reflex(&[(&a, &da), (&b, &db)], &|_, _| false, &|_| None, 0.9), None);
    }
}
