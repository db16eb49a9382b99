//! The route: which reflex a request asks for, or none. Each reflex stands as its description, its
//! examples and its `not_for` entries, all as the route question's option texts carry them. A request is
//! compared with every text; a reflex scores by its nearest examples and its description, less what its
//! `not_for` entries claim; the scores become a distribution through a softmax against a fixed score
//! for `none`, whose two constants were fitted on held-out data (see `calibration.rs`).

use super::calibration::Params;
use super::space::Spaces;
use super::words::{Word, is_stop, words};
use evoke_core::question::{Question, Text};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// What one text of the route question is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
enum Kind {
    Description,
    Example,
    NotFor,
}

/// One reflex of the route question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RouteOption {
    pub key: String,
    pub description: String,
    pub not_for: Vec<String>,
}

/// A route question made ready to answer: its texts in one space.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RouteModel {
    pub params: Params,
    pub options: Vec<RouteOption>,
    /// The sentinel's key and its place among the options offered.
    pub otherwise: Option<String>,
    /// Every key offered, in order.
    pub keys: Vec<String>,
    spaces: Spaces,
    /// One text per reflex: its description and examples together, weighed by how few reflexes share a
    /// feature.
    classes: Spaces,
    /// Per text: the option it belongs to and what it is.
    docs: Vec<(usize, Kind)>,
    /// Per reflex: the stems of the content words its description and examples say.
    grounds: Vec<HashSet<String>>,
}

/// How likely a reflex can be at most when the request shares no content word with anything it says:
/// letter runs alone then carry the score, and in a small catalog they rank reflexes by chance.
pub const UNGROUNDED_CAP: f64 = 0.15;

fn content_stems(text: &str) -> impl Iterator<Item = String> {
    words(text).into_iter().filter(|w| !is_stop(w)).map(|w| w.stem)
}

/// Whether a key is the sentinel `none` of this question.
fn is_sentinel(key: &str, otherwise: Option<&str>) -> bool {
    Some(key) == otherwise
}

impl RouteModel {
    /// Reads a choice question whose options are reflexes. `None` for a yes/no.
    pub fn build(question: &Question, params: Params) -> Option<RouteModel> {
        let Question::Choice { options, otherwise, .. } = question else { return None };
        let mut texts: Vec<&str> = Vec::new();
        let mut docs = Vec::new();
        let mut model_options = Vec::new();
        let mut joined: Vec<String> = Vec::new();
        let mut keys = Vec::new();
        let mut grounds: Vec<HashSet<String>> = Vec::new();
        for (key, text) in &options.0 {
            keys.push(key.clone());
            if is_sentinel(key, otherwise.as_deref()) {
                continue;
            }
            let i = model_options.len();
            match text {
                Text::Plain(what) => {
                    texts.push(what);
                    docs.push((i, Kind::Description));
                    model_options.push(RouteOption {
                        key: key.clone(),
                        description: what.clone(),
                        not_for: Vec::new(),
                    });
                    joined.push(what.clone());
                    grounds.push(content_stems(what).collect());
                }
                Text::Rich { what, not_for, examples } => {
                    texts.push(what);
                    docs.push((i, Kind::Description));
                    for e in examples {
                        texts.push(e);
                        docs.push((i, Kind::Example));
                    }
                    for n in not_for {
                        texts.push(n);
                        docs.push((i, Kind::NotFor));
                    }
                    model_options.push(RouteOption {
                        key: key.clone(),
                        description: what.clone(),
                        not_for: not_for.clone(),
                    });
                    grounds.push(std::iter::once(what).chain(examples).flat_map(|t| content_stems(t)).collect());
                    joined.push(std::iter::once(what).chain(examples).cloned().collect::<Vec<_>>().join(" \n "));
                }
            }
        }
        let spaces = Spaces::build(&texts, params.shape);
        let joined: Vec<&str> = joined.iter().map(String::as_str).collect();
        let classes = if params.class > 0.0 { Spaces::build(&joined, params.shape) } else { Spaces::default() };
        Some(RouteModel {
            params,
            options: model_options,
            otherwise: otherwise.clone(),
            keys,
            spaces,
            classes,
            docs,
            grounds,
        })
    }

    /// Whether a model read back holds together: its spaces, one text's kind and owner per text, one
    /// set of grounds per reflex, one key per reflex and the sentinel's. A model that does not is not
    /// used.
    pub fn holds_together(&self) -> bool {
        let n = self.options.len();
        let offered = self.keys.iter().filter(|k| !is_sentinel(k, self.otherwise.as_deref())).count();
        self.spaces.holds_together()
            && (self.params.class <= 0.0 || (self.classes.holds_together() && self.classes.len() == n))
            && self.docs.len() == self.spaces.len()
            && self.docs.iter().all(|(i, _)| *i < n)
            && self.grounds.len() == n
            && offered == n
            && self.keys.len() == n + usize::from(self.otherwise.as_ref().is_some_and(|o| self.keys.contains(o)))
    }

    /// Each reflex's score for a request, in option order.
    pub fn scores_of(&self, request: &str) -> Vec<f32> {
        self.scores(&words(request))
    }

    /// Each reflex's score for the request, in option order.
    pub fn scores(&self, request: &[Word]) -> Vec<f32> {
        let p = &self.params;
        let sims = self.spaces.sims(request, p.words_share);
        let class = if p.class > 0.0 { self.classes.sims(request, p.class_words) } else { Vec::new() };
        let n = self.options.len();
        let mut best: Vec<[f32; 3]> = vec![[0.0; 3]; n];
        let mut description = vec![0.0f32; n];
        let mut not_for = vec![0.0f32; n];
        // The nearest example alone, without the description: what a `not_for` entry must be nearer than.
        let mut example = vec![None::<f32>; n];
        for (sim, (i, kind)) in sims.iter().zip(&self.docs) {
            match kind {
                Kind::Description => {
                    description[*i] = *sim;
                    insert(&mut best[*i], *sim * p.description_as_example);
                }
                Kind::Example => {
                    insert(&mut best[*i], *sim);
                    example[*i] = Some(example[*i].map_or(*sim, |e| e.max(*sim)));
                }
                Kind::NotFor => not_for[*i] = not_for[*i].max(*sim),
            }
        }
        (0..n)
            .map(|i| {
                let [a, b, c] = best[i];
                let mean = match p.k {
                    1 => a,
                    2 => (a + b) / 2.0,
                    _ => (a + b + c) / 3.0,
                };
                let nearest = p.nearest * a + (1.0 - p.nearest) * mean;
                // An entry counts once it is nearer the request than every example the author gave: a
                // description that names what the reflex is not for (a routine that dims the bedroom, never
                // one room alone) would otherwise outweigh the entry that says so.
                let penalty = (not_for[i] - example[i].unwrap_or(a)).max(0.0);
                let class = class.get(i).copied().unwrap_or(0.0);
                (1.0 - p.class) * nearest + p.class * class + p.description * description[i] - p.not_for * penalty
            })
            .collect()
    }

    /// The distribution over every key offered, in the order offered.
    pub fn distribution(&self, request: &str) -> Vec<(String, f64)> {
        let ws = words(request);
        let scores = self.scores(&ws);
        let mut distribution = self.distribution_from(&scores);
        self.ground(&ws, &mut distribution);
        distribution
    }

    /// Caps a reflex that shares no content word with the request at [`UNGROUNDED_CAP`], giving the rest
    /// to `none`: what the request says must be something the reflex says too before it can be chosen.
    fn ground(&self, request: &[Word], distribution: &mut [(String, f64)]) {
        let Some(otherwise) = self.otherwise.as_deref() else { return };
        let said: HashSet<&str> = request.iter().filter(|w| !is_stop(w)).map(|w| w.stem.as_str()).collect();
        let mut freed = 0.0;
        let mut option = 0;
        for (key, p) in distribution.iter_mut() {
            if key == otherwise {
                continue;
            }
            let grounded = self.grounds.get(option).is_some_and(|g| said.iter().any(|s| g.contains(*s)));
            if !grounded && *p > UNGROUNDED_CAP {
                freed += *p - UNGROUNDED_CAP;
                *p = UNGROUNDED_CAP;
            }
            option += 1;
        }
        if let Some((_, none)) = distribution.iter_mut().find(|(k, _)| k == otherwise) {
            *none += freed;
        }
    }

    /// The distribution from the scores: the best reflex gets the probability that it is right, read
    /// from its score and its lead over the second (a logistic fitted on held-out data); the rest is
    /// shared between `none` and the other reflexes, by a softmax of their scores.
    pub fn distribution_from(&self, scores: &[f32]) -> Vec<(String, f64)> {
        let p = &self.params;
        let beta = f64::from(p.beta);
        let mut first = (usize::MAX, f64::NEG_INFINITY);
        let mut second = 0.0f64;
        for (i, s) in scores.iter().enumerate() {
            let s = f64::from(*s);
            if s > first.1 {
                second = first.1.max(0.0);
                first = (i, s);
            } else if s > second {
                second = s;
            }
        }
        let mut probs = vec![0.0f64; scores.len()];
        let mut none;
        if first.0 == usize::MAX {
            none = 1.0;
        } else {
            let (a, b, c, d) = p.calibration;
            let n = (scores.len() as f64).ln();
            let z = f64::from(a) * (first.1 - f64::from(p.threshold))
                + f64::from(b) * (first.1 - second)
                + f64::from(c)
                + f64::from(d) * n;
            let top = 1.0 / (1.0 + (-z).exp());
            let max = first.1 * beta;
            let weights: Vec<f64> = scores.iter().map(|s| (beta * f64::from(*s) - max).exp()).collect();
            let rest: f64 = weights.iter().sum::<f64>() - 1.0;
            let share = if self.otherwise.is_some() { f64::from(p.none_share) } else { 0.0 };
            // The others' weights can all round away beside the best's 1 (a sentence said word for word
            // as one reflex's example, the rest scoring nothing, leaves them under 1e-16 at beta 40): then
            // they share nothing, rather than 0/0 making every one NaN.
            let shared = rest > 0.0 && rest.is_finite();
            let others = if shared { (1.0 - top) * (1.0 - share) } else { 0.0 };
            for (i, w) in weights.iter().enumerate() {
                probs[i] = if i == first.0 {
                    top
                } else if shared && w.is_finite() {
                    others * w / rest
                } else {
                    0.0
                };
            }
            none = if self.otherwise.is_some() { 1.0 - top - others } else { 0.0 };
            if self.otherwise.is_none() {
                // Without a sentinel, the best reflex takes what `none` would have.
                probs[first.0] += 1.0 - top - others;
            }
        }
        // A score that is no number (none is expected), or no score at all, must not make the answer
        // none: an answer with a probability that is not finite, or not summing to 1, is refused whole and
        // the decision with it. It falls to `none`, or, without a sentinel, is shared alike.
        let unread = first.0 == usize::MAX && self.otherwise.is_none();
        if unread || !(probs.iter().all(|p| p.is_finite()) && none.is_finite()) {
            probs.iter_mut().for_each(|p| *p = 0.0);
            none = 1.0;
            if self.otherwise.is_none() && !probs.is_empty() {
                let alike = 1.0 / probs.len() as f64;
                probs.iter_mut().for_each(|p| *p = alike);
            }
        }
        let mut out = Vec::with_capacity(self.keys.len());
        let mut next = 0;
        for key in &self.keys {
            if is_sentinel(key, self.otherwise.as_deref()) {
                out.push((key.clone(), none));
            } else {
                out.push((key.clone(), probs[next]));
                next += 1;
            }
        }
        out
    }

    /// The option whose key and description these are, when this question offers it.
    pub fn find(&self, key: &str, description: &str) -> Option<usize> {
        self.options.iter().position(|o| o.key == key && o.description == description)
    }
}

/// Keeps the three highest values, highest first.
fn insert(best: &mut [f32; 3], x: f32) {
    if x > best[0] {
        best[2] = best[1];
        best[1] = best[0];
        best[0] = x;
    } else if x > best[1] {
        best[2] = best[1];
        best[1] = x;
    } else if x > best[2] {
        best[2] = x;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use evoke_core::question::Options;

    /// Three reflexes: the route question a project of them asks, with the sentinel.
    fn three_reflexes() -> Question {
        let reflex = |key: &str, what: &str, examples: &[&str]| {
            (
                key.to_string(),
                Text::Rich {
                    what: what.into(),
                    not_for: vec![],
                    examples: examples.iter().map(|e| e.to_string()).collect(),
                },
            )
        };
        Question::Choice {
            ask: String::new(),
            options: Options(vec![
                reflex("door", "Lock or unlock the front door.", &["lock the front door", "unlock the door"]),
                reflex("music", "Play songs by an artist.", &["play some jazz", "put on beethoven"]),
                reflex("weather", "Tell tomorrow's forecast.", &["will it rain", "how warm is it outside"]),
                ("none".into(), Text::Plain("".into())),
            ]),
            otherwise: Some("none".into()),
        }
    }

    fn assert_a_distribution(distribution: &[(String, f64)]) {
        assert!(distribution.iter().all(|(_, p)| p.is_finite() && (0.0..=1.0).contains(p)), "{distribution:?}");
        let total: f64 = distribution.iter().map(|(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-9, "sums to {total}: {distribution:?}");
    }

    #[test]
    fn a_reflex_s_example_said_word_for_word_is_a_finite_distribution_summing_to_1() {
        // The attack: the others' weights rounded away beside the best's, and 0/0 made them NaN.
        let m = RouteModel::build(&three_reflexes(), Params::default()).unwrap();
        let scores = m.scores_of("lock the front door");
        assert!(scores[1] <= 0.0 && scores[2] <= 0.0, "the others must score nothing: {scores:?}");
        let distribution = m.distribution("lock the front door");
        assert_a_distribution(&distribution);
        assert_eq!(distribution[0].0, "door");
        assert!(distribution[0].1 > 0.5, "{distribution:?}");
    }

    #[test]
    fn scores_that_are_no_number_or_none_at_all_still_give_a_distribution() {
        let m = RouteModel::build(&three_reflexes(), Params::default()).unwrap();
        for scores in [
            vec![1.0, 0.0, 0.0],
            vec![1.0, -5.0, -5.0],
            vec![f32::NAN, 0.2, 0.1],
            vec![f32::NAN; 3],
            vec![f32::INFINITY, 0.0, 0.0],
            vec![f32::NEG_INFINITY; 3],
        ] {
            let distribution = m.distribution_from(&scores);
            assert_eq!(distribution.len(), 4);
            assert_a_distribution(&distribution);
        }
        let Question::Choice { ask, mut options, .. } = three_reflexes() else { unreachable!() };
        options.0.pop();
        let alone = RouteModel::build(&Question::Choice { ask, options, otherwise: None }, Params::default()).unwrap();
        for scores in [vec![1.0, 0.0, 0.0], vec![f32::NAN; 3]] {
            assert_a_distribution(&alone.distribution_from(&scores));
        }
    }

    #[test]
    fn joined_texts_score() {
        let q = Question::Choice {
            ask: String::new(),
            options: Options(vec![
                (
                    "translate".into(),
                    Text::Rich {
                        what: "Translate.".into(),
                        not_for: vec![],
                        examples: vec!["how do i say hotel in finnish".into(), "translate this to french".into()],
                    },
                ),
                (
                    "timer".into(),
                    Text::Rich {
                        what: "Timer.".into(),
                        not_for: vec![],
                        examples: vec!["set a timer for ten minutes".into(), "start a countdown".into()],
                    },
                ),
                ("none".into(), Text::Plain("".into())),
            ]),
            otherwise: Some("none".into()),
        };
        let p = Params { class: 1.0, description: 0.0, ..Params::default() };
        let m = RouteModel::build(&q, p).unwrap();
        let s = m.scores(&words("how do i say goodbye in french"));
        eprintln!("{s:?}");
        assert!(s[0] > s[1]);
    }

    #[test]
    fn a_not_for_entry_nearer_than_every_example_counts_though_the_description_is_nearer() {
        // A routine described by what its steps do (the bedroom dimmed) and fenced from dimming one room:
        // its description is the nearest of its texts to `dim the bedroom lights`, its examples are far.
        let rich = |what: &str, examples: &[&str], not_for: &[&str]| Text::Rich {
            what: what.into(),
            not_for: not_for.iter().map(|s| s.to_string()).collect(),
            examples: examples.iter().map(|s| s.to_string()).collect(),
        };
        let q = Question::Choice {
            ask: String::new(),
            options: Options(vec![
                (
                    "lights".into(),
                    rich(
                        "Turn the lights in one room on, off, or dim them to make it darker.",
                        &["turn on the kitchen lights", "dim the office to 30 percent", "switch the lights off"],
                        &["asking whether a light is on"],
                    ),
                ),
                (
                    "good_night".into(),
                    rich(
                        "Wind the house down for the night: the lights off downstairs and the bedroom dimmed low.",
                        &["good night", "goodnight house", "night mode for the house"],
                        &["turning off the lights in one room", "dimming one room"],
                    ),
                ),
                ("none".into(), Text::Plain("".into())),
            ]),
            otherwise: Some("none".into()),
        };
        let m = RouteModel::build(&q, Params::default()).unwrap();
        let d = m.distribution("dim the bedroom lights");
        assert!(d[0].1 > d[1].1, "the lights, not the routine: {d:?}");
        let d = m.distribution("good night");
        assert!(d[1].1 > d[0].1, "the routine's own words still pick it: {d:?}");
    }
}
