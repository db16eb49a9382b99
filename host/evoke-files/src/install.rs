//! Installing and updating: `evoke add` puts a reflex in `evoke.toml` (and, for a
//! remote one, in the store and the lock with the effect the user consented to), and a playbook, a
//! directory holding `playbook.toml`, under `[playbooks]` in the same way; `evoke update` brings
//! the lock in line with `evoke.toml` and upstream's newer releases of the same major version. Neither
//! prompts; update never blocks and never rewrites a user's file: it reports.

use crate::fetch::{FetchError, Fetcher};
use crate::lock::{LOCK_FILE, Lock, Locked, LockedAdapter};
use crate::places::Places;
use crate::playbook::{PLAYBOOK_FILE, read_playbook_dir};
use crate::project::{LoadError, Location, PROJECT_FILE, Project, load_in, read_reflex_dir};
use crate::store::Store;
use crate::trust;
use evoke_core::catalog::Catalog;
use evoke_core::contract::{Level, Widened, diff, grants_widened};
use evoke_core::lint::{Finding, lint};
use evoke_core::manifest::{Effect, Grants, Manifest, Source};
use evoke_core::overlay::read_overlay;
use evoke_core::playbook::{Playbook, strongest_effect};
use evoke_core::project::ReflexSource;
use evoke_core::question::RESERVED_NAMES;
use evoke_core::refs::{Ref, RefFault, Version, parse_ref, parse_ref_and_tag, parse_version_tag};
use evoke_core::text::{is_name, is_sentinel};
use std::path::{Path, PathBuf};

/// What `evoke add` was given: a directory, or a ref with its tag.
#[derive(Debug, Clone, PartialEq)]
pub enum Given {
    Local(PathBuf),
    Remote(Ref, Option<Version>),
}

/// A ref is anything with `://` or of the form `user@host:…`; anything else is a directory. A ref
/// outside the grammar is refused, never taken for a path.
pub fn classify(text: &str) -> Result<Given, RefFault> {
    let scp_like = text.split_once('@').is_some_and(|(user, rest)| !user.contains('/') && rest.contains(':'));
    if text.contains("://") || scp_like {
        let (reference, tag) = parse_ref_and_tag(text)?;
        Ok(Given::Remote(reference, tag))
    } else {
        Ok(Given::Local(PathBuf::from(text)))
    }
}

/// Why an add did nothing.
#[derive(Debug, Clone, PartialEq)]
pub struct AddError {
    pub message: String,
    pub fix: Option<String>,
    /// The manifest's refusals, when it did not read.
    pub diagnostics: Vec<evoke_core::diag::Diagnostic>,
}

impl AddError {
    fn new(message: impl Into<String>, fix: Option<&str>) -> AddError {
        AddError { message: message.into(), fix: fix.map(str::to_string), diagnostics: Vec::new() }
    }
}

/// What an add did.
#[derive(Debug, Clone)]
pub struct Added {
    pub name: String,
    /// `reflexes/lights`, or `REF@TAG`.
    pub source: String,
    /// The shipped manifest (no overlay yet); for a playbook, the synthetic reflex the route offers for it,
    /// under the strongest effect among its steps.
    pub manifest: Manifest,
    /// The playbook, when what was added is one.
    pub playbook: Option<Playbook>,
    pub findings: Vec<Finding>,
    pub locked: Option<Locked>,
    pub dir: PathBuf,
}

/// `evoke add NAME SOURCE [--tag TAG]`, in the project at `location`. `cwd` resolves a local path.
#[allow(clippy::too_many_arguments)]
/// The path of a local reflex as evoke.toml will hold it, refused when evoke.toml could not hold it as
/// clean text: a name that is not UTF-8, or that holds a control or bidi character, which would repaint
/// every line that shows it and make the project's file unreadable.
fn written_path(relative: &Path) -> Result<String, AddError> {
    let fix = Some("rename the folder so that its path holds only printable characters, then add it again");
    let Some(text) = relative.to_str() else {
        return Err(AddError::new(
            format!("the path {} is not UTF-8, and evoke.toml holds text", relative.display()),
            fix,
        ));
    };
    match evoke_core::text::check_clean(text, false) {
        Ok(()) => Ok(text.to_string()),
        Err(evoke_core::text::Unclean::Control { at, ch } | evoke_core::text::Unclean::Bidi { at, ch }) => {
            Err(AddError::new(
                format!(
                    "the path {text} holds the control or bidi character U+{:04X} at character {at}, which \
                     evoke.toml may not hold",
                    ch as u32
                ),
                fix,
            ))
        }
    }
}

// Each argument is a separate thing the command was told; a struct of them would only rename them.
#[allow(clippy::too_many_arguments)]
pub fn add(
    places: &Places,
    location: &Location,
    fetcher: &mut Fetcher,
    cwd: &Path,
    name: &str,
    source: &str,
    tag: Option<&str>,
    adapter: Option<LockedAdapter>,
) -> Result<Added, AddError> {
    if !is_name(name) || is_sentinel(name) || RESERVED_NAMES.contains(&name) {
        return Err(AddError::new(
            format!("\"{name}\" cannot be a reflex's local name"),
            Some("name it [a-z][a-z0-9_]*, other than none, unstated, route, fits and weave"),
        ));
    }
    let project = load_in(location.clone(), places).map_err(|e| AddError {
        message: e.message,
        fix: None,
        diagnostics: e.diagnostics,
    })?;
    // Reflexes and playbooks share one space of local names.
    let existing = project.installed(name).map(|i| &i.source).or_else(|| project.playbook(name).map(|p| &p.source));
    if let Some(existing) = existing {
        return Err(AddError::new(
            format!("`{name}` is already installed ({})", describe(existing)),
            Some("choose another name, or remove its line from evoke.toml first"),
        ));
    }
    let given = classify(source).map_err(|f| AddError::new(format!("{source} is refused: {f}"), None))?;
    let given = match (given, tag) {
        (Given::Remote(r, None), Some(tag)) => {
            let version =
                parse_version_tag(tag).map_err(|f| AddError::new(format!("--tag {tag} is refused: {f}"), None))?;
            Given::Remote(r, Some(version))
        }
        (Given::Remote(_, Some(_)), Some(_)) => {
            return Err(AddError::new("the tag is given twice", Some("give it once: REF@TAG or --tag TAG")));
        }
        (Given::Local(_), Some(_)) => {
            return Err(AddError::new("a local reflex has no tag", Some("drop --tag, or give a ref")));
        }
        (given, None) => given,
    };

    let mut lock = project.lock.clone();
    let (entry, dir, locked, shown) = match given {
        Given::Local(path) => {
            let absolute = if path.is_absolute() { path.clone() } else { cwd.join(&path) };
            let relative = relative_to(&absolute, &location.root);
            let text = written_path(&relative)?;
            (toml_edit::value(text.clone()), absolute, None, text)
        }
        Given::Remote(reference, version) => {
            let (tag, _) = match version {
                Some(v) => (v.tag(), None),
                None => {
                    let (v, commit) = fetcher.newest(&reference).map_err(fetch_error)?;
                    (v.tag(), Some(commit))
                }
            };
            let fetched = fetcher.fetch(&reference, &tag).map_err(fetch_error)?;
            let store = Store::new(&places.data);
            let (h1, dir) = store.put(&fetched.files).map_err(|e| AddError::new(e.to_string(), None))?;
            let (manifest, _) = read_added(&dir, name, &project).map_err(|e| AddError {
                message: format!("{}@{tag}: {}", reference, e.message),
                fix: None,
                ..e
            })?;
            let locked = Locked {
                reference: reference.text(),
                tag: tag.clone(),
                commit: fetched.commit,
                h1,
                effect: manifest.effect,
            };
            let mut inline = toml_edit::InlineTable::new();
            inline.insert("ref", reference.text().into());
            inline.insert("tag", tag.clone().into());
            (toml_edit::value(inline), dir, Some(locked), format!("{}@{tag}", reference.text()))
        }
    };
    let (manifest, playbook) = read_added(&dir, name, &project)?;
    // Lint judges a reflex's manifest; a playbook's faults are its check's, shown by `evoke list`.
    let findings = if playbook.is_some() { Vec::new() } else { lint(&manifest) };
    let table_name = if playbook.is_some() { "playbooks" } else { "reflexes" };

    // evoke.toml keeps the user's layout; only the new line is added.
    let project_path = location.root.join(PROJECT_FILE);
    let text = match crate::bounded::read_to_string_in(&location.root, &project_path, crate::bounded::MAX_OWNED) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(AddError::new(format!("{} cannot be edited: {e}", project_path.display()), None)),
    };
    let mut doc: toml_edit::DocumentMut =
        text.parse().map_err(|e| AddError::new(format!("{} cannot be edited: {e}", project_path.display()), None))?;
    if !doc.contains_key(table_name) {
        doc[table_name] = toml_edit::table();
    }
    let Some(table) = doc[table_name].as_table_like_mut() else {
        return Err(AddError::new(format!("{}: `{table_name}` is not a table", project_path.display()), None));
    };
    table.insert(name, entry);
    let mut writes: Vec<(PathBuf, Vec<u8>)> = vec![(project_path, doc.to_string().into_bytes())];
    if let Some(locked) = &locked {
        lock.adapter = adapter.or(lock.adapter);
        let entries = if playbook.is_some() { &mut lock.playbooks } else { &mut lock.reflexes };
        entries.insert(name.to_string(), locked.clone());
        writes.push((location.root.join(LOCK_FILE), lock.to_text().into_bytes()));
    }
    let writes: Vec<(&Path, &[u8])> = writes.iter().map(|(p, b)| (p.as_path(), b.as_slice())).collect();
    trust::write_owned(places, location, &writes).map_err(|e| AddError::new(e.to_string(), None))?;
    Ok(Added { name: name.to_string(), source: shown, manifest, playbook, findings, locked, dir })
}

/// What a directory being added holds: a reflex's manifest, or a playbook (a directory with
/// `playbook.toml` and no `reflex.toml`) as the route would offer it, its effect the strongest among its
/// steps as the project stands. Either refuses when it does not read.
fn read_added(dir: &Path, name: &str, project: &Project) -> Result<(Manifest, Option<Playbook>), AddError> {
    let is_playbook = dir.join(PLAYBOOK_FILE).is_file() && !dir.join("reflex.toml").exists();
    let refused =
        |i: crate::project::Inactive| AddError { message: i.why, fix: Some(i.fix), diagnostics: i.diagnostics };
    if !is_playbook {
        return Ok((read_reflex_dir(dir).map_err(refused)?, None));
    }
    let (playbook, _, _) = read_playbook_dir(dir).map_err(refused)?;
    let effect = strongest_effect(&playbook, &project.catalog());
    let manifest = playbook.as_reflex(name, effect, Default::default()).manifest;
    Ok((manifest, Some(playbook)))
}

fn fetch_error(e: FetchError) -> AddError {
    let fix = matches!(e, FetchError::TooLarge(_))
        .then_some("nothing to do here: the reflex's author must keep it within the limits of a fetched reflex");
    AddError::new(e.to_string(), fix)
}

fn describe(source: &ReflexSource) -> String {
    match source {
        ReflexSource::Path(path) => path.clone(),
        ReflexSource::Remote { reference, tag } => format!("{reference}@{tag}"),
    }
}

/// `path` relative to `root` when it is inside it; else as given.
fn relative_to(path: &Path, root: &Path) -> PathBuf {
    let clean = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let (path_c, root_c) = (clean(path), clean(root));
    match path_c.strip_prefix(&root_c) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel.to_path_buf(),
        _ => path_c,
    }
}

/// One line of an update's report.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A reflex moved to a new tag (or was fetched for the first time): `from` is `None` then.
    Taken { name: String, from: Option<String>, to: String, level: Option<Level> },
    /// Nothing to do.
    Unchanged { name: String, tag: String },
    /// A `was` rename upstream that the user's overlay follows at merge time; the file is left as is.
    Rewritten { name: String, file: String, from: String, to: String },
    /// The user's overlay no longer fits the new version: the reflex is inactive until it is fixed.
    Stale { name: String, file: String, line: usize, message: String, fix: String },
    /// An overlay or a vocabulary that no installed reflex uses.
    Orphaned { file: String, why: String },
    /// Upstream loosened the effect; the user keeps the one they consented to until `--accept`.
    Loosened { name: String, consented: Effect, upstream: Effect },
    /// `--accept` took upstream's looser effect.
    Accepted { name: String, from: Effect, to: Effect },
    /// Upstream grants itself more (a path, write where it read, a host) than the user consented to: the
    /// new version is not taken, and the lock keeps the one consented to, until `--accept`.
    Widened { name: String, tag: String, kept: String, grants: Vec<Widened> },
    /// `--accept` took upstream's wider grants.
    GrantsAccepted { name: String, tag: String, grants: Vec<Widened> },
    /// Upstream tightened the effect: taken at once.
    Tightened { name: String, from: Effect, to: Effect },
    /// A newer major release exists; it is never taken on its own.
    Major { name: String, tag: String },
    /// A published tag that now names another commit: refused, the lock is kept.
    Moved { name: String, tag: String, locked: String, now: String },
    /// Could not be fetched or read; the lock is kept.
    Failed { name: String, why: String },
    /// A lock entry for a reflex `evoke.toml` no longer lists.
    Dropped { name: String },
}

/// What `evoke update` did, line by line, and whether anything failed or waits for consent.
#[derive(Debug, Clone, Default)]
pub struct Updated {
    pub events: Vec<Event>,
    /// A reflex was refused (a moved tag) or could not be fetched or read.
    pub failed: bool,
    /// A newer version was left untaken because it widens its grants; `--accept` takes it.
    pub needs_consent: bool,
}

/// Why `evoke update` stopped before its report: the project did not load, or the lock not write.
#[derive(Debug, thiserror::Error)]
pub enum UpdateError {
    #[error("{}", .0.message)]
    Load(LoadError),
    #[error(transparent)]
    Write(trust::TrustError),
}

/// `evoke update [--accept]`.
pub fn update(
    places: &Places,
    location: &Location,
    fetcher: &mut Fetcher,
    accept: bool,
    adapter: Option<LockedAdapter>,
) -> Result<Updated, UpdateError> {
    let project = load_in(location.clone(), places).map_err(UpdateError::Load)?;
    let store = Store::new(&places.data);
    let old_lock = project.lock.clone();
    let mut lock = Lock { adapter: adapter.or(old_lock.adapter.clone()), ..Lock::default() };
    let mut report = Updated::default();
    let mut manifests: Vec<(String, Manifest)> = Vec::new();

    for (name, source) in &project.file.reflexes {
        let ReflexSource::Remote { reference, tag } = source else {
            if let Some(m) = project.installed(name).and_then(|i| i.manifest.clone()) {
                manifests.push((name.clone(), m));
            }
            continue;
        };
        let locked = old_lock.reflexes.get(name).filter(|l| l.reference == *reference).cloned();
        match update_one(&project, &store, fetcher, name, reference, tag, locked.as_ref(), accept, &mut report) {
            Some((entry, manifest)) => {
                lock.reflexes.insert(name.clone(), entry);
                manifests.push((name.clone(), manifest));
            }
            // Refused, failed or waiting for consent: the event says which; the lock keeps what it held.
            None => {
                if let Some(l) = locked {
                    lock.reflexes.insert(name.clone(), l);
                }
            }
        }
    }
    for name in old_lock.reflexes.keys() {
        let listed = project.file.reflexes.iter().any(|(n, s)| n == name && matches!(s, ReflexSource::Remote { .. }));
        if !listed {
            report.events.push(Event::Dropped { name: name.clone() });
        }
    }
    // A playbook's effect is judged against the reflexes as the project loaded them.
    let catalog = project.catalog();
    for (name, source) in &project.file.playbooks {
        let ReflexSource::Remote { reference, tag } = source else {
            if let Some(playbook) = project.playbook(name).and_then(|p| p.status.as_ref().ok()) {
                manifests.push((name.clone(), playbook.as_reflex(name, Effect::Read, Default::default()).manifest));
            }
            continue;
        };
        let locked = old_lock.playbooks.get(name).filter(|l| l.reference == *reference).cloned();
        let target = Target { name, reference, asked: tag, locked: locked.as_ref() };
        match update_playbook(&store, fetcher, &catalog, &target, accept, &mut report) {
            Some((entry, playbook)) => {
                lock.playbooks.insert(name.clone(), entry);
                // Its slots' vocabularies are in use, as a reflex's arguments' are.
                manifests.push((name.clone(), playbook.as_reflex(name, Effect::Read, Default::default()).manifest));
            }
            None => {
                if let Some(l) = locked {
                    lock.playbooks.insert(name.clone(), l);
                }
            }
        }
    }
    for name in old_lock.playbooks.keys() {
        let listed = project.file.playbooks.iter().any(|(n, s)| n == name && matches!(s, ReflexSource::Remote { .. }));
        if !listed {
            report.events.push(Event::Dropped { name: name.clone() });
        }
    }
    report.failed = report.events.iter().any(|e| matches!(e, Event::Failed { .. } | Event::Moved { .. }));
    report.needs_consent = report.events.iter().any(|e| matches!(e, Event::Widened { .. }));
    orphans(&location.root, &project, &manifests, &mut report);
    if lock != old_lock {
        let path = location.root.join(LOCK_FILE);
        trust::write_owned(places, location, &[(path.as_path(), lock.to_text().as_bytes())])
            .map_err(UpdateError::Write)?;
    }
    Ok(report)
}

/// The release `update` takes for one remote entry: the newest of the asked major, at or after the asked
/// tag, with its ref. `None` when refused (a moved tag) or failed; the event says which.
fn release(
    fetcher: &mut Fetcher,
    name: &str,
    reference: &str,
    asked: &str,
    locked: Option<&Locked>,
    report: &mut Updated,
) -> Option<(Ref, String)> {
    let fail = |report: &mut Updated, why: String| {
        report.events.push(Event::Failed { name: name.to_string(), why });
        None
    };
    let parsed = match parse_ref(reference) {
        Ok(r) => r,
        Err(f) => return fail(report, format!("{reference} is refused: {f}")),
    };
    let asked_version = match parse_version_tag(asked) {
        Ok(v) => v,
        Err(f) => return fail(report, format!("the tag {asked} is refused: {f}")),
    };
    let tags = match fetcher.tags(&parsed) {
        Ok(tags) => tags,
        Err(e) => return fail(report, e.to_string()),
    };
    if tags.is_empty() {
        return fail(report, FetchError::NoVersionTag.to_string());
    }
    // A published tag never changes.
    if let Some(l) = locked
        && let Some((_, now)) = tags.iter().find(|(t, _)| *t == l.tag)
        && *now != l.commit
    {
        report.events.push(Event::Moved {
            name: name.into(),
            tag: l.tag.clone(),
            locked: l.commit.clone(),
            now: now.clone(),
        });
        return None;
    }
    // The newest release of the asked major, at or after the asked tag; a pre-release only when asked.
    let mut target: Option<Version> = None;
    for (t, _) in &tags {
        let Ok(v) = parse_version_tag(t) else { continue };
        let fits = if asked_version.is_prerelease() {
            v == asked_version
        } else {
            v.major == asked_version.major && !v.is_prerelease() && v.precedence(&asked_version).is_ge()
        };
        if fits && target.as_ref().is_none_or(|b| v.precedence(b).is_gt()) {
            target = Some(v);
        }
    }
    let Some(target) = target else {
        return fail(
            report,
            format!("the repository has no tag {asked} (nor a later release of v{})", asked_version.major),
        );
    };
    let newest_major = tags
        .iter()
        .filter_map(|(t, _)| parse_version_tag(t).ok())
        .filter(|v| !v.is_prerelease() && v.major > asked_version.major)
        .max_by(|a, b| a.precedence(b));
    if let Some(v) = newest_major {
        report.events.push(Event::Major { name: name.into(), tag: v.tag() });
    }
    Some((parsed, target.tag()))
}

/// One remote playbook to bring in line: its local name, its ref and asked tag, and the lock's entry.
struct Target<'a> {
    name: &'a str,
    reference: &'a str,
    asked: &'a str,
    locked: Option<&'a Locked>,
}

/// A remote playbook brought to the newest release of its major, as a reflex is. The level of its change
/// is the playbook's own (`playbook_version`): a new step or a stronger effect is major. Its effect in the
/// lock follows a reflex's: a stronger one is taken at once, a weaker one waits for `--accept`.
/// The release `target_tag` fetched and put in the store: its commit, its h1 and its directory. A tag
/// that moved since the lock named it (another commit under the same tag) is reported and taken no further.
fn fetched_and_stored(
    store: &Store,
    fetcher: &mut Fetcher,
    parsed: &Ref,
    target_tag: &str,
    name: &str,
    locked: Option<&Locked>,
    report: &mut Updated,
) -> Option<(String, String, PathBuf)> {
    let fail = |report: &mut Updated, why: String| {
        report.events.push(Event::Failed { name: name.to_string(), why });
        None
    };
    let fetched = match fetcher.fetch(parsed, target_tag) {
        Ok(f) => f,
        Err(e) => return fail(report, e.to_string()),
    };
    if let Some(l) = locked
        && l.tag == target_tag
        && l.commit != fetched.commit
    {
        report.events.push(Event::Moved {
            name: name.into(),
            tag: l.tag.clone(),
            locked: l.commit.clone(),
            now: fetched.commit,
        });
        return None;
    }
    match store.put(&fetched.files) {
        Ok((h1, dir)) => Some((fetched.commit, h1, dir)),
        Err(e) => fail(report, e.to_string()),
    }
}

fn update_playbook(
    store: &Store,
    fetcher: &mut Fetcher,
    catalog: &Catalog,
    target: &Target,
    accept: bool,
    report: &mut Updated,
) -> Option<(Locked, Playbook)> {
    let Target { name, reference, asked, locked } = *target;
    let fail = |report: &mut Updated, why: String| {
        report.events.push(Event::Failed { name: name.to_string(), why });
        None
    };
    let (parsed, target_tag) = release(fetcher, name, reference, asked, locked, report)?;
    let old = locked
        .and_then(|l| store.verify(&l.h1).ok())
        .and_then(|dir| read_playbook_dir(&dir).ok())
        .map(|(playbook, _, _)| playbook);
    if let (Some(l), Some(playbook)) = (locked, &old)
        && l.tag == target_tag
    {
        report.events.push(Event::Unchanged { name: name.into(), tag: l.tag.clone() });
        return Some((l.clone(), playbook.clone()));
    }
    let (commit, h1, dir) = fetched_and_stored(store, fetcher, &parsed, &target_tag, name, locked, report)?;
    let playbook = match read_playbook_dir(&dir) {
        Ok((playbook, _, _)) => playbook,
        Err(i) => return fail(report, format!("{reference}@{target_tag}: {}", i.why)),
    };
    let effect = strongest_effect(&playbook, catalog);
    let level =
        old.as_ref().map(|o| crate::playbook_version::level(o, strongest_effect(o, catalog), &playbook, effect));
    report.events.push(Event::Taken {
        name: name.into(),
        from: locked.map(|l| l.tag.clone()),
        to: target_tag.clone(),
        level,
    });
    let consented = locked.map_or(effect, |l| l.effect);
    let effect = if effect < consented && !accept {
        report.events.push(Event::Loosened { name: name.into(), consented, upstream: effect });
        consented
    } else {
        if effect < consented {
            report.events.push(Event::Accepted { name: name.into(), from: consented, to: effect });
        } else if effect > consented {
            report.events.push(Event::Tightened { name: name.into(), from: consented, to: effect });
        }
        effect
    };
    Some((Locked { reference: parsed.text(), tag: target_tag, commit, h1, effect }, playbook))
}

#[allow(clippy::too_many_arguments)]
fn update_one(
    project: &Project,
    store: &Store,
    fetcher: &mut Fetcher,
    name: &str,
    reference: &str,
    asked: &str,
    locked: Option<&Locked>,
    accept: bool,
    report: &mut Updated,
) -> Option<(Locked, Manifest)> {
    let fail = |report: &mut Updated, why: String| {
        report.events.push(Event::Failed { name: name.to_string(), why });
        None
    };
    let (parsed, target_tag) = release(fetcher, name, reference, asked, locked, report)?;
    let old_manifest = locked.and_then(|l| store.verify(&l.h1).ok()).and_then(|dir| read_reflex_dir(&dir).ok());
    if let (Some(l), Some(m)) = (locked, &old_manifest)
        && l.tag == target_tag
    {
        let mut entry = l.clone();
        if entry.effect > m.effect && accept {
            report.events.push(Event::Accepted { name: name.into(), from: entry.effect, to: m.effect });
            entry.effect = m.effect;
        } else if entry.effect > m.effect {
            report.events.push(Event::Loosened { name: name.into(), consented: entry.effect, upstream: m.effect });
        }
        report.events.push(Event::Unchanged { name: name.into(), tag: l.tag.clone() });
        return Some((entry, m.clone()));
    }
    let (commit, h1, dir) = fetched_and_stored(store, fetcher, &parsed, &target_tag, name, locked, report)?;
    let manifest = match read_reflex_dir(&dir) {
        Ok(m) => m,
        Err(i) => return fail(report, format!("{reference}@{target_tag}: {}", i.why)),
    };
    // Grants are contract: a wider one waits for the same consent as a looser effect. What was consented
    // to is the locked version's grants, from its store copy; the same content fetched again is that
    // version itself; with neither, nothing counts as consented, so every grant waits.
    let consented = match (&old_manifest, locked) {
        (Some(old), _) => old.grants.clone(),
        (None, Some(l)) if l.h1 == h1 => manifest.grants.clone(),
        (None, Some(_)) => Grants::default(),
        // Installed for the first time by `update` (a line written in evoke.toml by hand): as for `add`,
        // the install is the consent, and the grants are shown.
        (None, None) => manifest.grants.clone(),
    };
    let widened = grants_widened(&consented, &manifest.grants);
    if let Some(l) = locked
        && !widened.is_empty()
    {
        if !accept {
            report.events.push(Event::Widened {
                name: name.into(),
                tag: target_tag,
                kept: l.tag.clone(),
                grants: widened,
            });
            return None;
        }
        report.events.push(Event::GrantsAccepted { name: name.into(), tag: target_tag.clone(), grants: widened });
    }
    let level = old_manifest.as_ref().and_then(|old| diff(old, &manifest).ok()).map(|d| d.next);
    report.events.push(Event::Taken {
        name: name.into(),
        from: locked.map(|l| l.tag.clone()),
        to: target_tag.clone(),
        level,
    });

    // The effect: tightening is taken at once; loosening waits for --accept.
    let consented = locked.map_or(manifest.effect, |l| l.effect);
    let effect = if manifest.effect < consented {
        if accept {
            report.events.push(Event::Accepted { name: name.into(), from: consented, to: manifest.effect });
            manifest.effect
        } else {
            report.events.push(Event::Loosened { name: name.into(), consented, upstream: manifest.effect });
            consented
        }
    } else {
        if manifest.effect > consented {
            report.events.push(Event::Tightened { name: name.into(), from: consented, to: manifest.effect });
        }
        manifest.effect
    };

    // The user's overlay: renames it follows, and what no longer fits.
    let overlay_path = project.location.root.join("overlays").join(format!("{name}.toml"));
    if let Ok(text) =
        crate::bounded::read_to_string_in(&project.location.root, &overlay_path, crate::bounded::MAX_OWNED)
    {
        let file = format!("overlays/{name}.toml");
        if let Some(old) = &old_manifest {
            for arg in &manifest.args {
                for former in &arg.was {
                    let was_live_before = old.args.iter().any(|a| a.name == *former);
                    if was_live_before && mentions(&text, former) {
                        report.events.push(Event::Rewritten {
                            name: name.into(),
                            file: file.clone(),
                            from: former.clone(),
                            to: arg.name.clone(),
                        });
                    }
                }
            }
        }
        let reading = read_overlay(&file, &text, &manifest);
        for d in reading.diagnostics.iter().filter(|d| d.is_error()) {
            report.events.push(Event::Stale {
                name: name.into(),
                file: file.clone(),
                line: d.place.line,
                message: d.message.clone(),
                fix: d.fix.clone().unwrap_or_else(|| "remove the line".into()),
            });
        }
    }
    let entry = Locked { reference: parsed.text(), tag: target_tag, commit, h1, effect };
    Some((entry, manifest))
}

/// Whether an overlay's text names `arg` as an argument: `[args.arg]`, `args.arg.…`, or `arg =` in a record.
fn mentions(text: &str, arg: &str) -> bool {
    text.contains(&format!("args.{arg}]"))
        || text.contains(&format!("args.{arg}."))
        || text.contains(&format!("{{ {arg} ="))
        || text.contains(&format!(", {arg} ="))
        || text.contains(&format!("{{{arg} ="))
}

fn orphans(root: &Path, project: &Project, manifests: &[(String, Manifest)], report: &mut Updated) {
    let names = |dir: &str| -> Vec<String> {
        let mut out: Vec<String> = std::fs::read_dir(root.join(dir))
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| e.file_name().to_str().and_then(|n| n.strip_suffix(".toml")).map(str::to_string))
            .collect();
        out.sort();
        out
    };
    for overlay in names("overlays") {
        if !project.file.reflexes.iter().any(|(n, _)| *n == overlay) {
            report.events.push(Event::Orphaned {
                file: format!("overlays/{overlay}.toml"),
                why: format!("no reflex is installed as `{overlay}`"),
            });
        }
    }
    for vocab in names("vocab") {
        let used = manifests.iter().any(|(_, m)| m.args.iter().any(|a| a.source == Source::Vocab(vocab.clone())));
        if !used {
            report.events.push(Event::Orphaned {
                file: format!("vocab/{vocab}.toml"),
                why: "no installed reflex names it".into(),
            });
        }
    }
}
