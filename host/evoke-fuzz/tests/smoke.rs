//! Every fuzz target over its seeds and a few thousand deterministic mutations of them, on stable Rust: the
//! smoke run of the fuzz targets that needs no nightly toolchain.

use evoke_fuzz::mutate::{Rng, mutate};
use evoke_fuzz::{TARGETS, Verdict, seeds};
use std::panic::{AssertUnwindSafe, catch_unwind};

const MUTATIONS: usize = 3000;

/// Runs one input, and on a panic names the target and shows the input, escaped, so it can be kept as a
/// regression seed.
fn run(name: &str, run: fn(&[u8]) -> Verdict, input: &[u8]) -> Verdict {
    match catch_unwind(AssertUnwindSafe(|| run(input))) {
        Ok(verdict) => verdict,
        Err(_) => panic!("the {name} target panicked on {:?}", String::from_utf8_lossy(input)),
    }
}

#[test]
fn every_target_has_seeds_and_accepts_some() {
    for target in TARGETS {
        let seeds = seeds::for_target(target.name);
        assert!(seeds.len() >= 2, "{} has {} seeds", target.name, seeds.len());
        let accepted = seeds.iter().filter(|s| run(target.name, target.run, s) == Verdict::Accepted).count();
        assert!(accepted > 0, "no seed of {} is accepted: the seeds do not reach past the refusals", target.name);
    }
}

#[test]
fn every_target_survives_mutations() {
    for (n, target) in TARGETS.iter().enumerate() {
        let seeds = seeds::for_target(target.name);
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15 ^ n as u64);
        let (mut accepted, mut refused) = (0, 0);
        for round in 0..MUTATIONS {
            let input = mutate(&seeds[round % seeds.len()], &seeds, &mut rng);
            match run(target.name, target.run, &input) {
                Verdict::Accepted => accepted += 1,
                Verdict::Refused => refused += 1,
            }
        }
        // Mutations that never refuse do not mutate, and ones that never pass never reach the checks after
        // a parser accepts.
        assert!(refused > MUTATIONS / 20, "{}: only {refused} of {MUTATIONS} mutations refused", target.name);
        assert!(accepted > 0, "{}: no mutation was accepted", target.name);
    }
}

#[test]
fn edges_do_not_panic() {
    let edges: [&[u8]; 8] = [
        b"",
        b"\0",
        b"\xff\xfe\xfd",
        b"\0\0\0",
        &[b'['; 4096],
        &[b'{'; 4096],
        "\u{202E}".as_bytes(),
        b"reflex = 1\n[args.\"\xe2\x80\xae\"]\n",
    ];
    for target in TARGETS {
        for edge in edges {
            assert_eq!(
                run(target.name, target.run, edge),
                run(target.name, target.run, edge),
                "{} is not deterministic",
                target.name
            );
        }
    }
}
