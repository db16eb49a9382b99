//! evoke's own standard error, written so that a reader who stops reading cannot hold evoke.
//!
//! A write to a full pipe blocks until someone reads it, and nobody may ever read it: a caller that took
//! evoke's stderr as a pipe and never drains it. Then a body's relayed output, a diagnostic, or the line
//! evoke says as it ends on a signal or at its watchdog would block evoke for good, past its deadline
//! and past Ctrl-C. So every write here first polls the descriptor, hands the kernel at most what a pipe
//! that polls writable takes without blocking, and waits (asleep, never in the write) at most
//! [`PATIENCE`] for a stream that takes nothing, after which what is left is dropped. Once evoke ends on a
//! signal it does not wait at all.

use std::io;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long a write waits for a standard error that takes nothing before what is left is dropped. A body
/// at its deadline gets a second's grace and evoke's last lines this much, which ends evoke within the
/// three seconds past the deadline the watchdog allows.
pub const PATIENCE: Duration = Duration::from_millis(1500);

/// The most one write hands the kernel: a pipe that polls writable has room for this much (`PIPE_BUF` on
/// Linux), so the write cannot block.
const PIECE: usize = 4096;

/// How long a waiting writer sleeps between polls.
pub const NAP: Duration = Duration::from_millis(10);

/// Held across one poll and its write, so that two writers that both saw room cannot both fill it.
static WRITING: Mutex<()> = Mutex::new(());

/// Set once evoke ends on a signal: from then on nothing waits for the stream.
static ENDING: AtomicBool = AtomicBool::new(false);

/// Says that evoke is ending on a signal, so writes no longer wait.
pub fn ending() {
    ENDING.store(true, Ordering::SeqCst);
}

/// Whether fd 2 can take a write now.
fn ready() -> io::Result<bool> {
    let mut fd = libc::pollfd { fd: 2, events: libc::POLLOUT, revents: 0 };
    // SAFETY: one pollfd that lives across the call; a zero timeout never blocks.
    let n = unsafe { libc::poll(&mut fd, 1, 0) };
    if n < 0 {
        let e = io::Error::last_os_error();
        return if e.kind() == io::ErrorKind::Interrupted { Ok(false) } else { Err(e) };
    }
    // POLLERR or POLLHUP with it (the reader is gone) make the write fail at once rather than block.
    Ok(n > 0)
}

/// Writes what fd 2 takes of `bytes` now, without blocking: how much it took, or `WouldBlock`.
pub fn write_now(bytes: &[u8]) -> io::Result<usize> {
    let _writing = WRITING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if !ready()? {
        return Err(io::ErrorKind::WouldBlock.into());
    }
    let piece = &bytes[..bytes.len().min(PIECE)];
    // SAFETY: a write from a live slice of its own length.
    let n = unsafe { libc::write(2, piece.as_ptr().cast(), piece.len()) };
    if n < 0 { Err(io::Error::last_os_error()) } else { Ok(n as usize) }
}

/// Writes all of `bytes` to fd 2, waiting at most [`PATIENCE`] at a time while it takes nothing (not at
/// all once evoke ends on a signal). What is left then is dropped and the error is `TimedOut`.
pub fn write_all(bytes: &[u8]) -> io::Result<()> {
    let mut rest = bytes;
    let mut last = Instant::now();
    while !rest.is_empty() {
        match write_now(rest) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => {
                rest = &rest[n..];
                last = Instant::now();
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                if !may_wait(last, last + PATIENCE) {
                    return Err(io::ErrorKind::TimedOut.into());
                }
                std::thread::sleep(NAP);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Whether a writer that last got a byte through at `last` may go on waiting for the stream: not once
/// evoke ends on a signal, nor after [`PATIENCE`], nor past `give_up`.
pub fn may_wait(last: Instant, give_up: Instant) -> bool {
    !ENDING.load(Ordering::SeqCst) && last.elapsed() < PATIENCE && Instant::now() < give_up
}

/// fd 2 as a [`io::Write`] that never blocks: a write the stream cannot take now is `WouldBlock`, for
/// the caller to wait on as it can (a task asleep, see `bounded::pass_escaped`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Stderr;

impl io::Write for Stderr {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        write_now(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    /// Run only as the child of the test below, with fd 2 a pipe nobody reads: writes 1 MiB through
    /// `write_all` and says on stdout how it ended.
    #[test]
    #[ignore = "the child of a_stderr_nobody_reads_is_given_up_on_after_the_patience"]
    fn child_writes_a_mebibyte_to_an_unread_stderr() {
        let started = Instant::now();
        let ended = super::write_all(&vec![b'x'; 1 << 20]);
        println!("ENDED {:?} {}", ended.map_err(|e| e.kind()), started.elapsed().as_millis());
    }

    #[test]
    fn a_stderr_nobody_reads_is_given_up_on_after_the_patience() {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "stderr::tests::child_writes_a_mebibyte_to_an_unread_stderr", "--ignored", "--nocapture"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let started = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > Duration::from_secs(30) {
                let _ = child.kill();
                let _ = child.wait();
                panic!("a write to an unread stderr held its writer for 30 s");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let mut said = String::new();
        child.stdout.take().unwrap().read_to_string(&mut said).unwrap();
        assert!(said.contains("ENDED Err(TimedOut)"), "{said}");
    }
}
