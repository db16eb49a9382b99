//! The statistics of a calibration: Wilson intervals, bins of confidence, the Brier decomposition, the
//! wrong runs per bar, and the spread between repeats.

use super::report::*;
use super::{Run, Scored, Setting};
use evoke_core::decision::Outcome;
use evoke_core::manifest::Effect;

/// The Wilson score interval at 95% of `right` out of `n`.
pub fn wilson(right: usize, n: usize) -> [f64; 2] {
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

/// Four decimals: what a report shows and compares.
pub(super) fn round(x: f64) -> f64 {
    (x * 10000.0).round() / 10000.0
}

/// The report of every case's runs (`runs[case][repeat]`; `utterances[case]` says each case).
pub fn report(setting: &Setting, utterances: &[&str], runs: &[Vec<Run>]) -> Report {
    let first: Vec<&Run> = runs.iter().map(|r| &r[0]).collect();
    let ok: Vec<&Scored> = first.iter().filter_map(|r| r.as_ref().ok()).collect();
    let mut outcomes = Outcomes::default();
    for s in &ok {
        match s.outcome {
            Outcome::Run => outcomes.run += 1,
            Outcome::Confirm => outcomes.confirm += 1,
            Outcome::Ask => outcomes.ask += 1,
            Outcome::Abstain => outcomes.abstain += 1,
        }
    }
    // Complete calls with a judged verdict, by confidence.
    let calls: Vec<(f64, bool)> =
        ok.iter().filter(|s| s.complete).filter_map(|s| Some((s.confidence?, s.right?))).collect();
    let unknown = ok.iter().filter(|s| s.complete && s.right.is_none()).count();
    let abstains: Vec<&&Scored> = ok.iter().filter(|s| s.outcome == Outcome::Abstain).collect();
    let abstain_right = abstains.iter().filter(|s| s.right == Some(true)).count();
    Report {
        adapter: setting.adapter.clone(),
        records: utterances.len(),
        reflexes: setting.reflexes,
        playbooks: setting.playbooks,
        inputs: utterances.len(),
        repeats: setting.repeats,
        outcomes,
        bins: bins(&calls),
        unknown,
        abstained: Share {
            count: abstains.len(),
            right: abstain_right,
            interval: wilson(abstain_right, abstains.len()),
        },
        bars: bars(setting, &ok),
        questions: questions(&ok),
        brier: (!calls.is_empty()).then(|| brier(&calls)),
        misses: misses(utterances, &first),
        variance: (setting.repeats > 1).then(|| variance(setting, utterances, runs)),
        log: super::log::summary(&setting.adapter.name, setting.log),
    }
}

fn bins(calls: &[(f64, bool)]) -> Vec<Bin> {
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
        bins.push(Bin {
            lo,
            hi,
            calls: inside.len(),
            right,
            interval,
            claimed: round(claimed),
            thin: inside.len() < 10,
            over_confident: claimed > interval[1],
        });
    }
    bins
}

/// The share of the input a call must hold to run: a word that does `more` holds every write, so a call
/// runs only where the read-back accounts for all of it (docs/decision.md, the read-back).
pub const WHOLE_BAR: f64 = 1.0;

fn bars(setting: &Setting, ok: &[&Scored]) -> Bars {
    let inputs = ok.len().max(1);
    let mut bars = Bars::default();
    let Some((read, write)) = setting.bars else { return bars };
    // Writes over their bar, with whether they hold all the input and whether they were right. A read
    // runs whatever words are left over, and a destructive call always confirms: the bar is a write's.
    let over: Vec<(bool, bool)> = ok
        .iter()
        .filter(|s| s.complete && s.effect == Some(Effect::Write))
        .filter_map(|s| (s.confidence? >= write).then_some((s.whole.unwrap_or(1.0) >= WHOLE_BAR, s.right?)))
        .collect();
    if !over.is_empty() {
        let run = over.iter().filter(|(held_all, _)| *held_all).count();
        let wrong = over.iter().filter(|(held_all, right)| *held_all && !right).count();
        let interval = wilson(wrong, inputs);
        bars.whole = Some(WholeBar {
            bar: WHOLE_BAR,
            calls: over.len(),
            run,
            wrong,
            per_thousand: round(1000.0 * wrong as f64 / inputs as f64),
            at_most: round(1000.0 * interval[1]),
            held_right: over.iter().filter(|(held_all, right)| !held_all && *right).count(),
        });
    }
    for (name, effect, bar) in [("read", Effect::Read, read), ("write", Effect::Write, write)] {
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
        let near = [-0.1, -0.05, 0.05, 0.1]
            .iter()
            .map(|d| round(bar + d))
            .filter(|b| (0.0..=1.0).contains(b))
            .map(|b| {
                let (run, wrong) = at(b);
                Near { at: b, run, wrong }
            })
            .collect();
        let bar = Bar {
            bar,
            wrong,
            calls,
            per_thousand: round(1000.0 * wrong as f64 / inputs as f64),
            at_most: round(1000.0 * interval[1]),
            near,
        };
        match name {
            "read" => bars.read = Some(bar),
            _ => bars.write = Some(bar),
        }
    }
    bars
}

fn questions(ok: &[&Scored]) -> Vec<Question> {
    let mut questions = Vec::new();
    for kind in ["route", "options", "vocab", "pick", "flag"] {
        let of: Vec<(f64, bool)> =
            ok.iter().flat_map(|s| s.questions.iter()).filter(|(k, ..)| *k == kind).map(|(_, p, r)| (*p, *r)).collect();
        if of.is_empty() {
            continue;
        }
        let right = of.iter().filter(|(_, r)| *r).count();
        questions.push(Question {
            kind,
            judgments: of.len(),
            right,
            interval: wilson(right, of.len()),
            claimed: round(of.iter().map(|(p, _)| p).sum::<f64>() / of.len() as f64),
        });
    }
    questions
}

fn misses(utterances: &[&str], first: &[&Run]) -> Vec<Miss> {
    let mut misses = Vec::new();
    for (utterance, result) in utterances.iter().zip(first) {
        match result {
            Ok(s) if s.right == Some(false) => misses.push(Miss {
                case: utterance.to_string(),
                outcome: s.outcome.as_str().to_string(),
                reflex: s.reflex.clone(),
                confidence: s.confidence,
                mismatch: s.mismatch.clone(),
                wrong: s.complete && s.outcome == Outcome::Run,
            }),
            Err(e) => misses.push(Miss {
                case: utterance.to_string(),
                outcome: "refused".into(),
                reflex: None,
                confidence: None,
                mismatch: e.to_string(),
                wrong: false,
            }),
            _ => {}
        }
    }
    misses
}

fn brier(calls: &[(f64, bool)]) -> Brier {
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
    Brier {
        brier: round(brier),
        reliability: round(rel / n),
        resolution: round(res / n),
        uncertainty: round(base * (1.0 - base)),
    }
}

fn variance(setting: &Setting, utterances: &[&str], runs: &[Vec<Run>]) -> Variance {
    let bar = |s: &Scored| match (setting.bars, s.effect) {
        (Some((read, _)), Some(Effect::Read)) => Some(read),
        (Some((_, write)), Some(Effect::Write)) => Some(write),
        _ => None,
    };
    let (mut flips, mut verdict_flips, mut straddling, mut wrong_at_bar) = (0, 0, 0, 0);
    let mut spreads = Vec::new();
    let mut moved = Vec::new();
    for (utterance, these) in utterances.iter().zip(runs) {
        let ok: Vec<&Scored> = these.iter().filter_map(|r| r.as_ref().ok()).collect();
        let winners: Vec<String> =
            ok.iter().map(|s| s.route_top.as_ref().map_or(String::new(), |(k, _)| k.clone())).collect();
        let outs: Vec<&'static str> = ok.iter().map(|s| s.outcome.as_str()).collect();
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
        if let Some(b) = ok.first().and_then(|s| bar(s))
            && confidences.iter().any(|c| *c >= b)
            && confidences.iter().any(|c| *c < b)
        {
            straddling += 1;
        }
        if ok.iter().any(|s| s.outcome == Outcome::Run && s.right == Some(false)) {
            wrong_at_bar += 1;
        }
        if flipped || verdict || outs.windows(2).any(|w| w[0] != w[1]) {
            moved.push(Moved {
                utterance: utterance.to_string(),
                route: ok.iter().filter_map(|s| s.route_top.as_ref().map(|(_, p)| *p)).collect(),
                winners,
                outcomes: outs,
                wrong: ok.iter().filter(|s| s.right == Some(false)).count(),
                confidence: (!confidences.is_empty()).then_some(confidences),
            });
        }
    }
    spreads.sort_by(f64::total_cmp);
    let pick = |q: f64| spreads.get(((spreads.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or(0.0);
    Variance {
        flips,
        verdict_flips,
        spread: Spread { median: round(pick(0.5)), p90: round(pick(0.9)), max: round(pick(1.0)) },
        straddling,
        wrong_at_bar,
        moved,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wilson_interval_of_nothing_is_everything_and_narrows_with_cases() {
        assert_eq!(wilson(0, 0), [0.0, 1.0]);
        // 8 of 10 right: the textbook interval at 95% is about [0.49, 0.94].
        assert_eq!(wilson(8, 10), [0.4902, 0.9433]);
        let [lo, hi] = wilson(80, 100);
        assert!(lo > 0.7 && hi < 0.9, "{lo} {hi}");
    }

    fn call(confidence: f64, whole: Option<f64>, right: bool) -> Scored {
        Scored {
            outcome: Outcome::Run,
            reflex: Some("lights".into()),
            confidence: Some(confidence),
            effect: Some(Effect::Write),
            complete: true,
            right: Some(right),
            mismatch: String::new(),
            route_top: None,
            questions: Vec::new(),
            whole,
        }
    }

    #[test]
    fn the_whole_bar_counts_calls_over_their_bar_and_what_the_read_back_held() {
        let setting = Setting {
            adapter: AdapterName { name: "replay".into(), id: "replay".into() },
            reflexes: 1,
            playbooks: 0,
            bars: Some((0.6, 0.8)),
            repeats: 1,
            log: "",
        };
        // Over the write bar: two that hold all the input (one wrong), one held by a word left over
        // (right), one held and wrong; under it, one the whole bar never sees, nor a read over its bar.
        let calls = [
            call(0.9, None, true),
            call(0.9, None, false),
            call(0.95, Some(0.75), true),
            call(0.85, Some(0.5), false),
            call(0.5, Some(0.5), true),
            Scored { effect: Some(Effect::Read), ..call(0.9, Some(0.5), true) },
        ];
        let ok: Vec<&Scored> = calls.iter().collect();
        let whole = bars(&setting, &ok).whole.expect("calls over their bar were read back");
        assert_eq!((whole.bar, whole.calls, whole.run, whole.wrong, whole.held_right), (1.0, 4, 2, 1, 1));
        assert_eq!(whole.per_thousand, 166.6667);
    }

    #[test]
    fn a_perfectly_calibrated_set_has_no_reliability_term() {
        let calls = [(1.0, true), (1.0, true), (0.0, false)];
        let b = brier(&calls);
        assert_eq!(b.brier, 0.0);
        assert_eq!(b.reliability, 0.0);
    }
}
