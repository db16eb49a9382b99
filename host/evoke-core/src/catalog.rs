//! The reflexes a decision reads: the active ones only, each with its effective manifest and the
//! vocabularies its arguments name. An inactive reflex is left out of every question.

use crate::manifest::{Manifest, Source};
use crate::playbook::Playbook;
use crate::question::Questions;
use crate::vocab::Vocabulary;
use std::collections::BTreeMap;
use std::sync::OnceLock;

#[derive(Debug, Clone)]
pub struct Reflex {
    /// The local name the user installed it as.
    pub name: String,
    /// The effective manifest: shipped, with the user's overlay merged in.
    pub manifest: Manifest,
    /// The vocabularies its arguments name, by vocabulary name.
    pub vocabs: BTreeMap<String, Vocabulary>,
}

impl Reflex {
    /// The vocabulary of an argument, when it takes one.
    pub fn vocab_of(&self, arg: &str) -> Option<&Vocabulary> {
        match &self.manifest.arg(arg)?.source {
            Source::Vocab(name) => self.vocabs.get(name),
            _ => None,
        }
    }
}

/// The active reflexes, in the order they were installed.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    reflexes: Vec<Reflex>,
    /// The playbooks among `reflexes`, by local name: each is offered by the route as its synthetic
    /// reflex, and planned, never run, when picked.
    playbooks: Vec<(String, Playbook)>,
    /// Round 1 is the same for every input, so it is built once.
    route: OnceLock<Questions>,
    /// Names installed but inactive, each with why: never offered, only named where a name is refused.
    inactive: Vec<(String, String)>,
}

impl Catalog {
    pub fn new(reflexes: Vec<Reflex>) -> Self {
        Catalog { reflexes, playbooks: Vec::new(), route: OnceLock::new(), inactive: Vec::new() }
    }

    /// Adds the names installed but inactive, each with why, so that a call of one is refused as such
    /// rather than as a name nothing is installed under.
    pub fn with_inactive(mut self, inactive: Vec<(String, String)>) -> Self {
        self.inactive = inactive;
        self
    }

    /// Why the name is installed but inactive, when it is.
    pub fn inactive(&self, name: &str) -> Option<&str> {
        self.inactive.iter().find(|(n, _)| n == name).map(|(_, why)| why.as_str())
    }

    /// Adds the playbooks, each offered as its synthetic reflex (`Playbook::as_reflex`) after the reflexes.
    pub fn with_playbooks(mut self, playbooks: Vec<(Reflex, Playbook)>) -> Self {
        for (reflex, playbook) in playbooks {
            self.playbooks.push((reflex.name.clone(), playbook));
            self.reflexes.push(reflex);
        }
        self.route = OnceLock::new();
        self
    }

    /// Adds more reflexes after those there (the SDK's reflexes handed as code); the route is built anew.
    pub fn with_reflexes(mut self, more: Vec<Reflex>) -> Self {
        self.reflexes.extend(more);
        self.route = OnceLock::new();
        self
    }

    /// The playbook installed under `name`, when the name is a playbook's.
    pub fn playbook(&self, name: &str) -> Option<&Playbook> {
        self.playbooks.iter().find(|(n, _)| n == name).map(|(_, p)| p)
    }

    pub fn playbooks(&self) -> &[(String, Playbook)] {
        &self.playbooks
    }

    pub fn reflexes(&self) -> &[Reflex] {
        &self.reflexes
    }

    /// Round 1: the `route` question over these reflexes.
    pub fn route_round(&self) -> &Questions {
        self.route.get_or_init(|| Questions(vec![(crate::question::QuestionId::Route, crate::question::route(self))]))
    }

    /// Keeps the reflexes `keep` accepts; the route is built anew for the rest.
    pub fn retain(&mut self, keep: impl FnMut(&Reflex) -> bool) {
        self.reflexes.retain(keep);
        let reflexes = &self.reflexes;
        self.playbooks.retain(|(name, _)| reflexes.iter().any(|r| &r.name == name));
        self.route = OnceLock::new();
    }

    pub fn get(&self, name: &str) -> Option<&Reflex> {
        self.reflexes.iter().find(|r| r.name == name)
    }
}
