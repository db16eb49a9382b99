//! Postgres restarted under two working workers, while their sink is down: they reconnect, take their
//! partitions again and go on; every effect is applied once at an idempotent receiver and nothing is lost.
//! (Its own test binary: the restart cuts every connection to the server, and no other test runs beside.)

mod common;

use common::postgres::{client, namespace, spread_events, url};
use common::workers::*;
use common::*;
use serde_json::Value;
use std::process::Command;

/// The command that controls the test server (`.ci/postgres` sets it), with `restart` appended.
fn restart_postgres() {
    let ctl = std::env::var("EXPRESSO_TEST_PG_CTL")
        .expect("EXPRESSO_TEST_PG_CTL names the server's pg_ctl command; source .ci/postgres");
    let mut words = ctl.split_whitespace();
    let status = Command::new(words.next().unwrap())
        .args(words)
        .args(["restart", "-m", "fast"])
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "pg_ctl restart failed");
}

#[test]
fn postgres_restarted_with_a_sink_down_loses_nothing_and_acts_once() {
    let Some(url) = url() else { return };
    let ns = namespace(&url, "restart", 4);
    let dir = temp_dir("pg-restart");
    let (program, events, recording, expected) = triage_fixture(&dir, 60);
    // The receiver is down (nothing listens on its address) until after the restart.
    let addr = free_addr();
    let sinks = pg_sinks(&dir, &ns, &format!("http://{addr}/hook"));
    let (mut a, addr_a) = spawn_worker(&program, &recording, &sinks, None);
    let (mut b, addr_b) = spawn_worker(&program, &recording, &sinks, None);
    let mut look = client(&ns);
    eventually("both workers hold partitions", 20, || lease_holders(&mut look, &ns) == 2);
    let events = spread_events(&events, 16);
    let mut chunks = events.chunks(5).map(|c| Value::Array(c.to_vec()).to_string()).collect::<Vec<_>>().into_iter();
    for body in chunks.by_ref().take(6) {
        assert!(post(&addr_a, &body) || post(&addr_b, &body), "the workers refused events");
    }
    restart_postgres();
    // The rest, once a worker takes requests again (a 503 while its connection is made again).
    for body in chunks {
        eventually("a worker takes events after the restart", 30, || post(&addr_b, &body) || post(&addr_a, &body));
    }
    drop(look);
    let receiver = Receiver::start_on(addr, true, 0);
    let all = sorted(expected.values().flatten().cloned().collect());
    eventually("every effect once the receiver is up", 60, || sorted(receiver.applied()) == all);
    let mut look = client(&ns);
    eventually("nothing waiting", 30, || {
        expresso_host::pg::partition_store::counts(&mut look).is_ok_and(|c| c.intent == 0 && c.events == 60)
    });
    terminate(&mut a);
    terminate(&mut b);
    std::fs::remove_dir_all(&dir).unwrap();
}
