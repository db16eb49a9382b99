//! Sinks: where an effect's receipt goes. `http` posts the receipt as JSON with an `Idempotency-Key`
//! header (a receiver that honours it makes delivery exactly-once); `slack` posts an incoming-webhook
//! message; `file` appends JSON lines and syncs them; `reflex` runs an evoke reflex by name through the
//! `evoke` program, under evoke's own body runner and effect gate.

use crate::config::{Config, HttpConfig, ReflexConfig, SinkConfig};
use crate::error::Error;
use crate::store::Intent;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// What became of one delivery.
#[derive(Debug, Clone, PartialEq)]
pub enum Delivered {
    /// The receiver took it (for an HTTP sink, answered 2xx): the receipt is marked `done`.
    Done,
    /// The receiver took it and answered something (an HTTP sink's 2xx body: JSON, else its text): as
    /// `Done`, and the answer goes back into the log in the action's `receipt` event.
    Answered(Value),
    /// A failure that may pass (a connection refused, a timeout, a 5xx, a 429): tried again later.
    Retry(String),
    /// A refusal that will not pass by itself (a 4xx, a 3xx redirect, a reflex that needs a person): held,
    /// never re-sent by itself.
    Held(String),
    /// Not sent: the sink failed on another receipt of the same call, so this one waits for the sweep
    /// without counting as a try.
    PutOff,
}

pub trait Sink: Send {
    /// Whether one call of [`Sink::deliver`] may take many receipts (a file syncs once for all).
    fn batches(&self) -> bool {
        false
    }
    /// Whether the sink's effect is not idempotent by key, so a delivery that may have acted must never
    /// be made again: the host marks each receipt before handing it over, and holds for a person one it
    /// finds marked (a run whose end was never recorded).
    fn at_most_once(&self) -> bool {
        false
    }
    /// Delivers receipts, one result each, in order.
    fn deliver(&mut self, items: &[&Intent]) -> Vec<Delivered>;
}

/// The sinks of a configuration, and which capability goes to which.
pub struct Sinks {
    by_name: BTreeMap<String, Box<dyn Sink>>,
    capabilities: BTreeMap<String, String>,
}

impl Sinks {
    pub fn from_config(config: &Config) -> Result<Sinks, Error> {
        let mut by_name: BTreeMap<String, Box<dyn Sink>> = BTreeMap::new();
        for (name, sink) in &config.sinks {
            let built: Box<dyn Sink> = match sink {
                SinkConfig::Http(h) => Box::new(Http::new(name, h, Format::Receipt, config)?),
                SinkConfig::Slack(h) => Box::new(Http::new(name, h, Format::Slack, config)?),
                SinkConfig::File { path } => Box::new(FileSink::new(config.resolve(path))),
                SinkConfig::Reflex(r) => Box::new(Reflex::new(&config.resolved_reflex(name, r)?)),
            };
            by_name.insert(name.clone(), built);
        }
        Ok(Sinks { by_name, capabilities: config.capabilities.clone() })
    }

    /// Sinks given directly, for tests and embedding.
    pub fn new(by_name: BTreeMap<String, Box<dyn Sink>>, capabilities: BTreeMap<String, String>) -> Sinks {
        Sinks { by_name, capabilities }
    }

    /// The sink's name for a capability.
    pub fn route(&self, capability: &str) -> Option<&str> {
        self.capabilities.get(capability).map(String::as_str)
    }

    pub fn get_mut(&mut self, name: &str) -> Option<&mut Box<dyn Sink>> {
        self.by_name.get_mut(name)
    }
}

/// Which body an HTTP sink posts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `{ "idempotency_key", "capability", "receipt" }`.
    Receipt,
    /// A Slack incoming webhook's `{ "text" }`.
    Slack,
}

/// The delay before try `n` (1-based, n ≥ 2): exponential from 100 ms, capped at 2 s, with half of it
/// jittered so that many senders kept out by one outage do not come back at once.
pub fn backoff(n: u32) -> Duration {
    let base = 100u64.saturating_mul(1 << (n.saturating_sub(2)).min(10)).min(2_000);
    Duration::from_millis(base / 2 + fastrand::u64(0..=base / 2))
}

pub struct Http {
    name: String,
    url: String,
    secret: Option<String>,
    /// What must never reach the store, a log or `/metrics`: the bearer token, and the address when it
    /// came from `url_env` (an incoming webhook's address is itself a secret).
    secrets: Vec<String>,
    format: Format,
    attempts: u32,
    in_flight: usize,
    agent: reqwest::blocking::Client,
}

impl Http {
    pub fn new(name: &str, h: &HttpConfig, format: Format, config: &Config) -> Result<Http, Error> {
        let env = |var: &str, what: &str| {
            std::env::var(var).map_err(|_| Error::Config {
                file: config.file.clone(),
                message: format!("[sinks.{name}] {what} names the variable {var}, which is not set"),
                fix: format!("export {var} before starting"),
            })
        };
        let url = match (&h.url, &h.url_env) {
            (Some(url), _) => url.clone(),
            (None, Some(var)) => env(var, "url_env")?,
            (None, None) => unreachable!("checked when read"),
        };
        let secret = match &h.secret_env {
            Some(var) => Some(env(var, "secret_env")?),
            None => None,
        };
        let mut secrets: Vec<String> = secret.iter().cloned().collect();
        if h.url_env.is_some() && h.url.is_none() {
            secrets.push(url.clone());
        }
        let timeout = Duration::from_millis(h.timeout_ms.unwrap_or(5_000));
        let in_flight = h.in_flight.unwrap_or(match format {
            Format::Receipt => 8,
            Format::Slack => 1,
        });
        // Each lane keeps its connection between batches. No redirect is followed (the runtime's builder).
        let agent = expresso_runtime::http::builder()
            .connect_timeout(timeout)
            .timeout(timeout)
            .pool_max_idle_per_host(in_flight)
            .build()
            .map_err(|e| Error::Config {
                file: config.file.clone(),
                message: format!("[sinks.{name}] the HTTP client cannot be set up: {}", e.without_url()),
                fix: "check the system's TLS setup".to_string(),
            })?;
        Ok(Http {
            name: name.to_string(),
            url,
            secret,
            secrets,
            format,
            attempts: h.attempts.unwrap_or(3),
            in_flight,
            agent,
        })
    }

    fn body(&self, item: &Intent) -> Value {
        match self.format {
            Format::Receipt => {
                json!({ "idempotency_key": item.key, "capability": item.capability, "receipt": item.receipt })
            }
            Format::Slack => json!({ "text": slack_text(&item.receipt) }),
        }
    }

    fn once(&self, item: &Intent) -> Delivered {
        // A key that cannot be a header value (an event id from before ingest refused such ids) would be
        // refused the same way on every try: it is held, not retried.
        if !travels_as_header(&item.key) {
            return Delivered::Held(format!(
                "sink {}: the key cannot be sent as an Idempotency-Key header (it holds a character other than printable ASCII)",
                self.name
            ));
        }
        let mut request =
            self.agent.post(&self.url).header("Content-Type", "application/json").header("Idempotency-Key", &item.key);
        if let Some(secret) = &self.secret {
            request = request.header("Authorization", format!("Bearer {secret}"));
        }
        let answer = match request.body(self.body(item).to_string()).send() {
            Ok(answer) => answer,
            // An address that does not parse, or names a scheme the client does not speak, stays so.
            Err(e) if !expresso_runtime::http::transient(&e) => return Delivered::Held(self.transport_error(&e)),
            Err(e) => return Delivered::Retry(self.transport_error(&e)),
        };
        match answer.status().as_u16() {
            200..300 => taken(answer),
            // Only a 2xx is a delivery. The client follows no redirect and hands a 3xx back as an answer:
            // the receipt was not taken where it was sent, and sending it where the answer points is the
            // operator's call, so it is held. The reason names the status, never the `Location` (it may
            // carry a webhook's secret path).
            code @ 300..400 => Delivered::Held(format!(
                "sink {}: HTTP {code}, a redirect: not followed and not delivered (point the sink at the address the receiver answers 2xx at)",
                self.name
            )),
            code @ (408 | 429 | 500..) => Delivered::Retry(format!("sink {}: HTTP {code}", self.name)),
            code @ 400.. => Delivered::Held(format!("sink {}: HTTP {code}", self.name)),
            code => Delivered::Held(format!("sink {}: HTTP {code}, not a 2xx: not delivered", self.name)),
        }
    }

    /// A transport failure in words that hold no secret. The client's own text names the whole address
    /// (with a webhook's secret path) and its causes may repeat the host, so only the kind of failure and
    /// the system's reason (the innermost cause) are kept; the sink's name says which receiver it was.
    /// What is left is scrubbed of the secrets all the same.
    fn transport_error(&self, e: &reqwest::Error) -> String {
        let kind = if e.is_builder() {
            "Bad URL"
        } else if e.is_timeout() {
            "Timed out"
        } else if e.is_connect() {
            "Connection Failed"
        } else {
            "Network Error"
        };
        let mut text = format!("sink {}: {kind}", self.name);
        let mut cause = std::error::Error::source(e);
        let mut root = None;
        while let Some(c) = cause {
            root = Some(c);
            cause = c.source();
        }
        if let Some(root) = root {
            text.push_str(&format!(": {root}"));
        }
        redact(&text, &self.secrets)
    }

    /// One receipt, tried up to `attempts` times while the failure may pass.
    fn with_retries(&self, item: &Intent) -> Delivered {
        let mut last = Delivered::Retry("not tried".into());
        for n in 1..=self.attempts {
            if n > 1 {
                std::thread::sleep(backoff(n));
            }
            last = self.once(item);
            if !matches!(last, Delivered::Retry(_)) {
                break;
            }
        }
        last
    }
}

impl Sink for Http {
    /// A batch goes out `in_flight` receipts at a time (each on a thread of its own, all sharing the
    /// agent's connections), so a batch's time is its slowest lane's rather than the sum of its round
    /// trips. Once one receipt fails in a way that may pass, the ones not yet started are put off: a
    /// receiver that is down is not asked again for each of them.
    fn batches(&self) -> bool {
        true
    }

    fn deliver(&mut self, items: &[&Intent]) -> Vec<Delivered> {
        let lanes = self.in_flight.clamp(1, items.len().max(1));
        let failed = AtomicBool::new(false);
        let next = AtomicUsize::new(0);
        let results: Vec<Mutex<Delivered>> = items.iter().map(|_| Mutex::new(Delivered::PutOff)).collect();
        let lane = || {
            loop {
                let k = next.fetch_add(1, Ordering::SeqCst);
                if k >= items.len() || failed.load(Ordering::SeqCst) {
                    return;
                }
                let outcome = self.with_retries(items[k]);
                if matches!(outcome, Delivered::Retry(_)) {
                    failed.store(true, Ordering::SeqCst);
                }
                *results[k].lock().unwrap_or_else(|e| e.into_inner()) = outcome;
            }
        };
        if lanes == 1 {
            lane();
        } else {
            std::thread::scope(|scope| {
                for _ in 0..lanes {
                    // A thread the system refuses is a lane fewer, run here: never a panic of the worker.
                    if std::thread::Builder::new().spawn_scoped(scope, lane).is_err() {
                        lane();
                    }
                }
            });
        }
        results.into_iter().map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner())).collect()
    }
}

/// A 2xx answer: its body, read up to one byte past [`crate::feedback::MAX_ANSWER_BYTES`] (a longer one
/// is not kept, and its `receipt` event says so), as JSON when it reads as JSON, else as text. An empty
/// body, or one that cannot be read, is a delivery without an answer.
fn taken(answer: reqwest::blocking::Response) -> Delivered {
    use std::io::Read;
    let mut body = Vec::new();
    let limit = crate::feedback::MAX_ANSWER_BYTES as u64 + 1;
    if answer.take(limit).read_to_end(&mut body).is_err() || body.is_empty() {
        return Delivered::Done;
    }
    match serde_json::from_slice::<Value>(&body) {
        Ok(value) => Delivered::Answered(value),
        Err(_) => Delivered::Answered(Value::String(String::from_utf8_lossy(&body).into_owned())),
    }
}

/// The text with every occurrence of each secret replaced by `[redacted]`.
pub fn redact(text: &str, secrets: &[String]) -> String {
    let mut out = text.to_string();
    for secret in secrets.iter().filter(|s| !s.is_empty()) {
        out = out.replace(secret.as_str(), "[redacted]");
    }
    out
}

/// Whether a value can be sent as an HTTP header value: printable ASCII and spaces, as the client checks.
pub fn travels_as_header(value: &str) -> bool {
    value.bytes().all(|b| matches!(b, b' ' | b'\t' | 0x21..=0x7e))
}

/// The message a Slack-style incoming webhook shows for a receipt.
pub fn slack_text(receipt: &Value) -> String {
    let arg = |k: &str| receipt.pointer(&format!("/args/{k}")).and_then(Value::as_str).unwrap_or("").to_string();
    let agent = receipt.get("agent").and_then(Value::as_str).unwrap_or("");
    let verb = receipt.get("verb").and_then(Value::as_str).unwrap_or("");
    let text = match verb {
        "say" | "reply" | "message.send" => arg("text"),
        "react" => arg("emoji"),
        "notify" | "notify.send" => format!("@{}: {}", arg("to"), arg("text")),
        "create_task" | "tasks.create" => {
            let mut t = format!("New task: {}", arg("title"));
            if !arg("assignee").is_empty() {
                t.push_str(&format!(" (assignee {})", arg("assignee")));
            }
            if !arg("due").is_empty() {
                t.push_str(&format!(" (due {})", arg("due")));
            }
            t
        }
        "create_note" | "notes.create" => format!("Note: {}\n{}", arg("title"), arg("body")),
        _ => receipt.get("args").map(Value::to_string).unwrap_or_default(),
    };
    if agent.is_empty() { text } else { format!("[{agent}] {text}") }
}

/// JSON lines, one per receipt, synced before the delivery counts as done. A crash between the sync and
/// the `done` mark writes the line again on recovery (at least once); each line carries its key, so a
/// reader keeps the first line of each key.
///
/// A write that fails part way (a full disk) leaves part of a line. The file is cut back to its length
/// before the write, so the retry's line is not glued to a fragment; and should the cut fail too, the
/// next write starts on a fresh line, so a fragment can spoil only itself. A write counts as done only
/// once the file has grown by exactly what was written and reads back as written.
pub struct FileSink {
    path: PathBuf,
}

impl FileSink {
    pub fn new(path: PathBuf) -> FileSink {
        FileSink { path }
    }

    /// Appends `text` (whole lines), synced and read back; on any failure the file is cut back.
    fn append(&self, text: &[u8]) -> std::io::Result<()> {
        use std::os::unix::fs::FileExt;
        let mut file = std::fs::OpenOptions::new().create(true).read(true).append(true).open(&self.path)?;
        // Other writers may append to the same file at once (each Postgres partition has its own sinks,
        // and workers on one machine may share the file): the write and its check hold an exclusive lock
        // on the file, released when it is closed, so no writer's check cuts off another's line.
        {
            use std::os::fd::AsRawFd;
            // SAFETY: flock(2) on a descriptor this function owns; it has no memory-safety preconditions.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } != 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
        let before = file.metadata()?.len();
        let mut last = [b'\n'];
        if before > 0 {
            file.read_exact_at(&mut last, before - 1)?;
        }
        let mut bytes = Vec::with_capacity(text.len() + 1);
        if last[0] != b'\n' {
            bytes.push(b'\n');
        }
        bytes.extend_from_slice(text);
        let written = (|| -> std::io::Result<()> {
            file.write_all(&bytes)?;
            file.sync_data()?;
            let after = file.metadata()?.len();
            if after != before + bytes.len() as u64 {
                return Err(std::io::Error::other(format!(
                    "the file is {after} bytes after the write, not {}",
                    before + bytes.len() as u64
                )));
            }
            let mut back = vec![0u8; bytes.len()];
            file.read_exact_at(&mut back, before)?;
            if back != bytes {
                return Err(std::io::Error::other("the lines do not read back as written"));
            }
            Ok(())
        })();
        if let Err(e) = written {
            return Err(match file.set_len(before).and_then(|()| file.sync_data()) {
                Ok(()) => e,
                Err(cut) => std::io::Error::new(
                    e.kind(),
                    format!(
                        "{e}; the part written could not be cut off ({cut}): the next write starts on a fresh line"
                    ),
                ),
            });
        }
        Ok(())
    }
}

pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

impl Sink for FileSink {
    fn batches(&self) -> bool {
        true
    }

    fn deliver(&mut self, items: &[&Intent]) -> Vec<Delivered> {
        let at = now_ms();
        let mut text = String::new();
        for item in items {
            let line = json!({
                "idempotency_key": item.key,
                "capability": item.capability,
                "receipt": item.receipt,
                "written_ms": at,
            });
            text.push_str(&line.to_string());
            text.push('\n');
        }
        let outcome = match self.append(text.as_bytes()) {
            Ok(()) => Delivered::Done,
            Err(e) => Delivered::Retry(format!("{}: {e}", self.path.display())),
        };
        vec![outcome; items.len()]
    }
}

/// Runs `evoke run NAME key=value…` with stdin closed, so evoke's effect gate holds: a destructive reflex
/// asks for a person, finds no terminal and exits 3, and the receipt is held for a person.
///
/// A reflex's effect is not idempotent by key, so a run that may have acted is never made again: a
/// failure after the body could have run (exit 1, a timeout, a signal) is held for a person. Only what
/// evoke reports as stopping before anything ran (2: its command line or project could not be read; 6:
/// refused before anything ran) or a failure to start evoke at all is tried again, with backoff.
pub struct Reflex {
    config: ReflexConfig,
}

/// How much of evoke's stderr is kept for the receipt's reason; the rest is read and dropped, so a
/// talkative body never fills the pipe and blocks.
const STDERR_KEPT: usize = 4_096;
/// How long the pipes are still read after evoke exits, for what a process it left behind still holds
/// open; then they are closed.
const PIPE_GRACE: Duration = Duration::from_secs(1);

/// How one run of evoke ended.
enum Ran {
    Exited(std::process::ExitStatus),
    TimedOut,
}

impl Reflex {
    pub fn new(config: &ReflexConfig) -> Reflex {
        Reflex { config: config.clone() }
    }

    /// The `key=value` arguments from a receipt's args.
    pub fn values(&self, receipt: &Value) -> Vec<String> {
        let args = receipt.get("args").and_then(Value::as_object).cloned().unwrap_or_default();
        let text = |v: &Value| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        match &self.config.args {
            Some(map) => map
                .iter()
                .filter_map(|(key, from)| args.get(from).filter(|v| !v.is_null()).map(|v| format!("{key}={}", text(v))))
                .collect(),
            None => args.iter().filter(|(_, v)| !v.is_null()).map(|(k, v)| format!("{k}={}", text(v))).collect(),
        }
    }

    fn once(&self, item: &Intent) -> Delivered {
        use std::os::unix::process::CommandExt;
        let program = self.config.evoke.clone().unwrap_or_else(|| PathBuf::from("evoke"));
        let timeout = Duration::from_millis(self.config.timeout_ms.unwrap_or(60_000));
        let mut command = Command::new(&program);
        if let Some(project) = &self.config.project {
            // evoke reads that project and no other: without `-C` it would look upward from the folder, and
            // then in the home project, for a reflex of the same name.
            command.arg("-C").arg(project);
        }
        let spawned = command
            .arg("run")
            .arg(&self.config.reflex)
            .args(self.values(&item.receipt))
            .env("EXPRESSO_IDEMPOTENCY_KEY", &item.key)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // A group of its own, so a timeout stops evoke and whatever it started, and nothing of it is
            // left holding the pipes.
            .process_group(0)
            .spawn();
        let mut child = match spawned {
            Ok(child) => child,
            // A NUL in an argument or in the key is refused by the system the same way every time.
            Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
                return Delivered::Held(format!("cannot run {}: {e}", program.display()));
            }
            Err(e) => return Delivered::Retry(format!("cannot run {}: {e}", program.display())),
        };
        let what = format!("evoke run {}", self.config.reflex);
        let (ran, stderr) = match run_reading(&mut child, timeout) {
            Ok(ran) => ran,
            Err(e) => {
                kill_group(&mut child);
                return Delivered::Held(format!("{what}: lost track of the run ({e}); it may have acted"));
            }
        };
        let said = String::from_utf8_lossy(&stderr).lines().next().unwrap_or("").to_string();
        let status = match ran {
            Ran::Exited(status) => status,
            Ran::TimedOut => {
                return Delivered::Held(format!(
                    "{what}: stopped after {timeout:?}; it may have acted, so it is held for a person ({said})"
                ));
            }
        };
        match status.code() {
            Some(0) => Delivered::Done,
            Some(2) => Delivered::Retry(format!("{what}: could not read its command line or project ({said})")),
            Some(6) => Delivered::Retry(format!("{what}: refused before anything ran ({said})")),
            Some(3) => Delivered::Held(format!("{what}: a person is needed to confirm ({said})")),
            Some(4) => Delivered::Held(format!("{what}: nothing installed does what was asked ({said})")),
            Some(5) => Delivered::Held(format!("{what}: declined ({said})")),
            _ => Delivered::Held(format!(
                "{what}: failed, {status}; it may have acted, so it is held for a person ({said})"
            )),
        }
    }
}

/// Kills the child's process group (evoke and whatever it started) and reaps the child.
fn kill_group(child: &mut std::process::Child) {
    // SAFETY: a plain system call; the group is the child's own (spawned with `process_group(0)`), and
    // the child is not reaped yet, so its id still names it.
    unsafe {
        libc::kill(-(child.id() as libc::pid_t), libc::SIGKILL);
    }
    let _ = child.wait();
}

/// Waits for the child at most `timeout`, reading its stdout and stderr all the while: stdout is dropped,
/// the first [`STDERR_KEPT`] bytes of stderr are kept. On a timeout the child's group is killed.
fn run_reading(child: &mut std::process::Child, timeout: Duration) -> std::io::Result<(Ran, Vec<u8>)> {
    use std::os::fd::AsRawFd;
    let mut stdout = child.stdout.take();
    let mut stderr = child.stderr.take();
    let mut kept = Vec::new();
    let mut buf = [0u8; 8_192];
    let start = Instant::now();
    let mut exited: Option<(std::process::ExitStatus, Instant)> = None;
    loop {
        if exited.is_none()
            && let Some(status) = child.try_wait()?
        {
            exited = Some((status, Instant::now()));
        }
        match exited {
            Some((status, at)) if (stdout.is_none() && stderr.is_none()) || at.elapsed() > PIPE_GRACE => {
                return Ok((Ran::Exited(status), kept));
            }
            None if start.elapsed() > timeout => {
                kill_group(child);
                return Ok((Ran::TimedOut, kept));
            }
            _ => {}
        }
        let fd = |raw: Option<i32>| libc::pollfd { fd: raw.unwrap_or(-1), events: libc::POLLIN, revents: 0 };
        let mut fds = [fd(stdout.as_ref().map(|p| p.as_raw_fd())), fd(stderr.as_ref().map(|p| p.as_raw_fd()))];
        // SAFETY: `fds` is a valid array of `fds.len()` pollfd; a negative fd is ignored by poll.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, 20) };
        if ready < 0 {
            let e = std::io::Error::last_os_error();
            if e.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        if fds[0].revents != 0
            && let Some(pipe) = stdout.as_mut()
        {
            // Readable or hung up: one read does not block. End of file closes the pipe.
            if read_some(pipe, &mut buf)? == 0 {
                stdout = None;
            }
        }
        if fds[1].revents != 0
            && let Some(pipe) = stderr.as_mut()
        {
            let n = read_some(pipe, &mut buf)?;
            if n == 0 {
                stderr = None;
            }
            let room = STDERR_KEPT.saturating_sub(kept.len());
            kept.extend_from_slice(&buf[..n.min(room)]);
        }
    }
}

/// One read, again when a signal interrupts it.
fn read_some(pipe: &mut impl std::io::Read, buf: &mut [u8]) -> std::io::Result<usize> {
    loop {
        match pipe.read(buf) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}

impl Sink for Reflex {
    fn at_most_once(&self) -> bool {
        true
    }

    fn deliver(&mut self, items: &[&Intent]) -> Vec<Delivered> {
        items.iter().map(|item| self.once(item)).collect()
    }
}
