//! Days and civil dates, so a relative date (`tomorrow`) resolves against the event's time, never the clock.

use evoke_core::recognize::{CivilDate, DateReading};

/// Days since 1970-01-01 of a civil date (proleptic Gregorian); the tests check the inverse against it.
#[cfg(test)]
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// The UTC day of an event time in milliseconds.
pub fn today(t_event: u64) -> CivilDate {
    let (y, m, d) = civil_from_days((t_event / 86_400_000) as i64);
    CivilDate { year: y as i32, month: m as u32, day: d as u32 }
}

/// A date reading as `YYYY-MM-DD`, when it names one day: a calendar date, or days from the event's day.
/// A weekday or a bare day of the month is left unread (which one is meant is a guess).
pub fn written(reading: &DateReading, t_event: u64) -> Option<String> {
    let (y, m, d) = match reading {
        DateReading::Calendar { year, month, day } => (i64::from(*year), i64::from(*month), i64::from(*day)),
        DateReading::Offset { days } => civil_from_days((t_event / 86_400_000) as i64 + days),
        _ => return None,
    };
    (1..=9999).contains(&y).then(|| format!("{y:04}-{m:02}-{d:02}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_round_trip_and_offsets_read_from_event_time() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(civil_from_days(days_from_civil(2024, 2, 29)), (2024, 2, 29));
        // 2026-11-30T12:00Z, and tomorrow is 2026-12-01.
        let t = (days_from_civil(2026, 11, 30) * 86_400_000 + 43_200_000) as u64;
        assert_eq!(today(t), CivilDate { year: 2026, month: 11, day: 30 });
        assert_eq!(written(&DateReading::Offset { days: 1 }, t).as_deref(), Some("2026-12-01"));
        assert_eq!(written(&DateReading::Day { day: 3 }, t), None);
    }
}
