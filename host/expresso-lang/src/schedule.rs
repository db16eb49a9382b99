//! What an `on schedule "…"` string means to a host's clock.
//!
//! 002 gives a schedule only a name: the behavior fires on a `schedule` event whose `payload.name` is
//! the string. This implementation lets the string also say when, so the host's clock can send the
//! event itself. Two forms, both in UTC:
//!
//! - `every D`: D is a whole number with a unit (`s`, `m`, `h`, `d`, `w`), from 1 s to 366 d. The due
//!   times are the multiples of D since the Unix epoch, so `every 1h` is due on the hour and `every 1d`
//!   at 00:00 UTC.
//! - `daily HH:MM` (optionally followed by `UTC`), or `daily` alone for 00:00: once a day at that time.
//!
//! A string whose first word is `every` or `daily` (in any case, or run into a number: `every5m`) is a
//! clock form and must be one of these; checking refuses it otherwise, naming the fix. Any other string
//! is a name, as 002 has it: no clock sends it, and events so named come from outside.

/// The shortest and the longest period of `every`.
pub const MIN_PERIOD_MS: u64 = 1_000;
pub const MAX_PERIOD_MS: u64 = 366 * DAY_MS;
const DAY_MS: u64 = 86_400_000;

/// A clock form: due at every `offset_ms + k × period_ms` (k a whole number), in milliseconds since the
/// Unix epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    pub period_ms: u64,
    pub offset_ms: u64,
}

impl Clock {
    /// The latest due time at or before `t_ms`, if any is.
    pub fn due_at_or_before(&self, t_ms: u64) -> Option<u64> {
        let since = t_ms.checked_sub(self.offset_ms)?;
        Some(self.offset_ms + since / self.period_ms * self.period_ms)
    }

    /// The earliest due time strictly after `t_ms`.
    pub fn due_after(&self, t_ms: u64) -> u64 {
        match self.due_at_or_before(t_ms) {
            Some(due) => due.saturating_add(self.period_ms),
            None => self.offset_ms,
        }
    }
}

/// Why a clock form does not read, and what to write instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    pub reason: String,
    pub fix: &'static str,
}

const FIX: &str = "write `every 5m` (a whole number and one of s, m, h, d, w) or `daily 09:00` (UTC)";

/// `Ok(None)` for a name; `Ok(Some(clock))` for a clock form; `Err` for a string that starts as a clock
/// form and is not one.
pub fn parse(text: &str) -> Result<Option<Clock>, Refused> {
    let lower = text.to_ascii_lowercase();
    let word = lower.split_whitespace().next().unwrap_or("");
    let refused = |reason: String| Refused { reason, fix: FIX };
    // `every`, `daily`, or either run into a number (`every5m`); not a word that only begins so
    // (`everyone`, `dailies`), which is a name.
    let form = ["every", "daily"].into_iter().find(|form| {
        word.strip_prefix(form).is_some_and(|rest| rest.is_empty() || rest.starts_with(|c: char| c.is_ascii_digit()))
    });
    if let Some(form) = form {
        if word != form {
            return Err(refused(format!("`{text}`: write a space after `{form}`")));
        }
        if text.split_whitespace().next() != Some(form) {
            return Err(refused(format!("`{text}`: write `{form}` in lower case")));
        }
        let rest: Vec<&str> = text.split_whitespace().skip(1).collect();
        return if form == "every" { every(text, &rest) } else { daily(text, &rest) }.map(Some).map_err(refused);
    }
    Ok(None)
}

fn every(text: &str, rest: &[&str]) -> Result<Clock, String> {
    let [d] = rest else {
        return Err(format!("`{text}`: `every` takes one duration, like `every 5m`"));
    };
    let digits = d.bytes().take_while(u8::is_ascii_digit).count();
    let (number, unit) = d.split_at(digits);
    let unit_ms: u64 = match unit {
        "s" => 1_000,
        "m" => 60_000,
        "h" => 3_600_000,
        "d" => DAY_MS,
        "w" => 7 * DAY_MS,
        _ => return Err(format!("`{d}` in `{text}` is not a duration with a unit of s, m, h, d or w")),
    };
    let n: u64 = number
        .parse()
        .map_err(|_| format!("`{d}` in `{text}` is not a whole number with a unit of s, m, h, d or w"))?;
    let period = n
        .checked_mul(unit_ms)
        .filter(|p| (MIN_PERIOD_MS..=MAX_PERIOD_MS).contains(p))
        .ok_or_else(|| format!("`{text}`: the period must be from 1s to 366d"))?;
    Ok(Clock { period_ms: period, offset_ms: 0 })
}

fn daily(text: &str, rest: &[&str]) -> Result<Clock, String> {
    let (time, zone) = match rest {
        [] => ("00:00", None),
        [time] => (*time, None),
        [time, zone] => (*time, Some(*zone)),
        _ => return Err(format!("`{text}`: `daily` takes a time, like `daily 09:00`")),
    };
    let bad = || format!("`{time}` in `{text}` is not a time of day written HH:MM (00:00 to 23:59)");
    let (h, m) = time.split_once(':').ok_or_else(bad)?;
    if h.len() != 2 || m.len() != 2 || !h.bytes().chain(m.bytes()).all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let (h, m): (u64, u64) = (h.parse().map_err(|_| bad())?, m.parse().map_err(|_| bad())?);
    if h > 23 || m > 59 {
        return Err(bad());
    }
    if let Some(zone) = zone
        && zone != "UTC"
    {
        return Err(format!("`{text}`: times are UTC; `{zone}` is not supported"));
    }
    Ok(Clock { period_ms: DAY_MS, offset_ms: (h * 60 + m) * 60_000 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_forms_read_as_written() {
        assert_eq!(parse("every 5m"), Ok(Some(Clock { period_ms: 300_000, offset_ms: 0 })));
        assert_eq!(parse("every 2s"), Ok(Some(Clock { period_ms: 2_000, offset_ms: 0 })));
        assert_eq!(parse("every 1w"), Ok(Some(Clock { period_ms: 604_800_000, offset_ms: 0 })));
        assert_eq!(parse("daily 09:30"), Ok(Some(Clock { period_ms: 86_400_000, offset_ms: 34_200_000 })));
        assert_eq!(parse("daily 23:59 UTC"), Ok(Some(Clock { period_ms: 86_400_000, offset_ms: 86_340_000 })));
        assert_eq!(parse("daily"), Ok(Some(Clock { period_ms: 86_400_000, offset_ms: 0 })));
    }

    #[test]
    fn other_strings_are_names() {
        assert_eq!(parse("standup"), Ok(None));
        assert_eq!(parse("weekly review"), Ok(None));
        assert_eq!(parse("everyone sync"), Ok(None));
        assert_eq!(parse("dailies"), Ok(None));
        assert_eq!(parse(""), Ok(None));
    }

    #[test]
    fn a_malformed_clock_form_is_refused_with_its_reason() {
        for (text, says) in [
            ("every 5", "is not a duration"),
            ("every 5 minutes", "takes one duration"),
            ("every 0s", "from 1s to 366d"),
            ("every 500ms", "is not a duration"),
            ("every 367d", "from 1s to 366d"),
            ("every 99999999999999999999d", "not a whole number"),
            ("every5m", "a space after `every`"),
            ("Every 5m", "lower case"),
            ("daily 9:00", "HH:MM"),
            ("daily 24:00", "HH:MM"),
            ("daily 09:60", "HH:MM"),
            ("daily 09:00 CET", "times are UTC"),
            ("daily at 09:00", "HH:MM"),
            ("every", "takes one duration"),
        ] {
            let refused = parse(text).expect_err(text);
            assert!(refused.reason.contains(says), "{text}: {}", refused.reason);
            assert!(refused.fix.contains("every 5m"));
        }
    }

    #[test]
    fn due_times_are_the_period_s_multiples_after_the_offset() {
        let every = Clock { period_ms: 2_000, offset_ms: 0 };
        assert_eq!(every.due_at_or_before(5_999), Some(4_000));
        assert_eq!(every.due_at_or_before(6_000), Some(6_000));
        assert_eq!(every.due_after(6_000), 8_000);
        let daily = Clock { period_ms: 86_400_000, offset_ms: 34_200_000 };
        assert_eq!(daily.due_at_or_before(1_000), None);
        assert_eq!(daily.due_after(1_000), 34_200_000);
        // 2026-12-06 10:00 UTC is 1796551200000: the last due is 09:30 that day.
        assert_eq!(daily.due_at_or_before(1_796_551_200_000), Some(1_796_549_400_000));
    }
}
