//! The adapters through the command line: `local` deciding the example project offline, `openai` against
//! a fake OpenAI-compatible server on loopback (real-shaped answers and malformed ones), and the
//! malformed-answer faults failing closed with exit 6 for every adapter kind.

mod common;

use common::copy_tree;

use evoke::drive::{DEADLINE, Failure, Request, decide};
use evoke_adapters::local::Local;
use evoke_core::adapter::{Adapter, AnswerFuture, Cancel, Gate, Raw, State};
use evoke_core::question::Questions;
use evoke_core::validate::AnswerFault;
use evoke_embed::testing::reference_model;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// Runs evoke; a command naming a project with `-C` trusts it first.
fn evoke(home: &Path, args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    if args.first() == Some(&"-C") {
        let places = evoke_files::places::Places::under(home);
        let location = evoke_files::project::Location { root: PathBuf::from(args[1]), home: false };
        evoke_files::trust::record(&places, &location).unwrap();
    }
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_evoke"));
    cmd.args(args).env("EVOKE_HOME", home).env_remove("OPENAI_API_KEY");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn local_decides_the_example_project_offline() {
    let home = tempfile::tempdir().unwrap();
    let project = repo().join("docs/examples/home");
    let (code, out, err) =
        evoke(home.path(), &["-C", project.to_str().unwrap(), "try", "--json", "turn on the kitchen lights"], &[]);
    assert_eq!(code, 0, "{err}");
    let line: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(line["reflex"], "lights", "{out}");
    assert_eq!(line["args"]["state"]["key"], "on", "{out}");
    assert_eq!(line["args"]["room"]["word"], "kitchen", "{out}");
    assert!(["run", "confirm"].contains(&line["outcome"].as_str().unwrap()), "{out}");

    let (code, out, _) =
        evoke(home.path(), &["-C", project.to_str().unwrap(), "try", "--json", "set a timer for 10 minutes"], &[]);
    assert_eq!(code, 0);
    let line: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(line["call"], "timer duration=\"10 minutes\"", "{out}");
}

/// The routine `good_night` is described by what its steps do (the bedroom dimmed) and fenced from
/// dimming one room: a request to dim one room is the lights', not the routine's.
#[test]
fn local_reads_dimming_one_room_as_the_lights_not_the_evening_routine() {
    let home = tempfile::tempdir().unwrap();
    let project = repo().join("docs/examples/home");
    let (code, out, err) =
        evoke(home.path(), &["-C", project.to_str().unwrap(), "try", "--json", "dim the bedroom lights"], &[]);
    assert_eq!(code, 0, "{err}");
    let line: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(line["playbook"], serde_json::Value::Null, "{out}");
    assert_eq!(line["reflex"], "lights", "{out}");
    assert_eq!(line["args"]["room"]["word"], "bedroom", "{out}");
}

#[test]
fn local_settings_are_read_and_refused_when_wrong() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let reflexes = repo().join("reflexes");
    let toml = format!("adapter = \"local\"\n[reflexes]\nvolume = {:?}\n", reflexes.join("volume").to_str().unwrap());
    std::fs::write(dir.path().join("evoke.toml"), toml).unwrap();
    home_settings(home.path(), "[adapters.local]\nloudness = 3\n");
    let (code, _, err) = evoke(home.path(), &["-C", dir.path().to_str().unwrap(), "try", "volume to 40"], &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("loudness"), "{err}");
}

/// A fake OpenAI-compatible endpoint on loopback. `mode` chooses the answer; it stops after `limit`
/// connections or when dropped.
struct Fake {
    port: u16,
    mode: Arc<Mutex<String>>,
    seen: Arc<Mutex<Vec<String>>>,
}

fn logprobs(tops: &[(&str, &str)]) -> String {
    let list: Vec<String> =
        tops.iter().map(|(t, lp)| format!(r#"{{"token":"{t}","logprob":{lp},"bytes":[65]}}"#)).collect();
    format!(
        r#"{{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"fake","choices":[{{"index":0,"message":{{"role":"assistant","content":"{}"}},"logprobs":{{"content":[{{"token":"{}","logprob":{},"bytes":[65],"top_logprobs":[{}]}}]}},"finish_reason":"length"}}],"usage":{{"prompt_tokens":10,"completion_tokens":1,"total_tokens":11}}}}"#,
        tops[0].0,
        tops[0].0,
        tops[0].1,
        list.join(",")
    )
}

impl Fake {
    fn start() -> Fake {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let mode = Arc::new(Mutex::new("good".to_string()));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let (m, s) = (mode.clone(), seen.clone());
        std::thread::spawn(move || {
            let started = Instant::now();
            for stream in listener.incoming().take(200) {
                if started.elapsed() > Duration::from_secs(120) {
                    break;
                }
                let Ok(mut stream) = stream else { continue };
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut head = String::new();
                let mut length = 0;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                        break;
                    }
                    if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                        length = v.trim().parse().unwrap_or(0);
                    }
                    head.push_str(&line);
                }
                let mut body = vec![0; length];
                let _ = reader.read_exact(&mut body);
                let body = String::from_utf8_lossy(&body).to_string();
                s.lock().unwrap().push(format!("{head}\n{body}"));
                let mode = m.lock().unwrap().clone();
                let fits = body.contains("Does this do what the request asks?");
                let (status, text) = match mode.as_str() {
                    "good" => ("200 OK", logprobs(&[("A", "-0.1"), ("B", "-3.2"), ("C", "-4.1"), ("Z", "-6.0")])),
                    "not_offered" => ("200 OK", logprobs(&[("Q", "-0.05"), ("R", "-3.2")])),
                    "nan" => ("200 OK", logprobs(&[("A", "\"NaN\""), ("B", "-3.2")])),
                    "sum" => ("200 OK", logprobs(&[("A", "-0.3567"), ("B", "-0.3567")])),
                    "missing" if fits => {
                        ("500 Internal Server Error", r#"{"error":{"message":"overloaded"}}"#.to_string())
                    }
                    "missing" => ("200 OK", logprobs(&[("A", "-0.05"), ("B", "-3.2")])),
                    "empty" => ("200 OK", r#"{"id":"x","choices":[]}"#.to_string()),
                    _ => ("200 OK", "<html>not json</html>".to_string()),
                };
                let reply = format!(
                    "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{text}",
                    text.len()
                );
                let _ = stream.write_all(reply.as_bytes());
            }
        });
        Fake { port, mode, seen }
    }

    fn set(&self, mode: &str) {
        *self.mode.lock().unwrap() = mode.to_string();
    }
}

/// Writes the user's home `evoke.toml`, the one file that may hold an adapter's settings and the bars.
fn home_settings(home: &Path, text: &str) {
    std::fs::create_dir_all(home.join("config")).unwrap();
    std::fs::write(home.join("config/evoke.toml"), text).unwrap();
}

/// A project choosing `openai` by name, its settings in the home file under `home`.
fn openai_project(home: &Path, port: u16, gate: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let reflexes = repo().join("reflexes");
    let gate = if gate { "gate = { route = 0.5, read = 0.6, write = 0.8 }\n" } else { "" };
    let toml = format!(
        "adapter = \"openai\"\n[reflexes]\ntimer = {:?}\nvolume = {:?}\n",
        reflexes.join("timer").to_str().unwrap(),
        reflexes.join("volume").to_str().unwrap(),
    );
    std::fs::write(dir.path().join("evoke.toml"), toml).unwrap();
    home_settings(
        home,
        &format!(
            "[adapters.openai]\nurl = \"http://127.0.0.1:{port}/v1\"\nmodel = \"fake-1\"\nkey_env = \"EVOKE_TEST_KEY\"\n{gate}"
        ),
    );
    dir
}

#[test]
fn openai_reads_top_logprobs_from_a_compatible_endpoint() {
    let fake = Fake::start();
    let home = tempfile::tempdir().unwrap();
    let project = openai_project(home.path(), fake.port, true);
    let p = project.path().to_str().unwrap();
    let key = [("EVOKE_TEST_KEY", "sk-test")];
    let (code, out, err) = evoke(home.path(), &["-C", p, "try", "--json", "set a timer for 10 minutes"], &key);
    assert_eq!(code, 0, "{out}{err}");
    let line: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    // A is the first option: `timer` on the route, the candidate span on the duration.
    assert_eq!(line["reflex"], "timer", "{out}");
    assert_eq!(line["call"], "timer duration=\"10 minutes\"", "{out}");
    assert_eq!(line["trace"].as_array().unwrap().len(), 2, "route, then the fits and the argument: {out}");
    let route_p = line["judgments"][0]["p"].as_f64().unwrap();
    let expected = (-0.1f64).exp() / ((-0.1f64).exp() + (-3.2f64).exp() + (-4.1f64).exp());
    assert!((route_p - expected).abs() < 1e-9, "renormalized over the labels offered: {route_p} vs {expected}");
    let seen = fake.seen.lock().unwrap().clone();
    assert!(
        seen.iter().all(|r| r.contains("authorization: Bearer sk-test") || r.contains("Authorization: Bearer sk-test")),
        "{seen:?}"
    );
    assert!(seen.iter().all(|r| r.contains("\"top_logprobs\":20") && r.contains("\"max_tokens\":1")), "{seen:?}");
    assert!(seen.iter().all(|r| r.starts_with("POST /v1/chat/completions")), "{seen:?}");

    // Without the key's variable, nothing is asked: a fault, exit 6.
    let (code, _, err) = evoke(home.path(), &["-C", p, "try", "volume to 40"], &[]);
    assert_eq!(code, 6, "{err}");
    assert!(err.contains("EVOKE_TEST_KEY"), "{err}");
}

#[test]
fn malformed_openai_answers_fail_closed() {
    let fake = Fake::start();
    let home = tempfile::tempdir().unwrap();
    let project = openai_project(home.path(), fake.port, true);
    let p = project.path().to_str().unwrap();
    let key = [("EVOKE_TEST_KEY", "sk-test")];
    for (i, mode) in ["not_offered", "nan", "sum", "missing", "empty", "garbage"].iter().enumerate() {
        fake.set(mode);
        // A fresh sentence each time, so no answer comes from the cache.
        let sentence = format!("set a timer for {} minutes", 11 + i);
        let (code, out, err) = evoke(home.path(), &["-C", p, "try", "--json", &sentence], &key);
        assert_eq!(code, 6, "{mode}: {out}{err}");
        let line: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert!(line["error"].as_str().unwrap().starts_with("refused:"), "{mode}: {out}");
        assert!(line.get("outcome").is_none(), "{mode}: nothing decided: {out}");
        // The engine's own reply did not make an answer: the fault is the adapter's, not a decision's.
        assert_eq!(line["fault"]["type"], "adapter", "{mode}: {line}");
    }
}

#[test]
fn a_refused_openai_setting_is_a_usage_error() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("evoke.toml"), "adapter = \"openai\"\n").unwrap();
    home_settings(home.path(), "[adapters.openai]\nurl = \"ftp://example\"\nmodel = \"m\"\n");
    let (code, _, err) = evoke(home.path(), &["-C", dir.path().to_str().unwrap(), "try", "volume to 40"], &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("url"), "{err}");
}

/// Wraps an adapter and spoils its answers one way.
struct Spoiled<A> {
    inner: A,
    how: &'static str,
}

impl<A: Adapter> Adapter for Spoiled<A> {
    fn id(&self) -> &str {
        self.inner.id()
    }
    fn gate(&self) -> Option<Gate> {
        self.inner.gate()
    }
    fn answer<'a>(&'a self, state: &'a State, questions: &'a Questions, cancel: &'a Cancel) -> AnswerFuture<'a> {
        let how = self.how;
        let inner = self.inner.answer(state, questions, cancel);
        Box::pin(async move {
            let mut raw: Raw = inner.await?;
            let (id, answer) = raw.iter_mut().next().expect("a question");
            let id = id.clone();
            match how {
                "not_offered" => {
                    answer.insert("kitchen".into(), 0.0);
                }
                "nan" => {
                    let key = answer.keys().next().unwrap().clone();
                    answer.insert(key, f64::NAN);
                }
                "sum" => {
                    // The least likely key gains 0.4: the answer sums to 1.4.
                    let key = answer.iter().min_by(|a, b| a.1.total_cmp(b.1)).unwrap().0.clone();
                    let p = answer[&key];
                    answer.insert(key, p + 0.4);
                }
                _ => {
                    raw.remove(&id);
                }
            }
            Ok(raw)
        })
    }
}

#[test]
fn malformed_answers_fail_closed_for_local_and_every_kind() {
    let catalog = home_catalog();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
    spoiled_answers_fail_closed(&runtime, &catalog, Local::default);
}

/// Each way of spoiling the answers of `engine` fails the decision closed, with the fault it is.
fn spoiled_answers_fail_closed<A: Adapter>(
    runtime: &tokio::runtime::Runtime,
    catalog: &evoke_core::catalog::Catalog,
    engine: impl Fn() -> A,
) {
    for how in ["not_offered", "nan", "sum", "missing"] {
        let adapter = Spoiled { inner: engine(), how };
        let request = request(catalog, &adapter, DEADLINE);
        let failed = runtime.block_on(decide(&request, "turn on the kitchen lights")).unwrap_err();
        let Failure::Answer { fault } = &failed.failure else { panic!("{how}: {:?}", failed.failure) };
        let expected = match how {
            "not_offered" => matches!(fault, AnswerFault::NotOffered { .. }),
            "nan" => matches!(fault, AnswerFault::NotProbability { .. }),
            "sum" => matches!(fault, AnswerFault::NotDistribution { .. }),
            _ => matches!(fault, AnswerFault::Unanswered { .. }),
        };
        assert!(expected, "{how}: {fault:?}");
    }
}

/// The reflexes of the example project in docs/examples/home.
fn home_catalog() -> evoke_core::catalog::Catalog {
    let home = evoke_files::project::Location { root: repo().join("docs/examples/home"), home: false };
    evoke_files::project::load(home).unwrap().catalog()
}

/// A request to `adapter` over `catalog`, nothing cached, with `ahead` until the deadline.
fn request<'a>(catalog: &'a evoke_core::catalog::Catalog, adapter: &'a dyn Adapter, ahead: Duration) -> Request<'a> {
    Request {
        catalog,
        adapter,
        gate: adapter.gate(),
        plan: "p",
        cache: None,
        deadline: Instant::now() + ahead,
        reviews: None,
    }
}

#[test]
fn malformed_recorded_answers_exit_6() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let reflexes = repo().join("reflexes");
    std::fs::write(
        dir.path().join("evoke.toml"),
        format!("[reflexes]\nvolume = {:?}\n", reflexes.join("volume").to_str().unwrap()),
    )
    .unwrap();
    // Each spoiled answer, and the type of the fault the decision's line must name.
    let cases = [
        ("not_offered", "route = { volume = 0.9, none = 0.05, timer = 0.05 }", "not_offered"),
        ("nan", "route = { volume = nan, none = 0.1 }", "not_probability"),
        ("sum", "route = { volume = 0.9, none = 0.5 }", "not_distribution"),
        ("missing", "\"fits.volume\" = { yes = 0.9 }", "unanswered"),
    ];
    for (how, answers, fault) in cases {
        let recording = dir.path().join(format!("{how}.toml"));
        std::fs::write(&recording, format!("id = \"replay\"\n[gate]\nroute = 0.5\nread = 0.6\nwrite = 0.8\n\n[answers.\"volume to 40\"]\n{answers}\n")).unwrap();
        let (code, out, err) = evoke(
            home.path(),
            &[
                "-C",
                dir.path().to_str().unwrap(),
                "try",
                "--json",
                "--recording",
                recording.to_str().unwrap(),
                "volume to 40",
            ],
            &[],
        );
        assert_eq!(code, 6, "{how}: {out}{err}");
        let line: serde_json::Value = serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{how}: {e}: {out}"));
        assert_eq!(line["fault"]["type"], "answer", "{how}: {line}");
        assert_eq!(line["fault"]["fault"]["type"], fault, "{how}: {line}");
    }
}

#[test]
fn calibrate_scores_every_record_and_test() {
    let home = tempfile::tempdir().unwrap();
    let project = repo().join("docs/examples/home");
    let p = project.to_str().unwrap();
    let (code, out, err) = evoke(home.path(), &["-C", p, "calibrate", "--json", "--repeat", "2"], &[]);
    assert_eq!(code, 0, "{err}");
    let r: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(r["adapter"]["name"], "local");
    assert_eq!(r["reflexes"], 3);
    // The route offers good_night beside them: its examples are cases, counted apart.
    assert_eq!(r["playbooks"], 1, "{out}");
    assert_eq!(r["repeats"], 2);
    let o = &r["outcomes"];
    let total: u64 = ["run", "confirm", "ask", "abstain"].iter().map(|k| o[k].as_u64().unwrap()).sum();
    assert_eq!(total, r["records"].as_u64().unwrap());
    assert!(r["bins"].as_array().unwrap().iter().all(|b| b["calls"].as_u64().unwrap() > 0));
    assert!(r["bars"]["write"]["bar"].as_f64().is_some(), "{out}");
    assert!(r["questions"].as_array().unwrap().iter().any(|q| q["kind"] == "route"));
    // local is deterministic: nothing moves between repeats.
    assert_eq!(r["variance"]["flips"], 0);
    assert_eq!(r["variance"]["verdict_flips"], 0);
    assert!(r["log"]["decisions"].is_u64());
    let (code, out, _) = evoke(home.path(), &["-C", p, "calibrate"], &[]);
    assert_eq!(code, 0);
    assert!(out.contains("calls by confidence"), "{out}");
}

/// The engine is shown the sentence and the questions built from the installed manifests, nothing else of
/// the user's: markers planted in the environment, a project file, the home settings and an earlier
/// sentence never reach a request.
#[test]
fn the_engine_sees_only_the_sentence_and_the_questions() {
    let fake = Fake::start();
    let home = tempfile::tempdir().unwrap();
    let project = openai_project(home.path(), fake.port, true);
    let settings = std::fs::read_to_string(home.path().join("config/evoke.toml")).unwrap();
    home_settings(home.path(), &format!("# zz-home-marker\n{settings}"));
    std::fs::write(project.path().join("notes.txt"), "zz-file-marker\n").unwrap();
    let p = project.path().to_str().unwrap();
    let env = [("EVOKE_TEST_KEY", "sk-test"), ("ZZ_PLANTED", "zz-env-marker")];

    let (code, out, err) =
        evoke(home.path(), &["-C", p, "try", "--json", "set a timer for 12 minutes zz-earlier-marker"], &env);
    assert_eq!(code, 0, "{out}{err}");
    fake.seen.lock().unwrap().clear();
    let (code, out, err) = evoke(home.path(), &["-C", p, "try", "--json", "set a timer for 10 minutes"], &env);
    assert_eq!(code, 0, "{out}{err}");

    let seen = fake.seen.lock().unwrap().clone();
    assert!(!seen.is_empty(), "the second sentence was asked about");
    for request in &seen {
        let (_, body) = request.split_once("\r\n\n").unwrap();
        assert!(body.contains("set a timer for 10 minutes"), "{body}");
        for marker in ["zz-home-marker", "zz-file-marker", "zz-env-marker", "zz-earlier-marker", "sk-test"] {
            assert!(!body.contains(marker), "{marker} reached the engine: {body}");
        }
    }
}

/// The example project with `adapter = "embed"`, and the one setting the home file needs.
#[test]
fn embed_decides_the_example_project_after_one_setting() {
    let Some(model) = reference_model() else { return };
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    copy_tree(&repo().join("docs/examples/home"), project.path());
    let toml = std::fs::read_to_string(project.path().join("evoke.toml")).unwrap();
    let shipped = repo().join("reflexes");
    let toml = toml
        .replace("adapter = \"local\"", "adapter = \"embed\"")
        .replace("\"../../../reflexes/timer\"", &format!("{:?}", shipped.join("timer").to_str().unwrap()))
        .replace("\"../../../reflexes/volume\"", &format!("{:?}", shipped.join("volume").to_str().unwrap()));
    assert!(toml.contains("adapter = \"embed\""));
    std::fs::write(project.path().join("evoke.toml"), toml).unwrap();
    home_settings(home.path(), &format!("[adapters.embed]\nmodel = {:?}\n", model.to_str().unwrap()));
    let p = project.path().to_str().unwrap();

    let (code, out, err) = evoke(home.path(), &["-C", p, "try", "--json", "kill the lights in the den"], &[]);
    assert_eq!(code, 0, "{err}");
    let line: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(line["reflex"], "lights", "{out}");
    assert_eq!(line["args"]["state"]["key"], "off", "{out}");
    assert_eq!(line["args"]["room"]["word"], "den", "{out}");
    // Sure of the reflex, the room and the state, over embed's write bar: it runs without a question.
    assert_eq!(line["outcome"], "run", "{out}");
    let route = line["judgments"].as_array().unwrap().iter().find(|j| j["question"] == "route").unwrap();
    let bar = evoke_adapters::embed::GATE.write;
    assert!(route["p"].as_f64().unwrap() >= bar, "the route is sure of the lights, over {bar}: {out}");
    assert!(out.contains("embed/"), "{out}");

    let (code, out, _) = evoke(home.path(), &["-C", p, "try", "--json", "set a timer for 10 minutes"], &[]);
    assert_eq!(code, 0);
    let line: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(line["call"], "timer duration=\"10 minutes\"", "{out}");

    // A sentence of two steps is woven with embed as with local: it answers where to cut.
    let (code, out, err) =
        evoke(home.path(), &["-C", p, "try", "--json", "turn off the den lights and set a timer for 5 minutes"], &[]);
    assert_eq!(code, 0, "{err}");
    let plan: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let calls: Vec<&str> = plan["steps"].as_array().unwrap().iter().map(|s| s["call"].as_str().unwrap_or("")).collect();
    assert_eq!(calls, ["lights room=\"den\" state=\"off\"", "timer duration=\"5 minutes\""], "{out}");

    // The reflex side was embedded once, into the cache place.
    let cached = std::fs::read_dir(home.path().join("cache/embed"))
        .map(|d| d.filter_map(Result::ok).filter(|e| e.path().extension().is_some_and(|x| x == "vec")).count())
        .unwrap_or(0);
    assert!(cached > 0, "vectors kept under the cache place");

    // A project may name the engine and nothing more: its own [adapters.embed] is refused.
    let toml = std::fs::read_to_string(project.path().join("evoke.toml")).unwrap();
    std::fs::write(
        project.path().join("evoke.toml"),
        format!("{toml}\n[adapters.embed]\nmodel = \"/tmp/elsewhere\"\n"),
    )
    .unwrap();
    let (code, _, err) = evoke(home.path(), &["-C", p, "try", "kill the lights in the den"], &[]);
    assert_ne!(code, 0, "{err}");
    assert!(err.contains("adapters.embed"), "{err}");
}

#[test]
fn embed_names_a_missing_model_and_the_fix() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    copy_tree(&repo().join("docs/examples/home"), project.path());
    let toml = std::fs::read_to_string(project.path().join("evoke.toml")).unwrap();
    std::fs::write(project.path().join("evoke.toml"), toml.replace("adapter = \"local\"", "adapter = \"embed\""))
        .unwrap();
    home_settings(home.path(), "[adapters.embed]\nmodel = \"/nonexistent/models/all-MiniLM-L6-v2\"\n");
    let (code, _, err) = evoke(home.path(), &["-C", project.path().to_str().unwrap(), "try", "kill the lights"], &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("/nonexistent/models/all-MiniLM-L6-v2"), "{err}");
    assert!(err.contains(".ci/get-model"), "{err}");
}

#[test]
fn malformed_answers_fail_closed_for_embed() {
    let Some(model) = reference_model() else { return };
    let catalog = home_catalog();
    let encoder = Arc::new(evoke_embed::Encoder::load(&model).unwrap());
    let embed = || {
        evoke_adapters::embed::Embed::new(
            encoder.clone(),
            evoke_adapters::embed::Params::default(),
            evoke_adapters::local::ArgParams::default(),
            evoke_adapters::embed::GATE,
            None,
        )
    };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
    spoiled_answers_fail_closed(&runtime, &catalog, embed);
    // The deadline: an engine slower than it is refused without waiting for it.
    let slow = embed().slowed(Duration::from_secs(10));
    let request = request(&catalog, &slow, Duration::from_millis(200));
    let started = Instant::now();
    let failed = runtime.block_on(decide(&request, "turn on the kitchen lights")).unwrap_err();
    assert!(matches!(failed.failure, Failure::Deadline { .. }), "{:?}", failed.failure);
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
}

/// The `.vec` files kept under the cache place, by name.
fn kept_vectors(home: &Path) -> std::collections::BTreeSet<String> {
    std::fs::read_dir(home.join("cache/embed"))
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| e.path().extension().is_some_and(|x| x == "vec"))
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// A project of `count` generated reflexes for `embed`, each with a description, examples and an option.
fn many_reflexes(count: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut toml = String::from("adapter = \"embed\"\n[reflexes]\n");
    for i in 0..count {
        let name = format!("chore{i}");
        let manifest = format!(
            "reflex = 1\ndescription = \"Do household chore number {i} in a room.\"\neffect = \"read\"\n\
             confirm = \"Do chore {i}?\"\nrun = [\"true\"]\n\n[args.room]\nask = \"Which room?\"\noptions.den = \"The den.\"\n\
             options.hall = \"The hall.\"\n\n[examples]\n\"do chore {i} in the den\" = {{ room = \"den\" }}\n\
             \"chore {i} for the hall please\" = {{ room = \"hall\" }}\n\"start household chore {i}\" = {{}}\n"
        );
        std::fs::create_dir_all(dir.path().join("r").join(&name)).unwrap();
        std::fs::write(dir.path().join("r").join(&name).join("reflex.toml"), manifest).unwrap();
        toml.push_str(&format!("{name} = \"r/{name}\"\n"));
    }
    std::fs::write(dir.path().join("evoke.toml"), toml).unwrap();
    dir
}

#[test]
fn trust_reads_the_reflexes_ahead_so_the_first_decision_embeds_only_the_sentence() {
    let Some(model) = reference_model() else { return };
    let home = tempfile::tempdir().unwrap();
    home_settings(home.path(), &format!("[adapters.embed]\nmodel = {:?}\n", model.to_str().unwrap()));
    let project = many_reflexes(30);
    let trusted = Command::new(env!("CARGO_BIN_EXE_evoke"))
        .arg("trust")
        .current_dir(project.path())
        .env("EVOKE_HOME", home.path())
        .output()
        .unwrap();
    assert!(trusted.status.success(), "{}", String::from_utf8_lossy(&trusted.stderr));
    let after_trust = kept_vectors(home.path());
    // The route (its texts and its head) and each reflex's option question.
    assert!(after_trust.len() >= 2, "the reflex side was kept at trust: {after_trust:?}");
    let decided = Command::new(env!("CARGO_BIN_EXE_evoke"))
        .args(["try", "--json", "do chore 7 in the den"])
        .current_dir(project.path())
        .env("EVOKE_HOME", home.path())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&decided.stdout);
    assert_eq!(decided.status.code(), Some(0), "{out}{}", String::from_utf8_lossy(&decided.stderr));
    assert!(out.contains("\"reflex\":\"chore7\""), "{out}");
    assert_eq!(kept_vectors(home.path()), after_trust, "the first decision computed nothing of the reflexes' side");
}
