//! `expresso serve`: events in over HTTP, exactly-once effects out.
//!
//! - `POST /events` takes one event envelope or a JSON array of them. Each is checked as a log line is
//!   (the envelope's fields, the type, the payload the type needs); one bad event refuses the whole
//!   request with 400 and the reason, and nothing of it is written. A body over the bound is 413. The
//!   reply comes once the events are committed to the log, durably (200, with how many were new and how
//!   many the log held already).
//! - Requests wait in a bounded queue for the one writer, which commits everything waiting in one
//!   transaction (a group commit). A full queue is 503; a log that has run too far ahead of the agents
//!   is 429. Both carry `Retry-After`.
//! - One processor runs the log through the write-ahead protocol, batch by batch.
//! - `GET /healthz` (the process answers), `GET /readyz` (recovery is over, the store is not failing and
//!   the backlog is within its bound; a firing's fault does not count), `GET /metrics` (Prometheus text).
//! - Each connection is bounded: its request's headers must arrive within the header timeout (so must the
//!   next request's on a kept-alive connection), an event body within the body timeout (else 408), an
//!   answer must be taken by the client within the write timeout (else the connection is closed: a
//!   client that sends requests and never reads the answers holds its slot no longer), and past the
//!   connection limit a new connection is answered 503 with `Retry-After` and closed, long before the
//!   process runs out of file descriptors. Pipelined requests are served one at a time: the next is not
//!   read while an answer waits to be written, so a connection queues no more than its read buffer holds.
//! - SIGINT or SIGTERM: stop taking requests, commit what was accepted, let the processor finish the batch
//!   in progress (its firing and its deliveries), and exit.

use crate::error::Error;
use crate::host::Host;
use crate::log_store::LogStore;
use crate::metrics::Metrics;
use crate::sinks::now_ms;
use crate::watermark::{Fate, Window};
use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use expresso_runtime::{Event, read_log};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::mpsc::{RecvTimeoutError, SyncSender, TryRecvError};
use std::thread::JoinHandle;
use std::time::Duration;
use tokio::sync::oneshot;

/// The bounds `serve` holds to.
#[derive(Debug, Clone)]
pub struct Limits {
    /// One request's body, in bytes.
    pub max_body: usize,
    /// Events in one request.
    pub max_events_per_request: usize,
    /// Requests waiting for the writer.
    pub queue: usize,
    /// Events in the log the agents have not run yet, past which new requests get 429.
    pub max_backlog: i64,
    /// Events committed per group commit, at most.
    pub max_group: usize,
    /// Connections open at once; past it a new one is answered 503 and closed. It is held to half the
    /// process's open-file limit, whatever is asked, so the store, the sinks and the refusals keep
    /// descriptors of their own.
    pub max_connections: usize,
    /// How long a request's headers may take to arrive, from the first byte asked for (on a kept-alive
    /// connection, from the end of the last answer): past it the connection is closed.
    pub header_timeout: Duration,
    /// How long an event body may take to arrive, once its headers are in: past it, 408 and the
    /// connection is closed.
    pub body_timeout: Duration,
    /// How long an answer may wait to be taken by the client (handed in full to the system's socket
    /// buffer): past it the connection is closed. A client that reads nothing holds its slot this long.
    pub write_timeout: Duration,
    /// The reorder window (`crate::watermark`): events are fired in event-time order within it.
    pub reorder: Window,
}

/// The write timeout unless one is asked: a client reading its answers at all takes one of this
/// server's small answers in far less.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_body: 1 << 20,
            max_events_per_request: 1_000,
            queue: 1_024,
            max_backlog: 100_000,
            max_group: 4_096,
            max_connections: 512,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            write_timeout: WRITE_TIMEOUT,
            reorder: Window::default(),
        }
    }
}

/// What `serve` drives: one thread owns it and does every write. A `Host` over one store, or a
/// Postgres worker holding the partitions it has leased.
pub trait Processor: Send + 'static {
    fn metrics(&self) -> Arc<Metrics>;
    /// Appends the requests' events to the log, in one transaction.
    fn append(&mut self, events: &[Event]) -> Result<Vec<bool>, Error>;
    fn last_seq(&mut self) -> Result<i64, Error>;
    /// Recovery at start: `intent` receipts sent again.
    fn recover(&mut self) -> Result<usize, Error>;
    /// Runs the next batch of the log; how many events it consumed.
    fn step(&mut self) -> Result<usize, Error>;
    /// The log position the processing has reached (for the backlog bound).
    fn cursor(&self) -> i64;
    fn next_retry_ms(&mut self) -> Result<Option<i64>, Error>;
    fn sweep(&mut self) -> Result<usize, Error>;
    /// How long the thread waits for a request when nothing was run. A process that owns its log is
    /// woken by its own requests; a worker sharing one must also look for events others appended.
    fn idle_wait(&self) -> Duration {
        Duration::from_millis(100)
    }
    /// Takes the requests' events into the reorder window, in one transaction, releasing what it lets go
    /// at once; per event, its fate. A processor without a window appends them as they come.
    fn ingest(&mut self, events: &[Event], _window: Window) -> Result<Vec<Fate>, Error> {
        let new = self.append(events)?;
        Ok(new.into_iter().map(|n| if n { Fate::New } else { Fate::Duplicate }).collect())
    }
    /// Releases to the log what the reorder window lets go now; how many events.
    fn release(&mut self, _window: Window) -> Result<usize, Error> {
        Ok(0)
    }
}

impl<S: LogStore + 'static> Processor for Host<S> {
    fn metrics(&self) -> Arc<Metrics> {
        self.metrics.clone()
    }
    fn append(&mut self, events: &[Event]) -> Result<Vec<bool>, Error> {
        self.db_mut().append(events)
    }
    fn last_seq(&mut self) -> Result<i64, Error> {
        self.db_mut().last_seq()
    }
    fn recover(&mut self) -> Result<usize, Error> {
        Host::recover(self)
    }
    fn step(&mut self) -> Result<usize, Error> {
        self.step_batch()
    }
    fn cursor(&self) -> i64 {
        Host::cursor(self)
    }
    fn next_retry_ms(&mut self) -> Result<Option<i64>, Error> {
        Host::next_retry_ms(self)
    }
    fn sweep(&mut self) -> Result<usize, Error> {
        Host::sweep(self)
    }
    fn ingest(&mut self, events: &[Event], window: Window) -> Result<Vec<Fate>, Error> {
        self.db_mut().stage(events, window, now_ms())
    }
    fn release(&mut self, window: Window) -> Result<usize, Error> {
        self.db_mut().release(window, now_ms())
    }
}

/// Each request's answer: which of its events are new, or the group commit's failure in the words its
/// response carries (one failure answers every request of the group).
type Reply = oneshot::Sender<Result<Vec<Fate>, String>>;

struct Shared {
    queue: SyncSender<(Vec<Event>, Reply)>,
    metrics: Arc<Metrics>,
    limits: Limits,
    ready: Arc<AtomicBool>,
    last_seq: Arc<AtomicI64>,
    cursor: Arc<AtomicI64>,
}

/// Why the server stopped other than asked: its runtime, its listener or its signals could not be set
/// up, serving failed, or its thread panicked.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The runtime, the listener or the signal handler could not be set up, or serving failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("the server thread panicked")]
    Panicked,
}

/// A body of events refused before anything is committed.
#[derive(Debug, thiserror::Error)]
pub enum BodyRefused {
    #[error("the body is not JSON: {0}")]
    NotJson(serde_json::Error),
    #[error("the body is neither an event object nor an array of events")]
    NotEvents,
    #[error("the array holds no event")]
    Empty,
    #[error("{count} events in one request, more than {max}")]
    TooMany { count: usize, max: usize },
    /// The first bad event, by its index in the body, and why.
    #[error("event {index}: {reason}")]
    Event { index: usize, reason: String },
}

/// A running server.
pub struct Running {
    pub addr: SocketAddr,
    pub metrics: Arc<Metrics>,
    pub ready: Arc<AtomicBool>,
    shutdown: Option<oneshot::Sender<()>>,
    server: Option<JoinHandle<Result<(), ServerError>>>,
}

impl Running {
    /// Stops gracefully: no new requests, accepted ones committed, the batch in progress finished.
    pub fn stop(mut self) -> Result<(), ServerError> {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        self.join()
    }

    /// Waits until the server stops (by a signal, when started with signals).
    pub fn join(mut self) -> Result<(), ServerError> {
        match self.server.take() {
            Some(h) => h.join().map_err(|_| ServerError::Panicked)?,
            None => Ok(()),
        }
    }
}

/// Starts serving on `listen`. One thread owns the store and does every write: it commits what the
/// requests bring (all that waits, in one transaction), then runs the next batch of the log, and again;
/// so the log's commits and the protocol's never wait on each other's locks.
pub fn start<P: Processor>(mut host: P, listen: SocketAddr, limits: Limits, signals: bool) -> Result<Running, Error> {
    let metrics = host.metrics();
    let ready = Arc::new(AtomicBool::new(false));
    let last_seq = Arc::new(AtomicI64::new(host.last_seq().unwrap_or(0)));
    let cursor = Arc::new(AtomicI64::new(0));
    let stop = Arc::new(AtomicBool::new(false));

    let listener =
        std::net::TcpListener::bind(listen).map_err(|e| Error::Store(format!("cannot listen on {listen}: {e}")))?;
    listener.set_nonblocking(true).map_err(|e| Error::Store(e.to_string()))?;
    let addr = listener.local_addr().map_err(|e| Error::Store(e.to_string()))?;

    let (queue, rx) = std::sync::mpsc::sync_channel::<(Vec<Event>, Reply)>(limits.queue.max(1));
    let worker = {
        let (ready, cursor, stop, last_seq) = (ready.clone(), cursor.clone(), stop.clone(), last_seq.clone());
        let (metrics, max_group, window) = (metrics.clone(), limits.max_group, limits.reorder);
        std::thread::spawn(move || {
            let mut pause = Duration::from_millis(100);
            // Recovery first; requests wait in the queue meanwhile.
            while let Err(e) = host.recover() {
                eprintln!("expresso serve: recovery: {e}");
                if stop.load(Ordering::SeqCst) {
                    return;
                }
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_secs(5));
            }
            cursor.store(host.cursor(), Ordering::SeqCst);
            ready.store(true, Ordering::SeqCst);
            let mut waiting: Vec<(Vec<Event>, Reply)> = Vec::new();
            let mut open = true;
            let mut faulted_until: Option<std::time::Instant> = None;
            loop {
                // Everything the requests brought, in one transaction.
                let mut count: usize = waiting.iter().map(|(e, _)| e.len()).sum();
                while open && count < max_group {
                    match rx.try_recv() {
                        Ok(next) => {
                            count += next.0.len();
                            waiting.push(next);
                        }
                        Err(TryRecvError::Empty) => break,
                        Err(TryRecvError::Disconnected) => open = false,
                    }
                }
                let took = !waiting.is_empty();
                if took {
                    commit_requests(&mut host, std::mem::take(&mut waiting), &metrics, &last_seq, window);
                }
                // What the reorder window lets go by now (a quiet partition's events, once settled).
                match host.release(window) {
                    Ok(0) => {}
                    Ok(_) => {
                        if let Ok(seq) = host.last_seq() {
                            last_seq.store(seq, Ordering::SeqCst);
                        }
                    }
                    Err(e) => eprintln!("expresso serve: the reorder window: {e}"),
                }
                if !open || stop.load(Ordering::SeqCst) {
                    return;
                }
                // The next batch, unless a fault is pausing the log.
                let mut consumed = 0;
                if faulted_until.is_none_or(|t| std::time::Instant::now() >= t) {
                    match host.step() {
                        Ok(n) => {
                            consumed = n;
                            pause = Duration::from_millis(100);
                            faulted_until = None;
                            ready.store(true, Ordering::SeqCst);
                        }
                        Err(e) => {
                            eprintln!("expresso serve: {e}");
                            // A firing's fault is the firing's: the host tries it again and parks it
                            // past its bound, so it leaves the process ready. Any fault pauses the log.
                            if !matches!(e, Error::Runtime(_)) {
                                ready.store(false, Ordering::SeqCst);
                            }
                            faulted_until = Some(std::time::Instant::now() + pause);
                            pause = (pause * 2).min(Duration::from_secs(5));
                        }
                    }
                    cursor.store(host.cursor(), Ordering::SeqCst);
                }
                let now = now_ms();
                let next = host.next_retry_ms().ok().flatten();
                if next.is_some_and(|t| t <= now)
                    && let Err(e) = host.sweep()
                {
                    eprintln!("expresso serve: {e}");
                }
                if consumed == 0 && !took {
                    let idle = host.idle_wait().as_millis().max(1) as i64;
                    let wait = next.map_or(idle, |t| (t - now).clamp(1, idle)) as u64;
                    match rx.recv_timeout(Duration::from_millis(wait)) {
                        Ok(first) => waiting.push(first),
                        Err(RecvTimeoutError::Timeout) => {}
                        Err(RecvTimeoutError::Disconnected) => open = false,
                    }
                }
            }
        })
    };

    let bounds = Bounds {
        connections: connection_limit(limits.max_connections),
        header_timeout: limits.header_timeout,
        write_timeout: limits.write_timeout,
        metrics: metrics.clone(),
    };
    let shared = Arc::new(Shared { queue, metrics: metrics.clone(), limits, ready: ready.clone(), last_seq, cursor });
    let app = Router::new()
        .route("/events", post(events))
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics_text))
        .with_state(shared);

    let (shutdown_tx, shutdown_rx) = oneshot::channel::<()>();
    let stop_worker = stop.clone();
    let server = std::thread::spawn(move || -> Result<(), ServerError> {
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
        let served = runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener)?;
            let signal = async move {
                if signals {
                    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
                    tokio::select! {
                        _ = shutdown_rx => {}
                        _ = tokio::signal::ctrl_c() => {}
                        _ = term.recv() => {}
                    }
                } else {
                    let _ = shutdown_rx.await;
                }
                Ok::<(), std::io::Error>(())
            };
            accept(listener, app, bounds, async move {
                let _ = signal.await;
            })
            .await;
            Ok(())
        });
        // The router and its queue are gone: the worker commits what was accepted, finishes the batch in
        // progress, and ends.
        drop(runtime);
        stop_worker.store(true, Ordering::SeqCst);
        let _ = worker.join();
        served
    });
    Ok(Running { addr, metrics, ready, shutdown: Some(shutdown_tx), server: Some(server) })
}

/// What holds the connections to their bounds.
struct Bounds {
    connections: usize,
    header_timeout: Duration,
    write_timeout: Duration,
    metrics: Arc<Metrics>,
}

/// Connections being refused at once, at most (an eighth of the connection limit below that); past it a
/// connection over the limit is closed without an answer.
const REFUSING_AT_ONCE: usize = 64;
/// How long a refusal may take (its answer written, what the client sent read and dropped).
const REFUSAL_BOUND: Duration = Duration::from_secs(1);
/// How long a stop waits for the requests in progress to be answered.
const STOP_GRACE: Duration = Duration::from_secs(30);

/// The connection limit in force: what was asked, held to half the open-file limit.
pub fn connection_limit(asked: usize) -> usize {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: a plain system call writing into a valid rlimit.
    let files = if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0 {
        usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX)
    } else {
        1_024
    };
    asked.min(files / 2).max(1)
}

/// Takes connections until `stop`, each served under the header and write timeouts and holding one of
/// the limited slots; then lets the requests in progress finish, within [`STOP_GRACE`].
async fn accept(listener: tokio::net::TcpListener, app: Router, bounds: Bounds, stop: impl Future<Output = ()>) {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use hyper_util::service::TowerToHyperService;
    let slots = Arc::new(tokio::sync::Semaphore::new(bounds.connections));
    let refusing = Arc::new(tokio::sync::Semaphore::new((bounds.connections / 8).clamp(1, REFUSING_AT_ONCE)));
    let (closing, closing_rx) = tokio::sync::watch::channel(false);
    let mut tasks = tokio::task::JoinSet::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(bounds.header_timeout);
    tokio::pin!(stop);
    loop {
        let accepted = tokio::select! {
            _ = &mut stop => break,
            Some(_) = tasks.join_next(), if !tasks.is_empty() => continue,
            accepted = listener.accept() => accepted,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(_) => {
                // Out of descriptors, or the connection went before it was taken: a pause, not a spin.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            Metrics::add(&bounds.metrics.requests_refused, 1);
            if let Ok(turn) = refusing.clone().try_acquire_owned() {
                tasks.spawn(async move {
                    let _turn = turn;
                    let _ = tokio::time::timeout(REFUSAL_BOUND, refuse_connection(stream)).await;
                });
            }
            continue;
        };
        let _ = stream.set_nodelay(true);
        let stream = WriteBounded::new(stream, bounds.write_timeout);
        let connection = http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(app.clone()));
        let mut closing = closing_rx.clone();
        tasks.spawn(async move {
            let _slot = slot;
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => return,
                _ = closing.changed() => {}
            }
            // Stopping: the request in progress is answered, then the connection closes.
            connection.as_mut().graceful_shutdown();
            let _ = connection.await;
        });
    }
    drop(listener);
    let _ = closing.send(true);
    let _ = tokio::time::timeout(STOP_GRACE, async { while tasks.join_next().await.is_some() {} }).await;
}

/// A connection's stream whose output may not wait longer than the write timeout. hyper writes an answer
/// and does not read the next request until the answer is written, so a client that pipelines requests
/// and never reads keeps the connection waiting to write, past every read timeout, for as long as it
/// likes; with enough of them every slot is held. Here, once output has waited the write timeout without
/// being handed in full to the system (a flush that completes), the write fails with `TimedOut`, which
/// ends the connection and frees its slot. Progress in pieces does not restart the clock, only an answer
/// handed over whole does: a client must take each answer whole within the timeout.
struct WriteBounded<S> {
    inner: S,
    timeout: Duration,
    /// The deadline of the output waiting now, from its first write that could not proceed.
    waiting: Option<std::pin::Pin<Box<tokio::time::Sleep>>>,
}

impl<S> WriteBounded<S> {
    fn new(inner: S, timeout: Duration) -> WriteBounded<S> {
        WriteBounded { inner, timeout, waiting: None }
    }

    /// The write could not proceed: still waiting within the timeout, or failed past it. The deadline's
    /// timer wakes the connection, so a client that never reads is cut off even though the socket never
    /// becomes writable again.
    fn cannot_write<T>(&mut self, cx: &mut std::task::Context<'_>) -> std::task::Poll<std::io::Result<T>> {
        let timeout = self.timeout;
        let deadline = self.waiting.get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match deadline.as_mut().poll(cx) {
            std::task::Poll::Ready(()) => std::task::Poll::Ready(Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!("the client took no answer within {} ms", timeout.as_millis()),
            ))),
            std::task::Poll::Pending => std::task::Poll::Pending,
        }
    }
}

impl<S: tokio::io::AsyncRead + Unpin> tokio::io::AsyncRead for WriteBounded<S> {
    fn poll_read(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<S: tokio::io::AsyncWrite + Unpin> tokio::io::AsyncWrite for WriteBounded<S> {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        match std::pin::Pin::new(&mut this.inner).poll_write(cx, buf) {
            std::task::Poll::Pending => this.cannot_write(cx),
            written => written,
        }
    }

    fn poll_write_vectored(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        match std::pin::Pin::new(&mut this.inner).poll_write_vectored(cx, bufs) {
            std::task::Poll::Pending => this.cannot_write(cx),
            written => written,
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    /// hyper flushes once an answer's bytes are all written: the output waits no more.
    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let this = self.get_mut();
        match std::pin::Pin::new(&mut this.inner).poll_flush(cx) {
            std::task::Poll::Pending => this.cannot_write(cx),
            flushed => {
                if matches!(flushed, std::task::Poll::Ready(Ok(()))) {
                    this.waiting = None;
                }
                flushed
            }
        }
    }

    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let this = self.get_mut();
        match std::pin::Pin::new(&mut this.inner).poll_shutdown(cx) {
            std::task::Poll::Pending => this.cannot_write(cx),
            done => done,
        }
    }
}

/// The answer to a connection over the limit.
const TOO_MANY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 1\r\nconnection: close\r\ncontent-length: 37\r\n\r\n{\"error\":\"too many open connections\"}";

/// Answers 503 and closes. What the client sent is read and dropped first: closing a socket with unread
/// bytes resets the connection, which can destroy the answer before the client reads it.
async fn refuse_connection(stream: tokio::net::TcpStream) -> std::io::Result<()> {
    let mut written = 0;
    while written < TOO_MANY.len() {
        stream.writable().await?;
        match stream.try_write(&TOO_MANY[written..]) {
            Ok(n) => written += n,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(e),
        }
    }
    let stream = stream.into_std()?;
    stream.shutdown(std::net::Shutdown::Write)?;
    let stream = tokio::net::TcpStream::from_std(stream)?;
    let mut buf = [0u8; 4_096];
    let mut read = 0;
    while read < 64 * 1_024 {
        stream.readable().await?;
        match stream.try_read(&mut buf) {
            Ok(0) => break,
            Ok(n) => read += n,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Commits the requests' events to the log in one transaction and answers each request.
fn commit_requests<P: Processor>(
    host: &mut P,
    group: Vec<(Vec<Event>, Reply)>,
    metrics: &Metrics,
    last_seq: &AtomicI64,
    window: Window,
) {
    let all: Vec<Event> = group.iter().flat_map(|(events, _)| events.iter().cloned()).collect();
    let clock = std::time::Instant::now();
    let appended = host.ingest(&all, window);
    Metrics::time(&metrics.ingest_commit_us, clock);
    Metrics::add(&metrics.ingest_commits, 1);
    match appended {
        Ok(new) => {
            if let Ok(seq) = host.last_seq() {
                last_seq.store(seq, Ordering::SeqCst);
            }
            let mut at = 0;
            for (events, reply) in group {
                let _ = reply.send(Ok(new[at..at + events.len()].to_vec()));
                at += events.len();
            }
        }
        Err(e) => {
            for (_, reply) in group {
                let _ = reply.send(Err(e.to_string()));
            }
        }
    }
}

fn refuse(status: StatusCode, reason: String) -> Response {
    let mut response = (status, axum::Json(json!({ "error": reason }))).into_response();
    if status == StatusCode::TOO_MANY_REQUESTS || status == StatusCode::SERVICE_UNAVAILABLE {
        response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    }
    response
}

/// The id prefixes of the events the host writes itself: receipts and an agent's own words
/// (`crate::feedback`) and the timers' due times (`crate::timers`).
pub const HOST_IDS: [&str; 3] = ["receipt|", "said|", "timer:"];

/// Checks every event of a body as a line of the log; the first bad one refuses the whole body.
pub fn parse_events(bytes: &[u8], max_events: usize) -> Result<Vec<Event>, BodyRefused> {
    let value: Value = serde_json::from_slice(bytes).map_err(BodyRefused::NotJson)?;
    let items = match value {
        Value::Array(items) => items,
        Value::Object(_) => vec![value],
        _ => return Err(BodyRefused::NotEvents),
    };
    if items.is_empty() {
        return Err(BodyRefused::Empty);
    }
    if items.len() > max_events {
        return Err(BodyRefused::TooMany { count: items.len(), max: max_events });
    }
    let mut events = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let line = item.to_string();
        match read_log(&line) {
            // A receipt is the host's to write (`crate::feedback`): one sent in would fire an agent's
            // `on receipt` for an action its sink never answered.
            Ok(one) if one.len() == 1 && one[0].kind == expresso_runtime::EventType::Receipt => {
                return Err(BodyRefused::Event {
                    index: i,
                    reason: "a `receipt` event is written by the host when a sink takes an action's receipt; it cannot be sent in (send the event the action answered instead)".into(),
                });
            }
            // The ids the host gives what it writes itself (an agent's own words, a timer's due time) are
            // its own too: an event sent in holding one would keep the host's out of the log.
            Ok(one) if one.len() == 1 && HOST_IDS.iter().any(|prefix| one[0].id.starts_with(prefix)) => {
                return Err(BodyRefused::Event {
                    index: i,
                    reason: format!(
                        "the id `{}` is of a kind the host gives the events it writes itself ({}); it cannot be sent in (give the event an id of its source)",
                        one[0].id.chars().take(64).collect::<String>(),
                        HOST_IDS.join(", ")
                    ),
                });
            }
            Ok(mut one) if one.len() == 1 => events.push(one.remove(0)),
            Ok(_) => return Err(BodyRefused::Event { index: i, reason: "not an event".into() }),
            Err(expresso_runtime::Error::BadLog(bad)) => {
                let reason = bad.first().map(|(_, r)| r.clone()).unwrap_or_default();
                return Err(BodyRefused::Event { index: i, reason });
            }
            Err(e) => return Err(BodyRefused::Event { index: i, reason: e.to_string() }),
        }
    }
    Ok(events)
}

async fn events(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Body) -> Response {
    let m = &shared.metrics;
    let limit = shared.limits.max_body;
    let declared =
        headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > limit) {
        Metrics::add(&m.requests_refused, 1);
        return refuse(StatusCode::PAYLOAD_TOO_LARGE, format!("the body is larger than {limit} bytes"));
    }
    let bytes = match tokio::time::timeout(shared.limits.body_timeout, axum::body::to_bytes(body, limit)).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(_)) => {
            Metrics::add(&m.requests_refused, 1);
            return refuse(StatusCode::PAYLOAD_TOO_LARGE, format!("the body is larger than {limit} bytes"));
        }
        Err(_) => {
            Metrics::add(&m.requests_refused, 1);
            let mut response = refuse(
                StatusCode::REQUEST_TIMEOUT,
                format!("the body did not arrive within {} ms", shared.limits.body_timeout.as_millis()),
            );
            // The rest of the body may still come: the connection cannot carry another request.
            response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
            return response;
        }
    };
    let events = match parse_events(&bytes, shared.limits.max_events_per_request) {
        Ok(events) => events,
        Err(refused) => {
            Metrics::add(&m.requests_refused, 1);
            return refuse(StatusCode::BAD_REQUEST, refused.to_string());
        }
    };
    let backlog = shared.last_seq.load(Ordering::SeqCst) - shared.cursor.load(Ordering::SeqCst);
    if backlog > shared.limits.max_backlog {
        Metrics::add(&m.requests_refused, 1);
        return refuse(
            StatusCode::TOO_MANY_REQUESTS,
            format!("{backlog} events wait for the agents, more than {}", shared.limits.max_backlog),
        );
    }
    let (tx, rx) = oneshot::channel();
    if shared.queue.try_send((events, tx)).is_err() {
        Metrics::add(&m.requests_refused, 1);
        return refuse(StatusCode::SERVICE_UNAVAILABLE, "the ingest queue is full".into());
    }
    match rx.await {
        Ok(Ok(fates)) => {
            let fresh = fates.iter().filter(|f| **f == Fate::New).count();
            let duplicate = fates.iter().filter(|f| **f == Fate::Duplicate).count();
            Metrics::add(&m.events_in, fresh as u64);
            Metrics::add(&m.events_duplicate, duplicate as u64);
            let mut answer = json!({ "accepted": fresh, "duplicate": duplicate });
            // A refused correction is answered with its reason, by its place in the body.
            let refused: Vec<Value> = fates
                .iter()
                .enumerate()
                .filter_map(|(index, f)| match f {
                    Fate::Refused(reason) => Some(json!({ "index": index, "reason": reason })),
                    _ => None,
                })
                .collect();
            if !refused.is_empty() {
                Metrics::add(&m.corrections_refused, refused.len() as u64);
                answer["refused"] = Value::Array(refused);
            }
            (StatusCode::OK, axum::Json(answer)).into_response()
        }
        Ok(Err(e)) => refuse(StatusCode::SERVICE_UNAVAILABLE, format!("the log could not be written: {e}")),
        Err(_) => refuse(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping".into()),
    }
}

/// Ready: recovery is over, the store is not failing, and the backlog is within `--max-backlog` (past it
/// new events are refused with 429 anyway). A firing that faults does not make the process unready.
async fn readyz(State(shared): State<Arc<Shared>>) -> Response {
    let backlog = shared.last_seq.load(Ordering::SeqCst) - shared.cursor.load(Ordering::SeqCst);
    if !shared.ready.load(Ordering::SeqCst) {
        (StatusCode::SERVICE_UNAVAILABLE, "not ready\n").into_response()
    } else if backlog > shared.limits.max_backlog {
        (StatusCode::SERVICE_UNAVAILABLE, format!("not ready: {backlog} events wait for the agents\n")).into_response()
    } else {
        (StatusCode::OK, "ready\n").into_response()
    }
}

async fn metrics_text(State(shared): State<Arc<Shared>>) -> Response {
    let mut text = shared.metrics.render();
    let backlog = shared.last_seq.load(Ordering::SeqCst) - shared.cursor.load(Ordering::SeqCst);
    text.push_str(&format!(
        "# HELP expresso_backlog_events events in the log the agents have not run yet\n# TYPE expresso_backlog_events gauge\nexpresso_backlog_events {backlog}\n"
    ));
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], text).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_is_refused_naming_what_is_wrong_and_where() {
        assert!(matches!(parse_events(b"nope", 10), Err(BodyRefused::NotJson(_))));
        assert!(matches!(parse_events(b"3", 10), Err(BodyRefused::NotEvents)));
        assert!(matches!(parse_events(b"[]", 10), Err(BodyRefused::Empty)));
        assert!(matches!(parse_events(b"[{},{}]", 1), Err(BodyRefused::TooMany { count: 2, max: 1 })));
        let refused = parse_events(br#"[{"id":"a"}]"#, 10).unwrap_err();
        assert!(matches!(&refused, BodyRefused::Event { index: 0, .. }), "{refused}");
        assert!(refused.to_string().starts_with("event 0: "), "{refused}");
    }
}
