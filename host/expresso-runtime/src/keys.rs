//! The identities, built exactly as the semantics writes them: verbatim structured strings of log data and
//! program structure, never a clock, a counter or a hash.
//!
//! ```text
//! firingId(a, b, e)      = b.site · "|" · e.id                 (b.site = a.name · "#" · behaviorOrdinal)
//! journalKey(fId, leaf)  = fId · "/" · leaf
//! leaf                   = b.site · "/" · leafOrdinal [":" loopIdx { "." loopIdx }] · "/" · name
//! idemKey(e, leaf, class) = e.id · "|" · leaf · "|" · class
//! ```
//!
//! An agent's name and an event's id may hold any character, the separators too; each is written into a
//! key [`escape`]d, so that no two different `(agent, behavior, event, leaf, class)` make one key. The other
//! parts cannot hold a separator: ordinals and loop indices are numbers, and a leaf's name, a verb and a
//! capability are words joined by `.`.

use std::borrow::Cow;

/// The characters [`escape`] writes as `%XX`: `%` itself, so an escape reads one way only, and the three
/// separators a name or an id is followed by (`#` after a name; `|` and `/` after an id).
const ESCAPED: [char; 4] = ['%', '|', '#', '/'];

/// A name or an id as it is written into a key: each of `%`, `|`, `#` and `/` as `%25`, `%7C`, `%23` and
/// `%2F`, every other character as itself. So a part without them (the usual case) reads as it always did,
/// and a part cannot end early: a name ends at the first `#` of its key, an id at the first `|` or `/` after
/// it.
pub fn escape(part: &str) -> Cow<'_, str> {
    if !part.contains(ESCAPED) {
        return Cow::Borrowed(part);
    }
    let mut out = String::with_capacity(part.len() + 8);
    for c in part.chars() {
        match c {
            '%' => out.push_str("%25"),
            '|' => out.push_str("%7C"),
            '#' => out.push_str("%23"),
            '/' => out.push_str("%2F"),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// `agent#behaviorOrdinal`.
pub fn site(agent: &str, behavior: usize) -> String {
    format!("{}#{behavior}", escape(agent))
}

/// `site` as [`site`] made it; the event id is escaped here.
pub fn firing_id(site: &str, event_id: &str) -> String {
    format!("{site}|{}", escape(event_id))
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

/// `class` is the capability the effect exercises (`tasks.create`); the event id is escaped here.
pub fn idem_key(event_id: &str, leaf: &str, class: &str) -> String {
    format!("{}|{leaf}|{class}", escape(event_id))
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

    #[test]
    fn a_separator_in_a_name_or_an_id_is_escaped_and_nothing_else_is() {
        assert_eq!(site("Z|Y#1/%", 0), "Z%7CY%231%2F%25#0");
        assert_eq!(firing_id(&site("a.b:c", 1), "e|1/2#%"), "a.b:c#1|e%7C1%2F2%23%25");
        assert_eq!(idem_key("e1|Z", "Y#0/0/reply", "message.send"), "e1%7CZ|Y#0/0/reply|message.send");
        assert_eq!(escape("transcript:m-1.2 x"), "transcript:m-1.2 x");
    }

    /// Every pair of an agent name and an event id made of separators, escapes and plain letters, with two
    /// behaviors and two leaves: no two different firings share a journal key and no two different effects
    /// share an idempotency key.
    #[test]
    fn keys_are_injective_over_names_and_ids_made_of_separators() {
        let atoms = ["", "a", "|", "#", "/", "%", "%7C", "0", ":", ".", "Z|Y", "e1|Z", "#0/0/x|y"];
        let mut parts: Vec<String> = Vec::new();
        for x in atoms {
            for y in atoms {
                parts.push(format!("{x}{y}"));
            }
        }
        parts.sort();
        parts.dedup();
        let leaves = [(0usize, &[][..], "reply"), (1, &[0usize][..], "ai.x")];
        let mut journal = std::collections::HashMap::new();
        let mut world = std::collections::HashMap::new();
        for agent in &parts {
            for behavior in 0..2 {
                let s = site(agent, behavior);
                for event in &parts {
                    let f = firing_id(&s, event);
                    let who = (agent.clone(), behavior, event.clone());
                    let trigger = journal_key(&f, &trigger_path(&s));
                    assert_eq!(journal.insert(trigger.clone(), (who.clone(), 9)), None, "{trigger}");
                    for (i, (ordinal, loops, name)) in leaves.iter().enumerate() {
                        let path = leaf_path(&s, *ordinal, loops, name);
                        let j = journal_key(&f, &path);
                        assert_eq!(journal.insert(j.clone(), (who.clone(), i)), None, "{j}");
                        let k = idem_key(event, &path, "message.send");
                        assert_eq!(world.insert(k.clone(), (who.clone(), i)), None, "{k}");
                    }
                }
            }
        }
    }
}
