//! `evoke calibrate [--json] [--repeat N]`: every record and test of the installed reflexes decided
//! through the adapter and scored (003 `evoke calibrate --json`): the outcomes, the complete calls in
//! bins of confidence with Wilson intervals, the Brier decomposition, per-bar wrong runs per thousand
//! with intervals, each kind of question, and the misses; under `--repeat`, how far the answers move;
//! and what the log says of past decisions. Progress goes to a terminal's stderr.
//!
//! A case is right when the decision acts on its reflex with every value it asserts, or, for a `false`
//! record, when it does not act on that reflex (as `evoke test` reads it). A complete call on a `false`
//! record that names another reflex cannot be judged: it counts as `unknown`. Repeats decide without the
//! answer cache, so an engine that samples shows its spread.

use crate::commands::test::passes;
use crate::drive::{DEADLINE, Request, decide};
use crate::exit::Exit;
use crate::render;
use crate::session::Session;
use evoke_core::decision::{Decision, Outcome};
use evoke_core::manifest::{Effect, Record, Source};
use evoke_core::question::arg_id;
use evoke_core::validate::Answers;
use serde_json::{Value, json};
use std::time::Instant;

/// One case: an utterance, the reflex whose record it is, and what the record asserts.
struct Case<'a> {
    reflex: &'a str,
    record: &'a Record,
}

/// One decision of a case.
struct Scored {
    outcome: Outcome,
    reflex: Option<String>,
    confidence: Option<f64>,
    effect: Option<Effect>,
    complete: bool,
    right: Option<bool>,
    mismatch: String,
    route_top: Option<(String, f64)>,
    /// Per argument judged: (kind, p, right).
    questions: Vec<(&'static str, f64, bool)>,
}

/// The Wilson score interval at 95%.
fn wilson(right: usize, n: usize) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let (k, n) = (right as f64, n as f64);
    let z = 1.959964f64;
    let p = k / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / d;
    [round((c - h).max(0.0)), round((c + h).min(1.0))]
}

fn round(x: f64) -> f64 {
    (x * 10000.0).round() / 10000.0
}

fn score(session: &Session, case: &Case, decision: &Decision, answers: &Answers) -> Scored {
    let complete = matches!(decision.outcome, Outcome::Run | Outcome::Confirm);
    let acted_on_other = decision.outcome != Outcome::Abstain && decision.reflex.as_deref() != Some(case.reflex);
    let ok = passes(case.reflex, case.record, decision);
    let right = if case.record.asserts.is_none() && complete && acted_on_other { None } else { Some(ok) };
    let mismatch = if ok {
        String::new()
    } else if case.record.asserts.is_none() {
        format!("must not be {}", case.reflex)
    } else if decision.reflex.as_deref() != Some(case.reflex) || decision.outcome == Outcome::Abstain {
        format!("wanted {}", case.reflex)
    } else {
        "a value differs from the record".to_string()
    };
    let route_top = answers.get("route").map(|d| {
        let (k, p) = d.top();
        (k.to_string(), p)
    });
    let mut questions = Vec::new();
    if let Some((top, p)) = &route_top {
        let right = match &case.record.asserts {
            Some(_) => top == case.reflex,
            None => top != case.reflex,
        };
        questions.push(("route", *p, right));
    }
    if let (Some(asserts), Some(reflex)) = (&case.record.asserts, session.catalog.get(case.reflex)) {
        if decision.reflex.as_deref() == Some(case.reflex) {
            for (name, asserted) in asserts {
                let Some(arg) = reflex.manifest.arg(name) else { continue };
                let Some(d) = answers.get(&arg_id(case.reflex, name)) else { continue };
                let (top, p) = d.top();
                let kind = match arg.source {
                    Source::Options(_) => "options",
                    Source::Vocab(_) => "vocab",
                    Source::Pick(_) => "pick",
                    Source::Flag => "flag",
                };
                let expected = match asserted {
                    evoke_core::manifest::Asserted::Flag(true) => top == "yes",
                    evoke_core::manifest::Asserted::Flag(false) => top != "yes",
                    evoke_core::manifest::Asserted::Text(text) => {
                        let shown = decision.args.as_ref().and_then(|a| a.get(name)).map(|v| v.shown().to_string());
                        shown
                            .is_some_and(|s| evoke_core::identity::identity(&s) == evoke_core::identity::identity(text))
                    }
                };
                questions.push((kind, p, expected));
            }
        }
    }
    Scored {
        outcome: decision.outcome,
        reflex: decision.reflex.clone(),
        confidence: decision.confidence,
        effect: decision.effect,
        complete,
        right,
        mismatch,
        route_top,
        questions,
    }
}

fn outcome_name(o: Outcome) -> &'static str {
    o.as_str()
}

pub fn run(session: &Session, json: bool, repeat: usize) -> Exit {
    let repeat = repeat.max(1);
    let cases: Vec<Case> = session
        .catalog
        .reflexes()
        .iter()
        .flat_map(|r| {
            r.manifest.examples.iter().chain(&r.manifest.tests).map(move |record| Case { reflex: &r.name, record })
        })
        .collect();
    let runtime = match crate::session::runtime() {
        Ok(runtime) => runtime,
        Err(exit) => return exit,
    };
    // Per case, per repeat.
    let mut runs: Vec<Vec<Result<Scored, String>>> = Vec::new();
    let bar = (!json).then(|| crate::progress::Bar::new(cases.len() * repeat, "calibrating"));
    for case in &cases {
        let mut these = Vec::new();
        for _ in 0..repeat {
            let request = Request {
                catalog: &session.catalog,
                adapter: session.adapter.as_ref(),
                gate: session.gate,
                plan: &session.plan,
                cache: if repeat > 1 { None } else { Some(&session.cache) },
                deadline: Instant::now() + DEADLINE,
            };
            let result = runtime.block_on(decide(&request, &case.record.utterance));
            these.push(match result {
                Ok(decided) => Ok(score(session, case, &decided.decision, &decided.answers)),
                Err(failed) => Err(failed.failure.to_string()),
            });
            if let Some(bar) = &bar {
                bar.step();
            }
        }
        runs.push(these);
    }
    drop(bar);
    let report = report(session, &cases, &runs, repeat);
    if json {
        render::out(&format!("{report}\n"));
    } else {
        render::out(&human(&report));
    }
    Exit::Done
}

fn report(session: &Session, cases: &[Case], runs: &[Vec<Result<Scored, String>>], repeat: usize) -> Value {
    let first: Vec<&Result<Scored, String>> = runs.iter().map(|r| &r[0]).collect();
    let ok: Vec<&Scored> = first.iter().filter_map(|r| r.as_ref().ok()).collect();
    let mut outcomes = json!({ "run": 0, "confirm": 0, "ask": 0, "abstain": 0 });
    for s in &ok {
        let key = outcome_name(s.outcome);
        outcomes[key] = json!(outcomes[key].as_u64().unwrap_or(0) + 1);
    }
    // Complete calls with a judged verdict, by confidence.
    let calls: Vec<(f64, bool)> =
        ok.iter().filter(|s| s.complete).filter_map(|s| Some((s.confidence?, s.right?))).collect();
    let unknown = ok.iter().filter(|s| s.complete && s.right.is_none()).count();
    let mut bins = Vec::new();
    for i in 0..10 {
        let (lo, hi) = (i as f64 / 10.0, (i + 1) as f64 / 10.0);
        let inside: Vec<&(f64, bool)> =
            calls.iter().filter(|(p, _)| *p >= lo && (*p < hi || (i == 9 && *p <= 1.0))).collect();
        if inside.is_empty() {
            continue;
        }
        let right = inside.iter().filter(|(_, r)| *r).count();
        let claimed = inside.iter().map(|(p, _)| p).sum::<f64>() / inside.len() as f64;
        let interval = wilson(right, inside.len());
        bins.push(json!({
            "lo": lo, "hi": hi, "calls": inside.len(), "right": right, "interval": interval,
            "claimed": round(claimed), "thin": inside.len() < 10, "over_confident": claimed > interval[1],
        }));
    }
    let abstains: Vec<&&Scored> = ok.iter().filter(|s| s.outcome == Outcome::Abstain).collect();
    let abstain_right = abstains.iter().filter(|s| s.right == Some(true)).count();
    let inputs = ok.len().max(1);
    let mut bars = serde_json::Map::new();
    if let Some(gate) = session.gate {
        for (name, effect, bar) in [("read", Effect::Read, gate.read), ("write", Effect::Write, gate.write)] {
            let of: Vec<(f64, bool)> = ok
                .iter()
                .filter(|s| s.complete && s.effect == Some(effect))
                .filter_map(|s| Some((s.confidence?, s.right?)))
                .collect();
            if of.is_empty() {
                continue;
            }
            let at = |b: f64| {
                let run = of.iter().filter(|(p, _)| *p >= b).count();
                let wrong = of.iter().filter(|(p, r)| *p >= b && !r).count();
                (run, wrong)
            };
            let (calls, wrong) = at(bar);
            let interval = wilson(wrong, inputs);
            let near: Vec<Value> = [-0.1, -0.05, 0.05, 0.1]
                .iter()
                .map(|d| round(bar + d))
                .filter(|b| (0.0..=1.0).contains(b))
                .map(|b| {
                    let (run, wrong) = at(b);
                    json!({ "at": b, "run": run, "wrong": wrong })
                })
                .collect();
            bars.insert(
                name.into(),
                json!({
                    "bar": bar, "wrong": wrong, "calls": calls,
                    "per_thousand": round(1000.0 * wrong as f64 / inputs as f64),
                    "at_most": round(1000.0 * interval[1]), "near": near,
                }),
            );
        }
    }
    let mut questions = Vec::new();
    for kind in ["route", "options", "vocab", "pick", "flag"] {
        let of: Vec<(f64, bool)> =
            ok.iter().flat_map(|s| s.questions.iter()).filter(|(k, ..)| *k == kind).map(|(_, p, r)| (*p, *r)).collect();
        if of.is_empty() {
            continue;
        }
        let right = of.iter().filter(|(_, r)| *r).count();
        questions.push(json!({
            "kind": kind, "judgments": of.len(), "right": right, "interval": wilson(right, of.len()),
            "claimed": round(of.iter().map(|(p, _)| p).sum::<f64>() / of.len() as f64),
        }));
    }
    let mut out = json!({
        "adapter": { "name": session.adapter_name, "id": session.adapter.id() },
        "records": cases.len(),
        "reflexes": session.catalog.reflexes().len(),
        "inputs": cases.len(),
        "repeats": repeat,
        "outcomes": outcomes,
        "bins": bins,
        "unknown": unknown,
        "abstained": { "count": abstains.len(), "right": abstain_right, "interval": wilson(abstain_right, abstains.len()) },
        "bars": bars,
        "questions": questions,
    });
    if !calls.is_empty() {
        out["brier"] = brier(&calls);
    }
    let mut misses = Vec::new();
    for (case, result) in cases.iter().zip(&first) {
        match result {
            Ok(s) if s.right == Some(false) => {
                let over = s.complete && s.outcome == Outcome::Run;
                let mut miss = json!({ "case": case.record.utterance, "outcome": outcome_name(s.outcome) });
                if let Some(r) = &s.reflex {
                    miss["reflex"] = json!(r);
                }
                if let Some(c) = s.confidence {
                    miss["confidence"] = json!(c);
                }
                miss["mismatch"] = json!(s.mismatch);
                miss["wrong"] = json!(over);
                misses.push(miss);
            }
            Err(e) => misses
                .push(json!({ "case": case.record.utterance, "outcome": "refused", "mismatch": e, "wrong": false })),
            _ => {}
        }
    }
    out["misses"] = json!(misses);
    if repeat > 1 {
        out["variance"] = variance(session, cases, runs);
    }
    out["log"] = log_summary(session);
    out
}

fn brier(calls: &[(f64, bool)]) -> Value {
    let n = calls.len() as f64;
    let y = |r: bool| if r { 1.0 } else { 0.0 };
    let brier = calls.iter().map(|(p, r)| (p - y(*r)).powi(2)).sum::<f64>() / n;
    let base = calls.iter().filter(|(_, r)| *r).count() as f64 / n;
    let (mut rel, mut res) = (0.0, 0.0);
    for i in 0..10 {
        let inside: Vec<&(f64, bool)> = calls.iter().filter(|(p, _)| ((p * 10.0) as usize).min(9) == i).collect();
        if inside.is_empty() {
            continue;
        }
        let k = inside.len() as f64;
        let mean = inside.iter().map(|(p, _)| p).sum::<f64>() / k;
        let freq = inside.iter().filter(|(_, r)| *r).count() as f64 / k;
        rel += k * (mean - freq).powi(2);
        res += k * (freq - base).powi(2);
    }
    json!({ "brier": round(brier), "reliability": round(rel / n), "resolution": round(res / n), "uncertainty": round(base * (1.0 - base)) })
}

fn variance(session: &Session, cases: &[Case], runs: &[Vec<Result<Scored, String>>]) -> Value {
    let bar = |s: &Scored| match (session.gate, s.effect) {
        (Some(g), Some(Effect::Read)) => Some(g.read),
        (Some(g), Some(Effect::Write)) => Some(g.write),
        _ => None,
    };
    let (mut flips, mut verdict_flips, mut straddling, mut wrong_at_bar) = (0, 0, 0, 0);
    let mut spreads = Vec::new();
    let mut moved = Vec::new();
    for (case, these) in cases.iter().zip(runs) {
        let ok: Vec<&Scored> = these.iter().filter_map(|r| r.as_ref().ok()).collect();
        let winners: Vec<String> =
            ok.iter().map(|s| s.route_top.as_ref().map_or(String::new(), |(k, _)| k.clone())).collect();
        let outs: Vec<&str> = ok.iter().map(|s| outcome_name(s.outcome)).collect();
        let confidences: Vec<f64> = ok.iter().filter_map(|s| s.confidence).collect();
        let spread = if confidences.is_empty() {
            0.0
        } else {
            confidences.iter().cloned().fold(f64::MIN, f64::max) - confidences.iter().cloned().fold(f64::MAX, f64::min)
        };
        spreads.push(spread);
        let flipped = winners.windows(2).any(|w| w[0] != w[1]);
        let verdict = ok.iter().map(|s| s.right).collect::<Vec<_>>().windows(2).any(|w| w[0] != w[1]);
        flips += usize::from(flipped);
        verdict_flips += usize::from(verdict);
        if let Some(b) = ok.first().and_then(|s| bar(s)) {
            if confidences.iter().any(|c| *c >= b) && confidences.iter().any(|c| *c < b) {
                straddling += 1;
            }
        }
        if ok.iter().any(|s| s.outcome == Outcome::Run && s.right == Some(false)) {
            wrong_at_bar += 1;
        }
        if flipped || verdict || outs.windows(2).any(|w| w[0] != w[1]) {
            let mut m = json!({
                "utterance": case.record.utterance,
                "route": ok.iter().filter_map(|s| s.route_top.as_ref().map(|(_, p)| *p)).collect::<Vec<_>>(),
                "winners": winners, "outcomes": outs,
                "wrong": ok.iter().filter(|s| s.right == Some(false)).count(),
            });
            if !confidences.is_empty() {
                m["confidence"] = json!(confidences);
            }
            moved.push(m);
        }
    }
    spreads.sort_by(f64::total_cmp);
    let pick = |q: f64| spreads.get(((spreads.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or(0.0);
    json!({
        "flips": flips, "verdict_flips": verdict_flips,
        "spread": { "median": round(pick(0.5)), "p90": round(pick(0.9)), "max": round(pick(1.0)) },
        "straddling": straddling, "wrong_at_bar": wrong_at_bar, "moved": moved,
    })
}

/// What the log holds of past decisions: their outcomes, and the confirmed ones a person said yes or no
/// to, as far as the log records them.
fn log_summary(session: &Session) -> Value {
    let text = std::fs::read_to_string(session.places.log()).unwrap_or_default();
    let (
        mut decisions,
        mut ran,
        mut confirmed_ran,
        mut confirmed_stopped,
        mut asked,
        mut abstained,
        mut failed,
        mut skipped,
        mut unread,
    ) = (0, 0, 0, 0, 0, 0, 0, 0, 0);
    let mut stopped = [0usize; 10];
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(entry) = serde_json::from_str::<Value>(line) else {
            unread += 1;
            continue;
        };
        decisions += 1;
        let confirmed = entry.get("confirmed").and_then(Value::as_bool);
        match entry.get("outcome").and_then(Value::as_str) {
            Some("run") if entry.get("error").is_some() => failed += 1,
            Some("run") => ran += 1,
            Some("confirm") => match confirmed {
                Some(true) => confirmed_ran += 1,
                Some(false) => confirmed_stopped += 1,
                None => {
                    skipped += 1;
                    if entry
                        .get("because")
                        .and_then(Value::as_array)
                        .is_some_and(|b| b.iter().any(|r| r["type"] == "under_floor"))
                    {
                        let c = entry.get("confidence").and_then(Value::as_f64).unwrap_or(0.0);
                        stopped[((c * 10.0) as usize).min(9)] += 1;
                    }
                }
            },
            Some("ask") => asked += 1,
            Some("abstain") => abstained += 1,
            _ => failed += 1,
        }
    }
    let stopped: Vec<Value> = stopped
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .map(|(i, c)| json!({ "lo": i as f64 / 10.0, "hi": (i + 1) as f64 / 10.0, "count": c }))
        .collect();
    json!({
        "adapter": session.adapter_name, "decisions": decisions, "ran": ran, "confirmed_ran": confirmed_ran,
        "confirmed_stopped": confirmed_stopped, "asked": asked, "abstained": abstained, "failed": failed,
        "skipped": skipped, "stopped_by_confidence": stopped,
        "records": { "count": confirmed_ran, "right": confirmed_ran, "interval": wilson(confirmed_ran, confirmed_ran) },
        "unread": unread,
    })
}

/// The report for a person.
fn human(r: &Value) -> String {
    let mut out = String::new();
    let n = |v: &Value| v.as_u64().unwrap_or(0);
    out.push_str(&format!(
        "{} ({}) · {} records of {} reflexes{}\n",
        r["adapter"]["name"].as_str().unwrap_or(""),
        r["adapter"]["id"].as_str().unwrap_or(""),
        n(&r["records"]),
        n(&r["reflexes"]),
        if n(&r["repeats"]) > 1 { format!(", each {} times", n(&r["repeats"])) } else { String::new() }
    ));
    let o = &r["outcomes"];
    out.push_str(&format!(
        "  outcomes   run {} · confirm {} · ask {} · abstain {}\n",
        n(&o["run"]),
        n(&o["confirm"]),
        n(&o["ask"]),
        n(&o["abstain"])
    ));
    out.push_str("  calls by confidence (claimed → right, 95% interval):\n");
    for b in r["bins"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "    {:.1}–{:.1}  {:3} calls  {:.2} → {}/{}  [{:.2}, {:.2}]{}{}\n",
            b["lo"].as_f64().unwrap_or(0.0),
            b["hi"].as_f64().unwrap_or(0.0),
            n(&b["calls"]),
            b["claimed"].as_f64().unwrap_or(0.0),
            n(&b["right"]),
            n(&b["calls"]),
            b["interval"][0].as_f64().unwrap_or(0.0),
            b["interval"][1].as_f64().unwrap_or(0.0),
            if b["thin"] == true { " · thin" } else { "" },
            if b["over_confident"] == true { " · over-confident" } else { "" },
        ));
    }
    if let Some(b) = r.get("brier") {
        out.push_str(&format!(
            "  Brier      {} = reliability {} − resolution {} + uncertainty {}\n",
            b["brier"], b["reliability"], b["resolution"], b["uncertainty"]
        ));
    }
    for (name, bar) in r["bars"].as_object().into_iter().flatten() {
        out.push_str(&format!(
            "  {name:5} bar {}: {} wrong of {} run · {} per thousand inputs, at most {}\n",
            bar["bar"],
            n(&bar["wrong"]),
            n(&bar["calls"]),
            bar["per_thousand"],
            bar["at_most"]
        ));
    }
    for q in r["questions"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "  {:8} {}/{} right, claimed {}\n",
            q["kind"].as_str().unwrap_or(""),
            n(&q["right"]),
            n(&q["judgments"]),
            q["claimed"]
        ));
    }
    let misses = r["misses"].as_array().cloned().unwrap_or_default();
    if !misses.is_empty() {
        out.push_str("  misses:\n");
        for m in misses {
            out.push_str(&format!(
                "    {:?}  {} {}  {}{}\n",
                m["case"].as_str().unwrap_or(""),
                m["outcome"].as_str().unwrap_or(""),
                m["reflex"].as_str().unwrap_or(""),
                m["mismatch"].as_str().unwrap_or(""),
                if m["wrong"] == true { " · ran wrong" } else { "" }
            ));
        }
    }
    if let Some(v) = r.get("variance") {
        out.push_str(&format!(
            "  variance   {} winners flipped · {} verdicts flipped · spread median {} p90 {} max {}\n",
            v["flips"], v["verdict_flips"], v["spread"]["median"], v["spread"]["p90"], v["spread"]["max"]
        ));
    }
    out
}
