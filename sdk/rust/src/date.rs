//! Days, and turning a date reading into one.

use crate::{CalendarDate, DateReading, Weekday, Which};
use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

/// A day of the proleptic Gregorian calendar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day {
    pub year: i32,
    pub month: u8,
    pub day: u8,
}

impl Day {
    /// A day, if it exists (`2026-02-30` does not).
    pub fn new(year: i32, month: u8, day: u8) -> Option<Day> {
        (1..=12).contains(&month)
            .then_some(())
            .filter(|_| day >= 1 && day <= days_in_month(year, month))
            .map(|_| Day { year, month, day })
    }

    /// Today in UTC, by the wall clock the host lends the body. A component has no time zone.
    pub fn today_utc() -> Day {
        let secs = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0);
        Day::from_days(secs.div_euclid(86_400))
    }

    /// Days since 1970-01-01.
    pub fn days(self) -> i64 {
        // Howard Hinnant's days_from_civil.
        let y = i64::from(self.year) - i64::from(self.month <= 2);
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = i64::from(self.month);
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(self.day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// The day `days` after 1970-01-01.
    pub fn from_days(days: i64) -> Day {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
        let year = (yoe + era * 400 + i64::from(month <= 2)) as i32;
        Day { year, month, day }
    }

    /// The day `n` days later (earlier for a negative `n`).
    pub fn add_days(self, n: i64) -> Day {
        Day::from_days(self.days() + n)
    }

    pub fn weekday(self) -> Weekday {
        // 1970-01-01 was a Thursday.
        match (self.days() + 3).rem_euclid(7) {
            0 => Weekday::Monday,
            1 => Weekday::Tuesday,
            2 => Weekday::Wednesday,
            3 => Weekday::Thursday,
            4 => Weekday::Friday,
            5 => Weekday::Saturday,
            _ => Weekday::Sunday,
        }
    }
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

fn is_leap(year: i32) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: i32, month: u8) -> u8 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(year) => 29,
        2 => 28,
        _ => 31,
    }
}

fn index(w: Weekday) -> i64 {
    match w {
        Weekday::Monday => 0,
        Weekday::Tuesday => 1,
        Weekday::Wednesday => 2,
        Weekday::Thursday => 3,
        Weekday::Friday => 4,
        Weekday::Saturday => 5,
        Weekday::Sunday => 6,
    }
}

impl DateReading {
    /// The day this reading names, seen from `today`:
    ///
    /// - an offset counts days from today (`tomorrow` is today + 1);
    /// - `friday` / `this friday` is the first Friday on or after today, `next friday` the one a week
    ///   after that, `last friday` the latest Friday before today;
    /// - `the 14th` is the 14th of this month when it is not yet past, else of the next month that has one;
    /// - a full date is itself, or `None` when it does not exist.
    pub fn resolve(&self, today: Day) -> Option<Day> {
        match self {
            DateReading::Offset(n) => Some(today.add_days(*n)),
            DateReading::Weekday(w) => {
                let ahead = (index(w.weekday) - index(today.weekday())).rem_euclid(7);
                Some(match w.which {
                    Which::This => today.add_days(ahead),
                    Which::Next => today.add_days(ahead + 7),
                    Which::Last => today.add_days(if ahead == 0 { -7 } else { ahead - 7 }),
                })
            }
            DateReading::Day(d) => {
                let (mut year, mut month) = (today.year, today.month);
                if *d < today.day {
                    (year, month) = next_month(year, month);
                }
                for _ in 0..12 {
                    if let Some(day) = Day::new(year, month, *d) {
                        return Some(day);
                    }
                    (year, month) = next_month(year, month);
                }
                None
            }
            DateReading::Calendar(CalendarDate { year, month, day }) => Day::new(*year, *month, *day),
        }
    }
}

fn next_month(year: i32, month: u8) -> (i32, u8) {
    if month == 12 { (year + 1, 1) } else { (year, month + 1) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::WeekdayReading;

    fn day(y: i32, m: u8, d: u8) -> Day {
        Day::new(y, m, d).unwrap()
    }

    #[test]
    fn days_round_trip() {
        for n in [-800_000, -1, 0, 1, 19_000, 20_577, 2_000_000] {
            assert_eq!(Day::from_days(n).days(), n);
        }
        assert_eq!(day(1970, 1, 1).days(), 0);
        assert_eq!(day(2026, 5, 4).weekday(), Weekday::Monday);
    }

    #[test]
    fn readings_resolve() {
        let monday = day(2026, 5, 4);
        let wd = |weekday, which| DateReading::Weekday(WeekdayReading { weekday, which });
        assert_eq!(DateReading::Offset(1).resolve(monday), Some(day(2026, 5, 5)));
        assert_eq!(wd(Weekday::Friday, Which::This).resolve(monday), Some(day(2026, 5, 8)));
        assert_eq!(wd(Weekday::Friday, Which::Next).resolve(monday), Some(day(2026, 5, 15)));
        assert_eq!(wd(Weekday::Friday, Which::Last).resolve(monday), Some(day(2026, 5, 1)));
        assert_eq!(wd(Weekday::Monday, Which::This).resolve(monday), Some(monday));
        assert_eq!(wd(Weekday::Monday, Which::Last).resolve(monday), Some(day(2026, 4, 27)));
        assert_eq!(DateReading::Day(14).resolve(monday), Some(day(2026, 5, 14)));
        assert_eq!(DateReading::Day(3).resolve(monday), Some(day(2026, 6, 3)));
        assert_eq!(DateReading::Day(31).resolve(day(2026, 6, 2)), Some(day(2026, 7, 31)));
        let feb30 = DateReading::Calendar(CalendarDate { year: 2026, month: 2, day: 30 });
        assert_eq!(feb30.resolve(monday), None);
    }
}
