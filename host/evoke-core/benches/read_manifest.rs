//! Manifests read per second: `reflexes/lights/reflex.toml` through the whole reader (parse, every text
//! rule, placed diagnostics, records), beside plain `toml` parsing of the same text in the same process.
//!
//! Run: `cargo bench -p evoke-core --bench read_manifest`

use evoke_core::manifest::read_manifest;
use std::hint::black_box;
use std::time::{Duration, Instant};

fn rate(what: &str, mut f: impl FnMut()) -> f64 {
    // Warm up, then run for a fixed wall time and count.
    for _ in 0..200 {
        f();
    }
    let budget = Duration::from_secs(2);
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed() < budget {
        for _ in 0..100 {
            f();
        }
        n += 100;
    }
    let per_second = n as f64 / start.elapsed().as_secs_f64();
    println!("{what:<40} {per_second:>12.0} /s   {:>8.2} µs each", 1e6 / per_second);
    per_second
}

fn main() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../reflexes/lights/reflex.toml");
    let text = std::fs::read_to_string(path).expect("reflexes/lights/reflex.toml");
    let exists = |p: &str| p == "lights.mts";
    let baseline = rate("toml::Table parse (baseline)", || {
        black_box(text.parse::<toml::Table>().unwrap());
    });
    let ours = rate("read_manifest (lights)", || {
        black_box(read_manifest("reflex.toml", &text, &exists).value.unwrap());
    });
    println!("ratio: read_manifest takes {:.2}x the time of a bare TOML parse", baseline / ours);
}
