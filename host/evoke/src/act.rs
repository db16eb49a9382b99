//! Acting on a decided call, the same way for a sentence, a step of a plan and a call by name: the confirm
//! asked of the person (`ui::Person`), the values it misses asked for, the body prepared for its reflex, and
//! what the run printed shown.

use crate::body::{self, Prepared};
use crate::error::CommandError;
use crate::exit::Exit;
use crate::render;
use crate::session::Session;
use crate::ui::{Person, Question, Ui};
use evoke_core::decision::{Decision, Prompt, Value};
use std::time::{Duration, Instant};

/// Asks a person to confirm (evoke's own line first, so the reflex's words can never pass for evoke's). The
/// time the person takes is added to `waited`: a prompt never counts against the deadline.
pub fn confirmed(person: &dyn Person, prompt: &Prompt, waited: &mut Duration) -> bool {
    let asked = Instant::now();
    let yes = person.confirm(Question::Call(prompt));
    *waited += asked.elapsed();
    yes
}

/// Why the values a decision misses were not all given.
#[derive(Debug, Clone, PartialEq)]
pub enum Unanswered {
    /// The person left a question unanswered.
    Left,
    /// The person's answer is none of the question's choices.
    Refused { arg: String, why: crate::prompt::NotAChoice },
}

/// Asks the person for each value the decision misses, in order, each answer admitted only as one of its
/// choices (`prompt::admit`); a vocabulary word answered carries the value its entry delivers.
pub fn ask_missing(
    person: &dyn Person,
    catalog: &evoke_core::catalog::Catalog,
    decision: &evoke_core::decision::Decision,
) -> Result<Vec<(String, Value)>, Unanswered> {
    let mut answers: Vec<(String, Value)> = Vec::new();
    for missing in decision.missing.clone().unwrap_or_default() {
        let answer = person.ask(&missing).ok_or(Unanswered::Left)?;
        let mut value = crate::prompt::admit(&missing, &answer)
            .map_err(|why| Unanswered::Refused { arg: missing.arg.clone(), why })?;
        if let Value::Word { word, value: delivered } = &mut value {
            let reflex = decision.reflex.as_deref().and_then(|r| catalog.get(r));
            *delivered =
                reflex.and_then(|r| r.vocab_of(&missing.arg)).and_then(|v| v.find(word)).and_then(|w| w.value.clone());
        }
        answers.push((missing.arg.clone(), value));
    }
    Ok(answers)
}

/// The decided call's body, ready to run: its reflex found here, its values and settings resolved.
pub fn prepare(session: &Session, decision: &Decision, deadline: Instant) -> Result<Prepared, CommandError> {
    let name = decision.reflex.as_deref().unwrap_or_default();
    let (Some(reflex), Some(dir)) = (session.catalog.get(name), body::dir_of(&session.project, name)) else {
        return Err(CommandError::failed(format!("{name} is not installed here")));
    };
    let args = decision.args.clone().unwrap_or_default();
    Ok(body::prepare(&session.project, reflex, &dir, &args, &decision.input, deadline)?)
}

/// What a run printed, shown to a person (under `--json` its line says it); the exit it means.
pub fn shown(ui: &Ui, ran: &evoke_bodies::Ran, json: bool) -> Exit {
    match &ran.result {
        Ok(output) => {
            if !json {
                ui.out(&render::result(&output.text));
            }
            Exit::Done
        }
        Err(failure) => {
            if !json {
                ui.err(&render::failure(failure));
            }
            Exit::Failed
        }
    }
}
