//! The route model kept between processes. Fitting the route of a large project (its descriptions and
//! examples read into vector spaces) is most of a process's first decision; so a fitted model is written
//! to the cache place and the next process reads it back instead of fitting again.
//!
//! An entry is content-addressed: its name is a SHA-256 of this file layout's version, evoke's version,
//! the engine's id (its constants and settings) and every text of the route question. A project whose
//! texts changed, or another engine version, asks for another name and never reads it. One file holds
//! one model:
//!
//! ```text
//! magic (8 bytes) | key (32) | payload length (u64, little-endian) | BLAKE3 of the payload (32) | payload
//! ```
//!
//! the payload being the model in postcard's binary form. It is read with one read and checked whole
//! (magic, key, length, checksum, decode, constants) before use: a truncated, corrupt or misplaced entry
//! is refused, the model fitted afresh and the entry written again. Writes go to a temporary file beside
//! the entry, then renamed into place, so two processes filling the same entry each leave a whole file.
//! At most [`KEPT_FILES`] entries stay: writing one removes the least recently used beyond that.

use super::calibration::Params;
use super::route::RouteModel;
use evoke_core::question::Question;
use sha2::{Digest, Sha256};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The start of every entry; its last byte is the layout's version.
const MAGIC: &[u8; 8] = b"evkroute";
/// The version of the layout and of the model's encoding. Changing how a model is built or what it
/// holds changes it, so that no entry of an older build is read.
const FORMAT: &str = "2";
const HEADER: usize = 8 + 32 + 8 + 32;
/// The largest entry read: a model of thousands of reflexes stays well under it.
const MAX_BYTES: u64 = 256 << 20;
/// How many entries the place keeps.
pub const KEPT_FILES: usize = 32;
const SUFFIX: &str = ".route";

/// Where a model came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Read from its entry.
    Loaded,
    /// Fitted: no entry was there.
    Fitted,
    /// Fitted again: the entry was refused, for this reason.
    Refitted(StoredFault),
}

/// Why a kept entry was refused. An I/O error is kept as its text, so that a source stays comparable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoredFault {
    #[error("cannot open: {reason}")]
    Open { reason: String },
    #[error("cannot read: {reason}")]
    Read { reason: String },
    #[error("{len} bytes, over the bound of {MAX_BYTES}")]
    TooLarge { len: u64 },
    #[error("truncated: {len} bytes, shorter than the header")]
    ShorterThanHeader { len: usize },
    #[error("not a kept route model")]
    NotAModel,
    #[error("it holds the model of another question or engine")]
    OtherKey,
    #[error("truncated: {len} bytes of a {stated}-byte model")]
    Truncated { len: usize, stated: u64 },
    #[error("its checksum does not match")]
    Checksum,
    #[error("cannot decode: {reason}")]
    Decode { reason: String },
    #[error("it was fitted with other constants")]
    OtherParams,
    #[error("its parts do not hold together")]
    Incoherent,
}

/// The entry's key: what the model is a function of.
pub fn key(engine_id: &str, question: &Question) -> [u8; 32] {
    let mut h = Sha256::new();
    for part in [FORMAT, env!("CARGO_PKG_VERSION"), engine_id] {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    // The question's texts, in the exact form the protocol carries them.
    let texts = serde_json::to_vec(question).unwrap_or_default();
    h.update((texts.len() as u64).to_le_bytes());
    h.update(&texts);
    h.finalize().into()
}

/// The file of an entry in `dir`.
pub fn path(dir: &Path, key: &[u8; 32]) -> PathBuf {
    let name: String = key.iter().map(|b| format!("{b:02x}")).collect();
    dir.join(format!("{name}{SUFFIX}"))
}

/// The model of `question`: read from `dir` when a whole entry for it is there, else fitted and written.
/// `None` for a question that is not a choice.
pub fn load_or_fit(dir: &Path, engine_id: &str, question: &Question, params: Params) -> Option<(RouteModel, Source)> {
    let key = key(engine_id, question);
    let file = path(dir, &key);
    let source = match read(&file, &key, params) {
        Ok(Some(model)) => return Some((model, Source::Loaded)),
        Ok(None) => Source::Fitted,
        Err(why) => Source::Refitted(why),
    };
    let model = RouteModel::build(question, params)?;
    // The cache is a help, never a need: a failed write leaves the next process to fit again.
    let _ = write(dir, &file, &key, &model);
    Some((model, source))
}

/// The model in `file`, `None` when there is none, an error naming what is wrong with it.
fn read(file: &Path, key: &[u8; 32], params: Params) -> Result<Option<RouteModel>, StoredFault> {
    let mut f = match std::fs::File::open(file) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(StoredFault::Open { reason: e.to_string() }),
    };
    let cannot_read = |e: std::io::Error| StoredFault::Read { reason: e.to_string() };
    let len = f.metadata().map_err(cannot_read)?.len();
    if len > MAX_BYTES {
        return Err(StoredFault::TooLarge { len });
    }
    let mut bytes = Vec::with_capacity(len as usize);
    Read::by_ref(&mut f).take(MAX_BYTES).read_to_end(&mut bytes).map_err(cannot_read)?;
    let model = decode(&bytes, key, params)?;
    // Marks the entry as used, for the eviction of the least recently used.
    let _ = f.set_modified(std::time::SystemTime::now());
    Ok(Some(model))
}

fn decode(bytes: &[u8], key: &[u8; 32], params: Params) -> Result<RouteModel, StoredFault> {
    if bytes.len() < HEADER {
        return Err(StoredFault::ShorterThanHeader { len: bytes.len() });
    }
    let (header, payload) = bytes.split_at(HEADER);
    if &header[..8] != MAGIC {
        return Err(StoredFault::NotAModel);
    }
    if &header[8..40] != key {
        return Err(StoredFault::OtherKey);
    }
    let stated = u64::from_le_bytes(header[40..48].try_into().unwrap_or_default());
    if stated != payload.len() as u64 {
        return Err(StoredFault::Truncated { len: payload.len(), stated });
    }
    if blake3::hash(payload).as_bytes() != &header[48..80] {
        return Err(StoredFault::Checksum);
    }
    let model: RouteModel = postcard::from_bytes(payload).map_err(|e| StoredFault::Decode { reason: e.to_string() })?;
    if model.params != params {
        return Err(StoredFault::OtherParams);
    }
    if !model.holds_together() {
        return Err(StoredFault::Incoherent);
    }
    Ok(model)
}

fn encode(key: &[u8; 32], model: &RouteModel) -> Option<Vec<u8>> {
    let payload = postcard::to_stdvec(model).ok()?;
    let mut out = Vec::with_capacity(HEADER + payload.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(key);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(blake3::hash(&payload).as_bytes());
    out.extend_from_slice(&payload);
    Some(out)
}

fn write(dir: &Path, file: &Path, key: &[u8; 32], model: &RouteModel) -> std::io::Result<()> {
    let bytes = encode(key, model).ok_or_else(|| std::io::Error::other("the model does not encode"))?;
    if !dir.is_dir() {
        use std::os::unix::fs::DirBuilderExt;
        std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir)?;
    }
    let mut tmp = tempfile::Builder::new().prefix(".route.").suffix(".tmp").tempfile_in(dir)?;
    tmp.write_all(&bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(file).map_err(|e| e.error)?;
    evict(dir);
    Ok(())
}

/// Removes the least recently used entries beyond [`KEPT_FILES`].
fn evict(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut kept: Vec<(std::time::SystemTime, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_str().is_some_and(|n| n.ends_with(SUFFIX) && !n.starts_with('.')))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    if kept.len() <= KEPT_FILES {
        return;
    }
    kept.sort();
    for (_, old) in &kept[..kept.len() - KEPT_FILES] {
        let _ = std::fs::remove_file(old);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::local::Local;
    use evoke_core::adapter::{Adapter, State};
    use evoke_core::question::{NONE, Options, Questions, Text};

    /// A route over a few reflexes, each with its description, examples and `not_for` entries.
    fn route(extra: &str) -> Question {
        let reflex = |key: &str, what: &str, examples: &[&str], not_for: &[&str]| {
            (
                key.to_string(),
                Text::Rich {
                    what: what.to_string(),
                    not_for: not_for.iter().map(|s| s.to_string()).collect(),
                    examples: examples.iter().map(|s| s.to_string()).collect(),
                },
            )
        };
        Question::Choice {
            ask: "Which reflex?".into(),
            options: Options(vec![
                reflex(
                    "timer",
                    "Set a timer.",
                    &["set a timer for ten minutes", "start a countdown of an hour", "wake me in 5 minutes"],
                    &["what time is it"],
                ),
                reflex(
                    "translate",
                    "Translate a phrase.",
                    &["how do i say hotel in finnish", "translate good morning to french"],
                    &[],
                ),
                reflex(
                    "lights",
                    "Turn the lights on or off.",
                    &["turn on the kitchen lights", "switch the lamps off", extra],
                    &["turn on the oven"],
                ),
                reflex("weather", "The weather forecast.", &["will it rain tomorrow", "how hot is it outside"], &[]),
                (NONE.to_string(), Text::Plain(String::new())),
            ]),
            otherwise: Some(NONE.into()),
        }
    }

    const SENTENCES: [&str; 8] = [
        "set a timer for twenty minutes",
        "how do you say thank you in german",
        "lights off in the den please",
        "is it going to snow",
        "order a pizza",
        "turn on the oven",
        "countdown",
        "",
    ];

    fn distributions(model: &RouteModel) -> Vec<Vec<(String, u64)>> {
        SENTENCES.iter().map(|s| model.distribution(s).into_iter().map(|(k, p)| (k, p.to_bits())).collect()).collect()
    }

    fn fitted(question: &Question) -> RouteModel {
        RouteModel::build(question, Params::default()).expect("a choice")
    }

    #[test]
    fn a_loaded_model_answers_bit_for_bit_as_a_fitted_one() {
        let dir = tempfile::tempdir().unwrap();
        let q = route("lights out");
        let (first, source) = load_or_fit(dir.path(), "local/test", &q, Params::default()).unwrap();
        assert_eq!(source, Source::Fitted);
        let (loaded, source) = load_or_fit(dir.path(), "local/test", &q, Params::default()).unwrap();
        assert_eq!(source, Source::Loaded);
        let fresh = fitted(&q);
        assert_eq!(distributions(&loaded), distributions(&fresh));
        assert_eq!(distributions(&first), distributions(&fresh));
        // The sentences do tell the reflexes apart: equal answers are not all-`none` answers.
        assert_eq!(fresh.distribution(SENTENCES[0]).iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap().0, "timer");
    }

    #[test]
    fn a_truncated_or_corrupt_entry_is_refused_refitted_and_written_again() {
        let dir = tempfile::tempdir().unwrap();
        let q = route("lights out");
        load_or_fit(dir.path(), "local/test", &q, Params::default()).unwrap();
        let file = path(dir.path(), &key("local/test", &q));
        let whole = std::fs::read(&file).unwrap();
        let fresh = distributions(&fitted(&q));
        let mut flipped = whole.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 0x40;
        let mut lying = whole.clone();
        lying[40..48].copy_from_slice(&((whole.len() - HEADER - 10) as u64).to_le_bytes());
        lying.truncate(whole.len() - 10);
        let truncated: fn(&StoredFault) -> bool =
            |f| matches!(f, StoredFault::Truncated { .. } | StoredFault::ShorterThanHeader { .. });
        let checksum: fn(&StoredFault) -> bool = |f| matches!(f, StoredFault::Checksum);
        let not_a_model: fn(&StoredFault) -> bool = |f| matches!(f, StoredFault::NotAModel);
        for (bad, why, fault) in [
            (whole[..whole.len() / 2].to_vec(), "truncated", truncated),
            (whole[..20].to_vec(), "truncated", truncated),
            (Vec::new(), "truncated", truncated),
            (flipped, "checksum", checksum),
            (lying, "checksum", checksum),
            (
                b"not a model at all, just some bytes that are long enough to hold a header..".repeat(2),
                "not a kept",
                not_a_model,
            ),
        ] {
            std::fs::write(&file, &bad).unwrap();
            let (model, source) = load_or_fit(dir.path(), "local/test", &q, Params::default()).unwrap();
            match &source {
                Source::Refitted(reason) => {
                    assert!(fault(reason), "{why}: {reason:?}");
                    assert!(reason.to_string().contains(why), "{why}: {reason}");
                }
                other => panic!("{why}: the entry was taken: {other:?}"),
            }
            assert_eq!(distributions(&model), fresh, "{why}");
            // The entry is written again, whole: the next read takes it.
            let again = read(&file, &key("local/test", &q), Params::default());
            assert!(matches!(&again, Ok(Some(m)) if distributions(m) == fresh), "{why}: {:?}", again.map(|_| ()));
        }
    }

    #[test]
    fn an_entry_of_another_question_or_engine_is_never_read() {
        let dir = tempfile::tempdir().unwrap();
        let (mine, other) = (route("lights out"), route("kill the lights"));
        assert_ne!(key("local/test", &mine), key("local/test", &other));
        assert_ne!(key("local/test", &mine), key("local/other", &mine));
        // Another question's whole entry, put where this question's entry belongs.
        load_or_fit(dir.path(), "local/test", &other, Params::default()).unwrap();
        let mine_file = path(dir.path(), &key("local/test", &mine));
        std::fs::rename(path(dir.path(), &key("local/test", &other)), &mine_file).unwrap();
        let (model, source) = load_or_fit(dir.path(), "local/test", &mine, Params::default()).unwrap();
        assert_eq!(source, Source::Refitted(StoredFault::OtherKey));
        assert_eq!(distributions(&model), distributions(&fitted(&mine)));
        // An engine with another id asks for another entry: it fits its own.
        let (_, source) = load_or_fit(dir.path(), "local/other", &mine, Params::default()).unwrap();
        assert_eq!(source, Source::Fitted);
        // Same key but other constants: refused as well.
        let mut params = Params::default();
        params.beta += 1.0;
        let (_, source) = load_or_fit(dir.path(), "local/test", &mine, params).unwrap();
        assert_eq!(source, Source::Refitted(StoredFault::OtherParams));
    }

    #[test]
    fn a_well_formed_entry_whose_parts_do_not_hold_together_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let q = route("lights out");
        let key = key("local/test", &q);
        // A whole entry, checksum and all, of a model that offers a key it has no reflex for.
        let mut broken = fitted(&q);
        broken.keys.insert(0, "ghost".into());
        std::fs::write(path(dir.path(), &key), encode(&key, &broken).unwrap()).unwrap();
        let (model, source) = load_or_fit(dir.path(), "local/test", &q, Params::default()).unwrap();
        assert_eq!(source, Source::Refitted(StoredFault::Incoherent));
        assert_eq!(distributions(&model), distributions(&fitted(&q)));
    }

    #[test]
    fn writers_filling_the_same_entry_at_once_leave_it_whole() {
        let dir = tempfile::tempdir().unwrap();
        let q = route("lights out");
        let fresh = distributions(&fitted(&q));
        let answers: Vec<Vec<Vec<(String, u64)>>> = std::thread::scope(|scope| {
            let writers: Vec<_> = (0..4)
                .map(|_| {
                    scope.spawn(|| {
                        (0..5)
                            .map(|_| {
                                let _ = std::fs::remove_file(path(dir.path(), &key("local/test", &q)));
                                distributions(&load_or_fit(dir.path(), "local/test", &q, Params::default()).unwrap().0)
                            })
                            .next_back()
                            .unwrap()
                    })
                })
                .collect();
            writers.into_iter().map(|w| w.join().unwrap()).collect()
        });
        assert!(answers.iter().all(|a| *a == fresh));
        let whole = read(&path(dir.path(), &key("local/test", &q)), &key("local/test", &q), Params::default());
        assert!(matches!(&whole, Ok(Some(m)) if distributions(m) == fresh), "{:?}", whole.map(|_| ()));
        // No temporary file is left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    /// Where a child process started by the test below fills the entry; the child is this test binary.
    const CHILD_PLACE: &str = "EVOKE_TEST_KEPT_PLACE";

    /// Run only as a child of the test below (`--ignored`): fits or reads the entry many times over,
    /// removing it before each turn so that it writes too.
    #[test]
    #[ignore = "run by two_processes_filling_the_same_entry_at_once_leave_it_whole"]
    fn child_fills_the_entry() {
        let dir = PathBuf::from(std::env::var_os(CHILD_PLACE).expect("started by the test that sets the place"));
        let q = route("lights out");
        let fresh = distributions(&fitted(&q));
        for _ in 0..10 {
            let _ = std::fs::remove_file(path(&dir, &key("local/test", &q)));
            let (model, _) = load_or_fit(&dir, "local/test", &q, Params::default()).unwrap();
            assert_eq!(distributions(&model), fresh);
        }
    }

    #[test]
    fn two_processes_filling_the_same_entry_at_once_leave_it_whole() {
        let dir = tempfile::tempdir().unwrap();
        let me = std::env::current_exe().unwrap();
        let children: Vec<std::process::Child> = (0..2)
            .map(|_| {
                std::process::Command::new(&me)
                    .args(["--ignored", "--exact", "local::stored::tests::child_fills_the_entry", "--nocapture"])
                    .env(CHILD_PLACE, dir.path())
                    .stdout(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let out = child.wait_with_output().unwrap();
            let said = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success() && said.contains("1 passed"), "{said}");
        }
        let q = route("lights out");
        let whole = read(&path(dir.path(), &key("local/test", &q)), &key("local/test", &q), Params::default());
        assert!(
            matches!(&whole, Ok(Some(m)) if distributions(m) == distributions(&fitted(&q))),
            "{:?}",
            whole.map(|_| ())
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file is left behind");
    }

    #[test]
    fn the_place_keeps_a_bounded_number_of_entries() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..KEPT_FILES + 3 {
            load_or_fit(dir.path(), "local/test", &route(&format!("lamp {i}")), Params::default()).unwrap();
        }
        let count = std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(count, KEPT_FILES);
    }

    #[test]
    fn an_engine_answers_the_same_from_a_kept_model_as_from_its_own_fit() {
        let dir = tempfile::tempdir().unwrap();
        let q = route("lights out");
        let questions = Questions(vec![(evoke_core::question::QuestionId::Route, q.clone())]);
        let answers = |local: &Local| -> Vec<String> {
            SENTENCES
                .iter()
                .map(|s| {
                    let raw = local.answer_now(&State { request: s.to_string() }, &questions).unwrap();
                    raw["route"].iter().map(|(k, p)| format!("{k}={:x}", p.to_bits())).collect::<Vec<_>>().join(" ")
                })
                .collect()
        };
        let plain = answers(&Local::default());
        // The first engine fits and writes; the second, as a later process would, reads.
        let writer = Local::default();
        writer.keep_models_in(dir.path().to_path_buf());
        assert_eq!(answers(&writer), plain);
        let file = path(dir.path(), &key(writer.id(), &q));
        assert!(file.is_file(), "the fitted model is kept");
        let reader = Local::default();
        reader.keep_models_in(dir.path().to_path_buf());
        let stamp = std::fs::read(&file).unwrap();
        assert_eq!(answers(&reader), plain);
        assert_eq!(std::fs::read(&file).unwrap(), stamp);
    }
}
