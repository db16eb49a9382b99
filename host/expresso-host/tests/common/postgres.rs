//! The server a Postgres test runs against: the URL of a running server is in `EXPRESSO_TEST_PG_URL`
//! (`.ci/postgres` starts one and sets it); without it the test follows the one rule of `lacking`.

use expresso_host::pg::Namespace;

/// The server's URL, or `None` (after saying so) when this run has no Postgres.
pub fn url() -> Option<String> {
    if let Some(url) = std::env::var("EXPRESSO_TEST_PG_URL").ok().filter(|u| !u.is_empty()) {
        return Some(url);
    }
    super::lacking("postgres not running", "source .ci/postgres");
    None
}

/// A deployment of its own for one test: a fresh schema, so tests never see each other's rows or locks.
pub fn namespace(url: &str, name: &str, partitions: u32) -> Namespace {
    let schema = format!("t_{name}_{}", std::process::id());
    let mut client = postgres::Client::connect(url, postgres::NoTls).expect("connect to EXPRESSO_TEST_PG_URL");
    client.batch_execute(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE")).unwrap();
    Namespace { url: url.to_string(), schema, partitions }
}

/// A client on the deployment's schema, for the test's own look at the tables.
pub fn client(ns: &Namespace) -> postgres::Client {
    expresso_host::pg::connect(ns).expect("connect to the test's schema")
}

/// The `[store]` table of a sink configuration naming this deployment.
pub fn store_toml(ns: &Namespace) -> String {
    format!("[store]\npostgres = \"{}\"\nschema = \"{}\"\npartitions = {}\n", ns.url, ns.schema, ns.partitions)
}

/// `n` triage events spread over `workspaces` workspaces (each its own partition key), as JSON values.
pub fn spread_events(events_file: &std::path::Path, workspaces: usize) -> Vec<serde_json::Value> {
    std::fs::read_to_string(events_file)
        .unwrap()
        .lines()
        .enumerate()
        .map(|(i, line)| {
            let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
            v["partition"]["workspace"] = serde_json::Value::String(format!("w{}", i % workspaces));
            v
        })
        .collect()
}
