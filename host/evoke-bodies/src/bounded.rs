//! What evoke reads of a body is bounded: its result and its stderr, each up to [`OUTPUT_LIMIT`]. A body
//! that writes more is stopped, so a flood costs evoke at most that much memory, never what the body
//! chose to write.

use evoke_core::text::EscapeStream;
use std::io::Write;
use std::sync::Mutex;
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
/// reading stops, as [`read_bounded`] does. A write to `sink` that fails is given up on, never retried.
pub async fn pass_escaped(
    mut reader: impl AsyncRead + Unpin,
    stream: &'static str,
    flood: &Flood,
    mut sink: impl Write,
) {
    let mut escape = EscapeStream::new();
    let mut taken = 0usize;
    let mut chunk = vec![0u8; 8192];
    loop {
        let n = match reader.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let within = n.min(OUTPUT_LIMIT - taken);
        taken += within;
        let _ = sink.write_all(escape.push(&chunk[..within]).as_bytes());
        if within < n {
            flood.over(stream);
            break;
        }
    }
    let _ = sink.write_all(escape.finish().as_bytes());
    let _ = sink.flush();
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
        pass_escaped(&b"\x1b]52;c;aGk=\x07\x1b[2Jhi\n"[..], "stderr", &flood, &mut sink).await;
        assert_eq!(String::from_utf8(sink).unwrap(), "\\u{1B}]52;c;aGk=\\u{7}\\u{1B}[2Jhi\n");
        assert_eq!(flood.stream(), None);

        let flood = Flood::default();
        let mut sink = Vec::new();
        let big = vec![b'x'; OUTPUT_LIMIT * 3];
        pass_escaped(&big[..], "stdout", &flood, &mut sink).await;
        assert_eq!(sink.len(), OUTPUT_LIMIT);
        assert_eq!(flood.stream(), Some("stdout"));
    }

    #[test]
    fn a_tail_never_splits_a_character() {
        assert_eq!(tail("aé", 1), "");
        assert_eq!(tail("aé", 2), "é");
        assert_eq!(tail("abc", 10), "abc");
    }
}
