//! Durable timers: the host's clock appends `schedule` and `silence` events, each once per due time, in
//! the transaction that moves the timer past it; a restart neither loses nor doubles a firing.

mod common;

use common::*;
use expresso_host::Db;
use expresso_host::timers::{self, Timers};
use expresso_runtime::{Event, EventType};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn timers_of(source: &str) -> Timers {
    Timers::of(&expresso_lang::compile(source).unwrap().program)
}

fn log(db: &Db) -> Vec<Event> {
    db.events_after(0, 10_000).unwrap().into_iter().map(|(_, e)| e).collect()
}

fn timer_events(db: &Db) -> Vec<(String, u64, u64)> {
    log(db).into_iter().filter(|e| e.id.starts_with("timer:")).map(|e| (e.id, e.rev, e.t_event)).collect()
}

fn message(id: &str, t: u64) -> Event {
    serde_json::from_str(&event(id, t, "hello")).unwrap()
}

const TICK: &str = "agent \"Tick\" {\n  grants { message.send }\n  on schedule \"every 2s\" { say \"tick\" }\n}\n";

#[test]
fn a_schedule_is_armed_fires_once_per_due_and_a_restart_fires_the_missed_due_once() {
    let dir = temp_dir("timers-schedule");
    let mut db = Db::open(&dir).unwrap();
    let mut t = timers_of(TICK);
    // Armed at 10.5 s: the due time before it (10 s) never fires; the next is 12 s.
    assert_eq!(timers::fire(&mut db, &mut t, 10_500).unwrap(), 0);
    assert_eq!(timers::schedules(&mut db).unwrap(), vec![("schedule".into(), "every 2s".into(), 10_500, 12_000)]);
    assert_eq!(timers::fire(&mut db, &mut t, 11_999).unwrap(), 0);
    assert_eq!(timers::fire(&mut db, &mut t, 12_000).unwrap(), 1);
    assert_eq!(timers::fire(&mut db, &mut t, 12_700).unwrap(), 0, "a due time fires once");
    let first = log(&db).pop().unwrap();
    assert_eq!(first.id, "timer:schedule:schedule:every%202s:12000");
    assert_eq!(first.kind, EventType::Schedule);
    assert_eq!(first.t_event, 12_000);
    assert_eq!(first.payload["name"], "every 2s");
    assert_eq!((first.partition.workspace.as_str(), first.partition.room.as_str()), ("expresso", "schedule"));
    drop(db);

    // A restart (a fresh host over the same store) after 14 s, 16 s and 18 s went by: the latest fires,
    // once; the ones before it do not, and 12 s does not fire again.
    let mut db = Db::open(&dir).unwrap();
    let mut t = timers_of(TICK);
    assert_eq!(timers::fire(&mut db, &mut t, 19_000).unwrap(), 1);
    assert_eq!(timers::fire(&mut db, &mut t, 19_001).unwrap(), 0);
    let mut again = timers_of(TICK);
    assert_eq!(timers::fire(&mut db, &mut again, 19_002).unwrap(), 0, "a second host finds the due time fired");
    assert_eq!(
        timer_events(&db),
        vec![
            ("timer:schedule:schedule:every%202s:12000".into(), 0, 12_000),
            ("timer:schedule:schedule:every%202s:18000".into(), 0, 18_000)
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

const NUDGE: &str = "agent \"Nudge\" {\n  grants { message.send }\n  on silence for 2s { say \"still there?\" }\n}\n";

#[test]
fn a_silence_re_armed_by_a_new_message_does_not_fire_early() {
    let dir = temp_dir("timers-silence");
    let mut db = Db::open(&dir).unwrap();
    let mut t = timers_of(NUDGE);
    db.append(&[message("m1", 1_000)]).unwrap();
    assert_eq!(timers::fire(&mut db, &mut t, 2_500).unwrap(), 0);
    // A message at 2.5 s: the silence now starts there, so 3 s (1 s + 2 s) is not its due time.
    db.append(&[message("m2", 2_500)]).unwrap();
    assert_eq!(timers::fire(&mut db, &mut t, 3_000).unwrap(), 0, "fired on the silence before m2");
    assert_eq!(timers::fire(&mut db, &mut t, 4_499).unwrap(), 0, "fired early");
    assert_eq!(timers::fire(&mut db, &mut t, 4_500).unwrap(), 1);
    assert_eq!(timers::fire(&mut db, &mut t, 9_000).unwrap(), 0, "one silence fires once");
    let fired = log(&db).pop().unwrap();
    assert_eq!(fired.id, "timer:silence:acme:#support:2500");
    assert_eq!((fired.kind, fired.rev, fired.t_event), (EventType::Silence, 2_000, 4_500));
    assert_eq!(fired.payload["millis"], 2_000);
    assert_eq!((fired.partition.workspace.as_str(), fired.partition.room.as_str()), ("acme", "#support"));
    // A message that arrives late (its time before the silence's start) does not start it again.
    db.append(&[message("m0", 2_000)]).unwrap();
    assert_eq!(timers::fire(&mut db, &mut t, 9_500).unwrap(), 0);
    // A new one does, and the restart of the host keeps the timer.
    db.append(&[message("m3", 10_000)]).unwrap();
    drop(db);
    let mut db = Db::open(&dir).unwrap();
    let mut t = timers_of(NUDGE);
    assert_eq!(timers::fire(&mut db, &mut t, 11_999).unwrap(), 0);
    assert_eq!(timers::fire(&mut db, &mut t, 12_000).unwrap(), 1);
    assert_eq!(timer_events(&db).last().unwrap().0, "timer:silence:acme:#support:10000");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_silence_only_counts_in_the_partitions_its_behaviors_can_fire_in() {
    let dir = temp_dir("timers-scope");
    let mut db = Db::open(&dir).unwrap();
    let source = "agent \"Host\" {\n  grants { message.send }\n  lives in meeting #standup\n  on silence for 1s { say \"anyone?\" }\n}\n";
    let mut t = timers_of(source);
    let elsewhere = message("m1", 1_000);
    let mut standup = message("u1", 1_000);
    standup.partition.room = "#standup".into();
    db.append(&[elsewhere, standup]).unwrap();
    assert_eq!(timers::fire(&mut db, &mut t, 5_000).unwrap(), 1);
    assert_eq!(timer_events(&db), vec![("timer:silence:acme:#standup:1000".into(), 1_000, 2_000)]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Two agents waiting for silences of different lengths in one room: the silence's event is appended at
/// each length, as one id with a higher `rev`; the short one's agent fires once, the long one's once.
#[test]
fn silences_of_two_lengths_fire_each_agent_once_through_the_host() {
    let dir = temp_dir("timers-drain");
    let program = dir.join("p.ex");
    std::fs::write(
        &program,
        "agent \"Nudge\" {\n  grants { message.send }\n  on silence for 2m { say \"still there?\" }\n}\n\
         agent \"Closer\" {\n  grants { message.send }\n  on silence for 10m { say \"closing\" }\n}\n",
    )
    .unwrap();
    let sinks = dir.join("sinks.toml");
    std::fs::write(
        &sinks,
        "[sinks.out]\nkind = \"file\"\npath = \"out.jsonl\"\n[capabilities]\n\"message.send\" = \"out\"\n",
    )
    .unwrap();
    let state = dir.join("state");
    Db::open(&state).unwrap().append(&[message("m1", 1_000)]).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_expresso-host"))
        .args(["drain", program.to_str().unwrap(), "--state", state.to_str().unwrap()])
        .args(["--sinks", sinks.to_str().unwrap(), "--settle-ms", "2000"])
        .env_remove("EXPRESSO_FAULT")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The message at 1 s is long past: both lengths are due at once.
    assert_eq!(
        timer_events(&Db::open(&state).unwrap()),
        vec![
            ("timer:silence:acme:#support:1000".into(), 120_000, 121_000),
            ("timer:silence:acme:#support:1000".into(), 600_000, 601_000)
        ]
    );
    assert_eq!(
        sorted(file_keys(&dir.join("out.jsonl"))),
        vec![
            "timer:silence:acme:%23support:1000|Closer#0/0/say|message.send".to_string(),
            "timer:silence:acme:%23support:1000|Nudge#0/0/say|message.send".to_string(),
        ]
    );
    // `run` over the store's log as `expresso export` writes it, with no clock, keys the same effects.
    let exported = dir.join("export.jsonl");
    expresso_host::export::write(&mut Db::open(&state).unwrap(), &exported).unwrap();
    let events = expresso_runtime::read_log(&std::fs::read_to_string(&exported).unwrap()).unwrap();
    assert_eq!(events.iter().filter(|e| e.kind == EventType::Silence).count(), 2);
    let compiled = expresso_lang::compile(&std::fs::read_to_string(&program).unwrap()).unwrap();
    let (mut journal, mut world) = (expresso_runtime::MemoryStore::default(), expresso_runtime::MemoryStore::default());
    let provider = expresso_runtime::provider::NoProvider;
    let mut runtime = expresso_runtime::Runtime::new(&compiled, &mut journal, &mut world, &provider);
    runtime.run(events).unwrap();
    let keys: Vec<String> =
        runtime.outcome().effects.iter().map(|r| r["idemKey"].as_str().unwrap().to_string()).collect();
    assert_eq!(sorted(keys), sorted(file_keys(&dir.join("out.jsonl"))));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_schedule_string_is_refused_before_anything_runs() {
    let dir = temp_dir("timers-bad");
    let program = dir.join("bad.ex");
    std::fs::write(
        &program,
        "agent \"Tick\" {\n  grants { message.send }\n  on schedule \"every 5 minutes\" { say \"tick\" }\n}\n",
    )
    .unwrap();
    let sinks = dir.join("sinks.toml");
    std::fs::write(
        &sinks,
        "[sinks.out]\nkind = \"file\"\npath = \"out.jsonl\"\n[capabilities]\n\"message.send\" = \"out\"\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_expresso-host"))
        .args(["drain", program.to_str().unwrap(), "--state", dir.join("state").to_str().unwrap()])
        .args(["--sinks", sinks.to_str().unwrap()])
        .env_remove("EXPRESSO_FAULT")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("E_SCHEDULE"), "{stderr}");
    assert!(stderr.contains("bad.ex:3:6"), "{stderr}");
    assert!(stderr.contains("fix: write `every 5m`"), "{stderr}");
    assert!(!dir.join("out.jsonl").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_schedule_shared_by_agents_in_different_places_is_refused_naming_them() {
    let t = timers_of(
        "agent \"A\" {\n  grants { message.send }\n  lives in meeting #standup\n  on schedule \"daily 09:00\" { say \"a\" }\n}\n\
         agent \"B\" {\n  grants { message.send }\n  on schedule \"daily 09:00\" { say \"b\" }\n}\n",
    );
    let refused = t.check().unwrap_err().to_string();
    assert!(refused.contains("schedule \"daily 09:00\""), "{refused}");
    assert!(refused.contains("A in #standup") && refused.contains("B in schedule"), "{refused}");
    assert!(refused.contains("fix:"), "{refused}");
    let dir = temp_dir("timers-refused");
    let mut db = Db::open(&dir).unwrap();
    let mut t = t;
    assert!(timers::fire(&mut db, &mut t, 1_000).is_err(), "a refused program's timers never fire");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_id_part_is_printable_ascii_and_bounded() {
    assert_eq!(timers::id_part("#support"), "#support");
    assert_eq!(timers::id_part("a b:c%d"), "a%20b%3Ac%25d");
    assert_eq!(timers::id_part("café"), "caf%C3%A9");
    let long = timers::id_part(&"x".repeat(2_000));
    assert_eq!(long.len(), 17);
    assert!(long.starts_with('h'));
    assert_ne!(long, timers::id_part(&"x".repeat(2_001)));
}

// ---------------------------------------------------------------------------------------------------
// `serve` as a process, killed with SIGKILL.

fn spawn(dir: &Path, program: &Path, sinks: &Path, fault: Option<&str>) -> Child {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_expresso-host"));
    cmd.args(["serve", program.to_str().unwrap(), "--state", dir.join("state").to_str().unwrap()])
        .args(["--sinks", sinks.to_str().unwrap(), "--listen", "127.0.0.1:0"])
        .env_remove("EXPRESSO_FAULT")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if let Some(f) = fault {
        cmd.env("EXPRESSO_FAULT", f);
    }
    cmd.spawn().unwrap()
}

fn eventually(what: &str, mut f: impl FnMut() -> bool) {
    let start = Instant::now();
    while !f() {
        assert!(start.elapsed() < Duration::from_secs(30), "never: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn http_sinks(dir: &Path, receiver: &Receiver) -> std::path::PathBuf {
    let path = dir.join("sinks.toml");
    std::fs::write(
        &path,
        format!("[sinks.s]\nkind = \"http\"\nurl = \"{}\"\n[capabilities]\n\"message.send\" = \"s\"\n", receiver.url()),
    )
    .unwrap();
    path
}

/// The due time an effect's key names: `timer:schedule:schedule:every%20Ns:<due>|Tick#0/0/say|…`.
fn due_of(key: &str) -> u64 {
    key.split('|').next().unwrap().rsplit(':').next().unwrap().parse().unwrap()
}

fn kill(child: &mut Child) {
    // SAFETY: kill(2) on a child this test started.
    unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
    child.wait().unwrap();
}

#[test]
fn a_timer_due_while_serve_is_killed_fires_once_after_the_restart() {
    let dir = temp_dir("timers-kill");
    let program = dir.join("tick.ex");
    std::fs::write(&program, TICK.replace("every 2s", "every 3s")).unwrap();
    let receiver = Receiver::start(true, 0);
    let sinks = http_sinks(&dir, &receiver);
    let mut child = spawn(&dir, &program, &sinks, None);
    eventually("a first tick", || !receiver.applied().is_empty());
    // Just after a due time, with its delivery marked: the next one is about 3 s away.
    std::thread::sleep(Duration::from_millis(300));
    let before = receiver.applied();
    let last = due_of(before.last().unwrap());
    kill(&mut child);
    let killed_at = expresso_host::sinks::now_ms() as u64;
    // Down across the next due time.
    std::thread::sleep(Duration::from_millis(3_200));
    let missed = last + 3_000;
    assert!(killed_at < missed, "killed after the due time it is to miss");
    let mut child = spawn(&dir, &program, &sinks, None);
    eventually("the due time missed while down", || receiver.applied().iter().any(|k| due_of(k) == missed));
    std::thread::sleep(Duration::from_millis(300));
    kill(&mut child);
    let applied = receiver.applied();
    let requests = receiver.requests();
    let sent = |due: u64| requests.iter().filter(|(k, _)| due_of(k) == due).count();
    assert_eq!(sent(missed), 1, "the missed due time was sent {} times", sent(missed));
    // Every due time from the first tick on fired once, none twice, none skipped.
    let dues: Vec<u64> = applied.iter().map(|k| due_of(k)).collect();
    assert_eq!(dedup_sorted(applied.clone()).len(), applied.len());
    for pair in dues.windows(2) {
        assert_eq!(pair[1], pair[0] + 3_000, "due times {dues:?}");
    }
    let db = Db::open(&dir.join("state")).unwrap();
    assert_eq!(timer_events(&db).iter().filter(|(id, _, _)| id.ends_with(&format!(":{missed}"))).count(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn serve_killed_just_after_a_timer_fired_runs_its_event_once_after_the_restart() {
    let dir = temp_dir("timers-kill-point");
    let program = dir.join("tick.ex");
    std::fs::write(&program, TICK).unwrap();
    let receiver = Receiver::start(true, 0);
    let sinks = http_sinks(&dir, &receiver);
    // The first commit arms the timer; the second appends its first due time's event, then the kill.
    let mut child = spawn(&dir, &program, &sinks, Some("after-timer:2"));
    let status = child.wait().unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(9), "serve was not killed at its point");
    assert!(receiver.requests().is_empty(), "the timer's event ran before the kill");
    let fired = timer_events(&Db::open(&dir.join("state")).unwrap());
    assert_eq!(fired.len(), 1);
    let due = fired[0].2;
    let mut child = spawn(&dir, &program, &sinks, None);
    eventually("the event committed before the kill runs", || receiver.applied().iter().any(|k| due_of(k) == due));
    std::thread::sleep(Duration::from_millis(300));
    kill(&mut child);
    let requests = receiver.requests();
    assert_eq!(requests.iter().filter(|(k, _)| due_of(k) == due).count(), 1);
    let db = Db::open(&dir.join("state")).unwrap();
    assert_eq!(timer_events(&db).iter().filter(|(_, _, t)| *t == due).count(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_schedule_taken_out_of_the_program_is_not_due_for_ever() {
    let dir = temp_dir("timers-edit");
    let mut db = Db::open(&dir).unwrap();
    let mut t = timers_of(TICK);
    timers::fire(&mut db, &mut t, 10_500).unwrap();
    // The program is edited: `every 2s` is gone, `every 1h` is new. The old row stays, past due.
    let hourly = "agent \"Tick\" {\n  grants { message.send }\n  on schedule \"every 1h\" { say \"tick\" }\n}\n";
    let mut t = timers_of(hourly);
    assert_eq!(timers::fire(&mut db, &mut t, 20_000).unwrap(), 0, "the old schedule fired");
    assert_eq!(t.next_due_ms(), Some(3_600_000), "the next pass is due at the old schedule's time");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_silence_under_way_takes_a_duration_added_by_an_edit() {
    let dir = temp_dir("timers-edit-silence");
    let mut db = Db::open(&dir).unwrap();
    let long = "agent \"Closer\" {\n  grants { message.send }\n  on silence for 10s { say \"closing\" }\n}\n";
    let mut t = timers_of(long);
    db.append(&[message("m1", 1_000)]).unwrap();
    assert_eq!(timers::fire(&mut db, &mut t, 2_000).unwrap(), 0);
    // Restarted with a 2 s silence added: due at 3 s, not held until the 10 s one.
    let both = format!(
        "{long}agent \"Nudge\" {{\n  grants {{ message.send }}\n  on silence for 2s {{ say \"still there?\" }}\n}}\n"
    );
    let mut t = timers_of(&both);
    assert_eq!(timers::fire(&mut db, &mut t, 5_000).unwrap(), 1);
    assert_eq!(timer_events(&db), vec![("timer:silence:acme:#support:1000".into(), 2_000, 3_000)]);
    assert_eq!(timers::fire(&mut db, &mut t, 11_000).unwrap(), 1);
    assert_eq!(timer_events(&db).last().unwrap().1, 10_000);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_silence_added_to_a_program_with_a_log_counts_from_where_the_agents_are() {
    let dir = temp_dir("timers-added");
    let mut db = Db::open(&dir).unwrap();
    db.append(&[message("m1", 1_000)]).unwrap();
    let mut other = message("m2", 1_000);
    other.partition.room = "#random".into();
    db.append(&[other]).unwrap();
    // The agents have run the log to its end (position 2) with a program that had no silence.
    let memory = serde_json::Map::new();
    let batch =
        expresso_host::store::BatchWrite { memory: vec![("Triage".into(), memory)], cursor: 2, ..Default::default() };
    db.commit_batch(&batch).unwrap();
    let mut t = timers_of(NUDGE);
    assert_eq!(timers::fire(&mut db, &mut t, 60_000).unwrap(), 0, "a silence fired for the log's history");
    // A message after that starts one, and the start point survives a restart.
    db.append(&[message("m3", 50_000)]).unwrap();
    drop(db);
    let mut db = Db::open(&dir).unwrap();
    let mut t = timers_of(NUDGE);
    assert_eq!(timers::fire(&mut db, &mut t, 60_000).unwrap(), 1);
    assert_eq!(timer_events(&db), vec![("timer:silence:acme:#support:50000".into(), 2_000, 52_000)]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_message_stamped_at_the_end_of_time_makes_no_silence_due() {
    let dir = temp_dir("timers-far");
    let mut db = Db::open(&dir).unwrap();
    let mut t = timers_of(NUDGE);
    db.append(&[message("m1", u64::MAX - 1)]).unwrap();
    assert_eq!(timers::fire(&mut db, &mut t, 1_796_551_200_000).unwrap(), 0);
    assert_eq!(t.next_due_ms(), Some(i64::MAX));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_pass_waits_for_another_writer_rather_than_failing() {
    let dir = temp_dir("timers-busy");
    let mut db = Db::open(&dir).unwrap();
    db.append(&[message("m1", 1_000)]).unwrap();
    // Another writer (an operator's command) holds the store's write lock, and commits a little later.
    let mut other = rusqlite::Connection::open(dir.join(expresso_host::store::FILE_NAME)).unwrap();
    let writer = std::thread::spawn(move || {
        let tx = other.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).unwrap();
        tx.execute("INSERT INTO meta (key, value) VALUES ('other', 'x')", []).unwrap();
        std::thread::sleep(Duration::from_millis(300));
        tx.commit().unwrap();
    });
    std::thread::sleep(Duration::from_millis(100));
    let mut t = timers_of(NUDGE);
    assert_eq!(timers::fire(&mut db, &mut t, 60_000).unwrap(), 1);
    writer.join().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_host_counts_the_events_its_clock_appended() {
    let dir = temp_dir("timers-metrics");
    let program = dir.join("p.ex");
    std::fs::write(&program, NUDGE).unwrap();
    std::fs::write(
        dir.join("sinks.toml"),
        "[sinks.out]\nkind = \"file\"\npath = \"out.jsonl\"\n[capabilities]\n\"message.send\" = \"out\"\n",
    )
    .unwrap();
    let args = expresso_host::cli::HostArgs {
        program,
        state: Some(dir.join("state")),
        sinks: dir.join("sinks.toml"),
        provider: "none".into(),
        batch: 16,
    };
    let mut host = expresso_host::cli::open(&args).unwrap();
    host.db_mut().append(&[message("m1", 1_000)]).unwrap();
    let mut other = message("m2", 1_000);
    other.partition.room = "#random".into();
    host.db_mut().append(&[other]).unwrap();
    assert_eq!(host.drain(1_000).unwrap(), 0);
    assert!(host.metrics.render().contains("\nexpresso_timer_events_total 2\n"), "{}", host.metrics.render());
    assert_eq!(file_keys(&dir.join("out.jsonl")).len(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------------------------------------------
// Postgres: each partition's worker drives its own share of the timers.

#[test]
fn on_postgres_each_timer_is_driven_once_by_the_partition_its_events_fall_in() {
    use expresso_host::pg::{PartitionStore, partition_of};
    let Some(url) = common::postgres::url() else { return };
    let ns = common::postgres::namespace(&url, "timers", 4);
    let both = format!("{TICK}{}", NUDGE);
    let lease_all = || -> Vec<PartitionStore> {
        (0..4).map(|p| PartitionStore::lease(common::postgres::client(&ns), &ns, p).unwrap().ok().unwrap()).collect()
    };
    let mut stores = lease_all();
    let mut client = common::postgres::client(&ns);
    let m1 = message("m1", 1_000);
    expresso_host::pg::partition_store::append(&mut client, &ns, std::slice::from_ref(&m1)).unwrap();
    let mut timers: Vec<Timers> = (0..4).map(|_| timers_of(&both)).collect();
    let pass = |stores: &mut Vec<PartitionStore>, timers: &mut Vec<Timers>, now: i64| -> Vec<usize> {
        stores.iter_mut().zip(timers.iter_mut()).map(|(s, t)| timers::fire(s, t, now).unwrap()).collect()
    };
    // Armed at 10.5 s; the silence after m1 (1 s) is due at 3 s, so it fires now, in m1's partition.
    let silent_part = partition_of(&m1, 4) as usize;
    let mut want = vec![0; 4];
    want[silent_part] = 1;
    assert_eq!(pass(&mut stores, &mut timers, 10_500), want);
    // The schedule's first due time (12 s) fires in the one partition its event falls in.
    let tick_part = partition_of(&timers::schedule_event(&timers_of(TICK).schedules[0], 0), 4) as usize;
    let mut want = vec![0; 4];
    want[tick_part] = 1;
    assert_eq!(pass(&mut stores, &mut timers, 12_000), want);
    assert_eq!(pass(&mut stores, &mut timers, 12_500), vec![0; 4]);
    // Every worker gone and back (new leases, new hosts): nothing fires twice, and the next due time once.
    drop(stores);
    let mut stores = lease_all();
    let mut timers: Vec<Timers> = (0..4).map(|_| timers_of(&both)).collect();
    assert_eq!(pass(&mut stores, &mut timers, 13_000), vec![0; 4]);
    assert_eq!(pass(&mut stores, &mut timers, 14_100), want);
    let rows = client
        .query("SELECT part, id, rev FROM events WHERE id LIKE 'timer:%' ORDER BY seq", &[])
        .unwrap()
        .iter()
        .map(|r| (r.get::<_, i32>(0) as usize, r.get::<_, String>(1), r.get::<_, i64>(2)))
        .collect::<Vec<_>>();
    assert_eq!(
        rows,
        vec![
            (silent_part, "timer:silence:acme:#support:1000".to_string(), 2_000),
            (tick_part, "timer:schedule:schedule:every%202s:12000".to_string(), 0),
            (tick_part, "timer:schedule:schedule:every%202s:14000".to_string(), 0),
        ]
    );
}

#[test]
fn serve_and_drain_refuse_a_schedule_shared_across_places_before_they_start() {
    let dir = temp_dir("timers-mixed");
    let program = dir.join("mixed.ex");
    std::fs::write(
        &program,
        "agent \"A\" {\n  grants { message.send }\n  lives in meeting #standup\n  on schedule \"daily 09:00\" { say \"a\" }\n}\n\
         agent \"B\" {\n  grants { message.send }\n  on schedule \"daily 09:00\" { say \"b\" }\n}\n",
    )
    .unwrap();
    let sinks = "[sinks.out]\nkind = \"file\"\npath = \"out.jsonl\"\n[capabilities]\n\"message.send\" = \"out\"\n";
    std::fs::write(dir.join("sqlite.toml"), sinks).unwrap();
    // A Postgres store nobody listens on: the program is refused before any connection is tried.
    std::fs::write(dir.join("pg.toml"), format!("{sinks}[store]\npostgres = \"postgres://nobody@127.0.0.1:9/x\"\n"))
        .unwrap();
    for (command, toml) in [("drain", "sqlite.toml"), ("serve", "pg.toml")] {
        let out = Command::new(env!("CARGO_BIN_EXE_expresso-host"))
            .args([command, program.to_str().unwrap(), "--state", dir.join("state").to_str().unwrap()])
            .args(["--sinks", dir.join(toml).to_str().unwrap()])
            .args(if command == "serve" { vec!["--listen", "127.0.0.1:0"] } else { vec![] })
            .env_remove("EXPRESSO_FAULT")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command}: {stderr}");
        assert!(
            stderr.contains("schedule \"daily 09:00\" is declared by agents in different places"),
            "{command}: {stderr}"
        );
        assert!(stderr.contains("A in #standup") && stderr.contains("fix:"), "{command}: {stderr}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_agent_s_own_words_written_back_do_not_end_a_silence() {
    let dir = temp_dir("timers-own-words");
    let mut db = Db::open(&dir).unwrap();
    let mut t = timers_of(NUDGE);
    db.append(&[message("m1", 1_000)]).unwrap();
    assert_eq!(timers::fire(&mut db, &mut t, 3_000).unwrap(), 1);
    // The nudge's `say`, as the host writes an agent's words back into the log: it starts no silence.
    let mut said = message("said|timer:silence:acme:%23support:1000|Nudge#0/0/say|message.send", 3_000);
    said.payload.insert("agent".into(), serde_json::json!("Nudge"));
    db.append(&[said]).unwrap();
    assert_eq!(timers::fire(&mut db, &mut t, 10_000).unwrap(), 0, "the agent's own words started a silence");
    // A person's message does.
    db.append(&[message("m2", 10_000)]).unwrap();
    assert_eq!(timers::fire(&mut db, &mut t, 12_000).unwrap(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn on_postgres_a_timer_due_while_its_worker_is_killed_fires_once_in_the_next_worker() {
    use common::workers::{eventually as within, pg_sinks, spawn_worker};
    let Some(url) = common::postgres::url() else { return };
    let ns = common::postgres::namespace(&url, "timers_kill", 2);
    let dir = temp_dir("timers-pg-kill");
    let program = dir.join("tick.ex");
    std::fs::write(&program, TICK.replace("every 2s", "every 3s")).unwrap();
    let recording = dir.join("recording.json");
    std::fs::write(&recording, "{}").unwrap();
    let receiver = Receiver::start(true, 0);
    let sinks = pg_sinks(&dir, &ns, &receiver.url());
    let (mut first, _) = spawn_worker(&program, &recording, &sinks, None);
    within("a first tick", 30, || !receiver.applied().is_empty());
    std::thread::sleep(Duration::from_millis(300));
    let last = due_of(receiver.applied().last().unwrap());
    first.0.kill().unwrap();
    first.0.wait().unwrap();
    let killed_at = expresso_host::sinks::now_ms() as u64;
    std::thread::sleep(Duration::from_millis(3_200));
    let missed = last + 3_000;
    assert!(killed_at < missed, "killed after the due time it is to miss");
    let (second, _) = spawn_worker(&program, &recording, &sinks, None);
    within("the due time missed while no worker ran", 30, || receiver.applied().iter().any(|k| due_of(k) == missed));
    std::thread::sleep(Duration::from_millis(300));
    drop(second);
    let applied = receiver.applied();
    let requests = receiver.requests();
    assert_eq!(requests.iter().filter(|(k, _)| due_of(k) == missed).count(), 1);
    let dues: Vec<u64> = applied.iter().map(|k| due_of(k)).collect();
    for pair in dues.windows(2) {
        assert_eq!(pair[1], pair[0] + 3_000, "due times {dues:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
