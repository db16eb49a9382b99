//! The plan file: what it pins, the key it is sealed with, and `evoke try --save FILE`.

use super::{journal_refused, project_key};
use crate::error::{CommandError, CommandResult};
use crate::exit::Exit;
use crate::journal::{Journal, Origin};
use crate::render;
use crate::session::Session;
use crate::ui::Ui;
use crate::weave::PlanDecided;
use evoke_core::weave::plan::Plan;
use std::path::Path;

/// What a plan file pins, as it is here now.
pub fn pins(session: &Session) -> evoke_core::weave::planfile::Pins {
    use evoke_core::project::Setting;
    use evoke_core::weave::planfile::{self, AdapterPin, Pins, ReflexPin};
    let mut reflexes = std::collections::BTreeMap::new();
    let mut vocab = std::collections::BTreeMap::new();
    for reflex in session.catalog.reflexes() {
        // A secret's pin is the variable it is read from, never its value.
        let settings: Vec<(String, String)> = session
            .project
            .settings(&reflex.name)
            .iter()
            .map(|(k, s)| match s {
                Setting::Plain(v) => (k.clone(), format!("plain:{v}")),
                Setting::Env(var) => (k.clone(), format!("env:{var}")),
            })
            .collect();
        for (name, v) in &reflex.vocabs {
            vocab.insert(name.clone(), planfile::vocab(v));
        }
        // A playbook is pinned by the hash of its directory: its steps are its wording.
        if let Some(playbook) = session.project.playbook(&reflex.name) {
            let path = Some(playbook.dir.display().to_string());
            reflexes.insert(reflex.name.clone(), ReflexPin { item: playbook.item.clone(), path });
            continue;
        }
        let path = session.project.installed(&reflex.name).map(|i| i.dir.display().to_string());
        reflexes.insert(reflex.name.clone(), ReflexPin { item: planfile::item(reflex, &settings), path });
    }
    Pins {
        evoke: env!("CARGO_PKG_VERSION").to_string(),
        adapter: AdapterPin { name: session.adapter_name.clone(), id: session.adapter.id().to_string() },
        gate: session.gate,
        set: session.plan.clone(),
        reflexes,
        vocab,
    }
}

/// Where a remote reflex or playbook was fetched from, pinned in a plan file beside its `item`: the ref
/// as `evoke.toml` names it, the version tag taken and the lock's h1 of its directory. Its `item` hashes
/// the manifest alone, so only the h1 tells two fetches of one manifest with other bodies apart.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RemotePin {
    #[serde(rename = "ref")]
    pub reference: String,
    pub tag: String,
    pub h1: String,
}

impl std::fmt::Display for RemotePin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at {} ({})", self.reference, self.tag, self.h1)
    }
}

/// Every active remote reflex's and playbook's pin, as the lock holds it here now.
pub fn remote_pins(session: &Session) -> std::collections::BTreeMap<String, RemotePin> {
    let mut pins = std::collections::BTreeMap::new();
    for reflex in session.catalog.reflexes() {
        let name = &reflex.name;
        let locked = match session.project.playbook(name) {
            Some(playbook) => playbook.locked.as_ref(),
            None => session.project.installed(name).and_then(|i| i.locked.as_ref()),
        };
        if let Some(locked) = locked {
            let pin = RemotePin { reference: locked.reference.clone(), tag: locked.tag.clone(), h1: locked.h1.clone() };
            pins.insert(name.clone(), pin);
        }
    }
    pins
}

/// The plan file's text with each remote entry of `reflexes` given its `ref`, `tag` and `h1` after its
/// `item`. Every other byte is as the file's writer made it: a text with no remote entry is returned as
/// it is, and one with some is written again in the same layout.
fn with_remote(text: String, remote: &std::collections::BTreeMap<String, RemotePin>) -> String {
    if remote.is_empty() {
        return text;
    }
    let Ok(mut file) = serde_json::from_str::<serde_json::Value>(&text) else { return text };
    let Some(reflexes) = file.get_mut("reflexes").and_then(|r| r.as_object_mut()) else { return text };
    for (name, pin) in remote {
        let Some(entry) = reflexes.get_mut(name).and_then(|e| e.as_object_mut()) else { continue };
        let mut pinned = serde_json::Map::new();
        for (key, value) in std::mem::take(entry) {
            let item = key == "item";
            pinned.insert(key, value);
            if item {
                pinned.insert("ref".into(), pin.reference.clone().into());
                pinned.insert("tag".into(), pin.tag.clone().into());
                pinned.insert("h1".into(), pin.h1.clone().into());
            }
        }
        *entry = pinned;
    }
    match serde_json::to_string_pretty(&file) {
        Ok(mut written) => {
            written.push('\n');
            written
        }
        Err(_) => text,
    }
}

/// Checks the remote pins of a plan file's text (the seal's line left out) against the lock here now:
/// a reflex fetched at another ref, tag or h1, or a local one where a fetched one was, refuses the file
/// at that reflex's line in `reflexes`.
pub fn check_remote(
    text: &str,
    now: &std::collections::BTreeMap<String, RemotePin>,
) -> Result<(), evoke_core::weave::planfile::Refused> {
    use evoke_core::weave::planfile::Refused;
    /// An entry of `reflexes` as far as its remote pin goes; the rest is the file's reader's.
    #[derive(serde::Deserialize)]
    struct Entry {
        #[serde(rename = "ref")]
        reference: Option<String>,
        tag: Option<String>,
        h1: Option<String>,
    }
    #[derive(serde::Deserialize)]
    struct Entries {
        reflexes: std::collections::BTreeMap<String, Entry>,
    }
    const AGAIN: &str = "say the sentence again, or write the plan again: evoke try --save FILE \"…\"";
    let refused = |name: &str, message: String| {
        // The entry's own line, under `reflexes`: the name may be a key elsewhere in the file too.
        let lines: Vec<&str> = text.lines().collect();
        let from = lines.iter().position(|l| l.trim_start().starts_with("\"reflexes\":")).unwrap_or(0);
        let key = format!("{}:", serde_json::Value::from(name));
        let line = lines[from..].iter().position(|l| l.trim_start().starts_with(&key)).map_or(from, |i| from + i);
        Refused { line: line + 1, key: name.to_string(), message, fix: AGAIN.to_string() }
    };
    let entries: Entries = serde_json::from_str(text).map_err(|e| Refused {
        line: e.line().max(1),
        key: "reflexes".into(),
        message: format!("not a plan file evoke can read: {e}"),
        fix: AGAIN.into(),
    })?;
    for (name, entry) in &entries.reflexes {
        let written = match (&entry.reference, &entry.tag, &entry.h1) {
            (None, None, None) => None,
            (Some(reference), Some(tag), Some(h1)) => {
                Some(RemotePin { reference: reference.clone(), tag: tag.clone(), h1: h1.clone() })
            }
            _ => {
                return Err(refused(
                    name,
                    format!("{name} has a part of a remote pin; evoke writes `ref`, `tag` and `h1` together"),
                ));
            }
        };
        match (written, now.get(name)) {
            (None, None) => {}
            (Some(written), Some(here)) if written == *here => {}
            (Some(written), Some(here)) => {
                return Err(refused(name, format!("{name} was fetched from {written}; the lock here has {here}")));
            }
            (Some(written), None) => {
                return Err(refused(name, format!("{name} was fetched from {written}; here it is a local one")));
            }
            (None, Some(here)) => {
                return Err(refused(name, format!("{name} was a local one; here it is fetched from {here}")));
            }
        }
    }
    Ok(())
}

/// The key plan files are sealed with, made on first use in the data place.
pub fn plan_key(session: &Session) -> Result<[u8; evoke_files::plan_key::KEY_BYTES], CommandError> {
    evoke_files::plan_key::key(&session.places.data).map_err(|e| CommandError::failed(e.to_string()))
}

/// `evoke try --save FILE`: the plan whole, sealed, written atomically. Its journal is begun empty here,
/// so that running the file finds it: a file whose journal is missing asks before each write.
pub fn save(ui: &Ui, session: &Session, woven: &PlanDecided, path: &Path) -> CommandResult {
    let sealed = seal_plan(session, &woven.plan, &woven.answers, None)?;
    evoke_files::atomic::write(path, sealed.as_bytes())
        .map_err(|e| CommandError::failed(format!("cannot write {}: {e}", path.display())))?;
    ui.err(&render::plan_saved(&path.display().to_string()));
    Ok(Exit::Done)
}

/// A plan file's text, sealed, with its journal begun (kept as it is when the same plan was saved before).
/// It carries the session's tags, since its pins are of the reflexes those tags let take part.
pub fn seal_plan(
    session: &Session,
    plan: &Plan,
    answers: &[evoke_core::weave::planfile::Answer],
    asked: Option<&str>,
) -> Result<String, CommandError> {
    let weave = serde_json::to_value(plan).unwrap_or_default();
    let tags = &session.tags;
    let text = evoke_core::weave::planfile::write(&pins(session), &plan.input, tags, weave, answers.to_vec(), asked);
    let text = with_remote(text, &remote_pins(session));
    let key = plan_key(session)?;
    let sealed = evoke_core::weave::planfile::seal(&text, &key);
    let opened = evoke_core::weave::planfile::unseal(&sealed, &key)
        .map_err(|e| CommandError::failed(format!("the plan just sealed does not open: {e}")))?;
    let digest = plan.digest();
    let origin = Origin::File { seal: &opened.mac };
    let project = project_key(session);
    let mut journal =
        Journal::open(&session.places.state, &project, &digest, origin, &plan.input, true).map_err(journal_refused)?;
    // The same plan saved again has the same seal: its journal, with what already ran, is kept as it is.
    if !journal.found() {
        journal.keep().map_err(|e| CommandError::failed(format!("the plan's journal cannot be begun: {e}")))?;
    }
    Ok(sealed)
}

/// The line of every step of a plan file that runs none of them, since a reflex the `gone` steps (from 1)
/// call is not installed and active here: those steps `refused` with `no_reflex`, the others `skipped`.
/// Each line is the step as the file wrote its decision, with the file it was read from.
pub fn gone_lines(
    file: &evoke_core::weave::planfile::PlanFile,
    gone: &[usize],
    pinned: &super::Pinned,
) -> Vec<(String, Vec<crate::drive::Round>)> {
    use serde_json::{Map, Value, json};
    /// The keys a plan's step carries beside its decision's.
    const STEP_ONLY: [&str; 12] =
        ["step", "text", "start", "end", "repair", "typed", "shared", "beside", "refs", "after", "from", "when"];
    let steps = file.weave.get("steps").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let first = gone.first().copied().unwrap_or(1);
    let held = format!("step {first}'s reflex is not installed and active here; nothing ran");
    steps
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let mut line = Map::new();
            line.insert("step".into(), json!(i + 1));
            line.insert("steps".into(), json!(steps.len()));
            let fields = step.as_object().into_iter().flatten();
            line.extend(fields.filter(|(k, _)| !STEP_ONLY.contains(&k.as_str())).map(|(k, v)| (k.clone(), v.clone())));
            line.insert("trace".into(), json!([]));
            for key in ["shared", "beside"] {
                line.extend(step.get(key).map(|v| (key.to_string(), v.clone())));
            }
            line.insert("pinned".into(), json!(pinned));
            for key in ["from", "when"] {
                line.extend(step.get(key).map(|v| (key.to_string(), v.clone())));
            }
            let (status, why) = if gone.contains(&(i + 1)) {
                (super::Status::Refused, json!(super::Why::NoReflex))
            } else {
                (super::Status::Skipped, json!(super::Why::Said { message: held.clone() }))
            };
            line.insert("status".into(), json!(status));
            line.insert("why".into(), why);
            // The answers the file holds for the step's words, the sentence's own on the first: what `evoke
            // why` reads its judgments from.
            let input = step.get("input").and_then(Value::as_str).unwrap_or_default();
            let rounds = file
                .answers
                .iter()
                .filter(|a| a.text == input || (i == 0 && a.text == file.input))
                .map(|a| crate::drive::Round {
                    questions: a.raw.keys().filter_map(|k| k.parse().ok()).collect(),
                    raw: a.raw.clone(),
                })
                .collect();
            (crate::line::to_line(&Value::Object(line)), rounds)
        })
        .collect()
}

/// The one tag a plan file says it was saved under, read before its seal is opened: only to choose the
/// reflexes it runs among, which its seal and pins are then checked against. A file that cannot be read,
/// or that names no tag or several, gives none.
pub fn saved_tag(path: &Path) -> Option<String> {
    use evoke_core::weave::planfile::MAX_BYTES;
    let text = evoke_files::bounded::read_to_string(path, MAX_BYTES as u64).ok()?;
    let file: serde_json::Value = serde_json::from_str(&text).ok()?;
    match file.get("tags")?.as_array()?.as_slice() {
        [tag] => tag.as_str().map(str::to_string),
        _ => None,
    }
}

/// The id a step run from a plan file carries: `h1:` and the standard, padded base64 of the SHA-256 of
/// the file's bytes as read, the form of every content hash evoke writes (`evoke_core::h1`).
pub fn file_id(text: &str) -> String {
    use sha2::Digest;
    format!("h1:{}", evoke_core::h1::base64(&sha2::Sha256::digest(text.as_bytes())))
}

/// A plan file read, its seal opened and every pin checked against what is here now.
pub struct Opened {
    /// The file's bytes as read.
    pub text: String,
    pub unsealed: evoke_core::weave::planfile::Unsealed,
    pub file: evoke_core::weave::planfile::PlanFile,
    /// What each step run from it carries: the file as shown and the hash of what was read.
    pub pinned: super::Pinned,
}

/// Reads the plan file at `path` (bounded), opens its seal and checks its tags and pins: any that differs
/// here refuses it with the line, the key and the fix, and nothing runs. A step whose reflex is gone says
/// so on its line (logged, and printed under `json`); `repeated` is the command line, for the fix that runs
/// it under the tags it was saved with.
pub fn open(session: &Session, path: &Path, ui: &Ui, json: bool, repeated: &[String]) -> Result<Opened, CommandError> {
    use evoke_core::weave::planfile;
    let shown = path.display().to_string();
    let refused = |refused: planfile::Refused| {
        Err(CommandError::refused(format!("{shown}: {refused}; nothing ran")).with_fix(refused.fix))
    };
    let refuse = |message: String| Err(CommandError::refused(format!("{shown}: {message}; nothing ran")));
    // Bounded while reading and only a regular file: a link to /dev/zero reads as size 0 and never ends.
    let text = match evoke_files::bounded::read_to_string(path, planfile::MAX_BYTES as u64) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(CommandError::usage(format!("cannot read {shown}: {e}")));
        }
        Err(e) => return refuse(format!("cannot be read: {e}")),
    };
    let key = plan_key(session)?;
    let opened = match planfile::unseal(&text, &key) {
        Ok(opened) => opened,
        Err(e) => return refused(e),
    };
    // Lines are counted in the file as read; the sealed text lacks the seal's line.
    let shift = |mut e: planfile::Refused| {
        e.line += 1;
        e
    };
    let file = match planfile::read(&opened.text) {
        Ok(file) => file,
        Err(e) => return refused(shift(e)),
    };
    // Its pins are of the reflexes its tags let take part; among others, it is another plan.
    if file.tags != session.tags {
        let at = |key: &str| text.lines().position(|l| l.trim_start().starts_with(&format!("\"{key}\":")));
        let line = at("tags").or_else(|| at("weave")).map_or(1, |i| i + 1);
        let under = |tags: &[String]| match tags {
            [] => "no --tag".to_string(),
            tags => tags.iter().map(|t| format!("--tag {t}")).collect::<Vec<_>>().join(" "),
        };
        let mut words = vec!["evoke".to_string()];
        let mut given = repeated.iter();
        while let Some(word) = given.next() {
            // The run's own tag is left out: the file's takes its place.
            if word == "--tag" {
                given.next();
                continue;
            }
            words.push(word.clone());
        }
        for tag in &file.tags {
            words.extend(["--tag".to_string(), tag.clone()]);
        }
        words.extend(["run".to_string(), shown.clone()]);
        return Err(CommandError::refused(format!(
            "{shown}: line {line}: `tags`: saved under {}; this run is under {}; nothing ran",
            under(&file.tags),
            under(&session.tags)
        ))
        .with_fix(format!("run it under the tags it was saved with: {}", render::command(&words))));
    }
    let pins = pins(session);
    if let Err(e) = planfile::check(&opened.text, &file, &pins) {
        // A step whose reflex is gone says so on its line, and each other step that it did not run.
        // Only where the refusal is that reflex: a pin that differs before it says nothing of the steps.
        let gone = planfile::steps_gone(&file, &pins);
        if !gone.is_empty() && !pins.reflexes.contains_key(&e.key) && file.reflexes.contains_key(&e.key) {
            let pinned = super::Pinned { file: shown.clone(), id: file_id(&text) };
            let mut log = crate::log::Log::open(&session.places.log());
            for (line, rounds) in gone_lines(&file, &gone, &pinned) {
                if let Err(e) = log.append(&line, &rounds, &[]) {
                    ui.err(&render::not_logged("step", &e));
                }
                if json {
                    ui.json_line(&line);
                }
            }
        }
        return refused(shift(e));
    }
    if let Err(e) = check_remote(&opened.text, &remote_pins(session)) {
        return refused(shift(e));
    }
    let pinned = super::Pinned { file: shown, id: file_id(&text) };
    Ok(Opened { text, unsealed: opened, file, pinned })
}
