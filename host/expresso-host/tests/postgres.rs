//! Scale-out on Postgres: leases, the cursor's fence, two workers sharing one log with exactly-once
//! effects, and a worker killed mid-firing whose partitions another takes over.

mod common;

use common::postgres::{client, namespace, spread_events, url};
use common::workers::*;
use common::*;
use expresso_host::LogStore;
use expresso_host::pg::PartitionStore;
use expresso_host::store::BatchWrite;
use serde_json::{Map, Value};

#[test]
fn a_partition_is_leased_by_one_connection_and_a_moved_cursor_refuses_the_commit() {
    let Some(url) = url() else { return };
    let ns = namespace(&url, "lease", 4);
    let first = PartitionStore::lease(client(&ns), &ns, 2).unwrap().ok().expect("a free partition is leased");
    assert!(PartitionStore::lease(client(&ns), &ns, 2).unwrap().is_err(), "a held partition was leased again");
    assert!(PartitionStore::lease(client(&ns), &ns, 3).unwrap().is_ok(), "another partition is free");
    let mut first = first;
    let mut memory = Map::new();
    memory.insert("n".into(), Value::from(1));
    let batch = |cursor| BatchWrite { memory: vec![("A".into(), memory.clone())], cursor, ..BatchWrite::default() };
    first.commit_batch(&batch(5)).unwrap();
    // Someone else moved the cursor (a lease that passed on): this holder's next commit is refused whole.
    client(&ns).execute("UPDATE cursors SET cursor = 9 WHERE part = 2", &[]).unwrap();
    // The refused batch carries a journal entry, an intent, a dedup row and new memory: none may land.
    let mut late = batch(7);
    late.journal.push(("late|A#0/0/classify".into(), "late".into(), Value::from("x")));
    late.intents.push(("late|A#0/1/react|react.add".into(), "late".into(), "react.add".into(), Value::from(1)));
    late.dedup.push(("A".into(), "late".into()));
    late.memory[0].1.insert("n".into(), Value::from(2));
    let refused = first.commit_batch(&late).unwrap_err().to_string();
    assert!(refused.contains("lease has passed"), "{refused}");
    let mut look = client(&ns);
    let cursor: i64 = look.query_one("SELECT cursor FROM cursors WHERE part = 2", &[]).unwrap().get(0);
    assert_eq!(cursor, 9);
    let count = |look: &mut ::postgres::Client, sql: &str| -> i64 { look.query_one(sql, &[]).unwrap().get(0) };
    assert_eq!(count(&mut look, "SELECT COUNT(*) FROM journal WHERE event = 'late'"), 0);
    assert_eq!(count(&mut look, "SELECT COUNT(*) FROM world WHERE event = 'late'"), 0);
    assert_eq!(count(&mut look, "SELECT COUNT(*) FROM dedup WHERE event = 'late'"), 0);
    let memory: String = look.query_one("SELECT memory FROM memory WHERE name = 'A'", &[]).unwrap().get(0);
    assert_eq!(serde_json::from_str::<Value>(&memory).unwrap()["n"], 1, "{memory}");
    // Released, the partition is free again.
    drop(first);
    assert!(PartitionStore::lease(client(&ns), &ns, 2).unwrap().is_ok(), "a dropped lease stayed held");
}

#[test]
fn two_workers_share_one_log_with_exactly_once_effects() {
    let Some(url) = url() else { return };
    let ns = namespace(&url, "two", 8);
    let dir = temp_dir("pg-two");
    let (program, events, recording, expected) = triage_fixture(&dir, 60);
    let receiver = Receiver::start(true, 0);
    let sinks = pg_sinks(&dir, &ns, &receiver.url());
    let (mut a, addr_a) = spawn_worker(&program, &recording, &sinks, None);
    let (mut b, addr_b) = spawn_worker(&program, &recording, &sinks, None);
    let mut look = client(&ns);
    eventually("both workers hold partitions", 20, || lease_holders(&mut look, &ns) == 2);
    let events = spread_events(&events, 16);
    for (i, chunk) in events.chunks(5).enumerate() {
        let body = Value::Array(chunk.to_vec()).to_string();
        assert!(post(if i % 2 == 0 { &addr_a } else { &addr_b }, &body), "a worker refused events");
    }
    let all = sorted(expected.values().flatten().cloned().collect());
    eventually("every effect", 30, || sorted(receiver.applied()) == all);
    // No fault: each effect was sent exactly once, so no partition ran on two workers.
    assert_eq!(sorted(receiver.requests().into_iter().map(|(k, _)| k).collect()), all);
    let processed = |addr: &str| -> u64 {
        let client = expresso_runtime::http::builder().build().unwrap();
        let text = client.get(format!("http://{addr}/metrics")).send().unwrap().text().unwrap();
        text.lines()
            .find_map(|l| l.strip_prefix("expresso_events_processed_total "))
            .map(|v| v.trim().parse().unwrap())
            .unwrap_or(0)
    };
    // An event with no effect may still be running when the last effect has arrived.
    eventually("every event run", 30, || processed(&addr_a) + processed(&addr_b) >= 60);
    let (pa, pb) = (processed(&addr_a), processed(&addr_b));
    assert_eq!(pa + pb, 60, "events run: {pa} + {pb}");
    assert!(pa > 0 && pb > 0, "one worker ran everything: {pa} + {pb}");
    terminate(&mut a);
    terminate(&mut b);
    let counts = expresso_host::pg::partition_store::counts(&mut look).unwrap();
    assert_eq!((counts.events, counts.done as usize, counts.intent), (60, all.len(), 0));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_worker_killed_mid_firing_is_taken_over_with_no_double_effect_and_nothing_lost() {
    let Some(url) = url() else { return };
    let ns = namespace(&url, "kill", 4);
    let dir = temp_dir("pg-kill");
    let (program, events, recording, expected) = triage_fixture(&dir, 30);
    let receiver = Receiver::start(true, 0);
    let sinks = pg_sinks(&dir, &ns, &receiver.url());
    let (mut survivor, addr_s) = spawn_worker(&program, &recording, &sinks, None);
    // The other worker kills itself after its 3rd successful delivery, before marking it done.
    let (mut doomed, addr_d) = spawn_worker(&program, &recording, &sinks, Some("after-dispatch:3"));
    let mut look = client(&ns);
    eventually("both workers hold partitions", 20, || lease_holders(&mut look, &ns) == 2);
    let events = spread_events(&events, 12);
    for chunk in events.chunks(3) {
        let body = Value::Array(chunk.to_vec()).to_string();
        // The doomed worker takes every request it can; once it is dead, the survivor takes the rest.
        if !post(&addr_d, &body) {
            assert!(post(&addr_s, &body), "the surviving worker refused events");
        }
    }
    use std::os::unix::process::ExitStatusExt;
    let status = doomed.0.wait().unwrap();
    assert_eq!(status.signal(), Some(9), "the worker was not killed at its point");
    let all = sorted(expected.values().flatten().cloned().collect());
    eventually("every effect, after the takeover", 30, || sorted(receiver.applied()) == all);
    let requests = receiver.requests().len();
    assert!(requests > all.len(), "no receipt was sent again: the kill did not fall mid-firing");
    eventually("nothing waiting", 30, || {
        expresso_host::pg::partition_store::counts(&mut look).is_ok_and(|c| c.intent == 0 && c.events == 30)
    });
    terminate(&mut survivor);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_partition_given_back_mid_batch_holds_no_agent_memory_lock() {
    let Some(url) = url() else { return };
    let ns = namespace(&url, "release", 4);
    let mut store = PartitionStore::lease(client(&ns), &ns, 1).unwrap().ok().expect("a free partition is leased");
    // A batch took the agent's memory lock and failed before its commit.
    store.lock_memory(&["Triage"]).unwrap();
    let held = |look: &mut ::postgres::Client| -> i64 {
        look.query_one(
            "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = $1::int4::oid",
            &[&ns.memory_key()],
        )
        .unwrap()
        .get(0)
    };
    let mut look = client(&ns);
    assert_eq!(held(&mut look), 1, "the batch holds the agent's memory lock");
    let spare = store.release().expect("the connection comes back for another partition");
    assert_eq!(held(&mut look), 0, "the lock went with the partition, not with the connection");
    drop(spare);
}

/// A group of events with revisions and redeliveries of one id among them, staged and released on each
/// store: Postgres reads what the group asks ahead and writes its staging at once, and must give every
/// event the fate SQLite gives it, and the log the same order.
#[test]
fn a_group_staged_on_postgres_gets_the_fates_and_log_order_it_gets_on_sqlite() {
    use expresso_host::watermark::{Fate, Window};
    let Some(url) = url() else { return };
    let ns = namespace(&url, "stage_group", 4);
    let _made = PartitionStore::lease(client(&ns), &ns, 0).unwrap().ok().expect("the deployment is made");
    let event = |id: &str, t: u64, rev: u64| -> expresso_runtime::Event {
        let line = serde_json::json!({"id": id, "partition": {"workspace": "w", "room": "#r"}, "type": "message",
            "payload": {"speaker": "ana", "text": id}, "t_event": t, "rev": rev});
        expresso_runtime::read_log(&line.to_string()).unwrap().remove(0)
    };
    let first = [
        event("a", 3_000, 0),
        event("a", 3_000, 1),
        event("a", 3_000, 0),
        event("b", 1_000, 0),
        event("c", 2_000, 0),
        event("b", 1_000, 0),
    ];
    let second = [event("a", 3_000, 2), event("c", 2_000, 0), event("d", 500, 0)];
    let window = Window::new(1_000).unwrap();

    let mut pg = client(&ns);
    let pg_first = expresso_host::pg::stage::stage(&mut pg, &ns, &first, window, 0).unwrap();
    expresso_host::pg::stage::release(&mut pg, &ns, window, 10_000).unwrap();
    let pg_second = expresso_host::pg::stage::stage(&mut pg, &ns, &second, window, 10_000).unwrap();
    expresso_host::pg::stage::release(&mut pg, &ns, window, 20_000).unwrap();
    let pg_log: Vec<(String, i64)> = client(&ns)
        .query("SELECT id, rev FROM events ORDER BY seq", &[])
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();

    let dir = temp_dir("stage_group");
    let mut db = expresso_host::store::Db::open(&dir).unwrap();
    let sqlite_first = db.stage(&first, window, 0).unwrap();
    db.release(window, 10_000, false).unwrap();
    let sqlite_second = db.stage(&second, window, 10_000).unwrap();
    db.release(window, 20_000, false).unwrap();
    let sqlite_log: Vec<(String, i64)> =
        db.events_after(0, 100).unwrap().into_iter().map(|(_, e)| (e.id.clone(), e.rev as i64)).collect();

    // The fates as 002's reading of revisions gives them, on both stores.
    let kinds = |fates: &[Fate]| -> Vec<&'static str> {
        fates
            .iter()
            .map(|f| match f {
                Fate::New => "new",
                Fate::Duplicate => "duplicate",
                _ => "refused",
            })
            .collect()
    };
    assert_eq!(kinds(&pg_first), ["new", "new", "duplicate", "new", "new", "duplicate"]);
    assert_eq!(kinds(&pg_second), ["refused", "duplicate", "new"]);
    assert_eq!(pg_first, sqlite_first);
    assert_eq!(pg_second, sqlite_second);
    let expected: Vec<(String, i64)> =
        [("b", 0), ("c", 0), ("a", 1), ("d", 0)].iter().map(|(id, rev)| (id.to_string(), *rev)).collect();
    assert_eq!(pg_log, expected);
    assert_eq!(sqlite_log, expected);
}
