//! `local`, the embedded default: offline, deterministic, no download. It answers from the
//! question texts alone: the route from the reflexes' descriptions, examples and `not_for` entries; a fit
//! from the same reading; an argument from its keys and their texts and the request's words.
//!
//! `answer` receives the texts on every call, so the route question is made ready once per distinct
//! text (a vector space over its descriptions and examples) and kept inside the adapter. A fit is read
//! from the route model that offered the same reflex with the same description; with none at hand it is
//! read from the fit's own texts.
//!
//! Given a place to keep them ([`Engine::keep_models_in`]), route models outlive the process: a later
//! process reads the fitted model back instead of fitting it again ([`stored`]).

pub(crate) mod args;
pub mod calibration;
pub mod cut;
mod lexicon;
pub(crate) mod literal;
pub mod route;
pub(crate) mod routing;
mod settings;
pub mod space;
pub mod stored;
pub(crate) mod thread;
pub(crate) mod weave;
pub use evoke_core::words;

pub use calibration::{ArgParams, GATE, Params};
pub use settings::{Settings, SettingsError};

use crate::engine::{Shared, constants_digest};
use evoke_core::adapter::{AdapterError, AnswerFuture, Cancel, Gate, Raw, State};
use evoke_core::question::{Question, QuestionId, Questions, Text};
use route::RouteModel;
use routing::{answered_as_route, fit_as_route, plain};
use std::collections::{BTreeMap, HashSet};
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

/// How many distinct route questions are kept ready.
const KEPT: usize = 4;

/// A route's answer, shared between the route and the fits that read it again.
type Distribution = Arc<Vec<(String, f64)>>;

/// The engine, shared with the thread each call computes on.
pub type Local = Shared<Engine>;

pub struct Engine {
    id: String,
    params: Params,
    arg_params: ArgParams,
    settings: Settings,
    gate: Gate,
    models: Mutex<Vec<(u64, Arc<RouteModel>)>>,
    /// Where fitted route models are kept between processes, when anywhere.
    store: OnceLock<PathBuf>,
    /// The last route read, so that the fits of the same request do not read it again.
    last: Mutex<Option<(String, u64, Distribution)>>,
    /// A test's hook: how long each answer takes on top of its computing.
    #[cfg(test)]
    slow: std::time::Duration,
}

impl Default for Local {
    fn default() -> Self {
        Local::new(Settings::default())
    }
}

impl Local {
    pub fn new(settings: Settings) -> Local {
        Local::with_params(settings, Params::default(), ArgParams::default(), GATE)
    }

    /// From a project's `[adapters.local]` table.
    pub fn from_table(table: Option<&toml::Table>) -> Result<Local, SettingsError> {
        Ok(Local::new(Settings::read(table)?))
    }

    /// With other constants: what the benchmark tunes.
    pub fn with_params(settings: Settings, mut params: Params, arg_params: ArgParams, gate: Gate) -> Local {
        params.threshold += settings.none_bias;
        let digest = constants_digest(&format!(
            "{}\n{params:?}\n{arg_params:?}\n{gate:?}\n{:?}",
            calibration::VERSION,
            settings.synonyms
        ));
        let id = format!("local/{} {digest}", calibration::VERSION);
        Shared(Arc::new(Engine {
            id,
            params,
            arg_params,
            settings,
            gate,
            models: Mutex::new(Vec::new()),
            store: OnceLock::new(),
            last: Mutex::new(None),
            #[cfg(test)]
            slow: std::time::Duration::ZERO,
        }))
    }
}

impl Engine {
    /// Keeps the route models fitted from now on in `dir` (the cache place's `local/`), and reads them
    /// from there before fitting. Set once: a later call changes nothing.
    pub fn keep_models_in(&self, dir: PathBuf) {
        let _ = self.store.set(dir);
    }

    /// The route model of this question, built once per distinct text (read from the kept models when
    /// a place is given).
    pub fn model(&self, question: &Question) -> Option<Arc<RouteModel>> {
        self.model_kept(question, true)
    }

    /// The model, kept between processes when `keep` and a place is given: a fit's question standing
    /// alone is cheap to read and is never kept.
    fn model_kept(&self, question: &Question, keep: bool) -> Option<Arc<RouteModel>> {
        let key = text_hash(question);
        let mut models = self.models.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = models.iter().position(|(k, _)| *k == key) {
            let found = models.remove(i);
            let model = found.1.clone();
            models.push(found);
            return Some(model);
        }
        let model = Arc::new(match self.store.get().filter(|_| keep) {
            Some(dir) => stored::load_or_fit(dir, &self.id, question, self.params)?.0,
            None => RouteModel::build(question, self.params)?,
        });
        if models.len() >= KEPT {
            models.remove(0);
        }
        models.push((key, model.clone()));
        Some(model)
    }

    fn route(&self, request: &str, question: &Question, keep: bool) -> Option<(u64, Arc<RouteModel>, Distribution)> {
        let key = text_hash(question);
        let model = self.model_kept(question, keep)?;
        {
            let last = self.last.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((r, k, d)) = last.as_ref()
                && r == request
                && *k == key
            {
                return Some((key, model, d.clone()));
            }
        }
        let distribution = Arc::new(model.distribution(request));
        *self.last.lock().unwrap_or_else(|e| e.into_inner()) = Some((request.to_string(), key, distribution.clone()));
        Some((key, model, distribution))
    }

    /// A fit: the route's probability of the reflex, from the route question that offered it.
    fn fit(&self, request: &str, name: &str, question: &Question) -> f64 {
        let Question::Yesno { yes, no, .. } = question else { return 0.0 };
        let description = plain(yes);
        let models: Vec<(u64, Arc<RouteModel>)> = self.models.lock().unwrap_or_else(|e| e.into_inner()).clone();
        for (key, model) in models.iter().rev() {
            if model.find(name, description).is_none() {
                continue;
            }
            let last = self.last.lock().unwrap_or_else(|e| e.into_inner()).clone();
            let distribution = match last {
                Some((r, k, d)) if r == request && k == *key => d,
                _ => Arc::new(model.distribution(request)),
            };
            return distribution.iter().find(|(k, _)| k == name).map_or(0.0, |(_, p)| *p);
        }
        // No route question at hand: the fit's own texts stand as a route of one reflex.
        let alone = fit_as_route(name, description, no);
        self.route(request, &alone, false)
            .and_then(|(_, _, d)| d.iter().find(|(k, _)| k == name).map(|(_, p)| *p))
            .unwrap_or(0.0)
    }

    /// Every question answered, synchronously.
    pub fn answer_now(&self, state: &State, questions: &Questions) -> Result<Raw, AdapterError> {
        #[cfg(test)]
        std::thread::sleep(self.slow);
        let request = &state.request;
        let request_words = words::words(request);
        let said = evoke_core::mention::said_in_round(request, questions);
        let common = self.common_words(questions);
        let empty = HashSet::new();
        let reading = |id: &QuestionId| args::Reading {
            request: &request_words,
            params: &self.arg_params,
            synonyms: &self.settings.synonyms,
            said: said.iter().find(|(i, _)| i == id).map(|(_, s)| s),
            common: reflex_of(id).and_then(|r| common.get(r)).unwrap_or(&empty),
        };
        // A sentence this engine cuts into several requests is routed by the words the plan decides first:
        // the plan never uses the whole sentence's route once it cuts, and that part's own route round then
        // finds its answer ready instead of reading the words again.
        let routed = self.first_part(request, questions);
        let mut raw = Raw::new();
        for (id, question) in &questions.0 {
            if let Some(answer) = crate::alone::answer(request, id, question, |s, q| self.answer_now(s, q)) {
                raw.insert(id.to_string(), answer?);
                continue;
            }
            if let Some(answer) = weave::answer(request, id, question, questions) {
                let answer = match id.cut() {
                    Some(place) => self.cut_read(request, place, questions, answer),
                    None => answer,
                };
                raw.insert(id.to_string(), answer);
                continue;
            }
            let answer: BTreeMap<String, f64> = match (id, question) {
                (_, Question::Choice { .. }) if answered_as_route(id, question) => {
                    let (_, _, d) = self
                        .route(routed.as_deref().unwrap_or(request), question, true)
                        .ok_or_else(|| AdapterError::new("the route offers nothing"))?;
                    d.iter().cloned().collect()
                }
                (_, Question::Choice { .. }) => {
                    let reading = reading(id);
                    let words = args::answer_choice(&reading, question);
                    literal::lifted(request, &reading, question, words, self.arg_params.literal).into_iter().collect()
                }
                (QuestionId::Fits { reflex }, Question::Yesno { .. }) => {
                    [("yes".to_string(), self.fit(request, reflex, question))].into_iter().collect()
                }
                (_, Question::Yesno { .. }) => {
                    [("yes".to_string(), args::answer_yesno(&reading(id), question))].into_iter().collect()
                }
            };
            raw.insert(id.to_string(), answer);
        }
        Ok(raw)
    }
}

impl Engine {
    /// The words of the part a woven sentence's plan decides first, when this round asks where to cut it
    /// and this engine reads a cut at one place or more (at the route's bar, as the plan does).
    fn first_part(&self, request: &str, questions: &Questions) -> Option<String> {
        questions.route()?;
        let mut at = Vec::new();
        for (id, question) in &questions.0 {
            let Some(place) = id.cut() else { continue };
            let answer = weave::answer(request, id, question, questions)?;
            let answer = self.cut_read(request, place, questions, answer);
            if answer.get(evoke_core::question::YES).is_some_and(|p| *p >= self.gate.route) {
                at.push(place);
            }
        }
        if at.is_empty() {
            return None;
        }
        evoke_core::weave::parts_cut_at(request, &at).into_iter().next().map(|p| p.text)
    }

    /// A place to cut, read by [`cut`]'s reader from the words' rules' answer and the route on either
    /// side of it (up to the round's neighbouring places) and on the whole sentence. A place a negation
    /// opens stays cut as the rules read it.
    fn cut_read(
        &self,
        request: &str,
        place: (usize, usize),
        questions: &Questions,
        answer: BTreeMap<String, f64>,
    ) -> BTreeMap<String, f64> {
        let rule = answer.get(evoke_core::question::YES).copied().unwrap_or(0.0);
        let Some(features) = self.cut_features(request, place, questions, rule) else { return answer };
        if weave::opens_with_negation(&features.1) {
            return answer;
        }
        let p = cut::weigh_with(cut::weights(), &features.0);
        // Two clauses that each open as a request here does (`start a timer and play some rain sounds`)
        // are two commands as the words read them; the reader weighs every other place.
        let p = if cut::two_commands(&features.0) { p.max(rule) } else { p };
        // A question and another request joined by `and` or a comma (`what goes in a caesar dressing and
        // what can i use in place of anchovies`) ask two things, unless one reflex reads both and the second
        // points back at the first.
        let p = if features.2 { p.max(weave::SURE) } else { p };
        [("yes".to_string(), p), ("no".to_string(), 1.0 - p)].into_iter().collect()
    }

    /// The features [`cut`]'s reader weighs at one place, and the words after the place; `None` where the
    /// round has no route.
    fn cut_features(
        &self,
        request: &str,
        place: (usize, usize),
        questions: &Questions,
        rule: f64,
    ) -> Option<(cut::Features, String, bool)> {
        let route = questions.route()?;
        let chars: Vec<char> = request.chars().collect();
        if place.0 > place.1 || place.1 > chars.len() {
            return None;
        }
        let words_between = |a: usize, b: usize| {
            chars[a.min(b).min(chars.len())..b.min(chars.len())].iter().any(|c| c.is_alphanumeric())
        };
        // The neighbouring places with words between them and this one: `, then` is one join.
        let mut places: Vec<(usize, usize)> = questions.0.iter().filter_map(|(id, _)| id.cut()).collect();
        places.sort_unstable();
        let from =
            places.iter().filter(|p| p.1 <= place.0 && words_between(p.1, place.0)).map(|p| p.1).max().unwrap_or(0);
        let to = places
            .iter()
            .filter(|p| p.0 >= place.1 && words_between(place.1, p.0))
            .map(|p| p.0)
            .min()
            .unwrap_or(chars.len());
        let stretch = |a: usize, b: usize| chars[a.min(b)..b].iter().collect::<String>();
        let (left, right) = (stretch(from, place.0), stretch(place.1, to));
        let connective = weave::read_as(stretch(place.0, place.1).to_lowercase());
        let model = self.model_kept(route, true)?;
        let top = |d: &[(String, f64)]| d.iter().cloned().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap_or_default();
        let (l, r) = (top(&model.distribution(&left)), top(&model.distribution(&right)));
        let whole = model.distribution(request);
        let on = |key: &str| whole.iter().find(|(k, _)| k == key).map_or(0.0, |(_, p)| *p);
        // A clause opens as a request where its first word past the leading ones is a command verb: a
        // common one, or a word of its own (not a small word) that this project's examples open with.
        // `before you X`, `after you X`: the `you` is no word of the request (the weave reads it so too).
        let ordered = matches!(connective.trim(), "before" | "after");
        let first_of = |text: &str| {
            let ws = words::words(text);
            let mut rest = ws.into_iter().skip_while(|w| cut::LEAD.contains(&w.lower.as_str())).peekable();
            if ordered && rest.peek().is_some_and(|w| w.lower == "you") {
                rest.next();
            }
            rest.next()
        };
        let opens = |text: &str| first_of(text).is_some_and(|w| weave::opens_a_command(&w, questions));
        let asks = |text: &str| first_of(text).is_some_and(|w| weave::opens_a_question(&w));
        let sides = cut::Sides {
            right_opens_request: opens(&right),
            left_opens_request: opens(&left),
            connective: &connective,
            left: &left,
            right: &right,
            rule,
            left_top: (&l.0, l.1),
            right_top: (&r.0, r.1),
            whole_on_left: on(&l.0),
            whole_on_right: on(&r.0),
        };
        let features = cut::features(&sides);
        let has = |name: &str| features.iter().any(|(n, x)| n == name && *x == 1.0);
        let requests = (opens(&left) || asks(&left)) && (opens(&right) || asks(&right));
        let a_question = (asks(&left) || asks(&right)) && matches!(connective.trim(), "and" | ",");
        let two_requests = requests && a_question && !(has("sides.same") && has("right.points_back"));
        Some((features, right, two_requests))
    }

    /// Every place to cut of a round and the features [`cut`]'s reader weighs there, with the words'
    /// rules' answer: what `cut-fit` (benches/clinc) fits the reader's weights on.
    pub fn cut_places(&self, request: &str, questions: &Questions) -> Vec<((usize, usize), cut::Features)> {
        let mut out = Vec::new();
        for (id, question) in &questions.0 {
            let Some(place) = id.cut() else { continue };
            let Some(answer) = weave::answer(request, id, question, questions) else { continue };
            let rule = answer.get(evoke_core::question::YES).copied().unwrap_or(0.0);
            if let Some((features, ..)) = self.cut_features(request, place, questions, rule) {
                out.push((place, features));
            }
        }
        out
    }

    /// Per reflex of the round's argument questions, the stems no example teaches: every key and meaning
    /// of its arguments, and its description as the route question that offered it says it.
    fn common_words(&self, questions: &Questions) -> BTreeMap<String, HashSet<String>> {
        let models = self.models.lock().unwrap_or_else(|e| e.into_inner()).clone();
        common_words(questions, |reflex| {
            models
                .iter()
                .rev()
                .find_map(|(_, m)| m.options.iter().find(|o| o.key == reflex).map(|o| o.description.clone()))
        })
    }
}

/// The reflex an argument's question is about, whose common words its reading sets aside.
pub(crate) fn reflex_of(id: &QuestionId) -> Option<&str> {
    match id {
        QuestionId::Arg { reflex, .. } => Some(reflex),
        _ => None,
    }
}

/// Per reflex, the words an example never teaches: every option key and meaning its argument questions
/// offer in this round, and its own description (as the route that chose it gave it, `description`),
/// since those already name a value or say what the reflex is for. "turn" is in the lights' description;
/// taught to `on` by the example "turn on the kitchen lights", it read "turn of the kitchen lights" as `on`.
pub(crate) fn common_words(
    questions: &Questions,
    description: impl Fn(&str) -> Option<String>,
) -> BTreeMap<String, HashSet<String>> {
    let mut out = option_words(questions);
    for (reflex, set) in out.iter_mut() {
        if let Some(d) = description(reflex) {
            set.extend(words::words(&d).into_iter().map(|w| w.stem));
        }
    }
    out
}

/// Per reflex, the stems of every option key and meaning its argument questions offer in this round: words
/// an example never teaches, since they already name a value.
pub(crate) fn option_words(questions: &Questions) -> BTreeMap<String, HashSet<String>> {
    let mut out: BTreeMap<String, HashSet<String>> = BTreeMap::new();
    for (id, question) in &questions.0 {
        let Some(reflex) = reflex_of(id) else { continue };
        let Question::Choice { options, .. } = question else { continue };
        let set = out.entry(reflex.to_string()).or_default();
        for (key, text) in &options.0 {
            set.extend(words::words(key).into_iter().map(|w| w.stem));
            set.extend(words::words(plain(text)).into_iter().map(|w| w.stem));
        }
    }
    out
}

/// A hash of every text of a question, the key its model is kept under.
fn text_hash(question: &Question) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    if let Question::Choice { options, otherwise, .. } = question {
        otherwise.hash(&mut h);
        for (key, text) in &options.0 {
            key.hash(&mut h);
            match text {
                Text::Plain(s) => s.hash(&mut h),
                Text::Rich { what, not_for, examples } => {
                    what.hash(&mut h);
                    not_for.hash(&mut h);
                    examples.hash(&mut h);
                }
            }
        }
    }
    h.finish()
}

impl crate::engine::Engine for Engine {
    fn id(&self) -> &str {
        &self.id
    }

    fn gate(&self) -> Gate {
        self.gate
    }

    fn answer_later(self: Arc<Self>, state: State, questions: Questions, _cancel: Cancel) -> AnswerFuture<'static> {
        thread::answer_on_a_thread("evoke-local", move || self.answer_now(&state, &questions))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use evoke_core::adapter::Adapter;
    use evoke_core::catalog::{Catalog, Reflex};
    use evoke_core::decide::Decider;
    use evoke_core::decision::{Decision, Value};
    use evoke_core::manifest::read_manifest;
    use evoke_core::question::NONE;
    use evoke_core::question::Options;
    use evoke_core::validate::validate;
    use evoke_core::vocab::read_vocab;
    use std::time::{Duration, Instant};

    fn reflex(name: &str, manifest: &str, vocabs: &[(&str, &str)]) -> Reflex {
        let reading = read_manifest("reflex.toml", manifest, &|_: &str| true);
        let manifest = reading.value.unwrap_or_else(|| panic!("{name}: {:?}", reading.diagnostics));
        let vocabs = vocabs
            .iter()
            .map(|(v, text)| (v.to_string(), read_vocab(v, "vocab.toml", text).value.expect("the vocabulary reads")))
            .collect();
        Reflex { name: name.into(), manifest, vocabs }
    }

    /// The steps a sentence weaves into, each the reflex it acts on, answered by `local`.
    fn woven(catalog: &Catalog, input: &str) -> evoke_core::weave::weaver::Woven {
        use evoke_core::weave::weaver::Weaver;
        let local = Local::default();
        let mut weaver = Weaver::new(catalog, Some(local.gate), input).expect("in bounds");
        while let Some((text, questions)) = weaver.questions() {
            let questions = questions.clone();
            let raw = local.answer_now(&State { request: text.into() }, &questions).expect("answers");
            weaver.feed(&validate(&questions, &raw).expect("valid")).expect("within bounds");
        }
        weaver.woven().expect("woven").clone()
    }

    fn steps(catalog: &Catalog, input: &str) -> Vec<String> {
        use evoke_core::weave::weaver::Woven;
        match woven(catalog, input) {
            Woven::One(d) => d.reflex.iter().cloned().collect(),
            Woven::Plan(p) => p.steps.iter().map(|s| s.decision.reflex.clone().unwrap_or_default()).collect(),
        }
    }

    fn money() -> Catalog {
        let transfer = r#"reflex = 1
description = "Move money between two of my accounts."
effect = "write"
confirm = "Move the money?"
run = "transfer.mjs"
[examples]
"transfer 100 dollars from checking to savings" = {}
"move money into my savings account" = {}
"put 50 dollars in my savings" = {}
"take 20 dollars out of checking and move it to savings" = {}
"#;
        let balance = r#"reflex = 1
description = "Say how much money is in one of my accounts."
effect = "read"
confirm = "Read the balance?"
run = "balance.mjs"
[examples]
"what is my checking balance" = {}
"how much money is in my savings account" = {}
"show me the balance of my savings" = {}
"#;
        Catalog::new(vec![reflex("transfer", transfer, &[]), reflex("balance", balance, &[])])
    }

    #[test]
    fn two_stretches_of_one_reflex_where_the_second_points_back_are_one_request() {
        let catalog = money();
        assert_eq!(steps(&catalog, "take 400 dollars out of checking and put it into savings"), ["transfer"]);
        // Two reflexes stay two steps, and so does one reflex said twice without pointing back.
        assert_eq!(
            steps(&catalog, "move 400 dollars into savings and show me the savings balance"),
            ["transfer", "balance"]
        );
        assert_eq!(
            steps(&catalog, "transfer 100 dollars to savings and move 50 dollars to checking"),
            ["transfer", "transfer"]
        );
    }

    #[test]
    fn a_request_with_a_remark_after_and_is_one_step() {
        let catalog = money();
        // The words alone read a request after `and … don't`; the reader weighs the place and keeps it whole.
        for input in [
            "my savings balance looks wrong and i don't know why",
            "it seems my checking balance is low and i'm not sure why",
        ] {
            assert_eq!(steps(&catalog, input), ["balance"], "{input}");
        }
    }

    #[test]
    fn two_commands_joined_by_and_are_two_steps() {
        let catalog = money();
        assert_eq!(
            steps(&catalog, "show me my savings balance and transfer 50 dollars to checking"),
            ["balance", "transfer"]
        );
    }

    #[test]
    fn two_questions_joined_by_and_are_two_steps() {
        use evoke_core::weave::weaver::Woven;
        let catalog = money();
        // Two questions are two parts; here both make the one read `balance` (it takes no account), so the
        // second folds into the first: the same read reads the same thing.
        let Woven::Plan(plan) = woven(&catalog, "how much money is in checking and what is my savings balance") else {
            panic!("two questions are two parts")
        };
        assert!(plan.splits.iter().any(|s| s.cut), "{:?}", plan.splits);
        assert_eq!(plan.steps.len(), 1, "{:?}", plan.steps);
        assert_eq!(plan.folded.len(), 1, "{:?}", plan.folded);
        assert_eq!(
            steps(&catalog, "how much money is in my savings account and move 50 dollars into checking"),
            ["balance", "transfer"]
        );
    }

    /// One decision through the decision path, answered by `local`.
    fn decide(catalog: &Catalog, input: &str) -> Decision {
        let local = Local::default();
        let mut decider = Decider::new(catalog, Some(local.gate), input).expect("in bounds");
        while let Some(questions) = decider.questions() {
            let questions = questions.clone();
            let raw = local.answer_now(&State { request: input.into() }, &questions).expect("answers");
            decider.feed(&validate(&questions, &raw).expect("valid"));
        }
        decider.decision().expect("decided").clone()
    }

    fn option(decision: &Decision, arg: &str) -> Option<String> {
        match decision.args.as_ref()?.get(arg)? {
            Value::Option { key } => Some(key.clone()),
            Value::Word { word, .. } => Some(word.clone()),
            other => Some(format!("{other:?}")),
        }
    }

    #[test]
    fn a_value_read_from_a_word_no_key_names_is_anchored_by_that_word_asked_alone() {
        let home = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/examples/home");
        let manifest = std::fs::read_to_string(format!("{home}/reflexes/lights/reflex.toml")).expect("the lights");
        let rooms = std::fs::read_to_string(format!("{home}/vocab/rooms.toml")).expect("the rooms");
        let catalog = Catalog::new(vec![reflex("lights", &manifest, &[("rooms", &rooms)])]);
        let d = decide(&catalog, "douse the den lights");
        assert_eq!(option(&d, "state").as_deref(), Some("off"), "{d:?}");
        let state = d.basis.as_ref().and_then(|b| b.0.iter().find(|(a, _)| a == "state")).map(|(_, b)| b.clone());
        assert!(
            matches!(&state, Some(evoke_core::decision::Basis::View { words, anchored: true, .. }) if words == &["douse"]),
            "{state:?}"
        );
    }

    #[test]
    fn two_arguments_over_the_same_units_each_read_their_own() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../reflexes/convert/reflex.toml"))
            .expect("the shipped convert reflex");
        let catalog = Catalog::new(vec![reflex("convert", &text, &[])]);
        for (input, from, to) in [
            ("convert 10 miles to km", "mi", "km"),
            ("convert 10 km into miles", "km", "mi"),
            ("convert to kg from 3 pounds", "lb", "kg"),
        ] {
            let d = decide(&catalog, input);
            assert_eq!(d.reflex.as_deref(), Some("convert"), "{input}");
            assert_eq!((option(&d, "from"), option(&d, "to")), (Some(from.into()), Some(to.into())), "{input}: {d:?}");
        }
        // A unit said once fills one argument: `to` is asked for.
        let d = decide(&catalog, "convert 10 km");
        assert_eq!(option(&d, "from").as_deref(), Some("km"));
        assert_eq!(option(&d, "to"), None, "{d:?}");
    }

    #[test]
    fn a_sentence_said_as_one_reflex_s_example_with_the_others_sharing_no_word_is_decided() {
        // The attack: the route answered NaN for the others (0/0), validation refused it and the decision
        // failed with exit 6.
        let manifest = |what: &str, example: &str| {
            format!(
                "reflex = 1\ndescription = \"{what}\"\neffect = \"write\"\nconfirm = \"{what}?\"\nrun = \"r.mjs\"\n\n[examples]\n\"{example}\" = {{}}\n"
            )
        };
        let catalog = Catalog::new(vec![
            reflex("door", &manifest("Lock the front door.", "lock the front door"), &[]),
            reflex("music", &manifest("Play songs by an artist.", "play some jazz"), &[]),
            reflex("weather", &manifest("Tell tomorrow's forecast.", "will it rain"), &[]),
        ]);
        let d = decide(&catalog, "lock the front door");
        assert_eq!(d.reflex.as_deref(), Some("door"), "{d:?}");
    }

    const HEAT: &str = r#"reflex = 1
description = "Set a thermostat to a temperature."
effect = "write"
confirm = "Set {device} to {degrees}?"
run = "heat.mjs"

[args.device]
ask = "Which thermostat?"
vocab = "devices"

[args.degrees]
ask = "To how many degrees?"
pick = "number"
"#;

    #[test]
    fn the_longest_vocabulary_word_said_wins_whatever_the_order() {
        for devices in [
            "thermostat = \"The hall thermostat.\"\n\"office thermostat\" = \"The one upstairs.\"\n",
            "\"office thermostat\" = \"The one upstairs.\"\nthermostat = \"The hall thermostat.\"\n",
        ] {
            let catalog = Catalog::new(vec![reflex("heat", HEAT, &[("devices", devices)])]);
            let d = decide(&catalog, "set office thermostat to 19");
            assert_eq!(option(&d, "device").as_deref(), Some("office thermostat"), "{devices}: {d:?}");
            let d = decide(&catalog, "set the thermostat to 19");
            assert_eq!(option(&d, "device").as_deref(), Some("thermostat"), "{devices}: {d:?}");
        }
    }

    /// Lights that switch on or off, one example teaching `snuff` for `off`.
    const ON_OFF_LIGHTS: &str = r#"reflex = 1
description = "Turn the lights in one room on or off."
effect = "write"
confirm = "Set the lights {state}?"
run = "lights.mjs"

[args.state]
ask = "What should the lights do?"
options.on = "Switch on."
options.off = "Switch off."

[examples]
"turn on the kitchen lights" = { state = "on" }
"snuff the lamps" = { state = "off" }
"#;

    #[test]
    fn an_example_teaches_the_option_it_asserts() {
        let catalog = Catalog::new(vec![reflex("lights", ON_OFF_LIGHTS, &[])]);
        let d = decide(&catalog, "snuff the lights in the den");
        assert_eq!(option(&d, "state").as_deref(), Some("off"), "{d:?}");
        // What the example teaches is its own word, not the words every request of the reflex says.
        let d = decide(&catalog, "turn on the lights");
        assert_eq!(option(&d, "state").as_deref(), Some("on"), "{d:?}");
        let d = decide(&catalog, "the lights in the den");
        assert_eq!(option(&d, "state"), None, "{d:?}");
    }

    #[test]
    fn a_key_said_in_a_polite_closing_names_no_value() {
        let catalog = Catalog::new(vec![reflex("lights", ON_OFF_LIGHTS, &[])]);
        for input in ["turn off the lights, and so on", "turn off the lights and so on"] {
            let d = decide(&catalog, input);
            assert_eq!(option(&d, "state").as_deref(), Some("off"), "{input}: {d:?}");
        }
    }

    #[test]
    fn a_slow_answer_is_raced_against_the_deadline_not_waited_for() {
        let mut local = Local::default();
        Arc::get_mut(&mut local.0).unwrap().slow = Duration::from_secs(5);
        let question = Question::Choice {
            ask: String::new(),
            options: Options(vec![
                ("yes".into(), Text::Plain("Yes.".into())),
                (NONE.into(), Text::Plain(String::new())),
            ]),
            otherwise: Some(NONE.into()),
        };
        let questions = Questions(vec![(QuestionId::arg("t", "x"), question)]);
        let state = State { request: "yes please".into() };
        let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
        let started = Instant::now();
        let answered = runtime.block_on(async {
            tokio::time::timeout(Duration::from_millis(100), local.answer(&state, &questions, &Cancel::new())).await
        });
        assert!(answered.is_err(), "the deadline fired first: {answered:?}");
        assert!(started.elapsed() < Duration::from_secs(3), "did not wait for the engine: {:?}", started.elapsed());
    }
}
