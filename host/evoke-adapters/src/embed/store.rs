//! The reflex side's vectors: computed once per question's texts and model, kept in memory and in the
//! cache place. A file there is named by the sha256 of the model's hash and the texts' hash, holds the
//! vectors with a checksum, and is written whole (a temporary file, then a rename); a file that does not
//! read back whole is computed again and replaced. A question of many texts is read in parts, each kept
//! as it is read, so that a reading stopped midway (Ctrl-C at `evoke trust`) keeps its whole parts and
//! the next reading goes on from them; the parts are removed once the whole is kept.

use evoke_embed::{EmbedError, Encoder};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

const MAGIC: &[u8; 8] = b"evkemb1\n";
/// The most texts one question's file holds.
const MAX_TEXTS: usize = 200_000;
/// How many texts a kept part holds: about fifteen seconds of reading on two busy cores. A multiple of
/// the encoder's batch, so a part's batches, and so its bits, are those of the texts read at once.
const PART: usize = 1_024;

type Vectors = Arc<Vec<Vec<f32>>>;

pub struct Store {
    encoder: Arc<Encoder>,
    dir: Option<PathBuf>,
    kept: usize,
    /// How many texts a kept part holds ([`PART`]; fewer in tests).
    part: usize,
    memory: Mutex<Vec<([u8; 32], Vectors)>>,
}

impl Store {
    pub fn new(encoder: Arc<Encoder>, dir: Option<PathBuf>, kept: usize) -> Store {
        Store { encoder, dir, kept, part: PART, memory: Mutex::new(Vec::new()) }
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
        if texts.len() <= self.part {
            let vectors =
                self.kept_rows(key, "", texts.len(), self.encoder.dim(), || self.encoder.embed_counting(texts, done))?;
            done(texts.len());
            return Ok(vectors);
        }
        let parts = texts.len().div_ceil(self.part);
        let part_name = |i: usize| format!("part {i} of {parts} of {}", self.part);
        let vectors = self.kept_rows(key, "", texts.len(), self.encoder.dim(), || {
            let dim = self.encoder.dim();
            let mut out = Vec::with_capacity(texts.len());
            for (i, part) in texts.chunks(self.part).enumerate() {
                let file = self.file(key, &part_name(i));
                if let Some(v) = file.as_deref().and_then(|f| read(f, part.len(), dim)) {
                    out.extend(v);
                } else {
                    let before = out.len();
                    let v = self.encoder.embed_counting(part, &mut |n| done(before + n))?;
                    if let Some(f) = file.as_deref() {
                        // A part that cannot be kept is read again after a stop, never wrongly.
                        let _ = write(f, &v, dim);
                    }
                    out.extend(v);
                }
                done(out.len());
            }
            Ok(out)
        })?;
        // The whole is kept (or cannot be): its parts are not needed again.
        for i in 0..parts {
            if let Some(f) = self.file(key, &part_name(i)) {
                let _ = std::fs::remove_file(f);
            }
        }
        done(texts.len());
        Ok(vectors)
    }

    /// The file that keeps what `what` names of the question whose texts hash to `key`, under this
    /// encoder: named by the sha256 of the model's hash, the key and the name.
    fn file(&self, key: &[u8; 32], what: &str) -> Option<PathBuf> {
        self.dir.as_ref().map(|d| d.join(format!("{}.vec", hex(&self.full_key(key, what)))))
    }

    fn full_key(&self, key: &[u8; 32], what: &str) -> [u8; 32] {
        let mut h = Sha256::new();
        h.update(self.encoder.hash().as_bytes());
        h.update(key);
        h.update(what.as_bytes());
        h.finalize().into()
    }

    /// Rows computed from a question's vectors (a route's fitted head, `what` naming it and how it was
    /// fitted), kept like the vectors: `rows` rows of `width` numbers. `compute` runs only when they were
    /// not kept, and may refuse.
    pub fn derived(
        &self,
        key: &[u8; 32],
        what: &str,
        rows: usize,
        width: usize,
        compute: impl FnOnce() -> Result<Vec<Vec<f32>>, EmbedError>,
    ) -> Result<Vectors, EmbedError> {
        self.kept_rows(key, what, rows, width, compute)
    }

    fn kept_rows(
        &self,
        key: &[u8; 32],
        what: &str,
        rows: usize,
        width: usize,
        compute: impl FnOnce() -> Result<Vec<Vec<f32>>, EmbedError>,
    ) -> Result<Vectors, EmbedError> {
        let full = self.full_key(key, what);
        {
            let memory = self.memory.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((_, v)) = memory.iter().find(|(k, _)| *k == full) {
                return Ok(v.clone());
            }
        }
        let file = self.file(key, what);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reading_stopped_midway_keeps_its_whole_parts_and_goes_on_from_them() {
        let Some(model) = evoke_embed::testing::reference_model() else { return };
        let encoder = Arc::new(Encoder::load(&model).expect("the reference model loads"));
        let texts: Vec<String> = (0..40).map(|i| format!("turn on light number {i}")).collect();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        let key = [7u8; 32];
        let dir = tempfile::tempdir().unwrap();
        let store = || Store { part: 16, ..Store::new(encoder.clone(), Some(dir.path().into()), 4) };
        let at_once = Store::new(encoder.clone(), None, 4).vectors(&key, &texts).unwrap();

        // Stopped while its second part is read: the first part is kept.
        let stopped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            store().vectors_counting(&key, &texts, &mut |n| assert!(n < 32, "stopped"))
        }));
        assert!(stopped.is_err());
        let first = store().file(&key, "part 0 of 3 of 16").unwrap();
        assert_eq!(read(&first, 16, encoder.dim()).as_deref(), Some(&at_once[..16]));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "only the whole part is kept");

        // The next reading takes the kept part as it is: a part changed on disk reads as changed.
        let marked = vec![vec![0.5f32; encoder.dim()]; 16];
        write(&first, &marked, encoder.dim()).unwrap();
        let mut counted = Vec::new();
        let read_on = store().vectors_counting(&key, &texts, &mut |n| counted.push(n)).unwrap();
        assert_eq!(&read_on[..16], &marked[..]);
        assert_eq!(&read_on[16..], &at_once[16..]);
        assert_eq!(counted.last(), Some(&40));
        assert!(counted.windows(2).all(|w| w[0] <= w[1]), "{counted:?}");

        // The whole is kept, and its parts are gone.
        let files: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().path()).collect();
        assert_eq!(files, vec![store().file(&key, "").unwrap()]);
    }

    #[test]
    fn texts_read_in_parts_are_the_bits_of_texts_read_at_once() {
        let Some(model) = evoke_embed::testing::reference_model() else { return };
        let encoder = Arc::new(Encoder::load(&model).expect("the reference model loads"));
        let texts: Vec<String> = (0..37)
            .map(|i| format!("{} the lights in room {i}", if i % 3 == 0 { "dim" } else { "switch off" }))
            .collect();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        let dir = tempfile::tempdir().unwrap();
        let parts = Store { part: 16, ..Store::new(encoder.clone(), Some(dir.path().into()), 4) };
        let bits = |v: &[Vec<f32>]| v.iter().flatten().map(|x| x.to_bits()).collect::<Vec<_>>();
        let at_once = Store::new(encoder.clone(), None, 4).vectors(&[1u8; 32], &texts).unwrap();
        assert_eq!(bits(&parts.vectors(&[1u8; 32], &texts).unwrap()), bits(&at_once));
    }
}
