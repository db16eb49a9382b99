//! One input read into one outcome: bound the input, find the candidate spans, ask in rounds, read the
//! answers into judgments, gate them. The adapter call happens between rounds, outside this module: the
//! [`Decider`] hands out each round's questions and takes back validated answers, so everything here is
//! pure and a recording replays it byte for byte.

use crate::adapter::Gate;
use crate::catalog::{Catalog, Reflex};
use crate::decision::{
    Args, Bases, Basis, Because, Choices, Contender, Decision, Judgment, Missing, MissingBecause, Outcome, PickReading,
    Prompt, Quote, Texts, Value, call_line,
};
use crate::gate::{Complete, abstains, confirm_reasons};
use crate::manifest::{Arg, Effect, Source, fill};
use crate::mood::{Mood, mood, within};
use crate::question::{self, NONE, QuestionId, Questions, UNSTATED, YES};
use crate::readback::Does;
use crate::recognize::{Candidate, PickKind, PickValue, Span, recognize};
use crate::text::{Unclean, check_clean};
use crate::validate::{Answers, Distribution};
use crate::weave::two_things::may_ask_two_things;
use serde::Serialize;

/// The longest input a decision reads, in characters.
pub const MAX_INPUT_CHARS: usize = 2000;

/// An input refused before any question was asked.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Refusal {
    /// Nothing but whitespace: there is nothing to ask an engine about.
    Empty,
    TooLong {
        chars: usize,
        limit: usize,
    },
    /// Bytes that are not UTF-8 (a line of the filter), from this byte offset.
    NotUtf8 {
        at: usize,
    },
    ControlCharacter {
        at: usize,
        code: String,
    },
    BidiControl {
        at: usize,
        code: String,
    },
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Empty => write!(f, "the input is empty; say what you want: evoke \"turn on the kitchen lights\""),
            Refusal::TooLong { chars, limit } => {
                write!(f, "the input is {chars} characters; evoke reads at most {limit}")
            }
            Refusal::NotUtf8 { at } => {
                write!(f, "the input is not UTF-8 text from byte offset {at} (counting from 0); send it as UTF-8")
            }
            Refusal::ControlCharacter { at, code } => {
                write!(f, "the input holds the control character {code} at character {}", at + 1)
            }
            Refusal::BidiControl { at, code } => {
                write!(f, "the input holds the bidi control {code} at character {}", at + 1)
            }
        }
    }
}

/// The bounds of a decision's input, checked before anything else: at most 2,000 characters, clean text, and
/// that it says something.
pub fn bound(input: &str) -> Result<(), Refusal> {
    bound_value(input)?;
    // Checked last, so that whitespace holding a control character is refused for the character. An empty
    // input would otherwise be sent to the engine, which can only guess at it. Whitespace and invisible
    // format characters (a zero-width space, a byte-order mark) say nothing, so an input of only those is
    // as empty.
    if crate::text::is_blank(input) {
        return Err(Refusal::Empty);
    }
    Ok(())
}

/// The rules every text a call carries meets, whether it came in a sentence or was given by name
/// (`evoke run timer label=…`): at most 2,000 characters, and clean text, so that no value can repaint
/// the confirm line it is shown in.
pub fn bound_value(input: &str) -> Result<(), Refusal> {
    let chars = input.chars().count();
    if chars > MAX_INPUT_CHARS {
        return Err(Refusal::TooLong { chars, limit: MAX_INPUT_CHARS });
    }
    match check_clean(input, false) {
        Ok(()) => {}
        Err(Unclean::Control { at, ch }) => {
            return Err(Refusal::ControlCharacter { at, code: format!("U+{:04X}", ch as u32) });
        }
        Err(Unclean::Bidi { at, ch }) => return Err(Refusal::BidiControl { at, code: format!("U+{:04X}", ch as u32) }),
    }
    Ok(())
}

enum Stage {
    Route,
    Details {
        winner: String,
        route: Distribution,
        questions: Questions,
        /// The spans round two offered: the typed spans, and the winner's texts typed without quotes.
        offered: Vec<Candidate>,
        /// The words that name a value of another reflex than the winner.
        elsewhere: std::collections::HashSet<String>,
    },
    /// A complete call whose values that stand on one view are asked again of their words alone.
    Alone {
        decision: Box<Decision>,
        anchors: Vec<crate::anchor::Anchor>,
        questions: Questions,
    },
    Done(Box<Decision>),
}

/// A decision in progress.
pub struct Decider<'c> {
    catalog: &'c Catalog,
    gate: Option<Gate>,
    input: String,
    /// The whole sentence, where this input is a part of one.
    sentence: Option<String>,
    candidates: Vec<Candidate>,
    /// The question that chose the reflex: the route, or a question asked in its place (a woven part
    /// judged by `weave.span_*`).
    route_id: QuestionId,
    stage: Stage,
}

impl<'c> Decider<'c> {
    /// Bounds the input and finds its candidate spans. `gate` is the adapter's, with the user's moves.
    pub fn new(catalog: &'c Catalog, gate: Option<Gate>, input: &str) -> Result<Self, Refusal> {
        bound(input)?;
        let candidates = recognize(input);
        let mut decider = Decider {
            catalog,
            gate,
            input: input.to_string(),
            sentence: None,
            candidates,
            route_id: QuestionId::Route,
            stage: Stage::Route,
        };
        if catalog.reflexes().is_empty() {
            // Nothing is installed: there is nothing to ask.
            let decision = decider.abstain(Vec::new(), Vec::new());
            decider.stage = Stage::Done(Box::new(decision));
        }
        Ok(decider)
    }

    /// Decides this input as a part of `sentence`, whose taking back reaches every part (`within`).
    pub fn within(mut self, sentence: &str) -> Self {
        self.sentence = Some(sentence.to_string());
        self
    }

    pub fn candidates(&self) -> &[Candidate] {
        &self.candidates
    }

    /// Takes the reflex from `route`, the answer to the question `id` asked in the route's place (a woven
    /// part judged by the reflex the whole sentence gives its words), and goes on to the details: the
    /// decision judges the reflex by `id`.
    pub fn routed(mut self, id: QuestionId, route: Distribution) -> Self {
        if matches!(self.stage, Stage::Route) {
            self.route_id = id.clone();
            let answers: Answers = [(id, route)].into_iter().collect();
            self.stage = self.after_route(&answers);
        }
        self
    }

    /// The next round's questions, or `None` once decided.
    pub fn questions(&self) -> Option<&Questions> {
        match &self.stage {
            Stage::Route => Some(self.catalog.route_round()),
            Stage::Details { questions, .. } | Stage::Alone { questions, .. } => Some(questions),
            Stage::Done(_) => None,
        }
    }

    pub fn decision(&self) -> Option<&Decision> {
        match &self.stage {
            Stage::Done(decision) => Some(decision),
            _ => None,
        }
    }

    /// Takes a round's validated answers; returns the decision once there is one.
    pub fn feed(&mut self, answers: &Answers) -> Option<&Decision> {
        let stage = std::mem::replace(&mut self.stage, Stage::Route);
        self.stage = match stage {
            Stage::Route => self.after_route(answers),
            Stage::Details { winner, route, offered, elsewhere, .. } => {
                let decision = self.after_details(&winner, route, answers, &offered, elsewhere);
                let anchors = crate::anchor::anchors(&decision);
                let questions = crate::anchor::round(self.catalog, &decision, &anchors);
                if questions.0.is_empty() {
                    Stage::Done(Box::new(decision))
                } else {
                    Stage::Alone { decision: Box::new(decision), anchors, questions }
                }
            }
            Stage::Alone { decision, anchors, .. } => {
                let (gate, candidates) = (self.gate.as_ref(), &self.candidates);
                Stage::Done(Box::new(crate::anchor::apply(
                    self.catalog,
                    gate,
                    candidates,
                    *decision,
                    &anchors,
                    answers,
                )))
            }
            done @ Stage::Done(_) => done,
        };
        self.decision()
    }

    fn ranked(&self, route: &Distribution) -> Vec<(&'c str, f64)> {
        let catalog: &'c Catalog = self.catalog;
        // The route's keys are the reflexes in install order, then `none`: read them side by side
        // rather than looking each name up.
        let mut ranked: Vec<(&'c str, f64)> = catalog
            .reflexes()
            .iter()
            .zip(&route.0)
            .map(|(r, (key, p))| (r.name.as_str(), if *key == r.name { *p } else { route.p(&r.name) }))
            .collect();
        // Descending by p; ties by name, so the ranking does not depend on install order.
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        ranked
    }

    /// The route's top. `none` leads only when no reflex has as much (it is offered last, so a tie goes to
    /// the reflex); otherwise the top is the first contender of [`Self::ranked`], so that the winner, the
    /// runner-up and the contenders all come from one order and a tie can never name one reflex twice.
    fn route_top(&self, route: &Distribution) -> (String, f64) {
        let (top, p) = route.top();
        if top == NONE {
            return (top.to_string(), p);
        }
        match self.ranked(route).first() {
            Some((name, p)) => (name.to_string(), *p),
            None => (top.to_string(), p),
        }
    }

    fn after_route(&mut self, answers: &Answers) -> Stage {
        let Some(route) = answers.get(&self.route_id).cloned() else {
            return Stage::Done(Box::new(self.abstain(Vec::new(), Vec::new())));
        };
        let (top, p) = self.route_top(&route);
        let top = top.as_str();
        let route_judgment = Judgment { question: self.route_id.clone(), top: top.to_string(), p };
        let ranked = self.ranked(&route);
        if abstains(self.gate.as_ref(), top, p, None) {
            let contenders =
                ranked.iter().map(|(r, p)| Contender { reflex: r.to_string(), route: *p, fits: None }).collect();
            return Stage::Done(Box::new(self.abstain(vec![route_judgment], contenders)));
        }
        let winner = top.to_string();
        let Some(reflex) = self.catalog.get(&winner) else {
            return Stage::Done(Box::new(self.abstain(vec![route_judgment], Vec::new())));
        };
        let fits_for = question::fits_asked(&ranked);
        // A text typed without quotes is offered beside the typed spans, for the winner alone.
        let elsewhere = values_elsewhere(self.catalog, reflex);
        let texts = crate::unquoted::texts(&self.input, reflex, &self.candidates, &elsewhere);
        let offered: Vec<Candidate> = self.candidates.iter().cloned().chain(texts).collect();
        let questions = question::round_two(self.catalog, reflex, &fits_for, &offered);
        Stage::Details { winner, route, questions, offered, elsewhere }
    }

    fn after_details(
        &self,
        winner: &str,
        route: Distribution,
        answers: &Answers,
        offered: &[Candidate],
        elsewhere: std::collections::HashSet<String>,
    ) -> Decision {
        let reflex = self.catalog.get(winner).expect("the winner is in the catalog");
        let (top, p) = self.route_top(&route);
        let top = top.as_str();
        let mut judgments = vec![Judgment { question: self.route_id.clone(), top: top.to_string(), p }];
        let contenders: Vec<Contender> = self
            .ranked(&route)
            .into_iter()
            .map(|(name, p)| {
                let fits = answers.get(&QuestionId::fits(name)).map(|d| d.p(YES));
                Contender { reflex: name.to_string(), route: p, fits }
            })
            .collect();

        let mut args = Args::default();
        let mut missing = Vec::new();
        let mut taken: Vec<Span> = Vec::new();
        for arg in &reflex.manifest.args {
            let id = QuestionId::arg(winner, &arg.name);
            let read = match answers.get(&id) {
                Some(answer) => {
                    let (top, p) = answer.top();
                    judgments.push(Judgment { question: id.clone(), top: top.to_string(), p });
                    let named_both = || matches!(arg.source, Source::Options(_)) && self.names_top_two(arg, answer);
                    if (matches!(arg.source, Source::Pick(_)) || named_both()) && self.unsettled(answer) {
                        missing.push(self.missing_unspared(reflex, arg, MissingBecause::Unsettled));
                        continue;
                    }
                    read_value(reflex, arg, top, offered)
                }
                None => Read::Unstated,
            };
            match read {
                // A value the sentence names only to spare it (`every light except the den`) is asked for,
                // its own key left out of the choices: a yes must never do what the person spared.
                Read::Value(Value::Word { word: key, .. } | Value::Option { key })
                    if self.spared(reflex, arg, &key) =>
                {
                    let mut asked = self.missing_unspared(reflex, arg, MissingBecause::Unstated);
                    asked.because = MissingBecause::Excluded { key: key.clone() };
                    missing.push(asked);
                }
                // An option said only where the sentence spares something tells how the spared thing is
                // left (`keep the den on, turn off the lights`), never how the call leaves the rest.
                Read::Value(Value::Option { key }) if self.said_only_where_spared(arg, &key) => {
                    let mut asked = self.missing(reflex, arg, MissingBecause::Excluded { key: key.clone() });
                    asked.choices = asked.choices.without(&key);
                    missing.push(asked);
                }
                // An option said only where the words state how things are (`the kitchen was left on, turn it
                // off`) tells what is, not what is asked: the person says which is meant, never a yes to it.
                Read::Value(Value::Option { key }) if self.said_only_where_stated(arg, &key) => {
                    missing.push(self.missing(reflex, arg, MissingBecause::Unsettled));
                }
                // A value typed inside what the sentence spares (`anything but 80`) is asked for too.
                Read::Value(Value::Pick { span, .. }) if self.spared_span(&span) => {
                    let mut asked = self.missing_unspared(reflex, arg, MissingBecause::Unstated);
                    asked.because = MissingBecause::Excluded { key: span.text.clone() };
                    missing.push(asked);
                }
                Read::Value(value) => {
                    if let Value::Pick { span, value: picked } = &value {
                        if let Some(range) = arg.range
                            && let Some(n) = picked.comparable().filter(|n| *n < range.0 || *n > range.1)
                        {
                            missing.push(self.missing(
                                reflex,
                                arg,
                                MissingBecause::OutOfRange { range: [range.0, range.1], value: n },
                            ));
                            continue;
                        }
                        taken.push(span.clone());
                    }
                    args.0.push((arg.name.clone(), value));
                }
                // A value asked for never offers back one the sentence spares, whatever the engine judged.
                Read::Unstated if arg.is_required() => {
                    missing.push(self.missing_unspared(reflex, arg, MissingBecause::Unstated))
                }
                // `none` says the input states a value that is not offered. Dropping an optional argument
                // would run the call without what the person said, so it is asked for like a required one.
                Read::NotOffered => missing.push(self.missing_unspared(reflex, arg, MissingBecause::NotOffered)),
                Read::Unstated | Read::Absent => {}
            }
        }
        let fits_yes = answers.get(&QuestionId::fits(winner)).map(|d| d.p(YES));
        if abstains(self.gate.as_ref(), top, p, fits_yes) {
            return self.abstain(judgments, contenders);
        }
        let unconsumed = self.unconsumed(&taken);
        settle(Reading {
            input: &self.input,
            candidates: &self.candidates,
            mood: mood_taking(&self.input, self.sentence.as_deref(), &taken_spans(&args)),
            two_things: may_ask_two_things(&self.input, &self.candidates, reflex),
            reflex,
            gate: self.gate.as_ref(),
            args,
            judgments,
            contenders,
            missing,
            unconsumed,
            given: Vec::new(),
            from_words: None,
            elsewhere,
            routine: self.catalog.playbook(&reflex.name).is_some(),
        })
    }

    /// Whether a pick's answer holds two or more spans, the first under the route's bar (the bar under
    /// which evoke does not choose a reflex either) or less than twice as likely as the second. Without a
    /// gate, nothing is unsettled. A vocabulary value is never unsettled: words that name several of them are
    /// a list, which the weave reads as a step per value (`again`), from the value read. An option is only
    /// where the input names both of the two it holds likeliest ([`Self::names_top_two`]).
    fn unsettled(&self, answer: &Distribution) -> bool {
        let Some(gate) = self.gate.as_ref() else { return false };
        let value = |key: &str| key != UNSTATED && key != NONE;
        let ranked = answer.ranked();
        matches!(ranked.as_slice(), [(first, p), (second, q), ..]
            if value(first) && value(second) && (*p < gate.route || *q > *p / 2.0))
    }

    /// Whether the sentence, read as a request not to or for all but something, names `key` of `arg` where
    /// it spares it ([`crate::mood::spared_ranges`]), wherever else it names it too.
    /// Whether a span of the input lies in what the input spares (`set the volume to anything but 80`).
    fn spared_span(&self, span: &Span) -> bool {
        mood(&self.input) == Mood::Negated
            && crate::mood::spared_ranges(&self.input).iter().any(|(s, e)| *s <= span.start && span.end <= *e)
    }

    /// Each place the sentence says a key of `arg` (the whole sentence, for a part: what it spares is
    /// spared in every part), as the key and whether the place lies in what the sentence spares. None where
    /// the sentence spares nothing.
    fn key_places(&self, arg: &Arg, keys: &[(&str, &str)]) -> Vec<(String, bool)> {
        let text = self.sentence.as_deref().unwrap_or(&self.input);
        if mood(text) != Mood::Negated {
            return Vec::new();
        }
        let offered = crate::mention::Offered { name: &arg.name, ask: &arg.ask, keys: keys.to_vec() };
        let said = crate::mention::said(text, &[offered]);
        let spared = crate::mood::spared_ranges(text);
        let inside = |p: &Span| spared.iter().any(|(start, end)| *start <= p.start && p.end <= *end);
        said.iter().flat_map(|s| &s.mentions).map(|m| (m.key.clone(), inside(&m.span))).collect()
    }

    /// Whether the input names both of the two options the engine holds likeliest for `arg` (`turn off the
    /// den, then turn on the office`): two acts the words ask for, which no list of values reads as one.
    fn names_top_two(&self, arg: &Arg, answer: &Distribution) -> bool {
        let ranked = answer.ranked();
        let [(first, _), (second, _), ..] = ranked.as_slice() else { return false };
        !self.option_places(arg, first).is_empty() && !self.option_places(arg, second).is_empty()
    }

    /// Where the input names option `key` of `arg`, in characters: word for word as [`crate::mention`] reads
    /// a key, or, for a key of one word, by any word of its stem (`dimmed`, `dimming` for `dim`).
    fn option_places(&self, arg: &Arg, key: &str) -> Vec<(usize, usize)> {
        let Source::Options(options) = &arg.source else { return Vec::new() };
        let keys: Vec<(&str, &str)> = options.iter().map(|(k, what)| (k.as_str(), what.as_str())).collect();
        let offered = crate::mention::Offered { name: &arg.name, ask: &arg.ask, keys };
        let said = crate::mention::said(&self.input, &[offered]);
        let mut places: Vec<(usize, usize)> = said
            .iter()
            .flat_map(|s| &s.mentions)
            .filter(|m| m.key == key)
            .map(|m| (m.span.start, m.span.end))
            .collect();
        if let [word] = crate::words::words(key).as_slice() {
            let stemmed = crate::words::words(&self.input).into_iter().filter(|w| w.stem == word.stem);
            places.extend(stemmed.map(|w| (w.start, w.end)).filter(|p| !places.contains(p)).collect::<Vec<_>>());
        }
        places
    }

    /// Whether an option key of `arg` is said in the input only inside clauses that state how things are
    /// (`the kitchen was left on, turn it off`, `the den lights were dimmed, undo it`), beside a clause that
    /// asks.
    fn said_only_where_stated(&self, arg: &Arg, key: &str) -> bool {
        let stated = crate::readback::stated_ranges(&self.input);
        if stated.is_empty() {
            return false;
        }
        let places = self.option_places(arg, key);
        let inside = |(s, e): &(usize, usize)| stated.iter().any(|(start, end)| start <= s && e <= end);
        !places.is_empty() && places.iter().all(inside)
    }

    /// Whether an option key of `arg` is said in the sentence only inside what it spares.
    fn said_only_where_spared(&self, arg: &Arg, key: &str) -> bool {
        let Source::Options(options) = &arg.source else { return false };
        let keys: Vec<(&str, &str)> = options.iter().map(|(k, what)| (k.as_str(), what.as_str())).collect();
        let places: Vec<bool> =
            self.key_places(arg, &keys).into_iter().filter(|(k, _)| k == key).map(|(_, spared)| spared).collect();
        !places.is_empty() && places.iter().all(|spared| *spared)
    }

    fn spared(&self, reflex: &Reflex, arg: &Arg, key: &str) -> bool {
        self.spared_keys(reflex, arg).iter().any(|k| k == key)
    }

    /// The keys of `arg` the sentence names to spare them (`every light except the den`): one of its
    /// mentions lies in a range the mood reads as spared. A key named both to do and to spare (`the den
    /// and office lights, except the den`) is spared: a yes must never do what the person spared.
    fn spared_keys(&self, reflex: &Reflex, arg: &Arg) -> Vec<String> {
        // What a sentence spares is a thing, a word of the person's own (`every light except the den`): an
        // author's option named there says how the thing is left (`leave the office lights off`).
        let keys: Vec<(&str, &str)> = match &arg.source {
            Source::Options(_) => return Vec::new(),
            Source::Vocab(_) => reflex
                .vocab_of(&arg.name)
                .map(|v| v.words.iter().map(|w| (w.word.as_str(), w.what.as_str())).collect())
                .unwrap_or_default(),
            Source::Pick(_) | Source::Flag | Source::Takes(_) => return Vec::new(),
        };
        // What the whole sentence spares, in whichever part it is said (`…, set a timer for 5 minutes,
        // skipping the office`): a value spared there is spared in every part.
        let places = self.key_places(arg, &keys);
        keys.iter()
            .map(|(key, _)| *key)
            .filter(|key| places.iter().any(|(k, spared)| k == key && *spared))
            .map(str::to_string)
            .collect()
    }

    /// The question for `arg`, with every key the sentence spares left out of its choices: asked because
    /// of the first one spared when there is one, else for `because`.
    fn missing_unspared(&self, reflex: &Reflex, arg: &Arg, because: MissingBecause) -> Missing {
        let spared = self.spared_keys(reflex, arg);
        let because = match spared.first() {
            Some(key) => MissingBecause::Excluded { key: key.clone() },
            None => because,
        };
        let mut asked = self.missing(reflex, arg, because);
        for key in &spared {
            asked.choices = asked.choices.without(key);
        }
        asked
    }

    fn missing(&self, reflex: &Reflex, arg: &Arg, because: MissingBecause) -> Missing {
        missing_of(reflex, arg, because, &self.candidates)
    }

    /// Typed spans no argument took, each span once, in input order.
    fn unconsumed(&self, taken: &[Span]) -> Vec<Span> {
        let mut spans: Vec<Span> = Vec::new();
        for c in &self.candidates {
            let overlaps = taken.iter().any(|t| c.span.start < t.end && t.start < c.span.end);
            if !overlaps && !spans.iter().any(|s| s.start == c.span.start && s.end == c.span.end) {
                spans.push(c.span.clone());
            }
        }
        spans.sort_by_key(|s| (s.start, s.end));
        spans
    }

    fn abstain(&self, judgments: Vec<Judgment>, contenders: Vec<Contender>) -> Decision {
        Decision { judgments, contenders, ..Decision::bare(&self.input, Outcome::Abstain, None, Args::default()) }
    }
}

/// The mood a decision on `input` is gated under: its own, or, for a part of a woven `sentence`, the
/// whole's where that holds the part.
/// The value `top` names for `arg`, among the spans round two `offered`.
pub(crate) fn read_value(reflex: &Reflex, arg: &Arg, top: &str, offered: &[Candidate]) -> Read {
    if top == UNSTATED {
        return Read::Unstated;
    }
    if top == NONE && !matches!(arg.source, Source::Pick(_) | Source::Flag) {
        return Read::NotOffered;
    }
    match &arg.source {
        Source::Options(_) => Read::Value(Value::Option { key: top.to_string() }),
        Source::Vocab(_) => {
            let value = reflex.vocab_of(&arg.name).and_then(|v| v.find(top)).and_then(|w| w.value.clone());
            Read::Value(Value::Word { word: top.to_string(), value })
        }
        Source::Pick(kind) => match offered.iter().find(|c| c.kind == *kind && c.span.key() == top) {
            Some(c) => Read::Value(Value::Pick { span: c.span.clone(), value: c.value.clone() }),
            None => Read::Unstated,
        },
        Source::Flag if top == YES => Read::Value(Value::Flag),
        Source::Flag => Read::Absent,
        // No question is asked of a whole result: an earlier step gives it, or nothing does.
        Source::Takes(_) => Read::Unstated,
    }
}

fn gated_mood(input: &str, sentence: Option<&str>) -> Mood {
    sentence.map_or_else(|| mood(input), |sentence| within(input, sentence))
}

/// The mood the gate reads of a call whose values took `taken`: the words a value took are that value,
/// never what the sentence does, so they are read as blanks (`boil 4 cups tomorrow`, the day taken, asks
/// now; an alarm for tomorrow is asked for now). In a woven part, the same words of the whole sentence are
/// blanked too.
fn mood_taking(input: &str, sentence: Option<&str>, taken: &[Span]) -> Mood {
    let read = gated_mood(input, sentence);
    if taken.is_empty() || read == Mood::Request {
        return read;
    }
    let blank = |text: &str, spans: &[(usize, usize)]| -> String {
        text.chars()
            .enumerate()
            .map(|(i, c)| if spans.iter().any(|(s, e)| *s <= i && i < *e) { ' ' } else { c })
            .collect()
    };
    // A span right after `every` or `each` (`every monday`) says how often, which is a condition still.
    let chars: Vec<char> = input.chars().collect();
    let recurring = |s: &Span| {
        let before: String = chars[..s.start.min(chars.len())].iter().collect();
        matches!(before.split_whitespace().last().map(str::to_lowercase).as_deref(), Some("every" | "each"))
    };
    let taken: Vec<Span> = taken.iter().filter(|s| !recurring(s)).cloned().collect();
    if taken.is_empty() {
        return read;
    }
    let here: Vec<(usize, usize)> = taken.iter().map(|s| (s.start, s.end)).collect();
    let input = blank(input, &here);
    let sentence = sentence.map(|whole| {
        // The part's spans, found in the whole by their text: the first place each stands.
        let chars: Vec<char> = whole.chars().collect();
        let found: Vec<(usize, usize)> = taken
            .iter()
            .filter_map(|s| {
                let want: Vec<char> = s.text.chars().collect();
                (!want.is_empty())
                    .then(|| chars.windows(want.len()).position(|w| w == want.as_slice()))
                    .flatten()
                    .map(|at| (at, at + want.len()))
            })
            .collect();
        blank(whole, &found)
    });
    gated_mood(&input, sentence.as_deref())
}

/// The spans the pick values of a call took that the mood reads as blanks: not a text, whose words are
/// the person's own (`for the pasta if it boils` still waits on the boiling).
fn taken_spans(args: &Args) -> Vec<Span> {
    args.0
        .iter()
        .filter_map(|(_, v)| match v {
            Value::Pick { value: PickValue::Text(_), .. } => None,
            Value::Pick { span, .. } => Some(span.clone()),
            _ => None,
        })
        .collect()
}

/// Decides again once a person answered an ask: each answer fills its missing argument, as certain as
/// a person's word, and the call goes through the same gate. Spans of the answered picks' kind no
/// longer count as unconsumed: the person has said what they meant. A part of a woven sentence is
/// gated under the mood it was decided under, so `sentence` is the whole (`None` for a lone request).
pub fn answered(
    catalog: &Catalog,
    gate: Option<&Gate>,
    candidates: &[Candidate],
    decision: &Decision,
    answers: &[(String, Value)],
    sentence: Option<&str>,
) -> Decision {
    settled_with(catalog, gate, candidates, decision, answers, sentence, false, None)
}

/// A value the engine's question judged unstated, that words of the input name and that the argument's
/// question, asked of those words alone, names too (003's `basis` `words`): the words and their yes.
#[derive(Debug, Clone, PartialEq)]
pub struct FromWords {
    pub arg: String,
    pub value: Value,
    /// How surely the words alone name it: its judgment, never a person's certainty.
    pub yes: f64,
    pub words: Vec<String>,
}

/// The decision with a value read from words ([`FromWords`]) taken, settled again: it asks no more for
/// it, and the gate weighs it at the words' own yes.
pub fn read_from_words(
    catalog: &Catalog,
    gate: Option<&Gate>,
    candidates: &[Candidate],
    decision: &Decision,
    read: &FromWords,
) -> Decision {
    let taken = [(read.arg.clone(), read.value.clone())];
    settled_with(catalog, gate, candidates, decision, &taken, None, false, Some(read))
}

/// [`answered`] with no new answers, held for a person as a call that may leave a second thing out: a
/// step of a plan whose sentence joins more to what it rules out (`…, not the den, and the office`).
pub fn held_for_two_things(
    catalog: &Catalog,
    gate: Option<&Gate>,
    candidates: &[Candidate],
    decision: &Decision,
    sentence: &str,
) -> Decision {
    settled_with(catalog, gate, candidates, decision, &[], Some(sentence), true, None)
}

fn settled_with(
    catalog: &Catalog,
    gate: Option<&Gate>,
    candidates: &[Candidate],
    decision: &Decision,
    answers: &[(String, Value)],
    sentence: Option<&str>,
    two_things: bool,
    from_words: Option<&FromWords>,
) -> Decision {
    let Some(reflex) = decision.reflex.as_deref().and_then(|name| catalog.get(name)) else {
        return decision.clone();
    };
    let mut args = Args::default();
    let mut judgments = decision.judgments.clone();
    let mut missing = decision.missing.clone().unwrap_or_default();
    let mut unconsumed = decision.unconsumed.clone().unwrap_or_default();
    for arg in &reflex.manifest.args {
        if let Some((_, value)) = answers.iter().find(|(name, _)| *name == arg.name) {
            args.0.push((arg.name.clone(), value.clone()));
            missing.retain(|m| m.arg != arg.name);
            let question = QuestionId::arg(&reflex.name, &arg.name);
            let top = match value {
                Value::Pick { span, .. } => span.key(),
                other => other.shown().to_string(),
            };
            judgments.retain(|j| j.question != question);
            // A value read from words stands at their yes; one a person gave, at their word.
            let p = from_words.filter(|w| w.arg == arg.name).map_or(1.0, |w| w.yes);
            judgments.push(Judgment { question, top, p });
            if let Source::Pick(kind) = &arg.source {
                let spans: Vec<&Span> = candidates.iter().filter(|c| c.kind == *kind).map(|c| &c.span).collect();
                unconsumed.retain(|u| !spans.contains(&u));
            }
        } else if let Some(value) = decision.args.as_ref().and_then(|a| a.get(&arg.name)) {
            args.0.push((arg.name.clone(), value.clone()));
        }
    }
    let order = |question: &QuestionId| match question {
        QuestionId::Route | QuestionId::Span { .. } => 0,
        QuestionId::Arg { reflex: r, arg } if *r == reflex.name => {
            1 + reflex.manifest.args.iter().position(|a| a.name == *arg).unwrap_or(usize::MAX - 1)
        }
        _ => usize::MAX,
    };
    judgments.sort_by_key(|j| order(&j.question));
    let given: Vec<String> =
        answers.iter().map(|(name, _)| name.clone()).filter(|name| from_words.is_none_or(|w| w.arg != *name)).collect();
    let settled = settle(Reading {
        input: &decision.input,
        candidates,
        mood: mood_taking(&decision.input, sentence, &taken_spans(&args)),
        two_things: two_things || may_ask_two_things(&decision.input, candidates, reflex),
        reflex,
        gate,
        args,
        judgments,
        contenders: decision.contenders.clone(),
        missing,
        unconsumed,
        given: given.clone(),
        from_words: from_words.cloned(),
        elsewhere: values_elsewhere(catalog, reflex),
        routine: catalog.playbook(&reflex.name).is_some(),
    });
    // What the words read alone, asked when the call was first decided, still holds of the values a
    // person did not give.
    crate::anchor::carried(catalog, decision, settled, &given)
}

/// The words, lowercased, that name a value of an argument of another reflex than `reflex`: its option
/// keys and vocabulary words, each word of them.
fn values_elsewhere(catalog: &Catalog, reflex: &Reflex) -> std::collections::HashSet<String> {
    let mut found = std::collections::HashSet::new();
    for other in catalog.reflexes().iter().filter(|r| r.name != reflex.name) {
        for arg in &other.manifest.args {
            found.extend(arg.source.option_keys().flat_map(crate::words::words).map(|w| w.lower));
        }
        for vocab in other.vocabs.values() {
            found.extend(vocab.words.iter().flat_map(|w| crate::words::words(&w.word)).map(|w| w.lower));
        }
    }
    found
}

/// What a reading of the answers came to, before the gate's last rules.
struct Reading<'a> {
    input: &'a str,
    candidates: &'a [Candidate],
    mood: Mood,
    /// Whether the sentence joins something to the call that the call leaves out.
    two_things: bool,
    reflex: &'a Reflex,
    gate: Option<&'a Gate>,
    args: Args,
    judgments: Vec<Judgment>,
    contenders: Vec<Contender>,
    missing: Vec<Missing>,
    unconsumed: Vec<Span>,
    /// The arguments a person gave: they stand on the person's word, not on a reading of the input.
    given: Vec<String>,
    /// A value read from words its question judged unstated, that they name alone.
    from_words: Option<FromWords>,
    /// The words that name a value of another reflex's argument (`on` of the lights, for a timer).
    elsewhere: std::collections::HashSet<String>,
    /// Whether the reflex is a playbook's: a routine, picked only by its own words.
    routine: bool,
}

/// The gate's rules after abstaining: ask for what is missing, else confirm for every reason that holds, else run.
fn settle(reading: Reading) -> Decision {
    let Reading {
        input,
        candidates,
        mood,
        two_things,
        reflex,
        gate,
        args,
        judgments,
        contenders,
        missing,
        unconsumed,
        given,
        from_words,
        elsewhere,
        routine,
    } = reading;
    let flags: Vec<&str> = reflex
        .manifest
        .args
        .iter()
        .filter(|a| a.source == Source::Flag)
        .filter(|a| judgments.iter().any(|j| j.question == QuestionId::arg(&reflex.name, &a.name)))
        .map(|a| a.name.as_str())
        .collect();
    let around = crate::readback::Around { elsewhere, request: mood == Mood::Request, given: given.clone(), routine };
    let read_back = crate::readback::read_back_among(input, reflex, &args, candidates, &flags, &around);
    // An optional argument judged unstated that the read-back finds no word for is unstated by the words,
    // not by the engine's guess: it is no judgment the call waits on.
    let settled_unstated = |j: &&Judgment| match &j.question {
        QuestionId::Arg { reflex: r, arg } => {
            *r == reflex.name && j.top == UNSTATED && read_back.unstated.iter().any(|a| a == arg)
        }
        _ => false,
    };
    let weakest = judgments.iter().filter(|j| !settled_unstated(j)).fold(None::<&Judgment>, |w, j| match w {
        Some(w) if w.p <= j.p => Some(w),
        _ => Some(j),
    });
    let weakest = weakest.cloned();
    let texts = crate::unquoted::texts(input, reflex, candidates, &around.elsewhere);
    let (mut basis, one_view, respelt) = bases(reflex, &args, &judgments, candidates, &texts, &read_back, &given);
    // A value read from words its question judged unstated stands on those words and their yes.
    if let Some(read) = &from_words
        && let Some((_, b)) = basis.0.iter_mut().find(|(arg, _)| *arg == read.arg)
    {
        *b = Basis::Words { words: read.words.clone(), yes: read.yes };
    }
    let confidence = weakest.as_ref().map(|w| w.p);
    let runner_up = contenders.get(1).cloned();
    let mut decision = Decision {
        input: input.to_string(),
        outcome: Outcome::Ask,
        reflex: Some(reflex.name.clone()),
        args: Some(args),
        call: None,
        effect: None,
        basis: (!basis.0.is_empty()).then_some(basis),
        unconsumed: None,
        confidence,
        weakest,
        judgments,
        runner_up,
        contenders,
        prompt: None,
        left: Some(
            read_back
                .left
                .iter()
                .filter(|l| l.again || matches!(l.does, Does::Answers { .. } | Does::More))
                .cloned()
                .collect::<Vec<_>>(),
        )
        .filter(|l| !l.is_empty()),
        whole: (read_back.whole < 1.0).then_some(read_back.whole),
        quotes: None,
        because: None,
        missing: None,
    };
    // A quote no value took, where the reflex takes a text in quotes: listed, and held apart from the
    // other spans no argument took.
    let takes_text = reflex.manifest.args.iter().any(|a| a.source == Source::Pick(PickKind::Text));
    let quoted: Vec<&Span> = unconsumed
        .iter()
        .filter(|u| takes_text && candidates.iter().any(|c| c.kind == PickKind::Text && c.span == **u))
        .collect();
    decision.quotes = (!quoted.is_empty()).then(|| quoted.iter().map(|q| quote(input, q)).collect());
    let other_spans: Vec<Span> = unconsumed.iter().filter(|u| !quoted.contains(u)).cloned().collect();
    let mut missing = missing;
    let call_args = decision.args.as_ref().expect("set above");
    missing.extend(said_out_of_range(reflex, call_args, candidates, &missing, &read_back));
    if !missing.is_empty() {
        for m in &mut missing {
            let answering = |l: &&crate::readback::Left| matches!(&l.does, Does::Answers { arg } if *arg == m.arg);
            let words: Vec<String> = read_back.left.iter().filter(answering).map(|l| l.words.text.clone()).collect();
            m.words = (!words.is_empty()).then_some(words);
            // Words answer the ask, and the engine read nothing from them: the ask says so, and a listed
            // value they name alone is made ready for a yes.
            if m.because == MissingBecause::Unstated && m.words.is_some() {
                m.because = MissingBecause::Unread;
                // Every span the words give reads outside the range: that is why, whatever the engine judged.
                if let Choices::Pick { range: Some(range), readings, .. } = &m.choices {
                    let values: Vec<f64> = readings.iter().filter_map(|r| r.value.comparable()).collect();
                    if !values.is_empty() && values.iter().all(|v| *v < range[0] || *v > range[1]) {
                        m.because = MissingBecause::OutOfRange { range: *range, value: values[0] };
                    }
                }
                let named: Vec<&str> =
                    read_back.named.iter().filter(|(arg, _)| *arg == m.arg).map(|(_, key)| key.as_str()).collect();
                // Only where every other word is accounted for: a word left that does more (`outside the
                // den`, `ignoring the den`) may say the named value is not the one meant, and so may a
                // sentence that spares something. Then nothing is made ready for a yes.
                if let [key] = named.as_slice()
                    && mood != Mood::Negated
                    && !read_back.asks_more()
                {
                    m.likely = m.choices.offers(key).then(|| key.to_string());
                }
            }
        }
        decision.unconsumed = Some(unconsumed);
        decision.missing = Some(missing);
        return decision;
    }
    let effect = reflex.manifest.effect;
    let args = decision.args.as_ref().expect("set above");
    let call = call_line(&reflex.name, args);
    // A text typed without quotes that the call took, and those it left, which no word of the reflex reads.
    let taken_text = args.0.iter().filter(|(name, _)| !given.contains(name)).find_map(|(name, v)| match v {
        Value::Pick { span, .. } if texts.iter().any(|t| t.span == *span) => Some((name.clone(), span.text.clone())),
        _ => None,
    });
    // A text a person gave settles what the text is: no other words are left as one.
    let text_given =
        reflex.manifest.args.iter().any(|a| a.source == Source::Pick(PickKind::Text) && given.contains(&a.name));
    let text_left: Vec<&Span> = texts
        .iter()
        .map(|t| &t.span)
        .filter(|t| !text_given && !args.0.iter().any(|(_, v)| matches!(v, Value::Pick { span, .. } if span == *t)))
        .collect();
    let in_text_left = |w: &Span| text_left.iter().any(|t| t.start <= w.start && w.end <= t.end);
    let complete = Complete {
        effect,
        confidence: confidence.unwrap_or(0.0),
        unconsumed: !other_spans.is_empty(),
        quoted: decision.quotes.is_some(),
        text_read: taken_text,
        text_left: text_left.iter().map(|t| t.text.clone()).collect(),
        one_view,
        respelt,
        runner_up: decision.runner_up.as_ref().map(|r| (r.reflex.as_str(), r.route)),
        two_things,
        mood,
        more: read_back
            .left
            .iter()
            .filter(|l| l.does == Does::More && !l.typed && !l.cut && !in_text_left(&l.words))
            .map(|l| l.words.text.clone())
            .collect(),
        cut: read_back.left.iter().filter(|l| l.cut && !l.typed).map(|l| l.words.text.clone()).collect(),
    };
    let because = confirm_reasons(gate, &complete);
    decision.effect = Some(effect);
    if !unconsumed.is_empty() {
        decision.unconsumed = Some(unconsumed.clone());
    }
    if because.is_empty() {
        decision.outcome = Outcome::Run;
    } else {
        decision.outcome = Outcome::Confirm;
        let reason =
            because.iter().map(|b| reason(b, effect, complete.confidence, &other_spans)).collect::<Vec<_>>().join("; ");
        decision.prompt = Some(confirm_prompt(reflex, args, &call, reason));
        decision.because = Some(because);
    }
    decision.call = Some(call);
    decision
}

pub(crate) enum Read {
    Value(Value),
    Unstated,
    NotOffered,
    /// A flag read as no.
    Absent,
}

/// The confirm prompt of a complete call: evoke's own line naming the call, the reason, and the reflex's
/// `confirm` template filled with the values. A decision and a call by name both ask with it.
pub fn confirm_prompt(reflex: &Reflex, args: &Args, call: &str, reason: String) -> Prompt {
    let template =
        fill(&reflex.manifest.confirm, |name| args.get(name).map_or(String::new(), |v| v.shown().to_string()));
    Prompt { own: format!("evoke will run: {call}"), reason, template }
}

/// A complete write of a plan file whose journal is not here, held for a yes: evoke cannot know whether
/// it ran before. A read, or a call that does not run, is left as it is.
pub fn held_without_journal(catalog: &Catalog, decision: &Decision) -> Decision {
    let effect = decision.effect.unwrap_or(Effect::Destructive);
    if decision.outcome != Outcome::Run || effect == Effect::Read {
        return decision.clone();
    }
    let (Some(name), Some(args), Some(call)) = (&decision.reflex, &decision.args, &decision.call) else {
        return decision.clone();
    };
    let Some(reflex) = catalog.get(name) else { return decision.clone() };
    let because = Because::NoJournal;
    let reason = reason(&because, effect, decision.confidence.unwrap_or(0.0), &[]);
    Decision {
        outcome: Outcome::Confirm,
        prompt: Some(confirm_prompt(reflex, args, call, reason)),
        because: Some(vec![because]),
        ..decision.clone()
    }
}

/// A complete call held for a yes for one more reason: it confirms, with `because` added in the gate's
/// place and the prompt's reason said again. A call that asks or abstains is left as it is.
pub fn held_for(catalog: &Catalog, decision: &Decision, because: Because) -> Decision {
    if !matches!(decision.outcome, Outcome::Run | Outcome::Confirm) {
        return decision.clone();
    }
    let (Some(name), Some(args), Some(call)) = (&decision.reflex, &decision.args, &decision.call) else {
        return decision.clone();
    };
    let Some(reflex) = catalog.get(name) else { return decision.clone() };
    let mut held = decision.clone();
    let mut all = held.because.take().unwrap_or_default();
    if !all.contains(&because) {
        // One view is said where the gate says it, after the bars and before what the words leave; any
        // other reason after all the gate gave.
        let bars = |b: &Because| {
            matches!(b, Because::Destructive | Because::NoGate | Because::UnderFloor { .. } | Because::OneView { .. })
        };
        let at = match because {
            Because::OneView { .. } => all.iter().rposition(bars).map_or(0, |i| i + 1),
            _ => all.len(),
        };
        all.insert(at, because);
    }
    held.because = Some(all);
    held.outcome = Outcome::Confirm;
    held.prompt = Some(confirm_prompt(reflex, args, call, reasons(&held)));
    held
}

/// The question for `arg`: every listed value as a choice, or each span of its kind the sentence holds.
pub fn missing_of(reflex: &Reflex, arg: &Arg, because: MissingBecause, candidates: &[Candidate]) -> Missing {
    let choices = match &arg.source {
        Source::Options(options) => Choices::Options { options: Texts(options.clone()) },
        Source::Vocab(_) => {
            let words =
                reflex.vocab_of(&arg.name).map(|v| v.words.iter().map(|w| (w.word.clone(), w.what.clone())).collect());
            Choices::Vocab { words: Texts(words.unwrap_or_default()) }
        }
        Source::Pick(kind) => Choices::Pick {
            kind: kind.as_str(),
            range: arg.range.map(|(a, b)| [a, b]),
            readings: candidates
                .iter()
                .filter(|c| c.kind == *kind)
                .map(|c| PickReading { text: c.span.text.clone(), value: c.value.clone() })
                .collect(),
            recent: Vec::new(),
        },
        Source::Flag => {
            Choices::Options { options: Texts(vec![("yes".into(), "Yes.".into()), ("no".into(), "No.".into())]) }
        }
        // Optional by nature, a whole result is never asked; were it, no value could be chosen.
        Source::Takes(_) => Choices::Options { options: Texts(Vec::new()) },
    };
    Missing { arg: arg.name.clone(), ask: arg.ask.clone(), because, words: None, choices, likely: None }
}

/// The decision with `missing.arg`'s value taken back and asked for instead: a value the sentence spares
/// is never proposed, whatever the engine read.
pub fn asked_instead(
    catalog: &Catalog,
    gate: Option<&Gate>,
    candidates: &[Candidate],
    decision: &Decision,
    missing: Missing,
    sentence: &str,
) -> Decision {
    let mut less = decision.clone();
    if let Some(args) = less.args.as_mut() {
        args.0.retain(|(name, _)| *name != missing.arg);
    }
    let mut asked = less.missing.take().unwrap_or_default();
    asked.retain(|m| m.arg != missing.arg);
    asked.push(missing);
    less.missing = Some(asked);
    settled_with(catalog, gate, candidates, &less, &[], Some(sentence), false, None)
}
/// The prompt of a destructive call given by name: it always asks first, whatever the engine's bars.
pub fn destructive_prompt(reflex: &Reflex, args: &Args, call: &str) -> Prompt {
    confirm_prompt(reflex, args, call, reason(&Because::Destructive, Effect::Destructive, 1.0, &[]))
}

/// A confidence and the bar it is under, as a person reads them: two places, or as many as the bar needs
/// (0.997 is not `1.00`), the confidence cut rather than rounded, so it never shows at or over its bar.
fn under_bar(confidence: f64, bar: f64) -> (String, String) {
    let places = (2..=6).find(|&k| ((bar * 10f64.powi(k)).round() / 10f64.powi(k) - bar).abs() < 1e-12).unwrap_or(6);
    let scale = 10f64.powi(places);
    let cut = ((confidence * scale + 1e-9).floor() / scale).min(bar);
    let p = places as usize;
    (format!("{cut:.p$}"), format!("{bar:.p$}"))
}

/// One clause of the prompt's reason.
/// What each value of the call stands on, and the values whose one view the words contradict: an option or
/// vocabulary value no word names, where the words name another key of the same argument.
fn bases(
    reflex: &Reflex,
    args: &Args,
    judgments: &[Judgment],
    candidates: &[Candidate],
    texts: &[Candidate],
    read_back: &crate::readback::ReadBack,
    given: &[String],
) -> (Bases, Vec<(String, Vec<String>)>, Vec<(String, String)>) {
    let mut bases = Bases::default();
    let mut one_view = Vec::new();
    let mut respelt = Vec::new();
    for (name, value) in args.0.iter().filter(|(name, _)| !given.contains(name)) {
        let question = QuestionId::arg(&reflex.name, name);
        // A value a person gave, or one no question read, stands on nothing the line could show.
        let Some(ask) = judgments.iter().find(|j| j.question == question).map(|j| j.p) else { continue };
        let basis = match value {
            // A text typed without quotes, with the others it could have been.
            Value::Pick { span, .. } if texts.iter().any(|t| t.span == *span) => Basis::Text {
                ask,
                others: texts.iter().filter(|t| t.span != *span).map(|t| t.span.text.clone()).collect(),
            },
            // A code, held against the codes the argument's examples assert.
            Value::Pick { span, .. } if is_code(reflex, name) => {
                let asserted = asserted_values(reflex, name);
                let shape = crate::shape::of(&span.text, &asserted);
                if shape == Some(crate::shape::Shape::Completed) {
                    respelt.push((name.clone(), span.text.clone()));
                }
                Basis::Spelled { ask, shape }
            }
            Value::Pick { .. } => {
                let kind = reflex.manifest.args.iter().find(|a| a.name == *name).map(|a| &a.source);
                let of_kind = candidates.iter().filter(|c| Some(&Source::Pick(c.kind)) == kind).count();
                if of_kind == 1 { Basis::Only { ask } } else { Basis::Ask { ask } }
            }
            Value::Flag => Basis::Ask { ask },
            Value::Option { .. } | Value::Word { .. } => {
                // Words that name another key of the argument: the words and the call disagree.
                let other: Vec<String> = read_back
                    .left
                    .iter()
                    .filter(|l| !l.read && matches!(&l.does, Does::Answers { arg } if arg == name))
                    .map(|l| l.words.text.clone())
                    .collect();
                if read_back.named.iter().any(|(arg, _)| arg == name) && !other.is_empty() {
                    one_view.push((name.clone(), other));
                }
                if read_back.unnamed.contains(name) {
                    let from =
                        |l: &&crate::readback::Left| l.read && matches!(&l.does, Does::Answers { arg } if arg == name);
                    Basis::View {
                        ask,
                        words: read_back.left.iter().filter(from).map(|l| l.words.text.clone()).collect(),
                        anchored: false,
                        reads: None,
                    }
                } else {
                    Basis::Views { ask, reader: ask }
                }
            }
        };
        bases.0.push((name.clone(), basis));
    }
    (bases, one_view, respelt)
}

fn is_code(reflex: &Reflex, arg: &str) -> bool {
    reflex.manifest.args.iter().any(|a| a.name == arg && a.source == Source::Pick(PickKind::Code))
}

/// The values the reflex's examples assert for `arg`.
fn asserted_values<'r>(reflex: &'r Reflex, arg: &str) -> Vec<&'r str> {
    let asserts = reflex.manifest.examples.iter().filter_map(|e| e.asserts.as_ref()).flatten();
    asserts
        .filter(|(name, _)| name == arg)
        .filter_map(|(_, value)| match value {
            crate::manifest::Asserted::Text(text) => Some(text.as_str()),
            crate::manifest::Asserted::Flag(_) => None,
        })
        .collect()
}

/// An optional pick the call leaves out while the words give spans of its kind, every one outside its range
/// (`dim the den to 150 percent` with the brightness judged unstated): the person said a value, and a call
/// without it is not what they said. It is asked, `out_of_range`, as a required one would be.
fn said_out_of_range(
    reflex: &Reflex,
    args: &Args,
    candidates: &[Candidate],
    missing: &[Missing],
    read_back: &crate::readback::ReadBack,
) -> Vec<Missing> {
    let mut asked = Vec::new();
    for arg in &reflex.manifest.args {
        let (Source::Pick(kind), Some((low, high))) = (&arg.source, arg.range) else { continue };
        if args.get(&arg.name).is_some() || missing.iter().any(|m| m.arg == arg.name) {
            continue;
        }
        let answered = read_back.left.iter().any(|l| matches!(&l.does, Does::Answers { arg: a } if *a == arg.name));
        let said: Vec<&Candidate> = candidates.iter().filter(|c| c.kind == *kind).collect();
        let values: Vec<f64> = said.iter().filter_map(|c| c.value.comparable()).collect();
        if !answered || values.is_empty() || values.iter().any(|v| (low..=high).contains(v)) {
            continue;
        }
        asked.push(Missing {
            arg: arg.name.clone(),
            ask: arg.ask.clone(),
            because: MissingBecause::OutOfRange { range: [low, high], value: values[0] },
            words: None,
            choices: Choices::Pick {
                kind: kind.as_str(),
                range: Some([low, high]),
                readings: said
                    .iter()
                    .map(|c| PickReading { text: c.span.text.clone(), value: c.value.clone() })
                    .collect(),
                recent: Vec::new(),
            },
            likely: None,
        });
    }
    asked
}

/// The quote around a span of quoted text: the text, and the marks found either side of it past spaces.
fn quote(input: &str, span: &Span) -> Quote {
    let chars: Vec<char> = input.chars().collect();
    let open = chars[..span.start.min(chars.len())].iter().rev().find(|c| !c.is_whitespace());
    let close = chars[span.end.min(chars.len())..].iter().find(|c| !c.is_whitespace());
    let mark = |c: Option<&char>| c.map(|c| c.to_string()).unwrap_or_default();
    Quote { text: span.text.clone(), marks: [mark(open), mark(close)] }
}

/// The prompt's reason for a decision's `because` as it now stands: each reason in one line, joined by `; `.
pub(crate) fn reasons(decision: &Decision) -> String {
    let effect = decision.effect.unwrap_or(Effect::Destructive);
    let confidence = decision.confidence.unwrap_or(0.0);
    let unconsumed = decision.unconsumed.as_deref().unwrap_or_default();
    let because = decision.because.as_deref().unwrap_or_default();
    because.iter().map(|b| reason(b, effect, confidence, unconsumed)).collect::<Vec<_>>().join("; ")
}

fn reason(because: &Because, effect: Effect, confidence: f64, unconsumed: &[Span]) -> String {
    match because {
        Because::Destructive => "it is destructive, and a destructive call always asks first".into(),
        Because::NoGate => "the engine ships no bars, so every call asks first".into(),
        Because::UnderFloor { bar } => {
            let (confidence, bar) = under_bar(confidence, *bar);
            format!("confidence {confidence} is under the {effect} bar {bar}")
        }
        Because::Quoted => "no argument took the text in quotes".into(),
        Because::TextRead { arg, text } => format!("\"{text}\" was read as the {arg} without quotes"),
        Because::TextLeft { words } => {
            let words: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
            format!("no argument took {}, typed without quotes", words.join(", "))
        }
        Because::Cut { words } => {
            let words: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
            format!("{} may be part of the value before it", words.join(", "))
        }
        Because::Respelt { arg, text } => {
            format!("\"{text}\" is written unlike the {arg} in the reflex's examples")
        }
        // The value itself read from the words alone (`basis` `words`), or another key they name alone.
        Because::OneView { arg, words, reads: Some(reads) } if words.iter().any(|w| w.eq_ignore_ascii_case(reads)) => {
            let words: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
            format!("the {arg} was read from {} alone", words.join(", "))
        }
        Because::OneView { arg, words, reads: Some(reads) } => {
            let words: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
            format!("{} alone reads as {reads} for the {arg}", words.join(", "))
        }
        Because::OneView { arg, words, reads: None } => {
            let words: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
            format!("the sentence also says {} for the {arg}", words.join(", "))
        }
        Because::UnconsumedSpan => {
            let spans: Vec<String> = unconsumed.iter().map(|s| format!("\"{}\"", s.text)).collect();
            format!("no argument took {}", spans.join(", "))
        }
        Because::RunnerUp { reflex, route } => format!("{reflex} was nearly as likely ({route:.2})"),
        Because::NotARequest { mood } => format!("the sentence reads as {}", mood.reads_as()),
        Because::TwoThings => "the request may ask for two things".into(),
        Because::More { words } => {
            let words: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
            format!("nothing the reflex says reads {}", words.join(", "))
        }
        Because::NoJournal => "its plan's journal is not here, so evoke cannot know whether it ran before".into(),
        Because::Pointed { arg, words } => format!("\"{words}\" was read as the {arg} an earlier step named"),
        Because::Named { words } => {
            format!("\"{words}\" matched nothing alone and was read as this reflex from the whole sentence")
        }
        Because::Shared { arg, words } => format!("the {arg} was taken from \"{words}\", said for another step"),
        Because::Detail { words } => {
            let words: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
            format!("{} may add a detail the call leaves out", words.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::under_bar;

    /// A lights reflex whose room is a vocabulary (`den`, `office`) and whose state is `on` or `off`, under
    /// a gate with a write bar of 0.8.
    fn lights() -> (crate::catalog::Catalog, crate::adapter::Gate) {
        use crate::catalog::{Catalog, Reflex};
        let manifest = "reflex = 1\ndescription = \"Turn the lights in one room on or off.\"\neffect = \"write\"\n\
                        confirm = \"Set the {room} lights {state}?\"\nrun = \"l.mjs\"\n[args.room]\nask = \"Which room?\"\n\
                        vocab = \"rooms\"\n[args.state]\nask = \"On or off?\"\noptions.on = \"Switch on.\"\n\
                        options.off = \"Switch off.\"\n";
        let read = crate::manifest::read_manifest("reflex.toml", manifest, &|_: &str| true);
        let rooms =
            crate::vocab::read_vocab("rooms", "rooms.toml", "den = \"TV\"\noffice = \"Study\"\n").value.unwrap();
        let reflex =
            Reflex { name: "lights".into(), manifest: read.value.unwrap(), vocabs: [("rooms".into(), rooms)].into() };
        (Catalog::new(vec![reflex]), crate::adapter::Gate { route: 0.5, fits: None, read: 0.6, write: 0.8 })
    }

    /// `input` decided with every round answered from `answers`, by question id; an id it lacks panics.
    fn decided(input: &str, answers: &[(&str, &[(&str, f64)])]) -> crate::decision::Decision {
        use crate::validate::{Answers, Distribution};
        let (catalog, gate) = lights();
        let mut decider = super::Decider::new(&catalog, Some(gate), input).unwrap();
        while let Some(questions) = decider.questions().cloned() {
            let mut round = Answers::new();
            for (id, _) in &questions.0 {
                let text = id.to_string();
                let (_, pairs) = answers.iter().find(|(i, _)| *i == text).unwrap_or_else(|| panic!("{text}"));
                round.insert(id.clone(), Distribution(pairs.iter().map(|(k, p)| (k.to_string(), *p)).collect()));
            }
            decider.feed(&round);
        }
        decider.decision().unwrap().clone()
    }

    #[test]
    fn a_value_a_person_gave_stands_on_no_reading_and_never_contradicts_the_words() {
        use crate::decision::{Because, Value};
        let (catalog, gate) = lights();
        let decision = decided(
            "turn off the lights in the office",
            &[
                ("route", &[("lights", 0.95), ("none", 0.05)]),
                ("lights.room", &[("den", 0.95), ("office", 0.03), ("unstated", 0.02)]),
                ("lights.state", &[("off", 0.95), ("on", 0.03), ("unstated", 0.02)]),
                ("fits.lights", &[("yes", 0.9)]),
            ],
        );
        // The engine read the den where the words say the office: it waits.
        assert!(matches!(decision.because.as_deref(), Some([Because::OneView { arg, .. }]) if arg == "room"));
        // A person who says the den is taken at their word, against the words.
        let den = Value::Word { word: "den".into(), value: None };
        let given = super::answered(&catalog, Some(&gate), &[], &decision, &[("room".into(), den)], None);
        assert!(given.because.iter().flatten().all(|b| !matches!(b, Because::OneView { .. })), "{given:?}");
        assert!(given.basis.as_ref().is_some_and(|b| b.0.iter().all(|(name, _)| name != "room")), "{given:?}");
    }

    #[test]
    fn what_words_read_alone_still_holds_after_a_person_gives_the_missing_value() {
        use crate::decision::{Basis, Because, Outcome, Value};
        let (catalog, gate) = lights();
        // No room said; the engine read `douse` as `off`, and `douse` alone reads `on`.
        let decision = decided(
            "douse the lights",
            &[
                ("route", &[("lights", 0.95), ("none", 0.05)]),
                ("lights.room", &[("den", 0.05), ("office", 0.05), ("unstated", 0.9)]),
                ("lights.state", &[("off", 0.95), ("on", 0.03), ("unstated", 0.02)]),
                ("weave.alone_0_5_lights__state", &[("on", 0.9), ("off", 0.05), ("unstated", 0.05)]),
                ("fits.lights", &[("yes", 0.9)]),
            ],
        );
        assert_eq!(decision.outcome, Outcome::Ask, "{decision:?}");
        let den = Value::Word { word: "den".into(), value: None };
        let given = super::answered(&catalog, Some(&gate), &[], &decision, &[("room".into(), den)], None);
        // The room given, the state still stands on `douse`, which alone reads `on`: it waits.
        assert_eq!(given.outcome, Outcome::Confirm, "{given:?}");
        assert!(
            given.because.iter().flatten().any(|b| matches!(b, Because::OneView { reads: Some(r), .. } if r == "on")),
            "{given:?}"
        );
        let state = given.basis.as_ref().and_then(|b| b.0.iter().find(|(a, _)| a == "state")).map(|(_, b)| b.clone());
        assert!(matches!(state, Some(Basis::View { reads: Some(_), .. })), "{state:?}");
    }

    #[test]
    fn a_bar_is_shown_with_the_places_it_needs_and_the_confidence_under_it() {
        assert_eq!(under_bar(0.70, 0.8), ("0.70".into(), "0.80".into()));
        assert_eq!(under_bar(0.85, 0.997), ("0.850".into(), "0.997".into()));
        // Rounded, 0.9969 would show as the bar it is under.
        assert_eq!(under_bar(0.9969, 0.997), ("0.996".into(), "0.997".into()));
        assert_eq!(under_bar(0.96, 0.98), ("0.96".into(), "0.98".into()));
    }
}
