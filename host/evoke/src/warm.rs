//! The engine's side of the project's questions, computed ahead at `evoke trust`, `add` and `update`, as
//! component bodies are compiled ahead: an engine that reads the reflexes with a model (`embed`) reads
//! them now, with a bar at a terminal, so that no first decision spends its deadline on it. The bar
//! counts the engine's whole work, fitting included, so the time it says is left holds to the end.
//! Nothing here fails the command: what cannot be computed ahead is computed at the first decision, as
//! before, but for what would take most of a decision's deadline (`embed`'s classifier over hundreds of
//! reflexes), which the decision refuses, naming `evoke trust`.

use crate::progress::Bar;
use crate::render;
use crate::session::{self, Session};
use crate::ui::Ui;

/// Computes ahead what `session`'s engine would compute on the project's first decision.
pub fn ahead(ui: &Ui, session: &Session) {
    let questions = evoke_core::question::templates(&session.catalog);
    let mut bar: Option<Bar> = None;
    let warmed = session.adapter.warm(&questions, &mut |done, total| {
        bar.get_or_insert_with(|| Bar::new(ui, total, "reading the reflexes")).set(done);
    });
    drop(bar);
    if let Err(e) = warmed {
        let message = format!("the engine could not read the reflexes ahead ({e}); the first decision reads them");
        ui.err(&render::warning(&message, None));
    }
}

/// [`ahead`] for the project the options name, when it opens; a project that does not open decides
/// nothing, so there is nothing to compute for it.
pub fn ahead_for(ui: &Ui, options: &session::Options) {
    if let Ok(session) = Session::open(options) {
        ahead(ui, &session);
    }
}
