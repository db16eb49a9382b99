//! Fits the weights of `local`'s reader of a place to cut (`src/local/cut.rs`, kept in `src/local/cut.tsv`)
//! on CLINC150's `train` split, and reports how it reads `val`.
//!
//! Every place to cut in a single request of `train` (one the catalog does not hold as an example) is a
//! place not to cut; so is every place in MASSIVE's `train` requests (short and spoken), read over a
//! catalog of MASSIVE's intents but for the home benchmark's. Two such requests of different intents, joined by a connective, are cut at the join and
//! nowhere else. The reader is a logistic regression over the features `cut.rs` names, fitted by gradient
//! descent; words seen fewer than [`MIN_SEEN`] times are left out. A fifth of the held requests, never
//! fitted on, sets the bias: at most [`SINGLE_CUT`] of them hold a place read as cut at the route's bar.
//! `val` only reports: its single requests, and the same requests joined in pairs.
//!
//! ```text
//! cargo bench -p evoke-adapters -F embed --bench clinc --profile dev -- cut-fit
//! ```

use super::{Item, clinc, split_train};
use evoke_adapters::local::Local;
use evoke_adapters::local::cut::{two_commands, weigh_with};
use evoke_core::adapter::Gate;
use evoke_core::catalog::Catalog;
use evoke_core::weave::weaver::Weaver;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// How each pair of requests is joined, in turn.
const JOINS: &[&str] =
    &[" and ", ", ", ", then ", " and then ", " then ", "; ", ", and ", " and also ", ", after that "];
/// A word feature is kept when seen this many times or more.
const MIN_SEEN: usize = 8;
/// The share of single requests of `val` the bias lets hold a cut.
const SINGLE_CUT: f64 = 0.005;
/// One pair in this many joins two requests of the same intent.
const SAME: usize = 8;
const EPOCHS: usize = 400;
const RATE: f64 = 0.3;
const L2: f64 = 1e-4;

/// One place to cut: its features, and whether it joins two requests.
struct Sample {
    features: Vec<(String, f64)>,
    cut: bool,
}

/// The places of a sentence, each labelled a join when it starts inside `join` (character offsets).
fn places(catalog: &Catalog, local: &Local, gate: Gate, text: &str, joins: &[(usize, usize)]) -> Vec<Sample> {
    let Ok(weaver) = Weaver::new(catalog, Some(gate), text) else { return Vec::new() };
    let Some((_, questions)) = weaver.questions() else { return Vec::new() };
    local
        .cut_places(text, questions)
        .into_iter()
        .map(|((start, _), features)| Sample { features, cut: joins.iter().any(|(a, b)| start >= *a && start < *b) })
        .collect()
}

/// Requests joined with one or two requests further on: of another intent, and every [`SAME`]th join of
/// the same one (`turn on the den lights and turn off the kitchen`). Each join is the next of [`JOINS`];
/// every third sentence is ordered by its first words instead (`after you …, …`, `before you …, …`), and
/// every fourth joins three requests.
fn joined(items: &[&Item]) -> Vec<(String, Vec<(usize, usize)>)> {
    let n = items.len();
    let mut out = Vec::new();
    for (turn, i) in (0..n).step_by(2).enumerate() {
        let a = items[i];
        let other = |k0: usize, same: bool, not: &[&str]| {
            (0..n)
                .map(|k| items[(i * 7919 + k0 + k) % n])
                .find(|b| (b.intent == a.intent) == same && !not.contains(&b.text.as_str()))
                .expect("a request to join")
        };
        let b = other(104_729, turn % SAME == 0, &[&a.text]);
        let mut text = String::new();
        let mut joins = Vec::new();
        if turn % 3 == 2 {
            let order = if turn % 2 == 0 { "after you " } else { "before you " };
            text.push_str(order);
            text.push_str(&a.text);
            let start = text.chars().count();
            text.push_str(", ");
            joins.push((start, start + 1));
            text.push_str(&b.text);
        } else {
            text.push_str(&a.text);
            for (k, next) in
                std::iter::once(b).chain((turn % 4 == 1).then(|| other(7_561, false, &[&a.text, &b.text]))).enumerate()
            {
                let join = JOINS[(turn + k) % JOINS.len()];
                let start = text.chars().count();
                text.push_str(join);
                joins.push((start, text.chars().count()));
                text.push_str(&next.text);
            }
        }
        out.push((text, joins));
    }
    out
}

fn samples(catalog: &Catalog, local: &Local, gate: Gate, items: &[&Item]) -> (Vec<Sample>, Vec<Sample>) {
    let single = items.iter().flat_map(|item| places(catalog, local, gate, &item.text, &[])).collect();
    let pairs = joined(items).iter().flat_map(|(text, joins)| places(catalog, local, gate, text, joins)).collect();
    (single, pairs)
}

/// Logistic regression by full-batch gradient descent with AdaGrad steps, from zero weights.
fn fit(samples: &[&Sample]) -> HashMap<String, f64> {
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for s in samples {
        for (name, _) in &s.features {
            *seen.entry(name.as_str()).or_default() += 1;
        }
    }
    let names: Vec<&str> = seen.iter().filter(|(_, n)| **n >= MIN_SEEN).map(|(k, _)| *k).collect();
    let index: HashMap<&str, usize> = names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let rows: Vec<(Vec<(usize, f64)>, f64)> = samples
        .iter()
        .map(|s| {
            let x = s.features.iter().filter_map(|(n, v)| index.get(n.as_str()).map(|i| (*i, *v))).collect();
            (x, f64::from(u8::from(s.cut)))
        })
        .collect();
    // Each class weighs as much as the other, however many places it holds.
    let cuts = rows.iter().filter(|(_, y)| *y == 1.0).count().max(1) as f64;
    let others = (rows.len() as f64 - cuts).max(1.0);
    let mut w = vec![0.0; names.len()];
    let mut g2 = vec![1e-8; names.len()];
    for _ in 0..EPOCHS {
        let mut grad = vec![0.0; names.len()];
        for (x, y) in &rows {
            let z: f64 = x.iter().map(|(i, v)| w[*i] * v).sum();
            let weight = if *y == 1.0 { 0.5 / cuts } else { 0.5 / others };
            let err = (1.0 / (1.0 + (-z).exp()) - y) * weight;
            for (i, v) in x {
                grad[*i] += err * v;
            }
        }
        for i in 0..w.len() {
            let g = grad[i] + L2 * w[i];
            g2[i] += g * g;
            w[i] -= RATE * g / g2[i].sqrt();
        }
    }
    names.iter().zip(w).map(|(n, w)| (n.to_string(), w)).collect()
}

/// The share of sentences (`single`) or joins (`pairs`) with a place read at the bar.
fn read_at(weights: &HashMap<String, f64>, samples: &[Sample], bar: f64) -> f64 {
    let cut = samples.iter().filter(|s| weigh_with(weights, &s.features) >= bar).count();
    cut as f64 / samples.len().max(1) as f64
}

pub fn report(local: &Local, gate: Gate) {
    let train = clinc("train.jsonl");
    let (intents, held) = split_train(&train);
    let catalog = super::catalog(&intents);
    // A fifth of the held requests chooses the bias; the rest fits the weights. `val` only reports.
    let tune: Vec<&Item> = held.iter().step_by(5).copied().collect();
    let fitting: Vec<&Item> = held.iter().enumerate().filter(|(i, _)| i % 5 != 0).map(|(_, item)| *item).collect();
    let (mut single, mut pairs) = samples(&catalog, local, gate, &fitting);
    // MASSIVE's requests, short and spoken, each read over a catalog of its own intents; the home
    // benchmark's intents are left out, since their requests are that benchmark's tests.
    let massive: Vec<Item> = super::read_jsonl(&super::data_dir().join("massive-en-us/train.jsonl"))
        .into_iter()
        .map(|v| Item {
            text: v["utt"].as_str().unwrap().to_string(),
            intent: v["intent"].as_str().unwrap().to_string(),
        })
        .filter(|item| !["iot_", "alarm_", "audio_volume_"].iter().any(|p| item.intent.starts_with(p)))
        .collect();
    let (massive_intents, massive_held) = split_train(&massive);
    let massive_catalog = super::catalog_with(&massive_intents, |_| "write");
    let (more_single, more_pairs) = samples(&massive_catalog, local, gate, &massive_held);
    single.extend(more_single);
    pairs.extend(more_pairs);
    let all: Vec<&Sample> = single.iter().chain(&pairs).collect();
    println!(
        "train: {} places in single requests, {} places in joined pairs ({} joins)",
        single.len(),
        pairs.len(),
        pairs.iter().filter(|s| s.cut).count()
    );
    let mut weights = fit(&all);
    let (tune_single, _) = samples(&catalog, local, gate, &tune);
    let mut z: Vec<f64> = tune_single.iter().map(|s| logit(weigh_with(&weights, &s.features))).collect();
    z.sort_by(|a, b| b.total_cmp(a));
    let allowed = (SINGLE_CUT * tune.len() as f64) as usize;
    if let Some(at) = z.get(allowed) {
        *weights.entry("bias".into()).or_default() += logit(gate.route) - at - 1e-6;
    }
    let val: Vec<Item> = clinc("val.jsonl");
    let val_refs: Vec<&Item> = val.iter().collect();
    let (val_single, val_pairs) = samples(&catalog, local, gate, &val_refs);
    let joins: Vec<Sample> = val_pairs.into_iter().filter(|s| s.cut).collect();
    let sentences_cut = val
        .iter()
        .filter(|item| {
            places(&catalog, local, gate, &item.text, &[])
                .iter()
                .any(|s| weigh_with(&weights, &s.features) >= gate.route)
        })
        .count();
    println!("val (never fitted on), at the route's bar {}:", gate.route);
    println!("  places in single requests read as cut   {:5.2}%", 100.0 * read_at(&weights, &val_single, gate.route));
    println!("  single requests with a place read cut   {:5.2}%", 100.0 * sentences_cut as f64 / val.len() as f64);
    println!("  joins of two requests read as cut       {:5.1}%", 100.0 * read_at(&weights, &joins, gate.route));
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/local/cut.tsv");
    let mut lines: Vec<(String, f64)> = weights.into_iter().filter(|(_, w)| w.abs() >= 1e-4).collect();
    lines.sort_by(|a, b| a.0.cmp(&b.0));
    let mut text = String::from(
        "# The weights of local's reader of a place to cut (src/local/cut.rs): a feature's name, a tab, its weight.\n\
         # Fitted by `cargo bench -p evoke-adapters -F embed --bench clinc --profile dev -- cut-fit`.\n",
    );
    for (name, w) in &lines {
        text.push_str(&format!("{name}\t{w:.6}\n"));
    }
    let tmp = path.with_extension("tsv.tmp");
    std::fs::write(&tmp, text).expect("write the weights");
    std::fs::rename(&tmp, &path).expect("keep the weights");
    println!("{} weights written to {}", lines.len(), path.display());
}

fn logit(p: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    (p / (1.0 - p)).ln()
}

/// Each place of each sentence, read by the kept weights over CLINC's catalog: the engine's answer, the
/// reader's, and the features that weigh most on it.
pub fn show(local: &Local, gate: Gate, sentences: &[String]) {
    let train = clinc("train.jsonl");
    let (intents, _) = split_train(&train);
    let catalog = super::catalog(&intents);
    let weights = evoke_adapters::local::cut::parse(include_str!("../../src/local/cut.tsv")).expect("the weights");
    for text in sentences {
        println!("{text:?}");
        for s in places(&catalog, local, gate, text, &[]) {
            let mut parts: Vec<(f64, &str, f64)> =
                s.features.iter().map(|(n, x)| (weights.get(n).copied().unwrap_or(0.0) * x, n.as_str(), *x)).collect();
            parts.sort_by(|a, b| b.0.abs().total_cmp(&a.0.abs()));
            let top: Vec<String> = parts.iter().take(8).map(|(c, n, x)| format!("{n}({x:.2})={c:+.2}")).collect();
            let p = weigh_with(&weights, &s.features);
            let rule = s.features.iter().find(|(n, _)| n == "rule").map_or(0.0, |(_, x)| *x);
            // As the engine answers a place no negation opens: two commands keep the rules' answer.
            let answer = if two_commands(&s.features) { p.max(rule) } else { p };
            println!("  {answer:.3} (reader {p:.3})  {}", top.join(" "));
        }
    }
}
