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

/// The names the old scheme gave a temporary file: `.NAME.PID.N.tmp`, with this process's id and a
/// counter from 0. A symlink planted at each of them points at a victim; a write must neither follow one
/// nor leave the target a link.
#[test]
fn a_symlink_planted_at_a_guessable_temporary_name_is_never_followed() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim");
    std::fs::write(&victim, b"the victim's own content\n").unwrap();
    let target = dir.path().join("trust.toml");
    let pid = std::process::id();
    for n in 0..2000 {
        std::os::unix::fs::symlink(&victim, dir.path().join(format!(".trust.toml.{pid}.{n}.tmp"))).unwrap();
    }
    evoke_files::atomic::write(&target, b"written\n").unwrap();
    assert_eq!(std::fs::read(&victim).unwrap(), b"the victim's own content\n", "the write went through a link");
    let meta = std::fs::symlink_metadata(&target).unwrap();
    assert!(meta.file_type().is_file(), "the target is a regular file, not a planted link");
    assert_eq!(std::fs::read(&target).unwrap(), b"written\n");
}

fn mode(path: &std::path::Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn an_atomic_write_is_private_and_so_is_a_directory_it_creates() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("new/place/evoke.lock");
    evoke_files::atomic::write(&target, b"version = 1\n").unwrap();
    assert_eq!(mode(&target), 0o600);
    assert_eq!(mode(&dir.path().join("new/place")), 0o700);
    assert_eq!(mode(&dir.path().join("new")), 0o700);
}

#[test]
fn trust_and_the_log_are_private_in_private_places() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let places = evoke_files::places::Places::under(&dir.path().join("home"));
    // An earlier evoke left the data place open to everyone.
    std::fs::create_dir_all(&places.data).unwrap();
    std::fs::set_permissions(&places.data, std::fs::Permissions::from_mode(0o755)).unwrap();
    let root = dir.path().join("proj");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("evoke.toml"), "[reflexes]\n").unwrap();
    let location = evoke_files::project::Location { root, home: false };
    evoke_files::trust::record(&places, &location).unwrap();
    assert_eq!(mode(&places.data.join("trust.toml")), 0o600);
    assert_eq!(mode(&places.data), 0o700);

    // A log left world-readable by an earlier evoke is narrowed when it is opened again.
    let log = places.log();
    std::fs::create_dir_all(&places.state).unwrap();
    std::fs::write(&log, b"{}\n").unwrap();
    std::fs::set_permissions(&log, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::set_permissions(&places.state, std::fs::Permissions::from_mode(0o755)).unwrap();
    drop(evoke_files::places::open_log(&log).unwrap());
    assert_eq!(mode(&log), 0o600);
    assert_eq!(mode(&places.state), 0o700);
    let fresh = dir.path().join("other/state/log.jsonl");
    drop(evoke_files::places::open_log(&fresh).unwrap());
    assert_eq!(mode(&fresh), 0o600);
    assert_eq!(mode(&dir.path().join("other/state")), 0o700);
}
