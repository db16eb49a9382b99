//! The day a date reading names, resolved when the body runs and only then.

use evoke_core::recognize::DateReading;
use jiff::ToSpan;
use jiff::civil::{Date, Weekday};

/// The day a date reading names, counted from `today`. `this <weekday>` is the next such day on or after
/// today; `next <weekday>` the first one after today that is not today; `last <weekday>` the most recent
/// one before today; the 14th is the next 14th on or after today.
pub fn resolve(reading: &DateReading, today: Date) -> Option<Date> {
    match reading {
        DateReading::Offset { days } => today.checked_add((*days).days()).ok(),
        DateReading::Calendar { year, month, day } => {
            Date::new(i16::try_from(*year).ok()?, i8::try_from(*month).ok()?, i8::try_from(*day).ok()?).ok()
        }
        DateReading::Day { day } => {
            let day = i8::try_from(*day).ok()?;
            let mut month = today.first_of_month();
            for _ in 0..24 {
                if let Ok(candidate) = Date::new(month.year(), month.month(), day)
                    && candidate >= today
                {
                    return Some(candidate);
                }
                month = month.checked_add(1.month()).ok()?;
            }
            None
        }
        DateReading::Weekday { weekday, which } => {
            let wanted = weekday_named(weekday)?;
            let ahead = (wanted.to_monday_zero_offset() - today.weekday().to_monday_zero_offset()).rem_euclid(7) as i64;
            let days = match which.as_str() {
                "next" if ahead == 0 => 7,
                "last" => {
                    if ahead == 0 {
                        -7
                    } else {
                        ahead - 7
                    }
                }
                _ => ahead,
            };
            today.checked_add(days.days()).ok()
        }
    }
}

/// A day of the month (`the 7th`) read beside another date: the first such day on or after the day
/// `beside` names from `today`, as a calendar date. `None` where either names no day.
pub fn day_beside(day: &DateReading, beside: &DateReading, today: Date) -> Option<DateReading> {
    let DateReading::Day { .. } = day else { return None };
    let found = resolve(day, resolve(beside, today)?)?;
    Some(DateReading::Calendar { year: i32::from(found.year()), month: found.month() as u32, day: found.day() as u32 })
}

fn weekday_named(name: &str) -> Option<Weekday> {
    Some(match name {
        "monday" => Weekday::Monday,
        "tuesday" => Weekday::Tuesday,
        "wednesday" => Weekday::Wednesday,
        "thursday" => Weekday::Thursday,
        "friday" => Weekday::Friday,
        "saturday" => Weekday::Saturday,
        "sunday" => Weekday::Sunday,
        _ => return None,
    })
}

/// A day as the bodies' edge reads dates from it: today, for callers that only hand it on.
pub type Today = Date;

/// Today in the user's time zone.
pub fn today() -> Date {
    jiff::ZonedDateTime::now().date()
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    #[test]
    fn a_day_of_the_month_beside_a_date_is_the_first_such_day_on_or_after_it() {
        let today = date(2026, 12, 5);
        let seventh = DateReading::Day { day: 7 };
        let march = DateReading::Calendar { year: 2027, month: 3, day: 3 };
        let want = DateReading::Calendar { year: 2027, month: 3, day: 7 };
        assert_eq!(day_beside(&seventh, &march, today), Some(want));
        let second = DateReading::Day { day: 2 };
        let april = DateReading::Calendar { year: 2027, month: 4, day: 2 };
        assert_eq!(day_beside(&second, &march, today), Some(april), "a day before it is the next month's");
        assert_eq!(day_beside(&march, &march, today), None, "only a day of the month is read beside a date");
    }

    #[test]
    fn dates_resolve_from_today() {
        let monday = date(2026, 11, 30);
        let weekday = |w: &str, which: &str| DateReading::Weekday { weekday: w.into(), which: which.into() };
        assert_eq!(resolve(&DateReading::Offset { days: 1 }, monday), Some(date(2026, 12, 1)));
        assert_eq!(resolve(&weekday("friday", "this"), monday), Some(date(2026, 12, 4)));
        assert_eq!(resolve(&weekday("monday", "next"), monday), Some(date(2026, 12, 7)));
        assert_eq!(resolve(&weekday("monday", "this"), monday), Some(monday));
        assert_eq!(resolve(&weekday("friday", "last"), monday), Some(date(2026, 11, 27)));
        assert_eq!(resolve(&DateReading::Day { day: 14 }, monday), Some(date(2026, 12, 14)));
        assert_eq!(resolve(&DateReading::Day { day: 31 }, date(2027, 2, 1)), Some(date(2027, 3, 31)));
        assert_eq!(resolve(&DateReading::Calendar { year: 2027, month: 5, day: 4 }, monday), Some(date(2027, 5, 4)));
    }
}
