//! The encoder on the real reference model (all-MiniLM-L6-v2, as `.ci/get-model` unpacks it), and the
//! errors a broken model directory gives. Without the model these tests fail under CI and say so
//! elsewhere.

use evoke_embed::testing::reference_model;
use evoke_embed::{Encoder, LoadError, dot};
use std::path::Path;
use std::sync::OnceLock;

fn encoder() -> Option<&'static Encoder> {
    static ENCODER: OnceLock<Option<Encoder>> = OnceLock::new();
    ENCODER.get_or_init(|| reference_model().map(|d| Encoder::load(&d).expect("the reference model loads"))).as_ref()
}

#[test]
fn the_reference_model_gives_unit_vectors_that_read_meaning() {
    let Some(encoder) = encoder() else { return };
    assert_eq!(encoder.dim(), 384);
    assert_eq!(encoder.pooling(), evoke_embed::Pooling::Mean);
    assert_eq!(encoder.max_tokens(), 256);
    let v = encoder
        .embed(&["kill the lights in the den", "turn off the lamp in the living room", "set a timer for ten minutes"])
        .unwrap();
    for x in &v {
        assert_eq!(x.len(), 384);
        assert!((dot(x, x) - 1.0).abs() < 1e-5, "unit length: {}", dot(x, x));
    }
    let same = dot(&v[0], &v[1]);
    let other = dot(&v[0], &v[2]);
    assert!(same > other + 0.2, "lights and lamp {same} against lights and timer {other}");
}

#[test]
fn the_same_text_gives_the_same_bits_alone_twice_and_in_a_group() {
    let Some(encoder) = encoder() else { return };
    let text = "what is the weather like in paris tomorrow";
    let a = encoder.embed_one(text).unwrap();
    let b = encoder.embed_one(text).unwrap();
    assert_eq!(a.iter().map(|x| x.to_bits()).collect::<Vec<_>>(), b.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
    let group =
        encoder.embed(&["hi", text, "a much longer sentence than the others, so that the rest is padded"]).unwrap();
    let diff = a.iter().zip(&group[1]).map(|(x, y)| (x - y).abs()).fold(0.0f32, f32::max);
    assert!(diff < 1e-5, "padding does not change what a text reads: {diff}");
}

#[test]
fn a_long_text_is_cut_not_refused() {
    let Some(encoder) = encoder() else { return };
    let long = "lights ".repeat(2000);
    let v = encoder.embed_one(&long).unwrap();
    assert_eq!(v.len(), 384);
}

#[test]
fn the_hash_names_the_files_read() {
    let Some(dir) = reference_model() else { return };
    let Some(encoder) = encoder() else { return };
    assert_eq!(encoder.hash().len(), 64);
    // A copy with one changed byte of the tokenizer is another model.
    let copy = copy_model(&dir);
    let tokenizer = copy.path().join("tokenizer.json");
    let mut text = std::fs::read_to_string(&tokenizer).unwrap();
    text.push(' ');
    std::fs::remove_file(&tokenizer).unwrap();
    std::fs::write(&tokenizer, text).unwrap();
    let other = Encoder::load(copy.path()).unwrap();
    assert_ne!(other.hash(), encoder.hash());
}

/// A model directory of links to the reference model's files, for breaking one of them.
fn copy_model(dir: &Path) -> tempfile::TempDir {
    let copy = tempfile::tempdir().unwrap();
    for name in ["config.json", "tokenizer.json", "model.safetensors", "sentence_bert_config.json"] {
        std::os::unix::fs::symlink(dir.join(name), copy.path().join(name)).unwrap();
    }
    std::fs::create_dir(copy.path().join("1_Pooling")).unwrap();
    std::os::unix::fs::symlink(dir.join("1_Pooling/config.json"), copy.path().join("1_Pooling/config.json")).unwrap();
    copy
}

fn replace(copy: &Path, name: &str, bytes: &[u8]) {
    let path = copy.join(name);
    std::fs::remove_file(&path).unwrap();
    std::fs::write(&path, bytes).unwrap();
}

fn load_error(dir: &Path) -> LoadError {
    Encoder::load(dir).expect_err("a broken model is refused")
}

fn says(e: &LoadError, path: &Path, words: &str) {
    let text = e.to_string();
    assert_eq!(e.path, path, "{text}");
    assert!(text.contains(&path.display().to_string()), "names the path: {text}");
    assert!(text.contains(words), "says {words:?}: {text}");
    assert!(text.contains(".ci/get-model") && text.contains("[adapters.embed]"), "says the fix: {text}");
}

#[test]
fn a_missing_directory_names_itself_and_the_fix() {
    let gone = Path::new("/nonexistent/evoke/models/none");
    says(&load_error(gone), gone, "no model directory");
}

#[test]
fn a_missing_file_is_named() {
    let Some(dir) = reference_model() else { return };
    let copy = copy_model(&dir);
    std::fs::remove_file(copy.path().join("tokenizer.json")).unwrap();
    says(&load_error(copy.path()), &copy.path().join("tokenizer.json"), "missing");
}

#[test]
fn truncated_weights_are_refused() {
    let Some(dir) = reference_model() else { return };
    let copy = copy_model(&dir);
    let bytes = std::fs::read(dir.join("model.safetensors")).unwrap();
    replace(copy.path(), "model.safetensors", &bytes[..bytes.len() / 2]);
    says(&load_error(copy.path()), &copy.path().join("model.safetensors"), "truncated");
}

#[test]
fn weights_of_another_shape_are_refused() {
    let Some(dir) = reference_model() else { return };
    let copy = copy_model(&dir);
    let config = std::fs::read_to_string(dir.join("config.json")).unwrap();
    let config = config.replace("\"intermediate_size\": 1536", "\"intermediate_size\": 3072");
    assert!(config.contains("3072"));
    replace(copy.path(), "config.json", config.as_bytes());
    says(&load_error(copy.path()), &copy.path().join("model.safetensors"), "do not fit config.json");
}

#[test]
fn a_model_of_another_family_is_refused() {
    let Some(dir) = reference_model() else { return };
    let copy = copy_model(&dir);
    let config = std::fs::read_to_string(dir.join("config.json")).unwrap();
    let config = config.replace("\"bert\"", "\"gpt2\"").replace("BertModel", "GPT2Model");
    replace(copy.path(), "config.json", config.as_bytes());
    says(&load_error(copy.path()), &copy.path().join("config.json"), "BERT-family");
}

#[test]
fn a_config_that_is_not_json_is_refused() {
    let Some(dir) = reference_model() else { return };
    let copy = copy_model(&dir);
    replace(copy.path(), "config.json", b"{ not json");
    says(&load_error(copy.path()), &copy.path().join("config.json"), "not valid JSON");
}

#[test]
fn a_tokenizer_of_another_model_is_refused() {
    let Some(dir) = reference_model() else { return };
    let copy = copy_model(&dir);
    let config = std::fs::read_to_string(dir.join("config.json")).unwrap();
    let config = config.replace("\"vocab_size\": 30522", "\"vocab_size\": 1000");
    replace(copy.path(), "config.json", config.as_bytes());
    says(&load_error(copy.path()), &copy.path().join("tokenizer.json"), "not one model's files");
}
