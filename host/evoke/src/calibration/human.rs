//! The calibration report as a person reads it.

use super::report::Report;
use std::fmt;

/// A number as the JSON line writes it (`0.5`, `1.0`), so the two forms of a report agree to the digit.
fn num(x: f64) -> String {
    serde_json::Value::from(x).to_string()
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let repeats = if self.repeats > 1 { format!(", each {} times", self.repeats) } else { String::new() };
        let playbooks = match self.playbooks {
            0 => String::new(),
            1 => " and 1 playbook".to_string(),
            n => format!(" and {n} playbooks"),
        };
        writeln!(
            f,
            "{} ({}) · {} records of {} reflexes{playbooks}{repeats}",
            self.adapter.name, self.adapter.id, self.records, self.reflexes
        )?;
        let o = &self.outcomes;
        writeln!(f, "  outcomes   run {} · confirm {} · ask {} · abstain {}", o.run, o.confirm, o.ask, o.abstain)?;
        writeln!(f, "  calls by confidence (claimed → right, 95% interval):")?;
        for b in &self.bins {
            writeln!(
                f,
                "    {:.1}–{:.1}  {:3} calls  {:.2} → {}/{}  [{:.2}, {:.2}]{}{}",
                b.lo,
                b.hi,
                b.calls,
                b.claimed,
                b.right,
                b.calls,
                b.interval[0],
                b.interval[1],
                if b.thin { " · thin" } else { "" },
                if b.over_confident { " · over-confident" } else { "" },
            )?;
        }
        if let Some(b) = &self.brier {
            writeln!(
                f,
                "  Brier      {} = reliability {} − resolution {} + uncertainty {}",
                num(b.brier),
                num(b.reliability),
                num(b.resolution),
                num(b.uncertainty)
            )?;
        }
        for (name, bar) in [("read", &self.bars.read), ("write", &self.bars.write)] {
            let Some(bar) = bar else { continue };
            writeln!(
                f,
                "  {name:5} bar {}: {} wrong of {} run · {} per thousand inputs, at most {}",
                num(bar.bar),
                bar.wrong,
                bar.calls,
                num(bar.per_thousand),
                num(bar.at_most)
            )?;
        }
        // The read-back's bar, where it held a call its confidence would have run.
        if let Some(whole) = self.bars.whole.as_ref().filter(|w| w.run < w.calls) {
            writeln!(
                f,
                "  whole bar {}: {} of {} calls over their bar run, {} wrong · {} right held for a person",
                num(whole.bar),
                whole.run,
                whole.calls,
                whole.wrong,
                whole.held_right
            )?;
        }
        for q in &self.questions {
            writeln!(f, "  {:8} {}/{} right, claimed {}", q.kind, q.right, q.judgments, num(q.claimed))?;
        }
        if !self.misses.is_empty() {
            writeln!(f, "  misses:")?;
            for m in &self.misses {
                writeln!(
                    f,
                    "    {:?}  {} {}  {}{}",
                    m.case,
                    m.outcome,
                    m.reflex.as_deref().unwrap_or(""),
                    m.mismatch,
                    if m.wrong { " · ran wrong" } else { "" }
                )?;
            }
        }
        if let Some(v) = &self.variance {
            writeln!(
                f,
                "  variance   {} winners flipped · {} verdicts flipped · spread median {} p90 {} max {}",
                v.flips,
                v.verdict_flips,
                num(v.spread.median),
                num(v.spread.p90),
                num(v.spread.max)
            )?;
        }
        Ok(())
    }
}
