//! Compiled components, kept on disk between runs. (A caller that keeps components typed by its world
//! keeps them in memory within one process itself: evoke-bodies' loaded bodies.)
//!
//! A component is compiled once per content and engine: the file is
//! `<cache>/components/<engine>/<BLAKE3 of the .wasm>.cwasm`, where `<engine>` is a digest of
//! `Engine::precompile_compatibility_hash()` (wasmtime's version, the target and every setting that
//! changes code). Files are written whole and renamed into place. The directory may be deleted at any time.
//!
//! A compiled file is machine code that wasmtime loads without checking it, so it is never trusted by
//! its name: it begins with a seal, the BLAKE3 of the `.wasm`'s digest and the compiled bytes, and a
//! later run reads it whole, checks the seal, and only then loads the bytes it checked. A file changed
//! since evoke wrote it, or another component's file put in its place, fails the check and is compiled
//! again from the `.wasm`.
//!
//! Both digests are BLAKE3: a run from the cache hashes the `.wasm` and the whole compiled file, several
//! hundred kilobytes, and SHA-256 made that most of the run's time.

use super::ComponentHost;
use super::error::ComponentError;
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use wasmtime::Engine;
use wasmtime::component::Component;

/// Where a component came from on this run, fastest last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Compiled from the `.wasm` now (and written to the cache).
    Compiled,
    /// Mapped from the compiled file in the cache directory.
    Disk,
    /// Already loaded by this process.
    Memory,
}

/// A component's content key: the BLAKE3 of its `.wasm`.
pub type Key = [u8; 32];

pub(crate) struct Cache {
    dir: PathBuf,
    /// One compile at a time (each is parallel already), so that calls of one component started together
    /// compile it once.
    compiling: Mutex<()>,
}

/// Feeds a `Hash` into BLAKE3, so the engine's digest is the same from one process to the next.
struct StableHasher(blake3::Hasher);

impl Hasher for StableHasher {
    fn finish(&self) -> u64 {
        unreachable!("read with finalize")
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// The content key of the component whose `.wasm` is `bytes`.
pub fn key_of(bytes: &[u8]) -> Key {
    blake3::hash(bytes).into()
}

/// The length of a seal: one BLAKE3 digest.
const SEAL: usize = 32;

/// The largest compiled file read back: 1 GiB. A componentized Python interpreter compiles to some tens of
/// megabytes; a file larger than this is not one evoke wrote.
const COMPILED_LIMIT: u64 = 1 << 30;

/// The seal of `compiled`, made from the component whose `.wasm` digest is `key`: binding both, a file
/// moved from another component's name fails as surely as a changed one.
fn seal(key: &Key, compiled: &[u8]) -> [u8; SEAL] {
    let mut hasher = blake3::Hasher::new();
    hasher.update(b"evoke compiled component\0");
    hasher.update(key);
    hasher.update(compiled);
    hasher.finalize().into()
}

/// The compiled bytes of a cache file, when its seal holds for `key`.
fn unseal<'a>(key: &Key, file: &'a [u8]) -> Option<&'a [u8]> {
    let (sealed, compiled) = file.split_at_checked(SEAL)?;
    (seal(key, compiled) == sealed).then_some(compiled)
}

impl Cache {
    /// The cache for `engine` under `cache_dir/components/`, created if missing.
    pub(crate) fn new(cache_dir: &Path, engine: &Engine) -> Result<Cache, ComponentError> {
        let mut hasher = StableHasher(blake3::Hasher::new());
        engine.precompile_compatibility_hash().hash(&mut hasher);
        let engine_key = hex(&hasher.0.finalize().as_bytes()[..8]);
        let dir = cache_dir.join("components").join(engine_key);
        std::fs::create_dir_all(&dir).map_err(|source| ComponentError::Cache { dir: dir.clone(), source })?;
        Ok(Cache { dir, compiling: Mutex::default() })
    }

    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    fn file(&self, key: &Key) -> PathBuf {
        self.dir.join(format!("{}.cwasm", hex(key)))
    }

    /// The compiled file of `key`, loaded, if it is there and its seal holds. A file whose seal fails is
    /// removed, so that the compile that follows can put a good one in its place.
    pub(crate) fn map(&self, engine: &Engine, key: &Key) -> Option<Component> {
        let file = self.file(key);
        let size = std::fs::metadata(&file).ok().filter(|m| m.is_file())?.len();
        if size > COMPILED_LIMIT {
            let _ = std::fs::remove_file(&file);
            return None;
        }
        // Read once, checked and loaded from the same bytes: a file changed after the check changes
        // nothing that runs.
        let bytes = std::fs::read(&file).ok()?;
        let Some(compiled) = unseal(key, &bytes) else {
            let _ = std::fs::remove_file(&file);
            return None;
        };
        // SAFETY: `compiled` is exactly what `keep` serialized from this component's `.wasm` with an engine
        // of this compatibility hash: its seal, over the `.wasm`'s digest and these bytes, was checked just
        // now. wasmtime checks the engine's settings again before loading.
        unsafe { Component::deserialize(engine, compiled) }.ok()
    }

    /// Writes `component` to the cache, sealed. A cache that cannot be written only costs the next run a
    /// compile.
    pub(crate) fn keep(&self, key: &Key, component: &Component) {
        use std::io::Write as _;
        let Ok(compiled) = component.serialize() else { return };
        // The temporary file is created exclusively under a random name beside its target (O_EXCL, 0600),
        // so a link planted at a name evoke would have chosen is never written through; dropped unpersisted
        // on any failure, it is removed.
        let Ok(mut tmp) = tempfile::Builder::new().prefix(".cwasm-").tempfile_in(&self.dir) else { return };
        let written = tmp.write_all(&seal(key, &compiled)).and_then(|()| tmp.write_all(&compiled));
        if written.is_ok() {
            let _ = tmp.persist(self.file(key));
        }
    }

    /// `bytes` compiled, from the disk cache or compiled now and kept, with no world checked: for a
    /// component that is not a body (an adapter), whose caller checks its own world.
    pub(crate) fn component(
        &self,
        engine: &Engine,
        key: &Key,
        bytes: &[u8],
    ) -> Result<(Component, Source), ComponentError> {
        if let Some(component) = self.map(engine, key) {
            return Ok((component, Source::Disk));
        }
        let _one = self.compiling.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(component) = self.map(engine, key) {
            return Ok((component, Source::Disk));
        }
        let component = Component::new(engine, bytes).map_err(ComponentError::NotAComponent)?;
        self.keep(key, &component);
        Ok((component, Source::Compiled))
    }
}

impl ComponentHost {
    /// The component compiled earlier from a `.wasm` whose key is `key`, if its file is in the cache and
    /// its seal holds. A caller that keeps its components typed (bodies, by world) reads here first.
    pub fn from_disk(&self, key: &Key) -> Option<Component> {
        self.inner.cache.map(&self.inner.engine, key)
    }

    /// `bytes` compiled now and not kept: the caller checks what it got (its world) before it [`keep`]s
    /// it, so that a component refused is compiled again, and refused again, on its next run. Blocks while
    /// compiling.
    ///
    /// [`keep`]: ComponentHost::keep
    pub fn compile(&self, bytes: &[u8]) -> Result<Component, ComponentError> {
        Component::new(&self.inner.engine, bytes).map_err(ComponentError::NotAComponent)
    }

    /// Writes `component`, compiled from a `.wasm` whose key is `key`, to the cache, sealed. A cache that
    /// cannot be written only costs the next run a compile.
    pub fn keep(&self, key: &Key, component: &Component) {
        self.inner.cache.keep(key, component);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeping_a_compiled_file_never_writes_through_a_planted_link() {
        let dir = tempfile::tempdir().unwrap();
        let engine = crate::engine::new_engine().unwrap();
        let cache = Cache::new(dir.path(), &engine).unwrap();
        let wasm = wat::parse_str("(component)").unwrap();
        let key = key_of(&wasm);
        let component = Component::new(&engine, &wasm).unwrap();

        // A link at the name a process-and-key scheme would choose, to a victim outside the cache.
        let victim = dir.path().join("victim");
        std::fs::write(&victim, b"untouched").unwrap();
        let file = cache.file(&key);
        let guess = file.with_extension(format!("tmp{}-{:x}", std::process::id(), key[0]));
        std::os::unix::fs::symlink(&victim, guess).unwrap();
        cache.keep(&key, &component);

        assert_eq!(std::fs::read(&victim).unwrap(), b"untouched");
        let kept = std::fs::read(&file).unwrap();
        assert!(unseal(&key, &kept).is_some(), "the kept file is whole and sealed");
        let meta = std::fs::symlink_metadata(&file).unwrap();
        assert!(meta.is_file(), "the kept file is a file of its own, not a link");
    }
}
