//! The identities, built exactly as the semantics writes them: verbatim structured strings of log data and
//! program structure, never a clock, a counter or a hash.
//!
//! ```text
//! firingId(a, b, e)      = b.site · "|" · e.id                 (b.site = a.name · "#" · behaviorOrdinal)
//! journalKey(fId, leaf)  = fId · "/" · leaf
//! leaf                   = b.site · "/" · leafOrdinal [":" loopIdx { "." loopIdx }] · "/" · name
//! idemKey(e, leaf, class) = e.id · "|" · leaf · "|" · class
//! ```

/// `agent#behaviorOrdinal`.
pub fn site(agent: &str, behavior: usize) -> String {
    format!("{agent}#{behavior}")
}

pub fn firing_id(site: &str, event_id: &str) -> String {
    format!("{site}|{event_id}")
}

/// A leaf's path: its ordinal in the behavior, the loop index chain when inside `for`, and its name.
pub fn leaf_path(site: &str, ordinal: usize, loops: &[usize], name: &str) -> String {
    if loops.is_empty() {
        format!("{site}/{ordinal}/{name}")
    } else {
        let chain: Vec<String> = loops.iter().map(usize::to_string).collect();
        format!("{site}/{ordinal}:{}/{name}", chain.join("."))
    }
}

/// A fuzzy trigger's leaf: `site/trigger` (the rule E-Fuzzy⊥).
pub fn trigger_path(site: &str) -> String {
    format!("{site}/trigger")
}

pub fn journal_key(firing_id: &str, leaf: &str) -> String {
    format!("{firing_id}/{leaf}")
}

/// `class` is the capability the effect exercises (`tasks.create`).
pub fn idem_key(event_id: &str, leaf: &str, class: &str) -> String {
    format!("{event_id}|{leaf}|{class}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_the_verbatim_strings_of_section_3() {
        let s = site("Triage", 0);
        let f = firing_id(&s, "m1");
        assert_eq!(f, "Triage#0|m1");
        assert_eq!(journal_key(&f, &leaf_path(&s, 0, &[], "classify")), "Triage#0|m1/Triage#0/0/classify");
        assert_eq!(leaf_path("Scribe#2", 1, &[0], "create_task"), "Scribe#2/1:0/create_task");
        assert_eq!(leaf_path("Scribe#2", 1, &[0, 2], "create_task"), "Scribe#2/1:0.2/create_task");
        assert_eq!(
            idem_key("m1", &leaf_path(&s, 2, &[], "create_task"), "tasks.create"),
            "m1|Triage#0/2/create_task|tasks.create"
        );
        assert_eq!(journal_key(&f, &trigger_path(&s)), "Triage#0|m1/Triage#0/trigger");
    }
}
