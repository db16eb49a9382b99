//! Where a body's stdout and stderr go, and the tail of its stderr that a failure quotes.
//!
//! Both streams go to evoke's stderr (or, for tests and embedders, one buffer), so a stray line never
//! reaches the result. The last lines the body wrote to stderr are also kept, so that a trap's failure
//! can say what the body said before it (a Rust panic's message, a Python traceback's last line).
//!
//! Each stream takes at most [`OUTPUT_LIMIT`] bytes of a run; the write that would pass it traps with
//! [`OutputLimit`], so a body cannot flood evoke's stderr any more than an argv can flood its result.

use crate::bounded::OUTPUT_LIMIT;
use bytes::Bytes;
use std::collections::VecDeque;
use std::fmt;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use tokio::io::AsyncWrite;
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::p2::pipe::MemoryOutputPipe;
use wasmtime_wasi::p2::{OutputStream, Pollable, StreamError, StreamResult};

/// How much of a body's stderr is kept for its failure.
const TAIL: usize = 2048;

/// Where a body's output goes.
#[derive(Clone)]
pub(crate) enum Stdio {
    /// Both to evoke's stderr.
    Stderr,
    /// Both into one buffer.
    Capture(MemoryOutputPipe),
}

/// One of a body's two output streams.
#[derive(Clone)]
pub(crate) struct Out {
    to: Stdio,
    /// The stderr stream keeps its tail here; stdout keeps none.
    tail: Option<Arc<Mutex<VecDeque<u8>>>>,
    /// `stdout` or `stderr`, for the failure.
    name: &'static str,
    /// What this stream took of the run so far, shared by every handle the body opened on it.
    written: Arc<AtomicUsize>,
    /// What goes to evoke's stderr is the body's text escaped, so it can never drive the terminal.
    escape: Arc<Mutex<evoke_core::text::EscapeStream>>,
    /// Set once evoke's stderr took nothing for `stderr::PATIENCE` (a pipe nobody reads): what the body
    /// writes after is counted and dropped, so the body's host call never waits on it again.
    gone: Arc<AtomicBool>,
}

/// The error a write past a stream's [`OUTPUT_LIMIT`] traps with.
#[derive(Debug)]
pub(crate) struct OutputLimit {
    pub(crate) stream: &'static str,
}

impl fmt::Display for OutputLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the body wrote more than 1 MiB to its {}", self.stream)
    }
}

impl std::error::Error for OutputLimit {}

/// The kept end of a body's stderr, shared with its stream.
#[derive(Clone, Default)]
pub(crate) struct Tail(Arc<Mutex<VecDeque<u8>>>);

impl Tail {
    /// The last few lines, joined by ` | `, without the hint Rust prints after a panic.
    pub(crate) fn last_words(&self) -> Option<String> {
        let kept = self.0.lock().unwrap();
        let text =
            String::from_utf8_lossy(kept.as_slices().0).into_owned() + &String::from_utf8_lossy(kept.as_slices().1);
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with("note: run with `RUST_BACKTRACE"))
            .collect();
        let words = lines[lines.len().saturating_sub(3)..].join(" | ");
        (!words.is_empty()).then(|| words.chars().take(400).collect())
    }
}

impl Stdio {
    /// The body's stdout and its stderr, the latter keeping its tail in `tail`.
    pub(crate) fn streams(&self, tail: &Tail) -> (Out, Out) {
        let out = |name, tail| Out {
            to: self.clone(),
            tail,
            name,
            written: Arc::default(),
            escape: Arc::default(),
            gone: Arc::default(),
        };
        (out("stdout", None), out("stderr", Some(tail.0.clone())))
    }
}

impl Out {
    /// Counts `bytes` against the limit; `false` when they would pass it.
    fn within_limit(&self, bytes: usize) -> bool {
        self.written.fetch_add(bytes, Ordering::Relaxed).saturating_add(bytes) <= OUTPUT_LIMIT
    }

    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        if let Some(tail) = &self.tail {
            let mut kept = tail.lock().unwrap();
            kept.extend(bytes.iter().rev().take(TAIL).rev());
            let over = kept.len().saturating_sub(TAIL);
            kept.drain(..over);
        }
        match &mut self.to {
            Stdio::Stderr => {
                let shown = self.escape.lock().unwrap_or_else(|e| e.into_inner()).push(bytes);
                // Through evoke's own writer, which never blocks on a stderr nobody reads; given up on
                // once, the stream is dropped from then on rather than failing the body's write.
                if !self.gone.load(Ordering::Relaxed) && crate::stderr::write_all(shown.as_bytes()).is_err() {
                    self.gone.store(true, Ordering::Relaxed);
                }
                Ok(())
            }
            Stdio::Capture(pipe) => OutputStream::write(pipe, Bytes::copy_from_slice(bytes))
                .map_err(|e| std::io::Error::other(format!("{e:?}"))),
        }
    }
}

impl IsTerminal for Out {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for Out {
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }

    fn async_stream(&self) -> Box<dyn AsyncWrite + Send + Sync> {
        Box::new(self.clone())
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for Out {
    async fn ready(&mut self) {}
}

impl OutputStream for Out {
    fn write(&mut self, bytes: Bytes) -> StreamResult<()> {
        // Past the limit the body is stopped, whatever it would make of a failed write.
        if !self.within_limit(bytes.len()) {
            return Err(StreamError::Trap(wasmtime::Error::new(OutputLimit { stream: self.name })));
        }
        self.put(&bytes).map_err(|e| StreamError::LastOperationFailed(e.into()))
    }

    fn flush(&mut self) -> StreamResult<()> {
        Ok(())
    }

    fn check_write(&mut self) -> StreamResult<usize> {
        Ok(64 * 1024)
    }
}

impl AsyncWrite for Out {
    fn poll_write(mut self: Pin<&mut Self>, _cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        if !self.within_limit(buf.len()) {
            return Poll::Ready(Err(std::io::Error::other(OutputLimit { stream: self.name })));
        }
        Poll::Ready(self.put(buf).map(|()| buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}
