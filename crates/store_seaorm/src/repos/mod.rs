//! The repositories, one folder per domain whose ports they implement. None imports another:
//! what two need is in `shared`.

mod accounts;
mod claims;
mod content;
mod drafts;
pub(crate) mod jobs;
mod listings;
mod orders;
