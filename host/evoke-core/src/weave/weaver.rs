//! A woven decision in progress, as the [`Decider`] is one decision in progress: it hands out each round's
//! questions with the words they are asked under, and takes back validated answers. Everything here is
//! pure, so a recording replays it byte for byte and the vectors run it without an engine.
//!
//! The order of rounds: the whole sentence's first round (the route and every place to cut). A sentence
//! the answers leave whole goes on as one decision. Otherwise each part is decided in turn, under its own
//! words; then each part that matched nothing is tried once as an item of its neighbour's task; then each
//! step whose words name other values of its vocabulary is asked about them (`again`).

use super::again::{self, Other};
use super::plan::{self, Plan, Repair};
use super::{Cut, MAX_CUTS, MAX_PARTS, Reading, TooMany};
use crate::adapter::Gate;
use crate::catalog::Catalog;
use crate::decide::{Decider, Refusal};
use crate::decision::{Decision, Outcome};
use crate::question::Questions;
use crate::validate::Answers;

mod repairs;

/// What a sentence came to.
#[derive(Debug, Clone, PartialEq)]
#[allow(clippy::large_enum_variant)]
pub enum Woven {
    /// One input, decided as ever.
    One(Decision),
    /// A plan of steps, settled.
    Plan(Plan),
}

/// Why a sentence is refused before its plan is made.
#[derive(Debug, Clone, PartialEq)]
pub enum NotWoven {
    Input(Refusal),
    TooMany(TooMany),
}

/// Where the weave stands. What it came to is boxed: a woven plan is larger than every state before it.
enum State<'c> {
    First(Decider<'c>),
    Whole(Decider<'c>),
    Part {
        i: usize,
        decider: Decider<'c>,
    },
    Splice {
        i: usize,
        neighbour: usize,
        text: String,
        decider: Decider<'c>,
    },
    /// Two neighbouring parts decided again as one input: the later points back at what the earlier asks.
    Merge {
        i: usize,
        part: super::Part,
        decider: Decider<'c>,
    },
    /// A lone verb decided with the thing the next part's verb acts on (003's `first`).
    Lone {
        i: usize,
        text: String,
        decider: Decider<'c>,
    },
    /// A part that matched nothing alone, asked which reflex the whole sentence gives its words
    /// (`weave.span_*`).
    Name {
        i: usize,
        questions: Questions,
    },
    /// That part decided as the reflex the whole sentence gave it.
    Named {
        i: usize,
        decider: Decider<'c>,
    },
    /// The parts the words leave open, asked what they do in the whole sentence (`weave.aside_*`).
    Asides {
        questions: Questions,
    },
    /// The whole sentence decided again as one input, for the one reflex its parts found.
    AsOne {
        one: super::count::One,
        decider: Decider<'c>,
    },
    Again {
        i: usize,
        text: String,
        others: Vec<Other>,
        questions: Questions,
    },
    /// Side `k` of a joint the engine read as one request, decided alone (003's `split`): `sides` the two
    /// parts, `decided` the sides decided so far, `whole` the call that left a side out.
    Split {
        k: usize,
        sides: Vec<super::Part>,
        decided: Vec<Decision>,
        whole: Box<Decision>,
        decider: Decider<'c>,
    },
    /// Step `j` of the settled plan decided again with a word another part says written into its words.
    Rewrite {
        plan: Box<Plan>,
        j: usize,
        rewrite: super::shared::Rewrite,
        decider: Decider<'c>,
    },
    Done(Box<Woven>),
}

pub struct Weaver<'c> {
    catalog: &'c Catalog,
    gate: Option<Gate>,
    input: String,
    /// The whole sentence's candidate spans, found once.
    candidates: Vec<crate::recognize::Candidate>,
    cuts: Vec<Cut>,
    first: Questions,
    bar: f64,
    reading: Option<Reading>,
    /// Per part: its decision and the repair that made it.
    parts: Vec<Option<(Decision, Option<Repair>)>>,
    /// Per part: the steps `again` added after it.
    extra: Vec<Vec<Decision>>,
    spliced_tried: Vec<bool>,
    /// Per part: whether it was already asked which reflex the whole sentence gives its words.
    named_tried: Vec<bool>,
    /// Whether the sentence was already tried as asking one thing.
    as_one_tried: bool,
    /// Whether a call that left a side of a joint out was already tried as two steps (`split`).
    split_tried: bool,
    /// The engine's reading of each part its words left open (by the part's offsets), once asked.
    does: Option<Vec<((usize, usize), super::count::Does)>>,
    /// Per part: whether it was already tried as one with the part after it.
    merge_tried: Vec<bool>,
    /// Per part: whether it was already tried as a lone verb on the next part's thing.
    lone_tried: Vec<bool>,
    /// Per part: its words as typed, where the step is decided on words the plan wrote anew.
    typed: Vec<Option<String>>,
    /// The parts that asked for nothing, where the sentence stood as one for them.
    asides: Vec<super::count::Aside>,
    /// The words of those parts that may add a detail to its call: every call of it waits for a person.
    details: Vec<String>,
    /// Whether the sentence stood as one and went on whole, for the other values it names.
    stood_as_one: bool,
    again_from: usize,
    state: State<'c>,
}

impl<'c> Weaver<'c> {
    /// Bounds the input, finds its places to cut, and refuses a sentence with more than a plan reads. The
    /// cut bar is the route's; with no gate, an even chance.
    pub fn new(catalog: &'c Catalog, gate: Option<Gate>, input: &str) -> Result<Self, NotWoven> {
        let decider = Decider::new(catalog, gate, input).map_err(NotWoven::Input)?;
        let cuts = super::cuts(input, decider.candidates());
        if cuts.len() > MAX_CUTS {
            return Err(NotWoven::TooMany(TooMany::TooManyCuts { found: cuts.len(), limit: MAX_CUTS }));
        }
        let bar = gate.map_or(0.5, |g| g.route);
        let first = super::first_round(catalog.route_round(), input, &cuts);
        let mut weaver = Weaver {
            catalog,
            gate,
            input: input.to_string(),
            candidates: decider.candidates().to_vec(),
            cuts,
            first,
            bar,
            reading: None,
            parts: Vec::new(),
            extra: Vec::new(),
            spliced_tried: Vec::new(),
            named_tried: Vec::new(),
            as_one_tried: false,
            split_tried: false,
            does: None,
            merge_tried: Vec::new(),
            lone_tried: Vec::new(),
            typed: Vec::new(),
            asides: Vec::new(),
            details: Vec::new(),
            stood_as_one: false,
            again_from: 0,
            state: State::Done(Box::new(Woven::Plan(plan::settle(input, &empty_reading(), Vec::new())))),
        };
        weaver.state = if weaver.cuts.is_empty() && super::negated(input) {
            let reading = super::read(input, &[], &Answers::new(), 1.0).map_err(NotWoven::TooMany)?;
            State::Done(Box::new(Woven::Plan(plan::settle(input, &reading, Vec::new()))))
        } else if weaver.cuts.is_empty() || catalog.reflexes().is_empty() {
            match decider.decision() {
                Some(d) => State::Done(Box::new(Woven::One(d.clone()))),
                None => State::Whole(decider),
            }
        } else {
            State::First(decider)
        };
        Ok(weaver)
    }

    /// The next round: the words it is asked under and its questions; `None` once woven.
    pub fn questions(&self) -> Option<(&str, &Questions)> {
        match &self.state {
            State::First(_) => Some((&self.input, &self.first)),
            State::Whole(d) => d.questions().map(|q| (self.input.as_str(), q)),
            State::Part { i, decider } => {
                let text = &self.reading.as_ref().expect("parts are read").parts[*i].text;
                decider.questions().map(|q| (text.as_str(), q))
            }
            State::Splice { text, decider, .. } => decider.questions().map(|q| (text.as_str(), q)),
            State::Merge { part, decider, .. } => decider.questions().map(|q| (part.text.as_str(), q)),
            State::Lone { text, decider, .. } => decider.questions().map(|q| (text.as_str(), q)),
            State::Name { questions, .. } => Some((self.input.as_str(), questions)),
            State::Named { i, decider } => {
                let text = &self.reading.as_ref().expect("parts are read").parts[*i].text;
                decider.questions().map(|q| (text.as_str(), q))
            }
            State::Asides { questions } => Some((self.input.as_str(), questions)),
            State::AsOne { decider, .. } => decider.questions().map(|q| (self.input.as_str(), q)),
            State::Again { text, questions, .. } => Some((text.as_str(), questions)),
            State::Rewrite { rewrite, decider, .. } => decider.questions().map(|q| (rewrite.words.as_str(), q)),
            State::Split { k, sides, decider, .. } => decider.questions().map(|q| (sides[*k].text.as_str(), q)),
            State::Done(_) => None,
        }
    }

    /// The whole sentence's candidate spans, as its decision found them.
    pub fn candidates(&self) -> &[crate::recognize::Candidate] {
        &self.candidates
    }

    /// 003's `count`, where the sentence could be cut and its places were asked: how surely it asks one
    /// thing, and whether it stands as one. A plan carries it too; this gives it for a sentence that came
    /// to one input.
    pub fn count(&self) -> Option<super::count::Count> {
        let reading = self.reading.as_ref()?;
        let one = self.stood_as_one || matches!(&self.state, State::Done(w) if matches!(w.as_ref(), Woven::One(_)));
        let as_one = one && reading.splits.iter().any(|s| s.cut);
        super::count::Count::of(&reading.splits, as_one)
    }

    /// The parts set aside as asking for nothing, where the sentence stood as one for them.
    pub fn asides(&self) -> &[super::count::Aside] {
        &self.asides
    }

    pub fn woven(&self) -> Option<&Woven> {
        match &self.state {
            State::Done(woven) => Some(woven.as_ref()),
            _ => None,
        }
    }

    /// Takes the answers to the round [`Self::questions`] handed out.
    pub fn feed(&mut self, answers: &Answers) -> Result<Option<&Woven>, TooMany> {
        let state = std::mem::replace(
            &mut self.state,
            State::Done(Box::new(Woven::Plan(plan::settle("", &empty_reading(), vec![])))),
        );
        self.state = match state {
            State::First(mut decider) => {
                let reading = super::read(&self.input, &self.cuts, answers, self.bar)?;
                let whole = reading.excluded.is_empty() && reading.splits.iter().all(|s| !s.cut);
                self.set_parts(vec![None; reading.parts.len()], false);
                self.reading = Some(reading);
                if whole {
                    decider.feed(answers);
                    match decider.decision().cloned() {
                        Some(decision) => self.whole_done(decision),
                        None => State::Whole(decider),
                    }
                } else {
                    self.next_part(0)
                }
            }
            State::Whole(mut decider) => match decider.feed(answers).cloned() {
                Some(decision) => self.whole_done(decision),
                None => State::Whole(decider),
            },
            State::Part { i, mut decider } => match decider.feed(answers).cloned() {
                Some(decision) => {
                    self.parts[i] = Some((decision, None));
                    self.next_part(i + 1)
                }
                None => State::Part { i, decider },
            },
            State::Splice { i, neighbour, text, mut decider } => match decider.feed(answers).cloned() {
                Some(spliced) => self.splice_done(i, neighbour, spliced),
                None => State::Splice { i, neighbour, text, decider },
            },
            State::Merge { i, part, mut decider } => match decider.feed(answers).cloned() {
                Some(decision) => self.merge_done(i, part, decision),
                None => State::Merge { i, part, decider },
            },
            State::Lone { i, text, mut decider } => match decider.feed(answers).cloned() {
                Some(decision) => self.lone_done(i, text, decision),
                None => State::Lone { i, text, decider },
            },
            State::Name { i, questions } => self.name(i, &questions, answers),
            State::Named { i, mut decider } => match decider.feed(answers).cloned() {
                Some(decision) => self.named_done(i, decision),
                None => State::Named { i, decider },
            },
            State::Asides { questions } => {
                let read = questions.ids().filter_map(|id| match *id {
                    crate::question::QuestionId::Aside { start, end } => {
                        Some(((start, end), super::count::Does::of(answers.get(id)?)))
                    }
                    _ => None,
                });
                self.does = Some(read.collect());
                match self.try_as_one() {
                    Some(state) => state,
                    None => self.after_parts(),
                }
            }
            State::AsOne { one, mut decider } => match decider.feed(answers).cloned() {
                Some(decision) => self.as_one_done(&one, decision),
                None => State::AsOne { one, decider },
            },
            State::Again { i, others, .. } => {
                let (decision, repair) = self.parts[i].clone().expect("decided");
                let candidates = crate::recognize::recognize(&decision.input);
                let (base, more) = again::apply(
                    self.catalog,
                    self.gate.as_ref(),
                    &candidates,
                    &decision,
                    &others,
                    answers,
                    self.bar,
                    &self.input,
                );
                self.parts[i] = Some((base, repair));
                self.extra[i] = more;
                self.again_from = i + 1;
                self.after_parts()
            }
            State::Split { k, sides, mut decided, whole, mut decider } => match decider.feed(answers).cloned() {
                Some(decision) => {
                    decided.push(decision);
                    self.next_side(k + 1, sides, decided, *whole)
                }
                None => State::Split { k, sides, decided, whole, decider },
            },
            State::Rewrite { plan, j, rewrite, mut decider } => match decider.feed(answers).cloned() {
                Some(decision) => {
                    let mut plan = *plan;
                    super::shared::rewritten(self.catalog, &mut plan, j, &rewrite, decision);
                    self.next_rewrite(plan, j + 1)
                }
                None => State::Rewrite { plan, j, rewrite, decider },
            },
            done @ State::Done(_) => done,
        };
        Ok(self.woven())
    }

    /// The whole sentence decided as one input: woven only where it names other values of a list.
    fn whole_done(&mut self, decision: Decision) -> State<'c> {
        if self.cuts.is_empty() || self.reading.is_none() {
            return State::Done(Box::new(Woven::One(decision)));
        }
        self.set_parts(vec![Some((decision, None))], true);
        self.after_parts()
    }

    /// The parts' decisions so far, each with nothing added after it, its words as typed, and every
    /// repair already tried (`tried`) or still to try.
    fn set_parts(&mut self, parts: Vec<Option<(Decision, Option<Repair>)>>, tried: bool) {
        let n = parts.len();
        self.parts = parts;
        self.extra = vec![Vec::new(); n];
        self.spliced_tried = vec![tried; n];
        self.named_tried = vec![tried; n];
        self.merge_tried = vec![tried; n];
        self.lone_tried = vec![tried; n];
        self.typed = vec![None; n];
    }

    fn next_part(&mut self, i: usize) -> State<'c> {
        let reading = self.reading.as_ref().expect("parts are read");
        if i >= reading.parts.len() {
            return self.after_parts();
        }
        match Decider::new(self.catalog, self.gate, &reading.parts[i].text).map(|d| d.within(&self.input)) {
            Ok(decider) => match decider.decision().cloned() {
                Some(decision) => {
                    self.parts[i] = Some((decision, None));
                    self.next_part(i + 1)
                }
                None => State::Part { i, decider },
            },
            // A part of a bounded input is bounded; one that is not found nothing to do.
            Err(_) => {
                self.parts[i] = None;
                self.next_part(i + 1)
            }
        }
    }

    /// After every part is decided: a splice for each part that matched nothing, then `again` for each
    /// step that names other values, then the plan.
    fn after_parts(&mut self) -> State<'c> {
        if !self.as_one_tried {
            self.as_one_tried = true;
            if let Some(state) = self.try_as_one() {
                return state;
            }
        }
        if let Some(state) = self.try_merge() {
            return state;
        }
        if let Some(state) = self.try_lone_verb() {
            return state;
        }
        let reading = self.reading.clone().expect("parts are read");
        let abstains =
            |d: &Option<(Decision, Option<Repair>)>| d.as_ref().is_none_or(|(d, _)| d.outcome == Outcome::Abstain);
        for i in 0..self.parts.len() {
            if !abstains(&self.parts[i]) || self.spliced_tried[i] {
                continue;
            }
            self.spliced_tried[i] = true;
            let Some((neighbour, joined)) = plan::splice_text(&self.input, &reading.parts, i) else { continue };
            if abstains(&self.parts[neighbour]) {
                continue;
            }
            if let Ok(decider) = Decider::new(self.catalog, self.gate, &joined).map(|d| d.within(&self.input))
                && decider.decision().is_none()
            {
                return State::Splice { i, neighbour, text: joined, decider };
            }
        }
        // A part that found nothing alone, and no neighbour's item, may be read as the reflex the whole
        // sentence gives its words.
        if let Some(state) = self.try_named() {
            return state;
        }
        // A plan with a part that found nothing is refused whole: asking more would change nothing.
        if self.parts.iter().any(abstains) {
            return self.finish();
        }
        let planned: usize = self.parts.len() + self.extra.iter().map(Vec::len).sum::<usize>();
        for i in self.again_from..self.parts.len() {
            // A spliced step's words hold its neighbour's values, which are that step's already; a step
            // written again (`again`) is one of the values already.
            let Some((decision, None | Some(Repair::Merged | Repair::Narrowed | Repair::First | Repair::Verb))) =
                &self.parts[i]
            else {
                continue;
            };
            let room = MAX_PARTS.saturating_sub(planned);
            let others = again::others(self.catalog, decision, &self.input, room);
            if others.is_empty() {
                continue;
            }
            let questions = again::round(decision, &others);
            return State::Again { i, text: decision.input.clone(), others, questions };
        }
        self.finish()
    }

    fn finish(&mut self) -> State<'c> {
        let reading = self.reading.clone().expect("parts are read");
        let whole = reading.splits.iter().all(|s| !s.cut) && reading.excluded.is_empty();
        if (whole || self.stood_as_one)
            && self.extra.iter().all(Vec::is_empty)
            && let Some(Some((decision, _))) = self.parts.first().cloned()
        {
            if whole && let Some(state) = self.try_split(decision.clone()) {
                return state;
            }
            return State::Done(Box::new(Woven::One(self.detailed(decision))));
        }
        let reflexes: Vec<&crate::catalog::Reflex> = self
            .parts
            .iter()
            .flatten()
            .filter_map(|(d, _)| d.reflex.as_deref())
            .filter_map(|name| self.catalog.get(name))
            .collect();
        let held = super::two_things::excluded_joins_more(&reading.excluded, &reading.parts, &self.input)
            || super::two_things::excluded_names_no_value(&reading.excluded, &reflexes);
        let mut decided = Vec::new();
        // Per step, the words as typed where the plan wrote them anew.
        let mut typed: Vec<Option<String>> = Vec::new();
        for (i, part) in reading.parts.iter().enumerate() {
            let (decision, repair) = match &self.parts[i] {
                Some(d) => d.clone(),
                None => continue,
            };
            let decision = if held { self.held(&decision) } else { self.detailed(decision) };
            // A step whose words name values `again` wrote steps for is read for its one value: `apart`,
            // with its words as typed.
            let apart = repair.is_none() && !self.extra[i].is_empty();
            let (repair, typed_here) = if apart {
                (Some(Repair::Apart), Some(part.text.clone()))
            } else {
                (repair, self.typed.get(i).cloned().flatten())
            };
            decided.push(plan::Decided { part: part.clone(), decision, repair });
            typed.push(typed_here);
            for more in &self.extra[i] {
                let more = if held { self.held(more) } else { self.detailed(more.clone()) };
                decided.push(plan::Decided { part: part.clone(), decision: more, repair: Some(Repair::Again) });
                typed.push(None);
            }
        }
        let (decided, typed) = self.pointed(decided, typed);
        let (decided, typed, folded) = super::folded::fold(decided, typed);
        let mut plan = plan::settle(&self.input, &reading, decided);
        plan.folded = folded;
        for (step, typed) in plan.steps.iter_mut().zip(typed) {
            if typed.is_some() {
                step.typed = typed;
            }
        }
        if self.stood_as_one {
            plan.count = plan.count.map(|c| super::count::Count { as_one: true, ..c });
            plan.asides = self.asides.clone();
        }
        plan::spare_excluded(self.catalog, self.gate.as_ref(), &mut plan);
        super::shared::share(self.catalog, self.gate.as_ref(), &mut plan);
        self.next_rewrite(plan, 0)
    }

    /// From step `from` on, the next step that leaves an optional value of a list unstated which another
    /// part says, decided again with the word written in (`shared` `via: rewrite`); then the plan's binds.
    fn next_rewrite(&mut self, mut plan: Plan, from: usize) -> State<'c> {
        for j in from..plan.steps.len() {
            let Some(rewrite) = super::shared::rewrite_of(self.catalog, &plan, j) else { continue };
            let Ok(decider) = Decider::new(self.catalog, self.gate, &rewrite.words).map(|d| d.within(&self.input))
            else {
                continue;
            };
            match decider.decision().cloned() {
                Some(decision) => super::shared::rewritten(self.catalog, &mut plan, j, &rewrite, decision),
                None => return State::Rewrite { plan: Box::new(plan), j, rewrite, decider },
            }
        }
        plan::texts_give_way(self.catalog, self.gate.as_ref(), &mut plan);
        plan::refer(self.catalog, &mut plan);
        plan::bind(self.catalog, &mut plan);
        State::Done(Box::new(Woven::Plan(plan)))
    }
}

impl<'c> Weaver<'c> {
    /// A sentence whose parts find one reflex, and nothing else but words that ask for nothing, may ask
    /// one thing: `can you tell me, what is the meaning of life`, `skip this song and play the next one`.
    /// It is decided again whole; it stands as one input when that decision acts on the same reflex.
    fn try_as_one(&mut self) -> Option<State<'c>> {
        let reading = self.reading.as_ref()?;
        let cut = reading.splits.iter().any(|s| s.cut);
        if !cut || !reading.excluded.is_empty() || reading.parts.len() != self.parts.len() {
            return None;
        }
        let parts: Vec<(&super::Part, &Decision)> =
            reading.parts.iter().zip(&self.parts).map(|(p, d)| Some((p, &d.as_ref()?.0))).collect::<Option<_>>()?;
        let catalog = self.catalog;
        // A value of the reflex: a word of its lists, or a typed span of a kind one of its arguments picks.
        let names_a_value = |reflex: &str, text: &str| {
            let Some(reflex) = catalog.get(reflex) else { return false };
            let picks = |kind: crate::recognize::PickKind| {
                reflex.manifest.args.iter().any(|a| a.source == crate::manifest::Source::Pick(kind))
            };
            crate::recognize::recognize(text).iter().any(|c| picks(c.kind))
                || !crate::readback::mentions(text, reflex).is_empty()
        };
        if self.does.is_none() {
            let open = super::count::open_parts(&parts, &names_a_value);
            if !open.is_empty() {
                let asked = open.iter().map(|p| {
                    (crate::question::QuestionId::Aside { start: p.start, end: p.end }, super::count::aside_question(p))
                });
                return Some(State::Asides { questions: Questions(asked.collect()) });
            }
        }
        let read = self.does.as_deref().unwrap_or_default();
        let does = |p: &super::Part| read.iter().find(|(at, _)| *at == (p.start, p.end)).map(|(_, does)| *does);
        let one = super::count::one_reflex(&parts, &names_a_value, &does, self.bar)?;
        let decider = Decider::new(self.catalog, self.gate, &self.input).ok()?;
        Some(match decider.decision().cloned() {
            Some(decision) => self.as_one_done(&one, decision),
            None => State::AsOne { one, decider },
        })
    }

    /// The whole sentence's decision stands when it acts on the reflex the parts found, held for a person
    /// when a part may add a detail it does not read; else the parts go on as they were read.
    fn as_one_done(&mut self, one: &super::count::One, decision: Decision) -> State<'c> {
        if decision.outcome == Outcome::Abstain || decision.reflex.as_deref() != Some(one.reflex.as_str()) {
            return self.after_parts();
        }
        // Words the engine read hold the call too, whatever it read them as.
        self.details = one.asides.iter().filter(|a| !a.remark || a.does.is_some()).map(|a| a.text.clone()).collect();
        self.asides = one.asides.clone();
        let decision = self.detailed(decision);
        // Words that name other values of a list (`the den and the office lights and tell me when it is
        // done`) are read as any step's are (`again`): the sentence goes on as one part, whole.
        if !again::others(self.catalog, &decision, &self.input, MAX_PARTS - 1).is_empty() {
            let whole =
                super::Part { start: 0, end: self.input.chars().count(), text: self.input.clone(), connective: None };
            let reading = self.reading.as_mut().expect("parts are read");
            reading.parts = vec![whole];
            self.set_parts(vec![Some((decision, None))], true);
            self.stood_as_one = true;
            return self.after_parts();
        }
        State::Done(Box::new(Woven::One(decision)))
    }

    /// A decision held for a person where a part set aside may add a detail to it (`because` `detail`).
    fn detailed(&self, decision: Decision) -> Decision {
        if self.details.is_empty() {
            return decision;
        }
        let because = crate::decision::Because::Detail { words: self.details.clone() };
        crate::decide::held_for(self.catalog, &decision, because)
    }
}

impl Weaver<'_> {
    /// A decided step, held for a person as one that may leave a second thing out.
    fn held(&self, decision: &Decision) -> Decision {
        if decision.outcome == Outcome::Abstain {
            return decision.clone();
        }
        let candidates = crate::recognize::recognize(&decision.input);
        crate::decide::held_for_two_things(self.catalog, self.gate.as_ref(), &candidates, decision, &self.input)
    }
}

fn empty_reading() -> Reading {
    Reading { parts: Vec::new(), excluded: Vec::new(), splits: Vec::new() }
}
