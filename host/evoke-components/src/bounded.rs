//! What evoke reads of a body is bounded: its result and its stderr, each up to [`OUTPUT_LIMIT`]. A body
//! that writes more is stopped, so a flood costs evoke at most that much memory, never what the body
//! chose to write.

use evoke_core::text::EscapeStream;
use std::io::Write;
use std::sync::Mutex;
use std::time::Instant;
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::sync::Notify;

/// The most evoke reads of a body's result, and of its stderr: 1 MiB.
pub const OUTPUT_LIMIT: usize = 1 << 20;

/// Which of a body's streams went past its limit first, and a wake-up for the run that must stop it.
#[derive(Default)]
pub struct Flood {
    first: Mutex<Option<&'static str>>,
    notify: Notify,
}

impl Flood {
    /// Says that `stream` went past the limit; the first stream to do so is the one the failure names.
    pub fn over(&self, stream: &'static str) {
        let mut first = self.first.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if first.is_none() {
            *first = Some(stream);
        }
        // A permit is kept when nobody waits yet, so a flood before the wait begins is not missed.
        self.notify.notify_one();
    }

    /// Resolves once a stream went past its limit.
    pub async fn flooded(&self) {
        self.notify.notified().await;
    }

    /// The stream that went past its limit, if any did.
    pub fn stream(&self) -> Option<&'static str> {
        *self.first.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The failure's message when `stream` (`stdout`, `stderr`, `result`) went past the limit.
    pub fn message(stream: &str) -> String {
        format!("the body's {stream} passed 1 MiB, the most evoke reads of it; the body was stopped")
    }
}

/// Reads `reader` to its end, or to [`OUTPUT_LIMIT`] bytes: one byte past it and the flood is said as
/// `stream`'s, and reading stops, so the body blocks on a full pipe until it is stopped.
pub async fn read_bounded(mut reader: impl AsyncRead + Unpin, stream: &'static str, flood: &Flood) -> Vec<u8> {
    let mut bytes = Vec::new();
    let _ = (&mut reader).take(OUTPUT_LIMIT as u64 + 1).read_to_end(&mut bytes).await;
    if bytes.len() > OUTPUT_LIMIT {
        bytes.truncate(OUTPUT_LIMIT);
        flood.over(stream);
    }
    bytes
}

/// Passes `reader` on to `sink` as it arrives, escaped by [`EscapeStream`] so that no byte the body wrote
/// can drive a terminal, up to [`OUTPUT_LIMIT`] bytes: past it the flood is said as `stream`'s and
/// reading stops, as [`read_bounded`] does. A sink that cannot take bytes now (`WouldBlock`, as
/// [`crate::stderr::Stderr`] says of a pipe nobody reads) is waited on asleep, so the run's own task goes
/// on and its deadline and Ctrl-C still hold, for at most [`crate::stderr::PATIENCE`] at a time and not
/// past `give_up`; then, or at any other failed write, the sink is given up on for good and what the body
/// writes after is read (still to the limit) and dropped, so the body is not held either.
pub async fn pass_escaped(
    mut reader: impl AsyncRead + Unpin,
    stream: &'static str,
    flood: &Flood,
    mut sink: impl Write,
    give_up: Instant,
) {
    let mut escape = EscapeStream::new();
    let mut taken = 0usize;
    let mut chunk = vec![0u8; 8192];
    let mut open = true;
    loop {
        let n = match reader.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let within = n.min(OUTPUT_LIMIT - taken);
        taken += within;
        let shown = escape.push(&chunk[..within]);
        if open {
            open = put(&mut sink, shown.as_bytes(), give_up).await;
        }
        if within < n {
            flood.over(stream);
            break;
        }
    }
    if open && put(&mut sink, escape.finish().as_bytes(), give_up).await {
        let _ = sink.flush();
    }
}

/// Writes all of `bytes` to `sink`, waiting asleep while it would block for as long as
/// [`crate::stderr::may_wait`] allows; `false` when the sink is given up on.
async fn put(sink: &mut impl Write, bytes: &[u8], give_up: Instant) -> bool {
    let mut rest = bytes;
    let mut last = Instant::now();
    while !rest.is_empty() {
        match sink.write(rest) {
            Ok(0) => return false,
            Ok(n) => {
                rest = &rest[n..];
                last = Instant::now();
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock && crate::stderr::may_wait(last, give_up) => {
                tokio::time::sleep(crate::stderr::NAP).await;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return false,
        }
    }
    true
}

/// The last `max` bytes of `text` or fewer, starting at a character boundary.
pub fn tail(text: &str, max: usize) -> &str {
    let mut start = text.len().saturating_sub(max);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn reading_stops_one_byte_past_the_limit() {
        let flood = Flood::default();
        let big = vec![b'x'; OUTPUT_LIMIT * 3];
        let read = read_bounded(&big[..], "stdout", &flood).await;
        assert_eq!(read.len(), OUTPUT_LIMIT);
        assert_eq!(flood.stream(), Some("stdout"));

        let flood = Flood::default();
        let exact = vec![b'x'; OUTPUT_LIMIT];
        assert_eq!(read_bounded(&exact[..], "stdout", &flood).await.len(), OUTPUT_LIMIT);
        assert_eq!(flood.stream(), None);
    }

    #[tokio::test]
    async fn passing_on_escapes_and_stops_one_byte_past_the_limit() {
        let flood = Flood::default();
        let mut sink = Vec::new();
        pass_escaped(&b"\x1b]52;c;aGk=\x07\x1b[2Jhi\n"[..], "stderr", &flood, &mut sink, far()).await;
        assert_eq!(String::from_utf8(sink).unwrap(), "\\u{1B}]52;c;aGk=\\u{7}\\u{1B}[2Jhi\n");
        assert_eq!(flood.stream(), None);

        let flood = Flood::default();
        let mut sink = Vec::new();
        let big = vec![b'x'; OUTPUT_LIMIT * 3];
        pass_escaped(&big[..], "stdout", &flood, &mut sink, far()).await;
        assert_eq!(sink.len(), OUTPUT_LIMIT);
        assert_eq!(flood.stream(), Some("stdout"));
    }

    fn far() -> Instant {
        Instant::now() + std::time::Duration::from_secs(60)
    }

    /// A sink nobody reads: it takes `room` bytes, then would block for ever.
    struct Full {
        room: usize,
        took: usize,
    }

    impl Write for Full {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            let n = bytes.len().min(self.room - self.took);
            if n == 0 {
                return Err(std::io::ErrorKind::WouldBlock.into());
            }
            self.took += n;
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[tokio::test]
    async fn a_sink_nobody_reads_is_given_up_on_and_the_body_still_read_to_its_end() {
        let flood = Flood::default();
        let mut sink = Full { room: 100, took: 0 };
        let body = vec![b'x'; 300 << 10];
        let started = Instant::now();
        pass_escaped(&body[..], "stderr", &flood, &mut sink, far()).await;
        // Given up on after the patience, not held until the far give-up; the rest was read and dropped.
        assert!(started.elapsed() < crate::stderr::PATIENCE * 3, "held {:?}", started.elapsed());
        assert_eq!(sink.took, 100);
        assert_eq!(flood.stream(), None);
    }

    #[test]
    fn a_tail_never_splits_a_character() {
        assert_eq!(tail("aé", 1), "");
        assert_eq!(tail("aé", 2), "é");
        assert_eq!(tail("abc", 10), "abc");
    }
}
