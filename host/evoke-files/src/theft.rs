//! The theft test: route the installed reflexes' examples over the set with the newcomer in
//! it, and name every phrase the newcomer would take, with its one-line fix. It reports; it never
//! refuses.

use evoke_core::adapter::{Raw, State};
use evoke_core::catalog::{Catalog, Reflex};
use evoke_core::question::Questions;
use evoke_core::validate::validate;

/// A phrase the newcomer would take from the reflex that lists it as an example.
#[derive(Debug, Clone, PartialEq)]
pub struct Theft {
    pub phrase: String,
    /// The installed reflex whose example it is.
    pub owner: String,
    /// The newcomer's route probability, and the owner's.
    pub newcomer_p: f64,
    pub owner_p: f64,
    /// The one-line fix.
    pub fix: String,
}

/// What the test could not do: the engine failed or answered out of bounds. The add goes on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TheftSkipped(pub String);

/// Routes every example of `installed` over `installed` + `newcomer`, one round-1 question each, asking
/// `ask` (the project's engine, driven by the caller).
pub fn theft_test<E: std::fmt::Display>(
    installed: &[Reflex],
    newcomer: &Reflex,
    ask: &mut dyn FnMut(&State, &Questions) -> Result<Raw, E>,
) -> Result<Vec<Theft>, TheftSkipped> {
    let mut all: Vec<Reflex> = installed.iter().filter(|r| r.name != newcomer.name).cloned().collect();
    all.push(newcomer.clone());
    let catalog = Catalog::new(all);
    let questions = catalog.route_round();
    let mut thefts = Vec::new();
    for owner in installed.iter().filter(|r| r.name != newcomer.name) {
        for record in &owner.manifest.examples {
            if record.asserts.is_none() {
                continue;
            }
            let state = State { request: record.utterance.clone() };
            let raw = ask(&state, questions).map_err(|e| TheftSkipped(format!("the engine failed: {e}")))?;
            let answers = validate(questions, &raw).map_err(|f| TheftSkipped(f.to_string()))?;
            let Some(route) = answers.get(&evoke_core::question::QuestionId::Route) else { continue };
            let (top, p) = route.top();
            if top == newcomer.name {
                let owner_p = route.0.iter().find(|(k, _)| *k == owner.name).map_or(0.0, |(_, p)| *p);
                let mut not_for = newcomer.manifest.not_for.clone();
                not_for.push(record.utterance.clone());
                let list =
                    not_for.iter().map(|n| toml::Value::String(n.clone()).to_string()).collect::<Vec<_>>().join(", ");
                thefts.push(Theft {
                    phrase: record.utterance.clone(),
                    owner: owner.name.clone(),
                    newcomer_p: p,
                    owner_p,
                    fix: format!("in overlays/{}.toml: not_for = [{list}]", newcomer.name),
                });
            }
        }
    }
    Ok(thefts)
}
