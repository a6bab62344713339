//! The operations, grouped by area. Each is a unit struct implementing `Operation`.

pub mod account;
pub mod badges;
pub mod blog;
pub mod catalog;
pub mod categories;
pub mod compare;
pub mod content;
pub mod drafts;
pub mod feeds;
pub mod founders;
pub mod launches;
pub mod listing;
pub mod owner;
pub mod rankings;
pub mod search;
pub mod site;

/// RFC 3339 text of an instant, as every timestamp in the API is written.
pub(crate) fn rfc3339(at: time::OffsetDateTime) -> String {
    at.to_offset(time::UtcOffset::UTC).format(&time::format_description::well_known::Rfc3339).unwrap_or_default()
}
