//! Component adapters through the command line: `evoke adapter add|list|remove` into the data place, a
//! decision through an installed component end to end, the malformed-answer faults failing closed with
//! exit 6, HTTP to allowed hosts only, and the refusals (a name not installed, a built-in's name, a file
//! changed since it was added, settings a component does not take).
//!
//! The components are `host/evoke-adapters/tests/{keywords,quirks}`, built by `.ci/build-components`.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

#[path = "../../evoke-bodies/tests/support/built.rs"]
mod built_rule;

/// The fixture's `.wasm` when `.ci/build-components` has built it; otherwise `None`, or a failure in CI, as
/// [`built_rule::present`] decides.
fn built(name: &str) -> Option<PathBuf> {
    let file = repo().join(format!("host/evoke-adapters/tests/{name}/{name}.wasm"));
    built_rule::present(&file).then_some(file)
}

/// Runs evoke with `home` as EVOKE_HOME; a command naming a project with `-C` trusts it first.
fn evoke(home: &Path, args: &[&str]) -> (i32, String, String) {
    if args.first() == Some(&"-C") {
        let places = evoke_files::places::Places::under(home);
        let location = evoke_files::project::Location { root: PathBuf::from(args[1]), home: false };
        evoke_files::trust::record(&places, &location).unwrap();
    }
    let out = Command::new(env!("CARGO_BIN_EXE_evoke"))
        .args(args)
        .env("EVOKE_HOME", home)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// A project of `timer` and `volume` naming `adapter`, with `extra` appended to its evoke.toml.
fn project(adapter: &str, extra: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let reflexes = repo().join("reflexes");
    let toml = format!(
        "adapter = \"{adapter}\"\n\n[reflexes]\ntimer = {:?}\nvolume = {:?}\n{extra}",
        reflexes.join("timer").to_str().unwrap(),
        reflexes.join("volume").to_str().unwrap(),
    );
    std::fs::write(dir.path().join("evoke.toml"), toml).unwrap();
    dir
}

fn json(out: &str) -> serde_json::Value {
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("not one JSON line ({e}): {out}"))
}

#[test]
fn a_decision_through_an_installed_component_adapter() {
    let Some(wasm) = built("keywords") else { return };
    let home = tempfile::tempdir().unwrap();
    let (code, out, err) = evoke(home.path(), &["adapter", "add", "keywords", wasm.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("added adapter keywords: keywords/1"), "{out}");
    assert!(out.contains("route 0.5 · read 0.6 · write 0.8"), "{out}");
    let installed = home.path().join("data/adapters/keywords");
    assert!(installed.join("adapter.wasm").is_file() && installed.join("adapter.toml").is_file());

    let (code, out, _) = evoke(home.path(), &["--json", "adapter", "list"]);
    assert_eq!(code, 0);
    let listed = json(&out);
    assert_eq!(listed["installed"][0]["name"], "keywords", "{out}");
    assert_eq!(listed["installed"][0]["allow_hosts"], serde_json::json!([]), "{out}");

    let project = project("keywords", "");
    let p = project.path().to_str().unwrap();
    let (code, out, err) = evoke(home.path(), &["-C", p, "try", "--json", "set a timer for 10 minutes"]);
    assert_eq!(code, 0, "{out}{err}");
    let line = json(&out);
    assert_eq!(line["reflex"], "timer", "{out}");
    assert_eq!(line["call"], "timer duration=\"10 minutes\"", "{out}");
    assert_eq!(line["outcome"], "run", "the component's declared gate decides: {out}");
    let id = line["trace"][0]["adapter"].as_str().unwrap();
    assert!(id.starts_with("keywords/1 sha256:"), "the id carries the content hash: {id}");

    let (code, out, _) = evoke(home.path(), &["adapter", "remove", "keywords"]);
    assert_eq!(code, 0);
    assert!(out.contains("removed adapter keywords"), "{out}");
    assert!(!installed.exists());
    let (code, _, err) = evoke(home.path(), &["-C", p, "try", "--json", "set a timer for 5 minutes"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("neither built into evoke nor installed"), "{err}");
}

#[test]
fn malformed_component_answers_exit_6() {
    let Some(wasm) = built("quirks") else { return };
    let home = tempfile::tempdir().unwrap();
    let (code, _, err) = evoke(home.path(), &["adapter", "add", "quirks", wasm.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let project = project("quirks", "");
    let p = project.path().to_str().unwrap();
    for (quirk, fault) in [
        ("not-offered", "not_offered"),
        ("nan", "not_probability"),
        ("sum", "not_distribution"),
        ("missing", "unanswered"),
    ] {
        let sentence = format!("volume to 40 quirk:{quirk}");
        let (code, out, err) = evoke(home.path(), &["-C", p, "try", "--json", &sentence]);
        assert_eq!(code, 6, "{quirk}: {out}{err}");
        let line = json(&out);
        assert!(line["error"].as_str().unwrap().starts_with("refused:"), "{quirk}: {out}");
        assert_eq!(line["fault"]["fault"]["type"], fault, "{quirk}: {out}");
        assert!(line.get("outcome").is_none(), "{quirk}: nothing decided: {out}");
    }
    // An error, a trap and a question answered twice are the engine giving no answer: exit 6 as well.
    for quirk in ["error", "trap", "twice"] {
        let sentence = format!("volume to 40 quirk:{quirk}");
        let (code, out, err) = evoke(home.path(), &["-C", p, "try", "--json", &sentence]);
        assert_eq!(code, 6, "{quirk}: {out}{err}");
        assert_eq!(json(&out)["fault"]["type"], "adapter", "{quirk}: {out}");
    }
}

/// A loopback HTTP server answering every request with `body`, counting the connections.
fn serve(body: &'static str) -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(AtomicUsize::new(0));
    let counted = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(50) {
            let Ok(mut stream) = stream else { continue };
            counted.fetch_add(1, Ordering::SeqCst);
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                line.clear();
            }
            let _ =
                write!(stream, "HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}", body.len());
        }
    });
    (port, seen)
}

#[test]
fn an_adapter_reaches_the_hosts_allowed_at_install_and_no_other() {
    let Some(wasm) = built("quirks") else { return };
    let (allowed, allowed_seen) = serve("volume");
    let (other, other_seen) = serve("timer");
    let home = tempfile::tempdir().unwrap();
    let host = format!("127.0.0.1:{allowed}");
    let (code, out, err) =
        evoke(home.path(), &["adapter", "add", "net", wasm.to_str().unwrap(), "--allow-host", &host]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("may reach {host}")), "{out}");
    let project = project("net", "");
    let p = project.path().to_str().unwrap();

    let (code, out, err) = evoke(home.path(), &["-C", p, "try", "--json", &format!("quirk:http {host}")]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(json(&out)["reflex"], "volume", "the route came from the allowed host: {out}");
    assert!(allowed_seen.load(Ordering::SeqCst) >= 1);

    let (code, out, err) = evoke(home.path(), &["-C", p, "try", "--json", &format!("quirk:http 127.0.0.1:{other}")]);
    assert_eq!(code, 6, "{out}{err}");
    assert!(json(&out)["error"].as_str().unwrap().contains("HttpRequestDenied"), "{out}");
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(other_seen.load(Ordering::SeqCst), 0, "nothing reached the host not allowed");
}

#[test]
fn an_adapter_named_but_not_installed_is_a_clear_error() {
    let home = tempfile::tempdir().unwrap();
    let project = project("nosuch", "");
    let (code, out, err) =
        evoke(home.path(), &["-C", project.path().to_str().unwrap(), "try", "--json", "volume to 40"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("the adapter `nosuch` is neither built into evoke nor installed"), "{err}");
    assert!(err.contains("evoke adapter add nosuch FILE --allow-host HOST"), "{err}");
}

#[test]
fn installing_refuses_built_in_names_bad_hosts_and_files_that_are_not_adapters() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let scratch = tempfile::tempdir().unwrap();
    let junk = scratch.path().join("junk.wasm");
    std::fs::write(&junk, b"\0asm not really").unwrap();
    let junk = junk.to_str().unwrap();
    for name in ["local", "openai", "replay"] {
        let (code, _, err) = evoke(h, &["adapter", "add", name, junk]);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(err.contains("built into evoke"), "{name}: {err}");
    }
    let (code, _, err) = evoke(h, &["adapter", "add", "Bad/Name", junk]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = evoke(h, &["adapter", "add", "junk", junk]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("refused"), "{err}");
    if let Some(wasm) = built("keywords") {
        let (code, _, err) =
            evoke(h, &["adapter", "add", "kw", wasm.to_str().unwrap(), "--allow-host", "https://example.com/v1"]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("is not a host"), "{err}");
    }
    let body = repo().join("reflexes/convert/convert.wasm");
    if built_rule::present(&body) {
        let (code, _, err) = evoke(h, &["adapter", "add", "convert", body.to_str().unwrap()]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("a reflex's body, not an adapter"), "{err}");
    }
    assert!(
        !h.join("data/adapters").exists() || std::fs::read_dir(h.join("data/adapters")).unwrap().next().is_none(),
        "nothing was installed"
    );
    let (code, _, err) = evoke(h, &["adapter", "remove", "junk"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = evoke(h, &["adapter", "remove", "local"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a_changed_file_and_settings_are_refused() {
    let Some(wasm) = built("keywords") else { return };
    let home = tempfile::tempdir().unwrap();
    let (code, _, err) = evoke(home.path(), &["adapter", "add", "keywords", wasm.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");

    // Settings live in the home evoke.toml; a component adapter takes none there either.
    std::fs::create_dir_all(home.path().join("config")).unwrap();
    std::fs::write(home.path().join("config/evoke.toml"), "[adapters.keywords]\nmodel = \"big\"\n").unwrap();
    let settings = project("keywords", "");
    let (code, _, err) = evoke(home.path(), &["-C", settings.path().to_str().unwrap(), "try", "volume to 40"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("takes no settings"), "{err}");

    let installed = home.path().join("data/adapters/keywords/adapter.wasm");
    let mut bytes = std::fs::read(&installed).unwrap();
    bytes.push(0);
    std::fs::write(&installed, bytes).unwrap();
    std::fs::remove_file(home.path().join("config/evoke.toml")).unwrap();
    let project = project("keywords", "");
    let (code, _, err) = evoke(home.path(), &["-C", project.path().to_str().unwrap(), "try", "volume to 40"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("changed since it was added"), "{err}");
}
