//! Compiled components, kept on disk between runs and in memory within one process.
//!
//! A component is compiled once per content and engine: the file is
//! `<cache>/components/<engine>/<sha256 of the .wasm>.cwasm`, where `<engine>` is a digest of
//! `Engine::precompile_compatibility_hash()` (wasmtime's version, the target and every setting that
//! changes code). A later run maps the file instead of compiling. Files are written whole and renamed
//! into place, never changed after, so a mapped file stays valid. The directory may be deleted at any time.

use super::state::State;
use super::world::{self, World};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use wasmtime::Engine;
use wasmtime::component::{Component, Linker};

/// A component ready to instantiate: compiled, checked against its world, its imports resolved.
pub(crate) enum Ready {
    V1(world::v1::BodyPre<State>),
}

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

pub(crate) type Key = [u8; 32];

pub(crate) struct Cache {
    dir: PathBuf,
    loaded: Mutex<HashMap<Key, Arc<Ready>>>,
    /// One compile at a time (each is parallel already), so that runs of one component started together
    /// compile it once.
    compiling: Mutex<()>,
}

/// Feeds a `Hash` into SHA-256, so the engine's digest is the same from one process to the next.
struct ShaHasher(Sha256);

impl Hasher for ShaHasher {
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

pub(crate) fn key_of(bytes: &[u8]) -> Key {
    Sha256::digest(bytes).into()
}

impl Cache {
    /// The cache for `engine` under `cache_dir/components/`, created if missing.
    pub(crate) fn new(cache_dir: &Path, engine: &Engine) -> Result<Cache, String> {
        let mut hasher = ShaHasher(Sha256::new());
        engine.precompile_compatibility_hash().hash(&mut hasher);
        let engine_key = hex(&hasher.0.finalize()[..8]);
        let dir = cache_dir.join("components").join(engine_key);
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("the component cache {} cannot be created: {e}", dir.display()))?;
        Ok(Cache { dir, loaded: Mutex::default(), compiling: Mutex::default() })
    }

    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    fn file(&self, key: &Key) -> PathBuf {
        self.dir.join(format!("{}.cwasm", hex(key)))
    }

    /// The component loaded earlier by this process.
    pub(crate) fn in_memory(&self, key: &Key) -> Option<Arc<Ready>> {
        self.loaded.lock().unwrap().get(key).cloned()
    }

    /// The component compiled by an earlier run, if its file is there and maps.
    pub(crate) fn on_disk(
        &self,
        engine: &Engine,
        linker: &Linker<State>,
        key: &Key,
    ) -> Option<Result<Arc<Ready>, String>> {
        let component = self.map(engine, key)?;
        Some(self.ready(engine, linker, key, &component))
    }

    /// The compiled file of `key`, mapped, if it is there and maps.
    fn map(&self, engine: &Engine, key: &Key) -> Option<Component> {
        let file = self.file(key);
        if !file.is_file() {
            return None;
        }
        // SAFETY: the file was written by `keep` below for this engine's compatibility hash, whole and
        // renamed into place, and is never modified afterwards. Whoever can write the user's cache
        // directory can already run code as the user.
        unsafe { Component::deserialize_file(engine, &file) }.ok()
    }

    /// Writes `component` to the cache. A cache that cannot be written only costs the next run a compile.
    fn keep(&self, key: &Key, component: &Component) {
        if let Ok(compiled) = component.serialize() {
            let file = self.file(key);
            let tmp = file.with_extension(format!("tmp{}-{:x}", std::process::id(), key[0]));
            if std::fs::write(&tmp, compiled).is_ok() && std::fs::rename(&tmp, &file).is_err() {
                let _ = std::fs::remove_file(&tmp);
            }
        }
    }

    /// `bytes` compiled, from the disk cache or compiled now and kept, with no world checked: for a
    /// component that is not a body (an adapter), whose caller checks its own world.
    pub(crate) fn component(&self, engine: &Engine, key: &Key, bytes: &[u8]) -> Result<(Component, Source), String> {
        if let Some(component) = self.map(engine, key) {
            return Ok((component, Source::Disk));
        }
        let _one = self.compiling.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(component) = self.map(engine, key) {
            return Ok((component, Source::Disk));
        }
        let component = Component::new(engine, bytes)
            .map_err(|e| format!("refused: the file is not a component this evoke can run: {e}"))?;
        self.keep(key, &component);
        Ok((component, Source::Compiled))
    }

    /// Compiles `bytes` and writes the result to the cache. A cache that cannot be written only costs
    /// the next run a compile.
    pub(crate) fn compile(
        &self,
        engine: &Engine,
        linker: &Linker<State>,
        key: &Key,
        bytes: &[u8],
    ) -> Result<Arc<Ready>, String> {
        let _one = self.compiling.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(ready) = self.in_memory(key) {
            return Ok(ready);
        }
        if let Some(ready) = self.on_disk(engine, linker, key) {
            return ready;
        }
        let component = Component::new(engine, bytes)
            .map_err(|e| format!("refused: the file is not a component this evoke can run: {e}"))?;
        let ready = self.ready(engine, linker, key, &component)?;
        self.keep(key, &component);
        Ok(ready)
    }

    fn ready(
        &self,
        engine: &Engine,
        linker: &Linker<State>,
        key: &Key,
        component: &Component,
    ) -> Result<Arc<Ready>, String> {
        let ready = match world::world_of(engine, component)? {
            World::V1 => {
                let pre = linker
                    .instantiate_pre(component)
                    .map_err(|e| format!("refused: the component asks for what evoke does not give a body: {e:#}"))?;
                let pre = world::v1::BodyPre::new(pre).map_err(|e| {
                    format!("refused: the component's `run` does not match evoke:reflex@{}: {e:#}", world::v1::VERSION)
                })?;
                Ready::V1(pre)
            }
        };
        let ready = Arc::new(ready);
        self.loaded.lock().unwrap().insert(*key, ready.clone());
        Ok(ready)
    }
}
