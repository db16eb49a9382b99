//! Why a conformance case's input could not be read: the key of the wrong shape, and what it must be. A case
//! that reads but whose function refuses it is not an error here; that refusal is the case's output.

use crate::decide::Refusal;
use crate::validate::AnswerFault;

/// A case's input is of the wrong shape, or names a function there is not.
#[derive(Debug, thiserror::Error)]
pub enum CaseError {
    #[error("no core function is named \"{0}\"")]
    NoFunction(String),
    /// A key the function reads is absent.
    #[error("the input has no \"{key}\"")]
    Missing { key: String },
    /// A key that holds an object or a list is absent or holds something else.
    #[error("the input has no \"{key}\" {kind}")]
    MissingCollection { key: &'static str, kind: &'static str },
    /// A key (or, with `key` `input`, the input itself) that must be a string is not.
    #[error("\"{key}\" must be a string")]
    NotAString { key: String },
    /// The whole input of a function that takes a string is not one.
    #[error("the input must be a string")]
    InputNotAString,
    /// A key whose value does not read as its type: `at` names the key as the case's message shows it.
    #[error("{at}: {reason}")]
    Shape { at: String, reason: serde_json::Error },
    #[error("the case's shipped manifest does not read")]
    ShippedManifest,
    /// The manifest at the newest release tag does not read.
    #[error("the manifest at the newest tag does not read")]
    NewestManifest,
    #[error("the manifest of {reflex} does not read")]
    Manifest { reflex: String },
    #[error("the playbook {name} does not read")]
    Playbook { name: String },
    #[error("the overlay of {reflex} does not read")]
    Overlay { reflex: String },
    #[error("the vocabulary {vocabulary} does not read")]
    Vocabulary { vocabulary: String },
    #[error("a vocabulary must be TOML text")]
    VocabularyNotText { vocabulary: String },
    #[error("unknown pick kind")]
    PickKind { kind: String },
    #[error("no reflex is named \"{name}\"")]
    NoReflex { name: String },
    #[error("answers must be an object of questions")]
    AnswersNotAnObject,
    #[error("the answer to {question} must be an object")]
    AnswerNotAnObject { question: String },
    #[error("{id}: a question's type is \"choice\" or \"yesno\"")]
    QuestionType { id: String },
    #[error("{0}")]
    NotAnId(crate::question::NotAnId),
    /// A key that must be a number is not: `key` is its path, as `route.p`.
    #[error("{key} must be a number")]
    NotANumber { key: &'static str },
    #[error("effect is read, write or destructive")]
    Effect,
    /// `runner_up` without a numeric `route`.
    #[error("runner_up.route")]
    RunnerUpRoute,
    /// A file of an `h1` case without its `path`.
    #[error("every file has a \"path\"")]
    FileWithoutPath,
    #[error("{path}: give \"content\" or \"kind\"")]
    ContentOrKind { path: String },
    /// The input was refused where the case needs it decided.
    #[error("{0}")]
    Refused(Refusal),
    /// The answers the case gives were refused where it needs them valid.
    #[error("{0}")]
    Answer(AnswerFault),
    /// The questions ran out before a decision: `what` is the weave or the decision.
    #[error("the {what} did not finish")]
    Unfinished { what: &'static str },
    /// The output did not turn into JSON.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}
