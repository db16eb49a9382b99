//! The plan file: what it pins, the key it is sealed with, and `evoke try --save FILE`.

use super::{journal_refused, project_key};
use crate::error::{CommandError, CommandResult};
use crate::exit::Exit;
use crate::journal::{Journal, Origin};
use crate::render;
use crate::session::Session;
use crate::ui::Ui;
use crate::weave::PlanDecided;
use evoke_core::weave::plan::Plan;
use std::path::Path;

/// What a plan file pins, as it is here now.
pub fn pins(session: &Session) -> evoke_core::weave::planfile::Pins {
    use evoke_core::project::Setting;
    use evoke_core::weave::planfile::{self, AdapterPin, Pins, ReflexPin};
    let mut reflexes = std::collections::BTreeMap::new();
    let mut vocab = std::collections::BTreeMap::new();
    for reflex in session.catalog.reflexes() {
        // A secret's pin is the variable it is read from, never its value.
        let settings: Vec<(String, String)> = session
            .project
            .settings(&reflex.name)
            .iter()
            .map(|(k, s)| match s {
                Setting::Plain(v) => (k.clone(), format!("plain:{v}")),
                Setting::Env(var) => (k.clone(), format!("env:{var}")),
            })
            .collect();
        for (name, v) in &reflex.vocabs {
            vocab.insert(name.clone(), planfile::vocab(v));
        }
        // A playbook is pinned by the hash of its directory: its steps are its wording.
        if let Some(playbook) = session.project.playbook(&reflex.name) {
            let path = Some(playbook.dir.display().to_string());
            reflexes.insert(reflex.name.clone(), ReflexPin { item: playbook.item.clone(), path });
            continue;
        }
        let path = session.project.installed(&reflex.name).map(|i| i.dir.display().to_string());
        reflexes.insert(reflex.name.clone(), ReflexPin { item: planfile::item(reflex, &settings), path });
    }
    Pins {
        evoke: env!("CARGO_PKG_VERSION").to_string(),
        adapter: AdapterPin { name: session.adapter_name.clone(), id: session.adapter.id().to_string() },
        gate: session.gate,
        set: session.plan.clone(),
        reflexes,
        vocab,
    }
}

/// The key plan files are sealed with, made on first use in the data place.
pub fn plan_key(session: &Session) -> Result<[u8; evoke_files::plan_key::KEY_BYTES], CommandError> {
    evoke_files::plan_key::key(&session.places.data).map_err(|e| CommandError::failed(e.to_string()))
}

/// `evoke try --save FILE`: the plan whole, sealed, written atomically. Its journal is begun empty here,
/// so that running the file finds it: a file whose journal is missing asks before each write.
pub fn save(ui: &Ui, session: &Session, woven: &PlanDecided, path: &Path) -> CommandResult {
    let sealed = seal_plan(session, &woven.plan, &woven.answers, None)?;
    evoke_files::atomic::write(path, sealed.as_bytes())
        .map_err(|e| CommandError::failed(format!("cannot write {}: {e}", path.display())))?;
    ui.err(&render::plan_saved(&path.display().to_string()));
    Ok(Exit::Done)
}

/// A plan file's text, sealed, with its journal begun (kept as it is when the same plan was saved before).
/// It carries the session's tags, since its pins are of the reflexes those tags let take part.
pub fn seal_plan(
    session: &Session,
    plan: &Plan,
    answers: &[evoke_core::weave::planfile::Answer],
    asked: Option<&str>,
) -> Result<String, CommandError> {
    let weave = serde_json::to_value(plan).unwrap_or_default();
    let tags = &session.tags;
    let text = evoke_core::weave::planfile::write(&pins(session), &plan.input, tags, weave, answers.to_vec(), asked);
    let key = plan_key(session)?;
    let sealed = evoke_core::weave::planfile::seal(&text, &key);
    let opened = evoke_core::weave::planfile::unseal(&sealed, &key)
        .map_err(|e| CommandError::failed(format!("the plan just sealed does not open: {e}")))?;
    let digest = plan.digest();
    let origin = Origin::File { seal: &opened.mac };
    let project = project_key(session);
    let mut journal =
        Journal::open(&session.places.state, &project, &digest, origin, &plan.input, true).map_err(journal_refused)?;
    // The same plan saved again has the same seal: its journal, with what already ran, is kept as it is.
    if !journal.found() {
        journal.keep().map_err(|e| CommandError::failed(format!("the plan's journal cannot be begun: {e}")))?;
    }
    Ok(sealed)
}
