//! Launch weeks: Monday to Sunday, named by their Monday (`YYYY-MM-DD`).

use serde::{Deserialize, Serialize};
use time::{Date, Duration, OffsetDateTime, UtcOffset, Weekday, format_description::BorrowedFormatItem, macros::format_description};

const DATE: &[BorrowedFormatItem<'static>] = format_description!("[year]-[month]-[day]");

/// A launch week, identified by its Monday.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Week(Date);

impl Week {
    /// The week a date falls in.
    pub fn containing(date: Date) -> Self {
        let back = i64::from(date.weekday().number_days_from_monday());
        Self(date - Duration::days(back))
    }

    /// The week an instant falls in, seen from the launch time zone's offset.
    pub fn at(instant: OffsetDateTime, launch_offset: UtcOffset) -> Self {
        Self::containing(instant.to_offset(launch_offset).date())
    }

    /// Parses `YYYY-MM-DD` and snaps it to its Monday.
    pub fn parse_date(raw: &str) -> Option<Self> {
        Date::parse(raw, DATE).ok().map(Self::containing)
    }

    pub fn monday(self) -> Date {
        self.0
    }

    pub fn sunday(self) -> Date {
        self.0 + Duration::days(6)
    }

    pub fn plus_weeks(self, weeks: i64) -> Self {
        Self(self.0 + Duration::weeks(weeks))
    }

    /// When the week starts (Monday 00:00 in the launch time zone), as a UTC instant.
    pub fn starts_at(self, launch_offset: UtcOffset) -> OffsetDateTime {
        self.0.midnight().assume_offset(launch_offset).to_offset(UtcOffset::UTC)
    }

    /// When the week ends (the next Monday 00:00 in the launch time zone), as a UTC instant.
    pub fn ends_at(self, launch_offset: UtcOffset) -> OffsetDateTime {
        self.plus_weeks(1).starts_at(launch_offset)
    }

    pub fn is_monday(date: Date) -> bool {
        date.weekday() == Weekday::Monday
    }
}

impl std::fmt::Display for Week {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = self.0.format(DATE).map_err(|_| std::fmt::Error)?;
        f.write_str(&text)
    }
}

impl Serialize for Week {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Week {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = String::deserialize(deserializer)?;
        Self::parse_date(&raw).ok_or_else(|| serde::de::Error::custom("must be a date YYYY-MM-DD"))
    }
}

#[cfg(test)]
mod tests {
    use super::Week;
    use time::macros::{date, datetime, offset};

    #[test]
    fn snaps_to_monday() {
        assert_eq!(Week::containing(date!(2026 - 11 - 21)).monday(), date!(2026 - 11 - 16));
        assert_eq!(Week::containing(date!(2026 - 11 - 16)).monday(), date!(2026 - 11 - 16));
        assert_eq!(Week::containing(date!(2026 - 11 - 22)).sunday(), date!(2026 - 11 - 22));
        assert_eq!(Week::parse_date("2026-11-22").unwrap().to_string(), "2026-11-16");
        assert!(Week::parse_date("2026-13-01").is_none());
    }

    #[test]
    fn launch_offset_moves_the_boundary() {
        // Sunday 23:30 UTC is already Monday in UTC+1.
        let instant = datetime!(2026-11-22 23:30 UTC);
        assert_eq!(Week::at(instant, offset!(UTC)).to_string(), "2026-11-16");
        assert_eq!(Week::at(instant, offset!(+1)).to_string(), "2026-11-23");
    }

    #[test]
    fn boundaries_are_utc_instants() {
        let week = Week::parse_date("2026-11-16").unwrap();
        assert_eq!(week.starts_at(offset!(UTC)), datetime!(2026-11-16 00:00 UTC));
        assert_eq!(week.ends_at(offset!(UTC)), datetime!(2026-11-23 00:00 UTC));
        let berlin = week.starts_at(offset!(+1));
        assert_eq!(berlin, datetime!(2026-11-15 23:00 UTC));
        assert_eq!(berlin.offset(), offset!(UTC), "stored timestamps compare as UTC text on SQLite");
    }

    #[test]
    fn arithmetic() {
        let week = Week::parse_date("2026-11-16").unwrap();
        assert_eq!(week.plus_weeks(6).to_string(), "2026-12-28");
        assert_eq!(week.plus_weeks(-1).to_string(), "2026-11-09");
    }
}
