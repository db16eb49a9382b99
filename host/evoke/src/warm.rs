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
    let mut before = 0;
    let warmed = session.adapter.warm(&questions, &mut |done, total| {
        let bar = bar.get_or_insert_with(|| Bar::new(ui, total, "reading the reflexes"));
        if found(before, done) {
            bar.set_found(done)
        } else {
            bar.set(done)
        }
        before = done;
    });
    drop(bar);
    if let Err(e) = warmed {
        let message = format!("the engine could not read the reflexes ahead ({e}); the first decision reads them");
        ui.err(&render::warning(&message, None));
    }
}

/// How many steps one report of progress takes at most when they are worked now: an encoder reads 16
/// texts at a time, and a fit's step counts for a few texts. More at once were found kept in the cache
/// place (a whole question, or the parts of one a stopped `trust` read).
const WORKED_AT_ONCE: usize = 512;

/// Whether progress from `before` to `done` steps was found kept rather than worked now.
fn found(before: usize, done: usize) -> bool {
    done >= before + WORKED_AT_ONCE
}

/// [`ahead`] for the project the options name, when it opens; a project that does not open decides
/// nothing, so there is nothing to compute for it.
pub fn ahead_for(ui: &Ui, options: &session::Options) {
    if let Ok(session) = Session::open(options) {
        ahead(ui, &session);
    }
}

#[cfg(test)]
mod tests {
    use super::found;

    #[test]
    fn a_kept_part_is_found_and_a_batch_of_texts_is_worked() {
        // A batch of 16 texts, or a step of a large fit, is work; a part of 1,024 texts read from the
        // cache place is not.
        assert!(!found(1_024, 1_040));
        assert!(!found(11_000, 11_028));
        assert!(found(0, 1_024));
        assert!(found(1_650, 1_650 + 4_000));
    }
}
