//! What weaving costs single requests, and what it earns several: CLINC150 `val` decided by `local` with
//! the weaver in front (as the command decides every sentence) beside the decider alone, and the committed
//! multi-step sentences (`benches/multi-step.jsonl`, written for this project, never tuned on CLINC's data)
//! woven over the same 150 reflexes.
//!
//! ```text
//! cargo bench -p evoke-adapters -F embed --bench clinc -- weave          # the report
//! cargo bench -p evoke-adapters -F embed --bench clinc -- weave cut      # and every in-scope sentence cut, with its parts
//! ```

use super::{Item, clinc, decide, split_train};
use evoke_adapters::local::Local;
use evoke_core::adapter::{Gate, State};
use evoke_core::catalog::Catalog;
use evoke_core::decision::{Decision, Outcome};
use evoke_core::validate::validate;
use evoke_core::weave::weaver::{Weaver, Woven};
use std::path::Path;

/// A sentence woven through the weaver, every round answered by `local`.
fn woven(catalog: &Catalog, local: &Local, gate: Gate, input: &str) -> Woven {
    let mut weaver = Weaver::new(catalog, Some(gate), input).expect("the input is in bounds");
    while let Some((text, questions)) = weaver.questions() {
        let questions = questions.clone();
        let raw = local.answer_now(&State { request: text.to_string() }, &questions).expect("local answers");
        let answers = validate(&questions, &raw).expect("the engine's answers validate");
        weaver.feed(&answers).expect("within bounds");
    }
    weaver.woven().expect("woven").clone()
}

fn acts_on(d: &Decision, intent: &str) -> bool {
    d.outcome != Outcome::Abstain && d.reflex.as_deref() == Some(intent)
}

/// Whether the sentence was cut at some place, or a part of it left out. Only some of these are read as
/// more than one step: see [`cut_kind`].
fn is_cut(w: &Woven) -> bool {
    match w {
        Woven::One(_) => false,
        Woven::Plan(p) => p.splits.iter().any(|s| s.cut) || !p.excluded.is_empty(),
    }
}

/// How a sentence cut or with a part left out came out: only what not to do (003's `nothing_to_do`: no
/// step, one abstain line), one step with a part left out or read with it, or read as more than one
/// step: two steps or more, or a plan of several parts refused for one of them.
fn cut_kind(w: &Woven) -> usize {
    match w {
        Woven::Plan(p) if p.steps.is_empty() => 0,
        Woven::Plan(p) if p.steps.len() == 1 && !p.refused() => 1,
        _ => 2,
    }
}

/// Whether a sentence read as a plan still acts on its one intent: a plan of that one step.
fn acts_on_woven(w: &Woven, intent: &str) -> bool {
    match w {
        Woven::One(d) => acts_on(d, intent),
        Woven::Plan(p) => !p.refused() && p.steps.len() == 1 && acts_on(&p.steps[0].decision, intent),
    }
}

fn steps_of(w: &Woven) -> Vec<String> {
    match w {
        Woven::One(d) if d.outcome != Outcome::Abstain => d.reflex.iter().cloned().collect(),
        Woven::One(_) => Vec::new(),
        Woven::Plan(p) if p.refused() => Vec::new(),
        Woven::Plan(p) => p.steps.iter().map(|s| s.decision.reflex.clone().unwrap_or_default()).collect(),
    }
}

/// The whole sentence's route: its two most probable keys.
fn top_two(route: &[(String, f64)]) -> String {
    let mut r = route.to_vec();
    r.sort_by(|a, b| b.1.total_cmp(&a.1));
    let at = |i: usize| r.get(i).map_or(("", 0.0), |(k, p)| (k.as_str(), *p));
    format!("[{:.2} {} / {:.2} {}]", at(0).1, at(0).0, at(1).1, at(1).0)
}

/// Each step of a woven plan, its words, outcome, reflex and route probability, one line each.
fn print_steps(w: &Woven) {
    let Woven::Plan(p) = w else { return };
    for s in &p.steps {
        let d = &s.decision;
        println!("      {:?} → {:?} {} {:.2}", d.input, d.outcome, d.reflex.as_deref().unwrap_or("-"), route_p(d));
        // A part that found nothing: the reflexes nearest it, which a repair might have named.
        if d.outcome == Outcome::Abstain {
            let near: Vec<String> =
                d.contenders.iter().take(3).map(|c| format!("{} {:.2}", c.reflex, c.route)).collect();
            println!("        nearest {}", near.join(" · "));
        }
    }
}

/// The route's probability of the reflex a decision acts on.
fn route_p(d: &Decision) -> f64 {
    d.judgments.iter().find(|j| j.question == evoke_core::question::QuestionId::Route).map_or(0.0, |j| j.p)
}

struct Several {
    text: String,
    intents: Vec<String>,
}

fn several() -> Vec<Several> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/multi-step.jsonl");
    super::read_jsonl(&path)
        .into_iter()
        .map(|v| Several {
            text: v["text"].as_str().expect("a text").to_string(),
            intents: v["intents"]
                .as_array()
                .expect("intents")
                .iter()
                .map(|i| i.as_str().expect("an intent").to_string())
                .collect(),
        })
        .collect()
}

pub fn report(local: &Local, gate: Gate, show_cuts: bool) {
    let train = clinc("train.jsonl");
    let (intents, _) = split_train(&train);
    let catalog = super::catalog(&intents);
    let val: Vec<Item> = clinc("val.jsonl");
    decide(&catalog, local, gate, "warm up");
    let (mut alone, mut with_weave, mut cut) = (0usize, 0usize, 0usize);
    let mut kinds = [0usize; 3];
    for item in &val {
        let d = decide(&catalog, local, gate, &item.text);
        let acted_alone = d.outcome != Outcome::Abstain && d.reflex.as_deref() == Some(item.intent.as_str());
        let w = woven(&catalog, local, gate, &item.text);
        let acted_woven = acts_on_woven(&w, &item.intent);
        alone += usize::from(acted_alone);
        with_weave += usize::from(acted_woven);
        if show_cuts && acted_alone != acted_woven {
            let how = if acted_alone { "lost" } else { "gained" };
            println!("  {how}: {} {:?} ({}) → {:?}", top_two(&d.route), item.text, item.intent, steps_of(&w));
        }
        if is_cut(&w) {
            cut += 1;
            kinds[cut_kind(&w)] += 1;
            if show_cuts {
                println!("  cut: {} {:?} ({}) → {:?}", top_two(&d.route), item.text, item.intent, steps_of(&w));
                print_steps(&w);
            }
        }
    }
    let n = val.len() as f64;
    let pct = |k: usize, n: f64| 100.0 * k as f64 / n;
    println!("CLINC150 val, {} in-scope sentences, local, {} reflexes", val.len(), catalog.reflexes().len());
    println!("  right reflex acted on, decided alone   {:5.1}%", pct(alone, n));
    println!("  right reflex acted on, woven           {:5.1}%", pct(with_weave, n));
    println!(
        "  difference                             {:+5.2} points ({} sentences; goal: within 0.3)",
        pct(with_weave, n) - pct(alone, n),
        with_weave as i64 - alone as i64
    );
    println!("  cut at some place, or a part left out {:5.1}% ({cut})", pct(cut, n));
    println!("    only what not to do (nothing_to_do) {:5.1}% ({})", pct(kinds[0], n), kinds[0]);
    println!("    one step, a part left out or merged {:5.1}% ({})", pct(kinds[1], n), kinds[1]);
    println!("  read as more than one step            {:5.1}% ({}) (goal: at most 0.5%)", pct(kinds[2], n), kinds[2]);
    println!("    (two steps or more, or a plan of several parts refused)");
    let several = several();
    let (mut whole, mut steps_right, mut steps_all) = (0usize, 0usize, 0usize);
    for s in &several {
        let w = woven(&catalog, local, gate, &s.text);
        let got = steps_of(&w);
        if got == s.intents {
            whole += 1;
        }
        steps_all += s.intents.len();
        steps_right += s.intents.iter().zip(&got).filter(|(a, b)| a == b).count();
        if show_cuts {
            let d = decide(&catalog, local, gate, &s.text);
            let mark = if got == s.intents { "right" } else { "wrong" };
            println!("  several: {mark} {} {:?} {:?} → {:?}", top_two(&d.route), s.text, s.intents, got);
            print_steps(&w);
        }
    }
    println!("multi-step sentences (benches/multi-step.jsonl), {}", several.len());
    println!("  woven as written, every step right     {:5.1}% ({whole})", pct(whole, several.len() as f64));
    println!("  steps right in place                   {:5.1}%", pct(steps_right, steps_all as f64));
}
