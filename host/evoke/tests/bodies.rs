//! Real bodies trying to break the run: stray stdout, a look at the environment, a throw with frames, an
//! argv fed a value that would be an option, and a sleeper that ignores SIGTERM and keeps a child of its
//! own past the deadline.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn project() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bodies")
}

fn evoke(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_evoke"))
        .args(args)
        .current_dir(project())
        .env("EVOKE_HOME", home)
        .env("EVOKE_TEST_TOKEN", "s3cret")
        .env("SOME_OTHER_SECRET", "must not leak")
        .env("NO_COLOR", "1")
        .output()
        .expect("evoke runs")
}

/// A fresh EVOKE_HOME in which the fixture project is trusted.
fn trusted_home() -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    let out = evoke(home.path(), &["trust"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    home
}

fn line(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("not one JSON line ({e}): {}", String::from_utf8_lossy(&output.stdout)))
}

#[test]
fn stray_stdout_never_touches_the_result() {
    let home = trusted_home();
    let out = evoke(home.path(), &["--json", "run", "stdout"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let line = line(&out);
    assert_eq!(line["result"]["text"], "the result");
    assert_eq!(line["result"]["data"]["intact"], true);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("a stray line on stdout") && stderr.contains("written straight to fd 1"), "{stderr}");

    let plain = evoke(home.path(), &["run", "stdout"]);
    assert_eq!(String::from_utf8_lossy(&plain.stdout), "the result\n");
}

#[test]
fn only_the_five_variables_are_visible_and_secrets_come_through_config() {
    let home = trusted_home();
    let out = evoke(home.path(), &["--json", "run", "env"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let line = line(&out);
    let names: Vec<String> = serde_json::from_value(line["result"]["data"]["names"].clone()).unwrap();
    let kept = ["HOME", "LANG", "PATH", "TERM", "TMPDIR"];
    assert!(names.iter().all(|n| kept.contains(&n.as_str())), "visible: {names:?}");
    assert!(names.contains(&"PATH".to_string()));
    assert_eq!(line["result"]["data"]["token"], "s3cret");
    assert_eq!(line["contained"]["type"], "partial");
}

#[test]
fn a_throw_is_a_failure_with_frames_naming_the_reflex_file() {
    let home = trusted_home();
    let out = evoke(home.path(), &["--json", "run", "throws"]);
    assert_eq!(out.status.code(), Some(1));
    let line = line(&out);
    assert_eq!(line["error"], "it went wrong");
    let frames: Vec<String> = serde_json::from_value(line["frames"].clone()).unwrap();
    // V8 places the frame at `new Error`; the stripped module keeps every column of the typed source.
    let source = std::fs::read_to_string(project().join("r/throws/throws.mts")).unwrap();
    let column = source.lines().next().unwrap().find("new Error").unwrap() + 1;
    assert_eq!(frames.first().cloned(), Some(format!("at Module.body (throws.mts:1:{column})")), "{frames:?}");
}

#[test]
fn an_argv_takes_whole_elements_and_refuses_a_leading_dash() {
    let home = trusted_home();
    let out = evoke(home.path(), &["run", "words", "first=a;b $HOME", "third=end"]);
    assert_eq!(out.status.code(), Some(0));
    // The unstated optional argument's element is dropped; nothing is expanded by a shell.
    assert_eq!(String::from_utf8_lossy(&out.stdout), "a;b $HOME|end|\n");
    let refused = evoke(home.path(), &["run", "words", "first=-n", "third=end"]);
    assert_eq!(refused.status.code(), Some(6));
    assert!(refused.stdout.is_empty());
}

fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // A zombie has ended; only its parent has yet to read its status.
        Ok(stat) => !stat.rsplit(')').next().unwrap_or("").trim_start().starts_with('Z'),
        Err(_) => false,
    }
}

#[test]
fn a_sleeper_is_stopped_at_the_deadline_with_its_whole_group() {
    let home = trusted_home();
    let out = evoke(home.path(), &["--json", "run", "sleeper"]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    // The outcome, not the clock: the run ended for the deadline, and (below) no process of the group is left.
    let line = line(&out);
    assert!(line["error"].as_str().unwrap_or_default().contains("deadline"), "{line}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let pids: Vec<i32> = stderr
        .split_whitespace()
        .filter_map(|w| w.strip_prefix("pid=").or_else(|| w.strip_prefix("child=")))
        .filter_map(|n| n.parse().ok())
        .collect();
    assert_eq!(pids.len(), 2, "the sleeper says its pids: {stderr}");
    std::thread::sleep(Duration::from_millis(200));
    for pid in pids {
        assert!(!alive(pid), "process {pid} of the body's group survived");
    }
}

/// The last entry of the log under `home`, as text.
fn last_log_line(home: &Path) -> String {
    let log = std::fs::read_to_string(home.join("state/log.jsonl")).expect("the run is logged");
    log.lines().last().expect("one entry").to_string()
}

/// How much of a logged line may surround a cut result: the input, the call, the trace, the answers.
const ENVELOPE: usize = 8 << 10;

#[test]
fn an_argv_flooding_stdout_is_stopped_at_one_mebibyte() {
    let home = trusted_home();
    let out = evoke(home.path(), &["--json", "run", "flood"]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    // Stopped at the limit (the error names it, not the deadline), and nothing of the flood printed.
    assert!(out.stdout.len() < 4096, "the line carried {} bytes", out.stdout.len());
    let line = line(&out);
    assert_eq!(line["error"], "the body's stdout passed 1 MiB, the most evoke reads of it; the body was stopped");
    assert!(line.get("result").is_none(), "{line}");
    let logged = last_log_line(home.path());
    assert!(logged.len() < ENVELOPE, "the log took {} bytes", logged.len());
}

#[test]
fn a_result_line_that_never_ends_is_stopped_at_one_mebibyte() {
    let home = trusted_home();
    let out = evoke(home.path(), &["--json", "run", "endless"]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let line = line(&out);
    assert_eq!(line["error"], "the body's result passed 1 MiB, the most evoke reads of it; the body was stopped");
    assert!(last_log_line(home.path()).len() < ENVELOPE);
}

#[test]
fn the_log_keeps_64_kib_of_a_result_and_says_it_was_cut() {
    let home = trusted_home();
    let out = evoke(home.path(), &["--json", "run", "count"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // The person sees the whole result: `seq 1 130000`, its last newline trimmed.
    let whole: String = (1..=130_000).map(|n| n.to_string()).collect::<Vec<_>>().join("\n");
    let shown = line(&out);
    assert_eq!(shown["result"]["text"].as_str().map(str::len), Some(whole.len()));
    // The log keeps its start, within 64 KiB, and says how large the whole was.
    let logged = last_log_line(home.path());
    assert!(logged.len() <= 64 * 1024 + ENVELOPE, "the log took {} bytes", logged.len());
    let entry: serde_json::Value = serde_json::from_str(&logged).unwrap();
    let kept = entry["result"]["text"].as_str().unwrap();
    assert!(whole.starts_with(kept), "the log kept what the body did not say");
    let kept_json = serde_json::to_string(&entry["result"]).unwrap().len();
    assert!((64 * 1024 - 16..=64 * 1024).contains(&kept_json), "kept {kept_json} bytes of JSON");
    assert_eq!(entry["cut"]["result"], serde_json::to_string(&shown["result"]).unwrap().len());
}

/// Every file under `dir`, however deep.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() { found.extend(files_under(&path)) } else { found.push(path) }
    }
    found
}

#[test]
fn nothing_planted_in_the_cache_runs() {
    let home = trusted_home();
    let first = evoke(home.path(), &["--json", "run", "throws"]);
    assert_eq!(line(&first)["error"], "it went wrong");
    // The attack: every file evoke keeps in its cache place is overwritten, a module with a body that
    // says it ran, anything else with nonsense.
    let cached = files_under(&home.path().join("cache"));
    assert!(!cached.is_empty(), "the first run cached nothing");
    for file in &cached {
        let planted: &[u8] = if file.extension().is_some_and(|e| e == "mjs") {
            b"export default function body() { return \"tampered\"; }\n"
        } else {
            b"19\n"
        };
        std::fs::write(file, planted).unwrap();
    }
    let out = evoke(home.path(), &["--json", "run", "throws"]);
    let line = line(&out);
    assert_eq!(line["error"], "it went wrong", "{line}");
    assert_eq!(line["contained"]["type"], "partial", "{line}");
}

#[path = "../../evoke-bodies/tests/support/built.rs"]
mod built_rule;

/// A project in `root` holding the probe component of evoke-bodies' tests, granted to read `folder`; `None`
/// (the test skipped) when `.ci/build-components` has not built it, or a failure in CI, as
/// [`built_rule::present`] decides.
fn probe_project(root: &Path, folder: &Path) -> Option<PathBuf> {
    let probe = Path::new(env!("CARGO_MANIFEST_DIR")).join("../evoke-bodies/tests/probe");
    if !built_rule::present(&probe.join("probe.wasm")) {
        return None;
    }
    let project = root.join("project");
    let reflex = project.join("r/probe");
    std::fs::create_dir_all(&reflex).unwrap();
    std::fs::copy(probe.join("probe.wasm"), reflex.join("probe.wasm")).unwrap();
    let manifest = std::fs::read_to_string(probe.join("reflex.toml")).unwrap();
    let grants =
        "\n[config]\nfolder = \"The folder the probe may read\"\n\n[grants]\nfiles = { \"{folder}\" = \"read\" }\n";
    // The grants go before the first argument table, where top-level tables of a manifest sit.
    let at = manifest.find("[args.").unwrap();
    std::fs::write(reflex.join("reflex.toml"), format!("{}{grants}\n{}", &manifest[..at], &manifest[at..])).unwrap();
    std::fs::write(
        project.join("evoke.toml"),
        format!("[reflexes]\nprobe = \"r/probe\"\n\n[config.probe]\nfolder = {:?}\n", folder.display().to_string()),
    )
    .unwrap();
    Some(project)
}

/// evoke started in `project` (not waited for), reading the FIFO `fifo` through the probe.
fn read_fifo(home: &Path, project: &Path, fifo: &Path) -> std::process::Child {
    let trust =
        Command::new(env!("CARGO_BIN_EXE_evoke")).arg("trust").current_dir(project).env("EVOKE_HOME", home).output();
    assert_eq!(trust.unwrap().status.code(), Some(0));
    Command::new(env!("CARGO_BIN_EXE_evoke"))
        .args(["--json", "run", "probe", "action=read"])
        .arg(format!("target={}", fifo.display()))
        .current_dir(project)
        .env("EVOKE_HOME", home)
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("evoke runs")
}

/// Waits up to `limit` for `child` to end; past it the FIFO is opened for writing (which frees the stuck
/// read) so that nothing outlives the test, and `None` says it did not end.
fn wait_or_free(mut child: std::process::Child, limit: Duration, fifo: &Path) -> Option<Output> {
    let started = Instant::now();
    while started.elapsed() < limit {
        if child.try_wait().unwrap().is_some() {
            return Some(child.wait_with_output().unwrap());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    use std::os::unix::fs::OpenOptionsExt;
    let _ = std::fs::OpenOptions::new().write(true).custom_flags(O_NONBLOCK).open(fifo);
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// Opens without waiting for a reader (Linux's value; the crate does not depend on libc for one number).
const O_NONBLOCK: i32 = 0o4000;

/// A FIFO in a fresh folder, and the folder.
fn fifo_in(root: &Path) -> (PathBuf, PathBuf) {
    let folder = root.join("granted");
    std::fs::create_dir_all(&folder).unwrap();
    let fifo = folder.join("pipe");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    (folder.canonicalize().unwrap(), fifo.canonicalize().unwrap())
}

/// Whether a thread of `pid` waits for a FIFO's other end (the probe's read, blocked in the host).
fn blocked_on_a_fifo(pid: u32) -> bool {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).into_iter().flatten().flatten();
    tasks.into_iter().any(|t| std::fs::read_to_string(t.path().join("wchan")).is_ok_and(|w| w.contains("partner")))
}

#[test]
fn a_component_stuck_on_a_fifo_ends_at_the_deadline() {
    let root = tempfile::tempdir().unwrap();
    let (folder, fifo) = fifo_in(root.path());
    let Some(project) = probe_project(root.path(), &folder) else { return };
    let home = tempfile::tempdir().unwrap();
    let child = read_fifo(home.path(), &project, &fifo);
    // The real deadline (30 s), its grace, and room for a first compile on a loaded machine; past that the
    // FIFO is freed so the test cannot hang. What is asserted is the outcome: the deadline's error.
    let out = wait_or_free(child, Duration::from_secs(45), &fifo).expect("evoke outlived the deadline");
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let line = line(&out);
    assert_eq!(line["error"], "stopped at the deadline: the body was still running when the decision's time ran out");
    assert_eq!(line["contained"]["type"], "full");
}

#[test]
fn ctrl_c_ends_a_component_stuck_on_a_fifo() {
    let root = tempfile::tempdir().unwrap();
    let (folder, fifo) = fifo_in(root.path());
    let Some(project) = probe_project(root.path(), &folder) else { return };
    let home = tempfile::tempdir().unwrap();
    let child = read_fifo(home.path(), &project, &fifo);
    let pid = child.id();
    let started = Instant::now();
    while !blocked_on_a_fifo(pid) {
        assert!(started.elapsed() < Duration::from_secs(25), "the probe never reached the FIFO");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(Command::new("kill").args(["-INT", &pid.to_string()]).status().unwrap().success());
    let out = wait_or_free(child, Duration::from_secs(5), &fifo).expect("Ctrl-C did not end evoke within 5 s");
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let line = line(&out);
    assert_eq!(line["cancelled"], true, "{line}");
}

#[test]
fn trust_compiles_a_component_body_ahead_so_the_first_run_finds_it_compiled() {
    let root = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let Some(project) = probe_project(root.path(), root.path()) else { return };
    let trust = || {
        let out = Command::new(env!("CARGO_BIN_EXE_evoke"))
            .arg("trust")
            .current_dir(&project)
            .env("EVOKE_HOME", home.path())
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stderr).unwrap()
    };
    let first = trust();
    assert!(first.contains("compiled probe's component in "), "{first}");
    let second = trust();
    assert!(!second.contains("compiled"), "the second trust finds it compiled: {second}");
}

/// A trusted project under `root` whose one reflex, `chatty`, writes about 200 KiB to its stderr (far
/// more than a pipe holds, well under the 1 MiB evoke reads) and then sleeps past the deadline.
fn chatty_project(root: &Path, home: &Path) -> PathBuf {
    let project = root.join("chatty");
    std::fs::create_dir_all(project.join("r")).unwrap();
    std::fs::write(project.join("evoke.toml"), "[reflexes]\nchatty = \"r\"\n").unwrap();
    std::fs::write(
        project.join("r/reflex.toml"),
        "reflex = 1\ndescription = \"Talks a lot on stderr, then sleeps.\"\neffect = \"read\"\n\
         confirm = \"Talk?\"\nrun = \"chatty.mjs\"\n\n[examples]\n\"talk\" = {}\n",
    )
    .unwrap();
    std::fs::write(
        project.join("r/chatty.mjs"),
        "export default async function body() {\n  const line = \"chatter \".repeat(16) + \"\\n\";\n  \
         for (let i = 0; i < 1600; i++) process.stderr.write(line);\n  \
         await new Promise((done) => setTimeout(done, 600000));\n  return { text: \"done\" };\n}\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_evoke"))
        .arg("trust")
        .current_dir(&project)
        .env("EVOKE_HOME", home)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    project
}

/// `evoke run chatty` with its stderr a pipe this test holds open and never reads.
fn run_chatty_unread(project: &Path, home: &Path) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_evoke"))
        .args(["--json", "run", "chatty"])
        .current_dir(project)
        .env("EVOKE_HOME", home)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// How `child` ended within `limit`, or `None` (and it is killed) when it was still running.
fn ended_within(child: &mut std::process::Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let started = Instant::now();
    while started.elapsed() < limit {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

#[test]
fn a_stderr_nobody_reads_cannot_hold_evoke_past_its_deadline() {
    let root = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let project = chatty_project(root.path(), home.path());
    let mut child = run_chatty_unread(&project, home.path());
    // The 30-second deadline, the 3 seconds past it evoke promises, and room for a loaded machine.
    let status = ended_within(&mut child, Duration::from_secs(45));
    drop(child.stderr.take());
    let status = status.expect("evoke was still running 45 s after it started, its stderr unread");
    assert_eq!(status.code(), Some(1), "the body was stopped at the deadline: {status}");
}

#[test]
fn sigterm_ends_evoke_while_its_stderr_is_unread() {
    let root = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let project = chatty_project(root.path(), home.path());
    let mut child = run_chatty_unread(&project, home.path());
    // Long enough for Node to start and fill the pipe, well short of the deadline.
    std::thread::sleep(Duration::from_secs(5));
    assert!(child.try_wait().unwrap().is_none(), "evoke ended before the signal");
    assert!(Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap().success());
    let status = ended_within(&mut child, Duration::from_secs(10));
    drop(child.stderr.take());
    assert!(status.is_some(), "SIGTERM did not end evoke within 10 s, its stderr unread");
}

/// A project under `root`, trusted in `home`, whose one reflex `z` runs `file`: `head`, then grown with
/// `File::set_len` to `size` bytes, a sparse file whose NUL tail costs nothing on disk but reads as bytes.
/// Returns the project and what `evoke trust` said on stderr.
fn sparse_body_project(root: &Path, home: &Path, file: &str, head: &str, size: u64) -> (PathBuf, String) {
    let project = root.join("sparse");
    std::fs::create_dir_all(project.join("r")).unwrap();
    std::fs::write(project.join("evoke.toml"), "[reflexes]\nz = \"r\"\n").unwrap();
    std::fs::write(
        project.join("r/reflex.toml"),
        format!(
            "reflex = 1\ndescription = \"Zap the widget.\"\neffect = \"read\"\nconfirm = \"Zap?\"\nrun = \"{file}\"\n\n\
             [examples]\n\"zap the widget\" = {{}}\n"
        ),
    )
    .unwrap();
    std::fs::write(project.join("r").join(file), head).unwrap();
    std::fs::OpenOptions::new().write(true).open(project.join("r").join(file)).unwrap().set_len(size).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_evoke"))
        .arg("trust")
        .current_dir(&project)
        .env("EVOKE_HOME", home)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    (project, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// `evoke run z` in `project`: its stderr, exit code, and how long it took.
fn run_z(project: &Path, home: &Path) -> (String, Option<i32>, Duration) {
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_evoke"))
        .args(["run", "z"])
        .current_dir(project)
        .env("EVOKE_HOME", home)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    // A refusal may quote the file; only its head is needed to read it.
    let stderr: String = String::from_utf8_lossy(&out.stderr).chars().take(4000).collect();
    (stderr, out.status.code(), started.elapsed())
}

#[test]
fn a_file_body_past_16_mib_is_refused_while_reading_and_nothing_runs() {
    // A body that would say it ran, its source then padded past the limit inside a line comment, so that
    // read whole it still parses and runs: evoke held a 32 MiB one as over a gigabyte and ran it 59 s.
    let head = "export default function () {\n  process.stderr.write(\"the body ran\\n\");\n  return { text: \"ran\" };\n}\n// ";
    let limit = evoke_bodies::node::MAX_SOURCE;
    for file in ["z.mts", "z.mjs"] {
        let root = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        let (project, _) = sparse_body_project(root.path(), home.path(), file, head, limit + 1);
        let (stderr, code, took) = run_z(&project, home.path());
        assert_eq!(code, Some(1), "{file}: {stderr}");
        assert!(
            stderr.contains(&format!("{file} holds more than 16 MiB, the most evoke reads of a file body")),
            "{file}: {stderr}"
        );
        assert!(!stderr.contains("the body ran"), "{file}: {stderr}");
        assert!(took < Duration::from_secs(10), "{file}: refused after {took:?}");
    }
}

#[test]
fn a_component_past_64_mib_is_refused_at_trust_and_at_run_while_reading() {
    // A sparse .wasm just past the limit: read whole it was held and handed to the compiler, at any size
    // (a 1.5 GB one too), at trust and again at every run.
    let root = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let limit = evoke_bodies::component::MAX_COMPONENT;
    let (project, trusted) = sparse_body_project(root.path(), home.path(), "z.wasm", "", limit + 1);
    let refusal = "z.wasm holds more than 64 MiB, the most evoke reads of a component";
    assert!(trusted.contains(refusal), "{trusted}");
    let (stderr, code, took) = run_z(&project, home.path());
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains(refusal), "{stderr}");
    assert!(took < Duration::from_secs(10), "refused after {took:?}");
}
