//! Fits how `local`'s route probability reads the number of reflexes a catalog holds: the `d` of the
//! route's logistic, `σ(a·s1 + b·(s1 − s2) + c + d·ln n)` (`src/local/calibration.rs`).
//!
//! `a`, `b` and `c` stay as fitted on the whole catalog of 150 reflexes, and `c` moves by `−d·ln 150`, so
//! a catalog of 150 reads every sentence exactly as before: CLINC150's figures cannot move. `d` alone is
//! fitted, by gradient descent, on catalogs of 5 to 50 reflexes drawn from CLINC150's intents: in scope,
//! the `train` sentences of the drawn intents that are not examples; out of scope, those of the intents
//! left out, weighing a fifth. `val` is never read. The report prints, per size, how sure the best reflex
//! reads against how often it is right, before and after, and the wrong calls a write bar lets through.
//!
//! ```text
//! cargo bench -p evoke-adapters -F embed --bench clinc --profile dev -- size-fit
//! ```

use super::{Item, clinc, split_train, sub_route};
use evoke_adapters::local::Params;
use evoke_adapters::local::route::RouteModel;
use std::collections::BTreeMap;

/// Catalog sizes, each with how many catalogs of it are drawn.
const SIZES: &[(usize, usize)] = &[(5, 40), (10, 30), (20, 20), (30, 12), (50, 8)];
/// The size the shipped `a`, `b` and `c` were fitted at.
const WHOLE: f64 = 150.0;

/// One sentence read over one drawn catalog: the best score, its lead, the catalog's size, whether the
/// best reflex is the sentence's own, and its weight in the fit.
struct Point {
    s1: f64,
    lead: f64,
    n: f64,
    right: bool,
    weight: f64,
}

pub fn report() {
    let train = clinc("train.jsonl");
    let (intents, held) = split_train(&train);
    let params = Params::default();
    let by_intent: BTreeMap<&str, Vec<&Item>> = held.iter().fold(BTreeMap::new(), |mut m, i| {
        m.entry(i.intent.as_str()).or_default().push(*i);
        m
    });
    let points = draw(&intents, &held, &by_intent, params);
    let (a, b, c, _) = params.calibration;
    let (a, b, c) = (f64::from(a), f64::from(b), f64::from(c));
    let threshold = f64::from(params.threshold);
    let z = |p: &Point, d: f64| a * (p.s1 - threshold) + b * p.lead + c + d * (p.n.ln() - WHOLE.ln());
    let sigma = |z: f64| 1.0 / (1.0 + (-z).exp());
    let total: f64 = points.iter().map(|p| p.weight).sum();
    let mut d = 0.0f64;
    for _ in 0..4000 {
        let grad: f64 = points
            .iter()
            .map(|p| (sigma(z(p, d)) - if p.right { 1.0 } else { 0.0 }) * p.weight * (p.n.ln() - WHOLE.ln()))
            .sum();
        d -= 0.5 * grad / total;
    }
    println!("{} points over catalogs of {:?} reflexes", points.len(), SIZES.iter().map(|s| s.0).collect::<Vec<_>>());
    println!("d {d:.3}; c at ln n: {:.3} (shipped a {a:.3} b {b:.3} c {c:.3})", c - d * WHOLE.ln());
    println!(
        "size  p read     n   right before   n   right after   wrong ≥ 0.98 before/after ‰   ≥ 0.99 before/after ‰"
    );
    for &(size, _) in SIZES {
        let here: Vec<&Point> = points.iter().filter(|p| p.n as usize == size).collect();
        for (lo, hi) in [(0.9, 0.95), (0.95, 0.98), (0.98, 0.99), (0.99, 1.01)] {
            let band = |d: f64| {
                let inside: Vec<&&Point> = here.iter().filter(|p| (lo..hi).contains(&sigma(z(p, d)))).collect();
                let right = inside.iter().filter(|p| p.right).count();
                (inside.len(), if inside.is_empty() { 0.0 } else { 100.0 * right as f64 / inside.len() as f64 })
            };
            let wrong = |d: f64, bar: f64| {
                let w: f64 = here.iter().filter(|p| !p.right && sigma(z(p, d)) >= bar).map(|p| p.weight).sum();
                1000.0 * w / here.iter().map(|p| p.weight).sum::<f64>()
            };
            let ((n0, r0), (n1, r1)) = (band(0.0), band(d));
            println!(
                "{size:4}  {lo:.2}–{:.2}  {n0:5} {r0:6.1}%      {n1:5} {r1:6.1}%      {:5.1} / {:5.1}            {:5.1} / {:5.1}",
                hi.min(1.0),
                wrong(0.0, 0.98),
                wrong(d, 0.98),
                wrong(0.0, 0.99),
                wrong(d, 0.99)
            );
        }
    }
}

/// Every sentence of every drawn catalog, read by the shipped route.
fn draw(
    intents: &[(String, Vec<String>)],
    held: &[&Item],
    by_intent: &BTreeMap<&str, Vec<&Item>>,
    params: Params,
) -> Vec<Point> {
    let mut seed: u64 = 0x2545f4914f6cdd1d;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut points = Vec::new();
    for &(size, draws) in SIZES {
        for _ in 0..draws {
            let mut chosen: Vec<usize> = (0..intents.len()).collect();
            for i in 0..size {
                let j = i + (next() as usize) % (chosen.len() - i);
                chosen.swap(i, j);
            }
            chosen.truncate(size);
            let model = RouteModel::build(&sub_route(intents, &chosen), params).expect("the route builds");
            let names: Vec<&str> = chosen.iter().map(|i| intents[*i].0.as_str()).collect();
            let inside: Vec<&Item> = names.iter().flat_map(|n| by_intent[n].iter().step_by(15).copied()).collect();
            let others: Vec<&Item> = held.iter().filter(|i| !names.contains(&i.intent.as_str())).copied().collect();
            let outside: Vec<&Item> =
                (0..inside.len().max(10)).map(|_| others[(next() as usize) % others.len()]).collect();
            // Out of scope weighs a fifth of what is read, whatever the counts drawn.
            let w_out = inside.len() as f64 / 4.0 / outside.len() as f64;
            let w_in = 1.0 / inside.len().max(1) as f64;
            let read = inside.iter().map(|i| (*i, w_in, false)).chain(outside.iter().map(|i| (*i, w_out * w_in, true)));
            for (item, weight, oos) in read {
                let scores = model.scores_of(&item.text);
                let mut order: Vec<usize> = (0..scores.len()).collect();
                order.sort_by(|x, y| scores[*y].total_cmp(&scores[*x]));
                let s1 = f64::from(scores[order[0]]);
                let s2 = order.get(1).map_or(0.0, |i| f64::from(scores[*i]));
                let right = !oos && model.options[order[0]].key == item.intent;
                points.push(Point { s1, lead: s1 - s2, n: scores.len() as f64, right, weight });
            }
        }
    }
    points
}
