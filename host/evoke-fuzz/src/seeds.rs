//! The seeds of each target, in the shape its function reads: the repository's own files and conformance
//! vectors, and the regression inputs under `regressions/<target>/` (every crash a fuzzer found, kept).

use evoke_core::question::QuestionId;
use evoke_core::recognize::recognize;
use evoke_core::recording::{Recording, read_recording};
use serde_json::{Value, json};
use std::fs;
use std::path::{Path, PathBuf};

/// The shipped `lights` manifest, the default an overlay lies over.
pub const LIGHTS: &str = include_str!("../../../reflexes/lights/reflex.toml");

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every file directly inside `dir`, sorted, so that seeds come in one order on every machine.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file()).collect())
        .unwrap_or_default();
    out.sort();
    out
}

/// Every `file` one folder below `dir`: `reflexes/*/reflex.toml`.
fn below(dir: &Path, file: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path().join(file))).filter(|p| p.is_file()).collect())
        .unwrap_or_default();
    out.sort();
    out
}

/// The `input` of every case of a vector folder.
fn vector_inputs(function: &str) -> Vec<Value> {
    files(&root().join("vectors").join(function))
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .filter_map(|p| serde_json::from_str::<Value>(&fs::read_to_string(p).ok()?).ok()?.get("input").cloned())
        .collect()
}

fn read(path: &Path) -> Option<Vec<u8>> {
    fs::read(path).ok()
}

fn with_nul(a: &str, b: &str) -> Vec<u8> {
    let mut out = a.as_bytes().to_vec();
    out.push(0);
    out.extend_from_slice(b.as_bytes());
    out
}

fn recordings() -> Vec<(String, Recording)> {
    below(&root().join("transcripts"), "recording.toml")
        .into_iter()
        .filter_map(|p| {
            let text = fs::read_to_string(&p).ok()?;
            let recording = read_recording("recording.toml", &text).value?;
            Some((text, recording))
        })
        .collect()
}

/// The seeds of the target `name`, regressions first.
pub fn for_target(name: &str) -> Vec<Vec<u8>> {
    let root = root();
    let mut out: Vec<Vec<u8>> = files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions").join(name))
        .iter()
        .filter_map(|p| read(p))
        .collect();
    let text_of = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
    match name {
        "manifest" => {
            let mut paths = below(&root.join("reflexes"), "reflex.toml");
            paths.extend(below(&root.join("docs/examples/home/reflexes"), "reflex.toml"));
            for transcript in dirs(&root.join("transcripts")) {
                paths.extend(below(&transcript.join("project/reflexes"), "reflex.toml"));
            }
            out.extend(paths.iter().filter_map(|p| read(p)));
            for function in ["manifest", "lint"] {
                for input in vector_inputs(function) {
                    if let Some(text) = text_of(&input, "toml").or_else(|| text_of(&input, "manifest")) {
                        out.push(text.into_bytes());
                    }
                }
            }
        }
        "overlay" => {
            for input in vector_inputs("overlay") {
                if let (Some(manifest), Some(overlay)) = (text_of(&input, "manifest"), text_of(&input, "overlay")) {
                    out.push(with_nul(&manifest, &overlay));
                    out.push(overlay.into_bytes());
                }
            }
        }
        "vocab" => {
            for input in vector_inputs("vocab") {
                if let (Some(name), Some(toml)) = (text_of(&input, "name"), text_of(&input, "toml")) {
                    out.push(with_nul(&name, &toml));
                }
            }
            out.extend(read(&root.join("docs/examples/home/vocab/rooms.toml")));
            for transcript in dirs(&root.join("transcripts")) {
                out.extend(files(&transcript.join("project/vocab")).iter().filter_map(|p| read(p)));
            }
        }
        "recording" => out.extend(recordings().into_iter().map(|(text, _)| text.into_bytes())),
        "answers" => {
            out.extend(vector_inputs("validate").iter().map(|v| v.to_string().into_bytes()));
            // Each recorded answer, asked as the questions it answers.
            for (_, recording) in recordings() {
                for raw in recording.answers.values() {
                    let questions: serde_json::Map<String, Value> = raw
                        .iter()
                        .map(|(id, keys)| {
                            let shape = if matches!(id.parse(), Ok(QuestionId::Fits { .. })) {
                                json!({ "type": "yesno" })
                            } else {
                                json!({ "type": "choice", "keys": keys.keys().collect::<Vec<_>>() })
                            };
                            (id.clone(), shape)
                        })
                        .collect();
                    out.push(json!({ "questions": questions, "raw": raw }).to_string().into_bytes());
                }
            }
        }
        "refs" => out.extend(vector_inputs("refs").into_iter().filter_map(|v| Some(v.as_str()?.as_bytes().to_vec()))),
        "why" => {
            // The decision lines the transcripts print, with the rounds and candidates the log adds to them.
            let recordings = recordings();
            let mut log = String::new();
            for transcript in dirs(&root.join("transcripts")) {
                let Ok(text) = fs::read_to_string(transcript.join("transcript")) else { continue };
                for line in text.lines().filter(|l| l.starts_with('{')) {
                    let Ok(Value::Object(mut entry)) = serde_json::from_str::<Value>(line) else { continue };
                    let input = entry.get("input").and_then(Value::as_str).unwrap_or_default().to_string();
                    let raw = recordings.iter().find_map(|(_, r)| r.answers_for(&input));
                    if let Some(raw) = raw {
                        let rounds = json!([{ "questions": raw.keys().collect::<Vec<_>>(), "raw": raw }]);
                        entry.insert("answers".into(), rounds);
                    }
                    entry.insert("candidates".into(), json!(recognize(&input)));
                    let line = Value::Object(entry).to_string();
                    out.push(line.clone().into_bytes());
                    log.push_str(&line);
                    log.push('\n');
                }
            }
            out.push(log.into_bytes());
        }
        "expresso" => {
            // Every program the repository ships, and every vector's source.
            let mut programs = files(&root.join("docs/examples/expresso"));
            for transcript in dirs(&root.join("transcripts")) {
                programs.extend(files(&transcript));
            }
            out.extend(programs.iter().filter(|p| p.extension().is_some_and(|e| e == "ex")).filter_map(|p| read(p)));
            for folder in ["expresso-parse", "expresso-check", "expresso-keys", "expresso-route"] {
                out.extend(
                    vector_inputs(folder).iter().filter_map(|input| text_of(input, "source")).map(String::into_bytes),
                );
            }
        }
        _ => {}
    }
    out
}

fn dirs(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_dir()).collect())
        .unwrap_or_default();
    out.sort();
    out
}
