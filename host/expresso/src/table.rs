//! The table of the worked example: per event, its model leaves (fresh or journaled) and its world effects
//! with their idempotency keys (applied or already in W).

use expresso_runtime::Outcome;
use expresso_runtime::Step;
use std::fmt::Write as _;

pub fn render(outcome: &Outcome) -> String {
    // Events in the order their steps came, each with its leaves and its effects.
    let mut rows: Vec<(String, Vec<String>, Vec<String>)> = Vec::new();
    for step in &outcome.steps {
        let event = match step {
            Step::Leaf { event, .. } | Step::Effect { event, .. } => event,
        };
        if rows.last().is_none_or(|(e, _, _)| e != event) {
            rows.push((event.clone(), Vec::new(), Vec::new()));
        }
        let Some(row) = rows.last_mut() else { continue };
        match step {
            Step::Leaf { key, fresh, value, .. } => {
                let name = key.rsplit('/').next().unwrap_or(key);
                let how = if *fresh { "fresh" } else { "journaled" };
                row.1.push(format!("{name} → {value} ({how})"));
            }
            Step::Effect { key, applied, receipt, .. } => {
                let verb = receipt.get("verb").and_then(|v| v.as_str()).unwrap_or("?");
                let how = if *applied { "applied" } else { "already in W" };
                row.2.push(format!("{verb} {key} ({how})"));
            }
        }
    }
    let left = rows.iter().flat_map(|r| r.1.iter().map(|s| s.chars().count())).max().unwrap_or(0).max(22);
    let mut out = String::new();
    let _ = writeln!(out, "{:<6} {:<left$}  world effects (idemKey)", "event", "model leaf (journaled)");
    for (event, leaves, effects) in rows {
        let lines = leaves.len().max(effects.len()).max(1);
        for i in 0..lines {
            let e = if i == 0 { event.as_str() } else { "" };
            let l = leaves.get(i).map_or("", String::as_str);
            let w = effects.get(i).map_or(if i == 0 { "—" } else { "" }, String::as_str);
            let _ = writeln!(out, "{e:<6} {l:<left$}  {w}").map(|_| ());
        }
    }
    // Trailing spaces of short rows are noise in a transcript.
    out.lines().map(|l| format!("{}\n", l.trim_end())).collect()
}
