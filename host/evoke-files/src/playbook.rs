//! An installed playbook: found as a reflex is (a directory, or the store's copy the lock pins), hashed
//! to the item a review and a plan file pin, read, and checked against the project's reflexes. One that
//! does not read, or that the static check refuses, is inactive with the first refusal and its fix.

use crate::bounded::MAX_OWNED;
use crate::lock::{Lock, Locked};
use crate::project::{Inactive, vocabularies};
use crate::store::{Store, hash_dir};
use evoke_core::catalog::{Catalog, Reflex};
use evoke_core::diag::Diagnostic;
use evoke_core::manifest::Effect;
use evoke_core::playbook::{Playbook, read_playbook};
use evoke_core::project::ReflexSource;
use evoke_core::vocab::Vocabulary;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub const PLAYBOOK_FILE: &str = "playbook.toml";

#[derive(Debug, Clone)]
pub struct InstalledPlaybook {
    pub name: String,
    pub source: ReflexSource,
    pub dir: PathBuf,
    /// The h1 of the playbook's directory, as the store hashes a fetched one: what a review and a plan
    /// file pin. Empty when the directory could not be hashed (the playbook is then inactive).
    pub item: String,
    /// The strongest effect among its steps, as far as the static check knows it; never looser than the
    /// lock's for a remote playbook. `None` when it did not read.
    pub effect: Option<Effect>,
    /// The vocabularies its slots name, read with the file: a playbook that calls this one is checked
    /// against them, so they are here before any check runs.
    pub vocabs: BTreeMap<String, Vocabulary>,
    pub status: Result<Playbook, Inactive>,
    /// The lock's entry for a remote playbook.
    pub locked: Option<Locked>,
}

impl InstalledPlaybook {
    /// The synthetic reflex the route offers, with its slots' vocabularies, when the playbook is active.
    /// Before its check has judged it, its effect is taken as the strongest there is.
    pub fn offered(&self) -> Option<(Reflex, Playbook)> {
        let playbook = self.status.as_ref().ok()?;
        let effect = self.effect.unwrap_or(Effect::Destructive);
        Some((playbook.as_reflex(&self.name, effect, self.vocabs.clone()), playbook.clone()))
    }
}

fn inactive(why: String, fix: String) -> Inactive {
    Inactive { why, fix, diagnostics: Vec::new() }
}

/// Every playbook `evoke.toml` lists, read and checked against `reflexes` (the active reflexes). A
/// playbook whose step picks another playbook is checked against the others that read, each with its
/// slots' words; one that picks a playbook found inactive is checked again, until no more change (at
/// most once per playbook). The first round's catalog holds every playbook that read, so a refusal in
/// it stands: fewer playbooks later can only refuse more.
pub fn install_all(
    root: &Path,
    playbooks: &[(String, ReflexSource)],
    lock: &Lock,
    store: &Store,
    reflexes: &Catalog,
) -> Vec<InstalledPlaybook> {
    let mut read: Vec<(InstalledPlaybook, Option<(PathBuf, String)>)> =
        playbooks.iter().map(|(name, source)| find_and_read(root, lock, store, name, source)).collect();
    for _ in 0..=read.len() {
        let offered: Vec<(Reflex, Playbook)> = read.iter().filter_map(|(p, _)| p.offered()).collect();
        let catalog = Catalog::new(reflexes.reflexes().to_vec()).with_playbooks(offered);
        let mut changed = false;
        for (installed, text) in &mut read {
            let (Ok(playbook), Some((file, text))) = (&installed.status, text.as_ref()) else { continue };
            match judge(root, &installed.name, file, text, playbook, &catalog) {
                Ok(effect) => {
                    let effect = installed.locked.as_ref().map_or(effect, |l| effect.max(l.effect));
                    changed |= installed.effect != Some(effect);
                    installed.effect = Some(effect);
                }
                Err(why) => {
                    installed.status = Err(why);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    read.into_iter().map(|(installed, _)| installed).collect()
}

/// Finds, hashes and reads one playbook and its slots' words; with the file's name and text for the check,
/// when both read.
fn find_and_read(
    root: &Path,
    lock: &Lock,
    store: &Store,
    name: &str,
    source: &ReflexSource,
) -> (InstalledPlaybook, Option<(PathBuf, String)>) {
    let mut installed = InstalledPlaybook {
        name: name.to_string(),
        source: source.clone(),
        dir: PathBuf::new(),
        item: String::new(),
        effect: None,
        vocabs: BTreeMap::new(),
        status: Err(inactive(String::new(), String::new())),
        locked: None,
    };
    match source {
        ReflexSource::Path(path) => {
            installed.dir = root.join(path);
            match hash_dir(&installed.dir) {
                Ok(h1) => installed.item = h1,
                Err(e) => {
                    installed.status = Err(inactive(
                        format!("{} cannot be hashed: {e}", installed.dir.display()),
                        format!("check the path in {}", crate::project::PROJECT_FILE),
                    ));
                    return (installed, None);
                }
            }
        }
        ReflexSource::Remote { reference, tag } => {
            match crate::project::from_store(&lock.playbooks, store, name, reference, tag) {
                Ok((dir, locked)) => {
                    installed.dir = dir;
                    installed.item = locked.h1.clone();
                    installed.locked = Some(locked);
                }
                Err(why) => {
                    installed.locked = lock.playbooks.get(name).cloned();
                    installed.status = Err(why);
                    return (installed, None);
                }
            }
        }
    }
    match read_playbook_dir(&installed.dir).and_then(|(playbook, file, text)| {
        let vocabs = vocabularies(root, &playbook.slots)?;
        Ok((playbook, vocabs, file, text))
    }) {
        Ok((playbook, vocabs, file, text)) => {
            installed.status = Ok(playbook);
            installed.vocabs = vocabs;
            (installed, Some((file, text)))
        }
        Err(why) => {
            installed.status = Err(why);
            (installed, None)
        }
    }
}

/// Reads `DIR/playbook.toml`; a refusal is the first error, with `evoke check DIR` as the fix.
pub fn read_playbook_dir(dir: &Path) -> Result<(Playbook, PathBuf, String), Inactive> {
    let path = dir.join(PLAYBOOK_FILE);
    let text = crate::bounded::read_to_string(&path, MAX_OWNED).map_err(|e| {
        let fix = crate::bounded::fix_for(&e, &path, crate::project::PROJECT_FILE);
        inactive(format!("cannot read {}: {e}", path.display()), fix)
    })?;
    let reading = read_playbook(&path.display().to_string(), &text);
    match reading.value {
        Some(playbook) => Ok((playbook, path, text)),
        None => Err(refused("it is refused", &reading.diagnostics, dir)),
    }
}

/// The static check against the catalog: the strongest effect among its steps, when it passes.
fn judge(
    root: &Path,
    name: &str,
    file: &Path,
    text: &str,
    playbook: &Playbook,
    catalog: &Catalog,
) -> Result<Effect, Inactive> {
    let reading = evoke_core::playbook::check(&file.display().to_string(), text, name, catalog);
    if reading.value.is_none() {
        return Err(refused("the check refuses it", &reading.diagnostics, file.parent().unwrap_or(root)));
    }
    Ok(evoke_core::playbook::strongest_effect(playbook, catalog))
}

/// Inactive for the first error: its message and where it stands, and its own fix.
fn refused(what: &str, diagnostics: &[Diagnostic], dir: &Path) -> Inactive {
    let first = diagnostics.iter().find(|d| d.is_error());
    let why = match first {
        Some(d) => format!("{what}: {} ({}:{})", d.message, d.file, d.place.line),
        None => what.to_string(),
    };
    let fix = first.and_then(|d| d.fix.clone()).unwrap_or_else(|| format!("evoke check {}", dir.display()));
    Inactive { why, fix, diagnostics: diagnostics.to_vec() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::places::Places;
    use crate::project::{Location, load_in};

    const LIGHTS: &str = "reflex = 1\ndescription = \"Turn the lights in one room on or off.\"\neffect = \"write\"\n\
        confirm = \"Set the {room} lights {state}?\"\nrun = \"lights.mjs\"\n\
        [args.room]\nask = \"Which room?\"\nvocab = \"rooms\"\n\
        [args.state]\nask = \"On or off?\"\noptions.on = \"Switch on.\"\noptions.off = \"Switch off.\"\n\
        [examples]\n\"turn on the kitchen lights\" = { state = \"on\" }\n";

    const GOOD_NIGHT: &str = "playbook = 1\ndescription = \"Wind the house down for the night\"\n\
        [slots.room]\nask = \"Which room?\"\nvocab = \"rooms\"\noptional = true\n\
        [examples]\n\"good night\" = true\n\
        [[steps]]\ncall = \"lights\"\nargs = { room = \"den\", state = \"off\" }\n";

    /// A project with the lights reflex and the rooms, and `evoke.toml` as given.
    fn project(evoke_toml: &str) -> (tempfile::TempDir, Places, Location) {
        let dir = tempfile::tempdir().unwrap();
        let places = Places::under(&dir.path().join("home"));
        let root = dir.path().join("proj");
        for sub in ["reflexes/lights", "vocab", "playbooks/good_night"] {
            std::fs::create_dir_all(root.join(sub)).unwrap();
        }
        std::fs::write(root.join("reflexes/lights/reflex.toml"), LIGHTS).unwrap();
        std::fs::write(root.join("reflexes/lights/lights.mjs"), "export default () => {};\n").unwrap();
        std::fs::write(root.join("vocab/rooms.toml"), "den = \"The TV room.\"\nkitchen = \"Where we cook.\"\n")
            .unwrap();
        std::fs::write(root.join("playbooks/good_night/playbook.toml"), GOOD_NIGHT).unwrap();
        std::fs::write(root.join("evoke.toml"), evoke_toml).unwrap();
        (dir, places, Location { root, home: false })
    }

    const LISTED: &str =
        "[reflexes]\nlights = \"reflexes/lights\"\n[playbooks]\ngood_night = \"playbooks/good_night\"\n";

    #[test]
    fn a_playbook_too_large_says_its_size_and_the_limit_and_to_shorten_it() {
        let (_dir, _places, location) = project(LISTED);
        let dir = location.root.join("playbooks/good_night");
        let mut text = GOOD_NIGHT.to_string();
        text.push_str(&"# a note\n".repeat(3 << 20 >> 3));
        std::fs::write(dir.join(PLAYBOOK_FILE), &text).unwrap();
        let why = read_playbook_dir(&dir).unwrap_err();
        assert!(why.why.contains("holds more than 1 MiB"), "{}", why.why);
        assert!(why.why.contains(&format!("({} bytes)", text.len())), "{}", why.why);
        assert!(why.fix.starts_with("shorten "), "{}", why.fix);
        assert!(!why.fix.contains("check the path"), "{}", why.fix);
    }

    #[test]
    fn an_active_playbook_is_offered_beside_the_reflexes_under_its_strongest_effect() {
        let (_dir, places, location) = project(LISTED);
        let project = load_in(location.clone(), &places).unwrap();
        let installed = project.playbook("good_night").unwrap();
        assert!(installed.status.is_ok(), "{:?}", installed.status);
        assert_eq!(installed.item, hash_dir(&location.root.join("playbooks/good_night")).unwrap());
        assert!(installed.item.starts_with("h1:"));
        assert_eq!(installed.effect, Some(Effect::Write));
        let catalog = project.catalog();
        assert_eq!(catalog.reflexes().iter().map(|r| r.name.as_str()).collect::<Vec<_>>(), ["lights", "good_night"]);
        let offered = catalog.get("good_night").unwrap();
        assert_eq!(offered.manifest.effect, Effect::Write);
        assert!(offered.vocabs.contains_key("rooms"), "the slot's words are offered with it");
        assert_eq!(catalog.playbook("good_night").unwrap().steps.len(), 1);
    }

    #[test]
    fn a_playbook_calling_what_is_not_installed_is_inactive_at_its_line() {
        let (_dir, places, location) = project(LISTED);
        let text = GOOD_NIGHT.replace("call = \"lights\"", "call = \"heater\"");
        std::fs::write(location.root.join("playbooks/good_night/playbook.toml"), &text).unwrap();
        let project = load_in(location, &places).unwrap();
        let why = project.playbook("good_night").unwrap().status.clone().unwrap_err();
        let line = text.lines().position(|l| l.starts_with("call")).unwrap() + 1;
        assert!(why.why.contains(&format!("playbook.toml:{line})")), "{}", why.why);
        assert!(why.why.contains("heater"), "{}", why.why);
        assert!(!why.fix.is_empty());
        assert!(project.catalog().get("good_night").is_none());
        assert!(project.catalog().playbooks().is_empty());
    }

    #[test]
    fn a_playbook_whose_slot_names_missing_words_is_inactive() {
        let (_dir, places, location) = project(LISTED);
        let text = GOOD_NIGHT.replace("vocab = \"rooms\"", "vocab = \"floors\"");
        std::fs::write(location.root.join("playbooks/good_night/playbook.toml"), text).unwrap();
        let project = load_in(location, &places).unwrap();
        let why = project.playbook("good_night").unwrap().status.clone().unwrap_err();
        assert!(why.why.contains("vocab/floors.toml is missing"), "{}", why.why);
    }

    /// `den_off` gives its `room` slot (a word of rooms) to the lights; `good_night` calls it with `room`.
    fn calling_den_off(room: &str) -> (tempfile::TempDir, Places, Location) {
        let (dir, places, location) = project(
            "[reflexes]\nlights = \"reflexes/lights\"\n\
             [playbooks]\ngood_night = \"playbooks/good_night\"\nden_off = \"playbooks/den_off\"\n",
        );
        let den_off = "playbook = 1\ndescription = \"Switch off one room\"\n\
            [slots.room]\nask = \"Which room?\"\nvocab = \"rooms\"\n\
            [examples]\n\"switch off the den\" = { room = \"den\" }\n\
            [[steps]]\ncall = \"lights\"\nargs = { room = \"{room}\", state = \"off\" }\n";
        std::fs::create_dir_all(location.root.join("playbooks/den_off")).unwrap();
        std::fs::write(location.root.join("playbooks/den_off/playbook.toml"), den_off).unwrap();
        let good_night = GOOD_NIGHT
            .replace("call = \"lights\"", "call = \"den_off\"")
            .replace("args = { room = \"den\", state = \"off\" }", &format!("args = {{ room = \"{room}\" }}"));
        std::fs::write(location.root.join("playbooks/good_night/playbook.toml"), good_night).unwrap();
        (dir, places, location)
    }

    #[test]
    fn a_playbook_giving_a_word_to_a_called_playbooks_slot_is_active() {
        let (_dir, places, location) = calling_den_off("den");
        let project = load_in(location, &places).unwrap();
        for name in ["den_off", "good_night"] {
            let installed = project.playbook(name).unwrap();
            assert!(installed.status.is_ok(), "{name}: {:?}", installed.status);
            assert_eq!(installed.effect, Some(Effect::Write), "{name}");
        }
        assert!(project.catalog().playbook("good_night").is_some());
    }

    #[test]
    fn a_word_the_called_playbooks_vocabulary_lacks_keeps_the_caller_inactive() {
        let (_dir, places, location) = calling_den_off("attic");
        let project = load_in(location, &places).unwrap();
        assert!(project.playbook("den_off").unwrap().status.is_ok());
        let why = project.playbook("good_night").unwrap().status.clone().unwrap_err();
        assert!(why.why.contains("\"attic\" is not a word of the vocabulary rooms"), "{}", why.why);
        assert!(project.catalog().playbook("good_night").is_none());
    }

    #[test]
    fn a_remote_playbook_comes_from_the_store_at_the_locks_hash_and_effect() {
        let (_dir, places, location) = project(
            "[reflexes]\nlights = \"reflexes/lights\"\n\
             [playbooks]\ngood_night = { ref = \"https://example.com/o/r\", tag = \"v1.0.0\" }\n",
        );
        let none = load_in(location.clone(), &places).unwrap();
        let why = none.playbook("good_night").unwrap().status.clone().unwrap_err();
        assert_eq!(why.fix, "evoke update");

        let store = Store::new(&places.data);
        let (h1, _) = store.put(&[("playbook.toml".into(), GOOD_NIGHT.as_bytes().to_vec())]).unwrap();
        let mut lock = Lock::default();
        let locked = Locked {
            reference: "https://example.com/o/r".into(),
            tag: "v1.0.0".into(),
            commit: "0".repeat(40),
            h1: h1.clone(),
            effect: Effect::Destructive,
        };
        lock.playbooks.insert("good_night".into(), locked);
        std::fs::write(location.root.join(crate::lock::LOCK_FILE), lock.to_text()).unwrap();
        let project = load_in(location, &places).unwrap();
        let installed = project.playbook("good_night").unwrap();
        assert!(installed.status.is_ok(), "{:?}", installed.status);
        assert_eq!(installed.item, h1);
        // The lock's consent never loosens: the steps' write stays under the destructive consented to.
        assert_eq!(installed.effect, Some(Effect::Destructive));
    }
}
