//! What the component tests share: where the built components are, one host, calls, a loopback server.

#![allow(dead_code)]

use evoke_bodies::BodyValue;
use evoke_bodies::component::ComponentHost;
use evoke_bodies::{Call, Failure, Output, Ran};
use evoke_core::manifest::{Access, Grants};
use evoke_core::recognize::PickValue;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

#[path = "built.rs"]
pub mod built_rule;

/// The directory of a reflex or fixture, and its `.wasm`, when `.ci/build-components` has built it;
/// otherwise `None`, or a failure in CI, as [`built_rule::present`] decides.
///
/// The component is compiled into the shared host first, outside any deadline: tests run side by side
/// on few cores, and the first compile of a large component must not count against a run's 30 seconds.
pub fn built(dir: &str, wasm: &str) -> Option<(PathBuf, PathBuf)> {
    let dir = root().join(dir);
    let file = dir.join(wasm);
    if !built_rule::present(&file) {
        return None;
    }
    let _ = host().preload(&file);
    Some((dir, file))
}

pub fn probe() -> Option<(PathBuf, PathBuf)> {
    built("host/evoke-bodies/tests/probe", "probe.wasm")
}

/// Where the tests keep compiled components: kept between runs, so only the first compiles.
pub fn cache_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("evoke-component-cache")
}

/// One host for every test of a test binary.
pub fn host() -> &'static ComponentHost {
    static HOST: OnceLock<ComponentHost> = OnceLock::new();
    HOST.get_or_init(|| ComponentHost::new(&cache_dir()).expect("the component host starts"))
}

/// A call with time to compile its component on a loaded machine: a test that is about the deadline sets
/// its own, after [`warm`].
pub fn call(dir: &Path, args: &[(&str, BodyValue)], grants: Grants) -> Call {
    Call {
        dir: dir.to_path_buf(),
        args: args.iter().map(|(k, v)| (k.to_string(), v.clone())).collect(),
        today: evoke_bodies::dates::today(),
        input: String::new(),
        config: Vec::new(),
        grants,
        deadline: Instant::now() + Duration::from_secs(600),
    }
}

/// Compiles the probe into the shared cache, so that a short deadline after it falls on the body's run and
/// never on the compile.
pub async fn warm(dir: &Path, wasm: &Path) {
    ok(host().run(&probe_call(dir, "env", "", Grants::default()), wasm).await);
}

pub fn option(key: &str) -> BodyValue {
    BodyValue::Option(key.to_string())
}

pub fn number(n: f64) -> BodyValue {
    BodyValue::Pick(PickValue::Number(n))
}

pub fn amount(amount: i64, currency: &str) -> BodyValue {
    BodyValue::Pick(PickValue::Amount { amount, currency: currency.to_string() })
}

pub fn files(grants: &[(&Path, Access)]) -> Grants {
    Grants { files: grants.iter().map(|(p, a)| (p.display().to_string(), *a)).collect(), net: Vec::new() }
}

pub fn net(pairs: &[String]) -> Grants {
    Grants { files: Vec::new(), net: pairs.to_vec() }
}

/// The probe, doing `action` on `target`.
pub fn probe_call(dir: &Path, action: &str, target: &str, grants: Grants) -> Call {
    let mut args = vec![("action", option(action))];
    if !target.is_empty() {
        args.push(("target", BodyValue::text(target)));
    }
    call(dir, &args, grants)
}

pub fn ok(ran: Ran) -> Output {
    assert_eq!(ran.contained, evoke_bodies::Contained::Full);
    match ran.result {
        Ok(out) => out,
        Err(f) => panic!("the body failed: {}", f.message),
    }
}

pub fn failed(ran: Ran) -> Failure {
    assert_eq!(ran.contained, evoke_bodies::Contained::Full);
    match ran.result {
        Ok(out) => panic!("the body was not stopped; it returned {out:?}"),
        Err(f) => f,
    }
}

/// A fresh directory under the target's temporary directory. Each test process names its own by its
/// process id; those of processes that have ended are removed first, so runs do not pile them up.
pub fn scratch(name: &str) -> PathBuf {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    for entry in std::fs::read_dir(&tmp).into_iter().flatten().flatten() {
        let file_name = entry.file_name();
        let Some(rest) = file_name.to_str().and_then(|n| n.strip_prefix("evoke-components-")) else { continue };
        let pid = rest.rsplit('-').next().and_then(|p| p.parse::<u32>().ok());
        if pid.is_some_and(|pid| pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists()) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
    let dir = tmp.join(format!("evoke-components-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.canonicalize().unwrap()
}

/// An HTTP server on `addr` (loopback) that answers up to `requests` requests with `200` and
/// `reply(path)` as JSON, then stops. Returns the bound address.
pub fn serve(addr: &str, requests: usize, reply: fn(&str) -> String) -> SocketAddr {
    let listener = TcpListener::bind(addr).expect("a loopback port");
    let bound = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(requests) {
            let Ok(mut stream) = stream else { continue };
            stream.set_read_timeout(Some(Duration::from_secs(5))).ok();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut first = String::new();
            if reader.read_line(&mut first).is_err() {
                continue;
            }
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                line.clear();
            }
            let path = first.split_whitespace().nth(1).unwrap_or("/").to_string();
            let body = reply(&path);
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    bound
}

/// A listener that counts nothing: the test checks afterwards that no connection reached it.
pub fn silent_listener() -> TcpListener {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    l.set_nonblocking(true).unwrap();
    l
}
