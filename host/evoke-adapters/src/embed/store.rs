//! The reflex side's vectors: computed once per question's texts and model, kept in memory and in the
//! cache place. A file there is named by the sha256 of the model's hash and the texts' hash, holds the
//! vectors with a checksum, and is written whole (a temporary file, then a rename); a file that does not
//! read back whole is computed again and replaced.

use evoke_embed::{EmbedError, Encoder};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

const MAGIC: &[u8; 8] = b"evkemb1\n";
/// The most texts one question's file holds.
const MAX_TEXTS: usize = 200_000;

type Vectors = Arc<Vec<Vec<f32>>>;

pub struct Store {
    encoder: Arc<Encoder>,
    dir: Option<PathBuf>,
    kept: usize,
    memory: Mutex<Vec<([u8; 32], Vectors)>>,
}

impl Store {
    pub fn new(encoder: Arc<Encoder>, dir: Option<PathBuf>, kept: usize) -> Store {
        Store { encoder, dir, kept, memory: Mutex::new(Vec::new()) }
    }

    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The vectors of `texts`, whose question's texts hash to `key`.
    pub fn vectors(&self, key: &[u8; 32], texts: &[&str]) -> Result<Vectors, EmbedError> {
        self.vectors_counting(key, texts, &mut |_| {})
    }

    /// [`Store::vectors`], telling `done` how many of the texts are read as the encoder reads them (all at
    /// once when they were kept).
    pub fn vectors_counting(
        &self,
        key: &[u8; 32],
        texts: &[&str],
        done: &mut dyn FnMut(usize),
    ) -> Result<Vectors, EmbedError> {
        if texts.len() > MAX_TEXTS {
            return Err(EmbedError(format!("a question of {} texts, over the {MAX_TEXTS} read", texts.len())));
        }
        let vectors =
            self.kept_rows(key, "", texts.len(), self.encoder.dim(), || self.encoder.embed_counting(texts, done))?;
        done(texts.len());
        Ok(vectors)
    }

    /// Rows computed from a question's vectors (a route's fitted head, `what` naming it and how it was
    /// fitted), kept like the vectors: `rows` rows of `width` numbers.
    pub fn derived(
        &self,
        key: &[u8; 32],
        what: &str,
        rows: usize,
        width: usize,
        compute: impl FnOnce() -> Vec<Vec<f32>>,
    ) -> Result<Vectors, EmbedError> {
        self.kept_rows(key, what, rows, width, || Ok(compute()))
    }

    fn kept_rows(
        &self,
        key: &[u8; 32],
        what: &str,
        rows: usize,
        width: usize,
        compute: impl FnOnce() -> Result<Vec<Vec<f32>>, EmbedError>,
    ) -> Result<Vectors, EmbedError> {
        let mut h = Sha256::new();
        h.update(self.encoder.hash().as_bytes());
        h.update(key);
        h.update(what.as_bytes());
        let full: [u8; 32] = h.finalize().into();
        {
            let memory = self.memory.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((_, v)) = memory.iter().find(|(k, _)| *k == full) {
                return Ok(v.clone());
            }
        }
        let file = self.dir.as_ref().map(|d| d.join(format!("{}.vec", hex(&full))));
        let vectors = match file.as_deref().and_then(|f| read(f, rows, width)) {
            Some(v) => v,
            None => {
                let v = compute()?;
                if let Some(f) = file.as_deref() {
                    // A cache that cannot be written costs time, never an answer.
                    let _ = write(f, &v, width);
                }
                v
            }
        };
        let vectors = Arc::new(vectors);
        let mut memory = self.memory.lock().unwrap_or_else(|e| e.into_inner());
        if memory.len() >= self.kept {
            memory.remove(0);
        }
        memory.push((full, vectors.clone()));
        Ok(vectors)
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn read(path: &Path, n: usize, dim: usize) -> Option<Vec<Vec<f32>>> {
    let want = MAGIC.len() + 16 + n * dim * 4 + 32;
    let meta = std::fs::metadata(path).ok()?;
    if meta.len() != want as u64 {
        return None;
    }
    let bytes = std::fs::read(path).ok()?;
    let (body, sum) = bytes.split_at(bytes.len() - 32);
    if Sha256::digest(body).as_slice() != sum || &body[..8] != MAGIC {
        return None;
    }
    let count = u64::from_le_bytes(body[8..16].try_into().ok()?) as usize;
    let width = u64::from_le_bytes(body[16..24].try_into().ok()?) as usize;
    if count != n || width != dim {
        return None;
    }
    let floats: Vec<f32> = body[24..].chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    Some(floats.chunks(dim.max(1)).map(<[f32]>::to_vec).collect())
}

fn write(path: &Path, vectors: &[Vec<f32>], dim: usize) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut body = Vec::with_capacity(24 + vectors.len() * dim * 4 + 32);
    body.extend_from_slice(MAGIC);
    body.extend_from_slice(&(vectors.len() as u64).to_le_bytes());
    body.extend_from_slice(&(dim as u64).to_le_bytes());
    for v in vectors {
        for x in v {
            body.extend_from_slice(&x.to_le_bytes());
        }
    }
    let sum = Sha256::digest(&body);
    body.extend_from_slice(&sum);
    let tmp =
        dir.join(format!(".{}.{}.tmp", path.file_name().and_then(|n| n.to_str()).unwrap_or("v"), std::process::id()));
    std::fs::write(&tmp, &body)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}
