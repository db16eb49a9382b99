//! A project: the nearest directory at or above the working directory holding `evoke.toml`, or the
//! one `-C DIR` names, or else the home project. Loading reads every installed reflex with its overlay
//! and vocabularies, and says of each whether it is active and, if not, why and what fixes it.

use crate::bounded::MAX_OWNED;
use crate::lock::{Lock, Locked};
use crate::places::Places;
use crate::playbook::InstalledPlaybook;
use crate::store::Store;
use evoke_core::catalog::{Catalog, Reflex};
use evoke_core::diag::Diagnostic;
use evoke_core::manifest::{Arg, Manifest, Source, read_manifest};
use evoke_core::overlay::read_overlay;
use evoke_core::project::{BarMoves, ProjectFile, ReflexSource, Setting, read_project_file};
use evoke_core::vocab::{Vocabulary, read_vocab};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub const PROJECT_FILE: &str = "evoke.toml";

/// Where a project lives and whether it is the home project (which is trusted by definition).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub root: PathBuf,
    pub home: bool,
}

/// Finds the project: `chosen` (from `-C`) when given, else the nearest `evoke.toml` at or above `cwd`,
/// else the home project in the config place.
pub fn locate(cwd: &Path, chosen: Option<&Path>, places: &Places) -> Result<Location, NotAProject> {
    if let Some(dir) = chosen {
        let root = if dir.is_absolute() { dir.to_path_buf() } else { cwd.join(dir) };
        if !root.join(PROJECT_FILE).is_file() {
            return Err(NotAProject { dir: root });
        }
        return Ok(Location { home: same_dir(&root, &places.config), root });
    }
    for dir in cwd.ancestors() {
        if dir.join(PROJECT_FILE).is_file() {
            return Ok(Location { home: same_dir(dir, &places.config), root: dir.to_path_buf() });
        }
    }
    Ok(Location { root: places.config.clone(), home: true })
}

/// The directory `-C` names holds no `evoke.toml`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} holds no {PROJECT_FILE}", dir.display())]
pub struct NotAProject {
    pub dir: PathBuf,
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// Why an installed reflex takes no part in decisions, and the command or edit that fixes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inactive {
    pub why: String,
    pub fix: String,
    /// The diagnostics behind it, when a file refused.
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Debug, Clone)]
pub struct Installed {
    pub name: String,
    pub source: ReflexSource,
    pub dir: PathBuf,
    /// The effective manifest, when the manifest and its overlay read. For a remote reflex its effect is
    /// never looser than the one the lock holds (an effect only tightens).
    pub manifest: Option<Manifest>,
    pub status: Result<Reflex, Inactive>,
    /// The lock's entry for a remote reflex.
    pub locked: Option<Locked>,
}

/// The adapters' settings and the moved bars, read from the user's home `evoke.toml` alone, whichever
/// project decides: a project's own file may only name its adapter.
#[derive(Debug, Clone, Default)]
pub struct HomeSettings {
    /// The home `evoke.toml`, named in refusals and fixes (it need not exist).
    pub file: PathBuf,
    /// `[adapters.NAME]`, as TOML per adapter name.
    pub adapters: BTreeMap<String, toml::Table>,
    /// `[bars.NAME]`.
    pub bars: BTreeMap<String, BarMoves>,
}

#[derive(Debug, Clone)]
pub struct Project {
    pub location: Location,
    /// The project's `evoke.toml`. For a project other than the home one, its `adapters` and `bars` are
    /// always empty (a file holding them is refused); read them from `settings`.
    pub file: ProjectFile,
    /// The adapters' settings and the bars, from the home `evoke.toml`.
    pub settings: HomeSettings,
    /// Warnings about `evoke.toml`.
    pub diagnostics: Vec<Diagnostic>,
    pub installed: Vec<Installed>,
    /// The playbooks `evoke.toml` lists, in its order.
    pub playbooks: Vec<InstalledPlaybook>,
    /// `evoke.lock`, empty when there is none.
    pub lock: Lock,
}

impl Project {
    /// The active reflexes, in the order `evoke.toml` lists them, then the active playbooks, each offered
    /// as its synthetic reflex under the strongest effect among its steps.
    pub fn catalog(&self) -> Catalog {
        let offered = self.playbooks.iter().filter_map(InstalledPlaybook::offered).collect();
        self.reflexes_catalog().with_playbooks(offered)
    }

    /// The active reflexes alone: what a playbook is checked against.
    fn reflexes_catalog(&self) -> Catalog {
        Catalog::new(self.installed.iter().filter_map(|i| i.status.as_ref().ok().cloned()).collect())
    }

    pub fn installed(&self, name: &str) -> Option<&Installed> {
        self.installed.iter().find(|i| i.name == name)
    }

    pub fn playbook(&self, name: &str) -> Option<&InstalledPlaybook> {
        self.playbooks.iter().find(|p| p.name == name)
    }

    /// The settings `evoke.toml` gives one reflex.
    pub fn settings(&self, reflex: &str) -> &[(String, Setting)] {
        self.file.config.get(reflex).map_or(&[], Vec::as_slice)
    }
}

/// `evoke.toml` could not be read: every diagnostic, for the command to show.
#[derive(Debug, Clone)]
pub struct LoadError {
    pub message: String,
    pub diagnostics: Vec<Diagnostic>,
}

/// Loads the project with the store in the places the environment names.
pub fn load(location: Location) -> Result<Project, LoadError> {
    let places = Places::from_env().map_err(|e| LoadError { message: e.to_string(), diagnostics: Vec::new() })?;
    load_in(location, &places)
}

/// Loads the project: `evoke.toml`, `evoke.lock`, and every installed reflex, a remote one from the
/// store re-hashed against the lock.
pub fn load_in(location: Location, places: &Places) -> Result<Project, LoadError> {
    let path = location.root.join(PROJECT_FILE);
    let home_file = places.config.join(PROJECT_FILE);
    let (file, diagnostics) = match crate::bounded::read_to_string_in(&location.root, &path, MAX_OWNED) {
        Ok(text) => {
            if !location.home {
                let refused = crate::home_only::refuse(&path.display().to_string(), &text, &home_file);
                if !refused.is_empty() {
                    return Err(LoadError {
                        message: format!(
                            "{} holds settings only your home evoke.toml may hold ({})",
                            path.display(),
                            home_file.display()
                        ),
                        diagnostics: refused,
                    });
                }
            }
            let reading = read_project_file(&path.display().to_string(), &text);
            match reading.value {
                Some(file) => (file, reading.diagnostics),
                None => {
                    return Err(LoadError {
                        message: format!("{} is refused", path.display()),
                        diagnostics: reading.diagnostics,
                    });
                }
            }
        }
        // The home project may have no file yet: it is simply empty.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && location.home => (ProjectFile::default(), Vec::new()),
        Err(e) => {
            return Err(LoadError { message: format!("cannot read {}: {e}", path.display()), diagnostics: Vec::new() });
        }
    };
    let mut file = file;
    let settings = if location.home {
        HomeSettings { file: home_file, adapters: file.adapters.clone(), bars: file.bars.clone() }
    } else {
        // Refused above line by line; emptied here as well, so that no reader can ever take them from a
        // project, whatever the two TOML readers make of an odd file.
        file.adapters.clear();
        file.bars.clear();
        read_home_settings(home_file)?
    };
    let lock = Lock::load(&location.root)
        .map_err(|e| LoadError { message: format!("{e}; {}", e.fix()), diagnostics: Vec::new() })?;
    let store = Store::new(&places.data);
    let installed = file
        .reflexes
        .iter()
        .map(|(name, source)| install(&location.root, &file, &lock, &store, name, source))
        .collect();
    let mut project = Project { location, file, settings, installed, playbooks: Vec::new(), diagnostics, lock };
    project.playbooks = crate::playbook::install_all(
        &project.location.root,
        &project.file.playbooks,
        &project.lock,
        &store,
        &project.reflexes_catalog(),
    );
    Ok(project)
}

/// The adapters' settings and bars of the home `evoke.toml`; no file is none.
fn read_home_settings(file: PathBuf) -> Result<HomeSettings, LoadError> {
    let root = file.parent().unwrap_or(Path::new("."));
    let text = match crate::bounded::read_to_string_in(root, &file, MAX_OWNED) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HomeSettings { file, ..Default::default() }),
        Err(e) => {
            return Err(LoadError { message: format!("cannot read {}: {e}", file.display()), diagnostics: Vec::new() });
        }
    };
    let reading = read_project_file(&file.display().to_string(), &text);
    match reading.value {
        Some(home) => Ok(HomeSettings { file, adapters: home.adapters, bars: home.bars }),
        None => Err(LoadError { message: format!("{} is refused", file.display()), diagnostics: reading.diagnostics }),
    }
}

fn inactive(why: String, fix: String) -> Inactive {
    Inactive { why, fix, diagnostics: Vec::new() }
}

fn install(
    root: &Path,
    file: &ProjectFile,
    lock: &Lock,
    store: &Store,
    name: &str,
    source: &ReflexSource,
) -> Installed {
    let mut installed = Installed {
        name: name.to_string(),
        source: source.clone(),
        dir: PathBuf::new(),
        manifest: None,
        status: Err(inactive(String::new(), String::new())),
        locked: None,
    };
    let dir = match source {
        ReflexSource::Path(path) => root.join(path),
        ReflexSource::Remote { reference, tag } => match from_store(&lock.reflexes, store, name, reference, tag) {
            Ok((dir, locked)) => {
                installed.locked = Some(locked);
                dir
            }
            Err(inactive) => {
                installed.locked = lock.reflexes.get(name).cloned();
                installed.status = Err(inactive);
                return installed;
            }
        },
    };
    installed.dir = dir.clone();
    let manifest = match read_reflex_dir(&dir) {
        Ok(manifest) => manifest,
        Err(inactive) => {
            installed.status = Err(inactive);
            return installed;
        }
    };
    let mut manifest = match merge_overlay(root, name, manifest) {
        Ok(manifest) => manifest,
        Err(inactive) => {
            installed.status = Err(inactive);
            return installed;
        }
    };
    // The lock holds the effect the user consented to: upstream loosens it only through `--accept`.
    if let Some(locked) = &installed.locked {
        manifest.effect = manifest.effect.max(locked.effect);
    }
    installed.manifest = Some(manifest.clone());
    installed.status = activate(root, file, name, manifest);
    installed
}

/// A remote reflex's (or playbook's) directory in the store, when the lock's table `locks` holds it at
/// a tag `evoke.toml` accepts and the store's copy still hashes to the lock's h1 (re-hashed at every
/// start).
pub(crate) fn from_store(
    locks: &BTreeMap<String, Locked>,
    store: &Store,
    name: &str,
    reference: &str,
    tag: &str,
) -> Result<(PathBuf, Locked), Inactive> {
    let update = || "evoke update".to_string();
    let Some(locked) = locks.get(name) else {
        return Err(inactive(format!("{reference}@{tag} is not installed yet (evoke.lock has no entry)"), update()));
    };
    if locked.reference != reference {
        return Err(inactive(format!("evoke.toml names {reference}, the lock {}", locked.reference), update()));
    }
    if !tag_accepts(tag, &locked.tag) {
        return Err(inactive(format!("evoke.toml asks for {tag}, the lock holds {}", locked.tag), update()));
    }
    match store.verify(&locked.h1) {
        Ok(dir) => Ok((dir, locked.clone())),
        Err(miss) => Err(inactive(format!("{reference}@{}: {miss}", locked.tag), update())),
    }
}

/// Whether the lock's tag satisfies the tag `evoke.toml` asks for: the same tag, or a later release of
/// the same major version (what `evoke update` takes).
pub fn tag_accepts(asked: &str, locked: &str) -> bool {
    use evoke_core::refs::parse_version_tag;
    if asked == locked {
        return true;
    }
    match (parse_version_tag(asked), parse_version_tag(locked)) {
        (Ok(a), Ok(l)) => a.major == l.major && !l.is_prerelease() && l.precedence(&a).is_ge(),
        _ => false,
    }
}

/// Reads `DIR/reflex.toml`; a refusal makes the reflex inactive with the first error as the reason.
pub fn read_reflex_dir(dir: &Path) -> Result<Manifest, Inactive> {
    let path = dir.join("reflex.toml");
    let text = crate::bounded::read_to_string(&path, MAX_OWNED).map_err(|e| {
        let fix = crate::bounded::fix_for(&e, &path, PROJECT_FILE);
        inactive(format!("cannot read {}: {e}", path.display()), fix)
    })?;
    let exists = |relative: &str| dir.join(relative).is_file();
    let reading = read_manifest(&path.display().to_string(), &text, &exists);
    match reading.value {
        Some(manifest) => Ok(manifest),
        None => {
            let first = reading.first_error().map(|d| d.message.clone()).unwrap_or_default();
            Err(Inactive {
                why: format!("its manifest is refused: {first}"),
                fix: format!("evoke check {}", dir.display()),
                diagnostics: reading.diagnostics,
            })
        }
    }
}

fn merge_overlay(root: &Path, name: &str, manifest: Manifest) -> Result<Manifest, Inactive> {
    let path = root.join("overlays").join(format!("{name}.toml"));
    let text = match crate::bounded::read_to_string_in(root, &path, MAX_OWNED) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(manifest),
        // An overlay that fails to read makes its reflex inactive, never silently looser.
        Err(e) => {
            return Err(inactive(
                format!("cannot read {}: {e}", path.display()),
                format!("fix or remove {}", path.display()),
            ));
        }
    };
    let reading = read_overlay(&path.display().to_string(), &text, &manifest);
    match reading.value {
        Some(merged) => Ok(merged),
        None => {
            let first = reading.first_error();
            let why = first.map(|d| format!("its overlay is refused: {}", d.message)).unwrap_or_default();
            let fix = first
                .and_then(|d| d.fix.clone().map(|fix| format!("{}:{}: {fix}", d.file, d.place.line)))
                .unwrap_or_else(|| format!("fix {}", path.display()));
            Err(Inactive { why, fix, diagnostics: reading.diagnostics })
        }
    }
}

/// The vocabularies the arguments (or a playbook's slots) name, each from `vocab/NAME.toml`: a missing,
/// empty or refused one is the reason its reflex or playbook is inactive.
pub fn vocabularies(root: &Path, args: &[Arg]) -> Result<BTreeMap<String, Vocabulary>, Inactive> {
    let mut vocabs = BTreeMap::new();
    for arg in args {
        let Source::Vocab(vocab) = &arg.source else { continue };
        if vocabs.contains_key(vocab) {
            continue;
        }
        let path = root.join("vocab").join(format!("{vocab}.toml"));
        let text = crate::bounded::read_to_string_in(root, &path, MAX_OWNED).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                inactive(
                    format!("it needs your words for `{}`: vocab/{vocab}.toml is missing", arg.name),
                    format!("write vocab/{vocab}.toml, one word a line: den = \"The TV room downstairs.\""),
                )
            } else {
                inactive(format!("its words for `{}` cannot be read: {e}", arg.name), format!("fix vocab/{vocab}.toml"))
            }
        })?;
        let reading = read_vocab(vocab, &path.display().to_string(), &text);
        match reading.value {
            Some(words) if !words.words.is_empty() => {
                vocabs.insert(vocab.clone(), words);
            }
            Some(_) => {
                return Err(inactive(
                    format!("vocab/{vocab}.toml holds no words"),
                    format!("add a word to vocab/{vocab}.toml"),
                ));
            }
            None => {
                // The line and the key of the first refusal, and its own fix where it has one.
                let first = reading.first_error();
                let at = first.map(|d| format!(":{}", d.place.line)).unwrap_or_default();
                let message = first.map(|d| d.message.clone()).unwrap_or_default();
                let fix = first.and_then(|d| d.fix.clone()).map_or_else(
                    || format!("fix vocab/{vocab}.toml{at}"),
                    |fix| format!("vocab/{vocab}.toml{at}: {fix}"),
                );
                return Err(Inactive {
                    why: format!("vocab/{vocab}.toml{at} is refused: {message}"),
                    fix,
                    diagnostics: reading.diagnostics,
                });
            }
        }
    }
    Ok(vocabs)
}

/// A reflex is active when every vocabulary its arguments name reads and every setting it needs is set.
fn activate(root: &Path, file: &ProjectFile, name: &str, manifest: Manifest) -> Result<Reflex, Inactive> {
    let vocabs = vocabularies(root, &manifest.args)?;
    let settings = file.config.get(name).map_or(&[][..], Vec::as_slice);
    for key in &manifest.config {
        match settings.iter().find(|(k, _)| *k == key.name) {
            None if key.secret => {
                return Err(inactive(
                    format!("it needs the secret `{}` ({})", key.name, key.about),
                    format!("evoke config {name} {} --env VAR", key.name),
                ));
            }
            None => {
                return Err(inactive(
                    format!("it needs the setting `{}` ({})", key.name, key.about),
                    format!("evoke config {name} {}=VALUE", key.name),
                ));
            }
            Some((_, Setting::Plain(_))) if key.secret => {
                return Err(inactive(
                    format!("`{}` is a secret, and a secret is never written in a file", key.name),
                    format!("evoke config {name} {} --env VAR", key.name),
                ));
            }
            Some(_) => {}
        }
    }
    Ok(Reflex { name: name.to_string(), manifest, vocabs })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_without_evoke_toml_is_not_a_project() {
        let dir = tempfile::tempdir().unwrap();
        let places = Places::under(&dir.path().join("home"));
        let e = locate(dir.path(), Some(Path::new("elsewhere")), &places).unwrap_err();
        assert_eq!(e, NotAProject { dir: dir.path().join("elsewhere") });
        assert_eq!(e.to_string(), format!("{} holds no evoke.toml", dir.path().join("elsewhere").display()));
    }
}
