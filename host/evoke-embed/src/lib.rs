//! A BERT-family sentence encoder, run in process on CPU: the reader behind evoke's `embed` engine.
//!
//! A model is a directory in the Hugging Face layout: `config.json` (a BERT configuration),
//! `tokenizer.json`, `model.safetensors`, and optionally `1_Pooling/config.json` (how token vectors become
//! one sentence vector: their mean, or the first token's) and `sentence_bert_config.json` (the longest
//! input read). The weights are mapped from disk while they load; candle's CPU tensors own their numbers,
//! so each is read out of the map once. Every sentence vector comes out with unit length, so the dot
//! product of two is their cosine.
//!
//! Whatever is wrong with a model directory is a [`LoadError`] naming the file and the fix; nothing here
//! panics on a bad model, and nothing falls back to another one.

pub mod head;
#[doc(hidden)]
pub mod testing;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use sha2::{Digest, Sha256};
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use tokenizers::Tokenizer;

/// The largest model file read: a small sentence encoder is tens of megabytes, a base one a few hundred.
pub const MAX_WEIGHTS: u64 = 2 << 30;
/// The largest `config.json`, `tokenizer.json` or pooling config read.
pub const MAX_TEXT_FILE: u64 = 64 << 20;
/// How many texts one forward pass reads at most.
const BATCH: usize = 16;

/// What every error about a model ends with: how to get a good one.
pub const FIX: &str = "get the reference model with `.ci/get-model` (or download a sentence-transformers \
model such as all-MiniLM-L6-v2 in the Hugging Face layout) and name its directory as `model` under \
`[adapters.embed]` in your home evoke.toml";

/// Why a model directory could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// The file or directory at fault.
    pub path: PathBuf,
    /// What is wrong with it.
    pub problem: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the sentence encoder at {}: {}; {FIX}", self.path.display(), self.problem)
    }
}

impl std::error::Error for LoadError {}

/// Why a text could not be read into a vector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmbedError(pub String);

impl fmt::Display for EmbedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the sentence encoder failed: {}", self.0)
    }
}

impl std::error::Error for EmbedError {}

/// How the token vectors become one sentence vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pooling {
    /// The mean of the vectors of the tokens read (padding left out).
    Mean,
    /// The first token's vector (`[CLS]`).
    Cls,
}

/// A loaded encoder.
pub struct Encoder {
    model: BertModel,
    tokenizer: Tokenizer,
    pooling: Pooling,
    max_tokens: usize,
    pad_id: u32,
    dim: usize,
    hash: String,
    dir: PathBuf,
}

impl fmt::Debug for Encoder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Encoder")
            .field("dir", &self.dir)
            .field("pooling", &self.pooling)
            .field("dim", &self.dim)
            .field("hash", &self.hash)
            .finish()
    }
}

fn error(path: &Path, problem: impl Into<String>) -> LoadError {
    LoadError { path: path.to_path_buf(), problem: problem.into() }
}

/// A file's size, refused when it is missing, not a file, empty or over `max`.
fn checked_size(path: &Path, max: u64) -> Result<u64, LoadError> {
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => error(path, "this file is missing"),
        _ => error(path, format!("this file cannot be read: {e}")),
    })?;
    if !meta.is_file() {
        return Err(error(path, "this is not a file"));
    }
    if meta.len() == 0 {
        return Err(error(path, "this file is empty"));
    }
    if meta.len() > max {
        return Err(error(path, format!("this file holds {} bytes, over the {max} read", meta.len())));
    }
    Ok(meta.len())
}

fn read_text(path: &Path) -> Result<String, LoadError> {
    checked_size(path, MAX_TEXT_FILE)?;
    std::fs::read_to_string(path).map_err(|e| error(path, format!("this file cannot be read as text: {e}")))
}

fn read_json(path: &Path) -> Result<serde_json::Value, LoadError> {
    serde_json::from_str(&read_text(path)?).map_err(|e| error(path, format!("this is not valid JSON: {e}")))
}

/// Feeds a file to the hash, with its name and length, in bounded reads.
fn hash_file(hasher: &mut Sha256, name: &str, path: &Path) -> Result<(), LoadError> {
    let mut file = std::fs::File::open(path).map_err(|e| error(path, format!("this file cannot be opened: {e}")))?;
    let mut buf = vec![0u8; 1 << 20];
    let mut total: u64 = 0;
    hasher.update(name.as_bytes());
    hasher.update([0]);
    loop {
        let n = file.read(&mut buf).map_err(|e| error(path, format!("this file cannot be read: {e}")))?;
        if n == 0 {
            break;
        }
        total += n as u64;
        hasher.update(&buf[..n]);
    }
    hasher.update(total.to_le_bytes());
    Ok(())
}

/// The files a model is read from, and whether each must be there.
const FILES: [(&str, bool); 5] = [
    ("config.json", true),
    ("tokenizer.json", true),
    ("model.safetensors", true),
    ("1_Pooling/config.json", false),
    ("sentence_bert_config.json", false),
];

/// What stands for a file's content in the memo: its name, length, modification time and inode.
fn stamp(dir: &Path) -> String {
    use std::os::unix::fs::MetadataExt;
    let mut out = String::new();
    for (name, _) in FILES {
        if let Ok(m) = std::fs::metadata(dir.join(name)) {
            out.push_str(&format!("{name} {} {} {} {}\n", m.len(), m.mtime(), m.mtime_nsec(), m.ino()));
        }
    }
    out
}

/// The sha256 of the files the model is read from, kept in `memo` while their stamps stand.
fn model_hash(dir: &Path, memo: Option<&Path>) -> Result<String, LoadError> {
    let memo_file = memo.map(|m| {
        let key: String =
            Sha256::digest(dir.as_os_str().as_encoded_bytes()).iter().map(|b| format!("{b:02x}")).collect();
        m.join("models").join(format!("{key}.hash"))
    });
    let before = stamp(dir);
    if let Some(f) = &memo_file
        && let Ok(text) = std::fs::read_to_string(f)
        && let Some(rest) = text.strip_prefix(&before)
        && let Some(hash) = rest.strip_prefix("hash ").map(str::trim)
        && hash.len() == 64
    {
        return Ok(hash.to_string());
    }
    let mut hasher = Sha256::new();
    for (name, required) in FILES {
        let path = dir.join(name);
        if required || path.exists() {
            hash_file(&mut hasher, name, &path)?;
        }
    }
    let hash: String = hasher.finalize().iter().map(|b| format!("{b:02x}")).collect();
    // Kept only when nothing changed while it was read; a memo that cannot be written costs time only.
    if let Some(f) = &memo_file
        && stamp(dir) == before
        && let Some(parent) = f.parent()
        && std::fs::create_dir_all(parent).is_ok()
    {
        let tmp = f.with_extension(format!("tmp{}", std::process::id()));
        if std::fs::write(&tmp, format!("{before}hash {hash}\n")).is_ok() && std::fs::rename(&tmp, f).is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }
    Ok(hash)
}

impl Encoder {
    /// Loads the model in `dir`, its hash read from every byte of its files.
    pub fn load(dir: &Path) -> Result<Encoder, LoadError> {
        Encoder::load_memo(dir, None)
    }

    /// Loads the model in `dir`. With `memo`, a directory of evoke's cache place, the model's hash is
    /// kept there beside each file's length, modification time and inode, and read again while all of
    /// them stand: hashing a model's every byte costs more than loading it.
    pub fn load_memo(dir: &Path, memo: Option<&Path>) -> Result<Encoder, LoadError> {
        match std::fs::metadata(dir) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => return Err(error(dir, "this is not a directory")),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(error(dir, "there is no model directory here"));
            }
            Err(e) => return Err(error(dir, format!("this directory cannot be read: {e}"))),
        }

        // The configuration: a BERT encoder.
        let config_path = dir.join("config.json");
        let raw = read_json(&config_path)?;
        let model_type = raw.get("model_type").and_then(|v| v.as_str()).unwrap_or("");
        let architectures: Vec<&str> = raw
            .get("architectures")
            .and_then(|v| v.as_array())
            .map(|a| a.iter().filter_map(|v| v.as_str()).collect())
            .unwrap_or_default();
        if model_type != "bert" && !architectures.iter().any(|a| a.starts_with("Bert")) {
            return Err(error(
                &config_path,
                format!(
                    "model_type is `{model_type}`, and this engine reads BERT-family encoders only \
                     (model_type \"bert\", as all-MiniLM-L6-v2, bge-small and e5-small have)"
                ),
            ));
        }
        let config: Config = serde_json::from_value(raw.clone())
            .map_err(|e| error(&config_path, format!("this is not a BERT configuration: {e}")))?;
        if config.hidden_size == 0
            || config.num_attention_heads == 0
            || !config.hidden_size.is_multiple_of(config.num_attention_heads)
        {
            return Err(error(
                &config_path,
                format!(
                    "hidden_size {} is not a multiple of num_attention_heads {}",
                    config.hidden_size, config.num_attention_heads
                ),
            ));
        }

        // How token vectors become a sentence vector.
        let pooling_path = dir.join("1_Pooling/config.json");
        let pooling = if pooling_path.exists() {
            let p = read_json(&pooling_path)?;
            let on = |key: &str| p.get(key).and_then(|v| v.as_bool()).unwrap_or(false);
            if on("pooling_mode_mean_tokens") {
                Pooling::Mean
            } else if on("pooling_mode_cls_token") {
                Pooling::Cls
            } else {
                return Err(error(
                    &pooling_path,
                    "it sets neither pooling_mode_mean_tokens nor pooling_mode_cls_token, the two poolings read",
                ));
            }
        } else {
            Pooling::Mean
        };
        if let Some(d) = std::fs::read_to_string(&pooling_path)
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|p| p.get("word_embedding_dimension").and_then(|v| v.as_u64()))
            && d as usize != config.hidden_size
        {
            return Err(error(
                &pooling_path,
                format!("word_embedding_dimension {d} differs from config.json's hidden_size {}", config.hidden_size),
            ));
        }

        // The longest input read, in tokens.
        let sbert = dir.join("sentence_bert_config.json");
        let max_tokens = if sbert.exists() {
            read_json(&sbert)?.get("max_seq_length").and_then(|v| v.as_u64()).map(|n| n as usize)
        } else {
            None
        }
        .unwrap_or(config.max_position_embeddings)
        .min(config.max_position_embeddings)
        .max(2);

        // The tokenizer, cutting at the longest input, never padding on its own.
        let tokenizer_path = dir.join("tokenizer.json");
        checked_size(&tokenizer_path, MAX_TEXT_FILE)?;
        let mut tokenizer = Tokenizer::from_file(&tokenizer_path)
            .map_err(|e| error(&tokenizer_path, format!("this is not a tokenizer the library reads: {e}")))?;
        tokenizer
            .with_truncation(Some(tokenizers::TruncationParams { max_length: max_tokens, ..Default::default() }))
            .map_err(|e| error(&tokenizer_path, format!("its truncation cannot be set: {e}")))?;
        tokenizer.with_padding(None);
        let vocab = tokenizer.get_vocab_size(true);
        if vocab > config.vocab_size {
            return Err(error(
                &tokenizer_path,
                format!(
                    "it knows {vocab} tokens, more than the {} config.json's model has: they are not one model's files",
                    config.vocab_size
                ),
            ));
        }

        // The weights, mapped.
        let weights = dir.join("model.safetensors");
        checked_size(&weights, MAX_WEIGHTS)?;
        let device = Device::Cpu;
        // SAFETY: the file is mapped read-only while the model loads (each tensor is read out of the map, and
        // the map is let go once the model is built); it must not be changed meanwhile, which the docs ask of
        // a model directory (a model is replaced by writing a new directory, not editing one).
        let vb = unsafe { VarBuilder::from_mmaped_safetensors(&[&weights], DType::F32, &device) }.map_err(|e| {
            error(&weights, format!("these weights cannot be read (a truncated or damaged download?): {e}"))
        })?;
        let model = BertModel::load(vb, &config)
            .map_err(|e| error(&weights, format!("these weights do not fit config.json (a mismatched model?): {e}")))?;

        let hash = model_hash(dir, memo)?;

        let encoder = Encoder {
            model,
            tokenizer,
            pooling,
            max_tokens,
            pad_id: config.pad_token_id as u32,
            dim: config.hidden_size,
            hash,
            dir: dir.to_path_buf(),
        };
        // One pass proves the weights and the tokenizer work together before any answer depends on them.
        let probe = encoder.embed(&["a"]).map_err(|e| error(&weights, format!("a first sentence failed: {}", e.0)))?;
        if probe.first().is_none_or(|v| v.iter().any(|x| !x.is_finite())) {
            return Err(error(&weights, "a first sentence came out as no number: the weights are damaged"));
        }
        Ok(encoder)
    }

    /// The length of every sentence vector.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The sha256 of the files the model is read from, in hex.
    pub fn hash(&self) -> &str {
        &self.hash
    }

    /// The directory the model was loaded from.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn pooling(&self) -> Pooling {
        self.pooling
    }

    /// The longest input read, in tokens; the rest of a longer text is cut.
    pub fn max_tokens(&self) -> usize {
        self.max_tokens
    }

    /// One unit vector per text, in order. Texts are read in fixed groups of up to sixteen, in the order
    /// given, so the same texts give the same vectors bit for bit.
    pub fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        self.embed_counting(texts, &mut |_| {})
    }

    /// [`Encoder::embed`], telling `done` how many texts are read after each group: the same groups, so
    /// the same vectors bit for bit.
    pub fn embed_counting(&self, texts: &[&str], done: &mut dyn FnMut(usize)) -> Result<Vec<Vec<f32>>, EmbedError> {
        let mut out = Vec::with_capacity(texts.len());
        for chunk in texts.chunks(BATCH) {
            out.extend(self.embed_batch(chunk)?);
            done(out.len());
        }
        Ok(out)
    }

    /// One text's unit vector.
    pub fn embed_one(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        self.embed_batch(&[text]).map(|mut v| v.remove(0))
    }

    fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let tensor_error = |e: candle_core::Error| EmbedError(e.to_string());
        let mut encodings = Vec::with_capacity(texts.len());
        for text in texts {
            let encoding =
                self.tokenizer.encode(*text, true).map_err(|e| EmbedError(format!("tokenizing {text:?}: {e}")))?;
            encodings.push(encoding);
        }
        let len = encodings.iter().map(|e| e.get_ids().len()).max().unwrap_or(0).max(1);
        let (mut ids, mut types, mut mask) = (Vec::new(), Vec::new(), Vec::new());
        for e in &encodings {
            let n = e.get_ids().len();
            ids.extend_from_slice(e.get_ids());
            ids.extend(std::iter::repeat_n(self.pad_id, len - n));
            types.extend_from_slice(e.get_type_ids());
            types.extend(std::iter::repeat_n(0u32, len - n));
            mask.extend(std::iter::repeat_n(1u32, n));
            mask.extend(std::iter::repeat_n(0u32, len - n));
        }
        let rows = texts.len();
        let device = &self.model.device;
        let ids = Tensor::from_vec(ids, (rows, len), device).map_err(tensor_error)?;
        let types = Tensor::from_vec(types, (rows, len), device).map_err(tensor_error)?;
        let mask = Tensor::from_vec(mask, (rows, len), device).map_err(tensor_error)?;
        let hidden = self.model.forward(&ids, &types, Some(&mask)).map_err(tensor_error)?;
        let pooled = match self.pooling {
            Pooling::Mean => {
                let m = mask.to_dtype(DType::F32).map_err(tensor_error)?.unsqueeze(2).map_err(tensor_error)?;
                let summed = hidden.broadcast_mul(&m).and_then(|t| t.sum(1)).map_err(tensor_error)?;
                let counts = m.sum(1).map_err(tensor_error)?;
                summed.broadcast_div(&counts).map_err(tensor_error)?
            }
            Pooling::Cls => hidden.narrow(1, 0, 1).and_then(|t| t.squeeze(1)).map_err(tensor_error)?,
        };
        let rows: Vec<Vec<f32>> = pooled.to_vec2().map_err(tensor_error)?;
        Ok(rows.into_iter().map(unit).collect())
    }
}

/// The environment variable candle reads, on every matrix product, for how many threads to use.
pub const THREADS_VARIABLE: &str = "RAYON_NUM_THREADS";

/// Fixes the number of threads the encoder's products use, once, for the rest of the process.
///
/// candle asks how many threads to use on every matrix product, and when neither `RAYON_NUM_THREADS`
/// nor a CPU mask of its own is set, it counts the machine's cores by reading and parsing `/proc/cpuinfo`
/// each time, dozens of times a sentence: a quarter of a forward pass on this project's machines
/// (`benches/clinc.rs encode-time`: 15.5 ms a pass against 10–12 ms with the count set). This
/// counts them once, as candle would, and sets the variable, so each product reads a number instead of a
/// file. A value already set, by the user or a parent, is kept.
///
/// # Safety
///
/// It sets an environment variable, which races with any other thread reading or writing the
/// environment: call it at the start of `main`, before any other thread is started.
pub unsafe fn settle_thread_count() {
    if std::env::var_os(THREADS_VARIABLE).is_some_and(|v| !v.is_empty()) {
        return;
    }
    let threads = candle_core::utils::get_num_threads().max(1);
    // SAFETY: the caller promises that no other thread exists yet.
    unsafe { std::env::set_var(THREADS_VARIABLE, threads.to_string()) };
}

/// The vector scaled to unit length (a zero vector stays zero).
fn unit(mut v: Vec<f32>) -> Vec<f32> {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        for x in &mut v {
            *x /= norm;
        }
    }
    v
}

/// The dot product of two vectors: their cosine when both have unit length. It is taken in eight running
/// sums, so that it vectorizes while its order stays fixed: the same vectors give the same bits. (One
/// running sum cannot vectorize, since the order of a float sum is part of its value; a route of 150
/// reflexes reads some 1,650 of these a request, and they took about 4% of a decision's time that way.)
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = [0.0f32; 8];
    let mut xs = a.chunks_exact(8);
    let mut ys = b.chunks_exact(8);
    for (x, y) in (&mut xs).zip(&mut ys) {
        for i in 0..8 {
            acc[i] += x[i] * y[i];
        }
    }
    let tail: f32 = xs.remainder().iter().zip(ys.remainder()).map(|(x, y)| x * y).sum();
    ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7])) + tail
}

/// The dot product of `q` with each of `vectors`, in order.
pub fn dots(vectors: &[Vec<f32>], q: &[f32]) -> Vec<f32> {
    vectors.iter().map(|v| dot(v, q)).collect()
}

/// Where the reference model is looked for when nothing names one: `$EVOKE_EMBED_MODEL`, else the
/// directory `.ci/get-model` unpacks into, `${XDG_CACHE_HOME:-$HOME/.cache}/evoke/models/all-MiniLM-L6-v2`.
pub fn reference_model_dir() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("EVOKE_EMBED_MODEL").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").filter(|p| !p.is_empty()).map(|h| PathBuf::from(h).join(".cache")))?;
    Some(cache.join("evoke/models/all-MiniLM-L6-v2"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dot_product_in_eight_sums_is_the_dot_product_for_every_length() {
        for n in [0usize, 1, 7, 8, 9, 13, 384, 390] {
            let a: Vec<f32> = (0..n).map(|i| ((i * 37 % 11) as f32 - 5.0) / 7.0).collect();
            let b: Vec<f32> = (0..n).map(|i| ((i * 13 % 17) as f32 - 8.0) / 9.0).collect();
            let exact: f64 = a.iter().zip(&b).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum();
            let got = dot(&a, &b);
            assert!((f64::from(got) - exact).abs() < 1e-4, "length {n}: {got} against {exact}");
            assert_eq!(got.to_bits(), dot(&a, &b).to_bits(), "length {n}: the same bits twice");
        }
        // Vectors of two lengths: the shorter one's length is read.
        assert_eq!(dot(&[1.0, 2.0, 3.0], &[4.0, 5.0]), 14.0);
        assert_eq!(dots(&[vec![1.0, 0.0], vec![0.5, 0.5]], &[2.0, 4.0]), vec![2.0, 3.0]);
    }
}
