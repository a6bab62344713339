#![doc = include_str!("../README.md")]

mod cached;
mod clock;
mod error;
mod faq;
mod ids;
mod money;
mod paging;
mod values;
mod week;

pub use cached::Cached;
pub use clock::{Clock, FixedClock, SystemClock};
pub use error::{FieldError, RepoError};
pub use faq::Faq;
pub use ids::{ApiKeyId, CategoryId, FounderId, ListingId, UserId};
pub use money::Cents;
pub use paging::{PageRequest, Paged};
pub use values::{CountryCode, Email, InvalidValue, Slug};
pub use week::Week;
