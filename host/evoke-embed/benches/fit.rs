//! How long a route's logistic head takes to fit, on problems the size of real projects: CLINC's 150
//! reflexes (about 1,650 texts) and a project of 1,000 reflexes (about 11,000 texts), 384 numbers each.
//! A shared machine's speed moves from minute to minute, so every figure is printed beside a baseline
//! timed in the same run: one pass of plain dot products of every example with every class, which is
//! the work of the logits in one step of a fit done by hand.
//!
//! usage: cargo bench -p evoke-embed --bench fit --profile dev -- [STEPS]
//! STEPS (default the embed engine's 300) shortens the fit, to time a slow one in part.

use evoke_embed::head::{Fitting, Head};
use std::time::Instant;

/// A small generator of reproducible numbers: the problem is the same in every run.
struct Numbers(u64);

impl Numbers {
    /// A number spread evenly over [-1, 1).
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        ((self.0 >> 40) as f32 / (1u64 << 23) as f32) - 1.0
    }
}

fn unit(v: Vec<f32>) -> Vec<f32> {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    v.into_iter().map(|x| x / n).collect()
}

/// Sentence-like vectors: each class a direction, each of its texts that direction plus as much noise,
/// all of unit length.
fn problem(classes: usize, per_class: usize, dim: usize) -> (Vec<Vec<f32>>, Vec<usize>) {
    let mut r = Numbers(0x9e37_79b9_7f4a_7c15);
    let centres: Vec<Vec<f32>> = (0..classes).map(|_| unit((0..dim).map(|_| r.next()).collect())).collect();
    let mut xs = Vec::new();
    let mut labels = Vec::new();
    for (k, c) in centres.iter().enumerate() {
        for _ in 0..per_class {
            xs.push(unit(c.iter().map(|x| x + r.next() / (dim as f32).sqrt()).collect()));
            labels.push(k);
        }
    }
    (xs, labels)
}

/// Seconds one pass of dot products of every example with every class's row takes.
fn baseline(xs: &[Vec<f32>], rows: &[Vec<f32>]) -> f64 {
    let t = Instant::now();
    let mut total = 0.0f32;
    for x in xs {
        for w in rows {
            total += evoke_embed::dot(w, x);
        }
    }
    std::hint::black_box(total);
    t.elapsed().as_secs_f64()
}

fn main() {
    // The embed engine's own constants (evoke-adapters' embed/calibration.rs), which trust fits with.
    let engine = Fitting { l2: 1e-4, steps: 300 };
    let steps = std::env::args().skip(1).find_map(|a| a.parse::<usize>().ok()).unwrap_or(engine.steps);
    let fitting = Fitting { steps, ..engine };
    let dim = 384;
    println!("head fit, {steps} steps, {dim} numbers a text; base = one pass of hand dot products, examples × classes");
    for (name, classes, per_class) in [("CLINC", 150, 11), ("1,000 reflexes", 1_000, 11)] {
        let (xs, labels) = problem(classes, per_class, dim);
        let rows = problem(classes, 1, dim).0;
        let base = baseline(&xs, &rows);
        let t = Instant::now();
        let head = Head::fit(&xs, &labels, classes, fitting);
        let fit = t.elapsed().as_secs_f64();
        std::hint::black_box(&head);
        let right = xs
            .iter()
            .zip(&labels)
            .filter(|(x, y)| {
                let z = head.logits(x);
                (0..classes).all(|k| z[k] <= z[**y])
            })
            .count();
        println!(
            "{name:>15}: {} texts, {classes} classes: base {:.3} s, fit {:.2} s = {:.1} × base ({:.2} × base a step); \
             {right}/{} examples read as their class",
            xs.len(),
            base,
            fit,
            fit / base,
            fit / base / steps.max(1) as f64,
            xs.len()
        );
    }
}
