//! File bodies: a `.mts` or `.mjs` module run by Node.js through the runner evoke
//! carries, under Node's permission model where it holds.

mod strip;

pub use strip::{NotStripped, strip_types};

use crate::bounded::{Flood, OUTPUT_LIMIT, pass_escaped};
use crate::call::{Call, Contained, Failure, Output, Ran};
use crate::process::{Ending, scrub, wait_bounded};
use sha2::{Digest, Sha256};
use std::future::Future;
use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use tokio::io::AsyncRead;

const RUNNER: &str = include_str!("runner.mjs");

/// The most evoke reads of a file body's source (a `.mts` or a `.mjs`): 16 MiB, the most a fetched reflex
/// may hold in one file. A `.mts` is held whole, and its stripped copy beside it, so a sparse file of
/// gigabytes must be refused before it is read, not after.
pub const MAX_SOURCE: u64 = evoke_files::limits::MAX_FILE;

/// Reads the file body at `path` (shown as `shown`) through the bounded reader: opened without blocking, a
/// regular file only, refused once a byte past [`MAX_SOURCE`] arrives, whatever its size said.
fn read_source(path: &Path, shown: &str) -> Result<Vec<u8>, String> {
    evoke_files::bounded::read(path, MAX_SOURCE).map_err(|e| match e.kind() {
        // The bounded reader says the limit as FileTooLarge; its own words would tell us to remove the file.
        std::io::ErrorKind::FileTooLarge => format!(
            "{shown} holds more than {}, the most evoke reads of a file body: make it smaller, or move what \
             it carries (data, a bundled library) into a file it reads through a grant",
            evoke_files::bounded::shown_size(MAX_SOURCE)
        ),
        _ => format!("cannot read {}: {e}", path.display()),
    })
}

/// Why there is no Node.js to run a file body: none found, or the one found does not run or say its version.
#[derive(Debug, thiserror::Error)]
pub enum NoNode {
    #[error("file bodies need Node.js: install it, or point EVOKE_NODE at a node binary")]
    Missing,
    #[error("cannot run {}: {source}", program.display())]
    CannotRun { program: PathBuf, source: std::io::Error },
    #[error("{} --version said {said:?}", program.display())]
    Version { program: PathBuf, said: String },
}

/// The Node.js that runs file bodies: `EVOKE_NODE`, else `node` on `PATH`.
#[derive(Debug, Clone)]
pub struct Node {
    pub program: PathBuf,
    major: u32,
}

impl Node {
    /// Finds Node and learns its major version, remembered in the cache by the binary's path, size and
    /// modification time so that a run does not pay for a second Node start.
    pub fn find(cache: &Path) -> Result<Node, NoNode> {
        let program = match std::env::var_os("EVOKE_NODE").filter(|v| !v.is_empty()) {
            Some(path) => PathBuf::from(path),
            None => which::which("node").map_err(|_| NoNode::Missing)?,
        };
        let cannot_run = |source| NoNode::CannotRun { program: program.clone(), source };
        let meta = std::fs::metadata(&program).map_err(cannot_run)?;
        let modified =
            meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos());
        let key = hex(&Sha256::digest(format!("{}\0{}\0{modified}", program.display(), meta.len()).as_bytes()));
        let remembered = cache.join("node").join(format!("{key}.version"));
        // A remembered version below 20 would run the body without the permission model, so it is never
        // taken on the cache's word: Node is asked again. A wrong version of 20 or above can only make Node
        // refuse its flags, and the runner checks that the model is on before it imports the body.
        let major = match std::fs::read_to_string(&remembered).ok().and_then(|s| s.trim().parse().ok()) {
            Some(major) if major >= 20 => major,
            _ => {
                let out = std::process::Command::new(&program).arg("--version").output().map_err(cannot_run)?;
                let text = String::from_utf8_lossy(&out.stdout);
                let major: u32 = text
                    .trim()
                    .trim_start_matches('v')
                    .split('.')
                    .next()
                    .and_then(|m| m.parse().ok())
                    .ok_or_else(|| NoNode::Version { program: program.clone(), said: text.to_string() })?;
                remember(&remembered, major);
                major
            }
        };
        Ok(Node { program, major })
    }

    /// The permission model's switch: experimental before Node 22, stable after.
    fn permission_flags(&self) -> Vec<&'static str> {
        match self.major {
            0..=19 => Vec::new(),
            20 | 21 => vec![
                "--experimental-permission",
                "--disable-warning=ExperimentalWarning",
                "--disable-warning=SecurityWarning",
            ],
            _ => vec!["--permission", "--disable-warning=SecurityWarning"],
        }
    }

    fn held(&self) -> bool {
        self.major >= 20
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn failed(message: String, contained: Contained) -> Ran {
    Ran { result: Err(Failure { message, frames: Vec::new() }), contained, cancelled: false }
}

/// Runs the file body `relative` (inside `call.dir`), stopping at the deadline or when `cancel` resolves.
///
/// Nothing evoke runs here is read from its cache: the runner is carried in the binary and handed to Node
/// on its command line, and a `.mts` body is stripped in memory on every run and handed over with the
/// call, so a file planted or changed in the cache cannot change what runs. A `.mjs` body runs from the
/// reflex's directory, which trust covers.
pub async fn run(call: &Call, relative: &str, node: &Node, cancel: impl Future<Output = ()>) -> Ran {
    let contained = if node.held() {
        Contained::Partial {
            why: "Node's permission model holds file reads and writes to the reflex directory and its grants; network and child processes are not held".into(),
        }
    } else {
        Contained::None { why: format!("Node {} has no permission model; the body runs with your rights", node.major) }
    };
    let source = call.dir.join(relative);
    let shown = Path::new(relative).file_name().map_or(relative.to_string(), |n| n.to_string_lossy().to_string());
    let bytes = match read_source(&source, &shown) {
        Ok(bytes) => bytes,
        Err(message) => return failed(message, contained),
    };
    let body = if relative.ends_with(".mts") {
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                return failed(format!("{shown} is not UTF-8 (at byte {at}): save it as UTF-8"), contained);
            }
        };
        match strip_types(&shown, &text) {
            Ok(code) => serde_json::json!({ "name": shown, "source": code, "held": node.held() }),
            Err(e) => return failed(e.to_string(), contained),
        }
    } else {
        // Node reads a `.mjs` itself; what it would read is checked first, so a file past the limit or one
        // that is not a regular file is refused here rather than handed over.
        drop(bytes);
        serde_json::json!({ "name": shown, "file": source, "held": node.held() })
    };

    let mut command = tokio::process::Command::new(&node.program);
    command.args(node.permission_flags());
    if node.held() {
        command.arg(format!("--allow-fs-read={}/*", call.dir.display()));
        for (path, access) in &call.grants.files {
            let granted = if Path::new(path).is_absolute() { PathBuf::from(path) } else { call.dir.join(path) };
            command.arg(format!("--allow-fs-read={}/*", granted.display()));
            if *access == evoke_core::manifest::Access::Write {
                command.arg(format!("--allow-fs-write={}/*", granted.display()));
            }
        }
        command.args(["--allow-child-process", "--allow-worker"]);
    }
    command.args(["--input-type=module", "--eval", RUNNER]);
    command.current_dir(&call.dir);
    scrub(&mut command);
    command.process_group(0);
    command.kill_on_drop(true);
    // The body's own stdout and its stderr both go to evoke's stderr, escaped on the way and bounded, so
    // neither can drive the terminal nor flood it.
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    // One channel both ways on fd 0: the call goes in, then the result comes back. No descriptor has to be
    // placed by hand between fork and exec, so the spawn stays a plain posix_spawn.
    let (ours, theirs) = match std::os::unix::net::UnixStream::pair() {
        Ok(pair) => pair,
        Err(e) => return failed(format!("cannot open the body's channel: {e}"), contained),
    };
    command.stdin(Stdio::from(std::os::fd::OwnedFd::from(theirs)));
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => return failed(format!("cannot start {}: {e}", node.program.display()), contained),
    };
    let message = serde_json::json!({
        "args": serde_json::Value::Object(call.args.iter().map(|(k, v)| (k.clone(), v.json(call.today))).collect()),
        "input": call.input,
        "config": serde_json::Value::Object(call.config.iter().map(|(k, v)| (k.clone(), serde_json::json!(v))).collect()),
        "body": body,
    });
    // The result is one line, read up to the limit; a grandchild holding the channel open must not hold
    // us, so it is read on a thread of its own and given up on shortly after the body's process ends.
    let flood = Arc::new(Flood::default());
    let deadline = call.deadline;
    let passer = |stream: Option<Box<dyn AsyncRead + Unpin + Send>>, name: &'static str| {
        let flood = flood.clone();
        tokio::spawn(async move {
            if let Some(stream) = stream {
                pass_escaped(stream, name, &flood, crate::stderr::Stderr, deadline).await;
            }
        })
    };
    let pass_out = passer(child.stdout.take().map(|s| Box::new(s) as _), "stdout");
    let pass_err = passer(child.stderr.take().map(|s| Box::new(s) as _), "stderr");
    let (sender, mut receiver) = tokio::sync::oneshot::channel();
    let flooding = flood.clone();
    std::thread::spawn(move || {
        let mut ours = ours;
        let sent =
            ours.write_all(message.to_string().as_bytes()).and_then(|()| ours.shutdown(std::net::Shutdown::Write));
        let mut line = Vec::new();
        if sent.is_ok() {
            let mut reader = std::io::BufReader::new(ours).take(OUTPUT_LIMIT as u64 + 1);
            let _ = reader.read_until(b'\n', &mut line);
            if line.len() > OUTPUT_LIMIT {
                line = Vec::new();
                flooding.over("result");
            }
        }
        let _ = sender.send(line);
    });
    let stop = async {
        tokio::select! {
            () = cancel => {}
            () = flood.flooded() => {}
        }
    };
    let ending = wait_bounded(&mut child, call.deadline, stop).await;
    let grace = std::time::Duration::from_millis(200);
    let line = match tokio::time::timeout(grace, &mut receiver).await {
        Ok(Ok(line)) => line,
        _ => Vec::new(),
    };
    // A grandchild holding a stream open must not hold the run: what it writes later is not waited for.
    let _ = tokio::time::timeout(grace, pass_out).await;
    let _ = tokio::time::timeout(grace, pass_err).await;
    if let Some(stream) = flood.stream() {
        return failed(Flood::message(stream), contained);
    }
    match ending {
        Ending::Deadline => failed("the body passed the 30-second deadline and was stopped".into(), contained),
        Ending::Cancelled => {
            Ran { result: Err(Failure { message: "cancelled".into(), frames: Vec::new() }), contained, cancelled: true }
        }
        Ending::Exited(status) => {
            Ran { result: read_report(&String::from_utf8_lossy(&line), status), contained, cancelled: false }
        }
    }
}

fn read_report(line: &str, status: std::process::ExitStatus) -> Result<Output, Failure> {
    let report: serde_json::Value = match serde_json::from_str(line.trim()) {
        Ok(report) => report,
        Err(_) => {
            return Err(Failure { message: format!("the body ended without a result ({status})"), frames: Vec::new() });
        }
    };
    if let Some(ok) = report.get("ok") {
        let text = ok.get("text").and_then(|t| t.as_str()).unwrap_or_default().to_string();
        return Ok(Output { text, data: ok.get("data").cloned() });
    }
    let error = report.get("error").cloned().unwrap_or_default();
    let message = error.get("message").and_then(|m| m.as_str()).unwrap_or("the body failed").to_string();
    let frames = error
        .get("frames")
        .and_then(|f| f.as_array())
        .map(|f| f.iter().filter_map(|l| l.as_str().map(str::to_string)).collect())
        .unwrap_or_default();
    Err(Failure { message, frames })
}

/// Keeps Node's major version under `path`, best effort. The old file is removed and a new one created
/// exclusively, 0600 in a 0700 folder: a symlink planted at the name is replaced, never written through.
fn remember(path: &Path, major: u32) {
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
    if let Some(dir) = path.parent() {
        let _ = std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir);
    }
    let _ = std::fs::remove_file(path);
    let file = std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(path);
    if let Ok(mut file) = file {
        let _ = file.write_all(major.to_string().as_bytes());
    }
}
