//! A kill at any moment of an atomic write leaves the old file or the new one, never a torn one: a child
//! process rewrites one file without pause, alternating two large contents, and is killed (SIGKILL) at
//! staggered moments; after each kill the file is read and must be exactly one of the two.

use std::process::{Command, Stdio};
use std::time::Duration;

const TARGET: &str = "EVOKE_TEST_ATOMIC_TARGET";

fn contents() -> [Vec<u8>; 2] {
    [vec![b'a'; 4 << 20], vec![b'b'; 3 << 20]]
}

/// The writer: runs only as the child, when the variable names the file.
#[test]
fn atomic_writer_child() {
    let Some(target) = std::env::var_os(TARGET) else { return };
    let target = std::path::PathBuf::from(target);
    let [a, b] = contents();
    loop {
        evoke_files::atomic::write(&target, &a).unwrap();
        evoke_files::atomic::write(&target, &b).unwrap();
    }
}

#[test]
fn a_killed_writer_leaves_the_old_file_or_the_new_one() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("evoke.lock");
    let [a, b] = contents();
    evoke_files::atomic::write(&target, &a).unwrap();
    let mut torn = 0;
    for round in 0..12u64 {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "atomic_writer_child", "--nocapture", "--test-threads=1"])
            .env(TARGET, &target)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(40 + round * 17));
        child.kill().unwrap();
        child.wait().unwrap();
        let now = std::fs::read(&target).unwrap();
        if now != a && now != b {
            torn += 1;
        }
    }
    assert_eq!(torn, 0, "a kill left a torn file");
    // The kills landed while writing: temporary files of killed writers stayed behind.
    let left = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .count();
    assert!(left > 0, "no kill landed mid-write; the test proved nothing");
    // Temporary files of killed writers may stay behind; the file itself is whole.
    let read = std::fs::read(&target).unwrap();
    assert!(read == a || read == b);
}
