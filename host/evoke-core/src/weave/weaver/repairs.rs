//! The repairs a plan makes of parts decided on their own (003's `merged`, `narrowed`, `spliced`, `first`,
//! `verb`, `named` and `split`, and the steps `pointed` writes): each decides a part again under other words, or writes it
//! again for values said before it, and keeps the result only where the words bear it out.

use super::{State, Weaver};
use crate::catalog::Catalog;
use crate::decide::Decider;
use crate::decision::{Decision, Outcome};
use crate::validate::Answers;
use crate::weave::plan::{self, Repair};

impl<'c> Weaver<'c> {
    /// 003's `named`: a part that found nothing alone, and was no item of its neighbour's task, is asked
    /// once which reflex the whole sentence gives its words (`weave.span_<start>_<end>`, the route's
    /// choices, asked under the whole sentence).
    pub(super) fn try_named(&mut self) -> Option<State<'c>> {
        let reading = self.reading.as_ref()?;
        let found_nothing =
            |d: &Option<(Decision, Option<Repair>)>| d.as_ref().is_none_or(|(d, _)| d.outcome == Outcome::Abstain);
        // A part asked already that found nothing even so refuses the plan, whatever the others read.
        if self.parts.iter().zip(&self.named_tried).any(|(d, tried)| *tried && found_nothing(d)) {
            return None;
        }
        for i in 0..self.parts.len() {
            if !found_nothing(&self.parts[i]) || self.named_tried[i] {
                continue;
            }
            self.named_tried[i] = true;
            let part = &reading.parts[i];
            let route = self.catalog.route_round().route()?.clone();
            let id = crate::question::QuestionId::Span { start: part.start, end: part.end };
            return Some(State::Name { i, questions: crate::question::Questions(vec![(id, route)]) });
        }
        None
    }

    /// The answer to a part's `weave.span_*`: where its top is a reflex at the route's bar that no other
    /// step acts on, the part is decided as that reflex, judged by that question. The same reflex as
    /// another step is that step's own call, which the splice already tried; an answer under the bar is no
    /// reading.
    pub(super) fn name(&mut self, i: usize, questions: &crate::question::Questions, answers: &Answers) -> State<'c> {
        let Some((id, _)) = questions.0.first() else { return self.after_parts() };
        let Some(route) = answers.get(id) else { return self.after_parts() };
        let (top, p) = route.top();
        let taken = self.parts.iter().enumerate().any(|(k, d)| {
            k != i && d.as_ref().is_some_and(|(d, _)| d.outcome != Outcome::Abstain && d.reflex.as_deref() == Some(top))
        });
        if top == crate::question::NONE || p < self.bar || taken || self.catalog.get(top).is_none() {
            return self.after_parts();
        }
        let text = self.reading.as_ref().expect("parts are read").parts[i].text.clone();
        let Ok(decider) = Decider::new(self.catalog, self.gate, &text).map(|d| d.within(&self.input)) else {
            return self.after_parts();
        };
        let decider = decider.routed(id.clone(), route.clone());
        match decider.decision().cloned() {
            Some(decision) => self.named_done(i, decision),
            None => State::Named { i, decider },
        }
    }

    /// A part decided as the reflex the whole sentence gave it: a step that waits for a person
    /// (`because` `named`), or, where even so it finds nothing, the part it was.
    pub(super) fn named_done(&mut self, i: usize, decision: Decision) -> State<'c> {
        if decision.outcome != Outcome::Abstain {
            let words = self.reading.as_ref().expect("parts are read").parts[i].text.clone();
            let held = crate::decide::held_for(self.catalog, &decision, crate::decision::Because::Named { words });
            self.parts[i] = Some((held, Some(Repair::Named)));
        }
        self.after_parts()
    }

    /// 003's `merged`: two neighbouring parts that act on one reflex, the later pointing back at what the
    /// earlier asks (`take 400 dollars out of checking and put it into savings`), are decided again as one
    /// input. Each pair is tried once.
    pub(super) fn try_merge(&mut self) -> Option<State<'c>> {
        let reading = self.reading.as_ref()?;
        for i in 0..self.parts.len().saturating_sub(1) {
            if self.merge_tried[i] {
                continue;
            }
            self.merge_tried[i] = true;
            let (Some((a, None)), Some((b, None))) = (&self.parts[i], &self.parts[i + 1]) else { continue };
            let Some(part) = plan::merge_of(&self.input, &reading.parts, &reading.excluded, [a, b], i) else {
                continue;
            };
            let Ok(decider) = Decider::new(self.catalog, self.gate, &part.text).map(|d| d.within(&self.input)) else {
                continue;
            };
            return Some(match decider.decision().cloned() {
                Some(decision) => self.merge_done(i, part, decision),
                None => State::Merge { i, part, decider },
            });
        }
        None
    }

    /// 003's `first` and `verb`: two verbs before one thing (`find and delete the old logs`). A part of one
    /// word that found nothing, before a part that acts, is decided again with the words that part's verb
    /// acts on (`find the old logs`). It holds where those words act on another reflex than the second
    /// part's: two acts on one thing, the first read without the second, the second a step of its own
    /// after it. A lone word that reads as the same act (`thanks, turn off the den lights` read as the
    /// lights twice) is no verb of its own, and the parts go on as read.
    pub(super) fn try_lone_verb(&mut self) -> Option<State<'c>> {
        let reading = self.reading.as_ref()?;
        for i in 0..self.parts.len().saturating_sub(1) {
            if self.lone_tried[i] {
                continue;
            }
            self.lone_tried[i] = true;
            let lone_abstains = self.parts[i].as_ref().is_none_or(|(d, _)| d.outcome == Outcome::Abstain);
            let Some((next, None)) = &self.parts[i + 1] else { continue };
            let (lone, thing) = (&reading.parts[i], &reading.parts[i + 1]);
            if !lone_abstains || next.outcome == Outcome::Abstain || lone.end > thing.start {
                continue;
            }
            let (lone_words, thing_words) = (crate::words::words(&lone.text), crate::words::words(&thing.text));
            let ([verb], [_, object, ..]) = (lone_words.as_slice(), thing_words.as_slice()) else { continue };
            // A verb here is a word some reflex's example opens with: a room or a number is none.
            if !opens_an_example(self.catalog, &verb.lower) {
                continue;
            }
            let rest: String = thing.text.chars().skip(object.start).collect();
            let text = format!("{} {rest}", lone.text);
            let Ok(decider) = Decider::new(self.catalog, self.gate, &text).map(|d| d.within(&self.input)) else {
                continue;
            };
            return Some(match decider.decision().cloned() {
                Some(decision) => self.lone_done(i, text, decision),
                None => State::Lone { i, text, decider },
            });
        }
        None
    }

    pub(super) fn lone_done(&mut self, i: usize, text: String, decision: Decision) -> State<'c> {
        let next = self.parts[i + 1].as_ref().and_then(|(d, _)| d.reflex.clone());
        if decision.outcome != Outcome::Abstain && decision.reflex.is_some() && decision.reflex != next {
            let reading = self.reading.as_mut().expect("parts are read");
            self.typed[i] = Some(reading.parts[i].text.clone());
            reading.parts[i].text = text;
            self.parts[i] = Some((decision, Some(Repair::First)));
            if let Some((_, repair)) = self.parts[i + 1].as_mut() {
                *repair = Some(Repair::Verb);
            }
            self.spliced_tried[i] = true;
        }
        self.after_parts()
    }

    /// 003's `pointed`: a step whose words point at several things (`both`, `them`, `each`) and that asks
    /// for an argument earlier steps of its reflex gave two values or more (`dim the den and the office,
    /// then turn both off`) is written once for each of those values, in their order (`repair: spliced`).
    /// Each waits for a person (`because` `pointed`): no word of its own names the value. Steps so written
    /// never take the plan past [`crate::weave::MAX_PARTS`].
    pub(super) fn pointed(
        &self,
        decided: Vec<plan::Decided>,
        typed: Vec<Option<String>>,
    ) -> (Vec<plan::Decided>, Vec<Option<String>>) {
        let mut out: Vec<plan::Decided> = Vec::new();
        let mut out_typed = Vec::new();
        let total = decided.len();
        let excluded = self.reading.as_ref().map(|r| r.excluded.clone()).unwrap_or_default();
        for (k, (d, t)) in decided.into_iter().zip(typed).enumerate() {
            let reflex = d.decision.reflex.as_deref().and_then(|r| self.catalog.get(r));
            // A value a part left out names is no thing the words point at: the person spared it.
            let spared = |arg: &str, value: &crate::decision::Value| {
                let key = match value {
                    crate::decision::Value::Word { word, .. } => word,
                    crate::decision::Value::Option { key } => key,
                    _ => return false,
                };
                reflex.is_some_and(|reflex| {
                    excluded.iter().any(|e| {
                        crate::readback::mentions(&e.text, reflex).iter().any(|(a, k, ..)| a == arg && k == key)
                    })
                })
            };
            let earlier = |arg: &str| {
                let mut values: Vec<crate::decision::Value> = Vec::new();
                for e in out.iter().filter(|e| e.decision.reflex == d.decision.reflex) {
                    if let Some(v) = e.decision.args.as_ref().and_then(|a| a.get(arg))
                        && !values.iter().any(|w| w.shown() == v.shown())
                        && !spared(arg, v)
                    {
                        values.push(v.clone());
                    }
                }
                values
            };
            // A plan holds at most MAX_PARTS steps: a step whose values would pass it stays one step, asking.
            let others = out.len() + (total - k - 1);
            let fits = |n: usize| n >= 2 && others + n <= crate::weave::MAX_PARTS;
            let asked = d.decision.missing.iter().flatten().map(|m| m.arg.clone()).find(|arg| fits(earlier(arg).len()));
            let (Some(arg), Some(words)) = (asked, crate::weave::count::points_at_several(&d.part.text)) else {
                out.push(d);
                out_typed.push(t);
                continue;
            };
            let candidates = crate::recognize::recognize(&d.decision.input);
            for value in earlier(&arg) {
                let answers = [(arg.clone(), value)];
                let filled = crate::decide::answered(
                    self.catalog,
                    self.gate.as_ref(),
                    &candidates,
                    &d.decision,
                    &answers,
                    Some(&self.input),
                );
                let because = crate::decision::Because::Pointed { arg: arg.clone(), words: words.clone() };
                let decision = crate::decide::held_for(self.catalog, &filled, because);
                out.push(plan::Decided { part: d.part.clone(), decision, repair: Some(Repair::Spliced) });
                out_typed.push(None);
            }
        }
        (out, out_typed)
    }

    /// A part tried as an item of its neighbour's task. Where the words together give the neighbour a value
    /// it asked for, keeping every value it took (`turn off the lights, in the den`), the two are one step
    /// (`narrowed`); where they give it another value besides its own (`…, the office`), the part is a step
    /// of its own (`spliced`); else the part stays as it was, and the plan is refused.
    pub(super) fn splice_done(&mut self, i: usize, neighbour: usize, spliced: Decision) -> State<'c> {
        let reading = self.reading.as_ref().expect("parts are read");
        let (theirs, repair) = self.parts[neighbour].clone().expect("decided");
        if !plan::splice_holds(&reading.parts[i], &theirs, &spliced) {
            return self.after_parts();
        }
        if repair.is_none() && plan::narrows(&reading.parts[i], &theirs, &spliced) {
            let (lo, hi) = (i.min(neighbour), i.max(neighbour));
            let (a, b) = (&reading.parts[lo], &reading.parts[hi]);
            let text: String = self.input.chars().skip(a.start).take(b.end - a.start).collect();
            let part = crate::weave::Part { start: a.start, end: b.end, text, connective: a.connective.clone() };
            self.join(lo, part, spliced, Repair::Narrowed);
            return self.after_parts();
        }
        // The neighbour's own value, said in the words spliced in, is its step's.
        let mut spliced = spliced;
        let theirs_named = |arg: &str, word: &str| {
            let value = theirs.args.as_ref().and_then(|a| a.get(arg)).map(|v| v.shown().to_lowercase());
            value.is_some_and(|v| word.to_lowercase() == v)
        };
        super::again::others_spent(&mut spliced, &theirs_named);
        self.parts[i] = Some((spliced, Some(Repair::Spliced)));
        self.after_parts()
    }

    /// Parts `lo` and `lo + 1` become one: `part`, decided as `decision`, made by `repair`.
    pub(super) fn join(&mut self, lo: usize, part: crate::weave::Part, decision: Decision, repair: Repair) {
        let reading = self.reading.as_mut().expect("parts are read");
        reading.parts[lo] = part;
        reading.parts.remove(lo + 1);
        self.parts[lo] = Some((decision, Some(repair)));
        self.parts.remove(lo + 1);
        self.extra.remove(lo + 1);
        self.spliced_tried.remove(lo + 1);
        self.named_tried.remove(lo + 1);
        self.merge_tried.remove(lo + 1);
        self.lone_tried.remove(lo + 1);
        self.typed.remove(lo + 1);
    }

    /// The two parts stand as one step where the words read together act on the reflex each found; else
    /// they stay two.
    pub(super) fn merge_done(&mut self, i: usize, part: crate::weave::Part, decision: Decision) -> State<'c> {
        let theirs = self.parts[i].as_ref().and_then(|(d, _)| d.reflex.clone());
        // The words read together keep every value either part read: a merge never loses one.
        let keeps = |d: &Option<(Decision, Option<Repair>)>| {
            let read = d.as_ref().and_then(|(d, _)| d.args.as_ref()).map(|a| a.0.clone()).unwrap_or_default();
            read.iter().all(|(name, value)| {
                let now = decision.args.as_ref().and_then(|a| a.get(name));
                now.is_some_and(|now| now.shown() == value.shown())
            })
        };
        let acts = decision.outcome != Outcome::Abstain && decision.reflex.is_some() && decision.reflex == theirs;
        if acts && keeps(&self.parts[i]) && keeps(&self.parts[i + 1]) {
            self.join(i, part, decision, Repair::Merged);
        }
        self.after_parts()
    }
}

impl<'c> Weaver<'c> {
    /// 003's `split`: a sentence left whole whose call leaves a side of its one `and` or `then` out
    /// (`two_things`) is decided again side by side, where each side opens as a request does, with a word
    /// some reflex's example opens with (`turn off the den lights and lock the back door`).
    pub(super) fn try_split(&mut self, whole: Decision) -> Option<State<'c>> {
        if self.split_tried || !whole.because.iter().flatten().any(|b| *b == crate::decision::Because::TwoThings) {
            return None;
        }
        self.split_tried = true;
        let reading = self.reading.as_ref()?;
        let joins: Vec<&crate::weave::Split> =
            reading.splits.iter().filter(|s| !s.cut && matches!(s.text.as_str(), "and" | "then")).collect();
        let [join] = joins.as_slice() else { return None };
        // The engine leans towards a cut there at least half as far as a cut needs: a joint it read as
        // surely one request stays one.
        if join.p < self.bar / 2.0 {
            return None;
        }
        let sides = crate::weave::parts_cut_at(&self.input, &[(join.start, join.end)]);
        let opens = |part: &crate::weave::Part| {
            crate::words::words(&part.text).first().is_some_and(|w| opens_an_example(self.catalog, &w.lower))
        };
        if sides.len() != 2 || !sides.iter().all(opens) {
            return None;
        }
        Some(self.next_side(0, sides, Vec::new(), whole))
    }

    /// Decides side `k` of a split, or, with both decided, keeps them where each acts on a reflex of its
    /// own, one of them the call's: each then a step that waits for a person, since the engine read one
    /// request there. Otherwise the call stands as it was read.
    pub(super) fn next_side(
        &mut self,
        k: usize,
        sides: Vec<crate::weave::Part>,
        decided: Vec<Decision>,
        whole: Decision,
    ) -> State<'c> {
        let mut decided = decided;
        if k < sides.len() {
            let Ok(decider) = Decider::new(self.catalog, self.gate, &sides[k].text).map(|d| d.within(&self.input))
            else {
                return State::Done(Box::new(super::Woven::One(self.detailed(whole))));
            };
            return match decider.decision().cloned() {
                Some(decision) => {
                    decided.push(decision);
                    self.next_side(k + 1, sides, decided, whole)
                }
                None => State::Split { k, sides, decided, whole: Box::new(whole), decider },
            };
        }
        let acts = |d: &Decision| {
            matches!(d.outcome, Outcome::Run | Outcome::Confirm)
                && !d.because.iter().flatten().any(|b| {
                    matches!(b, crate::decision::Because::NotARequest { .. } | crate::decision::Because::TwoThings)
                })
        };
        let reflexes: Vec<Option<&str>> = decided.iter().map(|d| d.reflex.as_deref()).collect();
        // The side the call left out names a thing its reflex never speaks of, as `two_things` read it: a
        // side that only says what the speaker knows (`… and i'm not sure why`) is no request of its own.
        let call = whole.reflex.as_deref().and_then(|r| self.catalog.get(r));
        let other = reflexes.iter().position(|r| *r != whole.reflex.as_deref());
        let left_out = match (call, other) {
            (Some(call), Some(k)) => crate::weave::two_things::names_another_thing(&sides[k].text, call),
            _ => false,
        };
        let holds = decided.len() == 2
            && decided.iter().all(acts)
            && reflexes[0] != reflexes[1]
            && reflexes.contains(&whole.reflex.as_deref())
            && left_out;
        if !holds {
            return State::Done(Box::new(super::Woven::One(self.detailed(whole))));
        }
        let reading = self.reading.as_mut().expect("parts are read");
        let (from, to) = (sides[0].end, sides[1].start);
        for split in reading.splits.iter_mut().filter(|s| from <= s.start && s.end <= to) {
            split.cut = true;
        }
        reading.parts = sides;
        let held: Vec<Option<(Decision, Option<Repair>)>> =
            decided.iter().map(|d| Some((self.held(d), Some(Repair::Split)))).collect();
        self.set_parts(held, true);
        self.finish()
    }
}

/// Whether some reflex's example opens with this word (lowercased): how a verb of a request here starts.
fn opens_an_example(catalog: &Catalog, word: &str) -> bool {
    catalog
        .reflexes()
        .iter()
        .flat_map(|r| &r.manifest.examples)
        .any(|e| crate::words::words(&e.utterance).first().is_some_and(|w| w.lower == word))
}
