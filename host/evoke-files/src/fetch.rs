//! Fetching with gix: bare and shallow (depth 1), one tag at a time, read from the object
//! database without a checkout, once per repository and tag. Symlinks and submodules refuse the reflex
//! directory. No hook runs: gix runs none on fetch, and nothing is checked out.
//!
//! The scratch repository is opened isolated from the user's and the system's git configuration, so no
//! `url.*.insteadOf`, credential helper or `core.sshCommand` can change where a ref leads.

use crate::limits::{Over, Tally};
use evoke_core::refs::{Ref, Version, newest_release, parse_version_tag};
use gix::bstr::ByteSlice;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// Why a fetch gave nothing to install.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FetchError {
    /// The repository could not be reached or read.
    Remote(String),
    /// The repository has no version tag at all: it cannot be installed.
    NoVersionTag,
    /// The tag asked for is not in the repository.
    NoSuchTag(String),
    /// The reflex directory (`//subdir`) is not in the tree at the tag.
    NoDirectory(String),
    /// A symlink, a submodule or another entry that is not a regular file.
    NotRegular { path: String, kind: &'static str },
    /// The reflex directory is over a limit on what a fetched reflex may hold; nothing was read or written.
    TooLarge(Over),
}

impl std::fmt::Display for FetchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FetchError::Remote(why) => f.write_str(why),
            FetchError::NoVersionTag => f.write_str(
                "the repository has no version tag (v1.0.0, …); it cannot be installed until its author tags a release",
            ),
            FetchError::NoSuchTag(tag) => write!(f, "the repository has no tag {tag}"),
            FetchError::NoDirectory(dir) => write!(f, "there is no directory {dir} in the repository at that tag"),
            FetchError::NotRegular { path, kind } => {
                write!(f, "{path} is a {kind}; symlinks and submodules are refused, so this reflex cannot be installed")
            }
            FetchError::TooLarge(over) => write!(f, "the reflex directory is refused: {over}; nothing was installed"),
        }
    }
}

/// A reflex directory read at a tag.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// The commit the tag names, in hex.
    pub commit: String,
    /// Every regular file of the reflex directory, `/`-separated paths relative to it.
    pub files: Vec<(String, Vec<u8>)>,
}

static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

type Redirect = dyn Fn(&str) -> Option<String> + Send + Sync;

/// Told when a step that waits on the network begins and ends, so that the binary can draw it; the
/// library itself never writes to the terminal.
pub trait Progress: Send + Sync {
    /// A step begins: `what` says what it waits on (`fetching REF@TAG`), outside text, unescaped.
    fn begin(&self, what: &str);
    /// The step begun last has ended.
    fn end(&self);
}

/// No progress shown: the default, and what a test or a pipe gets.
pub struct Silent;

impl Progress for Silent {
    fn begin(&self, _what: &str) {}
    fn end(&self) {}
}

/// Fetches refs for one command. A repository and tag are fetched once, however many reflexes they hold.
pub struct Fetcher {
    scratch: PathBuf,
    redirect: Option<Box<Redirect>>,
    progress: Box<dyn Progress>,
    repos: HashMap<(String, String), (PathBuf, String)>,
    /// The tags listed per repository, once per command.
    listed: std::cell::RefCell<HashMap<String, Vec<(String, String)>>>,
    counter: usize,
}

impl Fetcher {
    /// `scratch` is a directory for the bare repositories, removed when the fetcher is dropped.
    pub fn new(scratch: &Path) -> Fetcher {
        Fetcher {
            scratch: scratch.join(format!("fetch-{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed))),
            redirect: None,
            progress: Box::new(Silent),
            repos: HashMap::new(),
            listed: Default::default(),
            counter: 0,
        }
    }

    /// Library use only, never reachable from the command line: maps a ref's repository to the URL
    /// actually fetched, so a test can serve a well-formed ref from a repository on loopback.
    pub fn with_redirect(mut self, redirect: impl Fn(&str) -> Option<String> + Send + Sync + 'static) -> Fetcher {
        self.redirect = Some(Box::new(redirect));
        self
    }

    /// Reports each network step to `progress`.
    pub fn with_progress(mut self, progress: impl Progress + 'static) -> Fetcher {
        self.progress = Box::new(progress);
        self
    }

    fn url(&self, repository: &str) -> String {
        self.redirect.as_ref().and_then(|r| r(repository)).unwrap_or_else(|| repository.to_string())
    }

    /// The repository's version tags with the commit each names, without fetching any object.
    pub fn tags(&self, reference: &Ref) -> Result<Vec<(String, String)>, FetchError> {
        if let Some(tags) = self.listed.borrow().get(&reference.repository) {
            return Ok(tags.clone());
        }
        let tags = self.list_tags(reference)?;
        self.listed.borrow_mut().insert(reference.repository.clone(), tags.clone());
        Ok(tags)
    }

    fn list_tags(&self, reference: &Ref) -> Result<Vec<(String, String)>, FetchError> {
        install_crypto();
        let dir = self.scratch.join("ls-remote");
        let repo = scratch_repo(&dir)?;
        let url = self.url(&reference.repository);
        let shown = reference.repository.clone();
        let result = stepped(&*self.progress, &format!("reading the tags of {shown}"), || {
            let remote = repo
                .remote_at_without_url_rewrite(url.as_str())
                .map_err(remote_error(&shown))?
                .with_fetch_tags(gix::remote::fetch::Tags::None)
                .with_refspecs(Some("refs/tags/v*:refs/tags/v*"), gix::remote::Direction::Fetch)
                .map_err(remote_error(&shown))?;
            let connection = remote.connect(gix::remote::Direction::Fetch).map_err(remote_error(&shown))?;
            let (map, _) = connection
                .ref_map(gix::progress::Discard, gix::remote::ref_map::Options::default())
                .map_err(remote_error(&shown))?;
            let mut tags = Vec::new();
            for r in &map.remote_refs {
                let (name, commit) = match r {
                    gix::protocol::handshake::Ref::Peeled { full_ref_name, object, .. } => (full_ref_name, object),
                    gix::protocol::handshake::Ref::Direct { full_ref_name, object } => (full_ref_name, object),
                    _ => continue,
                };
                let Some(tag) = name.to_str().ok().and_then(|n| n.strip_prefix("refs/tags/")) else { continue };
                if parse_version_tag(tag).is_ok() {
                    tags.push((tag.to_string(), commit.to_hex().to_string()));
                }
            }
            Ok(tags)
        });
        crate::store::remove_tree(&dir);
        result
    }

    /// The newest release tag of the repository, with its commit.
    pub fn newest(&self, reference: &Ref) -> Result<(Version, String), FetchError> {
        let tags = self.tags(reference)?;
        let newest = newest_release(tags.iter().map(|(t, _)| t.as_str())).ok_or(FetchError::NoVersionTag)?;
        let commit = tags.iter().find(|(t, _)| *t == newest.tag()).map(|(_, c)| c.clone()).unwrap_or_default();
        Ok((newest, commit))
    }

    /// Fetches the tag (once per repository and tag) and reads the reflex directory at it.
    pub fn fetch(&mut self, reference: &Ref, tag: &str) -> Result<Fetched, FetchError> {
        let key = (reference.repository.clone(), tag.to_string());
        if !self.repos.contains_key(&key) {
            let fetched = self.fetch_tag(reference, tag)?;
            self.repos.insert(key.clone(), fetched);
        }
        let (dir, commit) = &self.repos[&key];
        let repo = gix::open_opts(dir, gix::open::Options::isolated()).map_err(remote_error(&reference.repository))?;
        let files = read_directory(&repo, commit, reference.subdir.as_deref())?;
        Ok(Fetched { commit: commit.clone(), files })
    }

    /// The scratch bare repository a repository and tag were fetched into, while this fetcher lives:
    /// for tests that check what a fetch brought (one commit, no checkout).
    #[doc(hidden)]
    pub fn fetched_repository(&self, repository: &str, tag: &str) -> Option<&Path> {
        self.repos.get(&(repository.to_string(), tag.to_string())).map(|(dir, _)| dir.as_path())
    }

    fn fetch_tag(&mut self, reference: &Ref, tag: &str) -> Result<(PathBuf, String), FetchError> {
        install_crypto();
        self.counter += 1;
        let dir = self.scratch.join(format!("repo-{}", self.counter));
        let repo = scratch_repo(&dir)?;
        let url = self.url(&reference.repository);
        let shown = reference.repository.clone();
        let spec = format!("+refs/tags/{tag}:refs/tags/{tag}");
        let commit = stepped(&*self.progress, &format!("fetching {shown}@{tag}"), || {
            let remote = repo
                .remote_at_without_url_rewrite(url.as_str())
                .map_err(remote_error(&shown))?
                .with_fetch_tags(gix::remote::fetch::Tags::None)
                .with_refspecs(Some(spec.as_str()), gix::remote::Direction::Fetch)
                .map_err(remote_error(&shown))?;
            let connection = remote.connect(gix::remote::Direction::Fetch).map_err(remote_error(&shown))?;
            let prepare = connection
                .prepare_fetch(gix::progress::Discard, gix::remote::ref_map::Options::default())
                .map_err(remote_error(&shown))?;
            if !prepare.ref_map().remote_refs.iter().any(|r| ref_name(r) == format!("refs/tags/{tag}")) {
                return Err(FetchError::NoSuchTag(tag.to_string()));
            }
            let depth = std::num::NonZeroU32::new(1).expect("one is not zero");
            let interrupt = AtomicBool::new(false);
            prepare
                .with_shallow(gix::remote::fetch::Shallow::DepthAtRemote(depth))
                .receive(gix::progress::Discard, &interrupt)
                .map_err(remote_error(&shown))?;
            let mut reference = repo
                .find_reference(format!("refs/tags/{tag}").as_str())
                .map_err(|_| FetchError::NoSuchTag(tag.to_string()))?;
            let commit = reference.peel_to_commit().map_err(remote_error(&shown))?;
            Ok(commit.id.to_hex().to_string())
        })?;
        Ok((dir, commit))
    }
}

impl Drop for Fetcher {
    fn drop(&mut self) {
        crate::store::remove_tree(&self.scratch);
    }
}

fn ref_name(r: &gix::protocol::handshake::Ref) -> String {
    use gix::protocol::handshake::Ref;
    match r {
        Ref::Peeled { full_ref_name, .. }
        | Ref::Direct { full_ref_name, .. }
        | Ref::Symbolic { full_ref_name, .. }
        | Ref::Unborn { full_ref_name, .. } => full_ref_name.to_str_lossy().into_owned(),
    }
}

fn remote_error<E: std::fmt::Display>(repository: &str) -> impl Fn(E) -> FetchError + '_ {
    move |e| FetchError::Remote(format!("cannot fetch from {repository}: {e}"))
}

/// A bare repository for one fetch, isolated from every configuration but its own.
fn scratch_repo(dir: &Path) -> Result<gix::Repository, FetchError> {
    crate::store::remove_tree(dir);
    // In the cache place, 0700 like every directory evoke makes for itself.
    crate::atomic::create_private_dirs(dir)
        .map_err(|e| FetchError::Remote(format!("cannot create {}: {e}", dir.display())))?;
    let repo = gix::ThreadSafeRepository::init_opts(
        dir,
        gix::create::Kind::Bare,
        gix::create::Options::default(),
        gix::open::Options::isolated(),
    )
    .map_err(|e| FetchError::Remote(format!("cannot create a scratch repository: {e}")))?;
    Ok(repo.to_thread_local())
}

/// TLS for https refs: rustls with the ring provider, installed once for the process.
fn install_crypto() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// Reads every regular file under `subdir` of the commit's tree; anything else refuses the directory.
fn read_directory(
    repo: &gix::Repository,
    commit: &str,
    subdir: Option<&str>,
) -> Result<Vec<(String, Vec<u8>)>, FetchError> {
    let error = |e: gix::Error| FetchError::Remote(format!("cannot read the fetched tree: {e}"));
    let id = gix::ObjectId::from_hex(commit.as_bytes()).map_err(|e| FetchError::Remote(e.to_string()))?;
    // Every object read whole on the way to the reflex directory is held to the size of a file first.
    within_a_file(repo, id, ".")?;
    let tree = repo.find_commit(id).map_err(error)?.tree().map_err(error)?;
    let root = match subdir {
        None => tree.id,
        Some(subdir) => {
            let mut at = tree.id;
            for segment in subdir.split('/') {
                within_a_file(repo, at, subdir)?;
                let tree = repo.find_tree(at).map_err(error)?;
                let decoded = tree.decode().map_err(error)?;
                let entry = decoded
                    .entries
                    .iter()
                    .find(|e| e.filename == segment.as_bytes())
                    .ok_or_else(|| FetchError::NoDirectory(subdir.to_string()))?;
                if entry.mode.is_link() {
                    return Err(FetchError::NotRegular { path: subdir.to_string(), kind: "symlink" });
                }
                if entry.mode.is_commit() {
                    return Err(FetchError::NotRegular { path: subdir.to_string(), kind: "submodule" });
                }
                if !entry.mode.is_tree() {
                    return Err(FetchError::NoDirectory(subdir.to_string()));
                }
                at = entry.oid.to_owned();
            }
            at
        }
    };
    // First the tree alone, sizes from the objects' headers: nothing is read into memory (let alone
    // written) until the whole directory is known to be within the limits.
    let mut blobs = Vec::new();
    walk_tree(repo, root, "", 0, &mut Tally::default(), &mut blobs)?;
    let mut files = Vec::with_capacity(blobs.len());
    for (path, oid) in blobs {
        let blob = repo.find_blob(oid).map_err(error)?;
        files.push((path, blob.data.clone()));
    }
    Ok(files)
}

/// Refuses an object (a commit or a tree, which are read whole to be listed) larger than a file may be,
/// by the size its header gives, before it is read.
fn within_a_file(repo: &gix::Repository, id: gix::ObjectId, path: &str) -> Result<(), FetchError> {
    let size =
        repo.find_header(id).map_err(|e| FetchError::Remote(format!("cannot read the fetched tree: {e}")))?.size();
    if size > crate::limits::MAX_FILE {
        return Err(FetchError::TooLarge(Over::File { path: path.to_string(), size }));
    }
    Ok(())
}

/// Lists every regular file under the tree `id` (`depth` directories below the reflex directory) with
/// its blob, counting each against the limits by the size its object's header gives.
fn walk_tree(
    repo: &gix::Repository,
    id: gix::ObjectId,
    prefix: &str,
    depth: usize,
    tally: &mut Tally,
    out: &mut Vec<(String, gix::ObjectId)>,
) -> Result<(), FetchError> {
    let error = |e: gix::Error| FetchError::Remote(format!("cannot read the fetched tree: {e}"));
    within_a_file(repo, id, if prefix.is_empty() { "." } else { prefix })?;
    let tree = repo.find_tree(id).map_err(error)?;
    let decoded = tree.decode().map_err(error)?;
    for entry in &decoded.entries {
        let name = entry
            .filename
            .to_str()
            .map_err(|_| FetchError::Remote(format!("{prefix}: a file name that is not UTF-8")))?;
        let path = if prefix.is_empty() { name.to_string() } else { format!("{prefix}/{name}") };
        let oid = entry.oid.to_owned();
        if entry.mode.is_link() {
            return Err(FetchError::NotRegular { path, kind: "symlink" });
        } else if entry.mode.is_commit() {
            return Err(FetchError::NotRegular { path, kind: "submodule" });
        } else if entry.mode.is_tree() {
            tally.dir(&path, depth + 1).map_err(FetchError::TooLarge)?;
            walk_tree(repo, oid, &path, depth + 1, tally, out)?;
        } else if entry.mode.is_blob() {
            let size = repo.find_header(oid).map_err(error)?.size();
            tally.file(&path, size).map_err(FetchError::TooLarge)?;
            out.push((path, oid));
        } else {
            return Err(FetchError::NotRegular { path, kind: "special entry" });
        }
    }
    Ok(())
}

/// Runs `work` as one step told to `progress`.
fn stepped<T>(progress: &dyn Progress, what: &str, work: impl FnOnce() -> T) -> T {
    progress.begin(what);
    let result = work();
    progress.end();
    result
}
