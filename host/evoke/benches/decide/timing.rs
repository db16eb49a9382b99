//! Timing whole processes: the wall clock, and the CPU time (user and system) the process itself used.
//!
//! On a machine shared with other work a runnable process waits for a core, and the wall clock counts
//! the wait; the CPU time does not. Both are printed; a ratio is taken against a baseline timed in the
//! same run, interleaved with the run it is compared to.

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// One process: how long it took, and the CPU it used.
#[derive(Clone, Copy, Debug)]
pub struct Timed {
    pub wall: Duration,
    pub cpu: Duration,
}

/// The CPU time of every child this process has waited for so far.
fn children_cpu() -> Duration {
    // SAFETY: getrusage writes the struct it is given and nothing else.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let done = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    assert_eq!(done, 0, "getrusage");
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// Runs `command` to its end with `stdin` written to it, its output kept: the output and its times. The
/// bench runs one child at a time, so the growth of the children's CPU time is this child's.
pub fn run(command: &mut Command, stdin: Option<String>) -> (Output, Timed) {
    let cpu_before = children_cpu();
    let started = Instant::now();
    let mut child = command
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {command:?}: {e}"));
    let writer = stdin.map(|text| {
        let mut pipe = child.stdin.take().unwrap();
        std::thread::spawn(move || std::io::Write::write_all(&mut pipe, text.as_bytes()))
    });
    let output = child.wait_with_output().unwrap();
    let wall = started.elapsed();
    if let Some(writer) = writer {
        writer.join().unwrap().unwrap();
    }
    (output, Timed { wall, cpu: children_cpu() - cpu_before })
}

/// The medians of the wall and CPU times, each taken on its own.
pub fn median(times: &[Timed]) -> Timed {
    let pick = |mut all: Vec<Duration>| {
        all.sort();
        all[all.len() / 2]
    };
    Timed { wall: pick(times.iter().map(|t| t.wall).collect()), cpu: pick(times.iter().map(|t| t.cpu).collect()) }
}

pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// `node -e 0`, the baseline of a process start: `None` where node is not installed.
pub fn node() -> Option<Timed> {
    let (output, timed) = run(Command::new("node").args(["-e", "0"]), None);
    output.status.success().then_some(timed)
}

/// A row of the summary: a figure, its baseline and the ratio of the two, for the wall clock and the
/// CPU time.
pub fn ratio_line(what: &str, ours: Timed, baseline_name: &str, baseline: Timed) -> String {
    format!(
        "{what}: {:.2} ms wall, {:.2} ms CPU; {baseline_name}: {:.2} ms wall, {:.2} ms CPU; ratio {:.3} wall, {:.3} CPU",
        ms(ours.wall),
        ms(ours.cpu),
        ms(baseline.wall),
        ms(baseline.cpu),
        ours.wall.as_secs_f64() / baseline.wall.as_secs_f64(),
        ours.cpu.as_secs_f64() / baseline.cpu.as_secs_f64()
    )
}
