//! What the log says of past decisions: their outcomes, and the confirmed ones a person said yes or no
//! to, as far as the log records them. Each line is read as `evoke why` reads it.

use super::report::{LogSummary, Share, Stopped};
use super::stats::wilson;
use evoke_core::log_entry::{LogFault, read_log_entry};
use serde_json::Value;

/// The summary of a log's text, for the adapter named `adapter`.
pub fn summary(adapter: &str, log: &str) -> LogSummary {
    let mut s = LogSummary {
        adapter: adapter.to_string(),
        decisions: 0,
        ran: 0,
        confirmed_ran: 0,
        confirmed_stopped: 0,
        asked: 0,
        abstained: 0,
        failed: 0,
        skipped: 0,
        stopped_by_confidence: Vec::new(),
        records: Share { count: 0, right: 0, interval: [0.0, 1.0] },
        unread: 0,
    };
    let mut stopped = [0usize; 10];
    for line in log.lines().filter(|l| !l.trim().is_empty()) {
        let entry = match read_log_entry(line) {
            Ok(entry) => entry,
            Err(LogFault::NotJson { .. } | LogFault::OutOfRange { .. }) => {
                s.unread += 1;
                continue;
            }
            // JSON, but no decision's object: a decision that says nothing of how it ended.
            Err(LogFault::NotObject) => {
                s.decisions += 1;
                s.failed += 1;
                continue;
            }
        };
        s.decisions += 1;
        let confirmed = entry.line.get("confirmed").and_then(Value::as_bool);
        match entry.outcome.as_deref() {
            Some("run") if entry.line.get("error").is_some() => s.failed += 1,
            Some("run") => s.ran += 1,
            Some("confirm") => match confirmed {
                Some(true) => s.confirmed_ran += 1,
                Some(false) => s.confirmed_stopped += 1,
                None => {
                    s.skipped += 1;
                    let under_floor = entry
                        .line
                        .get("because")
                        .and_then(Value::as_array)
                        .is_some_and(|b| b.iter().any(|r| r["type"] == "under_floor"));
                    if under_floor {
                        let c = entry.line.get("confidence").and_then(Value::as_f64).unwrap_or(0.0);
                        stopped[((c * 10.0) as usize).min(9)] += 1;
                    }
                }
            },
            Some("ask") => s.asked += 1,
            Some("abstain") => s.abstained += 1,
            _ => s.failed += 1,
        }
    }
    s.stopped_by_confidence = stopped
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .map(|(i, c)| Stopped { lo: i as f64 / 10.0, hi: (i + 1) as f64 / 10.0, count: *c })
        .collect();
    s.records =
        Share { count: s.confirmed_ran, right: s.confirmed_ran, interval: wilson(s.confirmed_ran, s.confirmed_ran) };
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_counts_once_by_how_it_ended() {
        let log = concat!(
            "{\"outcome\":\"run\"}\n",
            "{\"outcome\":\"run\",\"error\":\"it failed\"}\n",
            "{\"outcome\":\"confirm\",\"confirmed\":true}\n",
            "{\"outcome\":\"confirm\",\"because\":[{\"type\":\"under_floor\"}],\"confidence\":0.45}\n",
            "{\"outcome\":\"ask\"}\n",
            "not json\n",
            "[1]\n",
        );
        let s = summary("replay", log);
        assert_eq!((s.decisions, s.unread), (6, 1));
        assert_eq!((s.ran, s.failed, s.confirmed_ran, s.skipped, s.asked), (1, 2, 1, 1, 1));
        assert_eq!(s.stopped_by_confidence.len(), 1);
        assert_eq!((s.stopped_by_confidence[0].lo, s.stopped_by_confidence[0].count), (0.4, 1));
    }
}
