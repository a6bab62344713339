//! How the API writes instants and reads calendar dates.

use schemars::{Schema, SchemaGenerator, json_schema};
use time::format_description::BorrowedFormatItem;
use time::macros::format_description;

/// A calendar date on the wire: `YYYY-MM-DD`.
const DATE: &[BorrowedFormatItem<'static>] = format_description!("[year]-[month]-[day]");

/// What a caller is told when a date is not `YYYY-MM-DD`.
pub(crate) const NOT_A_DATE: &str = "must be a date YYYY-MM-DD";

/// RFC 3339 text of an instant, as every timestamp in the API is written.
pub(crate) fn rfc3339(at: time::OffsetDateTime) -> String {
    at.to_offset(time::UtcOffset::UTC).format(&time::format_description::well_known::Rfc3339).unwrap_or_default()
}

/// Reads a `YYYY-MM-DD` date.
pub(crate) fn parse_date(value: &str) -> Option<time::Date> {
    time::Date::parse(value, DATE).ok()
}

/// The schema of a date input: a string of format `date`.
pub(crate) fn date_schema(_: &mut SchemaGenerator) -> Schema {
    json_schema!({"type": "string", "format": "date"})
}

/// garde check of a date input.
pub(crate) fn is_date(value: &str, _: &()) -> garde::Result {
    parse_date(value).map(|_| ()).ok_or_else(|| garde::Error::new(NOT_A_DATE))
}
