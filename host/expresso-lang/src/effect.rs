//! The effect lattice: the three-point total order PURE ⊑ MODEL ⊑ WORLD, with join.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Effect {
    Pure,
    Model,
    World,
}

impl Effect {
    /// `⊔`: the least effect at or above both.
    pub fn join(self, other: Effect) -> Effect {
        self.max(other)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Effect::Pure => "pure",
            Effect::Model => "model",
            Effect::World => "world",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Effect::*;

    #[test]
    fn join_is_the_upper_bound_of_the_order() {
        assert_eq!(Pure.join(Model), Model);
        assert_eq!(World.join(Pure), World);
        assert_eq!(Model.join(Model), Model);
        assert!(Pure < Model && Model < World);
    }
}
