//! Dates as pages write them for people: "28 November 2026", never an RFC 3339 stamp such as
//! `2026-11-28T10:43:35.831017765Z` (which is what the API's answers carry, for programs).

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// "28 November 2026" (the day in UTC, as the site's weeks are).
pub(crate) fn long_date(at: OffsetDateTime) -> String {
    long_day(at.to_offset(time::UtcOffset::UTC).date())
}

/// "7 December 2026".
pub(crate) fn long_day(day: time::Date) -> String {
    format!("{} {} {}", day.day(), day.month(), day.year())
}

/// "Monday 7 December 2026": the day a launch week begins, as a maker chooses it.
pub(crate) fn week_start(week: kernel::Week) -> String {
    format!("Monday {}", long_day(week.monday()))
}

/// `2026-11-28 10:43` (UTC): the site team's lists, where times sort and compare at a glance.
pub(crate) fn date_and_time(at: OffsetDateTime) -> String {
    let at = at.to_offset(time::UtcOffset::UTC);
    format!("{} {:02}:{:02}", at.date(), at.hour(), at.minute())
}

/// "29 November 2026, 19:15 UTC": a moment a person reads (a payment, an order's expiry).
pub(crate) fn long_date_time(at: OffsetDateTime) -> String {
    let at = at.to_offset(time::UtcOffset::UTC);
    format!("{}, {:02}:{:02} UTC", long_day(at.date()), at.hour(), at.minute())
}

/// [`long_date`] of an RFC 3339 time from an operation's answer; text that is not one is shown
/// as it came (it never is: the answers' times are written by the same library).
pub(crate) fn long_date_of(rfc3339: &str) -> String {
    OffsetDateTime::parse(rfc3339, &Rfc3339).map_or_else(|_| rfc3339.to_owned(), long_date)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_as_words() {
        assert_eq!(long_date_of("2026-11-28T10:43:35.831017765Z"), "28 November 2026");
        assert_eq!(long_date_of("2026-03-01T00:30:00+02:00"), "28 February 2026", "the day in UTC");
        assert_eq!(long_date_of("soon"), "soon");
        let at = OffsetDateTime::parse("2026-11-28T10:43:35+01:00", &Rfc3339).unwrap();
        assert_eq!(date_and_time(at), "2026-11-28 09:43");
        assert_eq!(long_date_time(at), "28 November 2026, 09:43 UTC");
        assert_eq!(week_start(kernel::Week::parse_date("2026-12-07").unwrap()), "Monday 7 December 2026");
    }
}
