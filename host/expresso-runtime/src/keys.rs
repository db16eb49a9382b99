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

/// A leaf's path: its part (its ordinal in the behavior, or the author's stable id in its place, as
/// [`KeyPart`](expresso_lang::ast::KeyPart) prints), the loop index chain when inside `for`, and its name.
pub fn leaf_path(site: &str, part: impl std::fmt::Display, loops: &[usize], name: &str) -> String {
    if loops.is_empty() {
        format!("{site}/{part}/{name}")
    } else {
        let chain: Vec<String> = loops.iter().map(usize::to_string).collect();
        format!("{site}/{part}:{}/{name}", chain.join("."))
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

/// A key read back into its parts: an idemKey (`e.id|leaf|class`) or a journal key (`firingId/leaf`).
/// The agent's name and the event's id stay as the key writes them ([`escape`]d).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ReadKey<'a> {
    pub agent: &'a str,
    pub behavior: usize,
    pub event: &'a str,
    /// The leaf ordinal or the stable id in its place; `trigger` for a fuzzy trigger's journal key.
    pub part: &'a str,
    /// The length of the loop index chain.
    pub loops: usize,
    /// The leaf's name or the action's verb; `None` for a fuzzy trigger's journal key.
    pub name: Option<&'a str>,
    /// An idemKey's capability; `None` for a journal key.
    pub class: Option<&'a str>,
}

/// Reads an idemKey as [`idem_key`] writes it; `None` for anything else.
pub fn read_idem_key(key: &str) -> Option<ReadKey<'_>> {
    let (event, rest) = key.split_once('|')?;
    let (leaf, class) = rest.rsplit_once('|')?;
    let (agent, behavior, part, loops, name) = read_leaf(leaf)?;
    let word = |w: &str| !w.is_empty() && w.split('.').all(|p| !p.is_empty() && p.bytes().all(is_word_byte));
    if !word(class) || escape_free(event).is_none() {
        return None;
    }
    Some(ReadKey { agent, behavior, event, part, loops, name: Some(name?), class: Some(class) })
}

/// Reads a journal key as [`journal_key`] writes it (a fuzzy trigger's too); `None` for anything else.
pub fn read_journal_key(key: &str) -> Option<ReadKey<'_>> {
    let (site, rest) = key.split_once('|')?;
    let (event, leaf) = rest.split_once('/')?;
    escape_free(event)?;
    let (agent, behavior, part, loops, name) = read_leaf(leaf)?;
    if leaf.get(..site.len()) != Some(site) || leaf.as_bytes().get(site.len()) != Some(&b'/') {
        return None;
    }
    Some(ReadKey { agent, behavior, event, part, loops, name, class: None })
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// A part written [`escape`]d holds no separator.
fn escape_free(part: &str) -> Option<&str> {
    if part.contains(['|', '#', '/']) { None } else { Some(part) }
}

/// `agent#behavior/part[:chain]/name`, or `agent#behavior/trigger` (whose name is `None`).
#[allow(clippy::type_complexity)]
fn read_leaf(leaf: &str) -> Option<(&str, usize, &str, usize, Option<&str>)> {
    let (agent, rest) = leaf.split_once('#')?;
    escape_free(agent)?;
    let (behavior, rest) = rest.split_once('/')?;
    let behavior = number(behavior)?;
    if rest == "trigger" {
        return Some((agent, behavior, rest, 0, None));
    }
    let (part_chain, name) = rest.split_once('/')?;
    let (part, loops) = match part_chain.split_once(':') {
        Some((part, chain)) => {
            for index in chain.split('.') {
                number(index)?;
            }
            (part, chain.split('.').count())
        }
        None => (part_chain, 0),
    };
    let id_like = |p: &str| !p.is_empty() && p.bytes().all(|b| is_word_byte(b) || b == b'-' || b == b'.');
    let name_like = !name.is_empty() && name.split('.').all(|p| !p.is_empty() && p.bytes().all(is_word_byte));
    if !id_like(part) || !name_like {
        return None;
    }
    Some((agent, behavior, part, loops, Some(name)))
}

fn number(digits: &str) -> Option<usize> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// A name or an id as it was before [`escape`]: each `%XX` read back (for a message to a person).
pub fn unescape(part: &str) -> String {
    let mut out = String::with_capacity(part.len());
    let mut rest = part;
    while let Some(at) = rest.find('%') {
        out.push_str(&rest[..at]);
        let code = rest.get(at..at + 3);
        let c = match code {
            Some("%25") => '%',
            Some("%7C") => '|',
            Some("%23") => '#',
            Some("%2F") => '/',
            _ => {
                out.push('%');
                rest = &rest[at + 1..];
                continue;
            }
        };
        out.push(c);
        rest = &rest[at + 3..];
    }
    out.push_str(rest);
    out
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
    fn a_stable_id_takes_the_ordinals_place_and_keys_read_back() {
        use expresso_lang::ast::{KeyPart, Name};
        let id = Name { text: "create-bug".into(), span: Default::default() };
        let s = site("Tri|age", 0);
        let path = leaf_path(&s, KeyPart::of(2, Some(&id)), &[1, 0], "create_task");
        assert_eq!(path, "Tri%7Cage#0/create-bug:1.0/create_task");
        assert_eq!(leaf_path(&s, KeyPart::of(2, None), &[], "create_task"), "Tri%7Cage#0/2/create_task");
        let key = idem_key("m|1", &path, "tasks.create");
        let read = read_idem_key(&key).unwrap();
        assert_eq!(
            read,
            ReadKey {
                agent: "Tri%7Cage",
                behavior: 0,
                event: "m%7C1",
                part: "create-bug",
                loops: 2,
                name: Some("create_task"),
                class: Some("tasks.create")
            }
        );
        assert_eq!(unescape(read.agent), "Tri|age");
        assert_eq!(unescape("%257C%2F%"), "%7C/%");
        let f = firing_id(&s, "m/1");
        let written = journal_key(&f, &leaf_path(&s, 0, &[], "classify"));
        let journal = read_journal_key(&written).unwrap();
        assert_eq!((journal.part, journal.name, journal.class, journal.event), ("0", Some("classify"), None, "m%2F1"));
        let written = journal_key(&f, &trigger_path(&s));
        let trigger = read_journal_key(&written).unwrap();
        assert_eq!((trigger.part, trigger.name), ("trigger", None));
        for bad in
            ["", "m1", "m1|A#0/0/say", "m1|A#x/0/say|message.send", "m1|A#0/a b/say|message.send", "m1|A#0/0:/say|x"]
        {
            assert_eq!(read_idem_key(bad), None, "{bad}");
        }
        assert_eq!(read_journal_key("A#0|m1/B#0/0/classify"), None);
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
        // Parts as ordinals and as stable ids (a number pinned in place, a name), in and out of loops.
        let leaves = [
            ("0", &[][..], "reply"),
            ("1", &[0usize][..], "ai.x"),
            ("1", &[][..], "ai.x"),
            ("a.b-c", &[0, 1][..], "reply"),
        ];
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
                    for (i, (part, loops, name)) in leaves.iter().enumerate() {
                        let path = leaf_path(&s, part, loops, name);
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
