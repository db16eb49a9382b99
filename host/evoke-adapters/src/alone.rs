//! An argument's question asked of words of the request alone (`weave.alone_<start>_<end>_<reflex>__<arg>`,
//! 003's `anchored`): an in-process engine answers it as it answers that argument's question of a request
//! that is only those words.

use evoke_core::adapter::{AdapterError, Raw, State};
use evoke_core::question::{Question, QuestionId, Questions};
use std::collections::BTreeMap;

/// The answer to `id` when it asks of words alone, from `engine` reading only those words; `None` for any
/// other question.
pub fn answer(
    request: &str,
    id: &QuestionId,
    question: &Question,
    engine: impl FnOnce(&State, &Questions) -> Result<Raw, AdapterError>,
) -> Option<Result<BTreeMap<String, f64>, AdapterError>> {
    let QuestionId::Alone { start, end, reflex, arg } = id else { return None };
    let words: String = request.chars().skip(*start).take(end.saturating_sub(*start)).collect();
    let asked = QuestionId::arg(reflex, arg);
    let questions = Questions(vec![(asked.clone(), question.clone())]);
    Some(engine(&State { request: words }, &questions).and_then(|mut raw| {
        raw.remove(&asked.to_string()).ok_or_else(|| AdapterError::new("the words alone were not answered"))
    }))
}
